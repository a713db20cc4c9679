/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_VLAN_H
#define LAB_VLAN_H

#include <stddef.h>
#include <stdint.h>

#include "lab/cred.h"
#include "lab/ctx.h"
#include "lab/db.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/mib.h"
#include "lab/snmp.h"
#include "lab/switch.h"

/*
 * VLANs on the switch from the inventory (lab switch plan|apply|probe).
 *
 * Membership rules, the same for a NIC's wish and a ports: entry:
 *   vlan: V              access port: untagged member of V only, PVID V
 *                        (Cisco SB mode access where the agent has it).
 *   vlans: [L], native: N
 *                        trunk: tagged member of every VLAN of L but N,
 *                        untagged member of N, PVID N; N defaults to 1,
 *                        and 1 may be left out of L (vlans: [10, 20],
 *                        native: 1 is valid); any other N must be in L.
 *   tagged: true         (NIC only) the host tags the VLANs itself: the
 *                        port is a trunk as above (vlan: V alone gives a
 *                        trunk with V tagged, native 1), and the network
 *                        planner renders NIC.V interfaces.
 * A port with no wish is untouched. VLAN ids are 1..4094.
 *
 * Layers: the wants and the diff are pure (lib/plan), the live state,
 * its encoding into SETs and their execution are lib/snmp, the stored
 * probes and applies lib/db, and lib/vlan-plan.c and lib/vlan-apply.c
 * tie them together for cmd/switch-plan.c and cmd/switch-apply.c.
 */

/* A port's mode (CISCOSB vlanPortModeState); NONE: no Cisco SB MIB. */
enum lab_port_mode {
	LAB_PORT_MODE_NONE = 0,
	LAB_PORT_MODE_GENERAL,
	LAB_PORT_MODE_ACCESS,
	LAB_PORT_MODE_TRUNK,
	LAB_PORT_MODE_OTHER,	/* customer, private VLAN, ... */
};

/* "general", "access", "trunk", "other", "-" (static). */
const char	*lab_port_mode_name(enum lab_port_mode);

/* One port as the switch has it now. */
struct lab_vlan_port {
	unsigned long		 ifindex;
	unsigned long		 bridge_port;	/* 0: not a bridge port */
	char			*name;		/* ifName */
	char			*alias;		/* ifAlias ("" when absent) */
	enum lab_port_mode	 mode;
	int			 is_lag;	/* a port-channel itself */
	unsigned long		 pvid;		/* 0: unknown */
	unsigned long		 access_vlan;	/* Cisco SB access VLAN, 0 */
	unsigned long		 trunk_native;	/* Cisco SB native VLAN, 0 */
	unsigned long		 lag;		/* ifindex of its LAG, 0 */
};

/*
 * What one switch has now, read live over SNMP (lab_vlan_read): its
 * VLANs (dot1qVlanStaticTable, lists as ifindex sets), its ports (only
 * bridge ports and LAGs), and which MIBs answered.
 */
struct lab_vlan_state {
	struct lab_snmp_vlans	 vlans;		/* .pvid is not used: ports */
	struct lab_vlan_port	*ports;		/* sorted by ifindex */
	size_t			 nports;
	struct lab_snmp_bridge	 bridge;
	size_t			 list_len;	/* octets of a PortList */
	int			 has_qbridge;	/* static table + dot1qPvid */
	int			 has_ciscosb;	/* vlanPortModeState */
	size_t			 nvlans_known;	/* VLANs the last discovery
						   saw (0: unknown): sizes
						   the fast read's walk */
	char			*mgmt_address;	/* the address we reached */
	struct lab_snmp_stats	 stats;		/* what the read cost */
};

void	lab_vlan_state_release(struct lab_vlan_state *);
/* The port with this ifindex / ifName, or NULL. */
const struct lab_vlan_port *lab_vlan_state_port(const struct lab_vlan_state *,
	    unsigned long ifindex);
const struct lab_vlan_port *lab_vlan_state_port_named(
	    const struct lab_vlan_state *, const char *name);
/* The VLAN with this id, or NULL. */
const struct lab_snmp_vlan *lab_vlan_state_vlan(const struct lab_vlan_state *,
	    unsigned long id);

/*
 * Reads the VLAN state of one agent (sess is open on it). Fails when
 * neither the Q-BRIDGE static table nor dot1qPvid answers (err: "no
 * Q-BRIDGE-MIB VLAN table").
 */
int	lab_vlan_read(struct lab_snmp *sess, struct lab_vlan_state *ret,
	    struct lab_err *err);

/*
 * The fast read, over st holding the structure of the last discovery
 * (lab_db_vlan_ports): lab_vlan_read_vlans walks the VLAN static table
 * only (names, port lists decoded through the stored map);
 * lab_vlan_read_ports then GETs, for the ports ifx only, what
 * lab_vlan_read reads of every port (PVID, the Cisco SB mode; ifAlias,
 * the access and the native VLAN where need[i] asks) and checks the stored structure of each
 * against the agent (dot1dBasePortIfIndex, ifName, its LAG). Both
 * return 1 when the structure is stale (a port list sets a bridge port
 * the map lacks, a port moved, renamed or (un)bundled): the caller then
 * reads everything with lab_vlan_read. Other ports keep pvid 0.
 */
int	lab_vlan_read_vlans(struct lab_snmp *, struct lab_vlan_state *st,
	    struct lab_err *err);
/* What a port's read needs besides the checks, the PVID and the mode. */
enum {
	LAB_VLAN_READ_ALIAS = 1,	/* a description is wanted */
	LAB_VLAN_READ_ACCESS = 2,	/* Cisco SB access VLAN */
	LAB_VLAN_READ_NATIVE = 4,	/* Cisco SB trunk native VLAN */
	LAB_VLAN_READ_ALL = 7,
};
/* need[i] for ifx[i] (NULL: all of it). */
int	lab_vlan_read_ports(struct lab_snmp *, struct lab_vlan_state *st,
	    const unsigned long *ifx, const unsigned *need, size_t n,
	    struct lab_err *err);

/* PortList helpers: octet i bit 7 is bridge port 8i+1 (MSB first). */
int	lab_portlist_has(const unsigned char *list, size_t len,
	    unsigned long bridge_port);
void	lab_portlist_set(unsigned char *list, size_t len,
	    unsigned long bridge_port, int on);

/* ---- wants: lib/plan/vlan-want.c ---- */

/* What one port should be, from the inventory. */
struct lab_port_want {
	unsigned long		 ifindex;
	char			*port;		/* the switch's ifName */
	enum lab_port_mode	 mode;		/* ACCESS or TRUNK */
	unsigned long		 pvid;		/* = untagged VLAN */
	unsigned long		*tagged;	/* sorted, unique, no pvid */
	size_t			 ntagged;
	char			*description;	/* "host nic", the entry's, or
						 * NULL: leave it */
	char			*host;		/* whose wish, or NULL: ports: */
	char			*nic;
	struct lab_loc		 loc;		/* where it was declared */
};

struct lab_port_wants {
	struct lab_port_want	*v;		/* sorted by ifindex */
	size_t			 n;
};

void	lab_port_wants_release(struct lab_port_wants *);

/*
 * The wants of one switch sw: each NIC's wish applied to the port links
 * put it on, and sw's ports: entries, matched to state's ports by name.
 * Conflicts are LAB_EXIT_INPUT errors naming file:line:col: two NICs on
 * one port asking for different VLANs, a NIC wish and a ports: entry
 * that disagree, a port the switch does not have, a VLAN id out of
 * 1..4094, a trunk whose native VLAN is not in its list. Descriptions
 * are "host nic" for a linked NIC (what switch sync writes).
 */
int	lab_vlan_wants(const struct lab_inventory *, const struct lab_switch *sw,
	    const struct lab_links_seen *links, const struct lab_vlan_state *,
	    struct lab_port_wants *ret, struct lab_err *err);

/* ---- the plan: lib/plan/vlan-diff.c ---- */

/* A VLAN to create, rename or delete. */
struct lab_vlan_action {
	unsigned long	 id;
	char		*name;		/* the declared name */
	char		*from;		/* the switch's name, or NULL */
	const char	*action;	/* "create", "rename", "delete" */
};

/* One value of a port that changes. */
struct lab_port_change {
	unsigned long	 ifindex;
	char		*port;
	const char	*what;		/* "mode", "pvid", "untagged",
					 * "tagged", "description" */
	char		*from;		/* "1", "10,20", "" for none */
	char		*to;
};

/* A port lab leaves as it is, and why ("no wish", "uplink", ...). */
struct lab_port_untouched {
	unsigned long	 ifindex;
	char		*port;
	char		*why;
};

/* What a port should become, whole (the encoder's input). */
struct lab_port_target {
	unsigned long		 ifindex;
	unsigned long		 bridge_port;
	enum lab_port_mode	 mode;		/* NONE: no Cisco SB */
	unsigned long		 pvid;
	unsigned long		*untagged;	/* sorted */
	size_t			 nuntagged;
	unsigned long		*tagged;	/* sorted */
	size_t			 ntagged;
	char			*description;	/* or NULL: unchanged */
};

/* The plan of one switch. */
struct lab_switch_plan {
	char			*switch_name;
	int			 ok;
	struct lab_err		 err;
	unsigned long		 mgmt_vlan;
	struct lab_vlan_action	*vlans;
	size_t			 nvlans;
	struct lab_port_change	*changes;	/* by port, then what */
	size_t			 nchanges;
	struct lab_port_untouched *untouched;
	size_t			 nuntouched;
	struct lab_port_target	*targets;	/* the changed ports */
	size_t			 ntargets;
	/* what the plan read live: every port (whole), or only the VLAN
	 * table and the changed ports over the stored structure */
	int			 read_whole;
	struct lab_snmp_stats	 read_stats;
	/*
	 * Changes apply refuses without --force: the management VLAN off
	 * an uplink, a LAG member, or the port the management address is
	 * reached through. One line each, "gi1/0/24: ...".
	 */
	struct lab_strv		 refused;
	struct lab_strv		 notes;
	char			*mgmt_port;	/* its name, NULL: unknown */
	/* why the management port is unknown (so that check did not
	 * run), or NULL; a note of --json only (lib/vlan-mgmt.c) */
	char			*mgmt_unknown;
};

struct lab_vlan_diff_opts {
	int			 prune;		/* delete undeclared VLANs */
	unsigned long		 mgmt_vlan;	/* 0: 1 */
	/* uplink ports (ifindex): the declared and the found ones */
	const unsigned long	*uplinks;
	size_t			 nuplinks;
	/* the port the management address is reached through, 0 */
	unsigned long		 mgmt_port;
};

/*
 * The diff between sw's declaration (VLANs and wants) and state. Pure:
 * reads nothing. A switch that matches has no vlans, changes, targets.
 */
int	lab_vlan_diff(const struct lab_switch *sw, const struct lab_port_wants *,
	    const struct lab_vlan_state *, const struct lab_vlan_diff_opts *,
	    struct lab_switch_plan *ret, struct lab_err *err);
void	lab_switch_plan_release(struct lab_switch_plan *);

/* ---- the SETs: lib/snmp/vlan-exec.c ---- */

/* Phases, in the order apply sends them. */
enum lab_vlan_phase {
	LAB_VLAN_PHASE_CREATE = 0,	/* new rows, createAndGo, names */
	LAB_VLAN_PHASE_RENAME,
	LAB_VLAN_PHASE_MODE,		/* Cisco SB port modes */
	LAB_VLAN_PHASE_ADD,		/* egress/untagged with additions */
	LAB_VLAN_PHASE_PVID,		/* dot1qPvid, SB access/native */
	LAB_VLAN_PHASE_REMOVE,		/* the final lists */
	LAB_VLAN_PHASE_DELETE,		/* destroy (--prune) */
	LAB_VLAN_PHASE_DESCR,		/* ifAlias */
	LAB_VLAN_NPHASES,
};

const char	*lab_vlan_phase_name(enum lab_vlan_phase);

enum lab_write_state {
	LAB_WRITE_PENDING = 0,
	LAB_WRITE_DONE,		/* set and read back equal */
	LAB_WRITE_FAILED,	/* the SET or its read-back failed */
	LAB_WRITE_RESTORED,	/* done, then put back after a failure */
	LAB_WRITE_LEFT,		/* done, and putting it back failed */
};

/* One value to write. */
struct lab_vlan_write {
	enum lab_vlan_phase	 phase;
	char			*what;		/* "gi1/0/7 pvid", "VLAN 20 name" */
	struct lab_snmp_value	 to;
	struct lab_snmp_value	 before;	/* read just before the change */
	enum lab_write_state	 state;
	struct lab_err		 err;
};

struct lab_vlan_writes {
	struct lab_vlan_write	*v;		/* in phase order */
	size_t			 n;
	int			 before_known;	/* every before is filled
						   from the plan's read:
						   lab_vlan_exec reads none */
};

void	lab_vlan_writes_release(struct lab_vlan_writes *);

/*
 * The SETs that turn state into plan: each VLAN action and port target,
 * in phases, Cisco SB values only where state has the MIB.
 */
int	lab_vlan_encode(const struct lab_switch_plan *,
	    const struct lab_vlan_state *, struct lab_vlan_writes *ret,
	    struct lab_err *err);

/*
 * Sends w phase by phase, up to max_varbinds a SET PDU (0: 64) and
 * under 1300 octets of varbinds, halved for the session when the agent
 * says tooBig; first reads every value's before (unless
 * w->before_known: the plan read them moments ago); after each phase
 * reads the values back and compares. On a failure puts back every done
 * value (newest first) and returns -1 with err naming what failed; the
 * states say what is left changed.
 */
int	lab_vlan_exec(struct lab_snmp *, struct lab_vlan_writes *w,
	    int max_varbinds, struct lab_err *err);

/* ---- probe and save: lib/snmp/vlan-probe.c, vlan-save.c ---- */

struct lab_vlan_probe {
	int		 qbridge;	/* static table and dot1qPvid answer */
	int		 ciscosb;	/* vlanPortModeState answers */
	int		 copy;		/* rlCopyTable answers */
	int		 writable;	/* the no-op SET was taken */
	char		*why;		/* when not writable: the agent's error */
	int64_t		 at;		/* when (lab_db_vlan_probe_get) */
};

void	lab_vlan_probe_release(struct lab_vlan_probe *);

/* Walks the tables and SETs one current value to itself (dot1qPvid of
 * the first port, else ifAlias). */
int	lab_vlan_probe(struct lab_snmp *, struct lab_vlan_probe *ret,
	    struct lab_err *err);

/* Copies running-config to startup-config (CISCOSB rlCopyTable) and
 * waits for it (at most timeout_ms). */
int	lab_vlan_save(struct lab_snmp *, int timeout_ms, struct lab_err *err);

/* ---- the workflows: lib/vlan-plan.c, lib/vlan-apply.c ---- */

struct lab_vlan_req {
	struct lab_switch_req	 sw;		/* timeout, retries, fanout */
	int			 prune;
	int			 force;		/* apply the refused too */
	int			 no_save;
	int			 max_varbinds;	/* per SET PDU; 0: 16 */
};

/*
 * Plans the named switches in parallel: reads each live, the links of
 * its last discovery, the wants and the diff. One plan a name; a switch
 * that fails has ok = 0 and its err. An inventory conflict fails the
 * whole call (LAB_EXIT_INPUT, file:line:col), nothing planned.
 */
int	lab_switch_vlan_plan(const struct lab_ctx *, struct lab_db *,
	    const struct lab_inventory *, const struct lab_strv *names,
	    const struct lab_creds *, const struct lab_vlan_req *,
	    struct lab_switch_plan **ret, struct lab_err *err);

/* The outcome of one switch's apply. */
struct lab_switch_result {
	struct lab_switch_plan	 plan;
	struct lab_vlan_writes	 writes;
	int			 ok;		/* all written and read back */
	int			 refused;	/* nothing sent: refusals */
	int			 saved;		/* startup config written */
	int			 nothing;	/* the plan was empty */
	struct lab_err		 err;
	int64_t			 apply_id;	/* its history row, 0 */
	struct lab_snmp_stats	 stats;
	int64_t			 elapsed_ms;
};

/*
 * Plans and applies the named switches: the stored probe (else a probe
 * now) must say writable; refusals stop a switch unless force; then
 * encode, exec, save unless no_save; every apply (failed, refused and
 * unsaved too) is recorded with before and after per port. ret: one
 * result a name, caller-owned (lab_switch_results_free).
 */
int	lab_switch_vlan_apply(const struct lab_ctx *, struct lab_db *,
	    const struct lab_inventory *, const struct lab_strv *names,
	    const struct lab_creds *, const struct lab_vlan_req *,
	    const char *user, struct lab_switch_result **ret,
	    struct lab_err *err);
void	lab_switch_results_free(struct lab_switch_result *, size_t n);

/* Probes one switch and stores what it found. */
int	lab_switch_vlan_probe(const struct lab_ctx *, struct lab_db *,
	    const struct lab_switch *, const struct lab_creds *,
	    const struct lab_vlan_req *, struct lab_vlan_probe *ret,
	    struct lab_err *err);

/* ---- the database: lib/db/vlan.c ---- */

int	lab_db_vlan_probe_store(struct lab_db *, const char *switch_name,
	    const struct lab_vlan_probe *, int64_t now, struct lab_err *err);
/* 0 and ret->at = 0 when the switch was never probed. */
int	lab_db_vlan_probe_get(struct lab_db *, const char *switch_name,
	    struct lab_vlan_probe *ret, struct lab_err *err);
/*
 * The uplinks (ifindexes, caller frees) the last discovery found:
 * a switch-like CDP/LLDP neighbour, more than 3 MACs, a LAG or its
 * members (lib/db/vlan-uplinks.c). None when never discovered.
 */
/*
 * The structure of sw's ports as its last discovery stored it, into ret
 * (zeroed first): the bridge ports and LAGs sorted by ifindex with names,
 * the bridge port map, each LAG member's LAG; pvid, alias and modes are
 * not known (0, ""). Nothing (nports 0) when the discovery stored no
 * bridge ports (none, or before schema version 015). Release with
 * lab_vlan_state_release.
 */
int	lab_db_vlan_ports(struct lab_db *, const char *switch_name,
	    struct lab_vlan_state *ret, struct lab_err *err);
int	lab_db_vlan_uplinks(struct lab_db *, const char *switch_name,
	    unsigned long **ret, size_t *retn, struct lab_err *err);

/*
 * The port (ifindex) the last discovery learned mac on: its row in the
 * management VLAN vlan first, then another VLAN's (lib/db/vlan-mgmt.c).
 * *ret 0 when the MAC is not in the stored MAC table.
 */
int	lab_db_vlan_mac_port(struct lab_db *, const char *switch_name,
	    const char *mac, unsigned long vlan, unsigned long *ret,
	    struct lab_err *err);

/*
 * The port a switch's management address is reached through
 * (lib/vlan-mgmt.c): where its stored MAC table has the source MAC of
 * our frames to sw->address (lab_peer_mac). 0 and *note (caller frees:
 * "management port unknown: ...") when that cannot be told; a database
 * error is -1.
 */
int	lab_switch_mgmt_port(struct lab_db *, const struct lab_switch *sw,
	    unsigned long *ret, char **note, struct lab_err *err);

/* One stored apply, as history and the report show it. */
struct lab_switch_apply_row {
	int64_t		 id;
	char		*switch_name;
	int64_t		 at;
	char		*user;
	char		*status;	/* "ok", "failed", "refused" */
	int		 saved;
	char		*message;	/* what failed or was left, or NULL */
	struct lab_port_change *changes;	/* before and after */
	size_t		 nchanges;
	/* per change: "done", "failed", "restored", "left", "refused"
	 * (static strings; the array is the row's) */
	const char	**states;
};

struct lab_switch_apply_rows {
	struct lab_switch_apply_row	*v;	/* newest first */
	size_t				 n;
};

void	lab_switch_apply_rows_release(struct lab_switch_apply_rows *);

/* Records one apply with its changes (states from r->writes); sets
 * r->apply_id. */
int	lab_db_switch_apply_record(struct lab_db *, struct lab_switch_result *r,
	    const char *user, int64_t now, struct lab_err *err);
/*
 * The applies of a switch (NULL: every switch) since a time, newest
 * first; problems_only: only failed, refused or unsaved ones that no
 * later ok and saved apply of their switch made good (the report).
 */
int	lab_db_switch_applies(struct lab_db *, const char *switch_name,
	    int64_t since, int problems_only, size_t limit,
	    struct lab_switch_apply_rows *ret, struct lab_err *err);

#endif
