/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_REPORT_ROWS_H
#define LAB_DB_REPORT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "lab/db.h"
#include "lab/err.h"

/*
 * The rows lib/report/ builds the report from, read by lib/db/report.c
 * and lib/db/report-changes.c: the only SQL of the report. Each loader
 * calls fn once a row, in the order the report shows them, with strings
 * that live until fn returns (NULL for SQL NULL). fn copies what it
 * keeps and returns -1 when out of memory, which ends the loader with
 * an out-of-memory error. Rows of other tables name their host or
 * switch by its id.
 */

/* Hosts by name, with their BMC, power state and last provisioning. */
struct lab_db_report_host {
	int64_t		 id;
	const char	*name;
	const char	*model;
	const char	*role;
	const char	*bmc_type;	/* NULL: no BMC */
	const char	*bmc_address;
	int		 bmc_port;
	const char	*bmc_credential;	/* the name, never the secret */
	int		 bmc_cipher_suite;
	const char	*bmc_workarounds;	/* space-separated, or NULL */
	const char	*bmc_privilege;
	int		 bmc_timeout_ms;
	int		 bmc_retransmit_ms;
	const char	*power_error;	/* why the last check failed */
	const char	*power;		/* NULL: unknown */
	int64_t		 power_seen;
	int64_t		 power_checked;
	int		 bmc_reachable;
	const char	*last_run;	/* "kind layout status when (run id)" */
};

/* Group memberships by host id, in the host's order. */
struct lab_db_report_group {
	int64_t		 host_id;
	const char	*name;
};

/* NICs by host id, with the link last seen (switch_name NULL: none). */
struct lab_db_report_nic {
	int64_t		 host_id;
	const char	*name;
	const char	*mac;
	const char	*switch_name;
	const char	*port;
	int64_t		 last_seen;
	/* the NIC's VLAN wish (schema 013); set: 0 when none */
	int		 vlan_set;
	int64_t		 vlan_access;
	const char	*vlan_trunk;	/* "10 20", or NULL */
	int64_t		 vlan_native;
	int		 vlan_tagged;
};

/* Disks by host id, with where the last storage run put them. */
struct lab_db_report_disk {
	int64_t		 host_id;
	const char	*slot;
	const char	*kind;
	uint64_t	 size_bytes;
	const char	*controller;
	const char	*member_of;
};

/* Switches by name. */
struct lab_db_report_switch {
	int64_t		 id;
	const char	*name;
	const char	*model;
	const char	*descr;
	int64_t		 discovered_at;
};

/* Ports by switch id and ifindex, with what the report says of them. */
struct lab_db_report_port {
	int64_t		 switch_id;
	int64_t		 ifindex;
	const char	*name;
	const char	*alias;
	const char	*oper_status;
	long long	 speed_mbps;
	const char	*duplex;
	int		 speed_suspect;
	const char	*vlan;		/* PVID, else untagged VLAN ids */
	const char	*lag;		/* the port-channel it is a member of */
	const char	*host;		/* the hosts linked at the last walk */
	const char	*nic;
	const char	*neighbor;	/* "protocol: device port" */
	int		 type;		/* IANAifType; 0 unknown */
};

/* The switches' findings, by switch name. */
struct lab_db_report_finding {
	const char	*severity;
	const char	*subject;
	const char	*message;
};

/* The last 20 lines of the audit log, oldest first. */
struct lab_db_report_audit {
	int64_t		 time;
	const char	*user;
	const char	*argv;
	int		 result;
	const char	*message;
};

/* MACs on a switch that no inventory NIC owns, by switch and MAC. */
struct lab_db_report_mac {
	const char	*switch_name;
	const char	*mac;		/* lower case */
	const char	*port;		/* its name, else its ifindex, else ? */
};

int	lab_db_report_hosts(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_host *), void *arg,
	    struct lab_err *err);
int	lab_db_report_groups(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_group *), void *arg,
	    struct lab_err *err);
int	lab_db_report_nics(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_nic *), void *arg,
	    struct lab_err *err);
int	lab_db_report_disks(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_disk *), void *arg,
	    struct lab_err *err);
int	lab_db_report_switches(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_switch *), void *arg,
	    struct lab_err *err);
int	lab_db_report_ports(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_port *), void *arg,
	    struct lab_err *err);
int	lab_db_report_findings(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_finding *), void *arg,
	    struct lab_err *err);
int	lab_db_report_audit(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_audit *), void *arg,
	    struct lab_err *err);
int	lab_db_report_macs(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_mac *), void *arg,
	    struct lab_err *err);

/* A report run: its id, time and how many facts its snapshot holds. */
struct lab_db_report_run {
	int64_t		 id;
	int64_t		 time;
	int64_t		 facts;
};

/*
 * The baseline of a report: run id when id is not 0, else the last report
 * run, or the last at or before before when that is not 0: its id, time
 * and snapshot (caller-owned). 0, 0 and NULL when there is none.
 */
int	lab_db_report_baseline(struct lab_db *, int64_t id, int64_t before,
	    int64_t *ret_id, int64_t *when, char **snapshot,
	    struct lab_err *err);
/* The report runs, oldest first. */
int	lab_db_report_runs(struct lab_db *,
	    int (*fn)(void *, const struct lab_db_report_run *), void *arg,
	    struct lab_err *err);
/* Records a report run: its time and snapshot; its id in *id. */
int	lab_db_report_record(struct lab_db *, int64_t when,
	    const char *snapshot, int64_t *id, struct lab_err *err);

/*
 * Whether the subject had a fact first seen at or before before (the
 * report's Drift section lists a new fact only of a subject it knew:
 * lib/db/facts.c).
 */
int	lab_db_report_fact_known(struct lab_db *, const char *kind,
	    const char *subject, int64_t before, int *known,
	    struct lab_err *err);

#endif
