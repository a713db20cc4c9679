/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stored probes and the history of switch applies (migration 014). */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"
#include "db-priv.h"

int
lab_db_vlan_probe_store(struct lab_db *db, const char *sw,
    const struct lab_vlan_probe *p, int64_t now, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	if (lab_db_prepare(db, "INSERT INTO switch_probes (switch, qbridge, "
	    "ciscosb, copy, writable, why, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
	    "?7) ON CONFLICT (switch) DO UPDATE SET qbridge = excluded.qbridge, "
	    "ciscosb = excluded.ciscosb, copy = excluded.copy, "
	    "writable = excluded.writable, why = excluded.why, at = excluded.at", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, sw);
	lab_db_bind_int(st, 2, p->qbridge != 0);
	lab_db_bind_int(st, 3, p->ciscosb != 0);
	lab_db_bind_int(st, 4, p->copy != 0);
	lab_db_bind_int(st, 5, p->writable != 0);
	lab_db_bind_text(st, 6, p->writable ? NULL : p->why);
	lab_db_bind_int64(st, 7, now);
	if ((rc = lab_db_step(st)) != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "store switch probe");
	lab_db_finalize(st);
	return 0;
}

int
lab_db_vlan_probe_get(struct lab_db *db, const char *sw,
    struct lab_vlan_probe *ret, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	memset(ret, 0, sizeof(*ret));
	if (lab_db_prepare(db, "SELECT qbridge, ciscosb, copy, writable, why, "
	    "at FROM switch_probes WHERE switch = ?1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, sw);
	rc = lab_db_step(st);
	if (rc == DB_ROW) {
		ret->qbridge = lab_db_column_int(st, 0);
		ret->ciscosb = lab_db_column_int(st, 1);
		ret->copy = lab_db_column_int(st, 2);
		ret->writable = lab_db_column_int(st, 3);
		ret->at = lab_db_column_int64(st, 5);
		if (lab_db_column_type(st, 4) != DB_NULL &&
		    (ret->why = lab_db_text(st, 4)) == NULL) {
			lab_db_finalize(st);
			return lab_err_oom(err);
		}
	} else if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read switch probe");
	lab_db_finalize(st);
	return 0;
}

/* Whether w is a value of port (its what is "PORT something"). */
static int
write_of_port(const struct lab_vlan_write *w, const char *port)
{
	size_t	n = strlen(port);

	return w->what != NULL && strncmp(w->what, port, n) == 0 &&
	    w->what[n] == ' ';
}

/*
 * What became of a port's change: refused when nothing was sent; else
 * the worst of its port's writes: left, failed, restored (a value not
 * sent is as before too), done.
 */
static const char *
change_state(const struct lab_switch_result *r, const char *port)
{
	const struct lab_vlan_write	*w;
	int				 left = 0, failed = 0, back = 0;
	size_t				 i;

	if (r->refused)
		return "refused";
	for (i = 0; i < r->writes.n; i++) {
		w = &r->writes.v[i];
		if (!write_of_port(w, port))
			continue;
		switch (w->state) {
		case LAB_WRITE_LEFT:
			left = 1;
			break;
		case LAB_WRITE_FAILED:
			failed = 1;
			break;
		case LAB_WRITE_RESTORED:
		case LAB_WRITE_PENDING:
			back = 1;
			break;
		case LAB_WRITE_DONE:
			break;
		}
	}
	if (left)
		return "left";
	if (failed)
		return "failed";
	if (back || !r->ok)
		return "restored";
	return "done";
}

static const char *
apply_status(const struct lab_switch_result *r)
{
	if (r->refused)
		return "refused";
	return r->ok ? "ok" : "failed";
}

struct apply_rec {
	const struct lab_switch_result	*r;
	const char			*user;
	int64_t				 now;
	int64_t				 id;	/* out */
};

static int
apply_record_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	struct apply_rec		*a = arg;
	const struct lab_switch_result	*r = a->r;
	const struct lab_switch_plan	*p = &r->plan;
	const struct lab_port_change	*c;
	struct db_stmt			*st = NULL, *cst = NULL;
	size_t				 i;
	int				 rc = -1;

	if (lab_db_prepare(db, "INSERT INTO switch_applies (switch, at, user, "
	    "status, saved, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &st,
	    err) == -1)
		goto out;
	lab_db_bind_text(st, 1, p->switch_name);
	lab_db_bind_int64(st, 2, a->now);
	lab_db_bind_text(st, 3, a->user);
	lab_db_bind_text(st, 4, apply_status(r));
	lab_db_bind_int(st, 5, r->saved != 0);
	lab_db_bind_text(st, 6, r->err.msg[0] != '\0' ? r->err.msg : NULL);
	if (lab_db_step(st) != DB_DONE) {
		lab_db_fail(db, err, "store switch apply");
		goto out;
	}
	a->id = lab_db_last_id(db);
	if (p->nchanges > 0 && lab_db_prepare(db, "INSERT INTO "
	    "switch_apply_changes (apply_id, seq, port, ifindex, what, "
	    "from_value, to_value, state) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
	    "?8)", &cst, err) == -1)
		goto out;
	for (i = 0; i < p->nchanges; i++) {
		c = &p->changes[i];
		lab_db_reset(cst);
		lab_db_bind_int64(cst, 1, a->id);
		lab_db_bind_int64(cst, 2, (int64_t)i);
		lab_db_bind_text(cst, 3, c->port != NULL ? c->port : "");
		lab_db_bind_int64(cst, 4, (int64_t)c->ifindex);
		lab_db_bind_text(cst, 5, c->what);
		lab_db_bind_text(cst, 6, c->from != NULL ? c->from : "");
		lab_db_bind_text(cst, 7, c->to != NULL ? c->to : "");
		lab_db_bind_text(cst, 8, change_state(r, c->port != NULL ?
		    c->port : ""));
		if (lab_db_step(cst) != DB_DONE) {
			lab_db_fail(db, err, "store switch apply change");
			goto out;
		}
	}
	rc = 0;
out:
	lab_db_finalize(st);
	lab_db_finalize(cst);
	return rc;
}

int
lab_db_switch_apply_record(struct lab_db *db, struct lab_switch_result *r,
    const char *user, int64_t now, struct lab_err *err)
{
	struct apply_rec	a = { r, user, now, 0 };

	if (r->plan.switch_name == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "apply without a "
		    "switch");
	if (lab_db_tx(db, apply_record_tx, &a, err) == -1)
		return -1;
	r->apply_id = a.id;
	return 0;
}

/* The static name of a stored what ("mode", "pvid", ...). */
static const char *
what_name(const unsigned char *s)
{
	static const char *const names[] = { "mode", "pvid", "untagged",
		"tagged", "description" };
	size_t	i;

	for (i = 0; s != NULL && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp((const char *)s, names[i]) == 0)
			return names[i];
	return "other";
}

/* The static name of a stored state. */
static const char *
state_name(const unsigned char *s)
{
	static const char *const names[] = { "done", "failed", "restored",
		"left", "refused" };
	size_t	i;

	for (i = 0; s != NULL && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp((const char *)s, names[i]) == 0)
			return names[i];
	return "failed";
}

/* Reads the changes of a, in their order. */
static int
read_changes(struct lab_db *db, struct db_stmt *st,
    struct lab_switch_apply_row *a, struct lab_err *err)
{
	struct lab_port_change	*c, *nv;
	const char		**sv;
	size_t			 cap = 0;
	int			 rc;

	lab_db_reset(st);
	lab_db_bind_int64(st, 1, a->id);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (a->nchanges == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			if ((nv = realloc(a->changes, cap *
			    sizeof(*nv))) == NULL)
				return lab_err_oom(err);
			a->changes = nv;
			if ((sv = realloc(a->states, cap * sizeof(*sv))) ==
			    NULL)
				return lab_err_oom(err);
			a->states = sv;
		}
		a->states[a->nchanges] = state_name(lab_db_column_text(st,
		    5));
		c = &a->changes[a->nchanges];
		memset(c, 0, sizeof(*c));
		a->nchanges++;
		c->ifindex = (unsigned long)lab_db_column_int64(st, 1);
		c->what = what_name(lab_db_column_text(st, 2));
		if ((c->port = lab_db_text(st, 0)) == NULL ||
		    (c->from = lab_db_text(st, 3)) == NULL ||
		    (c->to = lab_db_text(st, 4)) == NULL)
			return lab_err_oom(err);
	}
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "read switch apply changes");
	return 0;
}

int
lab_db_switch_applies(struct lab_db *db, const char *sw, int64_t since,
    int problems_only, size_t limit, struct lab_switch_apply_rows *ret,
    struct lab_err *err)
{
	struct lab_switch_apply_row	*a, *nv;
	struct db_stmt			*st = NULL, *cst = NULL;
	size_t				 cap = 0;
	int				 rc;

	memset(ret, 0, sizeof(*ret));
	if (lab_db_prepare(db, "SELECT id, switch, at, user, status, saved, "
	    "message FROM switch_applies WHERE (?1 IS NULL OR switch = ?1) "
	    "AND at >= ?2 AND (?3 = 0 OR ((status <> 'ok' OR saved = 0) AND "
	    "NOT EXISTS (SELECT 1 FROM switch_applies g WHERE g.switch = "
	    "switch_applies.switch AND g.status = 'ok' AND g.saved = 1 AND "
	    "g.id > switch_applies.id))) "
	    "ORDER BY at DESC, id DESC LIMIT ?4", &st, err) == -1)
		return -1;
	if (lab_db_prepare(db, "SELECT port, ifindex, what, from_value, "
	    "to_value, state FROM switch_apply_changes WHERE apply_id = ?1 ORDER BY "
	    "seq", &cst, err) == -1)
		goto fail;
	lab_db_bind_text(st, 1, sw);
	lab_db_bind_int64(st, 2, since);
	lab_db_bind_int(st, 3, problems_only != 0);
	lab_db_bind_int64(st, 4, limit > 0 ? (int64_t)limit : INT64_MAX);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (ret->n == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			if ((nv = realloc(ret->v, cap * sizeof(*nv))) ==
			    NULL) {
				lab_err_oom(err);
				goto fail;
			}
			ret->v = nv;
		}
		a = &ret->v[ret->n];
		memset(a, 0, sizeof(*a));
		ret->n++;
		a->id = lab_db_column_int64(st, 0);
		a->at = lab_db_column_int64(st, 2);
		a->saved = lab_db_column_int(st, 5);
		if ((a->switch_name = lab_db_text(st, 1)) == NULL ||
		    (a->status = lab_db_text(st, 4)) == NULL ||
		    (lab_db_column_type(st, 3) != DB_NULL &&
		    (a->user = lab_db_text(st, 3)) == NULL) ||
		    (lab_db_column_type(st, 6) != DB_NULL &&
		    (a->message = lab_db_text(st, 6)) == NULL)) {
			lab_err_oom(err);
			goto fail;
		}
	}
	if (rc != DB_DONE) {
		lab_db_fail(db, err, "read switch applies");
		goto fail;
	}
	lab_db_finalize(st);
	st = NULL;
	for (cap = 0; cap < ret->n; cap++)
		if (read_changes(db, cst, &ret->v[cap], err) == -1)
			goto fail;
	lab_db_finalize(cst);
	return 0;
fail:
	lab_db_finalize(st);
	lab_db_finalize(cst);
	lab_switch_apply_rows_release(ret);
	return -1;
}
