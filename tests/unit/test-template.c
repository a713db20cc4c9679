/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The template renderer: kinds, sections, filters, standalone lines,
 * errors with template:line:col, the shell lexer's refusals, that a sh
 * substitution stays one word whatever the value (run through sh), and
 * that every built-in template parses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/template.h"

#include "tests.h"

/* Renders text with vars; returns the output or NULL (error in err). */
static char *
render(const char *text, const struct lab_tvars *vars, struct lab_err *err)
{
	struct lab_template	*t = NULL;
	struct lab_buf		 b;

	lab_err_init(err);
	if (lab_template_parse("t", text, strlen(text), &t, err) == -1)
		return NULL;
	lab_buf_init(&b);
	if (lab_template_render(t, vars, &b, err) == -1) {
		lab_buf_release(&b);
		lab_template_free(t);
		return NULL;
	}
	lab_template_free(t);
	return lab_buf_steal(&b);
}

static void
ok(const char *text, const struct lab_tvars *vars, const char *want)
{
	struct lab_err	 err;
	char		*got = render(text, vars, &err);

	if (got == NULL) {
		fprintf(stderr, "render failed: %s\n  template: %s\n",
		    err.msg, text);
		tests_failed++;
		return;
	}
	CHECK_STR(got, want);
	free(got);
}

static void
bad(const char *text, const struct lab_tvars *vars, const char *want)
{
	struct lab_err	 err;
	char		*got = render(text, vars, &err);

	if (got != NULL) {
		fprintf(stderr, "rendered, want error '%s': %s\n", want, got);
		free(got);
		tests_failed++;
		return;
	}
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, want);
}

/* echo {{v}} through sh prints v exactly: the quoting holds. */
static void
sh_roundtrip(const char *value)
{
	struct lab_tvars	*v = lab_tvars_new();
	struct lab_err		 err;
	char			*script, out[512];
	char			 path[] = "/tmp/lab-tmpl.XXXXXX";
	char			 cmd[64], want[512];
	size_t			 n;
	FILE			*f;
	int			 fd;

	lab_tvars_set(v, "v", value);
	script = render("{{%sh}}\nprintf '%s|' {{v}} x{{v}}x\n", v, &err);
	lab_tvars_free(v);
	if (script == NULL) {
		fprintf(stderr, "render: %s\n", err.msg);
		tests_failed++;
		return;
	}
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		free(script);
		tests_failed++;
		return;
	}
	fputs(script, f);
	fclose(f);
	free(script);
	snprintf(cmd, sizeof(cmd), "sh %s", path);
	f = popen(cmd, "r");
	n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	out[n] = '\0';
	if (f != NULL)
		pclose(f);
	remove(path);
	snprintf(want, sizeof(want), "%s|x%sx|", value, value);
	CHECK_STR(out, want);
}

int
main(void)
{
	struct lab_tvars	*v, *r, *s;
	struct lab_template	*t;
	struct lab_err		 err;
	const char		*name, *text;
	size_t			 i, len;

	v = lab_tvars_new();
	lab_tvars_set(v, "name", "tank");
	lab_tvars_set(v, "sp", "a b");
	lab_tvars_set(v, "empty", "");
	lab_tvars_set(v, "nl", "a\nb");
	lab_tvars_set(v, "q", "it's \"x\" $HOME `id`");
	r = lab_tvars_add(v, "disks");
	lab_tvars_set(r, "dev", "/dev/sdb");
	s = lab_tvars_add(r, "parts");
	lab_tvars_set(s, "n", "1");
	r = lab_tvars_add(v, "disks");
	lab_tvars_set(r, "dev", "/dev/sd c");
	lab_tvars_setb(v, "on", 1);
	lab_tvars_setb(v, "off", 1);
	lab_tvars_setb(v, "off", 0);

	/* kinds */
	ok("{{%text}}\nhello {{name}}\n", v, "hello tank\n");
	ok("{{%text}}", v, "");
	bad("hello\n", v, "template t:1:1: a template starts with a line");
	bad("{{%sh}}\n{{%sh}}\n", v, "t:2:1: the kind of a template is given "
	    "once");
	/* sh quoting */
	ok("{{%sh}}\nzpool create {{name}} {{sp}} {{empty}}\n", v,
	    "zpool create tank 'a b' ''\n");
	ok("{{%sh}}\necho {{q}}\n", v,
	    "echo 'it'\\''s \"x\" $HOME `id`'\n");
	ok("{{%sh}}\necho \"{{name|raw}}\" x={{sp}}\n", v,
	    "echo \"tank\" x='a b'\n");
	bad("{{%sh}}\necho \"{{name}}\"\n", v, "t:2:7: {{name}} inside quotes");
	bad("{{%sh}}\necho '{{name}}'\n", v, "t:2:7: {{name}} inside quotes");
	bad("{{%sh}}\necho \\{{name}}\n", v, "t:2:7: {{name}} after a "
	    "backslash");
	bad("{{%sh}}\necho ${{name}}\n", v, "t:2:7: {{name}} after a $");
	bad("{{%sh}}\ncat <<EOF\n{{name}}\nEOF\n", v, "t:2:5: here-documents");
	bad("{{%sh}}\necho `id`\n", v, "t:2:6: backquotes");
	bad("{{%sh}}\necho 'x\n", v, "a quote is never closed");
	bad("{{%sh}}\necho {{sp|raw}}\n", v, "t:2:6: 'sp' is not a plain word");
	bad("{{%sh}}\necho {{name|yaml}}\n", v, "only |sh and |raw");
	ok("{{%sh}}\n# disk {{sp}} # it's\necho {{name}}\n", v,
	    "# disk 'a b' # it's\necho tank\n");
	bad("{{%sh}}\n# {{nl}}\n", v, "'nl' holds a newline and is in a "
	    "comment");
	ok("{{%sh}}\necho {{nl}}\n", v, "echo 'a\nb'\n");
	ok("{{%sh}}\nx={{name}}#not-a-comment {{sp}}\n", v,
	    "x=tank#not-a-comment 'a b'\n");
	bad("{{%sh}}\necho \"{{#disks}}x{{/disks}}\"\n", v, "a section cannot "
	    "start inside quotes");
	bad("{{%sh}}\n{{#disks}}echo '{{/disks}}'\n", v, "quoting differs");
	/* sections */
	ok("{{%sh}}\nmdadm{{#disks}} {{dev}}{{/disks}}\n", v,
	    "mdadm /dev/sdb '/dev/sd c'\n");
	ok("{{%text}}\n{{#disks}}\n{{dev}} in {{name}}:\n{{#parts}}\n"
	    "  part {{n}} of {{dev}}\n{{/parts}}\n{{/disks}}\nend\n", v,
	    "/dev/sdb in tank:\n  part 1 of /dev/sdb\n/dev/sd c in tank:\n"
	    "end\n");
	ok("{{%text}}\n{{#on}}on{{/on}}{{#off}}off{{/off}}{{^off}}!off"
	    "{{/off}}{{^empty}}!empty{{/empty}}{{^nothing}}!nothing"
	    "{{/nothing}}{{#empty}}empty{{/empty}}\n", v,
	    "on!off!empty!nothing\n");
	ok("{{%text}}\n  {{! a comment }}\nx\n  {{#on}}  \ny\n{{/on}}\n", v,
	    "x\ny\n");
	bad("{{%text}}\n{{#on}}x\n", v, "t:2:1: {{#on}} is never closed");
	bad("{{%text}}\n{{/on}}\n", v, "t:2:1: {{/on}} closes no section");
	bad("{{%text}}\n{{#on}}{{/off}}\n", v, "{{/off}} does not close "
	    "{{#on}} of line 2");
	bad("{{%text}}\n{{x\n", v, "t:2:1: a tag is not closed");
	bad("{{%text}}\n{{ }}\n", v, "a tag needs a name");
	bad("{{%text}}\n{{name|shell}}\n", v, "unknown filter 'shell'");
	bad("{{%text}}\n{{#name|sh}}x{{/name}}\n", v, "unexpected '|'");
	/* values */
	bad("{{%text}}\nok\n{{missing}}\n", v, "t:3:1: no value for "
	    "'missing'");
	bad("{{%text}}\n{{disks}}\n", v, "'disks' is a list");
	bad("{{%text}}\n{{nl}}\n", v, "'nl' holds a control character");
	ok("{{%yaml}}\nk: {{q}}\nn: {{nl}}\nr: {{name|raw}}\n", v,
	    "k: \"it's \\\"x\\\" $HOME `id`\"\nn: \"a\\nb\"\nr: tank\n");
	lab_tvars_free(v);

	/* the shell gets back exactly what went in */
	sh_roundtrip("plain");
	sh_roundtrip("two words");
	sh_roundtrip("it's");
	sh_roundtrip("'; rm -rf /tmp/nothing-here; '");
	sh_roundtrip("$(echo pwned) `echo pwned` $HOME \\ \"");
	sh_roundtrip("");
	sh_roundtrip("*");

	/* every built-in template parses */
	for (i = 0; (name = lab_template_builtin_name(i)) != NULL; i++) {
		text = lab_template_builtin(name, &len);
		CHECK(text != NULL);
		lab_err_init(&err);
		t = NULL;
		if (lab_template_parse(name, text, len, &t, &err) == -1) {
			fprintf(stderr, "%s\n", err.msg);
			tests_failed++;
		}
		lab_template_free(t);
	}
	CHECK(i >= 10);
	CHECK(lab_template_builtin("no-such", NULL) == NULL);
	TESTS_DONE();
}
