/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The VLAN structures every layer shares (include/lab/vlan.h): names,
 * lookups, port lists and the release functions of what is plain data.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"

const char *
lab_port_mode_name(enum lab_port_mode m)
{
	switch (m) {
	case LAB_PORT_MODE_GENERAL:
		return "general";
	case LAB_PORT_MODE_ACCESS:
		return "access";
	case LAB_PORT_MODE_TRUNK:
		return "trunk";
	case LAB_PORT_MODE_OTHER:
		return "other";
	case LAB_PORT_MODE_NONE:
		break;
	}
	return "-";
}

const char *
lab_vlan_phase_name(enum lab_vlan_phase p)
{
	static const char *const names[LAB_VLAN_NPHASES] = {
		"create", "rename", "mode", "add", "pvid", "remove",
		"delete", "description",
	};

	return (unsigned)p < LAB_VLAN_NPHASES ? names[p] : "?";
}

const struct lab_vlan_port *
lab_vlan_state_port(const struct lab_vlan_state *s, unsigned long ifindex)
{
	size_t	lo = 0, hi = s->nports;

	while (lo < hi) {
		size_t	mid = lo + (hi - lo) / 2;

		if (s->ports[mid].ifindex == ifindex)
			return &s->ports[mid];
		if (s->ports[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct lab_vlan_port *
lab_vlan_state_port_named(const struct lab_vlan_state *s, const char *name)
{
	size_t	i;

	for (i = 0; i < s->nports; i++)
		if (s->ports[i].name != NULL && strcmp(s->ports[i].name,
		    name) == 0)
			return &s->ports[i];
	return NULL;
}

const struct lab_snmp_vlan *
lab_vlan_state_vlan(const struct lab_vlan_state *s, unsigned long id)
{
	size_t	i;

	for (i = 0; i < s->vlans.n; i++)
		if (s->vlans.v[i].id == id)
			return &s->vlans.v[i];
	return NULL;
}

int
lab_portlist_has(const unsigned char *list, size_t len,
    unsigned long bridge_port)
{
	unsigned long	bit;

	if (bridge_port == 0 || (bit = bridge_port - 1) / 8 >= len)
		return 0;
	return (list[bit / 8] & (0x80u >> (bit % 8))) != 0;
}

void
lab_portlist_set(unsigned char *list, size_t len, unsigned long bridge_port,
    int on)
{
	unsigned long	bit;

	if (bridge_port == 0 || (bit = bridge_port - 1) / 8 >= len)
		return;
	if (on)
		list[bit / 8] |= (unsigned char)(0x80u >> (bit % 8));
	else
		list[bit / 8] &= (unsigned char)~(0x80u >> (bit % 8));
}

void
lab_port_wants_release(struct lab_port_wants *w)
{
	size_t	i;

	for (i = 0; i < w->n; i++) {
		free(w->v[i].port);
		free(w->v[i].tagged);
		free(w->v[i].description);
		free(w->v[i].host);
		free(w->v[i].nic);
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
}

void
lab_switch_plan_release(struct lab_switch_plan *p)
{
	size_t	i;

	free(p->switch_name);
	for (i = 0; i < p->nvlans; i++) {
		free(p->vlans[i].name);
		free(p->vlans[i].from);
	}
	free(p->vlans);
	for (i = 0; i < p->nchanges; i++) {
		free(p->changes[i].port);
		free(p->changes[i].from);
		free(p->changes[i].to);
	}
	free(p->changes);
	for (i = 0; i < p->nuntouched; i++) {
		free(p->untouched[i].port);
		free(p->untouched[i].why);
	}
	free(p->untouched);
	for (i = 0; i < p->ntargets; i++) {
		free(p->targets[i].untagged);
		free(p->targets[i].tagged);
		free(p->targets[i].description);
	}
	free(p->targets);
	lab_strv_release(&p->refused);
	lab_strv_release(&p->notes);
	free(p->mgmt_unknown);
	free(p->mgmt_port);
	memset(p, 0, sizeof(*p));
}

void
lab_vlan_writes_release(struct lab_vlan_writes *w)
{
	size_t	i;

	for (i = 0; i < w->n; i++)
		free(w->v[i].what);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

void
lab_vlan_probe_release(struct lab_vlan_probe *p)
{
	free(p->why);
	memset(p, 0, sizeof(*p));
}

void
lab_switch_apply_rows_release(struct lab_switch_apply_rows *r)
{
	size_t	i, j;

	for (i = 0; i < r->n; i++) {
		struct lab_switch_apply_row *a = &r->v[i];

		free(a->switch_name);
		free(a->user);
		free(a->status);
		free(a->message);
		for (j = 0; j < a->nchanges; j++) {
			free(a->changes[j].port);
			free(a->changes[j].from);
			free(a->changes[j].to);
		}
		free(a->changes);
		free(a->states);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

void
lab_switch_results_free(struct lab_switch_result *r, size_t n)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < n; i++) {
		lab_switch_plan_release(&r[i].plan);
		lab_vlan_writes_release(&r[i].writes);
	}
	free(r);
}
