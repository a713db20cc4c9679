/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lab/db.h"
#include "lab/file.h"
#include "db-priv.h"

/*
 * The SQLite backend of the driver seam (stmt.h): one file in WAL mode
 * with foreign keys on and a busy timeout, the schema version in PRAGMA
 * user_version. The statement calls are SQLite's own, one to one.
 */

struct sq_stmt {
	struct db_stmt	 base;
	sqlite3_stmt	*st;
};

#define SQ(s)	(((struct sq_stmt *)(void *)(s))->st)
#define H(db)	((sqlite3 *)(db)->h)

static const struct db_driver sqlite_driver;

static int
sq_prepare(struct lab_db *db, const char *sql, struct db_stmt **ret)
{
	struct sq_stmt	*s;
	int		 rc;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return DB_NOMEM;
	rc = sqlite3_prepare_v2(H(db), sql, -1, &s->st, NULL);
	if (rc != SQLITE_OK) {
		free(s);
		return rc == SQLITE_NOMEM ? DB_NOMEM : DB_ERROR;
	}
	s->base.drv = &sqlite_driver;
	s->base.db = db;
	*ret = &s->base;
	return DB_OK;
}

static int
sq_step(struct db_stmt *st)
{
	return sqlite3_step(SQ(st));
}

static void
sq_reset(struct db_stmt *st)
{
	sqlite3_reset(SQ(st));
}

static void
sq_clear(struct db_stmt *st)
{
	sqlite3_clear_bindings(SQ(st));
}

static void
sq_finalize(struct db_stmt *st)
{
	sqlite3_finalize(SQ(st));
	free(st);
}

static void
sq_bind_int64(struct db_stmt *st, int idx, int64_t v)
{
	sqlite3_bind_int64(SQ(st), idx, v);
}

static void
sq_bind_double(struct db_stmt *st, int idx, double v)
{
	sqlite3_bind_double(SQ(st), idx, v);
}

static void
sq_bind_text(struct db_stmt *st, int idx, const char *s, int copy)
{
	sqlite3_bind_text(SQ(st), idx, s, -1, copy ? SQLITE_TRANSIENT :
	    SQLITE_STATIC);
}

static void
sq_bind_null(struct db_stmt *st, int idx)
{
	sqlite3_bind_null(SQ(st), idx);
}

static int
sq_column_type(struct db_stmt *st, int col)
{
	return sqlite3_column_type(SQ(st), col);
}

static int64_t
sq_column_int64(struct db_stmt *st, int col)
{
	return sqlite3_column_int64(SQ(st), col);
}

static double
sq_column_double(struct db_stmt *st, int col)
{
	return sqlite3_column_double(SQ(st), col);
}

static const unsigned char *
sq_column_text(struct db_stmt *st, int col)
{
	return sqlite3_column_text(SQ(st), col);
}

static int
sq_column_bytes(struct db_stmt *st, int col)
{
	return sqlite3_column_bytes(SQ(st), col);
}

static int
sq_exec(struct lab_db *db, const char *sql)
{
	return sqlite3_exec(H(db), sql, NULL, NULL, NULL) == SQLITE_OK ?
	    DB_OK : DB_ERROR;
}

static int64_t
sq_changes(struct lab_db *db)
{
	return sqlite3_changes(H(db));
}

static int64_t
sq_last_id(struct lab_db *db)
{
	return sqlite3_last_insert_rowid(H(db));
}

static int
sq_in_tx(struct lab_db *db)
{
	return sqlite3_get_autocommit(H(db)) == 0;
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
	else if (sqlite3_errcode(H(db)) == SQLITE_READONLY)
		rc = lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "read-only: lab writes the file and, beside it, '%s-wal' "
		    "and '%s-shm'", db->path, what, db->path, db->path);
	else
		rc = lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: %s",
		    db->path, what, sqlite3_errmsg(H(db)));
	free(dir);
	return rc;
}

/*
 * Sets err from the handle's last error, naming the file. The file
 * system's own words come too where SQLite's are vague ("disk I/O
 * error": No space left on device).
 */
static int
sq_fail(struct lab_db *db, struct lab_err *err, const char *what)
{
	int	code = sqlite3_errcode(H(db));
	int	sys = sqlite3_system_errno(H(db));

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "locked by another process for more than %d s", db->path,
		    what, LAB_DB_BUSY_MS / 1000);
	if (code == SQLITE_READONLY)
		return write_fail(db, err, what);
	if ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN ||
	    code == SQLITE_FULL) && sys != 0)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "%s: %s", db->path, what, sqlite3_errmsg(H(db)),
		    strerror(sys));
	return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: %s",
	    db->path, what, sqlite3_errmsg(H(db)));
}

static int
sq_version_get(struct lab_db *db, int *ret)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (sqlite3_prepare_v2(H(db), "PRAGMA user_version", -1, &st,
	    NULL) != SQLITE_OK)
		return DB_ERROR;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*ret = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? DB_OK : DB_ERROR;
}

static int
sq_version_set(struct lab_db *db, int v)
{
	char	sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v);
	return sq_exec(db, sql);
}

static void
sq_close(struct lab_db *db)
{
	sqlite3_close_v2(H(db));
	db->h = NULL;
}

static const struct db_driver sqlite_driver = {
	.name = "sqlite",
	.prepare = sq_prepare,
	.step = sq_step,
	.reset = sq_reset,
	.clear = sq_clear,
	.finalize = sq_finalize,
	.bind_int64 = sq_bind_int64,
	.bind_double = sq_bind_double,
	.bind_text = sq_bind_text,
	.bind_null = sq_bind_null,
	.column_type = sq_column_type,
	.column_int64 = sq_column_int64,
	.column_double = sq_column_double,
	.column_text = sq_column_text,
	.column_bytes = sq_column_bytes,
	.exec = sq_exec,
	.changes = sq_changes,
	.last_id = sq_last_id,
	.in_tx = sq_in_tx,
	.fail = sq_fail,
	.version_get = sq_version_get,
	.version_set = sq_version_set,
	.begin_sql = "BEGIN IMMEDIATE",
	.read_sql = "BEGIN",
	.close = sq_close,
};

/*
 * sq_exec() for the settings made as the database opens. Two processes
 * that open a new database at once both turn it to WAL; the one that
 * finds the other half-way gets SQLITE_BUSY at once, without SQLite's
 * busy handler (waiting while holding its read lock could deadlock). It
 * lets go of every lock when the statement ends, so trying again, for
 * the same 5 s as the busy timeout, is safe.
 */
static int
exec_open(struct lab_db *db, const char *sql, struct lab_err *err)
{
	const struct timespec	 pause = { 0, 10 * 1000000L };
	int			 i, rc;

	for (i = 0; i < LAB_DB_BUSY_MS / 10; i++) {
		rc = sqlite3_exec(H(db), sql, NULL, NULL, NULL);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		nanosleep(&pause, NULL);
	}
	if (rc != SQLITE_OK)
		return sq_fail(db, err, "open");
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

/* Opens db->path; on failure db->h may be set (lab_db_free closes it). */
int
lab_db_sqlite_open(struct lab_db *db, int flags, struct lab_err *err)
{
	const char	*path = db->path;
	int		 ro = (flags & LAB_DB_READONLY) != 0;
	int		 oflags = (ro ? SQLITE_OPEN_READONLY :
			    SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX;
	int		 memory = strcmp(path, ":memory:") == 0, code;
	sqlite3		*h = NULL;
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
	db->drv = &sqlite_driver;
	if (sqlite3_open_v2(path, &h, oflags, NULL) != SQLITE_OK) {
		db->h = h;
		if (h == NULL)
			return lab_err_oom(err);
		return write_fail(db, err, "open");
	}
	db->h = h;
	sqlite3_extended_result_codes(h, 0);
	sqlite3_busy_timeout(h, LAB_DB_BUSY_MS);
	if (exec_open(db, "PRAGMA foreign_keys = ON", err) == -1 ||
	    /* read-only: the file keeps the journal mode lab gave it */
	    (!memory && !ro &&
	    exec_open(db, "PRAGMA journal_mode = WAL", err) == -1) ||
	    exec_open(db, "PRAGMA synchronous = NORMAL", err) == -1 ||
	    /* 64 MiB at most: a 10,000-host import stays in memory */
	    exec_open(db, "PRAGMA cache_size = -2000", err) == -1 ||
	    exec_open(db, "PRAGMA mmap_size = 268435456", err) == -1) {
		code = sqlite3_errcode(h);
		if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN ||
		    code == SQLITE_IOERR) {
			lab_err_init(err);
			write_fail(db, err, "open");
		}
		return -1;
	}
	return 0;
}
