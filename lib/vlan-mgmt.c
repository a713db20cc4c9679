/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The port a switch's management address is reached through (issue 19). */
#include <stdlib.h>

#include "lab/peer-mac.h"
#include "lab/vlan.h"

int
lab_switch_mgmt_port(struct lab_db *db, const struct lab_switch *sw,
    unsigned long *ret, char **note, struct lab_err *err)
{
	struct lab_peer_mac	 pm;
	unsigned long		 vlan;

	*ret = 0;
	*note = NULL;
	vlan = sw->management_vlan != 0 ? sw->management_vlan : 1;
	lab_peer_mac(sw->address, &pm);
	if (pm.mac[0] != '\0' && lab_db_vlan_mac_port(db, sw->name, pm.mac,
	    vlan, ret, err) == -1)
		return -1;
	if (*ret != 0)
		return 0;
	if (pm.mac[0] == '\0')
		*note = lab_asprintf("management port unknown (%s: %s): "
		    "the management VLAN is checked on uplinks and LAG "
		    "members only", sw->address, pm.why);
	else
		*note = lab_asprintf("management port unknown (%s: %s, %s "
		    "%s, not in the MAC table of the last discovery): the "
		    "management VLAN is checked on uplinks and LAG members "
		    "only", sw->address, pm.mac, pm.via_gateway ?
		    "the gateway's on" : "the MAC of", pm.ifname);
	if (*note == NULL)
		return lab_err_oom(err);
	return 0;
}
