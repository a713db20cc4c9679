/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_BENCH_PRIV_H
#define LAB_DB_BENCH_PRIV_H

#include <stdint.h>

#include "lab/bench.h"

struct db_stmt;

/* The disks of a stored run with their results, in the order stored
   (bench.c; bench-runs.c reads runs through it). */
int	lab_db_bench_run_disks(struct lab_db *, int64_t run_id,
	    struct lab_bench_disks *, struct lab_err *);

/* Binds a disk's columns 1-18 of bench_disks (run_id, host, slot, device,
   serial, model, kind, controller, then SMART through smart_message),
   after a reset (bench.c; burnin.c stores its disks through it). */
void	lab_db_bench_bind_disk(struct db_stmt *, int64_t run_id,
	    const char *host, const struct lab_bench_disk *);

/* The columns of a bench run, in the order lab_db_bench_run_row reads
   them, ending "FROM bench_runs " (a WHERE follows). */
#define LAB_DB_BENCH_RUN_COLS "SELECT id, host, profile, started_at, " \
	"finished_at, status, message FROM bench_runs "

/* One row of LAB_DB_BENCH_RUN_COLS into run (zeroed first). -1: out of
   memory. */
int	lab_db_bench_run_row(struct db_stmt *, struct lab_bench_run *);

#endif
