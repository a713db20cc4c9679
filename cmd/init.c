/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/json.h"
#include "lab.h"

static int
init_run(struct lab_call *call, struct lab_err *err)
{
	struct lab_buf	b;
	struct lab_json	j;
	int		existed, rc;

	if (cmd_db(call, LAB_DB_CREATE, err) == -1)
		return LAB_EXIT_ENV;
	/* on PostgreSQL the server's admin made the database, lab the schema */
	existed = !lab_db_fresh(call->db);
	if (call->json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "db", lab_db_path(call->db));
		lab_json_key(&j, "created");
		lab_json_bool(&j, !existed);
		lab_json_kint(&j, "schema_version", lab_db_schema_version());
		lab_json_obj_end(&j);
		lab_json_end(&j);
		rc = cmd_write(&b, err);
		lab_buf_release(&b);
		return rc == -1 ? LAB_EXIT_ENV : LAB_EXIT_OK;
	} else
		printf("%s %s (schema version %d)\n", existed ?
		    "database ready at" : "created database", lab_db_path(call->db),
		    lab_db_schema_version());
	return LAB_EXIT_OK;
}

static const struct lab_verb init_verbs[] = {
	{ .name = NULL, .args = "", .min = 0, .max = 0,
	  .flags = LAB_VERB_JSON | LAB_VERB_MUTATES, .run = init_run,
	  .summary = "create the database (and its folder), or bring its "
		"schema up to date" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_init = {
	.name = "init",
	.summary = "create the database",
	.verbs = init_verbs,
};
