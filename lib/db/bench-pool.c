/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench-pool.h"
#include "db-priv.h"

/*
 * Pool settings runs (migration 012): stored in one transaction (a failed
 * run without rows), read back as the latest done run of each host and
 * pool for the report.
 */

static int
store_rows(struct lab_db *db, int64_t id, const struct lab_pool_run *run,
    struct lab_err *err)
{
	struct db_stmt	*st;
	size_t		 k, i;

	if (lab_db_prepare(db, "INSERT INTO pool_results (run_id, combo, "
	    "setting, test, mb_s, mb_s_min, mb_s_max, iops, iops_min, "
	    "iops_max, lat_mean_ms, lat_p99_ms, n) VALUES (?1, ?2, ?3, ?4, "
	    "?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)", &st, err) == -1)
		return -1;
	for (k = 0; k < run->ncombos; k++)
		for (i = 0; i < run->combos[k].ntests; i++) {
			const struct lab_pool_test *t = &run->combos[k].tests[i];

			lab_db_reset(st);
			lab_db_bind_int64(st, 1, id);
			lab_db_bind_int64(st, 2, (int64_t)k);
			lab_db_bind_text(st, 3, run->combos[k].set);
			lab_db_bind_text(st, 4, lab_bench_test_name(t->test));
			lab_db_bind_double(st, 5, t->mb_s);
			lab_db_bind_double(st, 6, t->mb_s_min);
			lab_db_bind_double(st, 7, t->mb_s_max);
			lab_db_bind_double(st, 8, t->iops);
			lab_db_bind_double(st, 9, t->iops_min);
			lab_db_bind_double(st, 10, t->iops_max);
			lab_db_bind_double(st, 11, t->lat_mean_ms);
			lab_db_bind_double(st, 12, t->lat_p99_ms);
			lab_db_bind_int64(st, 13, t->runs);
			if (lab_db_step(st) != DB_DONE) {
				lab_db_fail(db, err, "store pool result");
				lab_db_finalize(st);
				return -1;
			}
		}
	lab_db_finalize(st);
	return 0;
}

struct pool_store {
	const struct lab_pool_run	*run;
	int64_t				 id;	/* out */
};

static int
pool_store_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	struct pool_store		*a = arg;
	const struct lab_pool_run	*run = a->run;
	struct db_stmt			*st;
	int				 rc;

	if (lab_db_prepare(db, "INSERT INTO pool_runs (host, pool, props, "
	    "repeat, started_at, finished_at, status, message, left_behind) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, run->host);
	lab_db_bind_text(st, 2, run->pool);
	lab_db_bind_text(st, 3, run->props != NULL ? run->props : "");
	lab_db_bind_int(st, 4, run->repeat > 0 ? run->repeat : 1);
	lab_db_bind_int64(st, 5, run->started_at);
	if (run->finished_at > 0)
		lab_db_bind_int64(st, 6, run->finished_at);
	lab_db_bind_text(st, 7, lab_bench_status_name(run->status));
	lab_db_bind_text(st, 8, run->message);
	lab_db_bind_text(st, 9, run->left);
	rc = lab_db_step(st);
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "store pool run");
	a->id = lab_db_last_id(db);
	/* a failed run keeps no partial figure */
	if (run->status == LAB_BENCH_DONE &&
	    store_rows(db, a->id, run, err) == -1)
		return -1;
	return 0;
}

int
lab_db_pool_store(struct lab_db *db, struct lab_pool_run *run,
    struct lab_err *err)
{
	struct pool_store	a = { run, 0 };

	if (run->host == NULL || run->pool == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "pool run without a "
		    "host or a pool");
	if (lab_db_tx(db, pool_store_tx, &a, err) == -1)
		return -1;
	run->id = a.id;
	return 0;
}

/* The rows of run id into run. */
static int
read_rows(struct lab_db *db, struct lab_pool_run *run, struct lab_err *err)
{
	struct db_stmt	*st;
	int64_t		 last = -1;
	int		 rc;

	if (lab_db_prepare(db, "SELECT combo, setting, test, mb_s, mb_s_min, "
	    "mb_s_max, iops, iops_min, iops_max, lat_mean_ms, lat_p99_ms, n "
	    "FROM pool_results WHERE run_id = ?1 ORDER BY combo, test", &st,
	    err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, run->id);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		struct lab_pool_combo	*c;
		struct lab_pool_test	*t;
		char			*w;
		int			 test;

		if (lab_db_column_int64(st, 0) != last) {
			last = lab_db_column_int64(st, 0);
			c = realloc(run->combos, (run->ncombos + 1) *
			    sizeof(*c));
			if (c == NULL)
				break;
			run->combos = c;
			c = &c[run->ncombos++];
			memset(c, 0, sizeof(*c));
			if ((c->set = lab_db_text(st, 1)) == NULL)
				break;
		}
		if (run->combos == NULL || run->ncombos == 0)
			break;
		c = &run->combos[run->ncombos - 1];
		w = lab_db_text(st, 2);
		test = lab_bench_test_parse(w);
		free(w);
		if (test < 0 || c->ntests == LAB_BENCH_NTESTS)
			continue;
		t = &c->tests[c->ntests++];
		t->test = (enum lab_bench_test)test;
		t->mb_s = lab_db_column_double(st, 3);
		t->mb_s_min = lab_db_column_double(st, 4);
		t->mb_s_max = lab_db_column_double(st, 5);
		t->iops = lab_db_column_double(st, 6);
		t->iops_min = lab_db_column_double(st, 7);
		t->iops_max = lab_db_column_double(st, 8);
		t->lat_mean_ms = lab_db_column_double(st, 9);
		t->lat_p99_ms = lab_db_column_double(st, 10);
		t->runs = lab_db_column_int(st, 11);
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read pool results");
	lab_db_finalize(st);
	return 0;
}

#define RUN_COLS "id, host, pool, props, repeat, started_at, finished_at, " \
	"status, message, left_behind FROM pool_runs "

static int
run_row(struct db_stmt *st, struct lab_pool_run *r)
{
	char	*s;

	memset(r, 0, sizeof(*r));
	r->id = lab_db_column_int64(st, 0);
	r->host = lab_db_text(st, 1);
	r->pool = lab_db_text(st, 2);
	r->props = lab_db_text(st, 3);
	r->repeat = lab_db_column_int(st, 4);
	r->started_at = lab_db_column_int64(st, 5);
	r->finished_at = lab_db_column_int64(st, 6);
	s = lab_db_text(st, 7);
	r->status = s == NULL ? LAB_BENCH_FAILED : strcmp(s, "done") == 0 ?
	    LAB_BENCH_DONE : strcmp(s, "running") == 0 ? LAB_BENCH_RUNNING :
	    LAB_BENCH_FAILED;
	free(s);
	r->message = lab_db_text(st, 8);
	r->left = lab_db_text(st, 9);
	return r->host == NULL || r->pool == NULL || r->props == NULL ? -1 : 0;
}

int
lab_db_pool_last(struct lab_db *db, const char *host, const char *pool,
    struct lab_pool_run *run, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	memset(run, 0, sizeof(*run));
	if (lab_db_prepare(db, "SELECT " RUN_COLS "WHERE host = ?1 AND pool = "
	    "?2 ORDER BY started_at DESC, id DESC LIMIT 1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	lab_db_bind_text(st, 2, pool);
	rc = lab_db_step(st);
	if (rc == DB_DONE) {
		lab_db_finalize(st);
		return 0;
	}
	if (rc != DB_ROW || run_row(st, run) == -1) {
		lab_pool_run_release(run);
		return lab_db_step_fail(db, st, rc, err, "read pool run");
	}
	lab_db_finalize(st);
	if (read_rows(db, run, err) == -1) {
		lab_pool_run_release(run);
		return -1;
	}
	return 0;
}

int
lab_db_pool_latest(struct lab_db *db, struct lab_pool_run **ret, size_t *n,
    struct lab_err *err)
{
	struct db_stmt		*st;
	struct lab_pool_run	*v = NULL, *nv;
	size_t			 m = 0, i;
	int			 rc;

	*ret = NULL;
	*n = 0;
	if (lab_db_prepare(db, "SELECT " RUN_COLS "WHERE id IN (SELECT "
	    "(SELECT id FROM pool_runs q WHERE q.host = p.host AND q.pool = "
	    "p.pool AND q.status = 'done' ORDER BY started_at DESC, id DESC "
	    "LIMIT 1) FROM pool_runs p WHERE p.status = 'done' GROUP BY "
	    "p.host, p.pool) ORDER BY host, pool", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((nv = realloc(v, (m + 1) * sizeof(*v))) == NULL) {
			rc = DB_NOMEM;
			break;
		}
		v = nv;
		if (run_row(st, &v[m++]) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	if (rc != DB_DONE) {
		for (i = 0; i < m; i++)
			lab_pool_run_release(&v[i]);
		free(v);
		return lab_db_step_fail(db, st, rc, err, "read pool runs");
	}
	lab_db_finalize(st);
	for (i = 0; i < m; i++)
		if (read_rows(db, &v[i], err) == -1) {
			for (i = 0; i < m; i++)
				lab_pool_run_release(&v[i]);
			free(v);
			return -1;
		}
	*ret = v;
	*n = m;
	return 0;
}
