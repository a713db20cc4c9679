/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The JSON writer, lab_suggest and lab_err. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/cred.h"
#include "lab/err.h"
#include "lab/json.h"
#include "lab/render.h"
#include "lab/str.h"

#include "tests.h"

static void
test_nesting(void)
{
	struct lab_buf	b;
	struct lab_json	j;
	char		*s;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_obj_begin(&j);
	lab_json_kstr(&j, "name", "microserver1");
	lab_json_kint(&j, "n", 42);
	lab_json_kint(&j, "neg", -7);
	lab_json_kint(&j, "big", INT64_MAX);
	lab_json_kint(&j, "small", INT64_MIN);
	lab_json_key(&j, "yes");
	lab_json_bool(&j, 1);
	lab_json_key(&j, "no");
	lab_json_bool(&j, 0);
	lab_json_key(&j, "nothing");
	lab_json_null(&j);
	lab_json_kstr(&j, "nullstr", NULL);
	lab_json_key(&j, "list");
	lab_json_arr_begin(&j);
	lab_json_int(&j, 1);
	lab_json_str(&j, "two");
	lab_json_str(&j, NULL);
	lab_json_obj_begin(&j);
	lab_json_kstr(&j, "k", "v");
	lab_json_key(&j, "deeper");
	lab_json_arr_begin(&j);
	lab_json_arr_begin(&j);
	lab_json_bool(&j, 1);
	lab_json_arr_end(&j);
	lab_json_arr_end(&j);
	lab_json_obj_end(&j);
	lab_json_arr_begin(&j);
	lab_json_arr_end(&j);
	lab_json_obj_begin(&j);
	lab_json_obj_end(&j);
	lab_json_arr_end(&j);
	lab_json_key(&j, "empty");
	lab_json_arr_begin(&j);
	lab_json_arr_end(&j);
	lab_json_key(&j, "emptyobj");
	lab_json_obj_begin(&j);
	lab_json_obj_end(&j);
	lab_json_obj_end(&j);
	lab_json_end(&j);
	CHECK(!b.oom);
	s = lab_buf_steal(&b);
	CHECK_STR(s,
	    "{\n"
	    "  \"name\": \"microserver1\",\n"
	    "  \"n\": 42,\n"
	    "  \"neg\": -7,\n"
	    "  \"big\": 9223372036854775807,\n"
	    "  \"small\": -9223372036854775808,\n"
	    "  \"yes\": true,\n"
	    "  \"no\": false,\n"
	    "  \"nothing\": null,\n"
	    "  \"nullstr\": null,\n"
	    "  \"list\": [\n"
	    "    1,\n"
	    "    \"two\",\n"
	    "    null,\n"
	    "    {\n"
	    "      \"k\": \"v\",\n"
	    "      \"deeper\": [\n"
	    "        [\n"
	    "          true\n"
	    "        ]\n"
	    "      ]\n"
	    "    },\n"
	    "    [],\n"
	    "    {}\n"
	    "  ],\n"
	    "  \"empty\": [],\n"
	    "  \"emptyobj\": {}\n"
	    "}\n");
	free(s);

	/* a top-level array, and a bare value */
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	lab_json_str(&j, "a");
	lab_json_str(&j, "b");
	lab_json_arr_end(&j);
	lab_json_end(&j);
	CHECK_STR(b.s, "[\n  \"a\",\n  \"b\"\n]\n");
	lab_buf_release(&b);
	lab_json_init(&j, &b);
	lab_json_str(&j, "alone");
	lab_json_end(&j);
	CHECK_STR(b.s, "\"alone\"\n");
	lab_buf_release(&b);
}

/* One string value as the writer quotes it. */
static void
quoted(const char *in, const char *want)
{
	struct lab_buf	b;
	struct lab_json	j;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_str(&j, in);
	CHECK_STR(b.s, want);
	lab_buf_release(&b);
}

static void
test_escape(void)
{
	struct lab_buf	b;
	struct lab_json	j;

	quoted("", "\"\"");
	quoted("plain", "\"plain\"");
	quoted("say \"hi\"", "\"say \\\"hi\\\"\"");
	quoted("back\\slash", "\"back\\\\slash\"");
	quoted("\\\"", "\"\\\\\\\"\"");
	quoted("a\nb\rc\td", "\"a\\nb\\rc\\td\"");
	quoted("\x01\x08\x0b\x0c\x1f", "\"\\u0001\\u0008\\u000b\\u000c"
	    "\\u001f\"");
	quoted("del\x7f", "\"del\\u007f\"");
	quoted("/slash/", "\"/slash/\"");
	quoted(" ", "\" \"");
	/* UTF-8 passes through */
	quoted("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x99\x82",
	    "\"caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x99\x82\"");
	quoted(NULL, "null");

	/* keys are escaped too */
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_obj_begin(&j);
	lab_json_kstr(&j, "a\"b\n", "\t");
	lab_json_obj_end(&j);
	CHECK_STR(b.s, "{\n  \"a\\\"b\\n\": \"\\t\"\n}");
	lab_buf_release(&b);
}

/* The render helpers that are not covered elsewhere. */
static void
test_render(void)
{
	struct lab_audit	a;
	struct lab_buf		b;
	struct lab_json		j;
	char			t[32];

	lab_format_time(0, t, sizeof(t));
	CHECK_STR(t, "1970-01-01T00:00:00Z");
	lab_format_time(1700000000, t, sizeof(t));
	CHECK_STR(t, "2023-11-14T22:13:20Z");

	memset(&a, 0, sizeof(a));
	a.id = 7;
	a.time = 1700000000;
	a.user = "root";
	a.command = "power on";
	a.argv = "lab power on --password '***' \"x\"";
	a.result = 1;
	a.message = NULL;
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_render_audit_json(&j, &a);
	CHECK_STR(b.s, "{\n"
	    "  \"id\": 7,\n"
	    "  \"time\": \"2023-11-14T22:13:20Z\",\n"
	    "  \"user\": \"root\",\n"
	    "  \"command\": \"power on\",\n"
	    "  \"argv\": \"lab power on --password '***' \\\"x\\\"\",\n"
	    "  \"result\": 1,\n"
	    "  \"message\": null,\n"
	    "  \"args\": [\n"
	    "    \"lab\",\n"
	    "    \"power\",\n"
	    "    \"on\",\n"
	    "    \"--password\",\n"
	    "    \"***\",\n"
	    "    \"\\\"x\\\"\"\n"
	    "  ],\n"
	    "  \"logged_at\": \"2023-11-14T22:13:20Z\"\n"
	    "}");
	lab_buf_release(&b);
}

/* argv as the audit log keeps it, split back into its words ("args") */
static void
test_args(void)
{
	char *const	 argv[] = { (char *)"lab", (char *)"log",
			    (char *)"it's", (char *)"", (char *)"a b",
			    (char *)"--password", (char *)"s3cret",
			    (char *)"@nas,ml110" };
	struct lab_strv	 w;
	char		*line;

	line = lab_redact_argv(8, argv);
	CHECK(line != NULL);
	CHECK_STR(line, "lab log 'it'\\''s' '' 'a b' --password '***' "
	    "@nas,ml110");
	CHECK(lab_argv_split(line, &w) == 0);
	CHECK(w.n == 8);
	CHECK_STR(w.v[2], "it's");
	CHECK_STR(w.v[3], "");
	CHECK_STR(w.v[4], "a b");
	CHECK_STR(w.v[6], "***");
	CHECK_STR(w.v[7], "@nas,ml110");
	lab_strv_release(&w);
	free(line);
	CHECK(lab_argv_split("", &w) == 0 && w.n == 0);
	lab_strv_release(&w);
}

static void
test_suggest(void)
{
	static const char *const keys[] = { "hosts", "switches", "groups" };
	static const char *const hosts[] = { "microserver1", "microserver2",
		"ml110", "ml115", NULL, "neo" };
	char	long1[80], long2[80];

	CHECK_STR(lab_suggest("hostz", keys, 3), "hosts");
	CHECK_STR(lab_suggest("host", keys, 3), "hosts");
	CHECK_STR(lab_suggest("swiches", keys, 3), "switches");
	CHECK_STR(lab_suggest("switchs", keys, 3), "switches");
	CHECK_STR(lab_suggest("gruops", keys, 3), "groups");
	CHECK_STR(lab_suggest("Groups", keys, 3), "groups");
	CHECK(lab_suggest("xyz", keys, 3) == NULL);
	CHECK(lab_suggest("disks", keys, 3) == NULL);
	CHECK(lab_suggest("completely-different", keys, 3) == NULL);
	CHECK(lab_suggest("h", keys, 3) == NULL);
	CHECK(lab_suggest("", keys, 3) == NULL);
	CHECK(lab_suggest("hosts", keys, 0) == NULL);
	/* exact matches are found, NULL candidates skipped */
	CHECK_STR(lab_suggest("neo", hosts, 6), "neo");
	CHECK_STR(lab_suggest("nep", hosts, 6), "neo");
	CHECK_STR(lab_suggest("microservr2", hosts, 6), "microserver2");
	CHECK_STR(lab_suggest("ml11O", hosts, 6), "ml110");
	CHECK_STR(lab_suggest("ml151", hosts, 6), "ml115");
	/* of equals the first wins; the nearest wins over an earlier one */
	CHECK_STR(lab_suggest("microserver3", hosts, 6), "microserver1");
	CHECK_STR(lab_suggest("microserver3", (const char *const []){
	    "microserver10", "microserver2" }, 2), "microserver2");
	CHECK(lab_suggest("ab", hosts, 6) == NULL);
	/* two edits are a typo in a short word, not a whole new word */
	CHECK(lab_suggest("x", (const char *const []){ "y" }, 1) == NULL);
	CHECK_STR(lab_suggest("ab", (const char *const []){ "abc" }, 1),
	    "abc");
	/* words too long to compare are never suggested */
	memset(long1, 'a', 70);
	long1[70] = '\0';
	memcpy(long2, long1, sizeof(long1));
	long2[0] = 'b';
	CHECK(lab_suggest(long1, (const char *const []){ long2 }, 1) == NULL);
	long1[64] = '\0';
	long2[64] = '\0';
	CHECK(lab_suggest(long1, (const char *const []){ long2 }, 1) ==
	    long2);
}

static void
test_err(void)
{
	struct lab_err	err;
	char		big[1000];

	lab_err_init(&err);
	CHECK(err.code == LAB_EXIT_OK);
	CHECK_STR(err.msg, "");
	/* nothing to prefix yet */
	lab_err_prefix(&err, "import");
	CHECK(err.code == LAB_EXIT_OK);
	CHECK_STR(err.msg, "");

	/* the first error wins */
	CHECK(lab_err_set(&err, LAB_EXIT_INPUT, "bad %s at %d", "thing",
	    3) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_STR(err.msg, "bad thing at 3");
	CHECK(lab_err_set(&err, LAB_EXIT_ENV, "later") == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_STR(err.msg, "bad thing at 3");
	CHECK(lab_err_oom(&err) == -1);
	CHECK_STR(err.msg, "bad thing at 3");

	/* context is prepended, innermost first */
	lab_err_prefix(&err, "%s '%s'", "file", "a.yaml");
	CHECK_STR(err.msg, "file 'a.yaml': bad thing at 3");
	lab_err_prefix(&err, "import");
	CHECK_STR(err.msg, "import: file 'a.yaml': bad thing at 3");
	CHECK(err.code == LAB_EXIT_INPUT);

	/* an error never has code OK */
	lab_err_init(&err);
	CHECK(lab_err_set(&err, LAB_EXIT_OK, "odd") == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_STR(err.msg, "odd");

	lab_err_init(&err);
	CHECK(lab_err_oom(&err) == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_STR(err.msg, "out of memory");

	/* a NULL error is allowed */
	CHECK(lab_err_set(NULL, LAB_EXIT_INPUT, "x") == -1);
	lab_err_prefix(NULL, "x");

	/* long messages are cut, never overrun */
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	lab_err_init(&err);
	lab_err_set(&err, LAB_EXIT_INPUT, "%s", big);
	CHECK(strlen(err.msg) == sizeof(err.msg) - 1);
	lab_err_prefix(&err, "ctx");
	CHECK(strlen(err.msg) == sizeof(err.msg) - 1);
	CHECK(strncmp(err.msg, "ctx: mmm", 8) == 0);
	big[300] = '\0';
	lab_err_prefix(&err, "%s", big);
	CHECK(strlen(err.msg) == sizeof(err.msg) - 1);
	CHECK(err.msg[0] == 'm' && strstr(err.msg, ": ctx: ") != NULL);
}

int
main(void)
{
	test_nesting();
	test_escape();
	test_render();
	test_args();
	test_suggest();
	test_err();
	TESTS_DONE();
}
