/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BENCH_HISTORY_H
#define LAB_BENCH_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "lab/bench.h"
#include "lab/err.h"

/*
 * What `lab history HOST --bench` and the report read back of the bench
 * runs (lib/db/bench-runs.c), and the one JSON writer of a run and of a
 * disk (lib/bench/json-out.c) that `lab history --bench`, the report and
 * `lab bench --json` share.
 */
struct lab_db;
struct lab_json;

struct lab_bench_runs {
	struct lab_bench_run	*v;
	size_t			 n;
};

void	lab_bench_runs_release(struct lab_bench_runs *);

/* The host's runs (every status) started at or after since (0: all),
   newest first, each with its disks and results. */
int	lab_db_bench_runs(struct lab_db *, const char *host, int64_t since,
	    struct lab_bench_runs *, struct lab_err *);
/* The hosts with a done run, each once, sorted (lab_strv_sort; empty:
   none); release with lab_strv_release(). */
int	lab_db_bench_done_hosts(struct lab_db *, struct lab_strv *,
	    struct lab_err *);
/* The host's last done run into *run; run->id 0 when it has none. */
int	lab_db_bench_last_done(struct lab_db *, const char *host,
	    struct lab_bench_run *run, struct lab_err *);

/*
 * {slot, device, serial, model, kind, controller, tests: [{name, mb_s,
 * iops, lat_mean_ms, lat_p99_ms}], smart: {health, model, serial,
 * firmware, reallocated, pending, offline_uncorrectable, power_on_hours,
 * temperature_c}, skipped}: null for what is not known (a count of -1,
 * health unknown). mb_s and latencies with two and three decimals.
 */
void	lab_bench_disk_json(struct lab_json *, const struct lab_bench_disk *);
/* {host, run, time, profile, status, message, disks: [...]}. */
void	lab_bench_run_json(struct lab_json *, const struct lab_bench_run *);

#endif
