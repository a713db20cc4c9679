/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_REPORT_PRIV_H
#define LAB_REPORT_PRIV_H

#include "lab/report.h"

/* Adds a finding; -1 on allocation failure. */
int	 lab_report_finding_push(struct lab_report *, const char *severity,
	    const char *subject, const char *message);
/* Fills r->snapshot (and r->unknown_macs) from the report and the
 * switches' MAC tables (changes.c). */
int	 lab_report_snapshot(struct lab_db *, struct lab_report *,
	    struct lab_err *err);
/* Lists the changes since the baseline: run since_run when it is not 0
 * (LAB_EXIT_INPUT when there is no such run), else the last run, or the
 * last at or before since_time when that is not 0. */
int	 lab_report_changes(struct lab_db *, struct lab_report *,
	    int64_t since_run, int64_t since_time, struct lab_err *err);

#endif
