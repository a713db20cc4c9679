/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/provision.h"
#include "lab/str.h"
#include "db-priv.h"
#include "runs.h"

static const char *const step_kinds[] = { "check", "run", "write" };

/* Runs a prepared statement to completion and finalizes it. */
static int
exec_done(struct lab_db *db, struct db_stmt *st, const char *what,
    struct lab_err *err)
{
	int	rc = lab_db_step(st);

	if (rc != DB_DONE) {
		lab_db_fail(db, err, what);
		lab_db_finalize(st);
		return -1;
	}
	lab_db_finalize(st);
	return 0;
}

struct run_rec {
	const struct lab_plan	*p;
	const char		*plan_json;
	const struct lab_owner	*owner;
	int64_t			 now;
	int64_t			 id;	/* the run: out of begin, into end */
	enum lab_run_status	 status;
	size_t			 failed_step;
	const char		*message;
};

static int
run_begin_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	struct run_rec		*a = arg;
	const struct lab_plan	*p = a->p;
	struct db_stmt		*st;
	size_t			 i;

	if (lab_db_run_lock(db, p->host, err) == -1)
		return -1;
	if (lab_db_prepare(db, "INSERT INTO provision_runs (host, kind, layout, "
	    "plan, started_at, status, owner_pid, owner_start, owner_boot, "
	    "owner_machine) VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6, ?7, "
	    "?8, ?9)", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, p->host);
	lab_db_bind_text(st, 2, p->kind);
	lab_db_bind_text(st, 3, p->layout);
	lab_db_bind_text(st, 4, a->plan_json != NULL &&
	    *a->plan_json != '\0' ? a->plan_json : "{}");
	lab_db_bind_int64(st, 5, a->now);
	lab_db_bind_int64(st, 6, a->owner->pid);
	lab_db_bind_int64(st, 7, a->owner->start);
	lab_db_bind_text(st, 8, a->owner->boot);
	lab_db_bind_text(st, 9, a->owner->machine);
	if (exec_done(db, st, "record the run", err) == -1)
		return -1;
	a->id = lab_db_last_id(db);
	if (lab_db_prepare(db, "INSERT INTO provision_steps (run_id, position, "
	    "kind, text) VALUES (?1, ?2, ?3, ?4)", &st, err) == -1)
		return -1;
	for (i = 0; i < p->nsteps; i++) {
		lab_db_bind_int64(st, 1, a->id);
		lab_db_bind_int64(st, 2, (int64_t)i);
		lab_db_bind_text(st, 3, step_kinds[p->steps[i].kind]);
		lab_db_bind_text(st, 4, p->steps[i].text);
		if (lab_db_step(st) != DB_DONE) {
			lab_db_fail(db, err, "record the run's steps");
			lab_db_finalize(st);
			return -1;
		}
		lab_db_reset(st);
	}
	lab_db_finalize(st);
	return 0;
}

int
lab_db_run_begin(struct lab_db *db, const struct lab_plan *p,
    const char *plan_json, const struct lab_owner *owner, int64_t now,
    int64_t *run_id, struct lab_err *err)
{
	struct run_rec	a = { p, plan_json, owner, now, 0, LAB_RUN_DONE, 0,
			    NULL };

	if (lab_db_tx(db, run_begin_tx, &a, err) == -1)
		return -1;
	*run_id = a.id;
	return 0;
}

int
lab_db_run_step_begin(struct lab_db *db, int64_t run_id, size_t i,
    int64_t now, struct lab_err *err)
{
	struct db_stmt	*st;

	if (lab_db_prepare(db, "UPDATE provision_steps SET started_at = ?3 "
	    "WHERE run_id = ?1 AND position = ?2", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, run_id);
	lab_db_bind_int64(st, 2, (int64_t)i);
	lab_db_bind_int64(st, 3, (int64_t)now);
	return exec_done(db, st, "record a step", err);
}

int
lab_db_run_step_end(struct lab_db *db, int64_t run_id, size_t i,
    const struct lab_step_result *r, int64_t now, struct lab_err *err)
{
	struct db_stmt	*st;
	char		*out;

	if (lab_db_prepare(db, "UPDATE provision_steps SET finished_at = ?3, "
	    "exit_status = ?4, output = ?5 WHERE run_id = ?1 AND "
	    "position = ?2", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, run_id);
	lab_db_bind_int64(st, 2, (int64_t)i);
	lab_db_bind_int64(st, 3, (int64_t)now);
	if (r->exit_status >= 0)
		lab_db_bind_int(st, 4, r->exit_status);
	/* the output, then why it failed when that is not in it */
	out = lab_asprintf("%s%s%s", r->output ? r->output : "",
	    r->note[0] && r->exit_status < 0 ? (r->output && *r->output ?
	    "\n" : "") : "", r->exit_status < 0 ? r->note : "");
	if (out == NULL) {
		lab_db_finalize(st);
		return lab_err_oom(err);
	}
	if (*out != '\0')
		lab_db_bind_text(st, 5, out);
	free(out);
	return exec_done(db, st, "record a step", err);
}

/* A done storage run says where each of its disks now is. */
static int
store_members(struct lab_db *db, const struct lab_plan *p, int64_t run_id,
    struct lab_err *err)
{
	struct db_stmt	*st;
	size_t		 i;

	if (p->nmembers == 0)
		return 0;
	if (lab_db_prepare(db, "INSERT INTO disk_members (host, slot, member_of, "
	    "run_id) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (host, slot) DO UPDATE "
	    "SET member_of = excluded.member_of, run_id = excluded.run_id", &st, err) == -1)
		return -1;
	for (i = 0; i < p->nmembers; i++) {
		lab_db_bind_text(st, 1, p->host);
		lab_db_bind_text(st, 2, p->members[i].slot);
		lab_db_bind_text(st, 3, p->members[i].member_of);
		lab_db_bind_int64(st, 4, run_id);
		if (lab_db_step(st) != DB_DONE) {
			lab_db_finalize(st);
			return lab_db_fail(db, err, "record the disks' pools");
		}
		lab_db_reset(st);
	}
	lab_db_finalize(st);
	return 0;
}

static int
run_end_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	const struct run_rec	*a = arg;
	struct db_stmt		*st;

	if (lab_db_prepare(db, "UPDATE provision_runs SET finished_at = ?2, "
	    "status = ?3, failed_step = ?4, message = ?5 WHERE id = ?1",
	    &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, a->id);
	lab_db_bind_int64(st, 2, a->now);
	lab_db_bind_text(st, 3, lab_run_status_name(a->status));
	if (a->status != LAB_RUN_DONE)
		lab_db_bind_int64(st, 4, (int64_t)a->failed_step);
	lab_db_bind_text(st, 5, a->message != NULL && *a->message != '\0' ?
	    a->message : NULL);
	if (exec_done(db, st, "record the run's end", err) == -1 ||
	    (a->status == LAB_RUN_DONE &&
	    store_members(db, a->p, a->id, err) == -1))
		return -1;
	return 0;
}

int
lab_db_run_end(struct lab_db *db, const struct lab_plan *p, int64_t run_id,
    enum lab_run_status status, size_t failed_step, const char *message,
    int64_t now, struct lab_err *err)
{
	struct run_rec	a = { p, NULL, NULL, now, run_id, status, failed_step,
			    message };

	return lab_db_tx(db, run_end_tx, &a, err);
}

static int
read_steps(struct lab_db *db, struct lab_run *r, struct lab_err *err)
{
	struct db_stmt		*st;
	struct lab_run_step	*s;
	int			 rc;

	if (lab_db_prepare(db, "SELECT position, kind, text, started_at, "
	    "finished_at, exit_status, output FROM provision_steps WHERE "
	    "run_id = ?1 ORDER BY position", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, r->id);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		s = realloc(r->steps, (r->nsteps + 1) * sizeof(*s));
		if (s == NULL) {
			lab_db_finalize(st);
			return lab_err_oom(err);
		}
		r->steps = s;
		s = &r->steps[r->nsteps++];
		memset(s, 0, sizeof(*s));
		s->position = lab_db_column_int(st, 0);
		s->kind = lab_db_text(st, 1);
		s->text = lab_db_text(st, 2);
		s->started_at = lab_db_column_int64(st, 3);
		s->finished_at = lab_db_column_int64(st, 4);
		s->has_status = lab_db_column_type(st, 5) != DB_NULL;
		s->exit_status = lab_db_column_int(st, 5);
		s->output = lab_db_text(st, 6);
	}
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "read the run's steps");
	return 0;
}

static int
read_runs(struct lab_db *db, struct db_stmt *st, int with_steps,
    struct lab_runs *ret, struct lab_err *err)
{
	struct lab_run	*r;
	int		 rc;

	while ((rc = lab_db_step(st)) == DB_ROW) {
		r = realloc(ret->v, (ret->n + 1) * sizeof(*r));
		if (r == NULL) {
			lab_db_finalize(st);
			return lab_err_oom(err);
		}
		ret->v = r;
		r = &ret->v[ret->n++];
		memset(r, 0, sizeof(*r));
		r->id = lab_db_column_int64(st, 0);
		r->host = lab_db_text(st, 1);
		r->kind = lab_db_text(st, 2);
		r->layout = lab_db_text(st, 3);
		r->started_at = lab_db_column_int64(st, 4);
		r->finished_at = lab_db_column_int64(st, 5);
		r->status = lab_db_text(st, 6);
		r->failed_step = lab_db_column_type(st, 7) == DB_NULL ?
		    -1 : lab_db_column_int(st, 7);
		r->message = lab_db_text(st, 8);
		r->plan = lab_db_text(st, 9);
	}
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "read provisioning runs");
	if (with_steps)
		for (size_t i = 0; i < ret->n; i++)
			if (read_steps(db, &ret->v[i], err) == -1)
				return -1;
	return 0;
}

#define RUN_COLS "SELECT id, host, kind, layout, started_at, finished_at, " \
	"status, failed_step, message, plan FROM provision_runs "

int
lab_db_runs(struct lab_db *db, const char *host, int limit, int with_steps,
    struct lab_runs *ret, struct lab_err *err)
{
	struct db_stmt	*st;

	memset(ret, 0, sizeof(*ret));
	if (lab_db_runs_reap(db, host, err) == -1)
		return -1;
	if (lab_db_prepare(db, RUN_COLS "WHERE ?1 IS NULL OR host = ?1 "
	    "ORDER BY started_at DESC, id DESC LIMIT ?2", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	lab_db_bind_int64(st, 2, limit > 0 ? (int64_t)limit : INT64_MAX);
	return read_runs(db, st, with_steps, ret, err);
}

int
lab_db_run(struct lab_db *db, int64_t id, struct lab_runs *ret,
    struct lab_err *err)
{
	struct db_stmt	*st;

	memset(ret, 0, sizeof(*ret));
	if (lab_db_runs_reap(db, NULL, err) == -1)
		return -1;
	if (lab_db_prepare(db, RUN_COLS "WHERE id = ?1", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, id);
	if (read_runs(db, st, 1, ret, err) == -1)
		return -1;
	if (ret->n == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "no provisioning run "
		    "%lld ('lab history' lists them)", (long long)id);
	return 0;
}

void
lab_runs_release(struct lab_runs *rs)
{
	size_t	i, k;

	for (i = 0; i < rs->n; i++) {
		struct lab_run	*r = &rs->v[i];

		free(r->host);
		free(r->kind);
		free(r->layout);
		free(r->status);
		free(r->message);
		free(r->plan);
		for (k = 0; k < r->nsteps; k++) {
			free(r->steps[k].kind);
			free(r->steps[k].text);
			free(r->steps[k].output);
		}
		free(r->steps);
	}
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
}

/*
 * Where each NIC's MAC was last seen: its link (a physical port) or, as
 * a NIC in a LAG shows up on the LAG's own interface, the FDB entry on a
 * port that is a LAG, or whose ifindex is a member of one.
 */
int
lab_db_bond_nics(struct lab_db *db, const struct lab_host *h,
    struct lab_bond_nics *ret, struct lab_err *err)
{
	struct db_stmt	*st;
	size_t		 i;
	int		 rc;

	memset(ret, 0, sizeof(*ret));
	if ((ret->v = calloc(h->nnics ? h->nnics : 1, sizeof(*ret->v))) == NULL)
		return lab_err_oom(err);
	if (lab_db_prepare(db, "SELECT s.name, p.name, "
	    "(SELECT lp.name FROM switch_lags l JOIN switch_ports lp ON "
	    "lp.switch_id = l.switch_id AND lp.ifindex = l.ifindex WHERE "
	    "l.switch_id = f.switch_id AND (l.ifindex = f.ifindex OR "
	    "',' || l.members || ',' LIKE '%,' || f.ifindex || ',%')) "
	    "FROM switch_fdb f JOIN switches s ON s.id = f.switch_id "
	    "LEFT JOIN switch_ports p ON p.switch_id = f.switch_id AND "
	    "p.ifindex = f.ifindex WHERE f.mac = ?1 "
	    "ORDER BY f.seen_at DESC LIMIT 1", &st, err) == -1)
		return -1;
	for (i = 0; i < h->nnics; i++) {
		struct lab_bond_nic	*n = &ret->v[ret->n++];

		n->name = lab_strdup(h->nics[i].name);
		lab_db_bind_text(st, 1, h->nics[i].mac);
		if ((rc = lab_db_step(st)) == DB_ROW) {
			n->switch_name = lab_db_text(st, 0);
			n->port = lab_db_text(st, 1);
			n->lag = lab_db_text(st, 2);
		} else if (rc != DB_DONE) {
			lab_db_finalize(st);
			return lab_db_fail(db, err, "read the switch's MAC table");
		}
		lab_db_reset(st);
	}
	lab_db_finalize(st);
	return 0;
}

void
lab_bond_nics_release(struct lab_bond_nics *b)
{
	size_t	i;

	for (i = 0; i < b->n; i++) {
		free((char *)b->v[i].name);
		free((char *)b->v[i].switch_name);
		free((char *)b->v[i].port);
		free((char *)b->v[i].lag);
	}
	free(b->v);
	memset(b, 0, sizeof(*b));
}
