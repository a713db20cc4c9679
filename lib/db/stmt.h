/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_STMT_H
#define LAB_DB_STMT_H

/*
 * The driver seam: the statement calls every file of lib/db makes, shaped
 * like SQLite's (prepare, bind, step, column, reset, finalize) so a file
 * reads the same whichever backend runs it. A backend (sqlite.c, pg.c)
 * fills a struct db_driver; these inline calls go through it.
 *
 * Placeholders are written `?` or `?N` (1-based); columns are 0-based,
 * binds 1-based, as in SQLite.
 */

#include <stddef.h>
#include <stdint.h>

/* lab_db_step() and the driver's own results (SQLite's values). */
#define DB_OK		0
#define DB_ERROR	1
#define DB_NOMEM	7
#define DB_ROW		100
#define DB_DONE		101

/* lab_db_column_type() */
#define DB_INTEGER	1
#define DB_FLOAT	2
#define DB_TEXT		3
#define DB_NULL		5

struct lab_db;
struct lab_err;
struct db_stmt;

struct db_driver {
	const char	*name;		/* "sqlite", "postgresql" */
	int	(*prepare)(struct lab_db *, const char *sql,
		    struct db_stmt **ret);	/* DB_OK, DB_NOMEM, DB_ERROR */
	int	(*step)(struct db_stmt *);	/* DB_ROW, DB_DONE, else error */
	int	(*send)(struct db_stmt *);	/* lab_db_send(); NULL: step */
	void	(*reset)(struct db_stmt *);
	void	(*clear)(struct db_stmt *);
	void	(*finalize)(struct db_stmt *);
	void	(*bind_int64)(struct db_stmt *, int idx, int64_t v);
	void	(*bind_double)(struct db_stmt *, int idx, double v);
	/* copy: the string is copied now, else it must live until reset */
	void	(*bind_text)(struct db_stmt *, int idx, const char *s,
		    int copy);
	void	(*bind_null)(struct db_stmt *, int idx);
	int	(*column_type)(struct db_stmt *, int col);
	int64_t	(*column_int64)(struct db_stmt *, int col);
	double	(*column_double)(struct db_stmt *, int col);
	const unsigned char *(*column_text)(struct db_stmt *, int col);
	int	(*column_bytes)(struct db_stmt *, int col);
	int	(*exec)(struct lab_db *, const char *sql);	/* DB_OK or not */
	int64_t	(*changes)(struct lab_db *);
	int64_t	(*last_id)(struct lab_db *);
	int	(*in_tx)(struct lab_db *);
	/* Sets err from the last error, naming the database; returns -1. */
	int	(*fail)(struct lab_db *, struct lab_err *, const char *what);
	/* The schema version kept in the database. */
	int	(*version_get)(struct lab_db *, int *ret);
	int	(*version_set)(struct lab_db *, int v);
	/* Whether the last failure was a conflict the server ended the
	   transaction for (NULL: never) */
	int	(*conflict)(struct lab_db *);
	/* In a write transaction, before (on) and after (off) filling the
	   empty inventory tables in bulk: DB_OK or not (NULL: nothing to do) */
	int	(*bulk)(struct lab_db *, int on);
	/* Appends rows (COPY's text format, one a line) to table into
	   ("table (col, ...)"); DB_OK or not (NULL: batches are INSERTs) */
	int	(*copy)(struct lab_db *, const char *into, const char *rows,
		    size_t len);
	const char	*begin_sql;	/* a write transaction */
	const char	*read_sql;	/* a read one: one snapshot throughout */
	void	(*close)(struct lab_db *);
};

/* What every backend's statement starts with. */
struct db_stmt {
	const struct db_driver	*drv;
	struct lab_db		*db;
};

static inline int
lab_db_step(struct db_stmt *st)
{
	return st->drv->step(st);
}

/*
 * Runs a statement that returns no rows and may answer later: DB_DONE
 * when sent; a failure is then the next statement's (on PostgreSQL, in a
 * write transaction: sent in pipeline mode). Else lab_db_step().
 */
static inline int
lab_db_send(struct db_stmt *st)
{
	return st->drv->send != NULL ? st->drv->send(st) : st->drv->step(st);
}

static inline void
lab_db_reset(struct db_stmt *st)
{
	st->drv->reset(st);
}

static inline void
lab_db_clear_bindings(struct db_stmt *st)
{
	st->drv->clear(st);
}

/* NULL is a no-op. */
static inline void
lab_db_finalize(struct db_stmt *st)
{
	if (st != NULL)
		st->drv->finalize(st);
}

static inline void
lab_db_bind_int64(struct db_stmt *st, int idx, int64_t v)
{
	st->drv->bind_int64(st, idx, v);
}

static inline void
lab_db_bind_int(struct db_stmt *st, int idx, int v)
{
	st->drv->bind_int64(st, idx, v);
}

static inline void
lab_db_bind_double(struct db_stmt *st, int idx, double v)
{
	st->drv->bind_double(st, idx, v);
}

static inline void
lab_db_bind_null(struct db_stmt *st, int idx)
{
	st->drv->bind_null(st, idx);
}

/* Binds a string (copied), or NULL when s is NULL. */
static inline void
lab_db_bind_text(struct db_stmt *st, int idx, const char *s)
{
	if (s == NULL)
		st->drv->bind_null(st, idx);
	else
		st->drv->bind_text(st, idx, s, 1);
}

/* lab_db_bind_text() of a string that lives until the statement's reset. */
static inline void
lab_db_bind_static(struct db_stmt *st, int idx, const char *s)
{
	if (s == NULL)
		st->drv->bind_null(st, idx);
	else
		st->drv->bind_text(st, idx, s, 0);
}

static inline int
lab_db_column_type(struct db_stmt *st, int col)
{
	return st->drv->column_type(st, col);
}

static inline int64_t
lab_db_column_int64(struct db_stmt *st, int col)
{
	return st->drv->column_int64(st, col);
}

static inline int
lab_db_column_int(struct db_stmt *st, int col)
{
	return (int)st->drv->column_int64(st, col);
}

static inline double
lab_db_column_double(struct db_stmt *st, int col)
{
	return st->drv->column_double(st, col);
}

/* A column's text, NULL for SQL NULL; valid until the next step. */
static inline const unsigned char *
lab_db_column_text(struct db_stmt *st, int col)
{
	return st->drv->column_text(st, col);
}

/* The length of lab_db_column_text(), which it must follow. */
static inline int
lab_db_column_bytes(struct db_stmt *st, int col)
{
	return st->drv->column_bytes(st, col);
}

#endif
