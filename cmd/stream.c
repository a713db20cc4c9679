/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A fan-out as it runs: rows in finishing order and a progress line on a
 * terminal, the failures folded at the end (stream.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lab/parse.h"
#include "lab/text.h"
#include "stream.h"

#define TICK_MS		250
#define LAST_MIN	12	/* the last column is never cut below this */

/* The width of the terminal on stderr (COLUMNS first, as tables do). */
static size_t
err_cols(void)
{
	struct winsize	 ws;
	const char	*e = getenv("COLUMNS");
	long		 v;

	if (e != NULL && lab_parse_int(e, 1, 100000, &v) == 0)
		return (size_t)v;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* Draws the progress line (the lock held). */
static void
draw(struct cmd_stream *st)
{
	char	 line[256];
	size_t	 n = st->names->n, running, queued, cols;
	int64_t	 now = st->ctx->monotonic_ms(), left;

	if (!st->progress || st->done >= n)
		return;
	running = n - st->done < st->fanout ? n - st->done : st->fanout;
	queued = n - st->done - running;
	left = st->last_start + st->deadline_ms - now;
	if (left < 0)
		left = 0;
	left += (int64_t)((queued + st->fanout - 1) / st->fanout) *
	    st->deadline_ms;
	snprintf(line, sizeof(line), "%s: %zu/%zu done, %zu waiting, %lld s "
	    "left", st->label, st->done, n, n - st->done,
	    (long long)((left + 999) / 1000));
	/* a wrapped line could not be erased: never wider than the screen */
	cols = err_cols();
	if (cols > 1 && strlen(line) >= cols)
		line[cols - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	st->drawn = 1;
}

static void
erase(struct cmd_stream *st)
{
	if (st->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		st->drawn = 0;
	}
}

static void *
ticker(void *arg)
{
	struct cmd_stream	*st = arg;
	struct timespec		 ts;

	pthread_mutex_lock(&st->lock);
	while (!st->stop) {
		draw(st);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += (long)TICK_MS * 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		while (!st->stop && pthread_cond_timedwait(&st->cond,
		    &st->lock, &ts) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

/* Prints one row on the terminal: its cells made visible. */
static void
put_row(struct cmd_stream *st, const void *res)
{
	const char	*cells[32], *show[32];
	char		*vis[32];
	size_t		 c, nc = st->t->ncols;

	memset(cells, 0, sizeof(cells));
	st->row(res, cells);
	for (c = 0; c < nc; c++) {
		vis[c] = NULL;
		show[c] = cells[c] != NULL ? cells[c] : "";
		if (lab_visible_needed(show[c]) &&
		    (vis[c] = lab_visible(show[c])) != NULL)
			show[c] = vis[c];
	}
	table_tty_row(st->t, stdout, show, st->w, 0);
	fflush(stdout);
	for (c = 0; c < nc; c++)
		free(vis[c]);
}

/* A target finished (under the run's lock): its row, then the count. */
static void
finished(void *arg, size_t i, const void *res)
{
	struct cmd_stream	*st = arg;

	(void)i;
	pthread_mutex_lock(&st->lock);
	st->done++;
	/* the k-th to finish lets target fanout + k - 1 start */
	if (st->fanout + st->done - 1 < st->names->n)
		st->last_start = st->ctx->monotonic_ms();
	if (st->rows) {
		erase(st);
		put_row(st, res);
	}
	draw(st);
	pthread_mutex_unlock(&st->lock);
}

/* The columns' widths: the names', the given ones, the rest for the last. */
static void
widths(struct cmd_stream *st, size_t cols)
{
	const struct table	*t = st->t;
	size_t			 c, used = 0, k, len;

	for (c = 0; c < t->ncols && c < 32; c++) {
		st->w[c] = st->widths != NULL ? st->widths[c] : 0;
		if (c == 0) {
			st->w[0] = lab_text_width(t->cells[0]);
			for (k = 0; k < st->names->n; k++)
				if ((len = lab_text_width(st->names->v[k])) >
				    st->w[0])
					st->w[0] = len;
		}
		if (st->w[c] < lab_text_width(t->cells[c]))
			st->w[c] = lab_text_width(t->cells[c]);
		if (c + 1 < t->ncols)
			used += st->w[c] + 2;
	}
	c = t->ncols - 1;
	st->w[c] = cols > used + LAST_MIN ? cols - used : LAST_MIN;
}

void
cmd_stream_start(struct cmd_stream *st, struct lab_ctx *ctx)
{
	size_t	cols = table_tty_width();

	st->ctx = ctx;
	st->done = 0;
	st->stop = st->drawn = st->ticking = 0;
	if (st->fanout == 0)
		st->fanout = 64;
	st->rows = st->t != NULL && st->row != NULL && !st->json &&
	    cols > 0 && st->t->ncols > 0 && st->t->ncols <= 32;
	st->progress = isatty(STDERR_FILENO) && st->names->n > 1;
	st->start = st->last_start = ctx->monotonic_ms();
	pthread_mutex_init(&st->lock, NULL);
	if (st->rows) {
		widths(st, cols);
		table_tty_row(st->t, stdout, st->t->cells, st->w, 1);
		fflush(stdout);
	}
	if (st->rows || st->progress) {
		ctx->finished = finished;
		ctx->finished_arg = st;
	}
	if (st->progress) {
		pthread_condattr_t	attr;

		pthread_condattr_init(&attr);
		pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
		pthread_cond_init(&st->cond, &attr);
		pthread_condattr_destroy(&attr);
		/* no thread, no ticker: the line is drawn as targets finish */
		st->ticking = pthread_create(&st->tid, NULL, ticker, st) == 0;
		if (!st->ticking) {
			pthread_mutex_lock(&st->lock);
			draw(st);
			pthread_mutex_unlock(&st->lock);
		}
	}
}

void
cmd_stream_stop(struct cmd_stream *st)
{
	if (st->ctx == NULL)
		return;
	if (st->progress) {
		pthread_mutex_lock(&st->lock);
		st->stop = 1;
		pthread_cond_signal(&st->cond);
		pthread_mutex_unlock(&st->lock);
		if (st->ticking)
			pthread_join(st->tid, NULL);
		st->ticking = 0;
		pthread_cond_destroy(&st->cond);
	}
	erase(st);
	pthread_mutex_destroy(&st->lock);
	st->ctx = NULL;
}

void
cmd_failures(struct lab_call *call, const struct lab_fail *f, size_t nfail,
    size_t total, int verbose)
{
	struct lab_buf	 b;
	char		*w;
	size_t		 i;

	if (nfail == 0)
		return;
	if (verbose) {
		for (i = 0; i < nfail; i++)
			cmd_host_failed(call, f[i].host, f[i].msg);
		return;
	}
	lab_buf_init(&b);
	lab_fail_summary(&b, call->label, f, nfail, total);
	if (b.s != NULL && !b.oom)
		fputs(b.s, stderr);
	else
		/* no memory for the summary: one line a host, as before */
		for (i = 0; i < nfail; i++)
			fprintf(stderr, "lab: %s: %s: %s\n", call->label,
			    cmd_vis(f[i].host), cmd_vis(f[i].msg));
	lab_buf_release(&b);
	if (call->failed == 0) {
		/* the audit log's: the first "HOST: REASON", URLs hidden */
		w = lab_url_redact(f[0].msg);
		snprintf(call->audit_msg, sizeof(call->audit_msg), "%s: %s",
		    f[0].host, w != NULL ? w : "?");
		lab_utf8_trim(call->audit_msg);
		free(w);
	}
	call->failed += nfail;
}
