/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/str.h"
#include "copy-priv.h"
#include "db-priv.h"

/*
 * lab db copy: every table of one database into another, whichever
 * backends they are, ids kept. Both are migrated to this lab's schema
 * when opened, so their tables are the same; the columns copied are
 * those both sides have (PostgreSQL's switch_findings has a rowid column
 * SQLite keeps hidden). Values go as the type they are read as.
 */

/* The rows of table in db. */
static int
count(struct lab_db *db, const char *table, int64_t *ret, struct lab_err *err)
{
	struct db_stmt	*st;
	char		 sql[160];
	int		 rc;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM \"%s\"", table);
	if (lab_db_prepare(db, sql, &st, err) == -1)
		return -1;
	if ((rc = lab_db_step(st)) != DB_ROW)
		return lab_db_step_fail(db, st, rc, err, "count rows");
	*ret = lab_db_column_int64(st, 0);
	lab_db_finalize(st);
	return 0;
}

/* The SELECT of src's columns dst has, and the table and columns to
   INSERT INTO. */
static int
statements(struct lab_db *from, const struct copy_table *src,
    const struct copy_table *dst, struct lab_buf *sel, struct lab_buf *ins,
    int *ncols)
{
	const char	*order = NULL;
	size_t		 i;
	int		 k = 0;

	lab_buf_adds(sel, "SELECT ");
	lab_buf_addf(ins, "\"%s\" (", src->name);
	for (i = 0; i < src->cols.n; i++) {
		if (lab_strv_find(&dst->cols, src->cols.v[i]) < 0)
			continue;
		lab_buf_addf(sel, "%s\"%s\"", k > 0 ? ", " : "",
		    src->cols.v[i]);
		lab_buf_addf(ins, "%s\"%s\"", k > 0 ? ", " : "",
		    src->cols.v[i]);
		k++;
	}
	lab_buf_addf(sel, " FROM \"%s\"", src->name);
	/* in the order the rows were written: SQLite reads them so */
	if (lab_db_is_pg(from)) {
		if (lab_strv_find(&src->cols, "rowid") >= 0)
			order = "rowid";
		else if (lab_strv_find(&src->cols, "id") >= 0)
			order = "id";
		if (order != NULL)
			lab_buf_addf(sel, " ORDER BY \"%s\"", order);
	}
	lab_buf_adds(ins, ")");
	*ncols = k;
	return sel->oom || ins->oom ? -1 : 0;
}

/* Frees the strings kept for the rows written. */
static void
drop_strings(char **v, size_t *n)
{
	while (*n > 0)
		free(v[--*n]);
}

/*
 * Copies the rows of table src of from into dst of to, DB_BATCH_ROWS to
 * an INSERT (on PostgreSQL a round trip each, not each row); *n counts
 * them.
 */
static int
copy_rows(struct lab_db *from, struct lab_db *to,
    const struct copy_table *src, const struct copy_table *dst, int64_t *n,
    struct lab_err *err)
{
	struct db_stmt	*rd = NULL;
	struct db_batch	 b;
	struct db_val	*v;
	struct lab_buf	 sel, ins;
	char		 what[128], **str = NULL;
	const char	*t;
	size_t		 nstr = 0;
	int		 ncols = 0, j, rc, ret = -1;

	memset(&b, 0, sizeof(b));
	lab_buf_init(&sel);
	lab_buf_init(&ins);
	*n = 0;
	snprintf(what, sizeof(what), "copy table %s", src->name);
	if (statements(from, src, dst, &sel, &ins, &ncols) == -1) {
		lab_err_oom(err);
		goto out;
	}
	if ((str = calloc((size_t)(DB_BATCH_ROWS + 1) * (size_t)(ncols + 1),
	    sizeof(*str))) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	if (lab_db_prepare(from, sel.s, &rd, err) == -1 ||
	    lab_db_batch_init(&b, to, ins.s, ncols, what, err) == -1)
		goto out;
	lab_db_batch_copy(&b);	/* the table whole before the next */
	while ((rc = lab_db_step(rd)) == DB_ROW) {
		if ((v = lab_db_batch_row(&b, err)) == NULL)
			goto out;
		/* a new batch: the rows those strings were kept for are
		   written */
		if (b.n == 1)
			drop_strings(str, &nstr);
		for (j = 0; j < ncols; j++) {
			v[j].type = lab_db_column_type(rd, j);
			switch (v[j].type) {
			case DB_INTEGER:
				v[j].i = lab_db_column_int64(rd, j);
				break;
			case DB_FLOAT:
				v[j].d = lab_db_column_double(rd, j);
				break;
			case DB_TEXT:
				t = (const char *)lab_db_column_text(rd, j);
				if (t == NULL || (str[nstr] = strdup(t)) == NULL) {
					lab_err_oom(err);
					goto out;
				}
				v[j].s = str[nstr++];
				break;
			default:
				v[j].type = DB_NULL;
			}
		}
		(*n)++;
	}
	if (rc != DB_DONE) {
		lab_db_step_fail(from, rd, rc, err, what);
		rd = NULL;
		goto out;
	}
	if (lab_db_batch_end(&b, err) == -1)
		goto out;
	ret = 0;
out:
	lab_db_finalize(rd);
	lab_db_batch_release(&b);
	if (str != NULL)
		drop_strings(str, &nstr);
	free(str);
	lab_buf_release(&sel);
	lab_buf_release(&ins);
	return ret;
}

/*
 * PostgreSQL numbers new rows from a sequence that copied ids did not
 * advance: each identity column's goes past the largest id.
 */
static int
advance_ids(struct lab_db *to, struct lab_err *err)
{
	struct db_stmt	*st, *set;
	char		*sql;
	const char	*t, *c;
	int		 rc;

	if (lab_db_prepare(to, "SELECT table_name::text, column_name::text "
	    "FROM information_schema.columns WHERE table_schema = "
	    "current_schema() AND is_identity = 'YES'", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		t = (const char *)lab_db_column_text(st, 0);
		c = (const char *)lab_db_column_text(st, 1);
		if ((sql = lab_asprintf("SELECT setval(pg_get_serial_sequence("
		    "?1, ?2), (SELECT coalesce(max(\"%s\"), 0) + 1 FROM \"%s\"), "
		    "false)", c, t)) == NULL) {
			lab_db_finalize(st);
			return lab_err_oom(err);
		}
		rc = lab_db_prepare(to, sql, &set, err);
		free(sql);
		if (rc == -1) {
			lab_db_finalize(st);
			return -1;
		}
		sql = lab_asprintf("\"%s\"", t);
		lab_db_bind_text(set, 1, sql);
		lab_db_bind_text(set, 2, c);
		free(sql);
		rc = lab_db_step(set);
		lab_db_finalize(set);
		if (rc != DB_ROW) {
			lab_db_finalize(st);
			return lab_db_fail(to, err, "advance the id sequences");
		}
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(to, st, rc, err, "read the catalog");
	lab_db_finalize(st);
	return 0;
}

/* Refuses a target with rows unless replace, which deletes them. */
static int
empty_target(struct lab_db *to, struct copy_table *v, size_t n, int replace,
    struct lab_err *err)
{
	char	sql[160];
	int64_t	rows = 0;
	size_t	i;

	for (i = 0; i < n && !replace; i++) {
		if (count(to, v[i].name, &rows, err) == -1)
			return -1;
		if (rows > 0)
			return lab_err_set(err, LAB_EXIT_INPUT, "database '%s' is "
			    "not empty (table %s holds %lld row(s)): copy to a new "
			    "one, or add --replace to delete what it holds",
			    lab_db_path(to), v[i].name, (long long)rows);
	}
	/* children first */
	for (i = n; replace && i-- > 0;) {
		snprintf(sql, sizeof(sql), "DELETE FROM \"%s\"", v[i].name);
		if (lab_db_exec(to, sql, "delete the rows to replace", err) == -1)
			return -1;
	}
	return 0;
}

static int
copy_all(struct lab_db *from, struct lab_db *to, struct copy_table *src,
    size_t nsrc, struct copy_table *dst, size_t ndst,
    struct lab_db_copied *out, struct lab_err *err)
{
	struct copy_table	*d;
	int64_t			 n;
	size_t			 i;

	for (i = 0; i < nsrc; i++) {
		if ((d = lab_db_copy_find(dst, ndst, src[i].name)) == NULL)
			return lab_err_set(err, LAB_EXIT_ENV, "database '%s' "
			    "has no table %s, which '%s' has", lab_db_path(to),
			    src[i].name, lab_db_path(from));
		if ((out[i].table = strdup(src[i].name)) == NULL)
			return lab_err_oom(err);
		if (copy_rows(from, to, &src[i], d, &n, err) == -1 ||
		    count(from, src[i].name, &out[i].from, err) == -1 ||
		    count(to, src[i].name, &out[i].to, err) == -1)
			return -1;
		if (out[i].from != n || out[i].to != n)
			return lab_err_set(err, LAB_EXIT_ENV, "copy table %s: "
			    "%lld rows in '%s', %lld copied, %lld in '%s': "
			    "nothing written", src[i].name,
			    (long long)out[i].from, lab_db_path(from),
			    (long long)n, (long long)out[i].to,
			    lab_db_path(to));
	}
	return 0;
}

/*
 * Copies every table of from to to, in one transaction on to: into empty
 * tables, so in bulk (the inventory's keys and indexes made again at the
 * end, lab_db_bulk).
 */
static int
copy_once(struct lab_db *from, struct lab_db *to, int replace,
    struct lab_db_copied **ret, size_t *n, struct lab_err *err)
{
	struct copy_table	*src = NULL, *dst = NULL;
	struct lab_db_copied	*out = NULL;
	size_t			 nsrc = 0, ndst = 0;
	int			 rc = -1;

	if (lab_db_copy_tables(from, &src, &nsrc, err) == -1 ||
	    lab_db_copy_tables(to, &dst, &ndst, err) == -1)
		goto done;
	if (nsrc > 0 && (out = calloc(nsrc, sizeof(*out))) == NULL) {
		lab_err_oom(err);
		goto done;
	}
	if (lab_db_begin_read(from, err) == -1)
		goto done;
	if (lab_db_begin(to, err) == -1 ||
	    empty_target(to, dst, ndst, replace, err) == -1 ||
	    lab_db_bulk(to, 1, err) == -1 ||
	    copy_all(from, to, src, nsrc, dst, ndst, out, err) == -1 ||
	    lab_db_bulk(to, 0, err) == -1 ||
	    (lab_db_is_pg(to) && advance_ids(to, err) == -1) ||
	    lab_db_commit(to, err) == -1) {
		lab_db_rollback(to);
		goto done;
	}
	rc = 0;
	*ret = out;
	*n = nsrc;
	out = NULL;
done:
	lab_db_rollback(from);
	lab_db_copied_free(out, nsrc);
	lab_db_copy_tables_free(src, nsrc);
	lab_db_copy_tables_free(dst, ndst);
	return rc;
}

/* copy_once(), run again when the target ended it for a conflict. */
int
lab_db_copy(struct lab_db *from, struct lab_db *to, int replace,
    struct lab_db_copied **ret, size_t *n, struct lab_err *err)
{
	int	i, rc;

	for (i = 1;; i++) {
		rc = copy_once(from, to, replace, ret, n, err);
		if (rc == 0 || i >= LAB_DB_TRIES || !lab_db_conflict(to))
			return rc;
		lab_err_init(err);
	}
}

void
lab_db_copied_free(struct lab_db_copied *v, size_t n)
{
	size_t	i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i].table);
	free(v);
}
