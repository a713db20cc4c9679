/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/history.h"
#include "lab/json.h"
#include "lab/render.h"
#include "lab.h"

static int
sel_run(struct lab_call *call, struct lab_err *err)
{
	struct lab_bmc_req	req;
	struct cmd_bmc_run	run;
	struct lab_buf		b;
	struct lab_json		j;
	struct table		t;
	char			id[16], when[32];
	size_t			i, k, added;

	memset(&req, 0, sizeof(req));
	req.verb = LAB_BMC_SEL;
	if (cmd_bmc_run(call, &req, &run, err) == -1)
		return err->code;
	/* each entry once: one read again is not a new event */
	if (cmd_opt(call, "record") != NULL && !call->dry_run &&
	    lab_db_sel_record(call->db, run.res, run.n, call->now,
	    "sel --record", &added, err) == -1) {
		cmd_bmc_release(&run);
		return err->code ? (int)err->code : LAB_EXIT_ENV;
	}
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	table_init(&t, 5, "HOST", "ID", "TIME", "SENSOR", "EVENT");
	table_text(&t, 4);
	for (i = 0; i < run.n; i++) {
		const struct lab_bmc_result	*r = &run.res[i];

		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "host", r->host);
		lab_json_key(&j, "ok");
		lab_json_bool(&j, r->ok);
		lab_json_kstr(&j, "error", r->ok ? NULL : r->err.msg);
		lab_json_kstr(&j, "reason", r->reason);
		lab_json_key(&j, "entries");
		lab_json_arr_begin(&j);
		for (k = 0; k < r->nsel; k++) {
			const struct lab_sel_entry	*e = &r->sel[k];

			if (e->time > 0)
				lab_format_time(e->time, when, sizeof(when));
			lab_json_obj_begin(&j);
			lab_json_kint(&j, "id", e->id);
			lab_json_kstr(&j, "time", e->time > 0 ? when : NULL);
			lab_json_kstr(&j, "logged_at", e->time > 0 ? when :
			    NULL);
			lab_json_kstr(&j, "sensor", e->sensor);
			lab_json_kstr(&j, "event", e->event);
			lab_json_obj_end(&j);
			snprintf(id, sizeof(id), "%u", e->id);
			table_row(&t, r->host, id, e->time > 0 ? when : NULL,
			    e->sensor, e->event);
		}
		lab_json_arr_end(&j);
		cmd_bmc_json_row(&j, run.inv, r);
		lab_json_obj_end(&j);
		if (r->ok && r->nsel == 0 && r->note == NULL)
			table_row(&t, r->host, "", "", "",
			    "(the event log is empty)");
		if (r->note != NULL && r->nsel == 0)
			table_row(&t, r->host, "", "", "", r->note);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	return cmd_bmc_finish(call, &run, &t, &b, err);
}

static const struct lab_opt sel_opts[] = {
	{ "record", NULL, "keep the entries, each once (lab history HOST "
	  "reads them back); a host that failed stores nothing" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb sel_verbs[] = {
	{ .name = NULL, .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_DRYRUN |
		LAB_VERB_TARGETS,
	  .run = sel_run, .opts = sel_opts, .shared_opts = cmd_bmc_opts,
	  .summary = "read the System Event Log" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_sel = {
	.name = "sel",
	.summary = "read the System Event Log over IPMI",
	.verbs = sel_verbs,
};
