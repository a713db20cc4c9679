/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Credentials: loading, lookup, errors that never quote a secret, the
 * file permission check, and argv redaction for the audit log.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/cred.h"
#include "lab/err.h"
#include "lab/str.h"

#include "tests.h"

/* Every secret in these tests holds this, so one search finds any leak. */
#define SECRET	"hunter2"

static const char good_yaml[] =
	"rac-default: {username: admin, password: \"" SECRET "-rac\"}\n"
	"sg200-ro:    {community: \"" SECRET "-community\"}\n"
	"sg200-v3:    {username: lab, auth_protocol: sha,\n"
	"              auth_password: \"" SECRET "-auth\",\n"
	"              priv_protocol: aes,\n"
	"              priv_password: \"" SECRET "-priv\"}\n"
	"neo-ssh:\n"
	"  username: root\n"
	"  identity: /root/.ssh/id_ed25519\n";

static void
test_good(void)
{
	struct lab_creds	*cs = NULL;
	const struct lab_cred	*c;
	struct lab_err		 err;

	lab_err_init(&err);
	CHECK(lab_creds_load_buf("creds.yaml", good_yaml, strlen(good_yaml),
	    &cs, &err) == 0);
	if (cs == NULL) {
		fprintf(stderr, "creds.yaml: %s\n", err.msg);
		tests_failed++;
		return;
	}
	CHECK(err.code == LAB_EXIT_OK);
	CHECK(cs->n == 4);

	c = lab_creds_find(cs, "rac-default");
	CHECK(c != NULL);
	if (c != NULL) {
		CHECK_STR(c->name, "rac-default");
		CHECK_STR(c->username, "admin");
		CHECK_STR(c->password, SECRET "-rac");
		CHECK(c->community == NULL && c->auth_password == NULL &&
		    c->identity == NULL);
	}
	c = lab_creds_find(cs, "sg200-ro");
	CHECK(c != NULL);
	if (c != NULL) {
		CHECK_STR(c->community, SECRET "-community");
		CHECK(c->username == NULL && c->password == NULL);
	}
	c = lab_creds_find(cs, "sg200-v3");
	CHECK(c != NULL);
	if (c != NULL) {
		CHECK_STR(c->username, "lab");
		CHECK_STR(c->auth_protocol, "sha");
		CHECK_STR(c->auth_password, SECRET "-auth");
		CHECK_STR(c->priv_protocol, "aes");
		CHECK_STR(c->priv_password, SECRET "-priv");
		CHECK(c->password == NULL && c->community == NULL);
	}
	c = lab_creds_find(cs, "neo-ssh");
	CHECK(c != NULL);
	if (c != NULL) {
		CHECK_STR(c->username, "root");
		CHECK_STR(c->identity, "/root/.ssh/id_ed25519");
	}
	CHECK(lab_creds_find(cs, "rac-defaul") == NULL);
	CHECK(lab_creds_find(cs, "") == NULL);
	CHECK(lab_creds_find(NULL, "rac-default") == NULL);
	lab_creds_free(cs);
	lab_creds_free(NULL);

	/* an empty file is no credentials, not an error */
	cs = NULL;
	CHECK(lab_creds_load_buf("empty.yaml", "", 0, &cs, &err) == 0);
	CHECK(cs != NULL && cs->n == 0);
	CHECK(lab_creds_find(cs, "x") == NULL);
	lab_creds_free(cs);
}

struct bad {
	const char	*yaml;
	const char	*where;
	const char	*what;
};

static const struct bad bad_cases[] = {
	{ "rac: {username: admin, pasword: " SECRET "}\n", "bad.yaml:1:24: ",
	  "did you mean 'password'?" },
	{ "rac: {username: admin, colour: " SECRET "}\n", "bad.yaml:1:24: ",
	  "unknown key in credential (known keys: username, password, " },
	{ "rac:\n  username: admin\n  passwd: " SECRET "\n", "bad.yaml:3:3: ",
	  "unknown key" },
	{ "rac: " SECRET "\n", "bad.yaml:1:6: ",
	  "credential must be a mapping" },
	{ "rac: [admin, " SECRET "]\n", "bad.yaml:1:6: ",
	  "credential must be a mapping" },
	{ "rac: {password: [" SECRET "]}\n", "bad.yaml:1:17: ",
	  "a credential's values are strings" },
	{ "rac: {password: {" SECRET ": x}}\n", "bad.yaml:1:17: ",
	  "a credential's values are strings" },
	{ "- " SECRET "\n", "bad.yaml:1:1: ",
	  "the credentials file maps names to credentials" },
	{ SECRET "-as-a-plain-word\n", "bad.yaml:1:1: ",
	  "the credentials file maps names to credentials" },
	{ "rac: {password: " SECRET "-1, password: " SECRET "-2}\n",
	  "bad.yaml:1:28: ", "duplicate key 'password'" },
	{ "rac: {}\n", "bad.yaml:1:6: ", "credential has no secret" },
	{ "rac: {password: &p " SECRET "}\n", "bad.yaml:1:17: ",
	  "anchors" },
	{ "rac: {password: !secret " SECRET "}\n", "bad.yaml:1:17: ",
	  "custom YAML tags" },
	{ "rac:\n\tpassword: " SECRET "\n", "bad.yaml:2:1: ",
	  "a tab character" },
	{ "rac: {password: \"" SECRET "\n", "bad.yaml:", "quoted scalar" },
	{ "rac: {password: '" SECRET "}\n", "bad.yaml:", "quoted scalar" },
	{ "rac: {password: " SECRET "\xff}\n", "bad.yaml:1:24: ", "UTF-8" },
	{ "rac: {password: \"" SECRET "\\0\"}\n", "bad.yaml:1:17: ",
	  "NUL character" },
	/* a missing space or colon puts the secret in a key */
	{ "rac: {username: admin, password " SECRET "}\n", "bad.yaml:1:24: ",
	  "unknown key" },
	{ "rac:\n  username: admin\n  ? password " SECRET "\n",
	  "bad.yaml:3:5: ", "unknown key" },
	{ "rac: {username: admin, password:" SECRET "}\n", "bad.yaml:1:24: ",
	  "unknown key" },
};

static void
test_bad(void)
{
	struct lab_creds	*cs;
	struct lab_err		 err;
	struct lab_buf		 b;
	size_t			 i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad	*c = &bad_cases[i];

		lab_err_init(&err);
		cs = NULL;
		if (lab_creds_load_buf("bad.yaml", c->yaml, strlen(c->yaml),
		    &cs, &err) != -1) {
			fprintf(stderr, "loaded, want '%s':\n%s", c->what,
			    c->yaml);
			tests_failed++;
			lab_creds_free(cs);
			continue;
		}
		CHECK(cs == NULL);
		if (err.code != LAB_EXIT_INPUT ||
		    strncmp(err.msg, c->where, strlen(c->where)) != 0 ||
		    strstr(err.msg, c->what) == NULL) {
			fprintf(stderr, "got (exit %d) '%s'\nwant (exit 2) "
			    "'%s%s'\n", (int)err.code, err.msg, c->where,
			    c->what);
			tests_failed++;
		}
		if (strstr(err.msg, SECRET) != NULL) {
			fprintf(stderr, "the error quotes the secret: %s\n",
			    err.msg);
			tests_failed++;
		}
	}

	/* a too-long secret: refused without quoting it */
	lab_buf_init(&b);
	lab_buf_adds(&b, "rac: {password: ");
	for (i = 0; i < 600; i++)
		lab_buf_adds(&b, SECRET);
	lab_buf_adds(&b, "}\n");
	lab_err_init(&err);
	cs = NULL;
	CHECK(lab_creds_load_buf("long.yaml", b.s, b.len, &cs, &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, "long.yaml:1:17: value is too long");
	CHECK(strstr(err.msg, SECRET) == NULL);
	lab_buf_release(&b);
}

/* Writes text to path with mode; returns 0 or -1. */
static int
write_file(const char *path, const char *text, mode_t mode)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fputs(text, f);
	if (fclose(f) != 0)
		return -1;
	return chmod(path, mode);
}

static void
test_file(void)
{
	struct lab_creds	*cs = NULL;
	struct lab_err		 err;
	char			 tmpl[] = "/tmp/lab-test-cred.XXXXXX";
	char			*dir, *path, *missing, *bad;

	if ((dir = mkdtemp(tmpl)) == NULL) {
		perror("mkdtemp");
		tests_failed++;
		return;
	}
	path = lab_asprintf("%s/credentials.yaml", dir);
	missing = lab_asprintf("%s/missing.yaml", dir);
	bad = lab_asprintf("%s/bad.yaml", dir);

	/* readable by others: refused, with the fix */
	CHECK(write_file(path, good_yaml, 0644) == 0);
	lab_err_init(&err);
	CHECK(lab_creds_load(path, &cs, &err) == -1);
	CHECK(cs == NULL);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, path);
	CHECK_HAS(err.msg, "mode 0644");
	CHECK_HAS(err.msg, "chmod 600");
	CHECK(strstr(err.msg, SECRET) == NULL);
	/* group access alone is too much */
	CHECK(chmod(path, 0640) == 0);
	lab_err_init(&err);
	CHECK(lab_creds_load(path, &cs, &err) == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, "chmod 600");

	/* private: loads */
	CHECK(chmod(path, 0600) == 0);
	lab_err_init(&err);
	CHECK(lab_creds_load(path, &cs, &err) == 0);
	CHECK(cs != NULL && cs->n == 4);
	if (cs != NULL)
		CHECK_STR(lab_creds_find(cs, "sg200-ro")->community,
		    SECRET "-community");
	lab_creds_free(cs);
	cs = NULL;
	CHECK(chmod(path, 0400) == 0);
	lab_err_init(&err);
	CHECK(lab_creds_load(path, &cs, &err) == 0);
	lab_creds_free(cs);
	cs = NULL;

	/* missing: an environment error naming the file */
	lab_err_init(&err);
	CHECK(lab_creds_load(missing, &cs, &err) == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, missing);
	CHECK_HAS(err.msg, "no credentials file");

	/* a folder is not a credentials file */
	lab_err_init(&err);
	CHECK(lab_creds_load(dir, &cs, &err) == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, "not a regular file");

	/* bad YAML in a private file: an input error at file:line:col */
	CHECK(write_file(bad, "ok: {password: x}\nrac: " SECRET "\n",
	    0600) == 0);
	lab_err_init(&err);
	CHECK(lab_creds_load(bad, &cs, &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, bad);
	CHECK_HAS(err.msg, ":2:6: credential must be a mapping");
	CHECK(strstr(err.msg, SECRET) == NULL);

	unlink(path);
	unlink(bad);
	CHECK(rmdir(dir) == 0);
	free(path);
	free(missing);
	free(bad);
}

/* argv (a NULL-terminated list) redacts to want. */
static void
redact(const char *want, ...)
{
	const char	*v[16];
	char		*got;
	va_list		 ap;
	int		 n = 0;

	va_start(ap, want);
	while (n < 15 && (v[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	got = lab_redact_argv(n, (char *const *)v);
	CHECK_STR(got, want);
	CHECK(got != NULL && strstr(got, SECRET) == NULL);
	free(got);
}

static void
test_redact(void)
{
	redact("lab import inventory/lab.yaml --prune", "lab", "import",
	    "inventory/lab.yaml", "--prune", NULL);
	redact("lab --db /tmp/x.db ls hosts @nas,ml11[0,5] user=bob a:b",
	    "lab", "--db", "/tmp/x.db", "ls", "hosts", "@nas,ml11[0,5]",
	    "user=bob", "a:b", NULL);
	/* the value after a secret option */
	redact("lab power on --password '***' @nas", "lab", "power", "on",
	    "--password", SECRET, "@nas", NULL);
	redact("lab switch sync --community '***' sg200", "lab", "switch",
	    "sync", "--community", SECRET, "sg200", NULL);
	redact("lab x --auth-password '***' --priv-password '***'", "lab",
	    "x", "--auth-password", SECRET "-a", "--priv-password",
	    SECRET "-p", NULL);
	redact("lab x --Secret '***' --token '***'", "lab", "x", "--Secret",
	    SECRET, "--token", SECRET, NULL);
	/* option=value */
	redact("lab x '--password=***' '--community=***' --user=root", "lab",
	    "x", "--password=" SECRET, "--community=" SECRET " with spaces",
	    "--user=root", NULL);
	/* key=value words */
	redact("lab x 'auth_password=***' 'priv_pass=***' 'TOKEN=***' "
	    "'api_secret=***' 'community=***' user=bob", "lab", "x",
	    "auth_password=" SECRET, "priv_pass=" SECRET, "TOKEN=" SECRET,
	    "api_secret=" SECRET, "community=" SECRET, "user=bob", NULL);
	/* the password of a URL (a media image's) */
	redact("lab media insert neo 'http://u:***@h/x.iso'", "lab", "media",
	    "insert", "neo", "http://u:" SECRET "@h/x.iso", NULL);
	redact("lab x '--url=http://u:***@h/x.iso' http://u@h/", "lab", "x",
	    "--url=http://u:" SECRET "@h/x.iso", "http://u@h/", NULL);
	/* a secret option last hides nothing and loses nothing */
	redact("lab x --password", "lab", "x", "--password", NULL);
	/* quoting */
	redact("lab note 'hello world' 'it'\\''s' '' 'a$b' 'tab\there' "
	    "plain-word_1.2", "lab", "note", "hello world", "it's", "",
	    "a$b", "tab\there", "plain-word_1.2", NULL);
	redact("", NULL);
}

int
main(void)
{
	test_good();
	test_bad();
	test_file();
	test_redact();
	TESTS_DONE();
}
