/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_BENCH_PRIV_H
#define LAB_DB_BENCH_PRIV_H

#include <stdint.h>

#include "lab/bench.h"

/* The disks of a stored run with their results, in the order stored
   (bench.c; bench-runs.c reads runs through it). */
int	lab_db_bench_run_disks(struct lab_db *, int64_t run_id,
	    struct lab_bench_disks *, struct lab_err *);

#endif
