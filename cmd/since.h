/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CMD_SINCE_H
#define CMD_SINCE_H

#include <stdint.h>

#include "lab/err.h"
#include "lab.h"

/*
 * --since WHEN (cmd/since.c): a report run id ("12"), a time
 * ("2026-11-30T18:00:00Z", "2026-11-30") or hours or days back ("24h",
 * "7d"). -1 when s is none of them.
 */
int	cmd_parse_since(const char *s, int64_t now, int64_t *run,
	    int64_t *time_ret);
/* The same as one time (a run id: the time that run was recorded); 0
 * when s is NULL. -1 with err (exit 2) when s is not valid. Needs the
 * database open for a run id. */
int	cmd_since_time(struct lab_call *, const char *s, int64_t *ret,
	    struct lab_err *err);

#endif
