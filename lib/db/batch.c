/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/str.h"
#include "db-priv.h"

/*
 * Rows of one table written DB_BATCH_ROWS at a time by one multi-row
 * INSERT: an import of 10,000 hosts writes 70,000 NICs, disks and group
 * memberships, and each statement run has a cost of its own beyond its
 * rows (on PostgreSQL a round trip). The values are kept (strings by
 * pointer: they must live until the flush) and bound when a batch is
 * full; a batch flushed before it is full (the hosts, whenever the disks
 * that refer to them are written, and what is left at the end) goes as
 * one INSERT of as many rows too, its statement prepared at its first
 * use.
 *
 * In a bulk load on PostgreSQL the rows go by COPY instead, one per
 * table: a multi-row INSERT readies an expression for every value of
 * every row each time it runs, COPY only reads them (40,000 disks: 0.17
 * s of the server's time by INSERTs of 128 rows, 0.09 s by COPY).
 */

static int
prepare_rows(struct db_batch *b, const char *into, size_t rows,
    struct db_stmt **ret, struct lab_err *err)
{
	struct lab_buf	sql;
	size_t		r;
	int		c, rc;

	lab_buf_init(&sql);
	lab_buf_addf(&sql, "INSERT INTO %s VALUES ", into);
	for (r = 0; r < rows; r++) {
		lab_buf_adds(&sql, r ? ", (" : "(");
		for (c = 0; c < b->ncols; c++)
			lab_buf_adds(&sql, c ? ", ?" : "?");
		lab_buf_addc(&sql, ')');
	}
	if (sql.oom)
		return lab_err_oom(err);
	rc = lab_db_prepare(b->db, sql.s, ret, err);
	lab_buf_release(&sql);
	return rc;
}

/* Readies the statements of INSERT INTO into ("table (col, ...)"). */
int
lab_db_batch_init(struct db_batch *b, struct lab_db *db, const char *into,
    int ncols, const char *what, struct lab_err *err)
{
	memset(b, 0, sizeof(*b));
	lab_buf_init(&b->rows);
	b->db = db;
	b->ncols = ncols;
	b->what = what;
	if (ncols < 1 || ncols > DB_BATCH_COLS)
		return lab_err_set(err, LAB_EXIT_ENV, "batch of %d columns",
		    ncols);
	if ((b->into = strdup(into)) == NULL || (b->v = calloc(DB_BATCH_ROWS *
	    (size_t)ncols, sizeof(*b->v))) == NULL) {
		lab_db_batch_release(b);
		return lab_err_oom(err);
	}
	return 0;
}

static void
bind(struct db_stmt *st, int idx, const struct db_val *v)
{
	switch (v->type) {
	case DB_INTEGER:
		lab_db_bind_int64(st, idx, v->i);
		break;
	case DB_FLOAT:
		lab_db_bind_double(st, idx, v->d);
		break;
	case DB_TEXT:
		lab_db_bind_static(st, idx, v->s);
		break;
	default:
		lab_db_bind_null(st, idx);
	}
}

static int
step(struct db_batch *b, struct db_stmt *st, struct lab_err *err)
{
	int	rc = lab_db_send(st);

	lab_db_reset(st);
	lab_db_clear_bindings(st);
	if (rc != DB_DONE)
		return lab_db_fail(b->db, err, b->what);
	return 0;
}

/* Keeps s as a field of COPY's text format: \ escapes what it means. */
static void
copy_text(struct lab_buf *o, const char *s)
{
	size_t	n;

	for (;;) {
		n = strcspn(s, "\\\t\n\r");
		lab_buf_add(o, s, n);
		s += n;
		if (*s == '\0')
			return;
		lab_buf_add(o, *s == '\t' ? "\\t" : *s == '\n' ? "\\n" :
		    *s == '\r' ? "\\r" : "\\\\", 2);
		s++;
	}
}

/* The rows kept, appended to the COPY text: tab between, \N for NULL
   (a NULL string too, as the INSERT binds it). */
static int
keep_rows(struct db_batch *b, struct lab_err *err)
{
	const struct db_val	*v;
	size_t			 r;
	int			 c;

	for (r = 0; r < b->n; r++) {
		for (c = 0; c < b->ncols; c++) {
			v = &b->v[r * (size_t)b->ncols + (size_t)c];
			if (c > 0)
				lab_buf_addc(&b->rows, '\t');
			if (v->type == DB_INTEGER)
				lab_buf_addf(&b->rows, "%lld", (long long)v->i);
			else if (v->type == DB_FLOAT)
				lab_buf_addf(&b->rows, "%.17g", v->d);
			else if (v->type == DB_TEXT && v->s != NULL)
				copy_text(&b->rows, v->s);
			else
				lab_buf_add(&b->rows, "\\N", 2);
		}
		lab_buf_addc(&b->rows, '\n');
	}
	b->n = 0;
	return b->rows.oom ? lab_err_oom(err) : 0;
}

/* Sends the rows a copying batch kept by one COPY. */
static int
copy_send(struct db_batch *b, struct lab_err *err)
{
	int	rc;

	if (b->rows.len == 0)
		return 0;
	rc = b->db->drv->copy(b->db, b->into, b->rows.s, b->rows.len);
	lab_buf_release(&b->rows);
	return rc == DB_OK ? 0 : lab_db_fail(b->db, err, b->what);
}

void
lab_db_batch_copy(struct db_batch *b)
{
	b->copy = b->db->drv->copy != NULL;
}

/* Writes the rows kept so far. */
int
lab_db_batch_flush(struct db_batch *b, struct lab_err *err)
{
	struct db_stmt	**st;
	size_t		  r;
	int		  c, rc;

	/* a copying batch sends what it kept past DB_COPY_BYTES */
	if (b->copy)
		return keep_rows(b, err) == -1 ? -1 :
		    b->rows.len < DB_COPY_BYTES ? 0 : copy_send(b, err);
	/* the rows these refer to go first (foreign keys are checked now) */
	if (b->first != NULL && b->first->n > 0 &&
	    lab_db_batch_flush(b->first, err) == -1)
		return -1;
	if (b->n == 0)
		return 0;
	st = &b->st[b->n - 1];
	if (*st == NULL && prepare_rows(b, b->into, b->n, st, err) == -1)
		return -1;
	for (r = 0; r < b->n; r++)
		for (c = 0; c < b->ncols; c++)
			bind(*st, (int)r * b->ncols + c + 1,
			    &b->v[r * (size_t)b->ncols + (size_t)c]);
	rc = step(b, *st, err);
	b->n = 0;
	return rc;
}

int
lab_db_batch_end(struct db_batch *b, struct lab_err *err)
{
	if (lab_db_batch_flush(b, err) == -1)
		return -1;
	return b->copy ? copy_send(b, err) : 0;
}

/* The values of a new row to fill in; NULL when a full batch failed. */
struct db_val *
lab_db_batch_row(struct db_batch *b, struct lab_err *err)
{
	struct db_val	*v;

	if (b->n == DB_BATCH_ROWS && lab_db_batch_flush(b, err) == -1)
		return NULL;
	v = &b->v[b->n++ * (size_t)b->ncols];
	memset(v, 0, (size_t)b->ncols * sizeof(*v));
	return v;
}

/* Drops the rows kept and frees the statements. */
void
lab_db_batch_release(struct db_batch *b)
{
	size_t	i;

	for (i = 0; i < DB_BATCH_ROWS; i++) {
		lab_db_finalize(b->st[i]);
		b->st[i] = NULL;
	}
	free(b->into);
	free(b->v);
	lab_buf_release(&b->rows);
	b->copy = 0;
	b->into = NULL;
	b->v = NULL;
	b->n = 0;
}
