/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/history.h"
#include "lab/json.h"
#include "lab.h"

static void
json_sensors(struct lab_json *j, const struct lab_inventory *inv,
    const struct lab_bmc_result *r)
{
	size_t	k;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "host", r->host);
	lab_json_key(j, "ok");
	lab_json_bool(j, r->ok);
	lab_json_kstr(j, "error", r->ok ? NULL : r->err.msg);
	lab_json_kstr(j, "reason", r->reason);
	lab_json_key(j, "sensors");
	lab_json_arr_begin(j);
	for (k = 0; k < r->nsensors; k++) {
		const struct lab_sensor	*s = &r->sensors[k];

		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", s->name);
		lab_json_kstr(j, "type", s->type);
		lab_json_key(j, "value");
		if (s->has_value) {
			char	num[32];

			/* JSON has no NaN; a fixed format keeps output stable */
			snprintf(num, sizeof(num), "%.2f", s->value);
			lab_json_raw(j, num);
		} else
			lab_json_null(j);
		lab_json_kstr(j, "unit", s->unit);
		lab_json_kstr(j, "state", s->state);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	cmd_bmc_json_row(j, inv, r);
	lab_json_obj_end(j);
}

static int
sensors_run(struct lab_call *call, struct lab_err *err)
{
	struct lab_bmc_req	req;
	struct cmd_bmc_run	run;
	struct lab_buf		b;
	struct lab_json		j;
	struct table		t;
	char			value[48];
	size_t			i, k;
	int64_t			rid;

	memset(&req, 0, sizeof(req));
	req.verb = LAB_BMC_SENSORS;
	if (cmd_bmc_run(call, &req, &run, err) == -1)
		return err->code;
	/* one transaction; a failed host stores nothing */
	if (cmd_opt(call, "record") != NULL && !call->dry_run &&
	    lab_db_sensors_record(call->db, run.res, run.n, call->now,
	    "sensors --record", &rid, err) == -1) {
		cmd_bmc_release(&run);
		return err->code ? (int)err->code : LAB_EXIT_ENV;
	}
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	table_init(&t, 5, "HOST", "SENSOR", "VALUE", "TYPE", "STATE");
	table_paint(&t, 4);
	table_key(&t, 1);
	table_text(&t, 4);
	for (i = 0; i < run.n; i++) {
		const struct lab_bmc_result	*r = &run.res[i];

		json_sensors(&j, run.inv, r);
		if (r->note != NULL && r->nsensors == 0)
			table_row(&t, r->host, "", "", "", r->note);
		for (k = 0; k < r->nsensors; k++) {
			const struct lab_sensor	*s = &r->sensors[k];

			if (s->has_value)
				snprintf(value, sizeof(value), "%.2f%s%s",
				    s->value, s->unit ? " " : "",
				    s->unit ? s->unit : "");
			else
				snprintf(value, sizeof(value), "-");
			table_row(&t, r->host, s->name, value, s->type,
			    s->state);
		}
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	return cmd_bmc_finish(call, &run, &t, &b, err);
}

static const struct lab_opt sensors_opts[] = {
	{ "record", NULL, "store the readings (lab history HOST reads "
	  "them back); a host that failed stores nothing" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb sensors_verbs[] = {
	{ .name = NULL, .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_DRYRUN |
		LAB_VERB_TARGETS,
	  .run = sensors_run, .opts = sensors_opts,
	  .shared_opts = cmd_bmc_opts,
	  .summary = "read every sensor of the SDR: value, unit and state" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_sensors = {
	.name = "sensors",
	.summary = "read sensors (temperatures, fans, voltages) over IPMI",
	.verbs = sensors_verbs,
};
