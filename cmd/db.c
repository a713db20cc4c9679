/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab db copy --to URI | --from URI: moves the lab, its whole history
 * with it, between the current database (--db, LAB_DB) and another one,
 * SQLite or PostgreSQL; prints each table's rows, counted on both sides.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab/cred.h"
#include "lab/dburi.h"
#include "lab/json.h"
#include "lab.h"

/* Opens the other database, with the credentials file's postgres: entry
   when it is a PostgreSQL one and the file is there (as cmd_db). */
static int
open_other(const struct lab_call *call, const char *path, struct lab_db **ret,
    struct lab_err *err)
{
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	const struct lab_cred	*pg;

	if (!lab_db_uri_is_pg(path) || access(call->cred_path, F_OK) == -1)
		return lab_db_open(path, LAB_DB_CREATE, ret, err);
	if (lab_creds_load(call->cred_path, &creds, err) == -1)
		return -1;
	pg = lab_creds_find(creds, "postgres");
	return lab_db_open_auth(path, LAB_DB_CREATE,
	    pg != NULL ? pg->password : NULL, ret, err);
}

static int
print(const struct lab_call *call, struct lab_db *from, struct lab_db *to,
    const struct lab_db_copied *v, size_t n, struct lab_err *err)
{
	struct lab_buf	b;
	struct lab_json	j;
	struct table	t;
	char		f[24], c[24];
	int64_t		total = 0;
	size_t		i;
	int		rc = 0;

	for (i = 0; i < n; i++)
		total += v[i].to;
	if (!call->json) {
		table_init(&t, 3, "TABLE", "FROM", "TO");
		for (i = 0; i < n; i++) {
			snprintf(f, sizeof(f), "%lld", (long long)v[i].from);
			snprintf(c, sizeof(c), "%lld", (long long)v[i].to);
			table_row(&t, v[i].table, f, c);
		}
		table_print(&t, stdout);
		table_release(&t);
		printf("copied %lld rows in %zu tables from %s to %s\n",
		    (long long)total, n, lab_db_path(from), lab_db_path(to));
		return 0;
	}
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_obj_begin(&j);
	lab_json_kstr(&j, "from", lab_db_path(from));
	lab_json_kstr(&j, "to", lab_db_path(to));
	lab_json_key(&j, "replaced");
	lab_json_bool(&j, cmd_opt(call, "replace") != NULL);
	lab_json_kint(&j, "rows", total);
	lab_json_key(&j, "tables");
	lab_json_arr_begin(&j);
	for (i = 0; i < n; i++) {
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "table", v[i].table);
		lab_json_kint(&j, "from", v[i].from);
		lab_json_kint(&j, "to", v[i].to);
		lab_json_obj_end(&j);
	}
	lab_json_arr_end(&j);
	lab_json_obj_end(&j);
	lab_json_end(&j);
	if (cmd_write(&b, err) == -1)
		rc = -1;
	lab_buf_release(&b);
	return rc;
}

static int
copy_run(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_db_freep) struct lab_db *other = NULL;
	const char		*to = cmd_opt(call, "to");
	const char		*from = cmd_opt(call, "from");
	struct lab_db_copied	*v = NULL;
	struct lab_db		*src, *dst;
	size_t			 n = 0;
	int			 rc;

	if ((to == NULL) == (from == NULL))
		return lab_err_set(err, LAB_EXIT_INPUT, "db copy: give one of "
		    "--to URI and --from URI (the other side is --db)"),
		    LAB_EXIT_INPUT;
	if (strcmp(to != NULL ? to : from, call->db_path) == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "db copy: '%s' is the "
		    "current database (--db) itself", call->db_path),
		    LAB_EXIT_INPUT;
	if (cmd_db(call, LAB_DB_CREATE, err) == -1 ||
	    open_other(call, to != NULL ? to : from, &other, err) == -1)
		return (int)err->code;
	src = to != NULL ? call->db : other;
	dst = to != NULL ? other : call->db;
	if (lab_db_copy(src, dst, cmd_opt(call, "replace") != NULL, &v, &n,
	    err) == -1)
		return (int)err->code;
	rc = print(call, src, dst, v, n, err) == -1 ? LAB_EXIT_ENV :
	    LAB_EXIT_OK;
	lab_db_copied_free(v, n);
	return rc;
}

static const struct lab_opt copy_opts[] = {
	{ "to", "URI", "copy the current database into URI (a SQLite file "
	  "or postgresql://USER@HOST:PORT/DBNAME)", NULL, 1, 0 },
	{ "from", "URI", "copy URI into the current database", NULL, 1, 0 },
	{ "replace", NULL, "delete what the target holds first (else a "
	  "target with rows is refused)", NULL, 0, 0 },
	{ NULL, NULL, NULL, NULL, 0, 0 },
};

static const struct lab_verb db_verbs[] = {
	{ .name = "copy", .args = "", .min = 0, .max = 0,
	  .flags = LAB_VERB_JSON, .run = copy_run, .opts = copy_opts,
	  .summary = "copy the lab with its whole history to (--to) or from "
		"(--from) another database, SQLite or PostgreSQL; rows "
		"counted on both sides" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_db = {
	.name = "db",
	.summary = "copy the lab to or from another database",
	.verbs = db_verbs,
};
