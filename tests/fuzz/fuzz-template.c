/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the template renderer: the input is a template,
 * parsed and rendered against a fixed tree of values (plain, quoted,
 * multi-line, nested lists). Run by tests/fuzz/run.sh with the seeds in
 * corpus-template/ (copies of templates/ and small cases).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/template.h"

static struct lab_tvars *vars;

static void
build(void)
{
	struct lab_tvars	*r, *s;
	int			 i;

	vars = lab_tvars_new();
	lab_tvars_set(vars, "name", "tank");
	lab_tvars_set(vars, "dev", "/dev/disk/by-id/ata-X_1");
	lab_tvars_set(vars, "q", "it's \"q\" $(id) `id` \\");
	lab_tvars_set(vars, "nl", "a\nb");
	lab_tvars_set(vars, "empty", "");
	lab_tvars_setb(vars, "on", 1);
	for (i = 0; i < 3; i++) {
		r = lab_tvars_add(vars, "list");
		lab_tvars_setf(r, "dev", "/dev/sd%c", 'a' + i);
		s = lab_tvars_add(r, "list");
		lab_tvars_set(s, "n", "1");
		lab_tvars_add(r, "none");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_template	*t = NULL;
	struct lab_err		 err;
	struct lab_buf		 out;

	if (vars == NULL)
		build();
	lab_err_init(&err);
	if (lab_template_parse("fuzz", (const char *)data, size, &t,
	    &err) == -1)
		return 0;
	lab_buf_init(&out);
	lab_template_render(t, vars, &out, &err);
	lab_buf_release(&out);
	lab_template_free(t);
	return 0;
}
