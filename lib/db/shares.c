/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shares and mounts in the database (schema 018): one row a share and a
 * mount, lists as space-separated words, with where each was written.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/inventory.h"
#include "lab/str.h"
#include "db-priv.h"
#include "shares.h"

static int
has_any(const struct lab_host *h)
{
	return h != NULL && (h->nshares > 0 || h->nmounts > 0 ||
	    h->initiator != NULL);
}

static char *
join(const struct lab_strv *sv)
{
	struct lab_buf	b;
	size_t		i;

	if (sv->n == 0)
		return NULL;
	lab_buf_init(&b);
	for (i = 0; i < sv->n; i++)
		lab_buf_addf(&b, "%s%s", i ? " " : "", sv->v[i]);
	return lab_buf_steal(&b);
}

static int
step(struct lab_db *db, struct db_stmt *st, const char *what,
    struct lab_err *err)
{
	int	rc = lab_db_step(st);

	lab_db_reset(st);
	lab_db_clear_bindings(st);
	if (rc != DB_DONE && rc != DB_ROW)
		return lab_db_fail(db, err, what);
	return 0;
}

static int
write_share(struct lab_db *db, struct db_stmt *st, const char *host,
    size_t pos, const struct lab_share *s, struct lab_err *err)
{
	char	*lists[4];
	size_t	 i;
	int	 rc;

	lists[0] = join(&s->clients);
	lists[1] = join(&s->options);
	lists[2] = join(&s->properties);
	lists[3] = join(&s->initiators);
	lab_db_bind_text(st, 1, host);
	lab_db_bind_int64(st, 2, (int64_t)pos);
	lab_db_bind_text(st, 3, s->name);
	lab_db_bind_text(st, 4, s->protocol);
	lab_db_bind_text(st, 5, s->pool);
	lab_db_bind_text(st, 6, s->vg);
	lab_db_bind_text(st, 7, s->path);
	if (s->size_bytes > 0) {
		lab_db_bind_int64(st, 8, (int64_t)s->size_bytes);
		lab_db_bind_int(st, 18, s->size_loc.line);
		lab_db_bind_int(st, 19, s->size_loc.col);
	}
	lab_db_bind_text(st, 9, s->iqn);
	lab_db_bind_int(st, 10, s->sparse);
	for (i = 0; i < 4; i++)
		lab_db_bind_text(st, 11 + (int)i, lists[i]);
	lab_db_bind_text(st, 15, s->loc.file);
	lab_db_bind_int(st, 16, s->loc.line);
	lab_db_bind_int(st, 17, s->loc.col);
	rc = step(db, st, "write share", err);
	for (i = 0; i < 4; i++)
		free(lists[i]);
	return rc;
}

static int
write_mount(struct lab_db *db, struct db_stmt *st, const char *host,
    size_t pos, const struct lab_mount *m, struct lab_err *err)
{
	char	*opts = join(&m->options);
	int	 rc;

	lab_db_bind_text(st, 1, host);
	lab_db_bind_int64(st, 2, (int64_t)pos);
	lab_db_bind_text(st, 3, m->share);
	lab_db_bind_text(st, 4, m->path);
	lab_db_bind_text(st, 5, opts);
	lab_db_bind_text(st, 6, m->loc.file);
	lab_db_bind_int(st, 7, m->loc.line);
	lab_db_bind_int(st, 8, m->loc.col);
	rc = step(db, st, "write mount", err);
	free(opts);
	return rc;
}

int
lab_db_shares_apply(struct lab_db *db, const struct lab_inventory *cur,
    const struct lab_inventory *inv, struct lab_err *err)
{
	struct db_stmt		*del = NULL, *ins = NULL, *mnt = NULL,
				*mdel = NULL, *ini = NULL;
	const struct lab_host	*h;
	size_t			 i, j;
	int			 rc = -1;

	if (lab_db_prepare(db, "DELETE FROM shares WHERE host_id = (SELECT "
	    "id FROM hosts WHERE name = ?1)", &del, err) == -1 ||
	    lab_db_prepare(db, "DELETE FROM mounts WHERE host_id = (SELECT "
	    "id FROM hosts WHERE name = ?1)", &mdel, err) == -1 ||
	    lab_db_prepare(db, "UPDATE hosts SET iscsi_initiator = ?2 WHERE "
	    "name = ?1", &ini, err) == -1 ||
	    lab_db_prepare(db, "INSERT INTO shares (host_id, position, name, "
	    "protocol, pool, vg, path, size_bytes, iqn, sparse, clients, "
	    "options, properties, initiators, file, line, col, size_line, "
	    "size_col) VALUES ((SELECT id FROM hosts WHERE name = ?1), ?2, "
	    "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
	    "?17, ?18, ?19)", &ins, err) == -1 ||
	    lab_db_prepare(db, "INSERT INTO mounts (host_id, position, share, "
	    "path, options, file, line, col) VALUES ((SELECT id FROM hosts "
	    "WHERE name = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &mnt, err) == -1)
		goto out;
	for (i = 0; i < inv->nhosts; i++) {
		h = &inv->hosts[i];
		if (!has_any(h) && !has_any(lab_inventory_host(cur, h->name)))
			continue;
		lab_db_bind_text(del, 1, h->name);
		lab_db_bind_text(mdel, 1, h->name);
		lab_db_bind_text(ini, 1, h->name);
		lab_db_bind_text(ini, 2, h->initiator);
		if (step(db, del, "write shares", err) == -1 ||
		    step(db, mdel, "write mounts", err) == -1 ||
		    step(db, ini, "write iscsi_initiator", err) == -1)
			goto out;
		for (j = 0; j < h->nshares; j++)
			if (write_share(db, ins, h->name, j, &h->shares[j],
			    err) == -1)
				goto out;
		for (j = 0; j < h->nmounts; j++)
			if (write_mount(db, mnt, h->name, j, &h->mounts[j],
			    err) == -1)
				goto out;
	}
	rc = 0;
out:
	lab_db_finalize(del);
	lab_db_finalize(mdel);
	lab_db_finalize(ini);
	lab_db_finalize(ins);
	lab_db_finalize(mnt);
	return rc;
}

/* Column n's text, owned by the statement until the next step. */
static const char *
col(struct db_stmt *st, int n)
{
	return (const char *)lab_db_column_text(st, n);
}

static char *
col_text(struct lab_inventory *inv, struct db_stmt *st, int n)
{
	const char	*s = col(st, n);

	return s != NULL ? lab_pool_strdup(&inv->pool, s) : NULL;
}

/* Space-separated words into sv, in the pool. */
static int
words(struct lab_inventory *inv, struct lab_strv *sv, const char *s)
{
	const char	*p;
	char		*w;
	size_t		 n = 0;

	if (s == NULL)
		return 0;
	for (p = s; *p != '\0'; p++)
		n += *p != ' ' && (p == s || p[-1] == ' ');
	if (n == 0)
		return 0;
	if (lab_strv_pool(sv, &inv->pool, n) == -1)
		return -1;
	while (*s != '\0') {
		while (*s == ' ')
			s++;
		for (p = s; *p != '\0' && *p != ' '; p++)
			;
		if (p > s) {
			if ((w = lab_pool_strndup(&inv->pool, s,
			    (size_t)(p - s))) == NULL)
				return -1;
			lab_strv_put(sv, w);
		}
		s = p;
	}
	return 0;
}

/* Makes room for n more items of size sz at *v (pool memory, copied). */
static void *
grow(struct lab_inventory *inv, void *v, size_t n, size_t sz)
{
	char	*p;

	if ((p = lab_pool_alloc(&inv->pool, (n + 1) * sz)) == NULL)
		return NULL;
	memset(p, 0, (n + 1) * sz);
	if (n > 0)
		memcpy(p, v, n * sz);
	return p;
}

static int
read_share(struct lab_inventory *inv, struct db_stmt *st)
{
	struct lab_host		*h;
	struct lab_share	*v, *s;

	if ((h = lab_inventory_host(inv, col(st, 0))) == NULL)
		return 0;
	if ((v = grow(inv, h->shares, h->nshares, sizeof(*v))) == NULL)
		return -1;
	h->shares = v;
	s = &v[h->nshares++];
	s->name = col_text(inv, st, 1);
	s->protocol = col_text(inv, st, 2);
	s->pool = col_text(inv, st, 3);
	s->vg = col_text(inv, st, 4);
	s->path = col_text(inv, st, 5);
	s->size_bytes = (uint64_t)lab_db_column_int64(st, 6);
	s->iqn = col_text(inv, st, 7);
	s->sparse = lab_db_column_int(st, 8);
	s->loc.file = col_text(inv, st, 13);
	s->loc.line = lab_db_column_int(st, 14);
	s->loc.col = lab_db_column_int(st, 15);
	s->size_loc.file = s->loc.file;
	s->size_loc.line = lab_db_column_int(st, 16);
	s->size_loc.col = lab_db_column_int(st, 17);
	if (s->name == NULL || s->protocol == NULL ||
	    words(inv, &s->clients, col(st, 9)) == -1 ||
	    words(inv, &s->options, col(st, 10)) == -1 ||
	    words(inv, &s->properties, col(st, 11)) == -1 ||
	    words(inv, &s->initiators, col(st, 12)) == -1)
		return -1;
	return 0;
}

static int
read_mount(struct lab_inventory *inv, struct db_stmt *st)
{
	struct lab_host		*h;
	struct lab_mount	*v, *m;

	if ((h = lab_inventory_host(inv, col(st, 0))) == NULL)
		return 0;
	if ((v = grow(inv, h->mounts, h->nmounts, sizeof(*v))) == NULL)
		return -1;
	h->mounts = v;
	m = &v[h->nmounts++];
	m->share = col_text(inv, st, 1);
	m->path = col_text(inv, st, 2);
	m->loc.file = col_text(inv, st, 4);
	m->loc.line = lab_db_column_int(st, 5);
	m->loc.col = lab_db_column_int(st, 6);
	if (m->share == NULL || words(inv, &m->options,
	    col(st, 3)) == -1)
		return -1;
	return 0;
}

int
lab_db_shares_read(struct lab_db *db, struct lab_inventory *inv,
    struct lab_err *err)
{
	static const char *const sql[] = {
		"SELECT h.name, s.name, protocol, pool, vg, path, size_bytes, "
		"iqn, sparse, clients, options, properties, initiators, file, "
		"line, col, size_line, size_col FROM shares s JOIN hosts h ON "
		"h.id = s.host_id ORDER BY h.name, position",
		"SELECT h.name, share, path, options, file, line, col FROM "
		"mounts m JOIN hosts h ON h.id = m.host_id ORDER BY h.name, "
		"position",
		"SELECT name, iscsi_initiator FROM hosts WHERE iscsi_initiator "
		"IS NOT NULL",
	};
	struct lab_host	*h;
	struct db_stmt	*st;
	size_t		 i;
	int		 rc, bad;

	for (i = 0; i < LAB_ARRAY_SIZE(sql); i++) {
		if (lab_db_prepare(db, sql[i], &st, err) == -1)
			return -1;
		bad = 0;
		while (!bad && (rc = lab_db_step(st)) == DB_ROW) {
			if (i == 0)
				bad = read_share(inv, st) == -1;
			else if (i == 1)
				bad = read_mount(inv, st) == -1;
			else if ((h = lab_inventory_host(inv, 
			    col(st, 0))) != NULL &&
			    (h->initiator = col_text(inv, st, 1)) == NULL)
				bad = 1;
		}
		if (bad) {
			lab_db_finalize(st);
			return lab_err_oom(err);
		}
		if (rc != DB_DONE)
			return lab_db_step_fail(db, st, rc, err, "read shares");
		lab_db_finalize(st);
	}
	return 0;
}

static int
str_eq(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int
strv_eq(const struct lab_strv *a, const struct lab_strv *b)
{
	size_t	i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return 0;
	return 1;
}

int
lab_db_shares_eq(const struct lab_host *a, const struct lab_host *b)
{
	const struct lab_share	*x, *y;
	size_t			 i;

	if (a->nshares != b->nshares || a->nmounts != b->nmounts ||
	    !str_eq(a->initiator, b->initiator))
		return 0;
	for (i = 0; i < a->nshares; i++) {
		x = &a->shares[i];
		y = &b->shares[i];
		if (!str_eq(x->name, y->name) ||
		    !str_eq(x->protocol, y->protocol) ||
		    !str_eq(x->pool, y->pool) || !str_eq(x->vg, y->vg) ||
		    !str_eq(x->path, y->path) ||
		    x->size_bytes != y->size_bytes ||
		    !str_eq(x->iqn, y->iqn) || x->sparse != y->sparse ||
		    !strv_eq(&x->clients, &y->clients) ||
		    !strv_eq(&x->options, &y->options) ||
		    !strv_eq(&x->properties, &y->properties) ||
		    !strv_eq(&x->initiators, &y->initiators))
			return 0;
	}
	for (i = 0; i < a->nmounts; i++)
		if (!str_eq(a->mounts[i].share, b->mounts[i].share) ||
		    !str_eq(a->mounts[i].path, b->mounts[i].path) ||
		    !strv_eq(&a->mounts[i].options, &b->mounts[i].options))
			return 0;
	return 1;
}
