/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab_vlan_encode on hand-built states and plans. */
#include "lab/vlan.h"
#include "tests.h"

/* Ports 1..8: ifindex 100+i, bridge port i, "gi1/0/i"; VLAN 1 all
 * untagged, VLAN 10 "old" with port 8 tagged. */
static unsigned long all[8] = { 101, 102, 103, 104, 105, 106, 107, 108 };
static unsigned long eight[1] = { 108 };
static char names[8][16];
static struct lab_vlan_port ports[8];
static struct lab_snmp_vlan vlans[2];

static void
state(struct lab_vlan_state *st, int sb)
{
	int	i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < 8; i++) {
		snprintf(names[i], sizeof(names[i]), "gi1/0/%d", i + 1);
		memset(&ports[i], 0, sizeof(ports[i]));
		ports[i].ifindex = 101 + i;
		ports[i].bridge_port = 1 + i;
		ports[i].name = names[i];
		ports[i].alias = (char *)"";
		ports[i].pvid = 1;
		ports[i].mode = sb ? LAB_PORT_MODE_ACCESS : LAB_PORT_MODE_NONE;
		ports[i].access_vlan = sb ? 1 : 0;
	}
	vlans[0].id = 1;
	vlans[0].name = (char *)"default";
	vlans[0].egress.v = all;
	vlans[0].egress.n = 8;
	vlans[0].untagged.v = all;
	vlans[0].untagged.n = 8;
	vlans[1].id = 10;
	vlans[1].name = (char *)"old";
	vlans[1].egress.v = eight;
	vlans[1].egress.n = 1;
	st->vlans.v = vlans;
	st->vlans.n = 2;
	st->ports = ports;
	st->nports = 8;
	st->list_len = 2;
	st->has_qbridge = 1;
	st->has_ciscosb = sb;
}

static unsigned long v20[1] = { 20 };

/* Create VLAN 20, rename 10, move ports 3..5 to access 20 (port 3 with a
 * description). */
static void
plan(struct lab_switch_plan *p, struct lab_vlan_action *a,
    struct lab_port_target *t, int sb)
{
	int	i;

	memset(p, 0, sizeof(*p));
	a[0] = (struct lab_vlan_action){ .id = 20, .name = (char *)"lab",
	    .action = "create" };
	a[1] = (struct lab_vlan_action){ .id = 10, .name = (char *)"new",
	    .from = (char *)"old", .action = "rename" };
	for (i = 0; i < 3; i++)
		t[i] = (struct lab_port_target){ .ifindex = 103 + i,
		    .bridge_port = 3 + i,
		    .mode = sb ? LAB_PORT_MODE_ACCESS : LAB_PORT_MODE_NONE,
		    .pvid = 20, .untagged = v20, .nuntagged = 1 };
	t[0].description = (char *)"web1 eth0";
	p->switch_name = (char *)"sw";
	p->vlans = a;
	p->nvlans = 2;
	p->targets = t;
	p->ntargets = 3;
}

static const struct lab_vlan_write *
find(const struct lab_vlan_writes *w, const char *what, size_t *at)
{
	size_t	i;

	for (i = 0; i < w->n; i++)
		if (strcmp(w->v[i].what, what) == 0) {
			if (at)
				*at = i;
			return &w->v[i];
		}
	return NULL;
}

static void
test_qbridge(void)
{
	struct lab_vlan_state st;
	struct lab_switch_plan p;
	struct lab_vlan_action a[2];
	struct lab_port_target t[3];
	struct lab_vlan_writes w;
	struct lab_err err;
	const struct lab_vlan_write *x;
	size_t i, at[8];
	const char *order[] = { "VLAN 20 create", "VLAN 20 name",
	    "VLAN 10 name", "VLAN 20 egress", "gi1/0/3 pvid",
	    "VLAN 1 untagged", "VLAN 1 egress", "gi1/0/3 description" };

	state(&st, 0);
	plan(&p, a, t, 0);
	lab_err_init(&err);
	CHECK(lab_vlan_encode(&p, &st, &w, &err) == 0);
	for (i = 0; i < 8; i++)
		CHECK(find(&w, order[i], &at[i]) != NULL);
	for (i = 1; i < 8; i++)
		CHECK(at[i - 1] < at[i]);
	for (i = 1; i < w.n; i++)
		CHECK(w.v[i - 1].phase <= w.v[i].phase);
	/* no Cisco SB values without the MIB */
	CHECK(find(&w, "gi1/0/3 mode", NULL) == NULL);
	for (i = 0; i < w.n; i++)
		CHECK(w.v[i].to.oid.v[6] != 4);	/* enterprises */
	x = find(&w, "VLAN 20 create", NULL);
	CHECK(x && x->to.type == LAB_SNMP_INTEGER && x->to.i == 4);
	CHECK(x && x->to.oid.len == 14 && x->to.oid.v[13] == 20);
	x = find(&w, "VLAN 20 egress", NULL);
	/* ports 3, 4, 5: 0011 1000 0000 0000, MSB first */
	CHECK(x && x->phase == LAB_VLAN_PHASE_ADD && x->to.len == 2 &&
	    x->to.str[0] == 0x38 && x->to.str[1] == 0x00);
	x = find(&w, "VLAN 1 egress", NULL);
	CHECK(x && x->phase == LAB_VLAN_PHASE_REMOVE &&
	    x->to.str[0] == 0xc7 && x->to.str[1] == 0x00);
	x = find(&w, "gi1/0/4 pvid", NULL);
	CHECK(x && x->to.type == LAB_SNMP_GAUGE32 && x->to.u == 20 &&
	    x->to.oid.v[x->to.oid.len - 1] == 4);
	x = find(&w, "gi1/0/3 description", NULL);
	CHECK(x && x->to.len == 9 && memcmp(x->to.str, "web1 eth0", 9) == 0 &&
	    x->to.oid.v[x->to.oid.len - 1] == 103);
	/* VLAN 10 keeps its lists: no write */
	for (i = 0; i < w.n; i++)
		CHECK(strcmp(w.v[i].what, "VLAN 10 egress") != 0);
	lab_vlan_writes_release(&w);
	/* lists that did not read whole are never written */
	vlans[0].lists_mangled = 1;
	lab_err_init(&err);
	CHECK(lab_vlan_encode(&p, &st, &w, &err) == -1);
	CHECK_HAS(err.msg, "VLAN 1: its port lists did not read whole");
	CHECK(w.n == 0);
	vlans[0].lists_mangled = 0;
}

static void
test_ciscosb(void)
{
	struct lab_vlan_state st;
	struct lab_switch_plan p;
	struct lab_vlan_action a[3];
	struct lab_port_target t[3];
	struct lab_vlan_writes w;
	struct lab_err err;
	const struct lab_vlan_write *x;
	size_t m, add, pv, del, rm;
	unsigned long tg[1] = { 20 }, un1[1] = { 1 };

	state(&st, 1);
	plan(&p, a, t, 1);
	/* port 5 becomes a trunk: native 1, 20 tagged */
	t[2].mode = LAB_PORT_MODE_TRUNK;
	t[2].pvid = 1;
	t[2].untagged = un1;
	t[2].tagged = tg;
	t[2].ntagged = 1;
	a[2] = (struct lab_vlan_action){ .id = 10, .action = "delete" };
	a[1].id = 1;
	p.nvlans = 3;
	lab_err_init(&err);
	CHECK(lab_vlan_encode(&p, &st, &w, &err) == 0);
	CHECK((x = find(&w, "gi1/0/5 mode", &m)) != NULL);
	CHECK(x && x->to.i == 12 && x->to.oid.v[x->to.oid.len - 1] == 105);
	CHECK(find(&w, "gi1/0/3 mode", NULL) == NULL);
	CHECK(find(&w, "VLAN 20 egress", &add) != NULL);
	CHECK(m < add);
	CHECK((x = find(&w, "gi1/0/3 access vlan", &pv)) != NULL);
	CHECK(x && x->to.type == LAB_SNMP_INTEGER && x->to.i == 20);
	CHECK(add < pv);
	/* the trunk's native column (0 on an access port) is written */
	x = find(&w, "gi1/0/5 native vlan", NULL);
	CHECK(x && x->to.i == 1 && x->phase == LAB_VLAN_PHASE_PVID);
	CHECK(find(&w, "gi1/0/5 pvid", NULL) == NULL);
	x = find(&w, "VLAN 20 egress", NULL);
	CHECK(x && x->to.str[0] == 0x38);
	x = find(&w, "VLAN 20 untagged", NULL);
	CHECK(x && x->to.str[0] == 0x30);	/* 3, 4; 5 tagged */
	CHECK(find(&w, "VLAN 1 untagged", &rm) != NULL);
	CHECK((x = find(&w, "VLAN 10 delete", &del)) != NULL);
	CHECK(x && x->to.i == 6 && rm < del);
	CHECK(del < w.n - 1);	/* DESCR last */
	x = find(&w, "VLAN 1 egress", NULL);
	CHECK(x && x->to.str[0] == 0xcf);	/* 5 stays, untagged */
	lab_vlan_writes_release(&w);
}

int
main(void)
{
	test_qbridge();
	test_ciscosb();
	TESTS_DONE();
}
