/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/burnin.h"
#include "bench-priv.h"
#include "db-priv.h"

/*
 * A burn-in stored as a bench run of profile "burnin" (migration 011),
 * in one transaction: the run, and for a done run each disk with its
 * burn-in and SMART before and after; a failed run keeps no disk.
 */

static void
bind_count(struct db_stmt *st, int idx, int64_t v)
{
	if (v < 0)
		lab_db_bind_null(st, idx);
	else
		lab_db_bind_int64(st, idx, v);
}

static int
store_disk(struct lab_db *db, int64_t run_id, const char *host,
    const struct lab_burnin_disk *bd, struct db_stmt *st, struct lab_err *err)
{
	const struct lab_bench_disk	*d = &bd->d;
	const struct lab_smart		*b = &bd->before;
	int				 ran = bd->result == LAB_BURNIN_CLEAN ||
					    bd->result == LAB_BURNIN_ERRORS;

	lab_db_bench_bind_disk(st, run_id, host, d);
	lab_db_bind_text(st, 19, bd->result == LAB_BURNIN_FAILED ?
	    bd->message : d->skipped);
	if (bd->result != LAB_BURNIN_PLANNED)
		lab_db_bind_text(st, 20, lab_burnin_result_name(bd->result));
	lab_db_bind_text(st, 21, d->burnin.method);
	if (ran) {
		bind_count(st, 22, d->burnin.errors);
		lab_db_bind_text(st, 23, d->burnin.detail);
		lab_db_bind_int64(st, 24, bd->elapsed_ms);
	}
	if (bd->result != LAB_BURNIN_REFUSED) {
		lab_db_bind_text(st, 25, lab_smart_health_name(b->health));
		bind_count(st, 26, b->reallocated);
		bind_count(st, 27, b->pending);
		bind_count(st, 28, b->offline_uncorrectable);
	}
	if (lab_db_step(st) != DB_DONE)
		return lab_db_fail(db, err, "store burn-in disk");
	return 0;
}

struct burnin_run {
	const struct lab_burnin_host	*h;
	int64_t				 started_at, finished_at;
	int64_t				 id;	/* out */
};

static int
store_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	struct burnin_run		*a = arg;
	const struct lab_burnin_host	*h = a->h;
	struct db_stmt			*st = NULL, *dst = NULL;
	size_t				 i;
	int				 rc = -1;

	if (lab_db_prepare(db, "INSERT INTO bench_runs (host, profile, "
	    "started_at, finished_at, status, message) VALUES (?1, 'burnin', "
	    "?2, ?3, ?4, ?5)", &st, err) == -1)
		goto out;
	lab_db_bind_text(st, 1, h->host);
	lab_db_bind_int64(st, 2, a->started_at);
	if (a->finished_at > 0)
		lab_db_bind_int64(st, 3, a->finished_at);
	lab_db_bind_text(st, 4, lab_bench_status_name(h->status));
	lab_db_bind_text(st, 5, h->status == LAB_BENCH_FAILED ? h->err.msg :
	    NULL);
	if (lab_db_step(st) != DB_DONE) {
		lab_db_fail(db, err, "store burn-in run");
		goto out;
	}
	a->id = lab_db_last_id(db);
	/* a failed run keeps no partial result */
	if (h->status == LAB_BENCH_DONE && h->ndisks > 0) {
		if (lab_db_prepare(db, "INSERT INTO bench_disks (run_id, host, "
		    "slot, device, serial, model, kind, controller, "
		    "smart_health, smart_model, smart_serial, smart_firmware, "
		    "reallocated, pending, offline_uncorrectable, "
		    "power_on_hours, temperature_c, smart_message, skipped, "
		    "burnin_result, burnin_method, burnin_errors, "
		    "burnin_detail, burnin_ms, before_health, "
		    "before_reallocated, before_pending, "
		    "before_offline_uncorrectable) VALUES (?1, ?2, ?3, ?4, ?5, "
		    "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
		    "?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)",
		    &dst, err) == -1)
			goto out;
		for (i = 0; i < h->ndisks; i++)
			if (store_disk(db, a->id, h->host, &h->disks[i], dst,
			    err) == -1)
				goto out;
	}
	rc = 0;
out:
	lab_db_finalize(st);
	lab_db_finalize(dst);
	return rc;
}

int
lab_db_burnin_store(struct lab_db *db, const struct lab_burnin_host *h,
    int64_t started_at, int64_t finished_at, int64_t *run_id,
    struct lab_err *err)
{
	struct burnin_run	a = { h, started_at, finished_at, 0 };

	if (h->host == NULL || *h->host == '\0')
		return lab_err_set(err, LAB_EXIT_INPUT, "burn-in without a "
		    "host");
	if (lab_db_tx(db, store_tx, &a, err) == -1)
		return -1;
	*run_id = a.id;
	return 0;
}
