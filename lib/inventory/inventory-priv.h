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

#endif
