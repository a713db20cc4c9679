/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_PRIV_H
#define LAB_DB_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "lab/db.h"

struct lab_db {
	sqlite3	*h;
	char	*path;
	int	 in_tx;
};

/* Sets err from the handle's last error, naming the file; returns -1. */
int	lab_db_fail(struct lab_db *, struct lab_err *, const char *what);
/*
 * Finalizes a statement whose step returned rc, not what was wanted, and
 * fails: out of memory when rc is SQLITE_NOMEM or SQLITE_ROW (a row left
 * unread because keeping it failed), else the handle's error; -1.
 */
int	lab_db_step_fail(struct lab_db *, sqlite3_stmt *, int rc,
	    struct lab_err *err, const char *what);
/*
 * The newest limit entries of the audit log (all when limit <= 0), oldest
 * first, what naming the read in errors. *ret is caller-owned
 * (lab_audit_free_all).
 */
int	lab_db_audit_read(struct lab_db *, int limit, const char *what,
	    struct lab_audit **ret, size_t *n, struct lab_err *err);
/* Prepares sql or fails with err. */
int	lab_db_prepare(struct lab_db *, const char *sql, sqlite3_stmt **ret,
	    struct lab_err *err);
/* A column as a newly allocated string, NULL for SQL NULL. */
char	*lab_db_text(sqlite3_stmt *, int col);
/* Binds a string, or NULL when s is NULL. */
int	lab_db_bind_text(sqlite3_stmt *, int idx, const char *s);

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
#define DB_BATCH_ROWS	32
#define DB_BATCH_COLS	14

struct db_val {
	int		 type;	/* SQLITE_INTEGER, SQLITE_TEXT; else NULL */
	sqlite3_int64	 i;
	const char	*s;	/* must live until the flush */
};

struct db_batch {
	struct lab_db	*db;
	const char	*what;		/* for errors: "write disk" */
	sqlite3_stmt	*one, *many;
	struct db_batch	*first;		/* flushed before this one: parents */
	int		 ncols;
	size_t		 n;
	struct db_val	 v[DB_BATCH_ROWS * DB_BATCH_COLS];
};

/* Prepares INSERT INTO into ("table (col, ...)") of ncols values. */
int	lab_db_batch_init(struct db_batch *, struct lab_db *, const char *into,
	    int ncols, const char *what, struct lab_err *err);
/* A new row's values to fill in, writing a full batch first; NULL when
 * that failed. */
struct db_val *lab_db_batch_row(struct db_batch *, struct lab_err *err);
/* Writes the rows kept. */
int	lab_db_batch_flush(struct db_batch *, struct lab_err *err);
void	lab_db_batch_release(struct db_batch *);

#endif
