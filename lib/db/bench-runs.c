/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench-history.h"
#include "bench-priv.h"
#include "db-priv.h"

/*
 * The bench runs read back for `lab history HOST --bench` and the
 * report's Disks section: a host's runs newest first, and its last done
 * run. The disks come through bench.c's reader.
 */

void
lab_bench_runs_release(struct lab_bench_runs *rs)
{
	size_t	i;

	for (i = 0; i < rs->n; i++)
		lab_bench_run_release(&rs->v[i]);
	free(rs->v);
	rs->v = NULL;
	rs->n = 0;
}

/* The runs of a prepared statement over LAB_DB_BENCH_RUN_COLS, then their disks.
   Finalizes st. */
static int
read_runs(struct lab_db *db, struct db_stmt *st, struct lab_bench_runs *out,
    struct lab_err *err)
{
	struct lab_bench_run	*run;
	size_t			 i;
	int			 rc;

	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((run = lab_push(&out->v, &out->n, sizeof(*run))) == NULL ||
		    lab_db_bench_run_row(st, run) == -1) {
			lab_db_finalize(st);
			lab_bench_runs_release(out);
			return lab_err_oom(err);
		}
	}
	if (rc != DB_DONE) {
		lab_bench_runs_release(out);
		return lab_db_step_fail(db, st, rc, err, "read bench runs");
	}
	lab_db_finalize(st);
	for (i = 0; i < out->n; i++)
		if (lab_db_bench_run_disks(db, out->v[i].id,
		    &out->v[i].disks, err) == -1) {
			lab_bench_runs_release(out);
			return -1;
		}
	return 0;
}

int
lab_db_bench_runs(struct lab_db *db, const char *host, int64_t since,
    struct lab_bench_runs *out, struct lab_err *err)
{
	struct db_stmt	*st;

	out->v = NULL;
	out->n = 0;
	if (lab_db_prepare(db, LAB_DB_BENCH_RUN_COLS "WHERE host = ?1 AND started_at >= "
	    "?2 ORDER BY started_at DESC, id DESC", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	lab_db_bind_int64(st, 2, since);
	return read_runs(db, st, out, err);
}

int
lab_db_bench_done_hosts(struct lab_db *db, struct lab_strv *out,
    struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	lab_strv_init(out);
	if (lab_db_prepare(db, "SELECT DISTINCT host FROM bench_runs "
	    "WHERE status = 'done'", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW)
		if (lab_strv_add(out, (const char *)lab_db_column_text(st, 0))
		    == -1) {
			lab_db_finalize(st);
			lab_strv_release(out);
			return lab_err_oom(err);
		}
	if (rc != DB_DONE) {
		lab_strv_release(out);
		return lab_db_step_fail(db, st, rc, err, "read bench hosts");
	}
	lab_db_finalize(st);
	lab_strv_sort(out);
	return 0;
}

int
lab_db_bench_last_done(struct lab_db *db, const char *host,
    struct lab_bench_run *run, struct lab_err *err)
{
	struct lab_bench_runs	 rs = { NULL, 0 };
	struct db_stmt		*st;

	memset(run, 0, sizeof(*run));
	if (lab_db_prepare(db, LAB_DB_BENCH_RUN_COLS "WHERE host = ?1 AND status = 'done' "
	    "ORDER BY started_at DESC, id DESC LIMIT 1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	if (read_runs(db, st, &rs, err) == -1)
		return -1;
	if (rs.n == 1) {
		*run = rs.v[0];
		rs.n = 0;
	}
	lab_bench_runs_release(&rs);
	return 0;
}
