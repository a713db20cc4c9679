/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_FANOUT_H
#define LAB_FANOUT_H

#include <stddef.h>

#include "lab/err.h"

/*
 * The bounded-concurrency runner every multi-host command uses: runs
 * work(i, arg) for i in [0, n) on at most max_parallel threads at once.
 * Each item keeps its own result (in arg) and its own deadline: the work
 * function bounds itself (an IPMI session timeout, an SSH connect timeout),
 * so one dead host costs one deadline, never the sum. done(i, arg), when
 * not NULL, runs as each item finishes, serialised by a lock: results are
 * seen as they arrive.
 *
 * Returns 0 once every item has finished; -1 only when no thread at all
 * could be started (then nothing ran).
 */
typedef void	(*lab_fanout_fn)(size_t i, void *arg);

#define LAB_FANOUT_DEFAULT	64
#define LAB_FANOUT_MAX		1024

int	lab_fanout_run(size_t n, size_t max_parallel, lab_fanout_fn work,
	    lab_fanout_fn done, void *arg, struct lab_err *err);

#endif
