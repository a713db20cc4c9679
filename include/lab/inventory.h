/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_INVENTORY_H
#define LAB_INVENTORY_H

#include <stddef.h>
#include <stdint.h>

#include "lab/err.h"
#include "lab/str.h"

/*
 * The lab's declared shape: what the inventory YAML says and what the
 * database holds. All strings are owned by the inventory (its pool). Optional
 * strings are NULL when absent.
 */

/* Where a thing was declared; file points into lab_inventory.files. */
struct lab_loc {
	const char	*file;
	int		 line;
	int		 col;
};

struct lab_bmc {
	char		*type;		/* rac | ilo2 | ipmi */
	char		*address;
	int		 port;		/* default 623 */
	char		*credential;	/* a name in the credentials file */
	int		 cipher_suite;	/* default 3; 0 is refused */
	struct lab_strv	 workarounds;	/* FreeIPMI words: "opensesspriv" */
	char		*privilege;	/* user | operator | admin, or NULL */
	int		 timeout_ms;	/* session timeout; 0: the default */
	int		 retransmit_ms;	/* 0: the default */
	struct lab_loc	 loc;
};

/*
 * The VLANs a port should carry (include/lab/vlan.h has the rules): on a
 * NIC for the port discovery linked it to, or on a switch's ports: entry.
 * All zero: nothing declared, the port is left alone.
 */
struct lab_vlan_want {
	unsigned long	 access;	/* vlan: N, an access port; 0: none */
	unsigned long	*trunk;		/* vlans: [N, ...], a trunk */
	size_t		 ntrunk;
	unsigned long	 native;	/* native: N (0: 1, the default) */
	int		 tagged;	/* tagged: true: the host tags them */
	int		 set;		/* vlan: or vlans: was written */
	struct lab_loc	 loc;		/* of vlan: or vlans: */
	struct lab_loc	 native_loc;	/* of native: */
};

struct lab_nic {
	char		*name;
	char		*mac;		/* "00:26:55:d1:0a:01" */
	struct lab_vlan_want vlan;
	struct lab_loc	 loc;
};

struct lab_disk {
	char		*slot;		/* "1", "odd" */
	char		*kind;		/* sata | sas | ssd | nvme */
	uint64_t	 size_bytes;
	char		*controller;	/* "onboard", "sc44ge", ... or NULL */
	char		*device;	/* path on the host, or NULL */
	int		 boot;		/* holds the running system */
	struct lab_loc	 loc;
};

/* How lab reaches a host over SSH (provisioning). */
struct lab_ssh_cfg {
	char		*address;
	int		 port;		/* default 22 */
	char		*user;		/* default "root" */
	char		*identity;	/* private key file, or NULL: agent */
	char		*known_hosts;	/* or NULL: ~/.ssh/known_hosts */
	int		 legacy_crypto;	/* allow iLO 2's old algorithms */
	struct lab_loc	 loc;
};

/* The host's own address, moved to a bond or bridge by provisioning. */
struct lab_netcfg {
	char		*address;	/* "192.0.2.30/24", or NULL: DHCP */
	char		*gateway;	/* or NULL */
	struct lab_strv	 dns;
	struct lab_loc	 loc;
};

/*
 * A share the host serves (shares:, issue 21): an NFS export of a ZFS
 * dataset or an LV, or an iSCSI LUN on a zvol or an LV.
 */
struct lab_share {
	char		*name;
	char		*protocol;	/* nfs | iscsi */
	char		*pool;		/* a ZFS pool, or NULL */
	char		*vg;		/* an LVM volume group, or NULL */
	char		*path;		/* nfs: the exported folder */
	uint64_t	 size_bytes;	/* iscsi: the LUN; nfs on a vg: the
					   LV; 0: none (a dataset) */
	char		*iqn;		/* iscsi: the target; NULL: the
					   host's default */
	int		 sparse;	/* iscsi on a pool: a sparse zvol */
	struct lab_strv	 clients;	/* nfs: CIDR, IP, host, @group */
	struct lab_strv	 options;	/* nfs: export options; none: the
					   default (lab_share_nfs_default) */
	struct lab_strv	 properties;	/* nfs on a pool: "key=value" */
	struct lab_strv	 initiators;	/* iscsi: IQNs or host names */
	struct lab_loc	 loc;
	struct lab_loc	 size_loc;	/* of size:, when given */
};

/* A share a host uses (mounts:): "nas:vmstore" on path. */
struct lab_mount {
	char		*share;		/* "HOST:NAME" */
	char		*path;		/* nfs: the mount point; iscsi: NULL */
	struct lab_strv	 options;	/* none: the default */
	struct lab_loc	 loc;
};

struct lab_host {
	char		*name;
	char		*model;
	char		*role;
	struct lab_strv	 groups;	/* in declared order */
	struct lab_bmc	*bmc;		/* NULL: no BMC */
	struct lab_ssh_cfg *ssh;	/* NULL: not reachable over SSH */
	struct lab_netcfg *network;	/* NULL: not declared */
	struct lab_nic	*nics;
	size_t		 nnics;
	struct lab_disk	*disks;
	size_t		 ndisks;
	struct lab_loc	 loc;
	/* issue 21 */
	struct lab_share *shares;	/* in the order written */
	size_t		 nshares;
	struct lab_mount *mounts;
	size_t		 nmounts;
	char		*initiator;	/* iscsi_initiator: its IQN, or NULL */
};

struct lab_snmp {
	char		*version;	/* "1", "2c" or "3" */
	char		*credential;
	char		*context;	/* SNMPv3 context, or NULL */
	int		 timeout_ms;	/* 0: the default */
	int		 retries;	/* -1: the default */
};

/* A VLAN the switch should have (vlans: [{id: 20, name: storage}]). */
struct lab_switch_vlan {
	unsigned long	 id;		/* 1..4094 */
	char		*name;		/* or NULL: keep the switch's */
	struct lab_loc	 loc;
};

/* A port with no host of ours (ports: [{port: gi7, vlan: 20}]). */
struct lab_switch_port {
	char		*port;		/* ifName ("gi7", "gi1/0/7") */
	char		*description;	/* or NULL: leave ifAlias alone */
	struct lab_vlan_want vlan;
	struct lab_loc	 loc;
};

struct lab_switch {
	char		*name;
	char		*model;
	char		*address;
	int		 port;		/* default 161 */
	struct lab_snmp	 snmp;
	struct lab_switch_vlan *vlans;	/* in the order written */
	size_t		 nvlans;
	struct lab_switch_port *ports;
	size_t		 nports;
	unsigned long	 management_vlan;	/* 0: 1, the default */
	struct lab_strv	 uplinks;	/* port names, besides the found ones */
	struct lab_loc	 loc;
};

/* A group declared under groups: (hosts may name groups not declared). */
struct lab_group {
	char		*name;
	char		*description;
	struct lab_loc	 loc;
};

/* A warning found while loading: the inventory contradicts its model. */
struct lab_warning {
	struct lab_loc	 loc;
	char		*msg;
};

struct lab_known_issues;

struct lab_inventory {
	/*
	 * Every string, vector and sub-struct of the hosts, switches and
	 * groups lives here, freed with the inventory, never one by one.
	 */
	struct lab_pool		 pool;
	struct lab_host		*hosts;
	size_t			 nhosts;
	struct lab_switch	*switches;
	size_t			 nswitches;
	struct lab_group	*groups;
	size_t			 ngroups;
	struct lab_warning	*warnings;
	size_t			 nwarnings;
	struct lab_strv		 files;		/* owns the loc file names */
	/*
	 * The known_issues: of the files (include/lab/facts.h; issue 20),
	 * NULL when none has any; freed with the inventory.
	 */
	struct lab_known_issues	*known;
};

/* An empty inventory, or NULL when out of memory. */
struct lab_inventory	*lab_inventory_new(void);
/* Frees an inventory; NULL is a no-op. */
void			 lab_inventory_free(struct lab_inventory *);
/* For LAB_CLEANUP. */
void			 lab_inventory_freep(struct lab_inventory **);

/*
 * Loads YAML files into inv, which may already hold earlier files:
 * duplicates across files are found. paths may name files or folders
 * (every *.yaml and *.yml in a folder, in name order). On error (exit 2
 * for bad input, naming file:line:column; 3 when a file cannot be read)
 * returns -1; inv is then in an unspecified but freeable state.
 */
int	lab_inventory_load(struct lab_inventory *inv, char *const *paths,
	    size_t npaths, struct lab_err *err);

/* Loads YAML from memory, as if read from a file called name. */
int	lab_inventory_load_buf(struct lab_inventory *inv, const char *name,
	    const char *buf, size_t len, struct lab_err *err);

/* Sorts hosts, switches and groups by name (the database's order). */
void	lab_inventory_sort(struct lab_inventory *);

/* The host named name, or NULL. */
struct lab_host		*lab_inventory_host(const struct lab_inventory *,
			    const char *name);
/* The switch named name, or NULL. */
struct lab_switch	*lab_inventory_switch(const struct lab_inventory *,
			    const char *name);
/*
 * The same for a fan-out over names (lab_fanout_job_init(), from the
 * inventory): NULL sets err to "unknown host 'name'" or "unknown switch
 * 'name' (see 'lab ls switches')".
 */
const void	*lab_inventory_find_host(const void *inv, const char *name,
		    struct lab_err *err);
const void	*lab_inventory_find_switch(const void *inv, const char *name,
		    struct lab_err *err);

/*
 * Every group name: declared ones and those hosts name, sorted, unique.
 * Returns -1 when out of memory.
 */
int	lab_inventory_group_names(const struct lab_inventory *,
	    struct lab_strv *ret, struct lab_err *err);

/*
 * Writes the inventory as YAML that lab_inventory_load reads back to the
 * same inventory. *ret is caller-owned.
 */
int	lab_inventory_to_yaml(const struct lab_inventory *, char **ret,
	    struct lab_err *err);

/*
 * The VLAN declarations compared and written as text (lib/inventory/
 * vlan-want.c). The _eq functions ignore where things were written.
 */
int	lab_vlan_want_eq(const struct lab_vlan_want *,
	    const struct lab_vlan_want *);
/* vlans, ports, management_vlan and uplinks of two switches alike. */
int	lab_switch_vlans_eq(const struct lab_switch *,
	    const struct lab_switch *);
/* The ids of w->trunk joined by sep ("10,20"), caller-owned; NULL: OOM. */
char	*lab_vlan_list_join(const struct lab_vlan_want *w, const char *sep);
/*
 * Parses ids separated by spaces or commas (as joined above) into
 * w->trunk, from the pool; ids out of 1..4094 are skipped. -1: OOM.
 */
int	lab_vlan_list_parse(struct lab_pool *, const char *s,
	    struct lab_vlan_want *w);
/* The same with w->trunk from malloc (the caller frees it). */
int	lab_vlan_list_parse_alloc(const char *s, struct lab_vlan_want *w);
/* "vlan 20", "vlans 10,20 native 1 (tagged by the host)", "" (unset). */
char	*lab_vlan_want_text(const struct lab_vlan_want *w);
/*
 * The same as a table cell, appended to b: "20" (access), "20,30 native
 * 1" (trunk), then " tagged" when the host tags them; nothing when unset.
 */
void	lab_vlan_want_cell(const struct lab_vlan_want *w, struct lab_buf *b);

/*
 * Shares (issue 21, lib/inventory/shares.c). The words of YAML's
 * protocol: and properties:, the NFS export options used when none are
 * written, and the NFS mount options of a client likewise
 * (NULL-terminated).
 */
extern const char *const lab_share_protocols[];
extern const char *const lab_share_properties[];
extern const char *const lab_share_nfs_default[];
extern const char *const lab_mount_nfs_default[];
/* Is s an NFS export option lab knows ("rw", "anonuid=1000")? */
int	lab_nfs_option_known(const char *s);
/* 0 when s is an iSCSI name (iqn.YYYY-MM.authority[:id], eui., naa.);
   -1 with *why set otherwise. */
int	lab_check_iqn(const char *s, const char **why);
/* The target IQN of a share: its iqn, or iqn.2026-12.lab.local:HOST. */
void	lab_share_iqn(const struct lab_host *, const struct lab_share *,
	    char *buf, size_t len);
/* The share "HOST:NAME" of the inventory, or NULL; *server its host. */
const struct lab_share *lab_inventory_share(const struct lab_inventory *,
	    const char *ref, const struct lab_host **server);
/*
 * Where a client of an NFS share is: a CIDR or IP as written, a host's
 * address (its network: address without the prefix, else its ssh:
 * address), each host of @group. Appended to out (caller-owned
 * strings); -1 with err (naming loc) when one cannot be resolved.
 */
int	lab_share_clients(const struct lab_inventory *,
	    const struct lab_share *, struct lab_strv *out,
	    struct lab_err *err);

#endif
