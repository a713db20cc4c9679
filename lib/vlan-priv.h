/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_VLAN_PRIV_H
#define LAB_VLAN_PRIV_H

#include "lab/vlan.h"

/*
 * lab_switch_vlan_plan, keeping what each switch's plan read: states
 * (one a name, caller releases each and frees) is what apply encodes
 * from, so that it does not read the switch a second time.
 */
int	lab_switch_vlan_plan_read(const struct lab_ctx *, struct lab_db *,
	    const struct lab_inventory *, const struct lab_strv *names,
	    const struct lab_creds *, const struct lab_vlan_req *,
	    struct lab_switch_plan **ret, struct lab_vlan_state **states,
	    struct lab_err *err);

#endif
