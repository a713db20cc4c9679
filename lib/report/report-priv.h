/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_REPORT_PRIV_H
#define LAB_REPORT_PRIV_H

#include "lab/report.h"

/* Adds a finding; -1 on allocation failure. */
int	 lab_report_finding_push(struct lab_report *, const char *severity,
	    const char *subject, const char *message);
/* Reads each host's last done bench run and its disks' history, and
 * appends the findings of those runs to *out (disks.c). */
int	 lab_report_disks(struct lab_db *, struct lab_report *,
	    struct lab_bench_findings *out, struct lab_err *err);
/* Frees what lab_report_disks set on h. */
void	 lab_report_disks_free(struct lab_report_host *h);
/* The text and markdown Disks sections (disks-text.c): nothing when no
 * host has a bench run. */
void	 lab_report_disks_text(const struct lab_report *, struct lab_buf *);
void	 lab_report_disks_markdown(const struct lab_report *,
	    struct lab_buf *);
/* The HTML Disks section (disks-html.c); nothing when no host has a
 * bench run. */
void	 lab_report_disks_html(const struct lab_report *, struct lab_buf *);
/* 1 when some host has a bench run: the report has a Disks section. */
int	 lab_report_has_disks(const struct lab_report *);
/* Fills r->snapshot (and r->unknown_macs) from the report and the
 * switches' MAC tables (changes.c). */
int	 lab_report_snapshot(struct lab_db *, struct lab_report *,
	    struct lab_err *err);
/* Lists the changes since the baseline: run since_run when it is not 0
 * (LAB_EXIT_INPUT when there is no such run), else the last run, or the
 * last at or before since_time when that is not 0. */
int	 lab_report_changes(struct lab_db *, struct lab_report *,
	    int64_t since_run, int64_t since_time, struct lab_err *err);

/* The report's "Switch changes" (switch-applies.c): the failed, refused
 * and unsaved VLAN applies; nothing when there is none. */
struct lab_json;
void	lab_report_switch_applies_text(const struct lab_report *,
	    struct lab_buf *);
void	lab_report_switch_applies_json(const struct lab_report *,
	    struct lab_json *);
void	lab_report_switch_applies_html(const struct lab_report *,
	    struct lab_buf *);

/* The Drift section (drift.c): loaded after the changes (it needs the
 * baseline); each renderer writes nothing when it has nothing. */
int	lab_report_drift(struct lab_db *, struct lab_report *,
	    struct lab_err *err);
void	lab_report_drift_free(struct lab_report *);
void	lab_report_drift_text(const struct lab_report *, struct lab_buf *);
void	lab_report_drift_markdown(const struct lab_report *,
	    struct lab_buf *);
void	lab_report_drift_html(const struct lab_report *, struct lab_buf *);
void	lab_report_drift_json(const struct lab_report *, struct lab_json *);
/* 1 when the report has a Drift section. */
int	lab_report_has_drift(const struct lab_report *);

/* The Shares section (shares.c): the declared NFS exports and iSCSI
 * LUNs with their clients and the hosts that mount them; each renderer
 * writes nothing when no host has a share. */
int	lab_report_has_shares(const struct lab_report *);
void	lab_report_shares_text(const struct lab_report *, struct lab_buf *);
void	lab_report_shares_markdown(const struct lab_report *,
	    struct lab_buf *);
void	lab_report_shares_html(const struct lab_report *, struct lab_buf *);
void	lab_report_shares_json(const struct lab_report *, struct lab_json *);

#endif
