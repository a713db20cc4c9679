/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The live VLAN state of one agent: Q-BRIDGE, Cisco SB port modes. */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"
#include "vlan-oids.h"
#include "vlan-read-priv.h"

/* The columns of one read, packed into shared GETBULKs. */
static const struct lab_oid cols[] = {
	LAB_OID_COL(LAB_OID_DOT1Q_STATIC_NAME),
	LAB_OID_COL(LAB_OID_DOT1Q_STATIC_EGRESS),
	LAB_OID_COL(LAB_OID_DOT1Q_STATIC_UNTAGGED),
	LAB_OID_COL(LAB_OID_DOT1Q_PVID),
	LAB_OID_COL(LAB_OID_DOT1D_BASE_PORT_IFINDEX),
	LAB_OID_COL(LAB_OID_IF_TYPE),
	LAB_OID_COL(LAB_OID_IF_NAME),
	LAB_OID_COL(LAB_OID_IF_ALIAS),
	LAB_OID_COL(LAB_OID_LAG_ATTACHED),
	LAB_OID_COL(LAB_OID_SB_PORT_MODE),
	LAB_OID_COL(LAB_OID_SB_ACCESS_VLAN),
	LAB_OID_COL(LAB_OID_SB_TRUNK_NATIVE),
};
enum { C_NAME, C_EGRESS, C_UNTAGGED, C_PVID, C_BRIDGE, C_TYPE, C_IFNAME,
	C_ALIAS, C_AGG, C_MODE, C_ACCESS, C_NATIVE, NCOLS };

/* The index of a varbind in column c (one arc), or 0. */
static unsigned long
index_in(const struct lab_varbind *vb, int c)
{
	const struct lab_oid	*o = &cols[c];

	if (vb->oid_len != o->len + 1 ||
	    memcmp(vb->oid, o->v, o->len * sizeof(o->v[0])) != 0)
		return 0;
	return vb->oid[o->len];
}

enum lab_port_mode
lab_vlan_mode_of(int64_t v)
{
	switch (v) {
	case LAB_SB_MODE_GENERAL:
		return LAB_PORT_MODE_GENERAL;
	case LAB_SB_MODE_ACCESS:
		return LAB_PORT_MODE_ACCESS;
	case LAB_SB_MODE_TRUNK:
		return LAB_PORT_MODE_TRUNK;
	default:
		return LAB_PORT_MODE_OTHER;
	}
}

static int
cmp_port(const void *a, const void *b)
{
	const struct lab_vlan_port	*x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

static struct lab_vlan_port *
find(struct lab_vlan_state *st, unsigned long ifindex)
{
	return (struct lab_vlan_port *)lab_vlan_state_port(st, ifindex);
}

/* The ports: bridge ports and LAGs, named from IF-MIB. */
static int
make_ports(struct lab_vlan_state *st, const struct lab_snmp_ports *ifs,
    const struct lab_snmp_lags *lags, struct lab_err *err)
{
	size_t	i, j, n = 0;

	st->ports = calloc(st->bridge.n + lags->n + 1, sizeof(*st->ports));
	if (st->ports == NULL)
		return lab_err_oom(err);
	for (i = 0; i < st->bridge.n; i++) {
		st->ports[n].ifindex = st->bridge.v[i].ifindex;
		st->ports[n++].bridge_port = st->bridge.v[i].port;
	}
	for (i = 0; i < lags->n; i++) {
		for (j = 0; j < n; j++)
			if (st->ports[j].ifindex == lags->v[i].ifindex)
				break;
		if (j == n)
			st->ports[n++].ifindex = lags->v[i].ifindex;
	}
	qsort(st->ports, n, sizeof(*st->ports), cmp_port);
	st->nports = n;
	for (i = 0; i < n; i++) {
		struct lab_vlan_port	*p = &st->ports[i];
		const char		*name = "", *alias = "";

		for (j = 0; j < ifs->n; j++) {
			if (ifs->v[j].ifindex == p->ifindex) {
				name = ifs->v[j].name;
				alias = ifs->v[j].alias;
				break;
			}
		}
		if ((p->name = strdup(name)) == NULL ||
		    (p->alias = strdup(alias)) == NULL)
			return lab_err_oom(err);
	}
	for (i = 0; i < lags->n; i++) {
		struct lab_vlan_port	*p = find(st, lags->v[i].ifindex);

		if (p != NULL)
			p->is_lag = 1;
		for (j = 0; j < lags->v[i].members.n; j++) {
			if ((p = find(st, lags->v[i].members.v[j])) != NULL)
				p->lag = lags->v[i].ifindex;
		}
	}
	for (i = 0; i < st->vlans.npvid; i++) {
		struct lab_vlan_port	*p = find(st, st->vlans.pvid[i].ifindex);

		if (p != NULL)
			p->pvid = st->vlans.pvid[i].vlan;
	}
	return 0;
}

/* Cisco SB mode, access and native VLAN, by ifindex. */
static void
cisco_columns(struct lab_vlan_state *st, const struct lab_varbind_list *l)
{
	struct lab_vlan_port	*p;
	unsigned long		 ix;
	size_t			 i;
	int			 c;

	for (i = 0; i < l->n; i++) {
		for (c = C_MODE; c <= C_NATIVE; c++) {
			if ((ix = index_in(&l->v[i], c)) == 0)
				continue;
			if (l->v[i].type != LAB_SNMP_INTEGER)
				break;
			if (c == C_MODE)
				st->has_ciscosb = 1;
			if ((p = find(st, ix)) == NULL)
				break;
			if (c == C_MODE)
				p->mode = lab_vlan_mode_of(l->v[i].i);
			else if (l->v[i].i > 0 && l->v[i].i <= 4094) {
				if (c == C_ACCESS)
					p->access_vlan = (unsigned long)l->v[i].i;
				else
					p->trunk_native =
					    (unsigned long)l->v[i].i;
			}
			break;
		}
	}
}

int
lab_vlan_state_set_peer(struct lab_vlan_state *st, const char *peer,
    struct lab_err *err)
{
	const char	*colon = strrchr(peer, ':');
	size_t		 n = colon != NULL ? (size_t)(colon - peer) : strlen(peer);

	if (n >= 2 && peer[0] == '[' && peer[n - 1] == ']') {
		peer++;
		n -= 2;
	}
	if ((st->mgmt_address = strndup(peer, n)) == NULL)
		return lab_err_oom(err);
	return 0;
}

int
lab_vlan_read(struct lab_snmp *s, struct lab_vlan_state *ret,
    struct lab_err *err)
{
	struct lab_varbind_list	 l;
	struct lab_snmp_ports	 ifs;
	struct lab_snmp_lags	 lags;
	size_t			 i;
	int			 has_static = 0, rc = -1;

	memset(ret, 0, sizeof(*ret));
	memset(&l, 0, sizeof(l));
	memset(&ifs, 0, sizeof(ifs));
	memset(&lags, 0, sizeof(lags));
	if (lab_snmp_walk(s, cols, NCOLS, 48, &l, err) == -1)
		goto out;
	for (i = 0; i < l.n; i++) {
		if (index_in(&l.v[i], C_EGRESS) != 0 &&
		    l.v[i].type == LAB_SNMP_OCTETS) {
			has_static = 1;
			if (l.v[i].str_len > ret->list_len)
				ret->list_len = l.v[i].str_len;
		} else if (index_in(&l.v[i], C_NAME) != 0)
			has_static = 1;
	}
	if (lab_mib_vlan(l.v, l.n, &ret->vlans, err) == -1 ||
	    lab_mib_bridge(l.v, l.n, &ret->bridge, err) == -1 ||
	    lab_mib_ifaces(l.v, l.n, &ifs, err) == -1 ||
	    lab_mib_lag(l.v, l.n, &lags, err) == -1)
		goto out;
	if (!has_static && ret->vlans.npvid == 0) {
		lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: no Q-BRIDGE-MIB "
		    "VLAN table", lab_snmp_peer(s));
		goto out;
	}
	ret->has_qbridge = has_static && ret->vlans.npvid > 0;
	if (make_ports(ret, &ifs, &lags, err) == -1)
		goto out;
	cisco_columns(ret, &l);
	if (lab_vlan_state_set_peer(ret, lab_snmp_peer(s), err) == -1)
		goto out;
	lab_snmp_get_stats(s, &ret->stats);
	rc = 0;
out:
	lab_varbind_list_release(&l);
	lab_snmp_ports_release(&ifs);
	lab_snmp_lags_release(&lags);
	if (rc == -1)
		lab_vlan_state_release(ret);
	return rc;
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
