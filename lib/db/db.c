/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/db.h"
#include "lab/file.h"
#include "lab/str.h"
#include "db-priv.h"
#include "schema.h"

#define NMIGRATIONS	((int)LAB_ARRAY_SIZE(schema_migrations))

/* The schema version this build writes. */
int
lab_db_schema_version(void)
{
	return NMIGRATIONS;
}

/*
 * Why the database cannot be written, when the file or its folder (where
 * SQLite creates the -wal and -shm files) says so; else SQLite's words.
 */
static int
write_fail(struct lab_db *db, struct lab_err *err, const char *what)
{
	char	*dir, *p;
	int	 rc;

	if (access(db->path, W_OK) == -1 && errno != ENOENT)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "cannot write the file: %s", db->path, what,
		    strerror(errno));
	if ((dir = strdup(db->path)) == NULL)
		return lab_err_oom(err);
	if ((p = strrchr(dir, '/')) == NULL) {
		free(dir);
		if ((dir = strdup(".")) == NULL)
			return lab_err_oom(err);
	} else if (p == dir)
		p[1] = '\0';
	else
		*p = '\0';
	if (access(dir, W_OK) == -1)
		rc = lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "cannot write its folder '%s', where '%s-wal' and "
		    "'%s-shm' go: %s", db->path, what, dir, db->path, db->path,
		    strerror(errno));
	else if (sqlite3_errcode(db->h) == SQLITE_READONLY)
		rc = lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "read-only: lab writes the file and, beside it, '%s-wal' "
		    "and '%s-shm'", db->path, what, db->path, db->path);
	else
		rc = lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: %s",
		    db->path, what, sqlite3_errmsg(db->h));
	free(dir);
	return rc;
}

/*
 * Sets err from the handle's last error, naming the file. The file
 * system's own words come too where SQLite's are vague ("disk I/O
 * error": No space left on device).
 */
int
lab_db_fail(struct lab_db *db, struct lab_err *err, const char *what)
{
	int	code = sqlite3_errcode(db->h);
	int	sys = sqlite3_system_errno(db->h);

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "locked by another process for more than %d s", db->path,
		    what, LAB_DB_BUSY_MS / 1000);
	if (code == SQLITE_READONLY)
		return write_fail(db, err, what);
	if ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN ||
	    code == SQLITE_FULL) && sys != 0)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "%s: %s", db->path, what, sqlite3_errmsg(db->h),
		    strerror(sys));
	return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: %s",
	    db->path, what, sqlite3_errmsg(db->h));
}

/* Finalizes st and fails: out of memory, or the handle's error. */
int
lab_db_step_fail(struct lab_db *db, sqlite3_stmt *st, int rc,
    struct lab_err *err, const char *what)
{
	sqlite3_finalize(st);
	if (rc == SQLITE_NOMEM || rc == SQLITE_ROW)
		return lab_err_oom(err);
	return lab_db_fail(db, err, what);
}

/* Prepares sql or fails. */
int
lab_db_prepare(struct lab_db *db, const char *sql, sqlite3_stmt **ret,
    struct lab_err *err)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, ret, NULL) != SQLITE_OK)
		return lab_db_fail(db, err, "prepare");
	return 0;
}

/* A column as a newly allocated string. */
char *
lab_db_text(sqlite3_stmt *st, int col)
{
	const unsigned char	*s = sqlite3_column_text(st, col);

	return s != NULL ? strdup((const char *)s) : NULL;
}

/* Binds a string or NULL. */
int
lab_db_bind_text(sqlite3_stmt *st, int idx, const char *s)
{
	if (s == NULL)
		return sqlite3_bind_null(st, idx);
	return sqlite3_bind_text(st, idx, s, -1, SQLITE_TRANSIENT);
}

static int
exec(struct lab_db *db, const char *sql, const char *what,
    struct lab_err *err)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return lab_db_fail(db, err, what);
	return 0;
}

/*
 * exec() for the settings made as the database opens. Two processes that
 * open a new database at once both turn it to WAL; the one that finds
 * the other half-way gets SQLITE_BUSY at once, without SQLite's busy
 * handler (waiting while holding its read lock could deadlock). It lets
 * go of every lock when the statement ends, so trying again, for the
 * same 5 s as the busy timeout, is safe.
 */
static int
exec_open(struct lab_db *db, const char *sql, struct lab_err *err)
{
	const struct timespec	 pause = { 0, 10 * 1000000L };
	int			 i, rc;

	for (i = 0; i < LAB_DB_BUSY_MS / 10; i++) {
		rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		nanosleep(&pause, NULL);
	}
	if (rc != SQLITE_OK)
		return lab_db_fail(db, err, "open");
	return 0;
}

/* Creates each missing folder of path's parent, mode 0700. */
static int
make_parent(const char *path, struct lab_err *err)
{
	char	*dir, *p;
	int	 rc = 0;

	if ((dir = strdup(path)) == NULL)
		return lab_err_oom(err);
	if ((p = strrchr(dir, '/')) == NULL || p == dir) {
		free(dir);
		return 0;
	}
	*p = '\0';
	for (p = dir + 1; rc == 0; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(dir, 0700) == -1 && errno != EEXIST)
			rc = lab_err_set(err, LAB_EXIT_ENV, "cannot create "
			    "folder '%s' for the database: %s", dir,
			    strerror(errno));
		*p = c;
		if (c == '\0')
			break;
	}
	free(dir);
	return rc;
}

/*
 * Creates a new database file readable by its owner only: SQLite gives
 * the -wal and -shm files the mode of the database file.
 */
static int
create_file(const char *path, struct lab_err *err)
{
	int	fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1 && errno != EEXIST)
		return lab_err_set(err, LAB_EXIT_ENV, "cannot create database "
		    "'%s': %s", path, strerror(errno));
	if (fd != -1)
		close(fd);
	return 0;
}

static int
user_version(struct lab_db *db, int *ret, struct lab_err *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (lab_db_prepare(db, "PRAGMA user_version", &st, err) == -1)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*ret = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
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

static int
migrate(struct lab_db *db, struct lab_err *err)
{
	char	sql[64];
	int	v = 0, i;

	if (schema_version(db, &v, err) == -1)
		return -1;
	if (v == NMIGRATIONS)
		return 0;
	if (lab_db_begin(db, err) == -1)
		return -1;
	/* another process may have migrated while we waited for the lock */
	if (user_version(db, &v, err) == -1)
		goto fail;
	for (i = v; i < NMIGRATIONS; i++) {
		if (exec(db, schema_migrations[i], "migrate schema", err) == -1)
			goto fail;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", i + 1);
		if (exec(db, sql, "migrate schema", err) == -1)
			goto fail;
	}
	return lab_db_commit(db, err);
fail:
	lab_db_rollback(db);
	return -1;
}

/* Read-only: the schema must be this lab's, since it cannot migrate it. */
static int
schema_current(struct lab_db *db, struct lab_err *err)
{
	int	v = 0;

	if (schema_version(db, &v, err) == -1)
		return -1;
	if (v < NMIGRATIONS)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s' has schema "
		    "version %d, older than this lab's (%d), and is opened "
		    "read-only: run a command that writes (lab report --record, "
		    "lab import) to migrate it", db->path, v, NMIGRATIONS);
	return 0;
}

/* Opens the database and brings its schema up to date. */
int
lab_db_open(const char *path, int flags, struct lab_db **ret,
    struct lab_err *err)
{
	struct lab_db	*db;
	int		 ro = (flags & LAB_DB_READONLY) != 0;
	int		 oflags = (ro ? SQLITE_OPEN_READONLY :
			    SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX;
	int		 memory = strcmp(path, ":memory:") == 0, code;
	struct stat	 st;

	/* SQLite would make its journals beside a device or a FIFO */
	if (!memory && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': not a "
		    "regular file (%s)", path, lab_file_kind(st.st_mode));
	if (!memory && access(path, F_OK) == -1) {
		if (!(flags & LAB_DB_CREATE))
			return lab_err_set(err, LAB_EXIT_ENV, "no database at "
			    "'%s': run 'lab init' or 'lab import FILE' first",
			    path);
		if (make_parent(path, err) == -1 || create_file(path, err) == -1)
			return -1;
	}
	if ((flags & LAB_DB_CREATE) && !ro)
		oflags |= SQLITE_OPEN_CREATE;
	if ((db = calloc(1, sizeof(*db))) == NULL ||
	    (db->path = strdup(path)) == NULL) {
		free(db);
		return lab_err_oom(err);
	}
	if (sqlite3_open_v2(path, &db->h, oflags, NULL) != SQLITE_OK) {
		if (db->h == NULL)
			lab_err_oom(err);
		else
			write_fail(db, err, "open");
		lab_db_free(db);
		return -1;
	}
	sqlite3_extended_result_codes(db->h, 0);
	sqlite3_busy_timeout(db->h, LAB_DB_BUSY_MS);
	if (exec_open(db, "PRAGMA foreign_keys = ON", err) == -1 ||
	    /* read-only: the file keeps the journal mode lab gave it */
	    (!memory && !ro &&
	    exec_open(db, "PRAGMA journal_mode = WAL", err) == -1) ||
	    exec_open(db, "PRAGMA synchronous = NORMAL", err) == -1 ||
	    /* 64 MiB at most: a 10,000-host import stays in memory */
	    exec_open(db, "PRAGMA cache_size = -2000", err) == -1 ||
	    exec_open(db, "PRAGMA mmap_size = 268435456", err) == -1) {
		code = sqlite3_errcode(db->h);
		if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN ||
		    code == SQLITE_IOERR) {
			lab_err_init(err);
			write_fail(db, err, "open");
		}
		lab_db_free(db);
		return -1;
	}
	if ((ro ? schema_current(db, err) : migrate(db, err)) == -1) {
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
	sqlite3_close_v2(db->h);
	free(db->path);
	free(db);
}

/* For LAB_CLEANUP. */
void
lab_db_freep(struct lab_db **p)
{
	lab_db_free(*p);
}

/* The path it was opened with. */
const char *
lab_db_path(const struct lab_db *db)
{
	return db->path;
}

/* Starts a write transaction. */
int
lab_db_begin(struct lab_db *db, struct lab_err *err)
{
	if (exec(db, "BEGIN IMMEDIATE", "begin", err) == -1)
		return -1;
	db->in_tx = 1;
	return 0;
}

/* Commits the open transaction. */
int
lab_db_commit(struct lab_db *db, struct lab_err *err)
{
	if (exec(db, "COMMIT", "commit", err) == -1) {
		lab_db_rollback(db);
		return -1;
	}
	db->in_tx = 0;
	return 0;
}

/* Rolls back the open transaction, if any. */
void
lab_db_rollback(struct lab_db *db)
{
	if (sqlite3_get_autocommit(db->h) == 0)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	db->in_tx = 0;
}

/* Appends an audit entry. */
int
lab_db_audit_add(struct lab_db *db, const struct lab_audit *a,
    struct lab_err *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (lab_db_prepare(db, "INSERT INTO audit_log (time, user, command, argv, "
	    "result, message) VALUES (?, ?, ?, ?, ?, ?)", &st, err) == -1)
		return -1;
	sqlite3_bind_int64(st, 1, a->time);
	lab_db_bind_text(st, 2, a->user);
	lab_db_bind_text(st, 3, a->command);
	lab_db_bind_text(st, 4, a->argv);
	sqlite3_bind_int(st, 5, a->result);
	lab_db_bind_text(st, 6, a->message);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
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
	sqlite3_stmt		*st;
	size_t			 cnt = 0;
	int			 rc;

	if (lab_db_prepare(db, "SELECT id, time, user, command, argv, result, "
	    "message FROM (SELECT * FROM audit_log ORDER BY id DESC LIMIT ?) "
	    "ORDER BY id", &st, err) == -1)
		return -1;
	sqlite3_bind_int(st, 1, limit > 0 ? limit : -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((a = lab_push(&v, &cnt, sizeof(*a))) == NULL)
			break;
		a->id = sqlite3_column_int64(st, 0);
		a->time = sqlite3_column_int64(st, 1);
		a->user = lab_db_text(st, 2);
		a->command = lab_db_text(st, 3);
		a->argv = lab_db_text(st, 4);
		a->result = sqlite3_column_int(st, 5);
		a->message = lab_db_text(st, 6);
	}
	if (rc != SQLITE_DONE) {
		lab_audit_free_all(v, cnt);
		return lab_db_step_fail(db, st, rc, err, what);
	}
	sqlite3_finalize(st);
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
