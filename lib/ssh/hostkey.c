/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Host keys against an OpenSSH known_hosts file, with libssh2's knownhost
 * functions, read line by line so one line libssh2 cannot parse (a key
 * type it does not know, a @cert-authority) does not hide the others.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "lab/file.h"
#include "ssh-priv.h"

/*
 * Opens a file to read as a stream, refusing one that is not regular (a
 * FIFO would hang): -1 with errno, -2 with err set.
 */
static int
read_open(const char *path, FILE **ret, struct lab_err *err)
{
	int	fd, e;

	*ret = NULL;
	if ((fd = lab_file_open_read(path, LAB_EXIT_ENV, err)) < 0)
		return fd == -2 ? -2 : -1;
	if ((*ret = fdopen(fd, "re")) == NULL) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return 0;
}

struct lab_ssh_known {
	LIBSSH2_KNOWNHOSTS	*kh;
	LIBSSH2_KNOWNHOSTS	*revoked;	/* the @revoked lines */
	char			 name[300];	/* "host", "[host]:port" */
	int			 types;		/* known key types, bits */
	int			 dflt;		/* ~/.ssh/known_hosts */
};

static const struct ktype {
	const char	*name;		/* in known_hosts, key blobs */
	const char	*scan;		/* ssh-keyscan -t */
	int		 kh;		/* LIBSSH2_KNOWNHOST_KEY_* */
	int		 hk;		/* LIBSSH2_HOSTKEY_TYPE_* */
	const char	*algs;		/* the algorithms using it */
} ktypes[] = {
	{ "ssh-ed25519", "ed25519", LIBSSH2_KNOWNHOST_KEY_ED25519,
	    LIBSSH2_HOSTKEY_TYPE_ED25519, "ssh-ed25519" },
	{ "ecdsa-sha2-nistp256", "ecdsa", LIBSSH2_KNOWNHOST_KEY_ECDSA_256,
	    LIBSSH2_HOSTKEY_TYPE_ECDSA_256, "ecdsa-sha2-nistp256" },
	{ "ecdsa-sha2-nistp384", "ecdsa", LIBSSH2_KNOWNHOST_KEY_ECDSA_384,
	    LIBSSH2_HOSTKEY_TYPE_ECDSA_384, "ecdsa-sha2-nistp384" },
	{ "ecdsa-sha2-nistp521", "ecdsa", LIBSSH2_KNOWNHOST_KEY_ECDSA_521,
	    LIBSSH2_HOSTKEY_TYPE_ECDSA_521, "ecdsa-sha2-nistp521" },
	{ "ssh-rsa", "rsa", LIBSSH2_KNOWNHOST_KEY_SSHRSA,
	    LIBSSH2_HOSTKEY_TYPE_RSA, "rsa-sha2-512,rsa-sha2-256,ssh-rsa" },
	{ "ssh-dss", "dsa", LIBSSH2_KNOWNHOST_KEY_SSHDSS,
	    LIBSSH2_HOSTKEY_TYPE_DSS, "ssh-dss" },
};

#define PLAIN_RAW	(LIBSSH2_KNOWNHOST_TYPE_PLAIN | \
			    LIBSSH2_KNOWNHOST_KEYENC_RAW)
#define PLAIN_B64	(LIBSSH2_KNOWNHOST_TYPE_PLAIN | \
			    LIBSSH2_KNOWNHOST_KEYENC_BASE64)

/* The type name a key blob starts with ("ssh-ed25519"). */
int
lab_ssh_blob_type(const unsigned char *blob, size_t len, char *buf,
    size_t size)
{
	size_t	n;

	buf[0] = '\0';
	if (len < 4)
		return -1;
	n = (size_t)blob[0] << 24 | (size_t)blob[1] << 16 |
	    (size_t)blob[2] << 8 | blob[3];
	if (n > len - 4 || n >= size)
		return -1;
	memcpy(buf, blob + 4, n);
	buf[n] = '\0';
	return 0;
}

/* "SHA256:" and the unpadded base64 of the blob's SHA-256, as OpenSSH. */
int
lab_ssh_fingerprint(const unsigned char *blob, size_t len, char *buf,
    size_t size)
{
	unsigned char	md[EVP_MAX_MD_SIZE], b64[64];
	unsigned int	mdlen = 0;
	int		n;

	buf[0] = '\0';
	if (!EVP_Digest(blob, len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen != 32)
		return -1;
	n = EVP_EncodeBlock(b64, md, (int)mdlen);
	while (n > 0 && b64[n - 1] == '=')
		n--;
	b64[n] = '\0';
	return snprintf(buf, size, "SHA256:%s", b64) >= (int)size ? -1 : 0;
}

/* Decodes padded base64; *ret is the caller's to free. */
static int
unbase64(const char *in, unsigned char **ret, size_t *retlen)
{
	size_t		 len = strlen(in);
	unsigned char	*out;
	int		 n;

	if (len == 0 || len % 4 != 0 || len > 65536)
		return -1;
	if ((out = malloc(len / 4 * 3 + 1)) == NULL)
		return -1;
	n = EVP_DecodeBlock(out, (const unsigned char *)in, (int)len);
	if (n < 0) {
		free(out);
		return -1;
	}
	/* EVP_DecodeBlock counts the padding as zero bytes */
	if (in[len - 1] == '=')
		n--;
	if (in[len - 2] == '=')
		n--;
	*ret = out;
	*retlen = (size_t)n;
	return 0;
}

/*
 * Is the private key file an RSA key? PEM says so in its first line; the
 * OpenSSH format keeps the public key unencrypted near its start.
 */
int
lab_ssh_key_is_rsa(const char *path)
{
	static const char	 tag[] = "\0\0\0\7ssh-rsa";
	FILE			*f;
	char			 buf[16384], *p, *q;
	unsigned char		*raw = NULL;
	size_t			 n, j = 0, rawlen;
	int			 rv = 0;

	struct lab_err		 e;

	lab_err_init(&e);
	if (read_open(path, &f, &e) < 0)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (strstr(buf, "BEGIN RSA PRIVATE KEY") != NULL)
		rv = 1;
	else if ((p = strstr(buf, "BEGIN OPENSSH PRIVATE KEY-----")) != NULL &&
	    (q = strstr(p, "-----END")) != NULL) {
		for (p += 30; p < q; p++)
			if (*p != '\n' && *p != '\r')
				buf[j++] = *p;
		buf[j] = '\0';
		if (unbase64(buf, &raw, &rawlen) == 0) {
			rv = memmem(raw, rawlen, tag, sizeof(tag) - 1) != NULL;
			explicit_bzero(raw, rawlen);
			free(raw);
		}
	}
	explicit_bzero(buf, sizeof(buf));
	return rv;
}

/* The fingerprint of a known_hosts entry's base64 key. */
static void
entry_fingerprint(const char *b64, char *buf, size_t size)
{
	unsigned char	*blob;
	size_t		 len;

	snprintf(buf, size, "(unreadable key)");
	if (b64 == NULL || unbase64(b64, &blob, &len) < 0)
		return;
	lab_ssh_fingerprint(blob, len, buf, size);
	free(blob);
}

static int
default_path(const struct lab_ssh *s, char *buf, size_t size)
{
	const struct lab_ctx	*ctx;
	struct passwd		 pw, *res = NULL;
	char			 pwbuf[4096];
	const char		*home;

	ctx = s->ctx != NULL ? s->ctx : lab_ctx_default();
	home = ctx->home;

	if (home == NULL || *home == '\0') {
		if (getpwuid_r(getuid(), &pw, pwbuf, sizeof(pwbuf),
		    &res) != 0 || res == NULL)
			return -1;
		home = pw.pw_dir;
	}
	return snprintf(buf, size, "%s/.ssh/known_hosts", home) >=
	    (int)size ? -1 : 0;
}

/* Frees what lab_ssh_known_load() made; NULL ok. */
void
lab_ssh_known_free(struct lab_ssh_known *k)
{
	if (k == NULL)
		return;
	if (k->kh != NULL)
		libssh2_knownhost_free(k->kh);
	if (k->revoked != NULL)
		libssh2_knownhost_free(k->revoked);
	free(k);
}

/* Adds one known_hosts line to k; lines libssh2 cannot parse are skipped. */
static void
add_line(struct lab_ssh_known *k, char *line, size_t len)
{
	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (len == 0 || *line == '#' || *line == '\n')
		return;
	if (strncmp(line, "@revoked", 8) == 0 && (line[8] == ' ' ||
	    line[8] == '\t')) {
		libssh2_knownhost_readline(k->revoked, line + 9, len - 9,
		    LIBSSH2_KNOWNHOST_FILE_OPENSSH);
		return;
	}
	if (*line == '@')
		return;
	libssh2_knownhost_readline(k->kh, line, len,
	    LIBSSH2_KNOWNHOST_FILE_OPENSSH);
}

/*
 * Reads the known_hosts file (path, or ~/.ssh/known_hosts) for the
 * connection's host. A missing file is an empty one.
 */
int
lab_ssh_known_load(struct lab_ssh *s, const char *path,
    struct lab_ssh_known **ret, struct lab_err *err)
{
	struct lab_ssh_known	*k;
	FILE			*f;
	char			*line = NULL;
	size_t			 cap = 0, i;
	ssize_t			 n;
	int			 rc;

	if ((k = calloc(1, sizeof(*k))) == NULL)
		return lab_err_oom(err);
	if (path == NULL) {
		k->dflt = 1;
		if (default_path(s, s->known_path, sizeof(s->known_path)) < 0) {
			free(k);
			return lab_err_set(err, LAB_EXIT_ENV,
			    "%s: cannot find the home folder for "
			    "~/.ssh/known_hosts", s->peer);
		}
	} else if (snprintf(s->known_path, sizeof(s->known_path), "%s",
	    path) >= (int)sizeof(s->known_path)) {
		free(k);
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "%s: known_hosts path too long", s->peer);
	}
	if (s->port == LAB_SSH_PORT)
		snprintf(k->name, sizeof(k->name), "%s", s->address);
	else
		snprintf(k->name, sizeof(k->name), "[%s]:%d", s->address,
		    s->port);
	k->kh = libssh2_knownhost_init(s->session);
	k->revoked = libssh2_knownhost_init(s->session);
	if (k->kh == NULL || k->revoked == NULL) {
		lab_ssh_known_free(k);
		return lab_err_oom(err);
	}
	if ((rc = read_open(s->known_path, &f, err)) == -2) {
		lab_err_prefix(err, "%s", s->peer);
		lab_ssh_known_free(k);
		return -1;
	}
	if (rc == -1) {
		if (errno != ENOENT) {
			/* no fd left is this machine's trouble, not the host's */
			if (lab_errno_local(errno) != NULL)
				lab_err_local(err, "%s: cannot read %s: %s",
				    s->peer, s->known_path,
				    lab_errno_local(errno));
			else
				lab_err_set(err, LAB_EXIT_ENV, "%s: cannot read "
				    "%s: %s", s->peer, s->known_path,
				    strerror(errno));
			lab_ssh_known_free(k);
			return -1;
		}
	} else {
		while ((n = getline(&line, &cap, f)) > 0)
			add_line(k, line, (size_t)n);
		free(line);
		fclose(f);
	}
	/* which key types does the file hold for this host? */
	for (i = 0; i < LAB_ARRAY_SIZE(ktypes); i++) {
		switch (libssh2_knownhost_checkp(k->kh, k->name, -1, "-", 1,
		    PLAIN_B64 | ktypes[i].kh, NULL)) {
		case LIBSSH2_KNOWNHOST_CHECK_MATCH:
		case LIBSSH2_KNOWNHOST_CHECK_MISMATCH:
			k->types |= 1 << i;
			break;
		default:
			break;
		}
	}
	*ret = k;
	return 0;
}

/*
 * Sets the host key algorithms to offer in s->prefs: the ones of the
 * types known_hosts holds for the host (all when it holds none), as
 * OpenSSH does, so the server cannot pick a type the file lacks.
 */
int
lab_ssh_known_prefs(struct lab_ssh *s, struct lab_ssh_known *k,
    struct lab_err *err)
{
	char		 all[600], *out = s->prefs[LIBSSH2_METHOD_HOSTKEY];
	const char	*p, *e;
	size_t		 i, len, used = 0;

	s->known_types[0] = '\0';
	if (lab_ssh_algs(s->session, LIBSSH2_METHOD_HOSTKEY, s->legacy, all,
	    sizeof(all)) < 0)
		return lab_err_set(err, LAB_EXIT_ENV,
		    "%s: libssh2 supports none of lab's host key algorithms",
		    s->peer);
	if (k->types == 0) {
		memcpy(out, all, sizeof(all));
		return 0;
	}
	for (i = 0; i < LAB_ARRAY_SIZE(ktypes); i++)
		if (k->types & (1 << i)) {
			len = strlen(s->known_types);
			snprintf(s->known_types + len,
			    sizeof(s->known_types) - len, "%s%s",
			    len > 0 ? "," : "", ktypes[i].name);
		}
	out[0] = '\0';
	for (p = all; p != NULL && *p != '\0'; p = e != NULL ? e + 1 : NULL) {
		e = strchr(p, ',');
		len = e != NULL ? (size_t)(e - p) : strlen(p);
		for (i = 0; i < LAB_ARRAY_SIZE(ktypes); i++) {
			char	alg[64];

			if (!(k->types & (1 << i)) || len >= sizeof(alg))
				continue;
			memcpy(alg, p, len);
			alg[len] = '\0';
			if (lab_ssh_list_common(alg, ktypes[i].algs)) {
				used += (size_t)snprintf(out + used,
				    sizeof(s->prefs[0]) - used, "%s%s",
				    used > 0 ? "," : "", alg);
				break;
			}
		}
	}
	if (out[0] == '\0')
		return lab_err_set(err, LAB_EXIT_ENV,
		    "%s: %s holds only %s keys for %s, which lab accepts only "
		    "with legacy_crypto", s->peer, s->known_path,
		    s->known_types, k->name);
	return 0;
}

/* The first line of the file whose entry for the host has another key. */
static int
changed_line(struct lab_ssh *s, struct lab_ssh_known *k,
    const unsigned char *blob, size_t len, int kh, char *fp, size_t fpsize)
{
	LIBSSH2_KNOWNHOSTS	*one;
	struct libssh2_knownhost *ext = NULL;
	FILE			*f;
	char			*line = NULL;
	size_t			 cap = 0;
	ssize_t			 n;
	int			 lineno = 0, found = 0;

	struct lab_err		 e;

	snprintf(fp, fpsize, "?");
	lab_err_init(&e);
	if (read_open(s->known_path, &f, &e) < 0)
		return 0;
	while (!found && (n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[0] == '@' || (one = libssh2_knownhost_init(
		    s->session)) == NULL)
			continue;
		if (libssh2_knownhost_readline(one, line, (size_t)n,
		    LIBSSH2_KNOWNHOST_FILE_OPENSSH) == 0 &&
		    libssh2_knownhost_checkp(one, k->name, -1,
		    (const char *)blob, len, PLAIN_RAW | kh, &ext) ==
		    LIBSSH2_KNOWNHOST_CHECK_MISMATCH) {
			entry_fingerprint(ext->key, fp, fpsize);
			found = 1;
		}
		libssh2_knownhost_free(one);
	}
	free(line);
	fclose(f);
	return found ? lineno : 0;
}

/* Appends "NAME TYPE KEY" to the file, under an exclusive lock. */
static int
append_key(struct lab_ssh *s, struct lab_ssh_known *k, const char *type,
    const unsigned char *blob, size_t len, struct lab_err *err)
{
	char		*line, *slash, last = '\n';
	char		 dir[sizeof(s->known_path)];
	size_t		 size;
	int		 fd, n, rv = -1;
	struct stat	 st;

	if (k->dflt) {
		snprintf(dir, sizeof(dir), "%s", s->known_path);
		if ((slash = strrchr(dir, '/')) != NULL) {
			*slash = '\0';
			mkdir(dir, 0700);
		}
	}
	size = strlen(k->name) + strlen(type) + len / 3 * 4 + 16;
	if ((line = malloc(size)) == NULL)
		return lab_err_oom(err);
	n = snprintf(line, size, "\n%s %s ", k->name, type);
	n += EVP_EncodeBlock((unsigned char *)line + n, blob, (int)len);
	line[n++] = '\n';
	if ((fd = open(s->known_path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC,
	    0600)) < 0 || flock(fd, LOCK_EX) < 0 || fstat(fd, &st) < 0 ||
	    (st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) != 1)) {
		lab_err_set(err, LAB_EXIT_ENV, "%s: cannot add the host key to "
		    "%s: %s", s->peer, s->known_path, strerror(errno));
		goto out;
	}
	/* the leading newline only when the file does not end with one */
	if (write(fd, line + (last == '\n'), (size_t)n - (last == '\n')) !=
	    n - (last == '\n')) {
		lab_err_set(err, LAB_EXIT_ENV, "%s: cannot add the host key to "
		    "%s: %s", s->peer, s->known_path, strerror(errno));
		goto out;
	}
	rv = 0;
out:
	if (fd >= 0)
		close(fd);
	free(line);
	return rv;
}

/*
 * Checks the key the server showed in the handshake; fills key. Returns
 * 0 when it is known (or accept_new added it), else -1.
 */
int
lab_ssh_known_check(struct lab_ssh *s, struct lab_ssh_known *k,
    int accept_new, struct lab_ssh_hostkey *key, struct lab_err *err)
{
	const struct ktype	*t = NULL;
	const unsigned char	*blob;
	size_t			 len, i;
	int			 type, line;
	char			 known_fp[64], tport[16];

	blob = (const unsigned char *)libssh2_session_hostkey(s->session,
	    &len, &type);
	if (blob == NULL)
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "%s: the server sent no host key", s->peer);
	for (i = 0; i < LAB_ARRAY_SIZE(ktypes); i++)
		if (ktypes[i].hk == type)
			t = &ktypes[i];
	if (lab_ssh_blob_type(blob, len, key->type, sizeof(key->type)) < 0 ||
	    lab_ssh_fingerprint(blob, len, key->fingerprint,
	    sizeof(key->fingerprint)) < 0 || t == NULL)
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "%s: unsupported host key type %d", s->peer, type);
	if (libssh2_knownhost_checkp(k->revoked, k->name, -1,
	    (const char *)blob, len, PLAIN_RAW | t->kh, NULL) ==
	    LIBSSH2_KNOWNHOST_CHECK_MATCH)
		return lab_err_set(err, LAB_EXIT_ENV,
		    "%s: host key %s %s is marked @revoked in %s", s->peer,
		    key->type, key->fingerprint, s->known_path);
	switch (libssh2_knownhost_checkp(k->kh, k->name, -1,
	    (const char *)blob, len, PLAIN_RAW | t->kh, NULL)) {
	case LIBSSH2_KNOWNHOST_CHECK_MATCH:
		return 0;
	case LIBSSH2_KNOWNHOST_CHECK_MISMATCH:
		line = changed_line(s, k, blob, len, t->kh, known_fp,
		    sizeof(known_fp));
		return lab_err_set(err, LAB_EXIT_ENV,
		    "%s: host key for %s has CHANGED (an attack, or the host "
		    "was reinstalled): %s:%d has %s %s, the host offers %s %s; "
		    "if expected, remove the old key with ssh-keygen -R '%s' "
		    "-f %s", s->peer, k->name, s->known_path, line, t->name,
		    known_fp, key->type, key->fingerprint, k->name,
		    s->known_path);
	case LIBSSH2_KNOWNHOST_CHECK_NOTFOUND:
		if (accept_new) {
			if (append_key(s, k, key->type, blob, len, err) < 0)
				return -1;
			key->added = 1;
			return 0;
		}
		tport[0] = '\0';
		if (s->port != LAB_SSH_PORT)
			snprintf(tport, sizeof(tport), "-p %d ", s->port);
		return lab_err_set(err, LAB_EXIT_ENV,
		    "%s: unknown host key %s %s (%s is not in %s): check it, "
		    "then connect with --accept-new, or add it with "
		    "ssh-keyscan %s-t %s %s >>%s", s->peer, key->type,
		    key->fingerprint, k->name, s->known_path, tport, t->scan,
		    s->address, s->known_path);
	default:
		return lab_err_set(err, LAB_EXIT_ENV,
		    "%s: cannot check the host key against %s", s->peer,
		    s->known_path);
	}
}
