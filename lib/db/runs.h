/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_RUNS_H
#define LAB_DB_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "lab/db.h"
#include "lab/err.h"
#include "lab/plan.h"
#include "lab/provision.h"

/*
 * The record of a provisioning run (lib/db/provision.c), for
 * lib/provision.c: what is stored comes in as plain values, the times
 * (wall clock, seconds) included, so the database reads no clock.
 */

/*
 * Stores the run of plan (plan_json: the plan rendered as JSON, NULL:
 * "{}") as running since now, with every step not yet run.
 */
int	lab_db_run_begin(struct lab_db *, const struct lab_plan *,
	    const char *plan_json, int64_t now, int64_t *run_id,
	    struct lab_err *);
/* Stores that step i started at now. */
int	lab_db_run_step_begin(struct lab_db *, int64_t run_id, size_t i,
	    int64_t now, struct lab_err *);
/* Stores how step i ended, at now. */
int	lab_db_run_step_end(struct lab_db *, int64_t run_id, size_t i,
	    const struct lab_step_result *, int64_t now, struct lab_err *);
/*
 * Stores how the run ended at now: status, the failed step (unless done)
 * and message (NULL or "": none); a done run also says where each of the
 * plan's disks now is.
 */
int	lab_db_run_end(struct lab_db *, const struct lab_plan *,
	    int64_t run_id, enum lab_run_status, size_t failed_step,
	    const char *message, int64_t now, struct lab_err *);

#endif
