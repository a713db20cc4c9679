/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_REPORT_HISTORY_PRIV_H
#define LAB_REPORT_HISTORY_PRIV_H

#include "lab/json.h"
#include "lab/report.h"
#include "core/idx.h"

/*
 * Fills each host's power_history and temperatures over the window
 * (r->history_since: the baseline's time, else 30 days back), hids
 * mapping host ids to r->hosts (history.c). Needs r->previous_run set.
 */
int	lab_report_history(struct lab_db *, struct lab_report *,
	    const struct lab_idx *hids, struct lab_err *err);
/* The host's sparklines in its facts list (HTML). */
void	lab_report_html_history(const struct lab_report_host *,
	    struct lab_buf *);
/* The host's power_history and temperatures members (JSON). */
void	lab_report_json_history(struct lab_json *,
	    const struct lab_report_host *);
/* Frees a host's series. */
void	lab_report_history_free(struct lab_report_host *);

#endif
