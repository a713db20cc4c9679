/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A plan as SETs in phases, sent packed, read back, put back on failure. */
#include <string.h>

#include "lab/vlan.h"

int
lab_vlan_encode(const struct lab_switch_plan *p, const struct lab_vlan_state *st,
    struct lab_vlan_writes *ret, struct lab_err *err)
{
	(void)p; (void)st;
	memset(ret, 0, sizeof(*ret));
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

int
lab_vlan_exec(struct lab_snmp *s, struct lab_vlan_writes *w, int max_varbinds,
    struct lab_err *err)
{
	(void)s; (void)w; (void)max_varbinds;
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
