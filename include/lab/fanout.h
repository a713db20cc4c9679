/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_FANOUT_H
#define LAB_FANOUT_H

#include <stddef.h>

#include "lab/ctx.h"
#include "lab/err.h"
#include "lab/str.h"

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

/*
 * What a name stands for (a host, a switch), found in from; or NULL with
 * err set in the caller's words ("unknown host 'x'").
 */
typedef const void *(*lab_fanout_find_fn)(const void *from, const char *name,
	    struct lab_err *err);

/* A job's work on one target: what its name stands for, its result. */
typedef void	(*lab_fanout_job_fn)(void *arg, const void *item, void *res);
struct lab_fanout_job;
/*
 * A job's work on every target at once, before any thread starts (one
 * event loop instead of a thread a target), at most max_parallel at once
 * (the run's, bounded as for the threads): it ends the targets it can
 * with lab_fanout_job_done(); work then runs on the rest as usual.
 */
typedef void	(*lab_fanout_batch_fn)(void *arg, struct lab_fanout_job *,
		    size_t max_parallel);

/*
 * A run over named targets: what each name stands for, one result a
 * target, and the count of the finished ones, which ctx->progress hears
 * of. A result is size bytes, zeroed (a zeroed struct lab_err is a clear
 * one), but for the char * at name_off: a copy of its target's name,
 * which progress is given. LAB_FANOUT_JOB() fills what the caller sets.
 */
struct lab_fanout_job {
	const struct lab_ctx	 *ctx;		/* NULL: no progress */
	size_t			  size;
	size_t			  name_off;
	lab_fanout_job_fn	  work;
	void			 *arg;		/* work's */
	lab_fanout_batch_fn	  batch;	/* NULL: none */
	/* the job's own, from here */
	size_t			  n;
	const void		**items;	/* n + 1: the found targets */
	void			 *res;		/* n + 1 results */
	size_t			  finished;
	unsigned char		 *done;		/* n: ended by batch */
};

#define LAB_FANOUT_JOB(ctx, type, name, work, arg)			\
	{ (ctx), sizeof(type), offsetof(type, name), (work), (arg), NULL, \
	    0, NULL, NULL, 0, NULL }

/*
 * Target i of the job, and its result: for a batch, which may only call
 * them from inside lab_fanout_job_run().
 */
const void	*lab_fanout_job_item(const struct lab_fanout_job *, size_t i);
void		*lab_fanout_job_res(const struct lab_fanout_job *, size_t i);
/* Target i ended in the batch: counted, and progress told, as work's are. */
void		 lab_fanout_job_done(struct lab_fanout_job *, size_t i);

/*
 * Finds every name with find (in from), in order, allocates the results
 * and runs work over them as lab_fanout_run() does. Returns 0 with
 * job->res the results, the caller's (names included), to free with its
 * own function; on error (the first name find fails on, out of memory,
 * no thread) -1, holding nothing.
 */
int	lab_fanout_job_run(struct lab_fanout_job *job,
	    const struct lab_strv *names, lab_fanout_find_fn find,
	    const void *from, size_t max_parallel, struct lab_err *err);

#endif
