/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_PLAN_PRIV_H
#define LAB_PLAN_PRIV_H

#include "lab/plan.h"
#include "lab/template.h"

/*
 * What the planners share: building a plan step by step, and picking
 * and checking the disks of a host.
 */

/* The timeout of steps that can take minutes (mkfs, update-initramfs). */
#define SLOW_S	600

/* A new empty plan for host; NULL when out of memory. */
struct lab_plan	*lab_plan_new(const struct lab_host *, const char *kind,
		    const char *layout);
/* Adds a step; text (and content) are taken over, even on failure. */
struct lab_step	*lab_plan_step(struct lab_plan *, enum lab_step_kind,
		    char *text, char *content, const char *comment,
		    struct lab_err *);
/* Adds a CHECK or RUN step rendered from a built-in template. */
struct lab_step	*lab_plan_script(struct lab_plan *, enum lab_step_kind,
		    const char *tmpl, const struct lab_tvars *,
		    const char *comment, struct lab_err *);
/* Adds a WRITE step rendered from a built-in template. */
struct lab_step	*lab_plan_file(struct lab_plan *, const char *path, int mode,
		    const char *tmpl, const struct lab_tvars *,
		    const char *comment, struct lab_err *);
/* Adds a warning. */
int		 lab_plan_warn(struct lab_plan *, struct lab_err *,
		    const char *fmt, ...) LAB_PRINTF(3, 4);
/* Records a volume and adds its bytes to the usable capacity. */
int		 lab_plan_add_volume(struct lab_plan *, const char *name,
		    const char *what, uint64_t bytes, struct lab_err *);

/* A disk chosen for a plan. */
struct pdisk {
	const struct lab_disk	*d;
	char			*dev;	/* the device, or a placeholder */
};

/*
 * The disk in slot, for role ("disk", "cache", ...): refused (exit 2)
 * when the host has none (naming the nearest slot) or it is the boot
 * disk.
 */
const struct lab_disk *lab_disk_find(const struct lab_host *, const char *slot,
		    const char *role, struct lab_err *);
/*
 * The disks named by slots, or by default every disk but the boot disk
 * and SSDs; each once. *ret (n entries) is freed with lab_disks_free.
 */
int		 lab_disks_pick(struct lab_plan *, const struct lab_host *,
		    const char *const *slots, size_t nslots,
		    struct pdisk **ret, size_t *n, struct lab_err *);
void		 lab_disks_free(struct pdisk *, size_t);
/* The device of d, or "<device of slot N>" (marking the plan). */
char		*lab_disk_dev(struct lab_plan *, const struct lab_disk *);
/* The CHECK steps that a disk is free before anything is changed. */
int		 lab_disk_checks(struct lab_plan *, const struct pdisk *,
		    size_t n, int force, struct lab_err *);
/* Warns about a cache or log device on an IDE-emulation port. */
int		 lab_disk_ide_warn(struct lab_plan *, const struct lab_host *,
		    const struct lab_disk *, const char *role,
		    struct lab_err *);
/* "1.5 TB" */
void		 lab_size_human(uint64_t, char buf[32]);

/* md RAID levels. */
struct md_level {
	const char	*name;		/* "raid1" */
	const char	*mdadm;		/* --level= */
	size_t		 min;		/* fewest devices */
};
const struct md_level	*lab_md_level_find(const char *);
/* The capacity of an array of n devices whose smallest has min bytes. */
uint64_t		 lab_md_usable(const struct md_level *, size_t n,
			    uint64_t min);
/* Refuses names mdadm or LVM would refuse (what: "volume group"). */
int			 lab_check_md_name(const char *, const char *what,
			    struct lab_err *);

/* The planners behind lab_plan_storage. */
int	lab_plan_zfs(const struct lab_host *, const struct lab_storage_req *,
	    struct lab_plan **, struct lab_err *);
int	lab_plan_md(const struct lab_host *, const struct lab_storage_req *,
	    struct lab_plan **, struct lab_err *);
/* Records that the disk in slot goes into member_of ("tank/mirror-0"). */
int	lab_plan_add_member(struct lab_plan *, const char *slot,
	    const char *member_of,
	    struct lab_err *);
int	lab_plan_layout(const struct lab_host *, const struct lab_storage_req *,
	    struct lab_plan **, struct lab_err *);
/* Partition n (1-based) of the disk at dev: sda1, nvme0n1p1, ...-part1. */
char	*lab_part_dev(const char *dev, int n);

/*
 * A VLAN interface the network planner renders for a NIC with tagged:
 * true (include/lab/vlan.h): NAME = PARENT.ID, on the bond when the NIC
 * is a bond member.
 */
struct lab_vlan_link {
	char		 name[16];	/* "bond0.20", at most IFNAMSIZ-1 */
	char		 parent[16];	/* "bond0", "eth1" */
	unsigned long	 id;
	int		 on_bond;
	const struct lab_nic *nic;	/* whose wish */
};

/*
 * The VLAN interfaces of host h's tagged NICs: one per tagged VLAN (not
 * the native one), on bond for the n members; the members' wishes must
 * be equal. Errors (LAB_EXIT_INPUT) name the NIC's file:line:col.
 * *ret is caller-owned (free).
 */
int		 lab_vlan_links(const struct lab_host *h,
		    const struct lab_nic *const *members, size_t n,
		    const char *bond, struct lab_vlan_link **ret,
		    size_t *nret, struct lab_err *);

#endif
