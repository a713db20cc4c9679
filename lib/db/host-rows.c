/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/str.h"
#include "core/idx.h"
#include "db-priv.h"

/*
 * The rows of `lab ls hosts`: what its table shows of every host, read
 * with three scans and joined in memory, the strings in one buffer. A
 * listing of 10,000 hosts builds no inventory.
 */

struct rows {
	struct lab_db		*db;
	struct lab_host_row	*v;
	size_t			 n, cap;
	struct lab_idx		 ids;
	struct lab_pool		 text;	/* every string */
	struct lab_err		*err;
};

/*
 * A copy of s, or the previous row's string of the field when it is the
 * same: models, roles and BMC types repeat down the rows.
 */
static const char *
put(struct rows *r, const unsigned char *s, const char *prev)
{
	if (s == NULL)
		return NULL;
	if (prev != NULL && strcmp(prev, (const char *)s) == 0)
		return prev;
	return lab_pool_strdup(&r->text, (const char *)s);
}

/* Room for the rows of every host: no array grows by copying. */
static int
size_rows(struct rows *r)
{
	struct db_stmt	*st;
	int		 rc;

	if (lab_db_prepare(r->db, "SELECT count(*) FROM hosts", &st, r->err) == -1)
		return -1;
	if ((rc = lab_db_step(st)) != DB_ROW)
		return lab_db_step_fail(r->db, st, rc, r->err, "count hosts");
	r->cap = (size_t)lab_db_column_int64(st, 0) + 1;
	lab_db_finalize(st);
	if ((r->v = calloc(r->cap, sizeof(*r->v))) == NULL ||
	    (r->ids.v = calloc(r->cap, sizeof(*r->ids.v))) == NULL)
		return lab_err_oom(r->err);
	return 0;
}

/* A new row; the arrays double if hosts came since they were sized. */
static struct lab_host_row *
new_row(struct rows *r, int64_t id)
{
	struct lab_host_row	*v;
	struct lab_idx_ent	*e;

	if (r->n == r->cap) {
		if ((v = realloc(r->v, 2 * r->cap * sizeof(*v))) == NULL)
			return NULL;
		r->v = v;
		if ((e = realloc(r->ids.v, 2 * r->cap * sizeof(*e))) == NULL)
			return NULL;
		r->ids.v = e;
		r->cap *= 2;
	}
	r->ids.v[r->ids.n].id = id;
	r->ids.v[r->ids.n++].i = r->n;
	v = &r->v[r->n++];
	memset(v, 0, sizeof(*v));
	return v;
}

static int
read_hosts(struct rows *r)
{
	struct lab_host_row	*h, *p;
	struct db_stmt		*st;
	int			 rc;

	if (size_rows(r) == -1)
		return -1;
	if (lab_db_prepare(r->db, "SELECT h.id, h.name, h.model, h.role, b.type, "
	    "b.address FROM hosts h LEFT JOIN bmcs b ON b.host_id = h.id "
	    "ORDER BY h.name", &st, r->err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((h = new_row(r, lab_db_column_int64(st, 0))) == NULL)
			break;
		p = r->n > 1 ? h - 1 : NULL;
		h->name = put(r, lab_db_column_text(st, 1), NULL);
		h->model = put(r, lab_db_column_text(st, 2),
		    p ? p->model : NULL);
		h->role = put(r, lab_db_column_text(st, 3),
		    p ? p->role : NULL);
		h->bmc_type = put(r, lab_db_column_text(st, 4),
		    p ? p->bmc_type : NULL);
		h->bmc_address = put(r, lab_db_column_text(st, 5), NULL);
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(r->db, st, rc, r->err, "read hosts");
	lab_db_finalize(st);
	lab_idx_sort(&r->ids);
	return 0;
}

/* One membership of the host being read: position, group name offset. */
struct member {
	int64_t	 pos;
	size_t		 name;
};

/* Writes row's groups, in position order, as its groups string. */
static void
flush_groups(struct rows *r, long row, struct member *v, size_t n,
    const struct lab_buf *names, struct lab_buf *line, const char **last)
{
	struct member	t;
	size_t		i, j;

	if (row < 0 || n == 0)
		return;
	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0 && v[j - 1].pos > t.pos; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	line->len = 0;
	for (i = 0; i < n; i++) {
		if (i > 0)
			lab_buf_addc(line, ',');
		lab_buf_adds(line, names->s + v[i].name);
	}
	if (line->oom)
		return;
	/* neighbours mostly share their groups: one copy for a run */
	if (*last != NULL && strcmp(*last, line->s) == 0)
		r->v[row].groups = *last;
	else
		*last = r->v[row].groups = lab_pool_strndup(&r->text, line->s,
		    line->len);
}

/*
 * Each row's groups, comma-joined in declared order. host_groups is read
 * in its key order, so one host's memberships come together.
 */
static int
read_groups(struct rows *r)
{
	struct lab_buf	 names, line;
	struct lab_idx	 gids;
	const char	*shared = NULL;
	struct member	*mv = NULL;
	struct db_stmt	*st;
	int64_t	 id, last = 0;
	size_t		 nm = 0, *goff = NULL, ng = 0;
	long		 row = -1, g;
	int		 rc, ret = -1;

	lab_buf_init(&names);
	lab_buf_init(&line);
	memset(&gids, 0, sizeof(gids));
	if (lab_db_prepare(r->db, "SELECT id, name FROM groups", &st,
	    r->err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (lab_grow(&goff, ng, sizeof(*goff)) == -1 ||
		    lab_idx_add(&gids, lab_db_column_int64(st, 0), ng) == -1)
			break;
		goff[ng++] = names.len;
		lab_buf_add(&names, (const char *)lab_db_column_text(st, 1),
		    (size_t)lab_db_column_bytes(st, 1) + 1);
	}
	if (rc != DB_DONE) {
		lab_db_step_fail(r->db, st, rc, r->err, "read groups");
		goto out;
	}
	lab_db_finalize(st);
	lab_idx_sort(&gids);
	if (names.oom) {
		lab_err_oom(r->err);
		goto out;
	}
	if (lab_db_prepare(r->db, "SELECT host_id, group_id, position "
	    "FROM host_groups ORDER BY host_id", &st, r->err) == -1)
		goto out;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		id = lab_db_column_int64(st, 0);
		if (nm == 0 || id != last) {
			flush_groups(r, row, mv, nm, &names, &line, &shared);
			nm = 0;
			last = id;
			row = lab_idx_find(&r->ids, id);
		}
		if (row < 0 || goff == NULL ||
		    (g = lab_idx_find(&gids, lab_db_column_int64(st, 1))) < 0)
			continue;
		if (lab_grow(&mv, nm, sizeof(*mv)) == -1)
			break;
		mv[nm].pos = lab_db_column_int64(st, 2);
		mv[nm++].name = goff[g];
	}
	if (rc != DB_DONE) {
		lab_db_step_fail(r->db, st, rc, r->err, "read groups");
		goto out;
	}
	lab_db_finalize(st);
	flush_groups(r, row, mv, nm, &names, &line, &shared);
	ret = 0;
out:
	lab_buf_release(&names);
	lab_buf_release(&line);
	lab_idx_release(&gids);
	free(goff);
	free(mv);
	return ret;
}

/* Counts the rows of each host_id sql gives. */
static int
count(struct rows *r, const char *sql, int nics)
{
	struct db_stmt	*st;
	int64_t	 id, last = 0;
	long		 row = -1;
	int		 rc, first = 1;

	if (lab_db_prepare(r->db, sql, &st, r->err) == -1)
		return -1;
	/* in host_id order (an index starts with it): each host found once */
	while ((rc = lab_db_step(st)) == DB_ROW) {
		id = lab_db_column_int64(st, 0);
		if (first || id != last)
			row = lab_idx_find(&r->ids, id);
		first = 0;
		last = id;
		if (row >= 0 && nics)
			r->v[row].nnics++;
		else if (row >= 0)
			r->v[row].ndisks++;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(r->db, st, rc, r->err,
		    "count nics and disks");
	lab_db_finalize(st);
	return 0;
}

/* Every host's row of `lab ls hosts`, sorted by name. */
int
lab_db_host_rows(struct lab_db *db, struct lab_host_rows *ret,
    struct lab_err *err)
{
	struct rows	 r;
	int		 rc = -1, own_tx;

	memset(&r, 0, sizeof(r));
	r.db = db;
	r.err = err;
	lab_pool_init(&r.text);
	own_tx = !lab_db_in_tx(db);
	if (own_tx && lab_db_begin_read(db, err) == -1)
		goto out;
	if (read_hosts(&r) == 0 && read_groups(&r) == 0 &&
	    count(&r, "SELECT host_id FROM nics ORDER BY host_id", 1) == 0 &&
	    count(&r, "SELECT host_id FROM disks ORDER BY host_id", 0) == 0)
		rc = 0;
	if (own_tx)
		db->drv->exec(db, "COMMIT");
	if (rc == 0 && r.text.oom)
		rc = lab_err_oom(err);
	if (rc == -1)
		goto out;
	ret->v = r.v;
	ret->n = r.n;
	ret->text = r.text;
	r.v = NULL;
	lab_pool_init(&r.text);
out:
	free(r.v);
	lab_idx_release(&r.ids);
	lab_pool_release(&r.text);
	return rc;
}

/* Frees the rows. */
void
lab_host_rows_release(struct lab_host_rows *r)
{
	free(r->v);
	lab_pool_release(&r->text);
	memset(r, 0, sizeof(*r));
}
