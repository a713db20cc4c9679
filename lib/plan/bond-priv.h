/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BOND_PRIV_H
#define LAB_BOND_PRIV_H

#include "plan-priv.h"

/* What bond.c (the plan, the scripts) and bond-files.c (the config
 * files of each renderer) share. */

#define STAGING		"/var/lib/lab/net"
#define BOND		"bond0"

struct bond {
	const struct lab_host	*h;
	const struct lab_bond_req *req;
	struct lab_plan		*p;
	const struct lab_nic	*nics[32];
	size_t			 n;
	const char		*renderer;
	const char		*top;		/* carries the address */
	struct lab_tvars	*t;		/* shared by the scripts */
	struct lab_vlan_link	*vl;		/* tagged VLANs (bond-vlan.c) */
	size_t			 nvl;
	struct lab_err		*err;
};

/* Stages a config file at path (switch.sh installs it). */
struct lab_step	*lab_bond_write(struct bond *, const char *path, int mode,
		    const char *tmpl, const struct lab_tvars *);
/* The config files of each renderer. */
int		 lab_bond_ifupdown(struct bond *, const char *slaves);
int		 lab_bond_networkd(struct bond *, const char *slaves);
int		 lab_bond_netplan(struct bond *);

#endif
