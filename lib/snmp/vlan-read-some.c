/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The fast read: the VLAN table live, and only the ports a plan
 * changes, over the structure the last discovery stored (ports, bridge
 * port map, LAGs). Whatever of that structure the read meets is checked
 * against the agent; a mismatch says "stale" and the caller reads all.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"
#include "vlan-oids.h"
#include "vlan-read-priv.h"

static const struct lab_oid vlan_cols[] = {
	LAB_OID_COL(LAB_OID_DOT1Q_STATIC_NAME),
	LAB_OID_COL(LAB_OID_DOT1Q_STATIC_EGRESS),
	LAB_OID_COL(LAB_OID_DOT1Q_STATIC_UNTAGGED),
};

/* What is read of one port, in this order; by bridge port or ifindex. */
static const struct lab_oid port_cols[] = {
	LAB_OID_COL(LAB_OID_DOT1Q_PVID),
	LAB_OID_COL(LAB_OID_DOT1D_BASE_PORT_IFINDEX),
	LAB_OID_COL(LAB_OID_IF_NAME),
	LAB_OID_COL(LAB_OID_IF_ALIAS),
	LAB_OID_COL(LAB_OID_LAG_ATTACHED),
	LAB_OID_COL(LAB_OID_SB_PORT_MODE),
	LAB_OID_COL(LAB_OID_SB_ACCESS_VLAN),
	LAB_OID_COL(LAB_OID_SB_TRUNK_NATIVE),
};
enum { P_PVID, P_BRIDGE, P_NAME, P_ALIAS, P_AGG, P_MODE, P_ACCESS, P_NATIVE,
	P_N };

static int
is_col(const struct lab_varbind *vb, const struct lab_oid *o)
{
	return vb->oid_len == o->len + 1 &&
	    memcmp(vb->oid, o->v, o->len * sizeof(o->v[0])) == 0;
}

/* 1 when a list sets a bridge port the stored map lacks. */
static int
unknown_bit(const struct lab_varbind *vb, const unsigned char *known,
    size_t nknown)
{
	size_t	i;
	int	b;

	for (i = 0; i < vb->str_len; i++)
		for (b = 0; b < 8; b++) {
			size_t bp = i * 8 + (size_t)b + 1;

			if ((vb->str[i] & (0x80u >> b)) == 0)
				continue;
			if (bp >= nknown || !known[bp])
				return 1;
		}
	return 0;
}

int
lab_vlan_read_vlans(struct lab_snmp *s, struct lab_vlan_state *st,
    struct lab_err *err)
{
	struct lab_varbind_list	 l;
	unsigned char		*known;
	size_t			 i, nknown = 65536;
	int			 rc = -1, stale = 0, reps;

	memset(&l, 0, sizeof(l));
	if ((known = calloc(nknown, 1)) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < st->bridge.n; i++)
		if (st->bridge.v[i].port < nknown)
			known[st->bridge.v[i].port] = 1;
	/*
	 * One GETBULK sized to the VLANs the last discovery saw, and one
	 * row more to see the end of each column: each row past it costs
	 * the agent three values (two of them whole port lists). More
	 * VLANs than that: the walk goes on as usual.
	 */
	reps = st->nvlans_known > 0 && st->nvlans_known < 15 ?
	    3 * ((int)st->nvlans_known + 1) : 48;
	if (lab_snmp_walk(s, vlan_cols, 3, reps, &l, err) == -1)
		goto out;
	st->list_len = 0;
	for (i = 0; i < l.n; i++) {
		if (is_col(&l.v[i], &vlan_cols[0]))
			st->has_qbridge = 1;
		if (l.v[i].type != LAB_SNMP_OCTETS || is_col(&l.v[i],
		    &vlan_cols[0]))
			continue;
		st->has_qbridge = 1;
		if (l.v[i].str_len > st->list_len)
			st->list_len = l.v[i].str_len;
		if (unknown_bit(&l.v[i], known, nknown))
			stale = 1;
	}
	if (!st->has_qbridge) {
		rc = lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: no "
		    "Q-BRIDGE-MIB VLAN table", lab_snmp_peer(s));
		goto out;
	}
	if (stale) {
		rc = 1;
		goto out;
	}
	lab_snmp_vlans_release(&st->vlans);
	if (lab_mib_vlan_map(l.v, l.n, &st->bridge, &st->vlans, err) == -1 ||
	    lab_vlan_state_set_peer(st, lab_snmp_peer(s), err) == -1)
		goto out;
	rc = 0;
out:
	free(known);
	lab_varbind_list_release(&l);
	return rc;
}

static int
text_is(const struct lab_snmp_value *v, const char *s)
{
	return !v->absent && v->type == LAB_SNMP_OCTETS &&
	    v->len == strlen(s) && memcmp(v->str, s, v->len) == 0;
}

static int
int_of(const struct lab_snmp_value *v, int64_t *x)
{
	if (v->absent)
		return 0;
	if (v->type == LAB_SNMP_INTEGER)
		*x = v->i;
	else if (v->type == LAB_SNMP_GAUGE32)
		*x = (int64_t)v->u;
	else
		return 0;
	return 1;
}

/* Takes one port's values into its row; 1 when the structure is stale. */
static int
take(struct lab_vlan_state *st, struct lab_vlan_port *p,
    const struct lab_snmp_value *v, struct lab_err *err)
{
	int64_t	x;
	char	*alias;

	if (p->bridge_port != 0 && (!int_of(&v[P_BRIDGE], &x) ||
	    (unsigned long)x != p->ifindex))
		return 1;
	if (p->name != NULL && p->name[0] != '\0' && !text_is(&v[P_NAME],
	    p->name))
		return 1;
	x = 0;
	if (!p->is_lag && (int_of(&v[P_AGG], &x) ? (unsigned long)x : 0) !=
	    p->lag)
		return 1;
	if (p->bridge_port != 0 && int_of(&v[P_PVID], &x) && x > 0 &&
	    x <= 4094) {
		st->vlans.pvid[st->vlans.npvid].ifindex = p->ifindex;
		st->vlans.pvid[st->vlans.npvid++].vlan = (unsigned long)x;
		p->pvid = (unsigned long)x;
	}
	if (!v[P_ALIAS].absent && v[P_ALIAS].type == LAB_SNMP_OCTETS) {
		if ((alias = strndup((const char *)v[P_ALIAS].str,
		    v[P_ALIAS].len)) == NULL)
			return lab_err_oom(err);
		free(p->alias);
		p->alias = alias;
	}
	if (!v[P_MODE].absent && v[P_MODE].type == LAB_SNMP_INTEGER) {
		st->has_ciscosb = 1;
		p->mode = lab_vlan_mode_of(v[P_MODE].i);
	}
	if (int_of(&v[P_ACCESS], &x) && x > 0 && x <= 4094)
		p->access_vlan = (unsigned long)x;
	if (int_of(&v[P_NATIVE], &x) && x > 0 && x <= 4094)
		p->trunk_native = (unsigned long)x;
	return 0;
}

static void
ask(struct lab_snmp_value *v, const struct lab_vlan_port *p)
{
	int	c;

	for (c = 0; c < P_N; c++) {
		memset(&v[c], 0, sizeof(v[c]));
		v[c].oid = (struct lab_oid){ .len = port_cols[c].len + 1 };
		memcpy(v[c].oid.v, port_cols[c].v, port_cols[c].len *
		    sizeof(port_cols[c].v[0]));
		v[c].oid.v[port_cols[c].len] = c == P_PVID || c == P_BRIDGE ?
		    p->bridge_port : p->ifindex;
	}
}

static int
cmp_pvid(const void *a, const void *b)
{
	const struct lab_snmp_pvid	*x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

int
lab_vlan_read_ports(struct lab_snmp *s, struct lab_vlan_state *st,
    const unsigned long *ifx, const unsigned *need, size_t n,
    struct lab_err *err)
{
	struct lab_vlan_port	**ports;
	struct lab_snmp_value	 *v, *q;
	unsigned		 *want;
	size_t			  i, k, c, nq, np = 0;
	int			  r = -1;

	free(st->vlans.pvid);
	st->vlans.npvid = 0;
	st->vlans.pvid = calloc(n + 1, sizeof(*st->vlans.pvid));
	ports = calloc(n + 1, sizeof(*ports));
	want = calloc(n + 1, sizeof(*want));
	v = calloc((n + 1) * P_N, sizeof(*v));
	q = calloc((n + 1) * P_N, sizeof(*q));
	if (st->vlans.pvid == NULL || ports == NULL || want == NULL ||
	    v == NULL || q == NULL) {
		r = lab_err_oom(err);
		goto out;
	}
	/* the ports asked for, each once, those the switch has */
	for (i = 0; i < n; i++) {
		struct lab_vlan_port *p = (struct lab_vlan_port *)
		    lab_vlan_state_port(st, ifx[i]);

		for (k = 0; p != NULL && k < np; k++)
			if (ports[k] == p) {
				want[k] |= need ? need[i] : LAB_VLAN_READ_ALL;
				p = NULL;
			}
		if (p == NULL)
			continue;
		want[np] = need ? need[i] : LAB_VLAN_READ_ALL;
		ports[np++] = p;
	}
	/*
	 * Every column a port needs, in as few GETs as the agent takes:
	 * the checks and the PVID always; ifAlias, the access and the
	 * native VLAN only where the plan may write them.
	 */
	for (i = nq = 0; i < np; i++) {
		ask(&v[i * P_N], ports[i]);
		for (c = 0; c < P_N; c++) {
			if ((c == P_ALIAS && !(want[i] & LAB_VLAN_READ_ALIAS)) ||
			    (c == P_ACCESS && !(want[i] & LAB_VLAN_READ_ACCESS)) ||
			    (c == P_NATIVE && !(want[i] & LAB_VLAN_READ_NATIVE))) {
				v[i * P_N + c].absent = 1;
				continue;
			}
			q[nq++] = v[i * P_N + c];
		}
	}
	if (nq > 0 && lab_snmp_get_values(s, q, nq, err) == -1)
		goto out;
	for (i = k = 0; i < np; i++)
		for (c = 0; c < P_N; c++)
			if (!v[i * P_N + c].absent)
				v[i * P_N + c] = q[k++];
	for (i = 0; i < np; i++)
		if ((r = take(st, ports[i], &v[i * P_N], err)) != 0)
			goto out;
	qsort(st->vlans.pvid, st->vlans.npvid, sizeof(*st->vlans.pvid),
	    cmp_pvid);
	lab_snmp_get_stats(s, &st->stats);
	r = 0;
out:
	free(ports);
	free(want);
	free(v);
	free(q);
	return r;
}
