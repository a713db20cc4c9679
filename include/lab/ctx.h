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
	/*
	 * Called as each target finishes, from a worker thread but never
	 * two at once; may be NULL. done counts finished targets.
	 */
	void	(*progress)(void *arg, const char *host, size_t done,
		    size_t total);
	void	*progress_arg;
};

#endif
