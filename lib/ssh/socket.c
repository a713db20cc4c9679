/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The sockets under the SSH connections: the TCP connect and the waits,
 * each bounded by a deadline on the ctx's monotonic clock.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ssh-priv.h"

/* The connection's monotonic clock in milliseconds, for deadlines. */
int64_t
lab_ssh_now(const struct lab_ssh *s)
{
	return s->ctx->monotonic_ms();
}

/*
 * Waits until the socket is ready the way libssh2 is blocked, or the
 * deadline (0: none). Returns 0, or -1 when the deadline passed.
 */
int
lab_ssh_wait(struct lab_ssh *s, int64_t deadline)
{
	struct pollfd	pfd = { .fd = s->fd };
	int		dir, timeout = -1;
	int64_t		left;

	dir = libssh2_session_block_directions(s->session);
	if (dir & LIBSSH2_SESSION_BLOCK_INBOUND)
		pfd.events |= POLLIN;
	if (dir & LIBSSH2_SESSION_BLOCK_OUTBOUND)
		pfd.events |= POLLOUT;
	if (pfd.events == 0)
		pfd.events = POLLIN;
	for (;;) {
		if (deadline > 0) {
			left = deadline - lab_ssh_now(s);
			if (left <= 0)
				return -1;
			timeout = left > 60000 ? 60000 : (int)left;
		}
		switch (poll(&pfd, 1, timeout)) {
		case -1:
			if (errno == EINTR)
				continue;
			return 0;	/* let libssh2 meet the error */
		case 0:
			continue;	/* the deadline check above decides */
		default:
			return 0;
		}
	}
}

/*
 * Opens a TCP connection to address:port before the deadline (on ctx's
 * clock), trying
 * each address the name has. Returns 0 with *ret_fd (non-blocking), or -1
 * with *ret_errno (ETIMEDOUT for the deadline; EAI errors as negatives).
 */
int
lab_ssh_tcp(const struct lab_ctx *ctx, const char *address, int port,
    int64_t deadline, int *ret_fd, int *ret_errno)
{
	struct addrinfo	 hints, *res = NULL, *ai;
	struct pollfd	 pfd;
	char		 service[16];
	socklen_t	 slen;
	int64_t		 left;
	int		 fd = -1, e = 0, rc, one = 1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(service, sizeof(service), "%d", port);
	if ((rc = getaddrinfo(address, service, &hints, &res)) != 0) {
		*ret_errno = rc == EAI_SYSTEM ? errno : -(rc < 0 ? -rc : rc);
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			if (lab_errno_local(e) != NULL)
				break;	/* this machine's limit: no use trying on */
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		e = errno;
		if (e == EINPROGRESS) {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			do {
				left = deadline - ctx->monotonic_ms();
				rc = left > 0 ? poll(&pfd, 1, (int)left) : 0;
			} while (rc < 0 && errno == EINTR);
			if (rc == 0)
				e = ETIMEDOUT;
			else {
				slen = sizeof(e);
				if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e,
				    &slen) < 0)
					e = errno;
				if (e == 0)
					break;
			}
		}
		close(fd);
		fd = -1;
		if (e == ETIMEDOUT)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		*ret_errno = e != 0 ? e : ECONNREFUSED;
		return -1;
	}
	/* libssh2 writes many small packets: no Nagle delay between them */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	*ret_fd = fd;
	return 0;
}
