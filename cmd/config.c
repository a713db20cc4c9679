/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdio.h>

#include "lab/dburi.h"
#include "lab/json.h"
#include "lab/parse.h"
#include "lab.h"

/* Shows each effective setting and where it came from. */
static int
config_run(struct lab_call *call, struct lab_err *err)
{
	const struct cmd_setting	*s;
	struct lab_buf			 b;
	struct lab_json			 j;
	struct table			 t;
	size_t				 k;
	struct lab_db_uri		 u;
	long				 v;
	int				 rc = LAB_EXIT_OK;
	char				 where[400];

	/* the database's backend and where it is, never a password */
	if (lab_db_uri_parse(call->db_path, &u, err) == -1)
		return (int)err->code;
	snprintf(where, sizeof(where), "postgresql: host %s, port %s, "
	    "database %s, user %s", *u.host ? u.host : "(socket)",
	    *u.port ? u.port : "5432", *u.dbname ? u.dbname : "(user's)",
	    *u.user ? u.user : "(login)");

	if (call->json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_obj_begin(&j);
		for (k = 0; k < LAB_CONFIG_N; k++) {
			s = &cmd_settings[k];
			lab_json_key(&j, lab_config_keys[k]);
			lab_json_obj_begin(&j);
			/* numbers are JSON numbers (validated before: a bad
			   one is exit 2 and never gets here) */
			lab_json_key(&j, "value");
			if ((k == LAB_CONFIG_FANOUT || k == LAB_CONFIG_TIMEOUT ||
			    k == LAB_CONFIG_SWITCH_DEADLINE) &&
			    lab_parse_int(s->shown, 0, INT32_MAX, &v) == 0)
				lab_json_int(&j, v);
			else
				lab_json_str(&j, s->shown);
			lab_json_kstr(&j, "origin", s->origin);
			lab_json_obj_end(&j);
		}
		lab_json_key(&j, "backend");
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "value", u.pg ? "postgresql" : "sqlite");
		lab_json_kstr(&j, "origin", "db");
		if (u.pg) {
			lab_json_kstr(&j, "host", u.host);
			lab_json_kstr(&j, "port", *u.port ? u.port : "5432");
			lab_json_kstr(&j, "database", u.dbname);
			lab_json_kstr(&j, "user", u.user);
		}
		lab_json_obj_end(&j);
		lab_json_obj_end(&j);
		lab_json_end(&j);
		if (cmd_write(&b, err) == -1)
			rc = LAB_EXIT_ENV;
		lab_buf_release(&b);
		return rc;
	}
	table_init(&t, 3, "SETTING", "VALUE", "ORIGIN");
	table_text(&t, 1);
	table_text(&t, 2);
	for (k = 0; k < LAB_CONFIG_N; k++)
		table_row(&t, lab_config_keys[k], cmd_settings[k].shown,
		    cmd_settings[k].origin);
	table_row(&t, "backend", u.pg ? where : "sqlite", "db");
	table_print(&t, stdout);
	table_release(&t);
	return rc;
}

static const struct lab_verb config_verbs[] = {
	{ .name = NULL, .args = "", .min = 0, .max = 0,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV, .run = config_run,
	  .summary = "show the effective settings and where each came from" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_config = {
	.name = "config",
	.summary = "show the effective settings and where each came from",
	.verbs = config_verbs,
};
