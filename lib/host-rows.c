/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/str.h"
#include "db-priv.h"

/*
 * The rows of `lab ls hosts`: what its table shows of every host, read
 * with three scans and joined in memory, the strings in one buffer. A
 * listing of 10,000 hosts builds no inventory.
 */

struct rows {
	struct lab_db		*db;
	struct lab_host_row	*v;
	size_t			 n;
	struct db_idx		 ids;
	struct lab_buf		 text;	/* every string, NUL-terminated */
	size_t			*off;	/* per row: 6 offsets into text */
	struct lab_err		*err;
};

#define NOFF	6	/* name, model, role, groups, bmc type, bmc address */
#define NONE	((size_t)-1)

static void
put(struct rows *r, size_t row, int field, const unsigned char *s)
{
	r->off[row * NOFF + field] = s == NULL ? NONE : r->text.len;
	if (s != NULL)
		lab_buf_add(&r->text, (const char *)s, strlen((const char *)s) +
		    1);
}

/* The string of field k of row i, or NULL. */
static const char *
at(const struct rows *r, size_t i, int k)
{
	size_t	o = r->off[i * NOFF + (size_t)k];

	return o == NONE ? NULL : r->text.s + o;
}

static int
step_fail(struct rows *r, sqlite3_stmt *st, int rc, const char *what)
{
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || rc == SQLITE_NOMEM)
		return lab_err_oom(r->err);
	return db_fail(r->db, r->err, what);
}

static int
read_hosts(struct rows *r)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (db_prepare(r->db, "SELECT h.id, h.name, h.model, h.role, b.type, "
	    "b.address FROM hosts h LEFT JOIN bmcs b ON b.host_id = h.id "
	    "ORDER BY h.name", &st, r->err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (db_grow(&r->v, r->n, sizeof(*r->v)) == -1 ||
		    db_grow(&r->off, r->n, NOFF * sizeof(*r->off)) == -1 ||
		    db_idx_add(&r->ids, sqlite3_column_int64(st, 0),
		    r->n) == -1)
			break;
		memset(&r->v[r->n], 0, sizeof(*r->v));
		put(r, r->n, 0, sqlite3_column_text(st, 1));
		put(r, r->n, 1, sqlite3_column_text(st, 2));
		put(r, r->n, 2, sqlite3_column_text(st, 3));
		r->off[r->n * NOFF + 3] = NONE;
		put(r, r->n, 4, sqlite3_column_text(st, 4));
		put(r, r->n, 5, sqlite3_column_text(st, 5));
		r->n++;
	}
	if (rc != SQLITE_DONE)
		return step_fail(r, st, rc, "read hosts");
	sqlite3_finalize(st);
	db_idx_sort(&r->ids);
	return 0;
}

/* One membership of the host being read: position, group name offset. */
struct member {
	sqlite3_int64	 pos;
	size_t		 name;
};

/* Writes row's groups, in position order, as its groups string. */
static void
flush_groups(struct rows *r, long row, struct member *v, size_t n,
    const struct lab_buf *names)
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
	r->off[(size_t)row * NOFF + 3] = r->text.len;
	for (i = 0; i < n; i++) {
		if (i > 0)
			lab_buf_addc(&r->text, ',');
		lab_buf_adds(&r->text, names->s + v[i].name);
	}
	lab_buf_addc(&r->text, '\0');
}

/*
 * Each row's groups, comma-joined in declared order. host_groups is read
 * in its key order, so one host's memberships come together.
 */
static int
read_groups(struct rows *r)
{
	struct lab_buf	 names;
	struct db_idx	 gids;
	struct member	*mv = NULL;
	sqlite3_stmt	*st;
	sqlite3_int64	 id, last = 0;
	size_t		 nm = 0, *goff = NULL, ng = 0;
	long		 row = -1, g;
	int		 rc, ret = -1;

	lab_buf_init(&names);
	memset(&gids, 0, sizeof(gids));
	if (db_prepare(r->db, "SELECT id, name FROM groups", &st,
	    r->err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (db_grow(&goff, ng, sizeof(*goff)) == -1 ||
		    db_idx_add(&gids, sqlite3_column_int64(st, 0), ng) == -1)
			break;
		goff[ng++] = names.len;
		lab_buf_add(&names, (const char *)sqlite3_column_text(st, 1),
		    (size_t)sqlite3_column_bytes(st, 1) + 1);
	}
	if (rc != SQLITE_DONE) {
		step_fail(r, st, rc, "read groups");
		goto out;
	}
	sqlite3_finalize(st);
	db_idx_sort(&gids);
	if (names.oom) {
		lab_err_oom(r->err);
		goto out;
	}
	if (db_prepare(r->db, "SELECT host_id, group_id, position "
	    "FROM host_groups ORDER BY host_id", &st, r->err) == -1)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (nm == 0 || id != last) {
			flush_groups(r, row, mv, nm, &names);
			nm = 0;
			last = id;
			row = db_idx_find(&r->ids, id);
		}
		if (row < 0 || goff == NULL ||
		    (g = db_idx_find(&gids, sqlite3_column_int64(st, 1))) < 0)
			continue;
		if (db_grow(&mv, nm, sizeof(*mv)) == -1)
			break;
		mv[nm].pos = sqlite3_column_int64(st, 2);
		mv[nm++].name = goff[g];
	}
	if (rc != SQLITE_DONE) {
		step_fail(r, st, rc, "read groups");
		goto out;
	}
	sqlite3_finalize(st);
	flush_groups(r, row, mv, nm, &names);
	ret = 0;
out:
	lab_buf_release(&names);
	db_idx_release(&gids);
	free(goff);
	free(mv);
	return ret;
}

/* Counts the rows of each host_id sql gives. */
static int
count(struct rows *r, const char *sql, int nics)
{
	sqlite3_stmt	*st;
	sqlite3_int64	 id, last = 0;
	long		 row = -1;
	int		 rc, first = 1;

	if (db_prepare(r->db, sql, &st, r->err) == -1)
		return -1;
	/* in host_id order (an index starts with it): each host found once */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (first || id != last)
			row = db_idx_find(&r->ids, id);
		first = 0;
		last = id;
		if (row >= 0 && nics)
			r->v[row].nnics++;
		else if (row >= 0)
			r->v[row].ndisks++;
	}
	if (rc != SQLITE_DONE)
		return step_fail(r, st, rc, "count nics and disks");
	sqlite3_finalize(st);
	return 0;
}

/* Every host's row of `lab ls hosts`, sorted by name. */
int
lab_db_host_rows(struct lab_db *db, struct lab_host_rows *ret,
    struct lab_err *err)
{
	struct rows	 r;
	size_t		 i;
	int		 rc = -1, own_tx;

	memset(&r, 0, sizeof(r));
	r.db = db;
	r.err = err;
	lab_buf_init(&r.text);
	own_tx = sqlite3_get_autocommit(db->h);
	if (own_tx && sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL) !=
	    SQLITE_OK) {
		db_fail(db, err, "begin");
		goto out;
	}
	if (read_hosts(&r) == 0 && read_groups(&r) == 0 &&
	    count(&r, "SELECT host_id FROM nics ORDER BY host_id", 1) == 0 &&
	    count(&r, "SELECT host_id FROM disks ORDER BY host_id", 0) == 0)
		rc = 0;
	if (own_tx)
		sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
	if (rc == 0 && r.text.oom)
		rc = lab_err_oom(err);
	if (rc == -1)
		goto out;
	/* the text no longer moves: offsets become pointers */
	for (i = 0; i < r.n; i++) {
		r.v[i].name = at(&r, i, 0);
		r.v[i].model = at(&r, i, 1);
		r.v[i].role = at(&r, i, 2);
		r.v[i].groups = at(&r, i, 3);
		r.v[i].bmc_type = at(&r, i, 4);
		r.v[i].bmc_address = at(&r, i, 5);
	}
	ret->v = r.v;
	ret->n = r.n;
	ret->text = lab_buf_steal(&r.text);
	r.v = NULL;
out:
	free(r.v);
	free(r.off);
	db_idx_release(&r.ids);
	lab_buf_release(&r.text);
	return rc;
}

/* Frees the rows. */
void
lab_host_rows_release(struct lab_host_rows *r)
{
	free(r->v);
	free(r->text);
	memset(r, 0, sizeof(*r));
}
