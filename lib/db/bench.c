/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"
#include "db-priv.h"
#include "bench-priv.h"

/*
 * Bench runs with their disks and fio results (migration 010): stored in
 * one transaction, read back by a disk's serial or a host's last run.
 */

static void
bind_count(struct db_stmt *st, int idx, int64_t v)
{
	if (v < 0)
		lab_db_bind_null(st, idx);
	else
		lab_db_bind_int64(st, idx, v);
}

static int64_t
col_count(struct db_stmt *st, int col)
{
	if (lab_db_column_type(st, col) == DB_NULL)
		return -1;
	return lab_db_column_int64(st, col);
}

/* Binds a disk's columns 1-18 of bench_disks (run_id ... smart_message),
   after a reset: the part a bench and a burn-in store alike. */
void
lab_db_bench_bind_disk(struct db_stmt *dst, int64_t run_id, const char *host,
    const struct lab_bench_disk *d)
{
	const struct lab_smart	*s = &d->smart;

	lab_db_reset(dst);
	lab_db_clear_bindings(dst);
	lab_db_bind_int64(dst, 1, run_id);
	lab_db_bind_text(dst, 2, d->host != NULL ? d->host : host);
	lab_db_bind_text(dst, 3, d->slot != NULL ? d->slot : "");
	lab_db_bind_text(dst, 4, d->device);
	lab_db_bind_text(dst, 5, d->serial);
	lab_db_bind_text(dst, 6, d->model);
	lab_db_bind_text(dst, 7, d->kind);
	lab_db_bind_text(dst, 8, d->controller);
	lab_db_bind_text(dst, 9, lab_smart_health_name(s->health));
	lab_db_bind_text(dst, 10, s->model);
	lab_db_bind_text(dst, 11, s->serial);
	lab_db_bind_text(dst, 12, s->firmware);
	bind_count(dst, 13, s->reallocated);
	bind_count(dst, 14, s->pending);
	bind_count(dst, 15, s->offline_uncorrectable);
	bind_count(dst, 16, s->power_on_hours);
	bind_count(dst, 17, s->temperature_c);
	lab_db_bind_text(dst, 18, s->message);
}

static int
store_disk(struct lab_db *db, int64_t run_id, const char *host,
    const struct lab_bench_disk *d, struct db_stmt *dst, struct db_stmt *rst,
    struct lab_err *err)
{
	int64_t			 disk_id;
	size_t			 i;

	lab_db_bench_bind_disk(dst, run_id, host, d);
	lab_db_bind_text(dst, 19, d->skipped);
	if (lab_db_step(dst) != DB_DONE)
		return lab_db_fail(db, err, "store bench disk");
	disk_id = lab_db_last_id(db);
	for (i = 0; i < d->nresults; i++) {
		const struct lab_bench_result *r = &d->results[i];

		lab_db_reset(rst);
		lab_db_clear_bindings(rst);
		lab_db_bind_int64(rst, 1, disk_id);
		lab_db_bind_text(rst, 2, lab_bench_test_name(r->test));
		lab_db_bind_text(rst, 3, lab_bench_target_name(r->target_kind));
		lab_db_bind_text(rst, 4, r->target);
		lab_db_bind_text(rst, 5, r->why);
		lab_db_bind_double(rst, 6, r->mb_s);
		lab_db_bind_double(rst, 7, r->iops);
		lab_db_bind_double(rst, 8, r->lat_mean_ms);
		lab_db_bind_double(rst, 9, r->lat_p99_ms);
		if (lab_db_step(rst) != DB_DONE)
			return lab_db_fail(db, err, "store bench result");
	}
	return 0;
}

struct bench_store {
	const struct lab_bench_run	*run;
	int64_t				 id;	/* out */
};

static int
bench_store_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	struct bench_store		*a = arg;
	const struct lab_bench_run	*run = a->run;
	struct db_stmt			*st = NULL, *dst = NULL, *rst = NULL;
	size_t				 i;
	int				 rc = -1;

	if (lab_db_prepare(db, "INSERT INTO bench_runs (host, profile, "
	    "started_at, finished_at, status, message) VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6)", &st, err) == -1)
		goto out;
	lab_db_bind_text(st, 1, run->host);
	lab_db_bind_text(st, 2, run->profile != NULL ? run->profile :
	    "quick");
	lab_db_bind_int64(st, 3, run->started_at);
	if (run->finished_at > 0)
		lab_db_bind_int64(st, 4, run->finished_at);
	lab_db_bind_text(st, 5, lab_bench_status_name(run->status));
	lab_db_bind_text(st, 6, run->message);
	if (lab_db_step(st) != DB_DONE) {
		lab_db_fail(db, err, "store bench run");
		goto out;
	}
	a->id = lab_db_last_id(db);
	/* a failed (or unfinished) run keeps no partial result */
	if (run->status == LAB_BENCH_DONE && run->disks.n > 0) {
		if (lab_db_prepare(db, "INSERT INTO bench_disks (run_id, host, "
		    "slot, device, serial, model, kind, controller, "
		    "smart_health, smart_model, smart_serial, smart_firmware, "
		    "reallocated, pending, offline_uncorrectable, "
		    "power_on_hours, temperature_c, smart_message, skipped) "
		    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
		    "?13, ?14, ?15, ?16, ?17, ?18, ?19)", &dst, err) == -1 ||
		    lab_db_prepare(db, "INSERT INTO bench_results (disk_id, "
		    "test, target_kind, target, why, mb_s, iops, lat_mean_ms, "
		    "lat_p99_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
		    &rst, err) == -1)
			goto out;
		for (i = 0; i < run->disks.n; i++)
			if (store_disk(db, a->id, run->host, &run->disks.v[i],
			    dst, rst, err) == -1)
				goto out;
	}
	rc = 0;
out:
	lab_db_finalize(st);
	lab_db_finalize(dst);
	lab_db_finalize(rst);
	return rc;
}

int
lab_db_bench_store(struct lab_db *db, struct lab_bench_run *run,
    struct lab_err *err)
{
	struct bench_store	a = { run, 0 };

	if (run->host == NULL || *run->host == '\0')
		return lab_err_set(err, LAB_EXIT_INPUT, "bench run without a "
		    "host");
	if (lab_db_tx(db, bench_store_tx, &a, err) == -1)
		return -1;
	run->id = a.id;
	return 0;
}

#define DISK_COLS "d.id, d.run_id, r.started_at, d.host, d.slot, " \
	"d.device, d.serial, d.model, d.kind, d.controller, d.smart_health, " \
	"d.smart_model, d.smart_serial, d.smart_firmware, d.reallocated, " \
	"d.pending, d.offline_uncorrectable, d.power_on_hours, " \
	"d.temperature_c, d.smart_message, d.skipped " \
	"FROM bench_disks d JOIN bench_runs r ON r.id = d.run_id "

/* One row of DISK_COLS into d; its id in *disk_id. -1: out of memory. */
static int
disk_row(struct db_stmt *st, struct lab_bench_disk *d, int64_t *disk_id)
{
	struct lab_smart	*s = &d->smart;
	char			*h;
	int			 health;

	lab_bench_disk_init(d);
	*disk_id = lab_db_column_int64(st, 0);
	d->run_id = lab_db_column_int64(st, 1);
	d->time = lab_db_column_int64(st, 2);
	d->host = lab_db_text(st, 3);
	d->slot = lab_db_text(st, 4);
	d->device = lab_db_text(st, 5);
	d->serial = lab_db_text(st, 6);
	d->model = lab_db_text(st, 7);
	d->kind = lab_db_text(st, 8);
	d->controller = lab_db_text(st, 9);
	h = lab_db_text(st, 10);
	health = lab_smart_health_parse(h);
	free(h);
	s->health = health == -1 ? LAB_SMART_UNKNOWN :
	    (enum lab_smart_health)health;
	s->model = lab_db_text(st, 11);
	s->serial = lab_db_text(st, 12);
	s->firmware = lab_db_text(st, 13);
	s->reallocated = col_count(st, 14);
	s->pending = col_count(st, 15);
	s->offline_uncorrectable = col_count(st, 16);
	s->power_on_hours = col_count(st, 17);
	s->temperature_c = col_count(st, 18);
	s->message = lab_db_text(st, 19);
	d->skipped = lab_db_text(st, 20);
	if (d->host == NULL || d->slot == NULL)
		return -1;
	return 0;
}

static int
read_results(struct lab_db *db, int64_t disk_id, struct lab_bench_disk *d,
    struct lab_err *err)
{
	struct db_stmt		*st;
	struct lab_bench_result	*r;
	char			*w;
	int			 rc, t;

	if (lab_db_prepare(db, "SELECT test, target_kind, target, why, mb_s, "
	    "iops, lat_mean_ms, lat_p99_ms FROM bench_results WHERE disk_id = "
	    "?1", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, disk_id);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((w = lab_db_text(st, 0)) == NULL ||
		    (t = lab_bench_test_parse(w)) == -1) {
			free(w);
			continue;
		}
		free(w);
		if ((r = lab_push(&d->results, &d->nresults,
		    sizeof(*r))) == NULL) {
			rc = DB_NOMEM;
			break;
		}
		r->test = (enum lab_bench_test)t;
		w = lab_db_text(st, 1);
		r->target_kind = lab_bench_target_parse(w) == 1 ?
		    LAB_BENCH_TARGET_FILE : LAB_BENCH_TARGET_DEVICE;
		free(w);
		r->target = lab_db_text(st, 2);
		r->why = lab_db_text(st, 3);
		r->mb_s = lab_db_column_double(st, 4);
		r->iops = lab_db_column_double(st, 5);
		r->lat_mean_ms = lab_db_column_double(st, 6);
		r->lat_p99_ms = lab_db_column_double(st, 7);
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read bench results");
	lab_db_finalize(st);
	/* in the order the jobs run */
	for (size_t i = 1; i < d->nresults; i++) {
		struct lab_bench_result x = d->results[i];
		size_t j;

		for (j = i; j > 0 && d->results[j - 1].test > x.test; j--)
			d->results[j] = d->results[j - 1];
		d->results[j] = x;
	}
	return 0;
}

/*
 * The disks of a prepared statement over DISK_COLS, with their results
 * (read by a second statement while this one steps, as SQLite allows).
 * Finalizes st.
 */
static int
read_disks(struct lab_db *db, struct db_stmt *st, struct lab_bench_disks *out,
    struct lab_err *err)
{
	struct lab_bench_disk	*d;
	int64_t			 id;
	int			 rc;

	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((d = lab_push(&out->v, &out->n, sizeof(*d))) == NULL ||
		    disk_row(st, d, &id) == -1) {
			rc = DB_NOMEM;
			break;
		}
		if (read_results(db, id, d, err) == -1) {
			lab_db_finalize(st);
			lab_bench_disks_release(out);
			return -1;
		}
	}
	if (rc != DB_DONE) {
		lab_bench_disks_release(out);
		return lab_db_step_fail(db, st, rc, err, "read bench disks");
	}
	lab_db_finalize(st);
	return 0;
}

int
lab_db_bench_history(struct lab_db *db, const char *serial, size_t limit,
    struct lab_bench_disks *out, struct lab_err *err)
{
	struct db_stmt		*st;
	struct lab_bench_disk	 t;
	size_t			 i;

	out->v = NULL;
	out->n = 0;
	if (serial == NULL || *serial == '\0')
		return 0;
	if (lab_db_prepare(db, "SELECT " DISK_COLS "WHERE d.serial = ?1 AND "
	    "r.status = 'done' ORDER BY r.started_at DESC, r.id DESC LIMIT ?2",
	    &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, serial);
	lab_db_bind_int64(st, 2, limit == 0 ? INT64_MAX : (int64_t)limit);
	if (read_disks(db, st, out, err) == -1)
		return -1;
	for (i = 0; i < out->n / 2; i++) {
		t = out->v[i];
		out->v[i] = out->v[out->n - 1 - i];
		out->v[out->n - 1 - i] = t;
	}
	return 0;
}

/* One row of LAB_DB_BENCH_RUN_COLS into run. -1: out of memory. */
int
lab_db_bench_run_row(struct db_stmt *st, struct lab_bench_run *run)
{
	char	*status;

	memset(run, 0, sizeof(*run));
	run->id = lab_db_column_int64(st, 0);
	run->host = lab_db_text(st, 1);
	run->profile = lab_db_text(st, 2);
	run->started_at = lab_db_column_int64(st, 3);
	run->finished_at = lab_db_column_int64(st, 4);
	status = lab_db_text(st, 5);
	run->status = status != NULL && strcmp(status, "done") == 0 ?
	    LAB_BENCH_DONE : status != NULL && strcmp(status, "running") ==
	    0 ? LAB_BENCH_RUNNING : LAB_BENCH_FAILED;
	free(status);
	run->message = lab_db_text(st, 6);
	return run->host == NULL || run->profile == NULL ? -1 : 0;
}

int
lab_db_bench_last(struct lab_db *db, const char *host,
    struct lab_bench_run *run, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	memset(run, 0, sizeof(*run));
	if (lab_db_prepare(db, LAB_DB_BENCH_RUN_COLS "WHERE host = ?1 "
	    "ORDER BY started_at DESC, id DESC LIMIT 1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	rc = lab_db_step(st);
	if (rc == DB_DONE) {
		lab_db_finalize(st);
		return 0;
	}
	if (rc != DB_ROW)
		return lab_db_step_fail(db, st, rc, err, "read bench runs");
	rc = lab_db_bench_run_row(st, run);
	lab_db_finalize(st);
	if (rc == -1) {
		lab_bench_run_release(run);
		return lab_err_oom(err);
	}
	if (lab_db_prepare(db, "SELECT " DISK_COLS "WHERE d.run_id = ?1 "
	    "ORDER BY d.id", &st, err) == -1 ||
	    (lab_db_bind_int64(st, 1, run->id),
	    read_disks(db, st, &run->disks, err)) == -1) {
		lab_bench_run_release(run);
		return -1;
	}
	return 0;
}

int
lab_db_bench_run_disks(struct lab_db *db, int64_t run_id,
    struct lab_bench_disks *out, struct lab_err *err)
{
	struct db_stmt	*st;

	out->v = NULL;
	out->n = 0;
	if (lab_db_prepare(db, "SELECT " DISK_COLS "WHERE d.run_id = ?1 "
	    "ORDER BY d.id", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, run_id);
	return read_disks(db, st, out, err);
}
