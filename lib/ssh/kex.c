/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The algorithms lab offers, and why a handshake failed: libssh2 only says
 * "unable to exchange encryption keys", so lab reads the server's KEXINIT
 * over a second, bare connection and names the kind nobody agreed on.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ssh-priv.h"

#define SSH_MSG_KEXINIT		20
#define KEXINIT_MAX		35000	/* RFC 4253 6.1 */
#define BANNER_MAX		8192

/* Modern first; the legacy ones follow only with legacy_crypto. */
static const char *const modern[LAB_SSH_KINDS][12] = {
	[LIBSSH2_METHOD_KEX] = { "curve25519-sha256",
	    "curve25519-sha256@libssh.org", "ecdh-sha2-nistp256",
	    "ecdh-sha2-nistp384", "ecdh-sha2-nistp521",
	    "diffie-hellman-group-exchange-sha256",
	    "diffie-hellman-group16-sha512", "diffie-hellman-group18-sha512",
	    "diffie-hellman-group14-sha256", NULL },
	[LIBSSH2_METHOD_HOSTKEY] = { "ssh-ed25519", "ecdsa-sha2-nistp256",
	    "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "rsa-sha2-512",
	    "rsa-sha2-256", NULL },
	[LIBSSH2_METHOD_CRYPT_CS] = { "aes256-gcm@openssh.com",
	    "aes128-gcm@openssh.com", "aes256-ctr", "aes192-ctr", "aes128-ctr",
	    NULL },
	[LIBSSH2_METHOD_CRYPT_SC] = { "aes256-gcm@openssh.com",
	    "aes128-gcm@openssh.com", "aes256-ctr", "aes192-ctr", "aes128-ctr",
	    NULL },
	[LIBSSH2_METHOD_MAC_CS] = { "hmac-sha2-256-etm@openssh.com",
	    "hmac-sha2-512-etm@openssh.com", "hmac-sha2-256", "hmac-sha2-512",
	    NULL },
	[LIBSSH2_METHOD_MAC_SC] = { "hmac-sha2-256-etm@openssh.com",
	    "hmac-sha2-512-etm@openssh.com", "hmac-sha2-256", "hmac-sha2-512",
	    NULL },
};

static const char *const legacy[LAB_SSH_KINDS][8] = {
	[LIBSSH2_METHOD_KEX] = { "diffie-hellman-group14-sha1",
	    "diffie-hellman-group-exchange-sha1",
	    "diffie-hellman-group1-sha1", NULL },
	[LIBSSH2_METHOD_HOSTKEY] = { "ssh-rsa", "ssh-dss", NULL },
	[LIBSSH2_METHOD_CRYPT_CS] = { "aes256-cbc", "aes192-cbc",
	    "aes128-cbc", "3des-cbc", NULL },
	[LIBSSH2_METHOD_CRYPT_SC] = { "aes256-cbc", "aes192-cbc",
	    "aes128-cbc", "3des-cbc", NULL },
	[LIBSSH2_METHOD_MAC_CS] = { "hmac-sha1", "hmac-sha1-96", NULL },
	[LIBSSH2_METHOD_MAC_SC] = { "hmac-sha1", "hmac-sha1-96", NULL },
};

static const char *const kind_name[LAB_SSH_KINDS] = {
	"key exchange", "host key", "cipher", "cipher", "MAC", "MAC",
};

/* Is name one of the comma-separated list? */
static int
in_list(const char *list, const char *name, size_t len)
{
	const char	*p = list, *e;

	while (p != NULL && *p != '\0') {
		e = strchr(p, ',');
		if ((e != NULL ? (size_t)(e - p) : strlen(p)) == len &&
		    strncmp(p, name, len) == 0)
			return 1;
		p = e != NULL ? e + 1 : NULL;
	}
	return 0;
}

/* Do the comma-separated lists a and b share a name? */
int
lab_ssh_list_common(const char *a, const char *b)
{
	const char	*p = a, *e;
	size_t		 len;

	if (a == NULL || b == NULL)
		return 0;
	while (p != NULL && *p != '\0') {
		e = strchr(p, ',');
		len = e != NULL ? (size_t)(e - p) : strlen(p);
		if (len > 0 && in_list(b, p, len))
			return 1;
		p = e != NULL ? e + 1 : NULL;
	}
	return 0;
}

/* Is name one of lab's legacy algorithms of kind? */
int
lab_ssh_alg_is_legacy(int kind, const char *name)
{
	size_t	i;

	if (kind < 0 || kind >= LAB_SSH_KINDS)
		return 0;
	for (i = 0; legacy[kind][i] != NULL; i++)
		if (strcmp(legacy[kind][i], name) == 0)
			return 1;
	return 0;
}

static int
append(char *buf, size_t size, const char *name)
{
	size_t	used = strlen(buf);
	int	n;

	n = snprintf(buf + used, size - used, "%s%s", used > 0 ? "," : "",
	    name);
	return n < 0 || (size_t)n >= size - used ? -1 : 0;
}

/* The algorithms of kind lab offers that libssh2 supports, in order. */
int
lab_ssh_algs(LIBSSH2_SESSION *session, int kind, int legacy_ok, char *buf,
    size_t size)
{
	const char	**sup = NULL;
	int		  nsup, i, j, k, rv = 0;

	buf[0] = '\0';
	nsup = libssh2_session_supported_algs(session, kind, &sup);
	if (nsup <= 0)
		return -1;
	for (k = 0; k < (legacy_ok ? 2 : 1); k++) {
		const char *const *cand = k == 0 ? modern[kind] : legacy[kind];

		for (i = 0; cand[i] != NULL; i++)
			for (j = 0; j < nsup; j++)
				if (strcmp(cand[i], sup[j]) == 0 &&
				    append(buf, size, cand[i]) < 0)
					rv = -1;
	}
	libssh2_free(session, sup);
	return rv < 0 || buf[0] == '\0' ? -1 : 0;
}

static uint32_t
get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* Frees the lists of lab_ssh_kexinit_parse(). */
void
lab_ssh_kexinit_free(char *lists[LAB_SSH_KEXINIT_LISTS])
{
	int	i;

	for (i = 0; i < LAB_SSH_KEXINIT_LISTS; i++) {
		free(lists[i]);
		lists[i] = NULL;
	}
}

/*
 * Splits a KEXINIT payload (message number, cookie, name-lists) into its
 * ten name-lists, each a NUL-terminated copy. Returns 0, or -1 when it is
 * not a well-formed KEXINIT (or out of memory): then nothing is kept.
 */
int
lab_ssh_kexinit_parse(const unsigned char *p, size_t len,
    char *lists[LAB_SSH_KEXINIT_LISTS])
{
	size_t		off = 17;
	uint32_t	n;
	int		i;

	memset(lists, 0, LAB_SSH_KEXINIT_LISTS * sizeof(lists[0]));
	if (len < off || p[0] != SSH_MSG_KEXINIT)
		return -1;
	for (i = 0; i < LAB_SSH_KEXINIT_LISTS; i++) {
		if (len - off < 4)
			goto bad;
		n = get32(p + off);
		off += 4;
		if (n > len - off || memchr(p + off, '\0', n) != NULL)
			goto bad;
		if ((lists[i] = strndup((const char *)p + off, n)) == NULL)
			goto bad;
		off += n;
	}
	return 0;
bad:
	lab_ssh_kexinit_free(lists);
	return -1;
}

/* Reads at least want bytes into buf (of size) before the deadline. */
static int
read_some(const struct lab_ctx *ctx, int fd, unsigned char *buf,
    size_t size, size_t *have, size_t want, int64_t deadline)
{
	struct pollfd	pfd = { .fd = fd, .events = POLLIN };
	ssize_t		n;
	int64_t		left;

	while (*have < want) {
		n = recv(fd, buf + *have, size - *have, 0);
		if (n > 0) {
			*have += (size_t)n;
			continue;
		}
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			return -1;
		left = deadline - ctx->monotonic_ms();
		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return -1;
	}
	return 0;
}

/*
 * Sends a version line on a fresh connection fd and reads the server's
 * banner and KEXINIT (sent in the clear) into lists. Returns 0 or -1.
 */
int
lab_ssh_kexinit_read(const struct lab_ctx *ctx, int fd, int64_t deadline,
    char *lists[LAB_SSH_KEXINIT_LISTS])
{
	static const char	 hello[] = "SSH-2.0-lab_probe\r\n";
	unsigned char		*buf;
	size_t			 have = 0, start = 0, size, want;
	uint32_t		 plen;
	unsigned char		*nl;
	int			 rv = -1;

	if (send(fd, hello, sizeof(hello) - 1, MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(hello) - 1)
		return -1;
	size = BANNER_MAX + KEXINIT_MAX + 8;
	if ((buf = calloc(1, size)) == NULL)
		return -1;
	/* the banner: lines until one starts with "SSH-" */
	for (;;) {
		while ((nl = memchr(buf + start, '\n', have - start)) == NULL) {
			if (have >= BANNER_MAX ||
			    read_some(ctx, fd, buf, BANNER_MAX, &have, have + 1,
			    deadline) < 0)
				goto out;
		}
		if (have - start >= 4 && memcmp(buf + start, "SSH-", 4) == 0) {
			start = (size_t)(nl - buf) + 1;
			break;
		}
		start = (size_t)(nl - buf) + 1;
	}
	if (read_some(ctx, fd, buf, size, &have, start + 5, deadline) < 0)
		goto out;
	plen = get32(buf + start);
	if (plen < 2 || plen > KEXINIT_MAX || buf[start + 4] >= plen)
		goto out;
	want = start + 4 + plen;
	if (read_some(ctx, fd, buf, size, &have, want, deadline) < 0)
		goto out;
	rv = lab_ssh_kexinit_parse(buf + start + 5, plen - 1 - buf[start + 4],
	    lists);
out:
	free(buf);
	return rv;
}

/* The first of the server's names that lab offers only as legacy. */
static int
legacy_offered(LIBSSH2_SESSION *session, int kind, const char *theirs,
    char *buf, size_t size)
{
	char	all[600];
	size_t	i;

	buf[0] = '\0';
	if (lab_ssh_algs(session, kind, 1, all, sizeof(all)) < 0)
		return 0;
	for (i = 0; legacy[kind][i] != NULL; i++)
		if (in_list(theirs, legacy[kind][i],
		    strlen(legacy[kind][i])) &&
		    in_list(all, legacy[kind][i], strlen(legacy[kind][i])))
			append(buf, size, legacy[kind][i]);
	return buf[0] != '\0';
}

/*
 * Explains a failed handshake (why: libssh2's message) after reading what
 * the server offers; always returns -1 with err set.
 */
int
lab_ssh_kex_explain(struct lab_ssh *s, int64_t deadline, const char *why,
    struct lab_err *err)
{
	char	*lists[LAB_SSH_KEXINIT_LISTS] = { NULL };
	char	 old[256];
	int	 fd, e, k, rv = -1;

	if (deadline - lab_ssh_now(s) < 2000)
		deadline = lab_ssh_now(s) + 2000;
	if (lab_ssh_tcp(s->ctx, s->address, s->port, deadline, &fd,
	    &e) == 0) {
		rv = lab_ssh_kexinit_read(s->ctx, fd, deadline, lists);
		close(fd);
	}
	for (k = 0; rv == 0 && k < LAB_SSH_KINDS; k++) {
		if (lab_ssh_list_common(s->prefs[k], lists[k]))
			continue;
		if (k == LIBSSH2_METHOD_HOSTKEY && s->known_types[0] != '\0') {
			lab_err_set(err, LAB_EXIT_ENV,
			    "%s: the server offers host keys %s, but %s holds "
			    "only %s for it (if the host was reinstalled, "
			    "remove the old keys with ssh-keygen -R)",
			    s->peer, lists[k], s->known_path, s->known_types);
		} else if (!s->legacy && legacy_offered(s->session, k,
		    lists[k], old, sizeof(old))) {
			lab_err_set(err, LAB_EXIT_PARTIAL, "%s: no common %s "
			    "algorithm: the server offers only legacy ones "
			    "(%s): set ssh: {legacy_crypto: true} for this "
			    "host", s->peer, kind_name[k], old);
		} else {
			lab_err_set(err, LAB_EXIT_PARTIAL,
			    "%s: no common %s algorithm: the server offers %s; "
			    "lab offers %s", s->peer, kind_name[k], lists[k],
			    s->prefs[k]);
		}
		lab_ssh_kexinit_free(lists);
		return -1;
	}
	lab_ssh_kexinit_free(lists);
	if (s->legacy)
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "%s: SSH handshake failed: %s", s->peer, why);
	return lab_err_set(err, LAB_EXIT_PARTIAL,
	    "%s: SSH handshake failed: %s (the server may need legacy "
	    "algorithms (diffie-hellman-group1-sha1, ssh-dss): set ssh: "
	    "{legacy_crypto: true} for this host)", s->peer, why);
}
