/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab_vlan_wants on hand-built inventories and states. */
#include <stdio.h>
#include <string.h>

#include "lab/vlan.h"

#include "tests.h"

static struct lab_vlan_port ports[] = {
	{ .ifindex = 49, .bridge_port = 1, .name = "gi1/0/1" },
	{ .ifindex = 55, .bridge_port = 7, .name = "gi1/0/7" },
	{ .ifindex = 56, .bridge_port = 8, .name = "gi1/0/8" },
};
static struct lab_snmp_vlan svlans[] = { { .id = 1 }, { .id = 30 } };

static struct lab_vlan_state st = {
	.vlans = { .v = svlans, .n = 2 },
	.ports = ports, .nports = 3,
};

static struct lab_link_seen seen[] = {
	{ "web1", "eno1", "sg350x", "gi1/0/7" },
	{ "web2", "eno1", "sg350x", "gi1/0/7" },
};

static unsigned long trunk[] = { 20, 10, 20 };
static struct lab_switch_vlan decl[] = { { 10, "ten", { 0 } },
	{ 20, "twenty", { 0 } } };

static struct lab_nic nic1 = { .name = "eno1", .vlan = { .access = 20,
	.set = 1, .loc = { "lab.yaml", 12, 13 } } };
static struct lab_nic nic2 = { .name = "eno1", .vlan = { .access = 10,
	.set = 1, .loc = { "lab.yaml", 20, 13 } } };
static struct lab_host hosts[2];
static struct lab_switch_port sport = { .port = "gi8",
	.description = "printer", .vlan = { .trunk = trunk, .ntrunk = 3,
	.native = 10, .set = 1, .loc = { "lab.yaml", 40, 9 } },
	.loc = { "lab.yaml", 39, 7 } };
static struct lab_switch sw = { .name = "sg350x", .vlans = decl,
	.nvlans = 2 };
static struct lab_inventory inv = { .hosts = hosts };

static int
run(size_t nhosts, size_t nlinks, struct lab_port_wants *w,
    struct lab_err *err)
{
	struct lab_links_seen	links = { seen, nlinks };

	inv.nhosts = nhosts;
	memset(err, 0, sizeof(*err));
	return lab_vlan_wants(&inv, &sw, &links, &st, w, err);
}

int
main(void)
{
	struct lab_port_wants	w;
	struct lab_err		err;

	hosts[0].name = "web1"; hosts[0].nics = &nic1; hosts[0].nnics = 1;
	hosts[1].name = "web2"; hosts[1].nics = &nic2; hosts[1].nnics = 1;

	/* one access NIC and a trunk ports: entry by its short name */
	sw.ports = &sport; sw.nports = 1;
	CHECK(run(1, 1, &w, &err) == 0);
	CHECK(w.n == 2);
	if (w.n == 2) {
		CHECK(w.v[0].ifindex == 55);
		CHECK(w.v[0].mode == LAB_PORT_MODE_ACCESS);
		CHECK(w.v[0].pvid == 20);
		CHECK_STR(w.v[0].description, "web1 eno1");
		CHECK(w.v[1].ifindex == 56);
		CHECK_STR(w.v[1].port, "gi1/0/8");
		CHECK(w.v[1].mode == LAB_PORT_MODE_TRUNK);
		CHECK(w.v[1].pvid == 10);
		CHECK(w.v[1].ntagged == 1 && w.v[1].tagged[0] == 20);
		CHECK_STR(w.v[1].description, "printer");
		CHECK(w.v[1].host == NULL);
	}
	lab_port_wants_release(&w);

	/* two NICs on one port asking for different VLANs */
	CHECK(run(2, 2, &w, &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, "lab.yaml:20:13: ");
	CHECK_HAS(err.msg, "web1 eno1 and web2 eno1");
	CHECK(w.n == 0);

	/* a NIC's wish and a ports: entry that disagree */
	sport.port = "gi7";
	CHECK(run(1, 1, &w, &err) == -1);
	CHECK_HAS(err.msg, "lab.yaml:40:9: ");
	CHECK_HAS(err.msg, "disagree");
	sport.port = "gi8";

	/* a port the switch does not have */
	sport.port = "gi99";
	CHECK(run(1, 1, &w, &err) == -1);
	CHECK_STR(err.msg, "lab.yaml:39:7: switch sg350x has no port 'gi99' "
	    "(see 'lab switch ports sg350x')");
	sport.port = "gi8";

	/* a VLAN neither declared nor on the switch; 30 is on it */
	sw.nports = 0;
	nic1.vlan.access = 40;
	CHECK(run(1, 1, &w, &err) == -1);
	CHECK_HAS(err.msg, "lab.yaml:12:13: VLAN 40 is not declared");
	nic1.vlan.access = 30;
	CHECK(run(1, 1, &w, &err) == 0);
	lab_port_wants_release(&w);

	/* a native VLAN not in the list */
	nic1.vlan.access = 0;
	nic1.vlan.trunk = trunk; nic1.vlan.ntrunk = 1; nic1.vlan.native = 30;
	nic1.vlan.native_loc = (struct lab_loc){ "lab.yaml", 14, 15 };
	CHECK(run(1, 1, &w, &err) == -1);
	CHECK_HAS(err.msg, "lab.yaml:14:15: native VLAN 30");

	TESTS_DONE();
}
