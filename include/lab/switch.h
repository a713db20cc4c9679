/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SWITCH_H
#define LAB_SWITCH_H

#include <stddef.h>
#include <stdint.h>

#include "lab/cred.h"
#include "lab/ctx.h"
#include "lab/db.h"
#include "lab/err.h"
#include "lab/facts.h"
#include "lab/inventory.h"
#include "lab/snmp.h"
#include "lab/mib.h"

/*
 * Switch discovery: what one switch says over SNMP (system, ports, MAC
 * table, VLANs, LAGs, CDP/LLDP neighbours), which inventory NIC is on
 * which port (links), and what needs a human (findings).
 */

/* One switch's answer to a discovery. */
struct lab_switch_view {
	char				*name;	/* the inventory's switch */
	int				 ok;	/* the whole walk succeeded */
	struct lab_err			 err;
	struct lab_snmp_system		 sys;
	struct lab_snmp_ports		 ports;
	struct lab_snmp_bridge		 bridge;
	struct lab_snmp_fdb		 fdb;
	struct lab_snmp_vlans		 vlans;
	struct lab_snmp_lags		 lags;
	struct lab_snmp_neighbors	 nbrs;
	struct lab_snmp_stats		 stats;
	int64_t				 elapsed_ms;
	/* ENTITY-MIB and sysDescr (issue 20); findings: known issues */
	struct lab_switch_facts		 facts;
	/* why the facts were not stored (discovery still ok), or NULL */
	char				*facts_note;
};

/* Which NIC is on which port. */
struct lab_link {
	char		*host;
	char		*nic;
	char		 mac[18];
	char		*switch_name;
	unsigned long	 ifindex;
	char		*port;		/* the port's name */
	const char	*source;	/* "fdb" */
};

struct lab_links {
	struct lab_link	*v;
	size_t		 n;
};

/* Something that needs a human. */
struct lab_finding {
	const char	*severity;	/* "critical", "warning", "info" */
	const char	*kind;		/* "slow-port", "nic-moved", ... */
	char		*subject;	/* "sg200 gi1/0/3", "microserver1 eth0" */
	char		*message;
};

struct lab_findings {
	struct lab_finding	*v;
	size_t			 n;
};

/* A link found by an earlier discovery, to tell a NIC that moved. */
struct lab_link_seen {
	char		*host;
	char		*nic;
	char		*switch_name;
	char		*port;
};

struct lab_links_seen {
	struct lab_link_seen	*v;
	size_t			 n;
};

/* What a discovery asks for; zero is the default. */
struct lab_switch_req {
	int	timeout_ms;	/* per SNMP request; 0: the inventory's, else 1 s */
	int	retries;	/* -1: the inventory's, else 2 */
	int	max_varbinds;	/* per GETBULK answer; 0: 60 */
	size_t	fanout;
	/* the whole discovery of one switch; 0: LAB_SWITCH_DEADLINE_S */
	int	deadline_s;
	/* what the switch facts are matched against (NULL: nothing) */
	const struct lab_known_issues	*known;
};

/* A discovery that has not ended by then fails (--deadline). */
#define LAB_SWITCH_DEADLINE_S	120

/*
 * Discovers the named switches of inv in parallel. creds holds their
 * communities or v3 users. *ret (n views, in the order of names) is
 * caller-owned (lab_switch_views_free). Returns -1 only when the run
 * could not start; a switch that fails has ok = 0 and its err set, and
 * nothing of its walk is kept.
 */
int	lab_switch_discover(const struct lab_ctx *, const struct lab_inventory *,
	    const struct lab_strv *names, const struct lab_creds *,
	    const struct lab_switch_req *, struct lab_switch_view **ret,
	    struct lab_err *err);
void	lab_switch_views_free(struct lab_switch_view *, size_t n);

/* Fills t from a switch's inventory settings, its credential and req;
 * strings are borrowed from sw and creds. */
int	lab_switch_target(const struct lab_switch *, const struct lab_creds *,
	    const struct lab_switch_req *, struct lab_snmp_target *t,
	    struct lab_err *err);

/* One port description to write. */
struct lab_alias_change {
	unsigned long	 ifindex;
	char		*port;
	char		*from;		/* as last discovered */
	char		*to;		/* "host nic" */
	int		 done;
	struct lab_err	 err;
};

struct lab_alias_changes {
	struct lab_alias_change	*v;
	size_t			 n;
};

/* The descriptions that differ from the inventory, from the last
 * discovery of the switch. */
int	lab_switch_sync_plan(struct lab_db *, const char *switch_name,
	    struct lab_alias_changes *ret, struct lab_err *err);
/* Writes them by SNMP SET; each change gets done or its err. Updates the
 * stored alias of each port written. Returns -1 when no session could be
 * opened. */
int	lab_switch_sync_apply(struct lab_db *, const struct lab_switch *,
	    const struct lab_creds *, const struct lab_switch_req *,
	    struct lab_alias_changes *, int64_t now, struct lab_err *err);
void	lab_alias_changes_release(struct lab_alias_changes *);

/* The port of a view with this ifindex, or NULL. */
const struct lab_snmp_port *lab_switch_port(const struct lab_switch_view *,
	    unsigned long ifindex);

/*
 * Matches the inventory's NIC MACs against a view's MAC table. Ports that
 * carry more than a few MACs, or a CDP/LLDP neighbour, or are LAGs, are
 * uplinks and never give a host link. Adds to links and findings; seen
 * holds the previous discovery's links (may be empty).
 */
int	lab_switch_analyse(const struct lab_inventory *,
	    const struct lab_switch_view *, const struct lab_links_seen *seen,
	    struct lab_links *links, struct lab_findings *findings,
	    struct lab_err *err);
/*
 * A model mismatch: the declared model (a catalogue switch, not
 * generic-switch) is not named by sysDescr. 1 and a finding's subject and
 * message (caller-owned), 0 and NULLs when it agrees or nothing tells, -1
 * out of memory.
 */
int	lab_switch_model_check(const struct lab_switch *,
	    const struct lab_switch_view *, char **subject, char **message);
void	lab_links_release(struct lab_links *);
void	lab_findings_release(struct lab_findings *);
void	lab_links_seen_release(struct lab_links_seen *);

/* The links stored by earlier discoveries (of every switch). */
int	lab_db_links_seen(struct lab_db *, const char *switch_name,
	    struct lab_links_seen *ret, struct lab_err *err);
/* The links of one host's NICs (lab show). */
int	lab_db_links_of(struct lab_db *, const char *host,
	    struct lab_links_seen *ret, struct lab_err *err);
/*
 * Stores a successful view with its links and findings, in one
 * transaction, replacing the switch's previous ports, FDB, VLANs, LAGs
 * and neighbours; links keep their first-seen time.
 */
int	lab_db_switch_store(struct lab_db *, const struct lab_switch_view *,
	    const struct lab_links *, const struct lab_findings *, int64_t now,
	    struct lab_err *err);

/* What a collect gives, one entry a switch in the order of names. */
struct lab_switch_collected {
	struct lab_switch_view	*views;		/* ok = 0: err says why */
	struct lab_links	*links;		/* what analyse found */
	struct lab_findings	*findings;
	size_t			 n;
};

/*
 * Discovers the named switches, analyses each answer against the links
 * of earlier discoveries and stores it at now: the one switch workflow of
 * lab switch discover and report --collect. A switch whose walk, analysis
 * or store fails has ok = 0 and its err set, and nothing of it is stored.
 * Returns -1 (ret empty) only when the run could not start; ret is
 * caller-owned (lab_switch_collected_release).
 */
int	lab_switch_collect(const struct lab_ctx *, struct lab_db *,
	    const struct lab_inventory *, const struct lab_strv *names,
	    const struct lab_creds *, const struct lab_switch_req *,
	    int64_t now, struct lab_switch_collected *ret,
	    struct lab_err *err);
void	lab_switch_collected_release(struct lab_switch_collected *);

/* A port as the last discovery stored it, with the host on it. */
struct lab_port_row {
	unsigned long	 ifindex;
	char		*name;
	char		*alias;
	char		*oper_status;
	char		*admin_status;
	long long	 speed_mbps;
	char		*duplex;
	char		*host;		/* NULL: no inventory NIC on it */
	char		*nic;
	int		 speed_suspect;
};

struct lab_port_rows {
	struct lab_port_row	*v;
	size_t			 n;
	int64_t			 discovered_at;	/* 0: never discovered */
};

/* The ports of a switch's last discovery, with hosts. */
int	lab_db_switch_ports(struct lab_db *, const char *switch_name,
	    struct lab_port_rows *ret, struct lab_err *err);
void	lab_port_rows_release(struct lab_port_rows *);
/* The findings of a switch's last discovery. */
int	lab_db_switch_findings(struct lab_db *, const char *switch_name,
	    struct lab_findings *ret, struct lab_err *err);
/*
 * Records the descriptions of c that the switch took (done); a row that
 * fails sets that change's err. -1 only when nothing could be recorded.
 */
int	lab_db_switch_aliases_record(struct lab_db *, const char *switch_name,
	    struct lab_alias_changes *c, int64_t now, struct lab_err *err);
/* The static string for a finding kind read back from the database. */
const char *lab_finding_kind_static(const char *);

/*
 * A switch's facts (lib/switch-facts.c, issue 20). The facts of a view
 * as sorted keys "version", "entity.INDEX.{class,descr,name,model,serial,
 * hardware_rev,firmware_rev,software_rev}", and back.
 */
int	lab_switch_facts_flatten(const struct lab_switch_facts *,
	    struct lab_fact_kv **ret, size_t *n, struct lab_err *err);
int	lab_switch_facts_unflatten(const struct lab_fact_kv *, size_t n,
	    struct lab_switch_facts *, struct lab_err *err);
/* Adds a finding to sf for each known issue of kis (may be NULL) that a
 * chassis's model and software revision (else the version) match. */
int	lab_switch_facts_check(const struct lab_switch *,
	    const struct lab_known_issues *kis, struct lab_switch_facts *sf,
	    struct lab_err *err);
/* Checks and stores the facts of a successful view; a failure is no
 * discovery's: it sets v->facts_note. */
void	lab_switch_facts_record(struct lab_db *, const struct lab_switch *,
	    const struct lab_known_issues *kis, struct lab_switch_view *v,
	    int64_t now);
/* The facts and findings of a switch's last discovery (lab show). */
int	lab_switch_facts_load(struct lab_db *, const char *name,
	    struct lab_switch_facts *, struct lab_err *err);

#endif
