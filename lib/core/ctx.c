/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The clocks and the environment, read here only: the rest of lib/ gets
 * them through a struct lab_ctx. See include/lab/ctx.h.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab/ctx.h"

static pthread_once_t	default_once = PTHREAD_ONCE_INIT;
static struct lab_ctx	default_ctx;

/* A monotonic clock in milliseconds, for deadlines and elapsed times. */
int64_t
lab_clock_monotonic_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wall time, seconds since the epoch. */
int64_t
lab_clock_wall(void)
{
	return (int64_t)time(NULL);
}

void
lab_ctx_init(struct lab_ctx *ctx)
{
	const char	*home = getenv("HOME");

	memset(ctx, 0, sizeof(*ctx));
	ctx->monotonic_ms = lab_clock_monotonic_ms;
	ctx->wall = lab_clock_wall;
	ctx->home = home != NULL && *home != '\0' ? home : NULL;
}

static void
default_init(void)
{
	lab_ctx_init(&default_ctx);
}

const struct lab_ctx *
lab_ctx_default(void)
{
	pthread_once(&default_once, default_init);
	return &default_ctx;
}
