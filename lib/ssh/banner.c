/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every read libssh2 makes goes through recv_bounded(), its receive
 * callback (LIBSSH2_CALLBACK_RECV): a read fails once the connection's
 * deadline has passed, so that no loop inside libssh2 outlives it (a
 * server flooding bytes keeps the socket readable, and libssh2 1.10 keeps
 * reading without returning to lab's own deadline checks); and before the
 * server's version line it reads byte by byte, drops the other lines RFC
 * 4253 4.2 lets a server send first (libssh2 1.10 would take the first
 * line for the version), and fails past LAB_SSH_BANNER_MAX of them. Then
 * libssh2 is handed "SSH-" and the rest of the line as it came.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "ssh-priv.h"

static const char version[4] = { 'S', 'S', 'H', '-' };

static ssize_t
recv_fd(libssh2_socket_t fd, void *buf, size_t len, int flags)
{
	ssize_t	n;

	n = recv(fd, buf, len, flags);
	return n < 0 ? -errno : n;
}

/* Before the version line: what libssh2 may have of it, byte by byte. */
static ssize_t
before_version(struct lab_ssh *s, libssh2_socket_t fd, char *buf,
    size_t len, int flags)
{
	struct lab_ssh_banner	*b = &s->banner;
	ssize_t			 n;
	char			 c;

	(void)len;	/* one byte at a time, as libssh2 asks for it */
	for (;;) {
		if (b->state == LAB_SSH_BANNER_GIVE) {
			buf[0] = version[b->given++];
			if (b->given == sizeof(version))
				b->state = LAB_SSH_BANNER_PASS;
			return 1;
		}
		if ((n = recv_fd(fd, &c, 1, flags)) <= 0)
			return n;
		if (++b->bytes > LAB_SSH_BANNER_MAX) {
			b->too_long = 1;
			return -EMSGSIZE;
		}
		if (b->state == LAB_SSH_BANNER_SKIP) {
			if (c == '\n')
				b->state = LAB_SSH_BANNER_LINE;
			continue;
		}
		if (c == version[b->nhead]) {
			if (++b->nhead == sizeof(version)) {
				b->state = LAB_SSH_BANNER_GIVE;
				b->given = 0;
			}
			continue;
		}
		/* not the version line: the rest of it goes */
		b->nhead = 0;
		b->state = c == '\n' ? LAB_SSH_BANNER_LINE :
		    LAB_SSH_BANNER_SKIP;
	}
}

static
LIBSSH2_RECV_FUNC(recv_bounded)
{
	struct lab_ssh	*s = *abstract;

	if (s->deadline > 0 && lab_ssh_now(s) >= s->deadline) {
		s->recv_late = 1;
		return -ETIMEDOUT;
	}
	if (s->banner.state != LAB_SSH_BANNER_PASS && length > 0)
		return before_version(s, socket, buffer, length, flags);
	return recv_fd(socket, buffer, length, flags);
}

/* Sets recv_bounded() as the session's receive callback. */
void
lab_ssh_recv_setup(struct lab_ssh *s)
{
	union {
		LIBSSH2_RECV_FUNC((*f));
		void	*p;
	} cb;

	memset(&s->banner, 0, sizeof(s->banner));
	cb.f = recv_bounded;
	libssh2_session_callback_set(s->session, LIBSSH2_CALLBACK_RECV, cb.p);
}

/* The deadline every read has from now (0: none), ms long. */
void
lab_ssh_deadline(struct lab_ssh *s, int64_t deadline, int ms)
{
	s->deadline = deadline;
	s->deadline_ms = ms;
	s->recv_late = 0;
}

/*
 * Sets err when the handshake failed before the server's version line
 * for too many bytes, or for the deadline (late; ms its length) after
 * the server sent something else, and returns -1; else 0 (a server that
 * said nothing at all times out as any handshake does).
 */
int
lab_ssh_banner_fail(struct lab_ssh *s, int late, int ms, struct lab_err *err)
{
	if (s->banner.state == LAB_SSH_BANNER_PASS ||
	    (!s->banner.too_long && (!late || s->banner.bytes == 0)))
		return 0;
	s->dead = 1;
	if (s->banner.too_long)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: SSH banner too "
		    "long (more than %zu bytes before the version line)",
		    s->peer, LAB_SSH_BANNER_MAX);
	return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: no SSH version line "
	    "within %g s", s->peer, ms / 1000.0);
}
