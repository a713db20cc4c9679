/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>

#include "lab/json.h"
#include "lab/parse.h"
#include "lab/render.h"
#include "lab.h"

static int
log_run(struct lab_call *call, struct lab_err *err)
{
	const char		*lim = cmd_opt(call, "limit");
	struct lab_audit	*v = NULL;
	struct lab_buf		 b;
	struct lab_json		 j;
	struct table		 t;
	char			 when[32], res[8];
	size_t			 n = 0, i;
	long			 limit = 50;
	int			 rc = LAB_EXIT_OK;

	if (lim != NULL && lab_parse_int(lim, 0, 1000000000L, &limit) == -1)
		return lab_err_set(err, LAB_EXIT_INPUT, "--limit takes a whole "
		    "number (0 for all), not '%s'", lim), LAB_EXIT_INPUT;
	if (cmd_db(call, 0, err) == -1 ||
	    lab_db_audit_list(call->db, (int)limit, &v, &n, err) == -1)
		return err->code;
	if (call->json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_arr_begin(&j);
		for (i = 0; i < n; i++)
			lab_render_audit_json(&j, &v[i]);
		lab_json_arr_end(&j);
		lab_json_end(&j);
		if (cmd_write(&b, err) == -1)
			rc = LAB_EXIT_ENV;
		lab_buf_release(&b);
	} else {
		table_init(&t, 5, "TIME", "USER", "RESULT", "COMMAND", "MESSAGE");
		table_text(&t, 3);
		table_text(&t, 4);
		for (i = 0; i < n; i++) {
			lab_format_time(v[i].time, when, sizeof(when));
			snprintf(res, sizeof(res), "%d", v[i].result);
			table_row(&t, when, v[i].user, res, v[i].argv,
			    v[i].message);
		}
		table_print(&t, stdout);
		table_release(&t);
	}
	lab_audit_free_all(v, n);
	return rc;
}

static const struct lab_opt log_opts[] = {
	{ "limit", "N", "show the newest N entries (default 50, 0 for all)" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb log_verbs[] = {
	{ .name = NULL, .args = "", .min = 0, .max = 0,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV, .run = log_run,
	  .opts = log_opts,
	  .summary = "show the audit log: time, user, command line (secrets "
		"redacted) and result" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_log = {
	.name = "log",
	.summary = "show the audit log",
	.verbs = log_verbs,
};
