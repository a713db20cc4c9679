/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CMD_HISTORY_BENCH_H
#define LAB_CMD_HISTORY_BENCH_H

#include <stdint.h>

#include "lab.h"

/*
 * lab history HOST --bench [--since WHEN]: the host's bench runs newest
 * first, then each disk's figures over its runs by serial (on any host).
 * known: the host is in the inventory; one that left it keeps its runs.
 */
int	cmd_history_bench(struct lab_call *, const char *host, int known,
	    int64_t since, struct lab_err *);

#endif
