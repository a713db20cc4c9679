/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SSH connections on libssh2, non-blocking throughout: every wait is a
 * poll() bounded by the connection's deadline (lib/ssh/socket.c), so one
 * dead host costs one timeout. See include/lab/ssh.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lab/file.h"
#include "lab/reason.h"
#include "ssh-priv.h"

static pthread_once_t	init_once = PTHREAD_ONCE_INIT;
static int		init_rc = -1;

static void
init(void)
{
	init_rc = libssh2_init(0);
}

/* libssh2's allocator: every block is wiped before it is freed. */
static void *
ssh_alloc(size_t n, void **abstract)
{
	(void)abstract;
	return malloc(n);
}

static void
ssh_free(void *p, void **abstract)
{
	(void)abstract;
	if (p == NULL)
		return;
	explicit_bzero(p, malloc_usable_size(p));
	free(p);
}

static void *
ssh_realloc(void *p, size_t n, void **abstract)
{
	void	*q;
	size_t	 old;

	if (p == NULL)
		return malloc(n);
	if ((q = malloc(n)) == NULL)
		return NULL;
	old = malloc_usable_size(p);
	memcpy(q, p, old < n ? old : n);
	ssh_free(p, abstract);
	return q;
}

/* libssh2's last error message. */
static const char *
last_error(struct lab_ssh *s, int *code)
{
	char	*msg = NULL;
	int	 len, rc;

	rc = libssh2_session_last_error(s->session, &msg, &len, 0);
	if (code != NULL)
		*code = rc;
	return msg != NULL && *msg != '\0' ? msg : "unknown libssh2 error";
}

/* Is a libssh2 error the connection's end? */
int
lab_ssh_conn_lost(int rc)
{
	switch (rc) {
	case LIBSSH2_ERROR_SOCKET_NONE:
	case LIBSSH2_ERROR_BANNER_RECV:
	case LIBSSH2_ERROR_BANNER_SEND:
	case LIBSSH2_ERROR_SOCKET_SEND:
	case LIBSSH2_ERROR_SOCKET_RECV:
	case LIBSSH2_ERROR_SOCKET_DISCONNECT:
	case LIBSSH2_ERROR_SOCKET_TIMEOUT:
	case LIBSSH2_ERROR_TIMEOUT:
	case LIBSSH2_ERROR_DECRYPT:
	case LIBSSH2_ERROR_INVALID_MAC:
	case LIBSSH2_ERROR_BAD_SOCKET:
		return 1;
	default:
		return 0;
	}
}

/*
 * Sets err for a failed step from libssh2's last error (classified by rc
 * when not 0) and marks a lost connection dead; returns -1.
 */
int
lab_ssh_fail_rc(struct lab_ssh *s, int rc, const char *what,
    struct lab_err *err)
{
	const char	*msg;
	int		 last;

	msg = last_error(s, &last);
	if (rc == 0)
		rc = last;
	/* a read refused for the deadline (banner.c) */
	if (s->recv_late)
		return lab_ssh_timed_out(s, what, s->deadline_ms, err);
	if (lab_ssh_conn_lost(rc)) {
		s->dead = 1;
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "%s: connection lost %s: %s", s->peer, what, msg);
	}
	if (rc == LIBSSH2_ERROR_ALLOC)
		return lab_err_set(err, LAB_EXIT_ENV, "%s: %s: out of memory",
		    s->peer, what);
	return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s: %s", s->peer, what,
	    msg);
}

/* lab_ssh_fail_rc() with libssh2's last error code. */
int
lab_ssh_fail(struct lab_ssh *s, const char *what, struct lab_err *err)
{
	return lab_ssh_fail_rc(s, 0, what, err);
}

/* Sets a timeout error and marks the connection dead; returns -1. */
int
lab_ssh_timed_out(struct lab_ssh *s, const char *what, int ms,
    struct lab_err *err)
{
	s->dead = 1;
	return lab_err_why(err, LAB_REASON_TIMEOUT, LAB_EXIT_PARTIAL,
	    "%s: timed out after %d ms "
	    "%s", s->peer, ms, what);
}

static int
handshake(struct lab_ssh *s, int64_t deadline, int ms, struct lab_err *err)
{
	const char	*msg;
	int		 rc;

	while ((rc = libssh2_session_handshake(s->session, s->fd)) ==
	    LIBSSH2_ERROR_EAGAIN)
		if (lab_ssh_wait(s, deadline) < 0) {
			if (lab_ssh_banner_fail(s, 1, ms, err) < 0)
				return -1;
			return lab_ssh_timed_out(s, "in the SSH handshake",
			    ms, err);
		}
	if (rc == 0)
		return 0;
	if (lab_ssh_banner_fail(s, s->recv_late, ms, err) < 0)
		return -1;
	if (s->recv_late)
		return lab_ssh_timed_out(s, "in the SSH handshake", ms, err);
	msg = last_error(s, NULL);
	switch (rc) {
	case LIBSSH2_ERROR_BANNER_RECV:
	case LIBSSH2_ERROR_SOCKET_DISCONNECT:
	case LIBSSH2_ERROR_SOCKET_RECV:
	case LIBSSH2_ERROR_SOCKET_SEND:
		/* an SSH server closing the door, or not an SSH server */
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: the server "
		    "closed the connection in the SSH handshake: %s", s->peer,
		    msg);
	case LIBSSH2_ERROR_ALLOC:
		return lab_err_oom(err);
	default:
		return lab_ssh_kex_explain(s, deadline, msg, err);
	}
}

/* Is name one of the comma-separated methods? */
static int
has_method(const char *list, const char *name)
{
	return lab_ssh_list_common(name, list);
}

/* Keyboard-interactive: the password for every hidden prompt. */
static void
kbd_answer(const char *name, int name_len, const char *instruction,
    int instruction_len, int n, const LIBSSH2_USERAUTH_KBDINT_PROMPT *prompts,
    LIBSSH2_USERAUTH_KBDINT_RESPONSE *responses, void **abstract)
{
	struct lab_ssh	*s = *abstract;
	int		 i;

	(void)name;
	(void)name_len;
	(void)instruction;
	(void)instruction_len;
	for (i = 0; i < n; i++) {
		const char *a = prompts[i].echo || s->password == NULL ? "" :
		    s->password;

		/* libssh2 frees it with ssh_free(), which wipes it */
		responses[i].text = strdup(a);
		responses[i].length = responses[i].text != NULL ?
		    (unsigned int)strlen(a) : 0;
	}
}

static int
auth_key(struct lab_ssh *s, const char *user, const char *identity,
    const char *passphrase, int64_t deadline, int ms, char *why,
    size_t whysize, struct lab_err *err)
{
	int	rc;

	/* libssh2 reads it: a FIFO would hang there */
	if ((rc = lab_file_open_read(identity, LAB_EXIT_ENV, err)) == -2) {
		lab_err_prefix(err, "%s: the key file", s->peer);
		return -1;
	}
	if (rc == -1)
		return lab_err_set(err, LAB_EXIT_ENV, "%s: cannot read the key "
		    "file %s: %s", s->peer, identity, strerror(errno));
	close(rc);
	while ((rc = libssh2_userauth_publickey_fromfile_ex(s->session, user,
	    (unsigned int)strlen(user), NULL, identity,
	    passphrase != NULL ? passphrase : "")) == LIBSSH2_ERROR_EAGAIN)
		if (lab_ssh_wait(s, deadline) < 0)
			return lab_ssh_timed_out(s, "in authentication", ms,
			    err);
	if (rc == 0)
		return 1;
	if (rc == LIBSSH2_ERROR_FILE)
		return lab_err_set(err, LAB_EXIT_ENV, "%s: cannot use the key "
		    "file %s (%s): %s", s->peer, identity, passphrase != NULL ?
		    "wrong passphrase, or a format libssh2 cannot read" :
		    "encrypted, or a format libssh2 cannot read",
		    last_error(s, NULL));
	if (lab_ssh_conn_lost(rc))
		return lab_ssh_fail(s, "in authentication", err);
	if (lab_ssh_key_is_rsa(identity))
		snprintf(why, whysize, "the RSA key %s was refused (libssh2 "
		    "1.10 signs RSA keys with SHA-1 ssh-rsa, which OpenSSH 8.8 "
		    "and later refuse: use an ed25519 or ecdsa key)", identity);
	else
		snprintf(why, whysize, "the key %s was refused", identity);
	return 0;
}

static int
auth_agent(struct lab_ssh *s, const char *user, int64_t deadline, int ms,
    char *why, size_t whysize, struct lab_err *err)
{
	LIBSSH2_AGENT			*agent;
	struct libssh2_agent_publickey	*id = NULL, *prev = NULL;
	int				 rc, tried = 0, ok = 0;

	if ((agent = libssh2_agent_init(s->session)) == NULL)
		return lab_err_oom(err);
	if (libssh2_agent_connect(agent) != 0) {
		libssh2_agent_free(agent);
		return lab_err_set(err, LAB_EXIT_ENV, "%s: no identity file "
		    "set and no ssh-agent to ask (SSH_AUTH_SOCK unset or not "
		    "answering)", s->peer);
	}
	if (libssh2_agent_list_identities(agent) != 0) {
		lab_err_set(err, LAB_EXIT_ENV, "%s: cannot list the "
		    "ssh-agent's keys: %s", s->peer, last_error(s, NULL));
		goto out;
	}
	while (!ok && libssh2_agent_get_identity(agent, &id, prev) == 0) {
		tried++;
		while ((rc = libssh2_agent_userauth(agent, user, id)) ==
		    LIBSSH2_ERROR_EAGAIN)
			if (lab_ssh_wait(s, deadline) < 0) {
				lab_ssh_timed_out(s, "in authentication", ms,
				    err);
				goto out;
			}
		if (rc == 0)
			ok = 1;
		else if (lab_ssh_conn_lost(rc)) {
			lab_ssh_fail(s, "in authentication", err);
			goto out;
		}
		prev = id;
	}
	if (!ok)
		snprintf(why, whysize, tried > 0 ? "the ssh-agent's %d keys "
		    "were refused" : "the ssh-agent holds no key", tried);
out:
	libssh2_agent_disconnect(agent);
	libssh2_agent_free(agent);
	return err->code != LAB_EXIT_OK ? -1 : ok;
}

static int
auth_password(struct lab_ssh *s, const char *user, const char *password,
    const char *methods, int64_t deadline, int ms, char *why,
    size_t whysize, struct lab_err *err)
{
	unsigned int	ulen = (unsigned int)strlen(user);
	int		rc;

	if (has_method(methods, "password")) {
		while ((rc = libssh2_userauth_password_ex(s->session, user,
		    ulen, password, (unsigned int)strlen(password), NULL)) ==
		    LIBSSH2_ERROR_EAGAIN)
			if (lab_ssh_wait(s, deadline) < 0)
				return lab_ssh_timed_out(s,
				    "in authentication", ms, err);
	} else {
		s->password = password;
		while ((rc = libssh2_userauth_keyboard_interactive_ex(
		    s->session, user, ulen, kbd_answer)) ==
		    LIBSSH2_ERROR_EAGAIN)
			if (lab_ssh_wait(s, deadline) < 0) {
				s->password = NULL;
				return lab_ssh_timed_out(s,
				    "in authentication", ms, err);
			}
		s->password = NULL;
	}
	if (rc == 0)
		return 1;
	if (lab_ssh_conn_lost(rc))
		return lab_ssh_fail(s, "in authentication", err);
	snprintf(why, whysize, rc == LIBSSH2_ERROR_PASSWORD_EXPIRED ?
	    "the password has expired" : "the password was refused");
	return 0;
}

static int
authenticate(struct lab_ssh *s, const struct lab_ssh_opts *o,
    int64_t deadline, int ms, struct lab_err *err)
{
	const char	*user = o->user != NULL ? o->user : "root";
	char		*methods, why[400] = "", why2[160] = "";
	int		 ok = 0;

	while ((methods = libssh2_userauth_list(s->session, user,
	    (unsigned int)strlen(user))) == NULL) {
		if (libssh2_userauth_authenticated(s->session))
			return 0;
		if (libssh2_session_last_errno(s->session) !=
		    LIBSSH2_ERROR_EAGAIN)
			return lab_ssh_fail(s,
			    "asking for the authentication methods", err);
		if (lab_ssh_wait(s, deadline) < 0)
			return lab_ssh_timed_out(s, "in authentication", ms,
			    err);
	}
	if (has_method(methods, "publickey")) {
		if (o->identity != NULL)
			ok = auth_key(s, user, o->identity, o->passphrase,
			    deadline, ms, why, sizeof(why), err);
		else if (o->password == NULL)
			ok = auth_agent(s, user, deadline, ms, why, sizeof(why),
			    err);
	} else if (o->identity != NULL || o->password == NULL)
		snprintf(why, sizeof(why), "the server takes no public key");
	if (ok != 0)
		return ok < 0 ? -1 : 0;
	if (o->password != NULL && (has_method(methods, "password") ||
	    has_method(methods, "keyboard-interactive"))) {
		ok = auth_password(s, user, o->password, methods, deadline, ms,
		    why2, sizeof(why2), err);
		if (ok != 0)
			return ok < 0 ? -1 : 0;
	} else if (o->password != NULL)
		snprintf(why2, sizeof(why2), "the server takes no password");
	return lab_err_why(err, LAB_REASON_AUTH, LAB_EXIT_PARTIAL,
	    "%s: authentication as '%s' "
	    "failed (the server takes %s): %s%s%s", s->peer, user, methods,
	    why, why[0] != '\0' && why2[0] != '\0' ? "; " : "", why2);
}

static int
set_prefs(struct lab_ssh *s, struct lab_err *err)
{
	int	k;

	for (k = 0; k < LAB_SSH_KINDS; k++) {
		if (k != LIBSSH2_METHOD_HOSTKEY && lab_ssh_algs(s->session, k,
		    s->legacy, s->prefs[k], sizeof(s->prefs[k])) < 0)
			return lab_err_set(err, LAB_EXIT_ENV, "%s: libssh2 "
			    "supports none of lab's algorithms of kind %d",
			    s->peer, k);
		if (libssh2_session_method_pref(s->session, k,
		    s->prefs[k]) != 0)
			return lab_err_set(err, LAB_EXIT_ENV, "%s: libssh2 "
			    "refuses the algorithms %s: %s", s->peer,
			    s->prefs[k], last_error(s, NULL));
	}
	return 0;
}

static int
check_opts(const struct lab_ssh_opts *o, struct lab_err *err)
{
	if (o == NULL || o->address == NULL || o->address[0] == '\0')
		return lab_err_set(err, LAB_EXIT_INPUT, "%s%sssh: no address",
		    o != NULL && o->label != NULL ? o->label : "",
		    o != NULL && o->label != NULL ? ": " : "");
	if (o->port < 0 || o->port > 65535 || o->connect_timeout_ms < 0 ||
	    strlen(o->address) >= 256)
		return lab_err_set(err, LAB_EXIT_INPUT, "%s%sssh %s: bad port, "
		    "address or timeout", o->label != NULL ? o->label : "",
		    o->label != NULL ? ": " : "", o->address);
	return 0;
}

/* Connects, checks the host key and authenticates. */
int
lab_ssh_connect(const struct lab_ssh_opts *o, struct lab_ssh **ret,
    struct lab_ssh_hostkey *key, struct lab_err *err)
{
	struct lab_ssh_hostkey	 spare;
	struct lab_ssh_known	*known = NULL;
	struct lab_ssh		*s;
	int64_t			 deadline;
	int			 ms, e, rv = -1;

	if (key == NULL)
		key = &spare;
	memset(key, 0, sizeof(*key));
	if (check_opts(o, err) < 0)
		return -1;
	pthread_once(&init_once, init);
	if (init_rc != 0)
		return lab_err_set(err, LAB_EXIT_ENV, "cannot start libssh2");
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return lab_err_oom(err);
	s->fd = -1;
	s->ctx = o->ctx != NULL ? o->ctx : lab_ctx_default();
	s->legacy = o->legacy_crypto != 0;
	s->port = o->port != 0 ? o->port : LAB_SSH_PORT;
	ms = o->connect_timeout_ms != 0 ? o->connect_timeout_ms :
	    LAB_SSH_CONNECT_TIMEOUT_MS;
	s->io_timeout_ms = ms;
	snprintf(s->address, sizeof(s->address), "%s", o->address);
	snprintf(s->peer, sizeof(s->peer), "%s%sssh %s%s%s:%d",
	    o->label != NULL ? o->label : "", o->label != NULL ? ": " : "",
	    strchr(o->address, ':') != NULL ? "[" : "", o->address,
	    strchr(o->address, ':') != NULL ? "]" : "", s->port);
	deadline = lab_ssh_now(s) + ms;

	s->session = libssh2_session_init_ex(ssh_alloc, ssh_free, ssh_realloc,
	    s);
	if (s->session == NULL) {
		lab_err_oom(err);
		goto out;
	}
	libssh2_session_set_blocking(s->session, 0);
	lab_ssh_recv_setup(s);
	lab_ssh_deadline(s, deadline, ms);
	if (lab_ssh_known_load(s, o->known_hosts, &known, err) < 0 ||
	    lab_ssh_known_prefs(s, known, err) < 0 || set_prefs(s, err) < 0)
		goto out;
	if (lab_ssh_tcp(s->ctx, s->address, s->port, deadline, &s->fd,
	    &e) < 0) {
		if (e == ETIMEDOUT)
			lab_err_why(err, LAB_REASON_TIMEOUT, LAB_EXIT_PARTIAL,
			    "%s: timed out after %d ms connecting", s->peer,
			    ms);
		else if (e > 0 && lab_errno_local(e) != NULL)
			lab_err_local(err, "cannot open a socket for %s: %s",
			    s->peer, lab_errno_local(e));
		else if (e == -EAI_MEMORY)
			lab_err_oom(err);
		else
			lab_err_why(err, e == ECONNREFUSED ?
			    LAB_REASON_REFUSED : LAB_REASON_UNREACHABLE,
			    LAB_EXIT_PARTIAL, "%s: cannot connect: %s",
			    s->peer, e < 0 ? gai_strerror(-e) : strerror(e));
		goto out;
	}
	if (handshake(s, deadline, ms, err) < 0 ||
	    lab_ssh_known_check(s, known, o->accept_new, key, err) < 0 ||
	    authenticate(s, o, deadline, ms, err) < 0)
		goto out;
	lab_ssh_deadline(s, 0, 0);
	*ret = s;
	s = NULL;
	rv = 0;
out:
	lab_ssh_known_free(known);
	lab_ssh_close(s);
	return rv;
}

/* Disconnects and frees; NULL ok. */
void
lab_ssh_close(struct lab_ssh *s)
{
	int64_t	deadline;

	if (s == NULL)
		return;
	/*
	 * A dead connection is shut so that libssh2 fails at once instead
	 * of waiting for the peer to close channels; a live one gets a
	 * bounded wait.
	 */
	if (s->dead && s->fd >= 0)
		shutdown(s->fd, SHUT_RDWR);
	deadline = lab_ssh_now(s) + 2000;
	if (s->session != NULL)
		lab_ssh_deadline(s, deadline, 2000);
	if (s->sftp != NULL)
		while (libssh2_sftp_shutdown(s->sftp) == LIBSSH2_ERROR_EAGAIN &&
		    lab_ssh_wait(s, deadline) == 0)
			;
	if (s->session != NULL) {
		if (!s->dead && s->fd >= 0)
			while (libssh2_session_disconnect(s->session, "bye") ==
			    LIBSSH2_ERROR_EAGAIN)
				if (lab_ssh_wait(s, deadline) < 0)
					break;
		if (s->fd >= 0)
			shutdown(s->fd, SHUT_RDWR);
		libssh2_session_free(s->session);
	}
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}
