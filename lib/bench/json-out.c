/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>

#include "lab/bench-history.h"
#include "lab/json.h"
#include "lab/render.h"

/*
 * The one JSON shape of a benched disk and of a bench run: written here
 * for `lab history --bench`, the report's hosts[].bench and `lab bench
 * --json`, so the three agree.
 */

static void
knum(struct lab_json *j, const char *key, const char *fmt, double v)
{
	char	num[48];

	lab_json_key(j, key);
	if (!isfinite(v) || v < 0) {
		lab_json_null(j);
		return;
	}
	snprintf(num, sizeof(num), fmt, v);
	lab_json_raw(j, num);
}

static void
kcount(struct lab_json *j, const char *key, int64_t v)
{
	lab_json_key(j, key);
	if (v < 0)
		lab_json_null(j);
	else
		lab_json_int(j, v);
}

/* Did the writes run, into a file? */
static int
file_writes(const struct lab_bench_disk *d)
{
	size_t	i;

	for (i = 0; i < d->nresults; i++)
		if (d->results[i].target_kind == LAB_BENCH_TARGET_FILE)
			return 1;
	return 0;
}

void
lab_bench_disk_json(struct lab_json *j, const struct lab_bench_disk *d)
{
	const struct lab_smart	*s = &d->smart;
	size_t			 i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "slot", d->slot);
	lab_json_kstr(j, "device", d->device);
	lab_json_kstr(j, "serial", d->serial);
	lab_json_kstr(j, "model", d->model);
	lab_json_kstr(j, "kind", d->kind);
	lab_json_kstr(j, "controller", d->controller);
	lab_json_key(j, "tests");
	lab_json_arr_begin(j);
	for (i = 0; i < d->nresults; i++) {
		const struct lab_bench_result *r = &d->results[i];

		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", lab_bench_test_name(r->test));
		knum(j, "mb_s", "%.2f", r->mb_s);
		knum(j, "iops", "%.1f", r->iops);
		knum(j, "lat_mean_ms", "%.3f", r->lat_mean_ms);
		knum(j, "lat_p99_ms", "%.3f", r->lat_p99_ms);
		lab_json_kstr(j, "target_kind",
		    lab_bench_target_name(r->target_kind));
		lab_json_kstr(j, "target", r->target);
		lab_json_kstr(j, "why", r->why);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "smart");
	lab_json_obj_begin(j);
	lab_json_kstr(j, "health", s->health == LAB_SMART_UNKNOWN ? NULL :
	    lab_smart_health_name(s->health));
	lab_json_kstr(j, "model", s->model);
	lab_json_kstr(j, "serial", s->serial);
	lab_json_kstr(j, "firmware", s->firmware);
	kcount(j, "reallocated", s->reallocated);
	kcount(j, "pending", s->pending);
	kcount(j, "offline_uncorrectable", s->offline_uncorrectable);
	kcount(j, "power_on_hours", s->power_on_hours);
	kcount(j, "temperature_c", s->temperature_c);
	lab_json_kstr(j, "message", s->message);
	lab_json_obj_end(j);
	/* skipped: a boolean, as everywhere (lab(1), JSON): the jobs, or
	   the writes, did not run; why: the words (also for writes into a
	   file on a mounted disk, which is not a skip) */
	lab_json_key(j, "skipped");
	lab_json_bool(j, d->skipped != NULL && !file_writes(d));
	lab_json_kstr(j, "why", d->skipped);
	lab_json_obj_end(j);
}

void
lab_bench_run_json(struct lab_json *j, const struct lab_bench_run *run)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "host", run->host);
	lab_json_kint(j, "run", run->id);
	lab_json_ktime(j, "time", run->started_at);
	lab_json_kstr(j, "profile", run->profile);
	lab_json_kstr(j, "status", lab_bench_status_name(run->status));
	lab_json_kstr(j, "message", run->message);
	lab_json_key(j, "disks");
	lab_json_arr_begin(j);
	for (i = 0; i < run->disks.n; i++)
		lab_bench_disk_json(j, &run->disks.v[i]);
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}
