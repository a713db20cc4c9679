/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_INVENTORY_PRIV_H
#define LAB_INVENTORY_PRIV_H

#include "lab/inventory.h"

/*
 * Checks names and MACs that must be unique across every loaded file;
 * the error names the later place and the first.
 */
int	lab_inventory_check_unique(struct lab_inventory *, struct lab_err *);

#endif
