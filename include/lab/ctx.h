/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CTX_H
#define LAB_CTX_H

#include <stddef.h>
#include <stdint.h>

/*
 * What the library gets from its caller instead of reading the clock or
 * the terminal itself: cmd/ fills it, tests fill it with fakes.
 */
struct lab_ctx {
	/* A monotonic clock in milliseconds (deadlines, elapsed times). */
	int64_t	(*monotonic_ms)(void);
	/* Wall time, seconds since the epoch (what the database stores). */
	int64_t	(*wall)(void);
	/* The home directory ($HOME), or NULL: the password file's. */
	const char	*home;
	/*
	 * Called as each target finishes, from a worker thread but never
	 * two at once; may be NULL. done counts finished targets.
	 */
	void	(*progress)(void *arg, const char *host, size_t done,
		    size_t total);
	void	*progress_arg;
	/*
	 * Called as each target finishes, just before progress and under
	 * the same lock, with the target's index (in the order given) and
	 * its finished result (the run's own result type): what cmd/ prints
	 * as rows arrive. May be NULL.
	 */
	void	(*finished)(void *arg, size_t i, const void *res);
	void	*finished_arg;
};

/* The real clocks (lib/core/ctx.c). */
int64_t	lab_clock_monotonic_ms(void);
int64_t	lab_clock_wall(void);

/*
 * Fills ctx with the real clocks and $HOME (NULL when unset or empty),
 * and no progress callback.
 */
void	lab_ctx_init(struct lab_ctx *);

/*
 * A shared ctx filled by lab_ctx_init() on first use: what a library
 * function given a NULL ctx uses.
 */
const struct lab_ctx *lab_ctx_default(void);

#endif
