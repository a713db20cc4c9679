/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_INVENTORY_PRIV_H
#define LAB_INVENTORY_PRIV_H

#include "lab/inventory.h"

/*
 * Checks names and MACs that must be unique across every loaded file;
 * the error names the later place and the first.
 */
int	lab_inventory_check_unique(struct lab_inventory *, struct lab_err *);

/*
 * Frees the hosts, switches, groups and warnings after the first n of
 * each (a file that failed half way).
 */
void	lab_inventory_truncate(struct lab_inventory *, size_t nhosts,
	    size_t nswitches, size_t ngroups, size_t nwarnings);

struct ynode;

/*
 * The VLAN keys (vlan, vlans, native and, on a NIC, tagged) of the
 * mapping of a NIC (nic: 1) or a ports: entry into w; what names it in
 * errors (lib/inventory/load-vlan.c).
 */
int	lab_load_vlan_want(const char *file, struct lab_pool *,
	    const struct ynode *map, int nic, const char *what,
	    struct lab_vlan_want *w, struct lab_err *);
/* A switch's vlans, ports, management_vlan and uplinks. */
int	lab_load_switch_vlans(const char *file, struct lab_pool *,
	    const struct ynode *map, struct lab_switch *, const char *what,
	    struct lab_err *);

/*
 * One item of a known_issues: list, and the whole list (NULL or null:
 * none), into k (lib/inventory/known-issues.c).
 */
struct lab_known_issues;
int	lab_known_issue_load_item(struct lab_known_issues *k,
	    const char *file, const struct ynode *item, struct lab_err *);
int	lab_known_issues_load_seq(struct lab_known_issues *k,
	    const char *file, const struct ynode *seq, struct lab_err *);

/* shares: and mounts: of a host (shares.c); then, once every file is
   read, what they name of other hosts. */
int	lab_load_shares(const char *file, struct lab_pool *,
	    const struct ynode *map, struct lab_host *, struct lab_err *);
int	lab_inventory_check_shares(const struct lab_inventory *,
	    struct lab_err *);

#endif
