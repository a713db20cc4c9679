/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which VLAN MIBs an agent has, and whether it takes a SET. */
#include <string.h>

#include "lab/vlan.h"

int
lab_vlan_probe(struct lab_snmp *s, struct lab_vlan_probe *ret,
    struct lab_err *err)
{
	(void)s;
	memset(ret, 0, sizeof(*ret));
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
