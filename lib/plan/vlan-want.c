/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What each port of a switch should be, from NIC wishes and ports:. */
#include <string.h>

#include "lab/vlan.h"

int
lab_vlan_wants(const struct lab_inventory *inv, const struct lab_switch *sw,
    const struct lab_links_seen *links, const struct lab_vlan_state *st,
    struct lab_port_wants *ret, struct lab_err *err)
{
	(void)inv; (void)sw; (void)links; (void)st;
	memset(ret, 0, sizeof(*ret));
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
