/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_PLAN_H
#define LAB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/json.h"
#include "lab/str.h"

/*
 * Provisioning plans. A planner is a pure function: a host from the
 * inventory and a request in, a plan out. Nothing is contacted; facts
 * read off the target (does its ZFS have lz4?) come in the request.
 */

enum lab_step_kind {
	LAB_STEP_CHECK,		/* a read-only shell check; non-zero stops */
	LAB_STEP_RUN,		/* a shell command (or short script) */
	LAB_STEP_WRITE,		/* a file written whole, atomically */
};

struct lab_step {
	enum lab_step_kind	 kind;
	char			*text;		/* CHECK/RUN: shell; WRITE: path */
	char			*content;	/* WRITE: the file's bytes */
	int			 mode;		/* WRITE: e.g. 0644 */
	char			*comment;	/* one line shown above, or NULL */
	int			 reconnect;	/* run on a new SSH connection */
	int			 timeout_s;	/* 0: the default */
};

/* Where a disk goes: "tank/mirror-0", "md0", "vg0". */
struct lab_plan_member {
	char	*slot;
	char	*member_of;
};

/* A thing the plan makes that holds data: a pool, a volume group, ... */
struct lab_plan_volume {
	char			*name;		/* "tank", "vg00", "md0" */
	char			*what;		/* "zfs raid10", "lvm vg on md1" */
	uint64_t		 bytes;		/* its usable capacity */
};

struct lab_plan {
	char			*host;
	char			*kind;		/* "storage" | "network" */
	char			*layout;	/* "raid10", "active-backup", ... */
	struct lab_step		*steps;
	size_t			 nsteps;
	uint64_t		 usable_bytes;	/* storage; 0 for network */
	struct lab_strv		 warnings;
	int			 placeholders;	/* a disk lacks its device */
	int			 rollback_s;	/* network: 0 or the window */
	struct lab_plan_member	*members;	/* storage: each disk used */
	size_t			 nmembers;
	/* added after the first draft */
	struct lab_plan_volume	*volumes;	/* storage: what holds data */
	size_t			 nvolumes;
	char			*staging;	/* network: the folder on the
						   target holding the new
						   files and scripts, or NULL */
};

/*
 * A read-only command that tells whether the target's ZFS has lz4: exit 0
 * yes (zfs_lz4 = 1), 1 no, an older pool version such as zfs-fuse's 23
 * (zfs_lz4 = 0), anything else unknown (-1: no zpool, or it failed).
 */
#define LAB_FACT_ZFS_LZ4_CMD \
	"v=$(zpool upgrade -v 2>/dev/null) || exit 2; " \
	"printf '%s\\n' \"$v\" | grep -q lz4_compress"

/* Facts read off the target before apply; -1 means unknown. */
struct lab_target_facts {
	int	zfs_lz4;	/* the target's ZFS has compression=lz4 */
};

/* The storage layouts by name (--layout), NULL-terminated. */
extern const char *const lab_layout_words[];
/* The bond modes and the network renderers, NULL-terminated. */
extern const char *const lab_bond_mode_words[];
extern const char *const lab_bond_renderer_words[];

struct lab_storage_req {
	const char		*layout;	/* raid10 raidz1 raidz2 mirror
						   stripe md-raid1 md-raid10
						   md-raid5, or NULL */
	const char		*layout_name;	/* a layout file: its name */
	const char		*layout_text;	/*   and its YAML text */
	const char *const	*disks;		/* slots; NULL: the default */
	size_t			 ndisks;
	const char		*cache;		/* slot of an L2ARC SSD, or NULL */
	const char		*log;		/* slot of a SLOG SSD, or NULL */
	const char		*pool;		/* pool or VG name, or NULL */
	int			 force;		/* allow partition tables */
	struct lab_target_facts	 facts;
};

/* A NIC as switch discovery last saw it. */
struct lab_bond_nic {
	const char	*name;
	const char	*switch_name;	/* NULL: never seen on a switch */
	const char	*port;
	const char	*lag;		/* the port's LAG, or NULL */
};

struct lab_bond_req {
	const char		*mode;		/* active-backup 802.3ad
						   balance-alb */
	const char *const	*nics;		/* NULL: all the host's NICs */
	size_t			 nnics;
	const char		*bridge;	/* "br0", or NULL */
	const char		*renderer;	/* ifupdown networkd netplan;
						   NULL: ifupdown */
	const struct lab_bond_nic *seen;	/* what discovery knows */
	size_t			 nseen;
	int			 rollback_s;	/* 0: 60 */
	int			 vlans_only;	/* no bond (mode, nics, bridge
						   NULL): only the VLAN
						   interfaces of tagged NICs */
};

/*
 * Shares (issue 21): what the host serves (lab_plan_shares) or mounts
 * (lab_plan_mounts). state is the output of lab_shares_state_cmd run on
 * the host, or NULL for a host that has none of it yet. A plan with no
 * steps: nothing to change. prune removes what lab served that the
 * inventory no longer has, and fails (LAB_EXIT_PARTIAL, naming the
 * client) while a client holds it.
 */
struct lab_shares_req {
	const struct lab_inventory	*inv;	/* clients, groups, servers */
	const char			*state;
	int				 prune;
};
extern const char lab_shares_state_cmd[];
int	lab_plan_shares(const struct lab_host *,
	    const struct lab_shares_req *, struct lab_plan **ret,
	    struct lab_err *);
int	lab_plan_mounts(const struct lab_host *,
	    const struct lab_shares_req *, struct lab_plan **ret,
	    struct lab_err *);

int	lab_plan_storage(const struct lab_host *,
	    const struct lab_storage_req *, struct lab_plan **ret,
	    struct lab_err *);
int	lab_plan_bond(const struct lab_host *, const struct lab_bond_req *,
	    struct lab_plan **ret, struct lab_err *);
void	lab_plan_free(struct lab_plan *);

/* {host, kind, layout, steps: [{run|check|write, ...}], usable_bytes,
   warnings} */
void	lab_plan_json(struct lab_json *, const struct lab_plan *);
/* The plan as people read it (like terraform plan). */
int	lab_plan_text(const struct lab_plan *, struct lab_buf *,
	    struct lab_err *);

#endif
