/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lib/core/text.c: URL passwords, visible escapes, UTF-8 sanitising;
   and the JSON writer and lab_err_set, which use them. */
#include <stdlib.h>
#include <string.h>

#include "lab/err.h"
#include "lab/json.h"
#include "lab/str.h"
#include "lab/text.h"

#include "tests.h"

static void
redact(const char *in, const char *want)
{
	char	*s = lab_url_redact(in);

	CHECK_STR(s, want);
	free(s);
}

static void
test_redact(void)
{
	redact("http://user:PASS@host/x.iso", "http://user:***@host/x.iso");
	redact("https://u:p@h", "https://u:***@h");
	redact("http://user@host/x.iso", "http://user@host/x.iso");
	redact("http://host/x.iso", "http://host/x.iso");
	redact("http://host:8080/x.iso", "http://host:8080/x.iso");
	redact("http://u:@h/", "http://u:***@h/");
	redact("http://:pw@h/", "http://:***@h/");
	/* an '@' in the password: the last one of the authority */
	redact("http://u:p@ss@h/x", "http://u:***@h/x");
	/* a '/' in the password: hides up to the '@' */
	redact("http://u:pa/ss@h/x", "http://u:***@h/x");
	redact("http://h/x?mail=a@b", "http://h/x?mail=a@b");
	/* in a command line, twice, and in a longer text */
	redact("lab media insert neo http://a:S1@h/x.iso --url=ftp://b:S2@k",
	    "lab media insert neo http://a:***@h/x.iso --url=ftp://b:***@k");
	redact("iLO said 'vm cdrom insert http://a:S3@h/i' failed",
	    "iLO said 'vm cdrom insert http://a:***@h/i' failed");
	redact("svn+ssh://me:x@h", "svn+ssh://me:***@h");
	/* a control or 8-bit byte in the password does not end the URL */
	redact("http://u:p\x18\xffq@h/x", "http://u:***@h/x");
	redact("://u:p@h", "://u:p@h");	/* no scheme: not a URL */
	redact("", "");
	redact("plain words: no url", "plain words: no url");
	CHECK(lab_url_redact(NULL) == NULL);
}

static void
visible(const char *in, const char *want)
{
	char	*s = lab_visible(in);

	CHECK_STR(s, want);
	CHECK(lab_visible_needed(in) == (strcmp(in, want) != 0));
	free(s);
}

static void
test_visible(void)
{
	visible("plain", "plain");
	visible("", "");
	visible("caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x98\x80",
	    "caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x98\x80");
	/* erase line, carriage return: the plan that lies */
	visible("/dev/sda\r\x1b[2K/dev/sdb", "/dev/sda\\x0d\\x1b[2K/dev/sdb");
	visible("a\tb\nc\x7f", "a\\x09b\\x0ac\\x7f");
	/* C1 controls, as UTF-8 (CSI is U+009B) and as raw 8-bit bytes */
	visible("x\xc2\x9b" "2Jy", "x\\xc2\\x9b2Jy");
	visible("x\x9b" "2J", "x\\x9b2J");
	/* U+00A0 is no control */
	visible("\xc2\xa0", "\xc2\xa0");
	/* latin-1, overlong, surrogate, beyond U+10FFFF, truncated */
	visible("caf\xe9", "caf\\xe9");
	visible("\xc0\xaf", "\\xc0\\xaf");
	visible("\xed\xa0\x80", "\\xed\\xa0\\x80");
	visible("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	visible("ab\xe2\x80", "ab\\xe2\\x80");
	visible("\x80stray", "\\x80stray");
	/* a backslash is doubled: "\x1b" typed is not ESC shown */
	visible("C:\\x1b", "C:\\\\x1b");
	CHECK(lab_visible(NULL) == NULL);
}

static void
test_visible_lines(void)
{
	struct lab_buf	b;

	/* newlines, tabs and backslashes stay; the rest as in a cell */
	lab_buf_init(&b);
	lab_buf_add_visible_lines(&b, "a\tb \\\n/dev/sda\r\x1b[2K\xc2\x9b\xff\n");
	CHECK_STR(b.s, "a\tb \\\n/dev/sda\\x0d\\x1b[2K\\xc2\\x9b\\xff\n");
	lab_buf_release(&b);
}

static void
utf8(const char *in, const char *want)
{
	struct lab_buf	b;

	lab_buf_init(&b);
	lab_buf_add_utf8(&b, in);
	lab_buf_addc(&b, '.');
	CHECK_STR(b.s, want);
	lab_buf_release(&b);
}

#define FFFD	"\xef\xbf\xbd"

static void
test_utf8(void)
{
	size_t	off;

	utf8("ok \xc3\xa9", "ok \xc3\xa9.");
	utf8("\xc0\xaf", FFFD FFFD ".");
	utf8("\xed\xa0\x80", FFFD FFFD FFFD ".");
	utf8("a\xe2\x80", "a" FFFD FFFD ".");
	utf8("\x80\xbf", FFFD FFFD ".");
	utf8("\xff", FFFD ".");
	utf8("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80.");
	/* cutting: never inside a character */
	CHECK(lab_utf8_cut("abc", 2) == 2);
	CHECK(lab_utf8_cut("a\xc3\xa9", 2) == 1);
	CHECK(lab_utf8_cut("a\xc3\xa9", 3) == 3);
	CHECK(lab_utf8_cut("\xe2\x80\xa6\xe2\x80\xa6", 5) == 3);
	CHECK(lab_utf8_cut("x\xff", 2) == 2);
	{
		char	s[] = "ab\xe2\x80";

		lab_utf8_trim(s);
		CHECK_STR(s, "ab");
	}
	/* controls, for the inventory */
	CHECK(lab_ctrl_find("plain", 5, &off) == -1);
	CHECK(lab_ctrl_find("a\tb", 3, &off) == '\t' && off == 1);
	CHECK(lab_ctrl_find("ab\x1b", 3, &off) == 0x1b && off == 2);
	CHECK(lab_ctrl_find("x\x7f", 2, &off) == 0x7f && off == 1);
	CHECK(lab_ctrl_find("x\xc2\x85", 3, &off) == 0x85 && off == 1);
	CHECK(lab_ctrl_find("\xc2\xa0", 2, &off) == -1);
}

static void
test_json(void)
{
	struct lab_buf	b;
	struct lab_json	j;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_str(&j, "a\xe9" "b\xc0\xaf\xed\xa0\x80\xe2\x80\xc3\xa9\x1b");
	CHECK_STR(b.s, "\"a" FFFD "b" FFFD FFFD FFFD FFFD FFFD FFFD FFFD
	    "\xc3\xa9\\u001b\"");
	lab_buf_release(&b);
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	/* C1 controls are valid UTF-8 and JSON, but escaped all the same */
	lab_json_str(&j, "\xc2\x9b");
	CHECK_STR(b.s, "\"\\u009b\"");
	lab_buf_release(&b);
}

static void
test_err(void)
{
	struct lab_err	err;
	char		big[1024];
	size_t		i;

	/* a message cut to its buffer never ends mid-character */
	for (i = 0; i + 2 < sizeof(big); i += 2)
		memcpy(big + i, "\xc3\xa9", 2);
	big[i] = '\0';
	lab_err_init(&err);
	lab_err_set(&err, LAB_EXIT_INPUT, "x%s", big);
	CHECK(lab_utf8_cut(err.msg, strlen(err.msg)) == strlen(err.msg));
	lab_err_prefix(&err, "y");
	CHECK(lab_utf8_cut(err.msg, strlen(err.msg)) == strlen(err.msg));
	lab_err_init(&err);
	lab_err_set(&err, LAB_EXIT_INPUT, "%s", big);
	lab_err_prefix(&err, "y");
	CHECK(lab_utf8_cut(err.msg, strlen(err.msg)) == strlen(err.msg));
}

/* lab_strv_sort and lab_strv_sorted_find: strcmp order, every string found,
   an absent one not, an empty vector */
static void
test_strv_sorted(void)
{
	static const char *const in[] = { "node10", "b", "node2", "a", "B" };
	struct lab_strv	 sv;
	size_t		 i;

	lab_strv_init(&sv);
	CHECK(lab_strv_sorted_find(&sv, "a") == -1);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		CHECK(lab_strv_add(&sv, in[i]) == 0);
	lab_strv_sort(&sv);
	CHECK_STR(sv.v[0], "B");
	CHECK_STR(sv.v[1], "a");
	CHECK_STR(sv.v[4], "node2");
	for (i = 0; i < sv.n; i++)
		CHECK(lab_strv_sorted_find(&sv, sv.v[i]) == (long)i);
	CHECK(lab_strv_sorted_find(&sv, "node3") == -1);
	CHECK(lab_strv_sorted_find(&sv, "") == -1);
	lab_strv_release(&sv);
}

int
main(void)
{
	test_redact();
	test_strv_sorted();
	test_visible();
	test_visible_lines();
	test_utf8();
	test_json();
	test_err();
	TESTS_DONE();
}
