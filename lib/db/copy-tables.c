/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/str.h"
#include "copy-priv.h"
#include "db-priv.h"

/*
 * A database's tables, their columns and which tables each one's foreign
 * keys name, read from the backend's catalog: lab_db_copy() moves them
 * all, so a new migration's table is copied without a word here.
 */

static const char *const q_tables[2] = {
	"SELECT name FROM sqlite_master WHERE type = 'table' "
	"AND name NOT GLOB 'sqlite_*' ORDER BY name",
	"SELECT table_name::text FROM information_schema.tables "
	"WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' "
	"AND table_name <> 'lab_schema' ORDER BY 1",
};

static const char *const q_columns[2] = {
	"SELECT name FROM pragma_table_info(?1) ORDER BY cid",
	"SELECT column_name::text FROM information_schema.columns "
	"WHERE table_schema = current_schema() AND table_name::text = ?1 "
	"ORDER BY ordinal_position",
};

static const char *const q_deps[2] = {
	"SELECT m.name, f.\"table\" FROM sqlite_master AS m, "
	"pragma_foreign_key_list(m.name) AS f WHERE m.type = 'table'",
	"SELECT c.relname::text, p.relname::text FROM pg_constraint AS k "
	"JOIN pg_class AS c ON c.oid = k.conrelid "
	"JOIN pg_class AS p ON p.oid = k.confrelid "
	"WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace",
};

/* Whether db is a PostgreSQL one. */
int
lab_db_is_pg(const struct lab_db *db)
{
	return strcmp(db->drv->name, "postgresql") == 0;
}

/* The table named name in v, or NULL. */
struct copy_table *
lab_db_copy_find(struct copy_table *v, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

/* Reads the first column of sql's rows (?1 bound to arg) into sv. */
static int
strings(struct lab_db *db, const char *sql, const char *arg,
    struct lab_strv *sv, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	if (lab_db_prepare(db, sql, &st, err) == -1)
		return -1;
	if (arg != NULL)
		lab_db_bind_text(st, 1, arg);
	while ((rc = lab_db_step(st)) == DB_ROW)
		if (lab_strv_add(sv, (const char *)lab_db_column_text(st,
		    0)) == -1)
			break;
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read the catalog");
	lab_db_finalize(st);
	return 0;
}

static int
deps(struct lab_db *db, struct copy_table *v, size_t n, struct lab_err *err)
{
	struct copy_table	*t;
	struct db_stmt		*st;
	const char		*child, *parent;
	int			 rc;

	if (lab_db_prepare(db, q_deps[lab_db_is_pg(db)], &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		child = (const char *)lab_db_column_text(st, 0);
		parent = (const char *)lab_db_column_text(st, 1);
		if (child == NULL || parent == NULL ||
		    strcmp(child, parent) == 0 ||
		    (t = lab_db_copy_find(v, n, child)) == NULL ||
		    lab_strv_find(&t->deps, parent) >= 0)
			continue;
		if (lab_strv_add(&t->deps, parent) == -1)
			break;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read the catalog");
	lab_db_finalize(st);
	return 0;
}

/* Whether no table v[i]'s foreign keys name is left to take. */
static int
ready(const struct copy_table *v, size_t n, const unsigned char *taken,
    size_t i)
{
	size_t	k, j;

	for (k = 0; k < v[i].deps.n; k++)
		for (j = 0; j < n; j++)
			if (!taken[j] && j != i &&
			    strcmp(v[j].name, v[i].deps.v[k]) == 0)
				return 0;
	return 1;
}

/*
 * The tables of db, parents before the tables whose foreign keys name
 * them (by name otherwise). *ret is caller-owned (lab_db_copy_tables_free).
 */
int
lab_db_copy_tables(struct lab_db *db, struct copy_table **ret, size_t *n,
    struct lab_err *err)
{
	struct lab_strv		 names;
	struct copy_table	*v = NULL, *o = NULL, *t;
	unsigned char		*taken = NULL;
	size_t			 i, done = 0, cnt = 0;
	int			 pg = lab_db_is_pg(db), moved;

	lab_strv_init(&names);
	if (strings(db, q_tables[pg], NULL, &names, err) == -1)
		goto fail;
	for (i = 0; i < names.n; i++) {
		if ((t = lab_push(&v, &cnt, sizeof(*t))) == NULL)
			goto oom;
		lab_strv_init(&t->cols);
		lab_strv_init(&t->deps);
		t->name = names.v[i];
		names.v[i] = NULL;
		if (strings(db, q_columns[pg], t->name, &t->cols, err) == -1)
			goto fail;
	}
	if (deps(db, v, cnt, err) == -1)
		goto fail;
	/* parents first: take each table whose parents are all taken */
	if (cnt > 0 && ((o = calloc(cnt, sizeof(*o))) == NULL ||
	    (taken = calloc(cnt, 1)) == NULL))
		goto oom;
	while (done < cnt) {
		moved = 0;
		for (i = 0; i < cnt; i++)
			if (!taken[i] && ready(v, cnt, taken, i)) {
				o[done++] = v[i];
				taken[i] = 1;
				moved = 1;
			}
		/* a cycle: the first table left goes anyway */
		for (i = 0; !moved && i < cnt; i++)
			if (!taken[i]) {
				o[done++] = v[i];
				taken[i] = 1;
				moved = 1;
			}
	}
	free(taken);
	free(v);
	lab_strv_release(&names);
	*ret = o;
	*n = cnt;
	return 0;
oom:
	lab_err_oom(err);
fail:
	free(o);
	free(taken);
	lab_db_copy_tables_free(v, cnt);
	lab_strv_release(&names);
	return -1;
}

void
lab_db_copy_tables_free(struct copy_table *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		lab_strv_release(&v[i].cols);
		lab_strv_release(&v[i].deps);
	}
	free(v);
}
