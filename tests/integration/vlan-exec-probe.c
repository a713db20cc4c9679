/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A test driver for lab_vlan_encode and lab_vlan_exec: reads the state,
 * builds a plan by hand, encodes and executes it.
 *
 *	vlan-exec-probe ADDRESS PORT move	create VLAN 20 "lab", rename
 *						VLAN 3 "renamed", ifindex 6 7 8
 *						access ports of VLAN 20
 *	vlan-exec-probe ADDRESS PORT pvids	PVID 3 on the first 24 bridge
 *						ports, PVID phase only
 *
 * The community comes from $LAB_TEST_COMMUNITY. Prints "write STATE
 * WHAT" a write, then "sets N varbinds M" (SET PDUs this run). Errors
 * go to stderr as "vlan-exec-probe: MESSAGE", exit status the err code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"

static const char *states[] = { "pending", "done", "failed", "restored",
    "left" };
static unsigned long v20[1] = { 20 };
static unsigned long v3[1] = { 3 };

static int
build(const char *what, const struct lab_vlan_state *st,
    struct lab_switch_plan *p, struct lab_vlan_action *a,
    struct lab_port_target *t)
{
	size_t	i;

	memset(p, 0, sizeof(*p));
	p->switch_name = (char *)"rig";
	p->targets = t;
	if (strcmp(what, "move") == 0) {
		a[0] = (struct lab_vlan_action){ .id = 20,
		    .name = (char *)"lab", .action = "create" };
		a[1] = (struct lab_vlan_action){ .id = 3,
		    .name = (char *)"renamed", .action = "rename" };
		p->vlans = a;
		p->nvlans = 2;
		for (i = 0; i < 3; i++) {
			const struct lab_vlan_port *vp =
			    lab_vlan_state_port(st, 6 + i);

			t[i] = (struct lab_port_target){ .ifindex = 6 + i,
			    .bridge_port = vp ? vp->bridge_port : 0,
			    .mode = st->has_ciscosb ? LAB_PORT_MODE_ACCESS :
			    LAB_PORT_MODE_NONE, .pvid = 20,
			    .untagged = v20, .nuntagged = 1 };
		}
		p->ntargets = 3;
		return 0;
	}
	if (strcmp(what, "pvids") == 0) {
		for (i = 0; i < st->nports && p->ntargets < 24; i++) {
			if (st->ports[i].bridge_port == 0 || st->ports[i].is_lag)
				continue;
			t[p->ntargets++] = (struct lab_port_target){
			    .ifindex = st->ports[i].ifindex,
			    .bridge_port = st->ports[i].bridge_port,
			    .mode = LAB_PORT_MODE_NONE, .pvid = 3,
			    .untagged = v3, .nuntagged = 1 };
		}
		return 0;
	}
	return -1;
}

int
main(int argc, char **argv)
{
	struct lab_snmp_target	 tg;
	struct lab_snmp		*s;
	struct lab_err		 err;
	struct lab_vlan_state	 st;
	struct lab_switch_plan	 p;
	struct lab_vlan_action	 a[2];
	static struct lab_port_target t[64];
	struct lab_vlan_writes	 w;
	struct lab_snmp_stats	 s0, s1;
	size_t			 i, k;
	int			 rc = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: vlan-exec-probe ADDRESS PORT "
		    "move|pvids\n");
		return 2;
	}
	lab_err_init(&err);
	memset(&tg, 0, sizeof(tg));
	tg.address = argv[1];
	tg.port = (int)strtol(argv[2], NULL, 10);
	tg.version = "2c";
	tg.community = getenv("LAB_TEST_COMMUNITY");
	tg.timeout_ms = 1000;
	tg.retries = 1;
	if (lab_snmp_open(&tg, &s, &err) == -1 ||
	    lab_vlan_read(s, &st, &err) == -1) {
		fprintf(stderr, "vlan-exec-probe: %s\n", err.msg);
		return (int)err.code;
	}
	if (build(argv[3], &st, &p, a, t) == -1) {
		fprintf(stderr, "vlan-exec-probe: %s: unknown\n", argv[3]);
		return 2;
	}
	if (lab_vlan_encode(&p, &st, &w, &err) == -1) {
		fprintf(stderr, "vlan-exec-probe: %s\n", err.msg);
		return (int)err.code;
	}
	if (strcmp(argv[3], "pvids") == 0) {
		for (i = k = 0; i < w.n; i++)
			if (w.v[i].phase == LAB_VLAN_PHASE_PVID)
				w.v[k++] = w.v[i];
			else
				free(w.v[i].what);
		w.n = k;
	}
	lab_snmp_get_stats(s, &s0);
	if (lab_vlan_exec(s, &w, argc > 4 ? (int)strtol(argv[4], NULL, 10) :
	    0, &err) == -1) {
		fprintf(stderr, "vlan-exec-probe: %s\n", err.msg);
		rc = (int)err.code;
	}
	lab_snmp_get_stats(s, &s1);
	for (i = 0; i < w.n; i++)
		printf("write %s %s\n", states[w.v[i].state], w.v[i].what);
	printf("sets %lu varbinds %lu\n", s1.sets - s0.sets,
	    s1.set_varbinds - s0.set_varbinds);
	lab_vlan_writes_release(&w);
	lab_vlan_state_release(&st);
	lab_snmp_free(s);
	return rc;
}
