/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CMD_BENCH_H
#define LAB_CMD_BENCH_H

#include "lab.h"

/*
 * lab bench (cmd/bench.c) is one verb with two jobs: the fio jobs on
 * disks (cmd/bench-disks.c) and, with --pool, the ZFS settings table on
 * a scratch dataset of a pool (cmd/bench-pool.c).
 */
int	cmd_bench_disks(struct lab_call *, struct lab_err *);
int	cmd_bench_pool(struct lab_call *, struct lab_err *);

#endif
