/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_RUNS_H
#define LAB_DB_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "lab/db.h"
#include "lab/err.h"
#include "lab/owner.h"
#include "lab/plan.h"
#include "lab/provision.h"

/*
 * The record of a provisioning run (lib/db/provision.c), for
 * lib/provision.c: what is stored comes in as plain values, the times
 * (wall clock, seconds) included, so the database reads no clock.
 */

/*
 * Stores the run of plan (plan_json: the plan rendered as JSON, NULL:
 * "{}") as running since now, owned by owner, with every step not yet
 * run. In the same transaction (BEGIN IMMEDIATE), first: the host's
 * runs whose owner is gone are marked abandoned, and a run of the host
 * still in progress refuses this one (LAB_EXIT_PARTIAL, nothing stored).
 */
int	lab_db_run_begin(struct lab_db *, const struct lab_plan *,
	    const char *plan_json, const struct lab_owner *owner,
	    int64_t now, int64_t *run_id, struct lab_err *);
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

/*
 * Marks abandoned the running runs of host (NULL: every host) whose owner
 * is gone (lab_owner_gone). In its own transaction unless one is open;
 * a database that cannot be written is left as it is (returns 0): the
 * readers call it before they read.
 */
int	lab_db_runs_reap(struct lab_db *, const char *host, struct lab_err *);
/* In an open transaction: lab_db_runs_reap, then -1 (LAB_EXIT_PARTIAL)
   when a run of host is still in progress. */
int	lab_db_run_lock(struct lab_db *, const char *host, struct lab_err *);

#endif
