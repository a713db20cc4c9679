/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Commands and files over an SSH connection: exec channels and SFTP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/tail.h"
#include "ssh-priv.h"

#define READ_CHUNK	32768

/* Frees what a result holds and clears it. */
void
lab_ssh_result_free(struct lab_ssh_result *r)
{
	if (r == NULL)
		return;
	free(r->signal);
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
	r->exit_status = -1;
}

static int
unusable(struct lab_ssh *s, struct lab_err *err)
{
	return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: the connection is "
	    "unusable after an earlier failure", s->peer);
}

/*
 * Reads what is there on stream (0 stdout, 1 stderr) into t, through
 * chunk (READ_CHUNK bytes), until the deadline (0: none). Returns the
 * bytes read (0: none now), or a libssh2 error; *late is set when the
 * deadline passed.
 */
static ssize_t
drain(struct lab_ssh *s, LIBSSH2_CHANNEL *ch, int stream, struct lab_tail *t,
    char *chunk, int64_t deadline, int *late)
{
	ssize_t	n, total = 0;

	for (;;) {
		if (deadline > 0 && lab_ssh_now(s) >= deadline) {
			*late = 1;
			break;
		}
		n = libssh2_channel_read_ex(ch, stream, chunk, READ_CHUNK);
		if (n == LIBSSH2_ERROR_EAGAIN || n == 0)
			break;
		if (n < 0)
			return n;
		if (lab_tail_add(t, chunk, (size_t)n) < 0)
			return LIBSSH2_ERROR_ALLOC;
		total += n;
	}
	return total;
}

/* The exit status or signal of a closed channel. */
static int
exit_of(struct lab_ssh *s, LIBSSH2_CHANNEL *ch, struct lab_ssh_result *r,
    struct lab_err *err)
{
	char	*sig = NULL;
	size_t	 siglen = 0;

	if (libssh2_channel_get_exit_signal(ch, &sig, &siglen, NULL, NULL,
	    NULL, NULL) == 0 && sig != NULL) {
		r->signal = strndup(sig, siglen);
		libssh2_free(s->session, sig);
		r->exit_status = -1;
		return r->signal == NULL ? lab_err_oom(err) : 0;
	}
	r->exit_status = libssh2_channel_get_exit_status(ch);
	return 0;
}

/* Runs the open channel's command to its end; see lab_ssh_exec(). */
static int
run(struct lab_ssh *s, LIBSSH2_CHANNEL *ch, const char *input, size_t inlen,
    int64_t deadline, int ms, struct lab_tail *out, struct lab_tail *errb,
    char *chunk, struct lab_err *err)
{
	size_t	sent = 0;
	ssize_t	n, m = 0;
	int	eof_sent = 0, rc, progress, late = 0, queued = 0;

	for (;;) {
		if ((n = drain(s, ch, 0, out, chunk, deadline, &late)) < 0 ||
		    (m = drain(s, ch, 1, errb, chunk, deadline, &late)) < 0)
			return lab_ssh_fail_rc(s, n < 0 ? (int)n : (int)m,
			    "while running a command", err);
		/* an endless output ends at the deadline too */
		if (late)
			return lab_ssh_timed_out(s, "running a command", ms,
			    err);
		progress = n > 0 || m > 0;
		if (libssh2_channel_eof(ch))
			break;
		if (sent < inlen) {
			n = libssh2_channel_write(ch, input + sent,
			    inlen - sent);
			if (n > 0) {
				sent += (size_t)n;
				progress = 1;
			} else if (n != LIBSSH2_ERROR_EAGAIN) {
				if (lab_ssh_conn_lost((int)n))
					return lab_ssh_fail_rc(s, (int)n,
					    "while sending input", err);
				/* the command closed its stdin: drop it */
				sent = inlen;
			}
		}
		if (sent == inlen && !eof_sent) {
			rc = libssh2_channel_send_eof(ch);
			if (rc == 0)
				eof_sent = progress = 1;
			else if (rc != LIBSSH2_ERROR_EAGAIN) {
				if (lab_ssh_conn_lost(rc))
					return lab_ssh_fail_rc(s, rc,
					    "while sending input", err);
				eof_sent = 1;
			}
		}
		/*
		 * Reading stderr takes what the socket holds off it, stdout's
		 * packets too, into libssh2's queue, where poll() cannot see
		 * them: with the peer's window full nothing more would come,
		 * and the wait would last to the deadline. Read once more
		 * (once: a queued packet no read takes must not spin).
		 */
		if (progress)
			queued = 0;
		else if (!queued && libssh2_poll_channel_read(ch, 1) > 0) {
			queued = 1;
			continue;
		}
		if (!progress && lab_ssh_wait(s, deadline) < 0)
			return lab_ssh_timed_out(s, "running a command", ms,
			    err);
	}
	while ((rc = libssh2_channel_close(ch)) == LIBSSH2_ERROR_EAGAIN)
		if (lab_ssh_wait(s, deadline) < 0)
			return lab_ssh_timed_out(s, "running a command", ms,
			    err);
	if (rc < 0)
		return lab_ssh_fail_rc(s, rc, "while running a command", err);
	while ((rc = libssh2_channel_wait_closed(ch)) == LIBSSH2_ERROR_EAGAIN)
		if (lab_ssh_wait(s, deadline) < 0)
			return lab_ssh_timed_out(s, "running a command", ms,
			    err);
	if (rc < 0)
		return lab_ssh_fail_rc(s, rc, "while running a command", err);
	return 0;
}

/* Runs cmd through the remote shell; see include/lab/ssh.h. */
int
lab_ssh_exec(struct lab_ssh *s, const char *cmd, const void *input,
    size_t inlen, int timeout_ms, struct lab_ssh_result *r,
    struct lab_err *err)
{
	LIBSSH2_CHANNEL	*ch;
	struct lab_tail	 out, errb;
	char		*chunk;
	int64_t		 deadline;
	int		 rc, rv = -1;

	memset(r, 0, sizeof(*r));
	r->exit_status = -1;
	lab_tail_init(&out, LAB_SSH_OUTPUT_CAP);
	lab_tail_init(&errb, LAB_SSH_OUTPUT_CAP);
	if ((chunk = malloc(READ_CHUNK)) == NULL)
		return lab_err_oom(err);
	if (s->dead) {
		unusable(s, err);
		goto out;
	}
	deadline = timeout_ms > 0 ? lab_ssh_now(s) + timeout_ms : 0;
	lab_ssh_deadline(s, deadline, timeout_ms);
	while ((ch = libssh2_channel_open_session(s->session)) == NULL) {
		if (libssh2_session_last_errno(s->session) !=
		    LIBSSH2_ERROR_EAGAIN) {
			lab_ssh_fail(s, "opening a channel", err);
			goto out;
		}
		if (lab_ssh_wait(s, deadline) < 0) {
			lab_ssh_timed_out(s, "opening a channel", timeout_ms,
			    err);
			goto out;
		}
	}
	while ((rc = libssh2_channel_process_startup(ch, "exec", 4, cmd,
	    (unsigned int)strlen(cmd))) == LIBSSH2_ERROR_EAGAIN)
		if (lab_ssh_wait(s, deadline) < 0) {
			lab_ssh_timed_out(s, "starting a command", timeout_ms,
			    err);
			goto out;
		}
	if (rc < 0)
		lab_ssh_fail(s, "starting a command", err);
	else if (run(s, ch, input, inlen, deadline, timeout_ms, &out, &errb,
	    chunk, err) == 0)
		rv = exit_of(s, ch, r, err);
	/* a dead connection's channels go with the session */
	lab_ssh_deadline(s, 0, 0);
	if (!s->dead)
		while (libssh2_channel_free(ch) == LIBSSH2_ERROR_EAGAIN &&
		    lab_ssh_wait(s, lab_ssh_now(s) + s->io_timeout_ms) == 0)
			;
out:
	lab_ssh_deadline(s, 0, 0);
	free(chunk);
	r->outbytes = out.total;
	r->errbytes = errb.total;
	r->out = lab_tail_steal(&out, &r->outlen);
	r->err = lab_tail_steal(&errb, &r->errlen);
	lab_tail_release(&out);
	lab_tail_release(&errb);
	if ((r->out == NULL || r->err == NULL) && err->code == LAB_EXIT_OK) {
		lab_err_oom(err);
		rv = -1;
	}
	return rv;
}

/* The text of an SFTP status code. */
static const char *
sftp_text(unsigned long code)
{
	static const char *const text[] = {
		"ok", "end of file", "no such file or folder",
		"permission denied", "failure", "bad message",
		"no connection", "connection lost", "operation unsupported",
		"invalid handle", "no such path", "file already exists",
		"write protected", "no media", "no space left",
		"quota exceeded", "unknown principal", "lock conflict",
		"folder not empty", "not a folder", "invalid file name",
		"link loop",
	};

	return code < LAB_ARRAY_SIZE(text) ? text[code] : "SFTP error";
}

static int
sftp_fail(struct lab_ssh *s, const char *what, const char *path,
    struct lab_err *err)
{
	unsigned long	code;

	if (libssh2_session_last_errno(s->session) !=
	    LIBSSH2_ERROR_SFTP_PROTOCOL)
		return lab_ssh_fail(s, what, err);
	code = libssh2_sftp_last_error(s->sftp);
	return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s %s: %s (SFTP status "
	    "%lu)", s->peer, what, path, sftp_text(code), code);
}

/* Is the call still blocked? Then wait, with a stall deadline. */
static int
again(struct lab_ssh *s, int rc, const char *what, struct lab_err *err)
{
	if (rc != LIBSSH2_ERROR_EAGAIN)
		return 0;
	if (lab_ssh_wait(s, lab_ssh_now(s) + s->io_timeout_ms) < 0) {
		lab_ssh_timed_out(s, what, s->io_timeout_ms, err);
		return -1;
	}
	return 1;
}

static int
sftp_start(struct lab_ssh *s, struct lab_err *err)
{
	int	rc;

	while (s->sftp == NULL) {
		if ((s->sftp = libssh2_sftp_init(s->session)) != NULL)
			break;
		rc = libssh2_session_last_errno(s->session);
		if ((rc = again(s, rc, "starting SFTP", err)) < 0)
			return -1;
		if (rc == 0)
			return lab_ssh_fail(s, "starting SFTP", err);
	}
	return 0;
}

/* Writes the whole of data to tmp with mode, then syncs it. */
static int
sftp_write(struct lab_ssh *s, const char *tmp, const char *data, size_t len,
    int mode, struct lab_err *err)
{
	LIBSSH2_SFTP_HANDLE	*h;
	LIBSSH2_SFTP_ATTRIBUTES	 attrs;
	size_t			 off = 0;
	ssize_t			 n;
	int			 rc, rv = -1;

	while ((h = libssh2_sftp_open_ex(s->sftp, tmp,
	    (unsigned int)strlen(tmp), LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT |
	    LIBSSH2_FXF_TRUNC, mode, LIBSSH2_SFTP_OPENFILE)) == NULL) {
		rc = libssh2_session_last_errno(s->session);
		if ((rc = again(s, rc, "writing a file", err)) < 0)
			return -1;
		if (rc == 0)
			return sftp_fail(s, "cannot create", tmp, err);
	}
	while (off < len) {
		n = libssh2_sftp_write(h, data + off, len - off);
		if (n >= 0)
			off += (size_t)n;
		else if ((rc = again(s, (int)n, "writing a file", err)) < 0)
			goto out;
		else if (rc == 0) {
			sftp_fail(s, "cannot write", tmp, err);
			goto out;
		}
	}
	/* open() applied the remote umask: set the mode asked for */
	memset(&attrs, 0, sizeof(attrs));
	attrs.flags = LIBSSH2_SFTP_ATTR_PERMISSIONS;
	attrs.permissions = (unsigned long)mode;
	while ((rc = libssh2_sftp_fsetstat(h, &attrs)) != 0)
		if ((rc = again(s, rc, "writing a file", err)) < 0)
			goto out;
		else if (rc == 0) {
			sftp_fail(s, "cannot set the mode of", tmp, err);
			goto out;
		}
	/* fsync@openssh.com; a server without it is not an error */
	while ((rc = libssh2_sftp_fsync(h)) == LIBSSH2_ERROR_EAGAIN)
		if (again(s, rc, "writing a file", err) < 0)
			goto out;
	rv = 0;
out:
	while ((rc = libssh2_sftp_close_handle(h)) == LIBSSH2_ERROR_EAGAIN &&
	    !s->dead)
		if (again(s, rc, "writing a file", err) < 0)
			break;
	if (rv == 0 && rc < 0)
		rv = sftp_fail(s, "cannot close", tmp, err);
	return rv;
}

/* 'path' for the shell, or NULL when out of memory. */
static char *
shell_quote(const char *path)
{
	size_t	 len = 3;
	char	*q, *p;

	for (p = (char *)path; *p != '\0'; p++)
		len += *p == '\'' ? 4 : 1;
	if ((q = malloc(len)) == NULL)
		return NULL;
	p = q;
	*p++ = '\'';
	for (; *path != '\0'; path++)
		if (*path == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else
			*p++ = *path;
	*p++ = '\'';
	*p = '\0';
	return q;
}

/* Moves tmp over path with "mv -f" (SFTP's rename will not replace). */
static int
move(struct lab_ssh *s, const char *tmp, const char *path,
    struct lab_err *err)
{
	struct lab_ssh_result	 r;
	char			*qt, *qp, *cmd = NULL;
	int			 rv = -1;

	qt = shell_quote(tmp);
	qp = shell_quote(path);
	if (qt == NULL || qp == NULL ||
	    asprintf(&cmd, "mv -f -- %s %s", qt, qp) < 0) {
		cmd = NULL;
		lab_err_oom(err);
		goto out;
	}
	if (lab_ssh_exec(s, cmd, NULL, 0, s->io_timeout_ms, &r, err) == 0) {
		if (r.exit_status == 0)
			rv = 0;
		else {
			while (r.errlen > 0 && r.err[r.errlen - 1] == '\n')
				r.err[--r.errlen] = '\0';
			lab_err_set(err, LAB_EXIT_PARTIAL,
			    "%s: cannot rename %s to %s: %s", s->peer, tmp,
			    path, r.errlen > 0 ? r.err : "mv failed");
		}
	}
	lab_ssh_result_free(&r);
out:
	free(qt);
	free(qp);
	free(cmd);
	return rv;
}

/* Writes data to path atomically; see include/lab/ssh.h. */
int
lab_ssh_upload(struct lab_ssh *s, const char *path, const void *data,
    size_t len, int mode, struct lab_err *err)
{
	char	*tmp = NULL;
	int	 rv = -1;

	if (s->dead)
		return unusable(s, err);
	if (path == NULL || path[0] == '\0' || mode < 0 || mode > 07777)
		return lab_err_set(err, LAB_EXIT_INPUT, "%s: upload: bad path "
		    "or mode", s->peer);
	if (asprintf(&tmp, "%s.lab-tmp", path) < 0)
		return lab_err_oom(err);
	if (sftp_start(s, err) < 0)
		goto out;
	if (sftp_write(s, tmp, data, len, mode, err) == 0 &&
	    move(s, tmp, path, err) == 0) {
		rv = 0;
		goto out;
	}
	/* leave no temporary file behind, when the connection still works */
	while (!s->dead && libssh2_sftp_unlink_ex(s->sftp, tmp,
	    (unsigned int)strlen(tmp)) == LIBSSH2_ERROR_EAGAIN)
		if (lab_ssh_wait(s, lab_ssh_now(s) + s->io_timeout_ms) < 0)
			break;
out:
	free(tmp);
	return rv;
}
