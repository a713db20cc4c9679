/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The live VLAN state of one agent: Q-BRIDGE, Cisco SB port modes. */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"

int
lab_vlan_read(struct lab_snmp *s, struct lab_vlan_state *ret,
    struct lab_err *err)
{
	(void)s;
	memset(ret, 0, sizeof(*ret));
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

void
lab_vlan_state_release(struct lab_vlan_state *st)
{
	size_t	i;

	lab_snmp_vlans_release(&st->vlans);
	for (i = 0; i < st->nports; i++) {
		free(st->ports[i].name);
		free(st->ports[i].alias);
	}
	free(st->ports);
	lab_snmp_bridge_release(&st->bridge);
	free(st->mgmt_address);
	memset(st, 0, sizeof(*st));
}
