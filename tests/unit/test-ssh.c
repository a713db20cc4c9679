/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lib/ssh*.c without a network: KEXINIT parsing, algorithm lists,
 * fingerprints, and which host key types known_hosts makes lab ask for.
 * The connections themselves are tested against sshd in
 * tests/integration/ssh.sh.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "ssh/ssh-priv.h"
#include "tests.h"

static const char ed_b64[] = "AAAAC3NzaC1lZDI1NTE5AAAAIAkMKoglM0VxhgWfSrAUfLzu"
    "FTR1Z1uyFCHX5jimlwkd";
static const char ed_fp[] =
    "SHA256:qHxlqfNMr3bzYSnsRT3xUJwN65HFS5TyYgVXOQIkH8E";
static const char ec_b64[] = "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYA"
    "AABBBDj8ZchvwxXJfYAN5e6yBN41mRJs+oO9/gSlzxDYTKIXs3aIkCFA3m2gYH0LrtcA/8rk"
    "CWEudtEa3WIQa9hazjg=";
static const char ec_fp[] =
    "SHA256:x1HAln2pri1K/Ma0o6ldsRYg1e/jZZl4jxPXV6kg+h4";
/* ssh-keygen -H of "[h.example]:2222 ssh-ed25519 <ed_b64>" */
static const char ed_hashed[] = "|1|uNHxoho9SENyRThbjKKeCxnPnSE=|nZGaI+uD2zn/"
    "f+CgK2h+Xgg+dGo=";

static size_t
unb64(const char *in, unsigned char *out)
{
	size_t	len = strlen(in);
	int	n;

	n = EVP_DecodeBlock(out, (const unsigned char *)in, (int)len);
	if (in[len - 1] == '=')
		n--;
	if (in[len - 2] == '=')
		n--;
	return (size_t)n;
}

static void
put_list(unsigned char *p, size_t *off, const char *s)
{
	uint32_t	n = (uint32_t)strlen(s);

	p[(*off)++] = n >> 24;
	p[(*off)++] = n >> 16;
	p[(*off)++] = n >> 8;
	p[(*off)++] = n;
	memcpy(p + *off, s, n);
	*off += n;
}

static void
test_kexinit(void)
{
	static const char *const want[LAB_SSH_KEXINIT_LISTS] = {
		"diffie-hellman-group1-sha1", "ssh-dss", "aes128-cbc,3des-cbc",
		"aes128-cbc", "hmac-sha1", "hmac-sha1,hmac-md5", "none", "none",
		"", "",
	};
	unsigned char	 p[512];
	char		*lists[LAB_SSH_KEXINIT_LISTS];
	size_t		 off = 17;
	int		 i;

	memset(p, 0xaa, sizeof(p));
	p[0] = 20;
	for (i = 0; i < LAB_SSH_KEXINIT_LISTS; i++)
		put_list(p, &off, want[i]);
	p[off++] = 0;		/* first_kex_packet_follows */
	memset(p + off, 0, 4);	/* reserved */
	off += 4;

	CHECK(lab_ssh_kexinit_parse(p, off, lists) == 0);
	for (i = 0; i < LAB_SSH_KEXINIT_LISTS; i++)
		CHECK_STR(lists[i], want[i]);
	lab_ssh_kexinit_free(lists);
	for (i = 0; i < LAB_SSH_KEXINIT_LISTS; i++)
		CHECK(lists[i] == NULL);

	/* truncated anywhere inside the lists */
	CHECK(lab_ssh_kexinit_parse(p, 40, lists) < 0);
	CHECK(lists[0] == NULL);
	CHECK(lab_ssh_kexinit_parse(p, 10, lists) < 0);
	/* not a KEXINIT */
	p[0] = 21;
	CHECK(lab_ssh_kexinit_parse(p, off, lists) < 0);
	p[0] = 20;
	/* a NUL inside a name-list */
	p[17 + 4 + 3] = '\0';
	CHECK(lab_ssh_kexinit_parse(p, off, lists) < 0);
	/* a length past the end */
	p[17] = 0x7f;
	CHECK(lab_ssh_kexinit_parse(p, off, lists) < 0);
}

static void
test_lists(void)
{
	CHECK(lab_ssh_list_common("a,b,c", "x,c"));
	CHECK(lab_ssh_list_common("ssh-ed25519", "ecdsa-sha2-nistp256,"
	    "ssh-ed25519"));
	CHECK(!lab_ssh_list_common("ssh-rsa", "rsa-sha2-256,rsa-sha2-512"));
	CHECK(!lab_ssh_list_common("hmac-sha1", "hmac-sha1-96"));
	CHECK(!lab_ssh_list_common("", "a"));
	CHECK(!lab_ssh_list_common("a", ""));
	CHECK(!lab_ssh_list_common(NULL, "a"));

	CHECK(lab_ssh_alg_is_legacy(LIBSSH2_METHOD_KEX,
	    "diffie-hellman-group1-sha1"));
	CHECK(lab_ssh_alg_is_legacy(LIBSSH2_METHOD_HOSTKEY, "ssh-dss"));
	CHECK(lab_ssh_alg_is_legacy(LIBSSH2_METHOD_CRYPT_CS, "aes128-cbc"));
	CHECK(lab_ssh_alg_is_legacy(LIBSSH2_METHOD_MAC_SC, "hmac-sha1"));
	CHECK(!lab_ssh_alg_is_legacy(LIBSSH2_METHOD_KEX, "curve25519-sha256"));
	CHECK(!lab_ssh_alg_is_legacy(LIBSSH2_METHOD_HOSTKEY, "ssh-ed25519"));
}

static void
test_algs(LIBSSH2_SESSION *session)
{
	char	buf[600], all[600];
	int	k;

	for (k = 0; k < LAB_SSH_KINDS; k++) {
		CHECK(lab_ssh_algs(session, k, 0, buf, sizeof(buf)) == 0);
		CHECK(lab_ssh_algs(session, k, 1, all, sizeof(all)) == 0);
		/* the legacy ones follow the modern ones */
		CHECK(strncmp(all, buf, strlen(buf)) == 0);
		CHECK(strlen(all) > strlen(buf));
		CHECK(strstr(buf, "sha1") == NULL);
		CHECK(strstr(buf, "cbc") == NULL);
	}
	lab_ssh_algs(session, LIBSSH2_METHOD_KEX, 0, buf, sizeof(buf));
	CHECK(strncmp(buf, "curve25519-sha256,", 18) == 0);
	lab_ssh_algs(session, LIBSSH2_METHOD_KEX, 1, all, sizeof(all));
	CHECK_HAS(all, "diffie-hellman-group1-sha1");
	CHECK_HAS(all, "diffie-hellman-group14-sha1");
	lab_ssh_algs(session, LIBSSH2_METHOD_HOSTKEY, 0, buf, sizeof(buf));
	CHECK(strncmp(buf, "ssh-ed25519,ecdsa-sha2-nistp256", 31) == 0);
	CHECK(strstr(buf, "ssh-dss") == NULL);
	CHECK(strstr(buf, "ssh-rsa") == NULL);
	lab_ssh_algs(session, LIBSSH2_METHOD_HOSTKEY, 1, all, sizeof(all));
	CHECK_HAS(all, ",ssh-rsa,ssh-dss");
	/* too small a buffer is an error, not a cut list */
	CHECK(lab_ssh_algs(session, LIBSSH2_METHOD_KEX, 1, buf, 20) < 0);
}

static void
test_fingerprint(void)
{
	unsigned char	blob[512];
	char		fp[64], type[32];
	size_t		n;

	n = unb64(ed_b64, blob);
	CHECK(lab_ssh_fingerprint(blob, n, fp, sizeof(fp)) == 0);
	CHECK_STR(fp, ed_fp);
	CHECK(lab_ssh_blob_type(blob, n, type, sizeof(type)) == 0);
	CHECK_STR(type, "ssh-ed25519");
	n = unb64(ec_b64, blob);
	CHECK(lab_ssh_fingerprint(blob, n, fp, sizeof(fp)) == 0);
	CHECK_STR(fp, ec_fp);
	CHECK(lab_ssh_blob_type(blob, n, type, sizeof(type)) == 0);
	CHECK_STR(type, "ecdsa-sha2-nistp256");
	CHECK(lab_ssh_blob_type(blob, 3, type, sizeof(type)) < 0);
	CHECK(lab_ssh_blob_type(blob, 10, type, sizeof(type)) < 0);
	CHECK(lab_ssh_fingerprint(blob, n, fp, 20) < 0);
}

/* The host key algorithms lab asks for, given a known_hosts text. */
static int
prefs(LIBSSH2_SESSION *session, const char *text, int port, int legacy,
    char *ret, size_t size, struct lab_err *err)
{
	struct lab_ssh		 s;
	struct lab_ssh_known	*k = NULL;
	char			 path[] = "/tmp/lab-test-ssh.XXXXXX";
	int			 fd, rv;

	lab_err_init(err);
	if ((fd = mkstemp(path)) < 0)
		return -1;
	if (write(fd, text, strlen(text)) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	memset(&s, 0, sizeof(s));
	s.session = session;
	s.legacy = legacy;
	s.port = port;
	snprintf(s.address, sizeof(s.address), "h.example");
	snprintf(s.peer, sizeof(s.peer), "h: ssh h.example:%d", port);
	rv = lab_ssh_known_load(&s, path, &k, err);
	if (rv == 0)
		rv = lab_ssh_known_prefs(&s, k, err);
	snprintf(ret, size, "%s", s.prefs[LIBSSH2_METHOD_HOSTKEY]);
	lab_ssh_known_free(k);
	unlink(path);
	return rv;
}

static void
test_known_prefs(LIBSSH2_SESSION *session)
{
	struct lab_err	err;
	char		text[1024], got[600], modern[600];

	lab_ssh_algs(session, LIBSSH2_METHOD_HOSTKEY, 0, modern,
	    sizeof(modern));

	/* an unknown host: every type lab takes */
	CHECK(prefs(session, "", 2222, 0, got, sizeof(got), &err) == 0);
	CHECK_STR(got, modern);

	/* only ed25519 known: only ed25519 asked for (the trap) */
	snprintf(text, sizeof(text), "# comment\n\n[h.example]:2222 "
	    "ssh-ed25519 %s\n", ed_b64);
	CHECK(prefs(session, text, 2222, 0, got, sizeof(got), &err) == 0);
	CHECK_STR(got, "ssh-ed25519");

	/* the same line hashed */
	snprintf(text, sizeof(text), "%s ssh-ed25519 %s\n", ed_hashed, ed_b64);
	CHECK(prefs(session, text, 2222, 0, got, sizeof(got), &err) == 0);
	CHECK_STR(got, "ssh-ed25519");

	/* ecdsa, and ed25519 for another host: lab's order, this host's */
	snprintf(text, sizeof(text), "other ssh-ed25519 %s\n"
	    "h.example,10.0.0.1 ecdsa-sha2-nistp256 %s\n", ed_b64, ec_b64);
	CHECK(prefs(session, text, 22, 0, got, sizeof(got), &err) == 0);
	CHECK_STR(got, "ecdsa-sha2-nistp256");
	/* ... and port 2222 is another host: all types */
	CHECK(prefs(session, text, 2222, 0, got, sizeof(got), &err) == 0);
	CHECK_STR(got, modern);

	/* both: ed25519 first, as lab prefers */
	snprintf(text, sizeof(text), "h.example ecdsa-sha2-nistp256 %s\n"
	    "h.example ssh-ed25519 %s\n", ec_b64, ed_b64);
	CHECK(prefs(session, text, 22, 0, got, sizeof(got), &err) == 0);
	CHECK_STR(got, "ssh-ed25519,ecdsa-sha2-nistp256");

	/* a line libssh2 cannot parse hides nothing after it */
	snprintf(text, sizeof(text), "garbage\n@cert-authority * ssh-ed25519 "
	    "%s\nh.example ssh-ed25519 %s\n", ed_b64, ed_b64);
	CHECK(prefs(session, text, 22, 0, got, sizeof(got), &err) == 0);
	CHECK_STR(got, "ssh-ed25519");

	/* only ssh-dss known: needs legacy_crypto */
	snprintf(text, sizeof(text),
	    "h.example ssh-dss AAAAB3NzaC1kc3MAAA==\n");
	CHECK(prefs(session, text, 22, 0, got, sizeof(got), &err) < 0);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, "holds only ssh-dss keys for h.example");
	CHECK_HAS(err.msg, "legacy_crypto");
	CHECK(prefs(session, text, 22, 1, got, sizeof(got), &err) == 0);
	CHECK_STR(got, "ssh-dss");
}

static void
test_opts(void)
{
	struct lab_ssh_opts	 o;
	struct lab_ssh		*s = NULL;
	struct lab_err		 err;

	memset(&o, 0, sizeof(o));
	lab_err_init(&err);
	o.label = "nas";
	CHECK(lab_ssh_connect(&o, &s, NULL, &err) < 0);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_STR(err.msg, "nas: ssh: no address");
	lab_err_init(&err);
	o.address = "192.0.2.1";
	o.port = 70000;
	CHECK(lab_ssh_connect(&o, &s, NULL, &err) < 0);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK(s == NULL);
	lab_ssh_close(NULL);
	lab_ssh_result_free(NULL);
}

int
main(void)
{
	LIBSSH2_SESSION	*session;

	if (libssh2_init(0) != 0 || (session = libssh2_session_init()) ==
	    NULL) {
		fprintf(stderr, "cannot start libssh2\n");
		return 1;
	}
	test_kexinit();
	test_lists();
	test_algs(session);
	test_fingerprint();
	test_known_prefs(session);
	test_opts();
	libssh2_session_free(session);
	TESTS_DONE();
}
