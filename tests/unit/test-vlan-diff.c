/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab_vlan_diff on hand-built states and wants. */
#include <stdio.h>
#include <string.h>

#include "lab/vlan.h"

#include "tests.h"

/* gi1/0/1 (49) uplink, gi1/0/7 (55), gi1/0/8 (56) LAG member of Po1 */
static struct lab_vlan_port ports[] = {
	{ .ifindex = 49, .bridge_port = 1, .name = "gi1/0/1", .alias = "",
	  .pvid = 1 },
	{ .ifindex = 55, .bridge_port = 7, .name = "gi1/0/7", .alias = "",
	  .pvid = 1 },
	{ .ifindex = 56, .bridge_port = 8, .name = "gi1/0/8", .alias = "",
	  .pvid = 1, .lag = 1000 },
	{ .ifindex = 1000, .name = "Po1", .alias = "", .is_lag = 1 },
};
static unsigned long all[] = { 49, 55, 56 };
static unsigned long only56[] = { 56 };
static struct lab_snmp_vlan svlans[] = {
	{ .id = 1, .name = "default", .egress = { all, 3 },
	  .untagged = { all, 3 } },
	{ .id = 20, .name = "old", .egress = { NULL, 0 } },
	{ .id = 99, .name = "junk", .egress = { NULL, 0 } },
	{ .id = 98, .name = "kept", .egress = { only56, 1 } },
};
static struct lab_vlan_state st = {
	.vlans = { .v = svlans, .n = 4 },
	.ports = ports, .nports = 4,
};
static struct lab_switch_vlan decl[] = { { 20, "storage", { 0 } },
	{ 30, "thirty", { 0 } } };
static struct lab_switch sw = { .name = "sg350x", .vlans = decl,
	.nvlans = 2 };

int
main(void)
{
	struct lab_port_want	 wv[1];
	struct lab_port_wants	 w = { wv, 1 };
	struct lab_vlan_diff_opts o;
	struct lab_switch_plan	 pl;
	struct lab_err		 err;
	unsigned long		 up[] = { 49 };
	size_t			 i;

	memset(&err, 0, sizeof(err));
	memset(&o, 0, sizeof(o));
	memset(wv, 0, sizeof(wv));
	wv[0] = (struct lab_port_want){ .ifindex = 55, .port = "gi1/0/7",
	    .mode = LAB_PORT_MODE_ACCESS, .pvid = 20,
	    .description = "web1 eno1" };
	o.prune = 1;
	CHECK(lab_vlan_diff(&sw, &w, &st, &o, &pl, &err) == 0);
	CHECK(pl.mgmt_vlan == 1);
	/* rename 20, create 30, delete 99 (98 is on an untouched port) */
	CHECK(pl.nvlans == 3);
	if (pl.nvlans == 3) {
		CHECK(pl.vlans[0].id == 20);
		CHECK_STR(pl.vlans[0].action, "rename");
		CHECK_STR(pl.vlans[0].from, "old");
		CHECK(pl.vlans[1].id == 30);
		CHECK_STR(pl.vlans[1].action, "create");
		CHECK(pl.vlans[2].id == 99);
		CHECK_STR(pl.vlans[2].action, "delete");
	}
	CHECK(pl.nchanges == 3);
	if (pl.nchanges == 3) {
		CHECK_STR(pl.changes[0].what, "pvid");
		CHECK_STR(pl.changes[0].from, "1");
		CHECK_STR(pl.changes[0].to, "20");
		CHECK_STR(pl.changes[1].what, "untagged");
		CHECK_STR(pl.changes[1].from, "1");
		CHECK_STR(pl.changes[1].to, "20");
		CHECK_STR(pl.changes[2].what, "description");
		CHECK_STR(pl.changes[2].to, "web1 eno1");
	}
	CHECK(pl.ntargets == 1 && pl.targets[0].pvid == 20);
	CHECK(pl.nuntouched == 3);
	for (i = 0; i < pl.nuntouched; i++)
		if (pl.untouched[i].ifindex == 56)
			CHECK_STR(pl.untouched[i].why, "LAG member of Po1");
	CHECK(pl.refused.n == 0);
	CHECK(pl.notes.n == 1);
	if (pl.notes.n == 1)
		CHECK_STR(pl.notes.v[0], "VLAN 30 declared, no port uses it");
	lab_switch_plan_release(&pl);

	/* the management VLAN off an uplink is refused */
	wv[0].ifindex = 49;
	wv[0].port = "gi1/0/1";
	o.uplinks = up;
	o.nuplinks = 1;
	CHECK(lab_vlan_diff(&sw, &w, &st, &o, &pl, &err) == 0);
	CHECK(pl.refused.n == 1);
	if (pl.refused.n == 1)
		CHECK_STR(pl.refused.v[0],
		    "gi1/0/1: takes the management VLAN 1 off an uplink");
	CHECK(pl.mgmt_port == NULL);
	lab_switch_plan_release(&pl);

	/* the management VLAN off the management port is refused; the
	 * plan names the port; a port that keeps VLAN 1 tagged is not */
	wv[0].ifindex = 55;
	wv[0].port = "gi1/0/7";
	o.uplinks = NULL;
	o.nuplinks = 0;
	o.mgmt_port = 55;
	CHECK(lab_vlan_diff(&sw, &w, &st, &o, &pl, &err) == 0);
	CHECK_STR(pl.mgmt_port, "gi1/0/7");
	CHECK(pl.refused.n == 1);
	if (pl.refused.n == 1)
		CHECK_STR(pl.refused.v[0], "gi1/0/7: takes the management "
		    "VLAN 1 off the port the management address is reached "
		    "through");
	lab_switch_plan_release(&pl);
	{
		unsigned long	t1[] = { 1 };

		wv[0].mode = LAB_PORT_MODE_TRUNK;
		wv[0].tagged = t1;
		wv[0].ntagged = 1;
		CHECK(lab_vlan_diff(&sw, &w, &st, &o, &pl, &err) == 0);
		CHECK(pl.refused.n == 0);
		lab_switch_plan_release(&pl);
		wv[0].mode = LAB_PORT_MODE_ACCESS;
		wv[0].tagged = NULL;
		wv[0].ntagged = 0;
	}
	/* a management port the switch lacks: no name, nothing refused
	 * on another port */
	o.mgmt_port = 4242;
	CHECK(lab_vlan_diff(&sw, &w, &st, &o, &pl, &err) == 0);
	CHECK(pl.mgmt_port == NULL && pl.refused.n == 0);
	lab_switch_plan_release(&pl);
	o.mgmt_port = 0;

	/* a switch that matches */
	wv[0] = (struct lab_port_want){ .ifindex = 55, .port = "gi1/0/7",
	    .mode = LAB_PORT_MODE_ACCESS, .pvid = 1 };
	sw.nvlans = 0;
	o.prune = 0;
	CHECK(lab_vlan_diff(&sw, &w, &st, &o, &pl, &err) == 0);
	CHECK(pl.nvlans == 0 && pl.nchanges == 0 && pl.ntargets == 0);
	lab_switch_plan_release(&pl);

	TESTS_DONE();
}
