/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CMD_STREAM_H
#define LAB_CMD_STREAM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/ctx.h"
#include "lab/fold.h"
#include "lab.h"

/*
 * A fan-out seen as it runs (lab(1), OUTPUT OF A FAN-OUT):
 *
 * - rows: when stdout is a terminal (no --csv, no --json) and the caller
 *   gives a table and a row function, the header at once and each
 *   target's row as it finishes, in finishing order; the HOST column as
 *   wide as the longest name, the others as wide as given, the last the
 *   rest of the terminal. Anywhere else nothing is streamed: the caller
 *   prints its table at the end, in target order, as always.
 * - progress: when stderr is a terminal and there is more than one
 *   target, "LABEL: 3/30 done, 27 waiting, 4 s left" from the start,
 *   redrawn every 250 ms and after each row, erased before each row and
 *   at the end. "s left" is an upper bound: the deadline of the last
 *   target started, plus one deadline for each batch of --fanout targets
 *   still queued.
 */
typedef void	(*cmd_row_fn)(const void *res, const char **cells);

struct cmd_stream {
	/* the caller's */
	const char		*label;
	const struct table	*t;		/* header, roles; NULL: no rows */
	const size_t		*widths;	/* a width a column; 0: fitted */
	cmd_row_fn		 row;
	const struct lab_strv	*names;		/* the targets, in order */
	int64_t			 deadline_ms;	/* one target's */
	size_t			 fanout;
	int			 json;		/* --json: no rows */
	/* its own */
	int			 rows, progress, ticking, stop, drawn;
	size_t			 w[32];
	size_t			 done, errcols;
	int64_t			 start, last_start;
	const struct lab_ctx	*ctx;
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	pthread_t		 tid;
};

/*
 * Prints the header when rows are streamed, starts the progress ticker
 * and hooks both into ctx (ctx->finished). Call cmd_stream_stop() on
 * every path after.
 */
void	cmd_stream_start(struct cmd_stream *, struct lab_ctx *ctx);
/* Stops and joins the ticker and erases the progress line. */
void	cmd_stream_stop(struct cmd_stream *);

/*
 * The failures of a fan-out on stderr: with verbose one line a target
 * (cmd_host_failed), else one line per distinct failure, hosts folded
 * (lab_fail_summary). Counts them in call->failed and keeps the first
 * as the audit message, as cmd_host_failed() does.
 */
void	cmd_failures(struct lab_call *, const struct lab_fail *, size_t nfail,
	    size_t total, int verbose);

/*
 * cmd_bmc_run() with the rows of t (its header and column roles) streamed
 * on a terminal: row gives a struct lab_bmc_result's cells, widths the
 * columns' (0: fitted). run->streamed says whether they were.
 */
int	cmd_bmc_run_rows(struct lab_call *, struct lab_bmc_req *,
	    struct cmd_bmc_run *, const struct table *t, const size_t *widths,
	    cmd_row_fn row, struct lab_err *);

#endif
