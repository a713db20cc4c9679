/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_REPORT_H
#define LAB_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "lab/bench.h"
#include "lab/db.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/str.h"

struct lab_switch_apply_row;
struct lab_stored_finding;
struct lab_fact_event;

struct lab_bmc;

/*
 * The nightly inventory report: a model built from the database alone (no
 * protocol work: `lab report --collect` refreshes the data first through
 * the same library calls as the commands), and renderers for it. Every
 * part may be missing (no power data, no switch discovered yet): the model
 * says so rather than failing. All strings are owned by the report.
 */

struct lab_report_nic {
	char		*name;
	char		*mac;
	char		*switch_name;	/* NULL: not seen on a switch */
	char		*port;
	int64_t		 last_seen;	/* 0 when never */
	struct lab_vlan_want vlan;	/* .trunk from malloc; no locs */
};

struct lab_report_disk {
	char		*slot;
	char		*kind;
	uint64_t	 size_bytes;
	char		*controller;
	char		*member_of;	/* pool or array, NULL when none known */
};

/* A point of a series the report draws as a sparkline. */
struct lab_report_point {
	int64_t		 time;
	double		 value;		/* power: 1 on, 0 off */
	int		 known;		/* 0: unknown (a BMC that failed) */
};

/* One sensor's readings over the report window, oldest first. */
struct lab_report_series {
	char			*name;		/* "MB Temp" */
	char			*unit;		/* "degrees C", or NULL */
	struct lab_report_point	*v;
	size_t			 n;
};

struct lab_report_host {
	char			*name;
	char			*model;		/* the catalogue id */
	char			*model_name;	/* "HP ProLiant MicroServer N40L" */
	char			*role;
	struct lab_strv		 groups;
	char			*bmc;		/* "rac 192.0.2.21:623", NULL: none */
	char			*power;		/* "on", "off", NULL: unknown */
	int64_t			 power_seen;	/* when the BMC last answered */
	int64_t			 power_checked;	/* when lab last asked; 0 never */
	int			 bmc_reachable;	/* at power_checked */
	struct lab_bmc		*bmc_info;	/* the BMC's one shape, NULL: none */
	char			*power_error;	/* why the last check failed */
	struct lab_report_nic	*nics;
	size_t			 nnics;
	struct lab_report_disk	*disks;
	size_t			 ndisks;
	char			*last_run;	/* last provisioning run, or NULL */
	/* over the window (since the baseline, else 30 days), oldest first */
	struct lab_report_point	*power_history;
	size_t			 npower_history;
	struct lab_report_series *temperatures;	/* by sensor name */
	size_t			 ntemperatures;
	/* the Disks section: the host's last done bench run (NULL: none),
	   and per disk of it its last runs by serial (at most
	   LAB_REPORT_BENCH_RUNS, oldest first, this one included) */
	struct lab_bench_run	*bench;
	struct lab_bench_disks	*bench_history;
};

#define LAB_REPORT_BENCH_RUNS	20
/* The most VLAN applies the report lists (Switch changes). */
#define LAB_REPORT_SWITCH_APPLIES	20

struct lab_report_port {
	unsigned long	 ifindex;
	char		*name;
	char		*alias;
	char		*oper_status;	/* "up", "down", "notPresent", ... */
	long long	 speed_mbps;
	char		*duplex;
	int		 speed_suspect;
	char		*vlan;		/* PVID, else untagged VLAN id(s), or NULL */
	char		*lag;		/* the port-channel it is in, or NULL */
	char		*host;		/* the inventory host on it, or NULL */
	char		*nic;
	char		*neighbor;	/* "cdp: device port", or NULL */
	int		 type;		/* IANAifType (6 ethernet); 0 unknown */
};

struct lab_report_switch {
	char			*name;
	char			*model;
	char			*model_name;
	int			 model_ports;	/* from the catalogue; 0 unknown */
	char			*descr;		/* sysDescr, NULL: never discovered */
	int64_t			 discovered_at;	/* 0: never */
	struct lab_report_port	*ports;		/* by ifindex */
	size_t			 nports;
	/* its VLAN declarations (issue 19), in the report's declared */
	const struct lab_switch	*decl;
};

struct lab_report_change {
	char	*kind;		/* "host-added", "power", "nic-moved", ... */
	char	*subject;	/* "microserver1", "microserver1 eth0" */
	char	*message;	/* "off -> on" */
};

struct lab_report_finding {
	char	*severity;	/* "critical", "warning", "info" */
	char	*kind;		/* a disk's: "slow-disk", ...; else NULL */
	char	*subject;
	char	*message;
};

struct lab_report_audit {
	int64_t	 time;
	char	*user;
	char	*argv;
	int	 result;
	char	*message;
};

struct lab_report {
	int64_t				 generated_at;
	int64_t				 previous_run;	/* 0: no baseline */
	int64_t				 previous_id;	/* its report run id */
	int64_t				 history_since;	/* the series' window */
	struct lab_report_host		*hosts;
	size_t				 nhosts;
	struct lab_report_switch	*switches;
	size_t				 nswitches;
	struct lab_inventory		*declared;	/* switches, shares */
	struct lab_report_change	*changes;
	size_t				 nchanges;
	struct lab_report_finding	*findings;	/* most severe first */
	size_t				 nfindings;
	struct lab_report_audit		*audit;		/* newest last */
	size_t				 naudit;
	/* The facts lab_report_record stores, to compare the next run with
	 * (lines "kind\tfield..."): hosts, power, links, ports, MACs, disks. */
	char				*snapshot;
	size_t				 unknown_macs;	/* on any switch */
	/* The HTML's links to its neighbours in a folder of reports
	 * (lab_report_pages_find): set paged to draw them; names owned. */
	int				 paged;
	char				*page_prev;	/* NULL: none */
	char				*page_next;	/* NULL: none yet */
	/* The latest done pool settings run of each host and pool
	 * (lab bench --pool; include/lab/bench-pool.h). */
	struct lab_pool_run		*pools;
	size_t				 npools;
	/* The failed, refused and unsaved VLAN applies no later ok and
	 * saved apply of their switch made good (include/lab/vlan.h),
	 * newest first. */
	struct lab_switch_apply_row	*switch_applies;
	size_t				 nswitch_applies;
	/* The Drift section (lab facts, include/lab/facts.h): the findings
	 * of each host's and switch's last facts run, and the changes of
	 * facts since the baseline (none without one; a new fact only of a
	 * subject known before it), oldest first. */
	struct lab_stored_finding	*drift_findings;
	size_t				 ndrift_findings;
	struct lab_fact_event		*drift_changes;
	size_t				 ndrift_changes;
};

/* The summary counts every renderer shows. */
struct lab_report_summary {
	size_t	hosts;
	size_t	power_on;
	size_t	power_off;
	size_t	power_unknown;		/* a BMC, but no state known */
	size_t	no_bmc;
	size_t	bmc_unreachable;
	size_t	switches;
	size_t	switches_discovered;
	size_t	ports;
	size_t	ports_up;
	size_t	unknown_macs;
	size_t	changes;
	size_t	critical;
	size_t	warning;
	size_t	info;
};

/*
 * Adds a finding of the caller's (a BMC or switch that did not answer a
 * collect), keeping the findings most severe first.
 */
int	lab_report_add_finding(struct lab_report *, const char *severity,
	    const char *subject, const char *message, struct lab_err *err);
/* Adds n findings of one severity at once (one sort, not n). */
int	lab_report_add_findings(struct lab_report *, const char *severity,
	    char *const *subjects, char *const *messages, size_t n,
	    struct lab_err *err);

/* Counts the report's hosts, switches, changes and findings. */
void	lab_report_summarise(const struct lab_report *,
	    struct lab_report_summary *ret);

/*
 * Builds the report from the database at time now; it reads the database
 * only. Changes are those since the baseline: report run since_run when it
 * is not 0 (LAB_EXIT_INPUT when there is none), else the last recorded
 * run at or before since_time (seconds since the epoch) when that is not
 * 0, else the last recorded run. *ret is caller-owned (lab_report_free).
 */
int	lab_report_build(struct lab_db *, int64_t now, int64_t since_run,
	    int64_t since_time, struct lab_report **ret, struct lab_err *err);
/* Records a report run (a snapshot the next report's changes compare
 * against): the baseline. Its id in *id. */
int	lab_report_record(struct lab_db *, const struct lab_report *,
	    int64_t *id, struct lab_err *err);

/* A recorded report run. */
struct lab_report_run {
	int64_t	id;
	int64_t	time;
	size_t	facts;		/* what its snapshot holds */
};

/* The recorded report runs, oldest first; *ret is caller-owned (free). */
int	lab_report_runs(struct lab_db *, struct lab_report_run **ret,
	    size_t *n, struct lab_err *err);
void	lab_report_free(struct lab_report *);

/* Renderers: each appends the whole document to out. */
void	lab_report_text(const struct lab_report *, struct lab_buf *out);
void	lab_report_markdown(const struct lab_report *, struct lab_buf *out);
/* One self-contained HTML page (inline CSS and SVG; no script needed). */
void	lab_report_html(const struct lab_report *, struct lab_buf *out);
/* {generated_at, previous_run, baseline {id, time} or null, summary,
 * hosts, switches, changes, findings [severity, subject, message],
 * audit, drift {findings, changes} when either has one}. */
void	lab_report_json(const struct lab_report *, struct lab_buf *out);

/*
 * A node_exporter textfile (lib/report/prom.c): findings by host,
 * severity and kind, drift findings and fact changes by host, power
 * states, BMC reachability, link speeds, the last bench figures.
 */
void	lab_report_prometheus(const struct lab_report *, struct lab_buf *out);

/* What marks an HTML page as one of lab's reports (in its <head>), and
 * what holds its "next" link, which a later page may rewrite. */
#define LAB_REPORT_MARKER	"<meta name=\"generator\" content=\"lab report\">"
#define LAB_REPORT_NEXT_OPEN	"<!--lab-next-->"
#define LAB_REPORT_NEXT_CLOSE	"<!--/lab-next-->"

/*
 * The neighbours of the page out (a path ending in .html) in its folder:
 * the regular files *.html (not symlinks) carrying LAB_REPORT_MARKER,
 * the latest name before out's in *prev and the first after it in
 * *next (caller-owned, NULL when none). Nothing when out exists and is
 * not a regular file. -1 only when out of memory.
 */
int	lab_report_pages_find(const char *out, char **prev, char **next,
	    struct lab_err *err);
/*
 * Points the "next" link of page prev (a name in out's folder) at out:
 * only when prev still carries the marker and the next-link comments,
 * only between them, through a temp file and a rename (keeping its mode).
 * A page that is not lab's is left untouched (0).
 */
int	lab_report_pages_link_next(const char *out, const char *prev,
	    struct lab_err *err);

#endif
