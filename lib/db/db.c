/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/str.h"
#include "lab/dburi.h"
#include "db-priv.h"
#include "pg-priv.h"
#include "schema.h"

#define NMIGRATIONS	((int)LAB_ARRAY_SIZE(schema_migrations))

/* The schema version this build writes. */
int
lab_db_schema_version(void)
{
	return NMIGRATIONS;
}

/* Sets err from the connection's last error, naming the database. */
int
lab_db_fail(struct lab_db *db, struct lab_err *err, const char *what)
{
	return db->drv->fail(db, err, what);
}

/* Finalizes st and fails: out of memory, or the handle's error. */
int
lab_db_step_fail(struct lab_db *db, struct db_stmt *st, int rc,
    struct lab_err *err, const char *what)
{
	lab_db_finalize(st);
	if (rc == DB_NOMEM || rc == DB_ROW)
		return lab_err_oom(err);
	return lab_db_fail(db, err, what);
}

/* Prepares sql or fails. */
int
lab_db_prepare(struct lab_db *db, const char *sql, struct db_stmt **ret,
    struct lab_err *err)
{
	int	rc = db->drv->prepare(db, sql, ret);

	if (rc == DB_NOMEM)
		return lab_err_oom(err);
	if (rc != DB_OK)
		return lab_db_fail(db, err, "prepare");
	return 0;
}

/* A column as a newly allocated string. */
char *
lab_db_text(struct db_stmt *st, int col)
{
	const unsigned char	*s = lab_db_column_text(st, col);

	return s != NULL ? strdup((const char *)s) : NULL;
}

/* Runs sql or fails. */
int
lab_db_exec(struct lab_db *db, const char *sql, const char *what,
    struct lab_err *err)
{
	if (db->drv->exec(db, sql) != DB_OK)
		return lab_db_fail(db, err, what);
	return 0;
}

static int
user_version(struct lab_db *db, int *ret, struct lab_err *err)
{
	if (db->drv->version_get(db, ret) != DB_OK)
		return lab_db_fail(db, err, "read schema version");
	return 0;
}

/* The schema version, refused when newer than this lab knows. */
static int
schema_version(struct lab_db *db, int *v, struct lab_err *err)
{
	if (user_version(db, v, err) == -1)
		return -1;
	if (*v > NMIGRATIONS)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s' has schema "
		    "version %d, newer than this lab knows (%d): upgrade lab",
		    db->path, *v, NMIGRATIONS);
	return 0;
}

/* The migrations past the version read in the transaction. */
static int
migrate_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	int	v = 0, i;

	(void)arg;
	/* another process may have migrated while we waited for the lock */
	if (user_version(db, &v, err) == -1)
		return -1;
	db->fresh = v == 0;
	for (i = v; i < NMIGRATIONS; i++) {
		if (lab_db_exec(db, strcmp(db->drv->name, "postgresql") == 0 ?
		    schema_migrations_pg[i] : schema_migrations[i],
		    "migrate schema", err) == -1)
			return -1;
		if (db->drv->version_set(db, i + 1) != DB_OK)
			return lab_db_fail(db, err, "migrate schema");
	}
	return 0;
}

/*
 * v: the version read at the open. LAB_DB_HOLD: in a transaction left
 * open for the first write (lab_db_begin).
 */
static int
migrate(struct lab_db *db, int flags, int v, struct lab_err *err)
{
	if (v == NMIGRATIONS)
		return 0;
	if (!(flags & LAB_DB_HOLD))
		return lab_db_tx(db, migrate_tx, NULL, err);
	if (lab_db_begin(db, err) == -1 || migrate_tx(db, NULL, err) == -1) {
		lab_db_rollback(db);
		return -1;
	}
	db->held = db->unclaimed = 1;
	return 0;
}

/*
 * Migrations a rolled-back write took with it, made again on their own:
 * lab_db_begin() runs them.
 */
static int
migrate_again(struct lab_db *db, struct lab_err *err)
{
	if (!db->redo || db->in_tx)
		return 0;
	if (lab_db_begin(db, err) == -1 || lab_db_commit(db, err) == -1) {
		lab_db_rollback(db);
		return -1;
	}
	return 0;
}

/* Read-only: the schema must be this lab's, since it cannot migrate it. */
static int
schema_current(struct lab_db *db, int v, struct lab_err *err)
{
	if (v < NMIGRATIONS)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s' has schema "
		    "version %d, older than this lab's (%d), and is opened "
		    "read-only: run a command that writes (lab report --record, "
		    "lab import) to migrate it", db->path, v, NMIGRATIONS);
	return 0;
}

/*
 * A PostgreSQL database without lab's schema is what a missing file is
 * on SQLite: only a command that creates (init, import) may fill it.
 */
static int
schema_absent(struct lab_db *db, int flags, int v, struct lab_err *err)
{
	if ((flags & LAB_DB_CREATE) || !lab_db_uri_is_pg(db->path))
		return 0;
	if (v == 0)
		return lab_err_set(err, LAB_EXIT_ENV, "no database at '%s': run "
		    "'lab init' or 'lab import FILE' first", db->path);
	return 0;
}

/* Opens the database and brings its schema up to date. */
int
lab_db_open(const char *path, int flags, struct lab_db **ret,
    struct lab_err *err)
{
	return lab_db_open_auth(path, flags, NULL, ret, err);
}

/* lab_db_open(), with the PostgreSQL password when not NULL. */
int
lab_db_open_auth(const char *path, int flags, const char *password,
    struct lab_db **ret, struct lab_err *err)
{
	struct lab_db	*db;
	int		 ro = (flags & LAB_DB_READONLY) != 0, v = 0;

	if ((db = calloc(1, sizeof(*db))) == NULL ||
	    (db->path = strdup(path)) == NULL) {
		free(db);
		return lab_err_oom(err);
	}
	if ((lab_db_uri_is_pg(path) ? lab_db_pg_open(db, flags, password,
	    err) :
	    lab_db_sqlite_open(db, flags, err)) == -1 ||
	    schema_version(db, &v, err) == -1 ||
	    schema_absent(db, flags, v, err) == -1 ||
	    (ro ? schema_current(db, v, err) : migrate(db, flags, v,
	    err)) == -1) {
		lab_db_free(db);
		return -1;
	}
	*ret = db;
	return 0;
}

/* Closes the database. */
void
lab_db_free(struct lab_db *db)
{
	if (db == NULL)
		return;
	if (db->in_tx)
		lab_db_rollback(db);
	if (db->drv != NULL && db->h != NULL)
		db->drv->close(db);
	free(db->path);
	free(db);
}

/* For LAB_CLEANUP. */
void
lab_db_freep(struct lab_db **p)
{
	lab_db_free(*p);
}

int
lab_db_fresh(const struct lab_db *db)
{
	return db->fresh;
}

/* The path it was opened with. */
const char *
lab_db_path(const struct lab_db *db)
{
	return db->path;
}

/*
 * Starts a write transaction: the open's (LAB_DB_HOLD) when unclaimed,
 * with the migrations again when a rollback took them.
 */
int
lab_db_begin(struct lab_db *db, struct lab_err *err)
{
	if (db->unclaimed) {
		db->unclaimed = 0;
		return 0;
	}
	if (lab_db_exec(db, db->drv->begin_sql, "begin", err) == -1)
		return -1;
	db->in_tx = 1;
	if (db->redo) {
		if (migrate_tx(db, NULL, err) == -1)
			return -1;
		db->redo = 0;
		db->held = 1;
	}
	return 0;
}

/* fn in a write transaction, run again when a conflict ended it. */
int
lab_db_tx(struct lab_db *db, lab_db_tx_fn *fn, void *arg, struct lab_err *err)
{
	int	i;

	for (i = 1;; i++) {
		if (lab_db_begin(db, err) == 0 && fn(db, arg, err) == 0 &&
		    lab_db_commit(db, err) == 0)
			return 0;
		lab_db_rollback(db);
		if (i >= LAB_DB_TRIES || !lab_db_conflict(db))
			return -1;
		lab_err_init(err);
	}
}

/* Commits the open transaction. */
int
lab_db_commit(struct lab_db *db, struct lab_err *err)
{
	if (lab_db_exec(db, "COMMIT", "commit", err) == -1) {
		lab_db_rollback(db);
		return -1;
	}
	db->in_tx = db->held = 0;
	return 0;
}

/* Rolls back the open transaction, if any. */
void
lab_db_rollback(struct lab_db *db)
{
	if (db->drv != NULL && db->h != NULL && lab_db_in_tx(db))
		db->drv->exec(db, "ROLLBACK");
	db->redo |= db->held;
	db->in_tx = db->held = db->unclaimed = 0;
}

/* Appends an audit entry. */
int
lab_db_audit_add(struct lab_db *db, const struct lab_audit *a,
    struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	if (migrate_again(db, err) == -1 ||
	    lab_db_prepare(db, "INSERT INTO audit_log (time, user, command, argv, "
	    "result, message) VALUES (?, ?, ?, ?, ?, ?)", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, a->time);
	lab_db_bind_text(st, 2, a->user);
	lab_db_bind_text(st, 3, a->command);
	lab_db_bind_text(st, 4, a->argv);
	lab_db_bind_int(st, 5, a->result);
	lab_db_bind_text(st, 6, a->message);
	rc = lab_db_step(st);
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "write audit log");
	return 0;
}

/*
 * The newest entries, oldest first: the one reader of the audit log, for
 * `lab log` and the report.
 */
int
lab_db_audit_read(struct lab_db *db, int limit, const char *what,
    struct lab_audit **ret, size_t *n, struct lab_err *err)
{
	struct lab_audit	*v = NULL, *a;
	struct db_stmt		*st;
	size_t			 cnt = 0;
	int			 rc;

	if (lab_db_prepare(db, "SELECT id, time, user, command, argv, result, "
	    "message FROM (SELECT * FROM audit_log ORDER BY id DESC LIMIT ?) "
	    "AS a ORDER BY id", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, limit > 0 ? limit : INT64_MAX);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((a = lab_push(&v, &cnt, sizeof(*a))) == NULL)
			break;
		a->id = lab_db_column_int64(st, 0);
		a->time = lab_db_column_int64(st, 1);
		a->user = lab_db_text(st, 2);
		a->command = lab_db_text(st, 3);
		a->argv = lab_db_text(st, 4);
		a->result = lab_db_column_int(st, 5);
		a->message = lab_db_text(st, 6);
	}
	if (rc != DB_DONE) {
		lab_audit_free_all(v, cnt);
		return lab_db_step_fail(db, st, rc, err, what);
	}
	lab_db_finalize(st);
	*ret = v;
	*n = cnt;
	return 0;
}

/* The newest entries, oldest first. */
int
lab_db_audit_list(struct lab_db *db, int limit, struct lab_audit **ret,
    size_t *n, struct lab_err *err)
{
	return lab_db_audit_read(db, limit, "read audit log", ret, n, err);
}

/* Frees audit entries. */
void
lab_audit_free_all(struct lab_audit *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].user);
		free(v[i].command);
		free(v[i].argv);
		free(v[i].message);
	}
	free(v);
}
