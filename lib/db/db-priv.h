/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_PRIV_H
#define LAB_DB_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "lab/db.h"
#include "lab/str.h"
#include "stmt.h"

struct lab_db {
	const struct db_driver	*drv;
	void			*h;	/* the driver's connection */
	char			*path;	/* as given; shown in errors */
	int			 in_tx;
	int			 fresh;	/* its schema made by this open */
	/* LAB_DB_HOLD: held, the open transaction holds the migrations;
	   unclaimed, it is the open's, left for the first lab_db_begin();
	   redo, they were rolled back and run again in the next write */
	int			 held, unclaimed, redo;
};

/* The SQLite backend (lib/db/sqlite.c): opens path, sets the pragmas. */
int	lab_db_sqlite_open(struct lab_db *, int flags, struct lab_err *);

/* Runs sql (no rows) or fails with err, what naming it. */
int	lab_db_exec(struct lab_db *, const char *sql, const char *what,
	    struct lab_err *err);
/* Starts a read transaction: its reads see one snapshot. */
static inline int
lab_db_begin_read(struct lab_db *db, struct lab_err *err)
{
	return lab_db_exec(db, db->drv->read_sql, "begin", err);
}

/* Rows the last write changed; the id the last INSERT gave. */
static inline int64_t
lab_db_changes(struct lab_db *db)
{
	return db->drv->changes(db);
}

static inline int64_t
lab_db_last_id(struct lab_db *db)
{
	return db->drv->last_id(db);
}

/*
 * Runs of a write transaction the server ended for a conflict (a
 * deadlock, a serialization failure) before its error is the answer.
 */
#define LAB_DB_TRIES	3

/*
 * A first import (no host in the database) of at least this many hosts
 * fills the tables in bulk, as `lab db copy` does (db->drv->bulk: on
 * PostgreSQL the inventory tables' foreign keys checked and their
 * indexes built once at the end, not row by row; the rows by COPY).
 */
#define LAB_DB_BULK_HOSTS	500

/* Whether the last failure was such a conflict: the whole transaction,
   rolled back, may run again. */
static inline int
lab_db_conflict(struct lab_db *db)
{
	return db->drv->conflict != NULL && db->drv->conflict(db);
}

/*
 * A write transaction's work: statements only, no BEGIN or COMMIT. It may
 * run more than once (lab_db_tx): whatever it builds it starts afresh,
 * and what it hands back it leaves in arg, for the caller to take once
 * lab_db_tx succeeded.
 */
typedef int	lab_db_tx_fn(struct lab_db *, void *arg, struct lab_err *err);

/*
 * Runs fn in a write transaction of its own: begin, fn, commit; rolled
 * back when any fails. A transaction the server ended for a conflict
 * runs again from its begin, LAB_DB_TRIES runs at most, then its error.
 */
int	lab_db_tx(struct lab_db *, lab_db_tx_fn *fn, void *arg,
	    struct lab_err *err);

/* Whether a transaction is open on the connection. */
static inline int
lab_db_in_tx(struct lab_db *db)
{
	return db->drv->in_tx(db);
}

/* Sets err from the handle's last error, naming the file; returns -1. */
int	lab_db_fail(struct lab_db *, struct lab_err *, const char *what);

/* db->drv->bulk where the backend has one: 0, or -1 with err set. */
static inline int
lab_db_bulk(struct lab_db *db, int on, struct lab_err *err)
{
	if (db->drv->bulk == NULL || db->drv->bulk(db, on) == DB_OK)
		return 0;
	return lab_db_fail(db, err, on ? "drop keys and indexes for a bulk "
	    "load" : "make keys and indexes again after a bulk load");
}

/*
 * Finalizes a statement whose step returned rc, not what was wanted, and
 * fails: out of memory when rc is DB_NOMEM or DB_ROW (a row left
 * unread because keeping it failed), else the handle's error; -1.
 */
int	lab_db_step_fail(struct lab_db *, struct db_stmt *, int rc,
	    struct lab_err *err, const char *what);
/*
 * The newest limit entries of the audit log (all when limit <= 0), oldest
 * first, what naming the read in errors. *ret is caller-owned
 * (lab_audit_free_all).
 */
int	lab_db_audit_read(struct lab_db *, int limit, const char *what,
	    struct lab_audit **ret, size_t *n, struct lab_err *err);
/* Prepares sql or fails with err. */
int	lab_db_prepare(struct lab_db *, const char *sql, struct db_stmt **ret,
	    struct lab_err *err);
/* A column as a newly allocated string, NULL for SQL NULL. */
char	*lab_db_text(struct db_stmt *, int col);

/*
 * A switch's declared VLANs, ports: entries and uplinks, and its
 * management VLAN (lib/db/vlan-inventory.c): written after its row (old
 * ones replaced when update), read into the switches of inv (sorted by name).
 */
struct lab_switch;
struct lab_inventory;
int	lab_db_switch_decl_write(struct lab_db *, const struct lab_switch *,
	    int update, struct lab_err *);
int	lab_db_switch_decl_read(struct lab_db *, struct lab_inventory *,
	    struct lab_err *);

/* Rows written many to one INSERT (lib/batch.c). */
#define DB_BATCH_ROWS	128
#define DB_BATCH_COLS	64
#define DB_COPY_BYTES	(8u << 20)	/* rows a copying batch keeps at most */

struct db_val {
	int		 type;	/* DB_INTEGER, DB_FLOAT, DB_TEXT; else NULL */
	int64_t		 i;
	double		 d;
	const char	*s;	/* must live until the flush */
};

struct db_batch {
	struct lab_db	*db;
	const char	*what;		/* for errors: "write disk" */
	char		*into;		/* "table (col, ...)" */
	struct db_stmt	*st[DB_BATCH_ROWS];	/* of i + 1 rows, once used */
	struct db_batch	*first;		/* flushed before this one: parents */
	int		 ncols;
	size_t		 n;
	struct db_val	*v;		/* DB_BATCH_ROWS rows of ncols */
	int		 copy;		/* rows kept for one COPY at the end */
	struct lab_buf	 rows;		/* those rows, COPY's text format */
};

/* Prepares INSERT INTO into ("table (col, ...)") of ncols values. */
int	lab_db_batch_init(struct db_batch *, struct lab_db *, const char *into,
	    int ncols, const char *what, struct lab_err *err);
/* A new row's values to fill in, writing a full batch first; NULL when
 * that failed. */
struct db_val *lab_db_batch_row(struct db_batch *, struct lab_err *err);
/* Writes the rows kept (a copying batch: keeps them as COPY text). */
int	lab_db_batch_flush(struct db_batch *, struct lab_err *err);
/*
 * Where the backend has COPY: the batch's rows are kept and written by
 * one COPY at lab_db_batch_end (or each DB_COPY_BYTES of them), not by
 * INSERTs as they come. Only when no row written before then refers to
 * one of them: a bulk load (its foreign keys dropped), a table copied
 * whole before the next.
 */
void	lab_db_batch_copy(struct db_batch *);
/* Writes every row left: the flush, and a copying batch's COPY. */
int	lab_db_batch_end(struct db_batch *, struct lab_err *err);
void	lab_db_batch_release(struct db_batch *);

#endif
