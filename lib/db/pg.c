/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/dburi.h"
#include "lab/str.h"
#include "db-priv.h"
#include "pg-priv.h"
#include "pq.h"

/*
 * The PostgreSQL backend of the driver seam (stmt.h), through libpq.
 * Statements are SQLite's text turned into PostgreSQL's (pg-sql.c), run
 * with their values as text (the server infers the types from where
 * they go); a step runs the statement at its first call and hands out its
 * rows one by one. A write transaction takes a lock of lab's own first,
 * so two writers take turns as they do on SQLite (BEGIN IMMEDIATE), and
 * waits for it no longer than SQLite's busy timeout. The schema version
 * is the one row of lab_schema.
 *
 * A statement text run a second time on a connection (the same
 * statement again, or another prepared from the same text) is prepared
 * on the server then, once, and run by name from there on: the server
 * parses and plans it once, not at every run (an import runs a few
 * texts thousands of times). Those server statements are kept by text,
 * and the types of the values where they are said, for the connection's
 * life, at most LAB_PG_NAMED of them.
 *
 * A batch of rows (batch.c) in a write transaction is sent in pipeline
 * mode (lab_db_send): lab goes on building the next batch while the
 * server writes this one, instead of waiting a round trip for each.
 * Their answers are read before any other statement runs, or when
 * LAB_PG_PIPED are pending; the first failure among them is then that
 * statement's (the transaction is over by then in any case).
 */

#define LAB_PG_LOCK	7243011	/* pg_advisory_xact_lock key of lab */
#define LAB_PG_TRIES	LAB_DB_TRIES	/* runs of a statement or transaction a
					   conflict ended */

#define LAB_PG_NAMED	512	/* server statements a connection keeps */
#define LAB_PG_PIPED	128	/* results a pipeline has pending at most */

#define INT8OID		20
#define INT2OID		21
#define INT4OID		23
#define BOOLOID		16
#define TEXTOID		25
#define FLOAT4OID	700
#define FLOAT8OID	701
#define NUMERICOID	1700

/* A statement text run on the connection, by its text and value types. */
struct pg_text {
	char		*key;		/* the text, then the types */
	size_t		 len;
	uint64_t	 hash;
	int		 runs;
	int		 named;		/* prepared on the server as "labN" */
};

struct pgc {
	PGconn		*c;
	char		*msg;		/* the last error, one line */
	char		 state[6];	/* its SQLSTATE */
	int64_t		 changes;
	struct pg_text	*text;
	size_t		 ntext, cap;
	int		 nnamed;
	char		*readd;		/* the foreign keys a bulk load dropped */
	int		 piped;		/* results sent for, not yet read */
};

struct pg_stmt {
	struct db_stmt	 base;
	char		*sql;
	int		 n;		/* parameters */
	char		**val;		/* each owned; NULL is SQL NULL */
	Oid		*type;		/* of each value, where typed says */
	uint64_t	 typed;
	PGresult	*res;
	int		 row, nrows;
	long		 text;		/* its pg_text, -1 before a run */
	Oid		*ttype;		/* the types it was found with */
};

#define PS(s)	((struct pg_stmt *)(void *)(s))
#define C(db)	((struct pgc *)(db)->h)

static const struct db_driver pg_driver;

/* Keeps the error of r (or of the connection), first line only. */
static void
keep_error(struct lab_db *db, const PGresult *r)
{
	struct pgc	*c = C(db);
	const char	*m = NULL, *s = NULL;

	if (r != NULL) {
		m = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
		s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	}
	if (m == NULL)
		m = PQerrorMessage(c->c);
	/* a statement after a failed one in the transaction: the first
	   failure is the one to tell */
	if (s != NULL && strcmp(s, "25P02") == 0 && c->msg != NULL &&
	    c->state[0] != '\0')
		return;
	free(c->msg);
	c->msg = strndup(m, strcspn(m, "\n"));
	snprintf(c->state, sizeof(c->state), "%s", s != NULL ? s : "");
}

/* Whether the last error was a conflict worth running again. */
static int
conflict(const struct pgc *c)
{
	return strcmp(c->state, "40001") == 0 ||
	    strcmp(c->state, "40P01") == 0;
}

static int
pg_conflict(struct lab_db *db)
{
	return conflict(C(db));
}

static int
pg_prepare(struct lab_db *db, const char *sql, struct db_stmt **ret)
{
	struct pg_stmt	*s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return DB_NOMEM;
	if ((s->sql = lab_db_pg_sql(sql, &s->n, &s->typed)) == NULL ||
	    (s->n > 0 && ((s->val = calloc((size_t)s->n,
	    sizeof(*s->val))) == NULL || (s->type = calloc((size_t)s->n,
	    sizeof(*s->type))) == NULL || (s->ttype = calloc((size_t)s->n,
	    sizeof(*s->ttype))) == NULL))) {
		free(s->ttype);
		free(s->type);
		free(s->val);
		free(s->sql);
		free(s);
		return DB_NOMEM;
	}
	s->base.drv = &pg_driver;
	s->base.db = db;
	s->row = -1;
	s->text = -1;
	*ret = &s->base;
	return DB_OK;
}

/* The pg_text of s with its types now; -1 when out of memory. */
static long
text_of(struct pgc *c, struct pg_stmt *s)
{
	struct pg_text	*t;
	size_t		 sl = strlen(s->sql), tl = (size_t)s->n * sizeof(Oid);
	size_t		 i, len = sl + 1 + tl;
	uint64_t	 h = 14695981039346656037ULL;
	char		*key;

	if (s->text >= 0 && (s->n == 0 ||
	    memcmp(s->ttype, s->type, tl) == 0))
		return s->text;
	if ((key = malloc(len)) == NULL)
		return -1;
	memcpy(key, s->sql, sl + 1);
	if (tl > 0)
		memcpy(key + sl + 1, s->type, tl);
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ULL;
	for (i = 0; i < c->ntext; i++) {
		t = &c->text[i];
		if (t->hash == h && t->len == len &&
		    memcmp(t->key, key, len) == 0)
			break;
	}
	if (i == c->ntext) {
		if (c->ntext == c->cap) {
			size_t	 cap = c->cap ? c->cap * 2 : 32;

			if ((t = realloc(c->text, cap * sizeof(*t))) == NULL) {
				free(key);
				return -1;
			}
			c->text = t;
			c->cap = cap;
		}
		t = &c->text[c->ntext++];
		memset(t, 0, sizeof(*t));
		t->key = key;
		t->len = len;
		t->hash = h;
		t->named = -1;
	} else
		free(key);
	if (tl > 0)
		memcpy(s->ttype, s->type, tl);
	s->text = (long)i;
	return s->text;
}

/*
 * The text of s, counted a run (NULL: out of memory). name is then the
 * server statement it runs by, "labN", or empty for none; *now says the
 * statement is to be prepared first, as this is its second run (then
 * set t->named = c->nnamed++ once it is sent).
 */
static struct pg_text *
text_run(struct pgc *c, struct pg_stmt *s, char name[24], int *now)
{
	struct pg_text	*t;
	long		 i;

	if ((i = text_of(c, s)) == -1)
		return NULL;
	t = &c->text[i];
	*now = t->named < 0 && ++t->runs >= 2 && c->nnamed < LAB_PG_NAMED;
	name[0] = '\0';
	if (*now || t->named >= 0)
		snprintf(name, 24, "lab%d", *now ? c->nnamed : t->named);
	return t;
}

/*
 * Runs s once: by name when its text is prepared on the server (now, at
 * its second run), else with its text.
 */
static PGresult *
run_once(struct pgc *c, struct pg_stmt *s)
{
	struct pg_text	*t;
	PGresult	*r;
	char		 name[24];
	int		 now;

	if ((t = text_run(c, s, name, &now)) == NULL)
		return NULL;
	if (now) {
		r = PQprepare(c->c, name, s->sql, s->n, s->type);
		if (PQresultStatus(r) != PGRES_COMMAND_OK)
			return r;
		PQclear(r);
		t->named = c->nnamed++;
	}
	if (t->named < 0)
		return PQexecParams(c->c, s->sql, s->n, s->type,
		    (const char *const *)s->val, NULL, NULL, 0);
	return PQexecPrepared(c->c, name, s->n, (const char *const *)s->val,
	    NULL, NULL, 0);
}

/*
 * Reads the answers of what was sent in pipeline mode and leaves it:
 * DB_OK, or DB_ERROR with the first failure kept.
 */
static int
drain(struct lab_db *db)
{
	struct pgc	*c = C(db);
	PGresult	*r;
	ExecStatusType	 rs;
	int		 rc = DB_OK, nulls = 0;

	if (PQpipelineStatus(c->c) == PQ_PIPELINE_OFF)
		return DB_OK;
	c->piped = 0;
	if (PQpipelineSync(c->c) != 1) {
		keep_error(db, NULL);
		return DB_ERROR;
	}
	for (;;) {
		/* NULL ends each statement's answer; two in a row, or a
		   connection gone, end them all */
		if ((r = PQgetResult(c->c)) == NULL) {
			if (++nulls > 1 || PQstatus(c->c) != CONNECTION_OK) {
				if (rc == DB_OK)
					keep_error(db, NULL);
				return DB_ERROR;
			}
			continue;
		}
		nulls = 0;
		rs = PQresultStatus(r);
		if (rs == PGRES_PIPELINE_SYNC) {
			PQclear(r);
			break;
		}
		/* after a failure the server skips the rest: ABORTED */
		if (rs != PGRES_COMMAND_OK && rs != PGRES_TUPLES_OK &&
		    rs != PGRES_PIPELINE_ABORTED && rc == DB_OK) {
			keep_error(db, r);
			rc = DB_ERROR;
		}
		PQclear(r);
	}
	if (PQexitPipelineMode(c->c) != 1 && rc == DB_OK) {
		keep_error(db, NULL);
		rc = DB_ERROR;
	}
	return rc;
}

static int	pg_step(struct db_stmt *);

/* lab_db_send(): in a write transaction, sent in pipeline mode. */
static int
pg_send(struct db_stmt *st)
{
	struct pg_stmt	*s = PS(st);
	struct lab_db	*db = s->base.db;
	struct pgc	*c = C(db);
	struct pg_text	*t;
	char		 name[24];
	int		 ok, now;

	if (c->piped == 0 &&
	    PQtransactionStatus(c->c) != PQTRANS_INTRANS)
		return pg_step(st);
	if (c->piped >= LAB_PG_PIPED && drain(db) != DB_OK)
		return DB_ERROR;
	if (PQpipelineStatus(c->c) == PQ_PIPELINE_OFF &&
	    PQenterPipelineMode(c->c) != 1) {
		keep_error(db, NULL);
		return DB_ERROR;
	}
	if ((t = text_run(c, s, name, &now)) == NULL)
		return DB_NOMEM;
	if (now) {
		if (PQsendPrepare(c->c, name, s->sql, s->n, s->type) != 1) {
			keep_error(db, NULL);
			return DB_ERROR;
		}
		c->piped++;
		t->named = c->nnamed++;
	}
	ok = t->named < 0 ? PQsendQueryParams(c->c, s->sql, s->n, s->type,
	    (const char *const *)s->val, NULL, NULL, 0) :
	    PQsendQueryPrepared(c->c, name, s->n, (const char *const *)s->val,
	    NULL, NULL, 0);
	if (ok != 1) {
		keep_error(db, NULL);
		return DB_ERROR;
	}
	c->piped++;
	s->row = s->nrows = 0;
	return DB_DONE;
}

/* Runs the statement; DB_OK or DB_ERROR (kept). */
static int
run(struct pg_stmt *s)
{
	struct lab_db	*db = s->base.db;
	struct pgc	*c = C(db);
	ExecStatusType	 rs;
	int		 i;

	if (drain(db) != DB_OK)
		return DB_ERROR;
	for (i = 0; i < LAB_PG_TRIES; i++) {
		PQclear(s->res);
		s->res = run_once(c, s);
		rs = PQresultStatus(s->res);
		if (rs == PGRES_TUPLES_OK || rs == PGRES_COMMAND_OK) {
			c->changes = strtoll(PQcmdTuples(s->res), NULL, 10);
			s->nrows = rs == PGRES_TUPLES_OK ? PQntuples(s->res) : 0;
			return DB_OK;
		}
		keep_error(db, s->res);
		/* in a transaction, the caller's whole work must run again */
		if (!conflict(c) || PQtransactionStatus(c->c) != PQTRANS_IDLE)
			break;
	}
	PQclear(s->res);
	s->res = NULL;
	return DB_ERROR;
}

static int
pg_step(struct db_stmt *st)
{
	struct pg_stmt	*s = PS(st);

	if (s->row == -1) {
		if (run(s) != DB_OK)
			return DB_ERROR;
	}
	if (++s->row < s->nrows)
		return DB_ROW;
	s->row = s->nrows;
	return DB_DONE;
}

static void
pg_reset(struct db_stmt *st)
{
	struct pg_stmt	*s = PS(st);

	PQclear(s->res);
	s->res = NULL;
	s->row = -1;
	s->nrows = 0;
}

static void
pg_clear(struct db_stmt *st)
{
	struct pg_stmt	*s = PS(st);
	int		 i;

	for (i = 0; i < s->n; i++) {
		free(s->val[i]);
		s->val[i] = NULL;
	}
}

static void
pg_finalize(struct db_stmt *st)
{
	struct pg_stmt	*s = PS(st);

	pg_clear(st);
	PQclear(s->res);
	free(s->val);
	free(s->type);
	free(s->ttype);
	free(s->sql);
	free(s);
}

/*
 * Sets value idx (1-based) to v (owned; NULL is SQL NULL), of type oid
 * where the statement needs its type said.
 */
static void
set(struct db_stmt *st, int idx, char *v, Oid oid)
{
	struct pg_stmt	*s = PS(st);

	if (idx < 1 || idx > s->n) {
		free(v);
		return;
	}
	free(s->val[idx - 1]);
	s->val[idx - 1] = v;
	if (idx <= 64 && (s->typed & ((uint64_t)1 << (idx - 1))))
		s->type[idx - 1] = oid;
}

static void
pg_bind_int64(struct db_stmt *st, int idx, int64_t v)
{
	char	buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	set(st, idx, strdup(buf), INT8OID);
}

static void
pg_bind_double(struct db_stmt *st, int idx, double v)
{
	char	buf[64];

	snprintf(buf, sizeof(buf), "%.17g", v);
	set(st, idx, strdup(buf), FLOAT8OID);
}

static void
pg_bind_text(struct db_stmt *st, int idx, const char *v, int copy)
{
	(void)copy;
	set(st, idx, strdup(v), TEXTOID);
}

static void
pg_bind_null(struct db_stmt *st, int idx)
{
	set(st, idx, NULL, TEXTOID);
}

/* Whether col of the current row is there and not NULL. */
static int
has(struct pg_stmt *s, int col)
{
	return s->res != NULL && s->row >= 0 && s->row < s->nrows &&
	    col >= 0 && col < PQnfields(s->res) &&
	    !PQgetisnull(s->res, s->row, col);
}

static int
pg_column_type(struct db_stmt *st, int col)
{
	struct pg_stmt	*s = PS(st);
	const char	*v;

	if (!has(s, col))
		return DB_NULL;
	switch (PQftype(s->res, col)) {
	case INT2OID:
	case INT4OID:
	case INT8OID:
	case BOOLOID:
		return DB_INTEGER;
	case FLOAT4OID:
	case FLOAT8OID:
		return DB_FLOAT;
	case NUMERICOID:
		v = PQgetvalue(s->res, s->row, col);
		return strchr(v, '.') != NULL ? DB_FLOAT : DB_INTEGER;
	default:
		return DB_TEXT;
	}
}

static int64_t
pg_column_int64(struct db_stmt *st, int col)
{
	struct pg_stmt	*s = PS(st);
	const char	*v;

	if (!has(s, col))
		return 0;
	v = PQgetvalue(s->res, s->row, col);
	if (PQftype(s->res, col) == BOOLOID)
		return *v == 't';
	return strtoll(v, NULL, 10);
}

static double
pg_column_double(struct db_stmt *st, int col)
{
	struct pg_stmt	*s = PS(st);

	if (!has(s, col))
		return 0;
	return strtod(PQgetvalue(s->res, s->row, col), NULL);
}

static const unsigned char *
pg_column_text(struct db_stmt *st, int col)
{
	struct pg_stmt	*s = PS(st);

	if (!has(s, col))
		return NULL;
	return (const unsigned char *)PQgetvalue(s->res, s->row, col);
}

static int
pg_column_bytes(struct db_stmt *st, int col)
{
	struct pg_stmt	*s = PS(st);

	if (!has(s, col))
		return 0;
	return PQgetlength(s->res, s->row, col);
}

static int
pg_exec(struct lab_db *db, const char *sql)
{
	struct pgc	*c = C(db);
	PGresult	*r;
	ExecStatusType	 rs;
	char		*text;
	uint64_t	 typed;
	int		 n, i, rc = DB_ERROR;

	/* a ROLLBACK runs whatever the pipeline answered */
	if (drain(db) != DB_OK && strncmp(sql, "ROLLBACK", 8) != 0)
		return DB_ERROR;
	if ((text = lab_db_pg_sql(sql, &n, &typed)) == NULL)
		return DB_NOMEM;
	for (i = 0; i < LAB_PG_TRIES; i++) {
		r = PQexec(c->c, text);
		rs = PQresultStatus(r);
		if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK) {
			c->changes = strtoll(PQcmdTuples(r), NULL, 10);
			rc = DB_OK;
			/* a new transaction: no failure of its own yet */
			if (strncmp(text, "BEGIN", 5) == 0)
				c->state[0] = '\0';
		} else
			keep_error(db, r);
		PQclear(r);
		if (rc == DB_OK || !conflict(c) ||
		    PQtransactionStatus(c->c) != PQTRANS_IDLE)
			break;
	}
	free(text);
	return rc;
}

static int64_t
pg_changes(struct lab_db *db)
{
	return C(db)->changes;
}

static int64_t
pg_last_id(struct lab_db *db)
{
	PGresult	*r = PQexec(C(db)->c, "SELECT lastval()");
	int64_t		 id = 0;

	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
		id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	return id;
}

static int
pg_in_tx(struct lab_db *db)
{
	return PQtransactionStatus(C(db)->c) != PQTRANS_IDLE;
}

static int
pg_fail(struct lab_db *db, struct lab_err *err, const char *what)
{
	struct pgc	*c = C(db);
	const char	*m = c->msg != NULL ? c->msg : "unknown error";

	if (strcmp(c->state, "55P03") == 0)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "locked by another lab for more than %d s", db->path, what,
		    LAB_DB_BUSY_MS / 1000);
	if (conflict(c))
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "%s (the transaction run %d times): try again", db->path,
		    what, m, LAB_PG_TRIES);
	if (strcmp(c->state, "42501") == 0)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: %s: "
		    "grant lab's user the privileges it needs", db->path, what,
		    m);
	/* disk_full, and the class's others (out of memory, too many
	   connections): the server's own resources */
	if (strncmp(c->state, "53", 2) == 0)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: the "
		    "server is out of room: %s: nothing was written; free "
		    "space on the server, then run it again", db->path, what, m);
	if (strcmp(c->state, "25006") == 0)
		return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: "
		    "read-only: %s", db->path, what, m);
	return lab_err_set(err, LAB_EXIT_ENV, "database '%s': %s: %s",
	    db->path, what, m);
}

static int
pg_version_get(struct lab_db *db, int *ret)
{
	PGresult	*r;
	int		 rc = DB_ERROR;

	/* no table yet: a new database (asked so, as an error would end
	   the transaction the migration runs in) */
	if (drain(db) != DB_OK)
		return DB_ERROR;
	r = PQexec(C(db)->c, "SELECT to_regclass('lab_schema') IS NULL");
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		keep_error(db, r);
		PQclear(r);
		return DB_ERROR;
	}
	if (*PQgetvalue(r, 0, 0) == 't') {
		PQclear(r);
		*ret = 0;
		return DB_OK;
	}
	PQclear(r);
	r = PQexec(C(db)->c, "SELECT version FROM lab_schema");
	if (PQresultStatus(r) == PGRES_TUPLES_OK) {
		*ret = PQntuples(r) > 0 ?
		    (int)strtol(PQgetvalue(r, 0, 0), NULL, 10) : 0;
		rc = DB_OK;
	} else
		keep_error(db, r);
	PQclear(r);
	return rc;
}

static int
pg_version_set(struct lab_db *db, int v)
{
	char	sql[160];

	snprintf(sql, sizeof(sql), "CREATE TABLE IF NOT EXISTS lab_schema "
	    "(version integer NOT NULL); DELETE FROM lab_schema; "
	    "INSERT INTO lab_schema VALUES (%d)", v);
	return pg_exec(db, sql);
}

static void
pg_close(struct lab_db *db)
{
	struct pgc	*c = C(db);
	size_t		 i;

	PQfinish(c->c);
	for (i = 0; i < c->ntext; i++)
		free(c->text[i].key);
	free(c->text);
	free(c->msg);
	free(c->readd);
	free(c);
	db->h = NULL;
}

/*
 * A first import of a big lab, or a lab copied in (db copy --to: into
 * empty tables, in any order): PostgreSQL checks a foreign key row by row
 * (a SELECT ... FOR KEY SHARE of the parent for each of 70,000 NICs,
 * disks and memberships), about half the server's time, and puts each
 * row in every index of its table, one at a time. So, as PostgreSQL's
 * "Populating a Database" says, the keys from the tables the import
 * fills to hosts and groups, and those tables' indexes (their primary
 * keys and unique constraints too, but those another table's key
 * refers to), are dropped in its transaction and made again at its end:
 * an index built from all the rows at once (40,000 disks: 0.07 s, not
 * 0.13 s), each key checked by one scan. DDL is transactional: a
 * failure, a rollback or a kill leaves them as they were. The tables
 * are locked (ACCESS EXCLUSIVE) until the commit, so a reader waits for
 * the first import rather than seeing an empty lab.
 */
static int
pg_bulk(struct lab_db *db, int on)
{
	static const char	 keys[] = "WITH t AS (SELECT kids, "
	    "kids || 'hosts'::regclass AS filled FROM (SELECT "
	    "'{bmcs,host_ssh,host_network,nics,disks,host_groups}'::regclass[] "
	    "AS kids) s), k AS ("
	    /* 1: the keys to hosts and groups */
	    "SELECT 1 AS o, format('ALTER TABLE %s DROP CONSTRAINT %I', "
	    "conrelid::regclass, conname) AS d, format('ALTER TABLE %s ADD "
	    "CONSTRAINT %I %s', conrelid::regclass, conname, "
	    "pg_get_constraintdef(c.oid)) AS a FROM pg_constraint c, t "
	    "WHERE contype = 'f' AND conrelid = ANY (kids) AND confrelid = "
	    "ANY ('{hosts,groups}'::regclass[]) UNION ALL "
	    /* 2: primary keys and unique constraints no key refers to */
	    "SELECT 2, format('ALTER TABLE %s DROP CONSTRAINT %I', "
	    "conrelid::regclass, conname), format('ALTER TABLE %s ADD "
	    "CONSTRAINT %I %s', conrelid::regclass, conname, "
	    "pg_get_constraintdef(c.oid)) FROM pg_constraint c, t "
	    "WHERE contype IN ('p', 'u') AND conrelid = ANY (filled) AND "
	    "NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' "
	    "AND f.conindid = c.conindid) UNION ALL "
	    /* 3: the other indexes */
	    "SELECT 3, format('DROP INDEX %s', indexrelid::regclass), "
	    "pg_get_indexdef(indexrelid) FROM pg_index i, t "
	    "WHERE indrelid = ANY (filled) AND NOT EXISTS (SELECT 1 FROM "
	    "pg_constraint c WHERE c.conindid = i.indexrelid AND "
	    "c.conrelid = i.indrelid)) "
	    /* dropped keys first, made again last */
	    "SELECT string_agg(d, '; ' ORDER BY o, d), "
	    "string_agg(a, '; ' ORDER BY o DESC, a) FROM k";
	struct pgc	*c = C(db);
	PGresult	*r;
	int		 rc;

	if (drain(db) != DB_OK)
		return DB_ERROR;
	if (!on) {
		rc = c->readd == NULL ? DB_OK : pg_exec(db, c->readd);
		free(c->readd);
		c->readd = NULL;
		return rc;
	}
	free(c->readd);
	c->readd = NULL;
	r = PQexec(c->c, keys);
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		keep_error(db, r);
		PQclear(r);
		return DB_ERROR;
	}
	if (PQgetisnull(r, 0, 0)) {
		PQclear(r);
		return DB_OK;
	}
	if ((c->readd = strdup(PQgetvalue(r, 0, 1))) == NULL) {
		PQclear(r);
		return DB_NOMEM;
	}
	rc = pg_exec(db, PQgetvalue(r, 0, 0));
	PQclear(r);
	return rc;
}

/*
 * The rows of a bulk load into one table by COPY ... FROM STDIN, sent in
 * pieces of LAB_PG_COPY bytes (COPY cannot run in pipeline mode: what
 * was sent before is read first).
 */
#define LAB_PG_COPY	(1 << 20)

static int
pg_copy(struct lab_db *db, const char *into, const char *rows, size_t len)
{
	struct pgc	*c = C(db);
	PGresult	*r;
	char		*sql;
	size_t		 n;
	int		 rc = DB_OK;

	if (drain(db) != DB_OK)
		return DB_ERROR;
	if ((sql = lab_asprintf("COPY %s FROM STDIN", into)) == NULL)
		return DB_NOMEM;
	r = PQexec(c->c, sql);
	free(sql);
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		keep_error(db, r);
		PQclear(r);
		return DB_ERROR;
	}
	PQclear(r);
	for (; len > 0; rows += n, len -= n) {
		n = len < LAB_PG_COPY ? len : LAB_PG_COPY;
		if (PQputCopyData(c->c, rows, (int)n) != 1)
			break;
	}
	/* a failed send ends the COPY with an error: the server rolls it
	   back and answers why */
	if (PQputCopyEnd(c->c, len > 0 ? "lab: sending rows failed" :
	    NULL) != 1) {
		keep_error(db, NULL);
		rc = DB_ERROR;
	}
	while ((r = PQgetResult(c->c)) != NULL) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == DB_OK) {
			keep_error(db, r);
			rc = DB_ERROR;
		}
		PQclear(r);
	}
	if (rc == DB_OK && len > 0) {
		keep_error(db, NULL);
		rc = DB_ERROR;
	}
	return rc;
}

#define STR(x)	#x
#define XSTR(x)	STR(x)

static const struct db_driver pg_driver = {
	.name = "postgresql",
	.prepare = pg_prepare,
	.step = pg_step,
	.send = pg_send,
	.reset = pg_reset,
	.clear = pg_clear,
	.finalize = pg_finalize,
	.bind_int64 = pg_bind_int64,
	.bind_double = pg_bind_double,
	.bind_text = pg_bind_text,
	.bind_null = pg_bind_null,
	.column_type = pg_column_type,
	.column_int64 = pg_column_int64,
	.column_double = pg_column_double,
	.column_text = pg_column_text,
	.column_bytes = pg_column_bytes,
	.exec = pg_exec,
	.changes = pg_changes,
	.last_id = pg_last_id,
	.in_tx = pg_in_tx,
	.fail = pg_fail,
	.version_get = pg_version_get,
	.version_set = pg_version_set,
	.conflict = pg_conflict,
	.bulk = pg_bulk,
	.copy = pg_copy,
	.begin_sql = "BEGIN; SELECT pg_advisory_xact_lock(" XSTR(LAB_PG_LOCK)
	    ")",
	.read_sql = "BEGIN ISOLATION LEVEL REPEATABLE READ",
	.close = pg_close,
};

/* lib/ never prints: the server's notices and warnings (a shutdown's
   'terminating connection') are not libpq's to write to stderr */
static void
notice_drop(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* Connects to the server db->path names. */
int
lab_db_pg_open(struct lab_db *db, int flags, const char *password,
    struct lab_err *err)
{
	static const char *const keys[] = { "dbname", "connect_timeout",
		"application_name", "options", "password", NULL };
	const char		*vals[6];
	struct lab_db_uri	 u;
	struct pgc		*c;
	char			 opts[128];

	if (lab_db_uri_parse(db->path, &u, err) == -1 ||
	    lab_pq_load(db->path, err) == -1)
		return -1;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return lab_err_oom(err);
	db->drv = &pg_driver;
	db->h = c;
	/* waits for another writer as long as SQLite would; quiet: the
	   migrations' CREATE IF NOT EXISTS notices; no JIT: the report's
	   switch ports (10,400 on 400 switches, each with five correlated
	   lookups) look costly to the planner, which then compiled for
	   0.45 s a statement that runs in 0.19 s */
	snprintf(opts, sizeof(opts), "-c lock_timeout=%d "
	    "-c client_min_messages=warning -c jit=off%s", LAB_DB_BUSY_MS,
	    (flags & LAB_DB_READONLY) ? " -c default_transaction_read_only=on" :
	    "");
	vals[0] = db->path;
	vals[1] = "10";
	vals[2] = "lab";
	vals[3] = opts;
	vals[4] = password;	/* NULL ends the list: libpq's own files */
	vals[5] = NULL;
	c->c = PQconnectdbParams(keys, vals, 1);
	if (c->c == NULL)
		return lab_err_oom(err);
	PQsetNoticeProcessor(c->c, notice_drop, NULL);
	if (PQstatus(c->c) != CONNECTION_OK) {
		const char	*m = PQerrorMessage(c->c);

		return lab_err_set(err, LAB_EXIT_ENV, "database server %s%s%s "
		    "(database '%s'): cannot connect: %.*s", *u.host ? u.host :
		    "(local socket)", *u.port ? ":" : "", u.port,
		    *u.dbname ? u.dbname : u.user, (int)strcspn(m, "\n"), m);
	}
	return 0;
}
