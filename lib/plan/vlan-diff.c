/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The declared VLANs and wants against the live state: the plan. */
#include <string.h>

#include "lab/vlan.h"

int
lab_vlan_diff(const struct lab_switch *sw, const struct lab_port_wants *w,
    const struct lab_vlan_state *st, const struct lab_vlan_diff_opts *o,
    struct lab_switch_plan *ret, struct lab_err *err)
{
	(void)sw; (void)w; (void)st; (void)o;
	memset(ret, 0, sizeof(*ret));
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
