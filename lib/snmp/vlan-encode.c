/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A plan as SET values in phases (lab_vlan_encode). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"
#include "vlan-oids.h"

static const unsigned long oid_name[] = { LAB_OID_DOT1Q_STATIC_NAME };
static const unsigned long oid_egress[] = { LAB_OID_DOT1Q_STATIC_EGRESS };
static const unsigned long oid_untagged[] = { LAB_OID_DOT1Q_STATIC_UNTAGGED };
static const unsigned long oid_row[] = { LAB_OID_DOT1Q_STATIC_ROWSTATUS };
static const unsigned long oid_pvid[] = { LAB_OID_DOT1Q_PVID };
static const unsigned long oid_alias[] = { LAB_OID_IF_ALIAS };
static const unsigned long oid_mode[] = { LAB_OID_SB_PORT_MODE };
static const unsigned long oid_access[] = { LAB_OID_SB_ACCESS_VLAN };
static const unsigned long oid_native[] = { LAB_OID_SB_TRUNK_NATIVE };

#define COL(c)	(c), sizeof(c) / sizeof((c)[0])

/* One VLAN's lists as they are, after the additions, and at the end. */
struct vl {
	unsigned long	 id;
	int		 created;
	int		 deleted;
	int		 mangled;	/* its lists did not read whole */
	unsigned char	 eg[3][LAB_MIB_MAX_PORTLIST];	/* now, add, final */
	unsigned char	 un[3][LAB_MIB_MAX_PORTLIST];
};

static int
push(struct lab_vlan_writes *w, size_t *cap, enum lab_vlan_phase ph,
    const unsigned long *col, size_t ncol, unsigned long index,
    struct lab_err *err, const char *fmt, ...) LAB_PRINTF(8, 9);

static int
push(struct lab_vlan_writes *w, size_t *cap, enum lab_vlan_phase ph,
    const unsigned long *col, size_t ncol, unsigned long index,
    struct lab_err *err, const char *fmt, ...)
{
	struct lab_vlan_write	*x;
	va_list			 ap;
	char			 buf[128];

	if (w->n == *cap) {
		size_t	ncap = *cap ? *cap * 2 : 32;

		x = reallocarray(w->v, ncap, sizeof(*x));
		if (x == NULL)
			return lab_err_oom(err);
		w->v = x;
		*cap = ncap;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	x = &w->v[w->n];
	memset(x, 0, sizeof(*x));
	if ((x->what = strdup(buf)) == NULL)
		return lab_err_oom(err);
	x->phase = ph;
	memcpy(x->to.oid.v, col, ncol * sizeof(col[0]));
	x->to.oid.v[ncol] = index;
	x->to.oid.len = ncol + 1;
	x->before.oid = x->to.oid;
	w->n++;
	return 0;
}

static void
set_int(struct lab_vlan_write *x, int64_t v)
{
	x->to.type = LAB_SNMP_INTEGER;
	x->to.i = v;
}

static void
set_u32(struct lab_vlan_write *x, uint64_t v)
{
	x->to.type = LAB_SNMP_GAUGE32;
	x->to.u = v;
}

static void
set_str(struct lab_vlan_write *x, const void *s, size_t len)
{
	if (len > sizeof(x->to.str))
		len = sizeof(x->to.str);
	x->to.type = LAB_SNMP_OCTETS;
	memcpy(x->to.str, s, len);
	x->to.len = len;
}

static unsigned long
bridge_port(const struct lab_vlan_state *st, unsigned long ifindex)
{
	const struct lab_vlan_port *p = lab_vlan_state_port(st, ifindex);

	return p ? p->bridge_port : 0;
}

static void
ifset_list(const struct lab_vlan_state *st, const struct lab_snmp_ifset *s,
    unsigned char *list)
{
	size_t	i;

	for (i = 0; i < s->n; i++)
		lab_portlist_set(list, st->list_len,
		    bridge_port(st, s->v[i]), 1);
}

static int
has(const unsigned long *v, size_t n, unsigned long id)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			return 1;
	return 0;
}

/* The lists of every VLAN: the switch's, then each target applied. */
static int
lists(const struct lab_switch_plan *p, const struct lab_vlan_state *st,
    struct vl **ret, size_t *nret, struct lab_err *err)
{
	struct vl	*v;
	size_t		 n = 0, i, j, k;

	v = calloc(st->vlans.n + p->nvlans + 1, sizeof(*v));
	if (v == NULL)
		return lab_err_oom(err);
	for (i = 0; i < st->vlans.n; i++, n++) {
		v[n].id = st->vlans.v[i].id;
		v[n].mangled = st->vlans.v[i].lists_mangled;
		ifset_list(st, &st->vlans.v[i].egress, v[n].eg[0]);
		ifset_list(st, &st->vlans.v[i].untagged, v[n].un[0]);
	}
	for (i = 0; i < p->nvlans; i++) {
		const struct lab_vlan_action *a = &p->vlans[i];

		for (j = 0; j < n && v[j].id != a->id; j++)
			continue;
		if (j == n)
			v[n++].id = a->id;
		if (strcmp(a->action, "create") == 0)
			v[j].created = 1;
		else if (strcmp(a->action, "delete") == 0)
			v[j].deleted = 1;
	}
	for (j = 0; j < n; j++) {
		memcpy(v[j].eg[1], v[j].eg[0], st->list_len);
		memcpy(v[j].un[1], v[j].un[0], st->list_len);
		memcpy(v[j].eg[2], v[j].eg[0], st->list_len);
		memcpy(v[j].un[2], v[j].un[0], st->list_len);
	}
	for (k = 0; k < p->ntargets; k++) {
		const struct lab_port_target *t = &p->targets[k];
		unsigned long bp = t->bridge_port;
		int in_un, in_eg;

		if (bp == 0)
			bp = bridge_port(st, t->ifindex);
		if (bp == 0)
			continue;
		for (j = 0; j < n; j++) {
			in_un = has(t->untagged, t->nuntagged, v[j].id);
			in_eg = in_un || has(t->tagged, t->ntagged, v[j].id);
			lab_portlist_set(v[j].eg[2], st->list_len, bp, in_eg);
			lab_portlist_set(v[j].un[2], st->list_len, bp, in_un);
			if (in_eg)
				lab_portlist_set(v[j].eg[1], st->list_len, bp, 1);
			if (in_un)
				lab_portlist_set(v[j].un[1], st->list_len, bp, 1);
		}
	}
	*ret = v;
	*nret = n;
	return 0;
}

static int
list_write(struct lab_vlan_writes *w, size_t *cap, enum lab_vlan_phase ph,
    const struct vl *v, int untagged, int from, int to, size_t len,
    struct lab_err *err)
{
	const unsigned char *a = untagged ? v->un[from] : v->eg[from];
	const unsigned char *b = untagged ? v->un[to] : v->eg[to];

	if (!v->created && memcmp(a, b, len) == 0)
		return 0;
	if (v->created && to == 2 && memcmp(a, b, len) == 0)
		return 0;
	if (v->mangled)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "VLAN %lu: its port "
		    "lists did not read whole; not writing them", v->id);
	if (push(w, cap, ph, untagged ? oid_untagged : oid_egress,
	    sizeof(oid_egress) / sizeof(oid_egress[0]), v->id, err, "VLAN %lu %s", v->id,
	    untagged ? "untagged" : "egress") == -1)
		return -1;
	set_str(&w->v[w->n - 1], b, len);
	return 0;
}

static int
vlan_writes(const struct lab_switch_plan *p, const struct lab_vlan_state *st,
    const struct vl *v, size_t nv, struct lab_vlan_writes *w, size_t *cap,
    struct lab_err *err)
{
	size_t	i, j;
	size_t	len = st->list_len;

	for (i = 0; i < p->nvlans; i++) {
		const struct lab_vlan_action *a = &p->vlans[i];
		const char *name = a->name ? a->name : "";

		if (strcmp(a->action, "create") != 0)
			continue;
		if (push(w, cap, LAB_VLAN_PHASE_CREATE, COL(oid_row), a->id,
		    err, "VLAN %lu create", a->id) == -1)
			return -1;
		set_int(&w->v[w->n - 1], LAB_ROW_CREATE_AND_GO);
		if (push(w, cap, LAB_VLAN_PHASE_CREATE, COL(oid_name), a->id,
		    err, "VLAN %lu name", a->id) == -1)
			return -1;
		set_str(&w->v[w->n - 1], name, strlen(name));
	}
	for (i = 0; i < p->nvlans; i++) {
		const struct lab_vlan_action *a = &p->vlans[i];

		if (strcmp(a->action, "rename") != 0 || a->name == NULL)
			continue;
		if (push(w, cap, LAB_VLAN_PHASE_RENAME, COL(oid_name), a->id,
		    err, "VLAN %lu name", a->id) == -1)
			return -1;
		set_str(&w->v[w->n - 1], a->name, strlen(a->name));
	}

	for (j = 0; j < nv; j++) {
		if (v[j].deleted)
			continue;
		if (list_write(w, cap, LAB_VLAN_PHASE_ADD, &v[j], 0, 0, 1, len,
		    err) == -1 || list_write(w, cap, LAB_VLAN_PHASE_ADD, &v[j],
		    1, 0, 1, len, err) == -1)
			return -1;
	}
	return 0;
}

static int
remove_writes(const struct lab_vlan_state *st, const struct vl *v, size_t nv,
    struct lab_vlan_writes *w, size_t *cap, struct lab_err *err)
{
	size_t	j;

	for (j = 0; j < nv; j++) {
		if (v[j].deleted)
			continue;
		/* untagged first: it must stay within egress */
		if (list_write(w, cap, LAB_VLAN_PHASE_REMOVE, &v[j], 1, 1, 2,
		    st->list_len, err) == -1 || list_write(w, cap,
		    LAB_VLAN_PHASE_REMOVE, &v[j], 0, 1, 2, st->list_len,
		    err) == -1)
			return -1;
	}
	return 0;
}

static int
port_writes(const struct lab_port_target *t, const struct lab_vlan_state *st,
    enum lab_vlan_phase ph, struct lab_vlan_writes *w, size_t *cap,
    struct lab_err *err)
{
	const struct lab_vlan_port *vp = lab_vlan_state_port(st, t->ifindex);
	const char *name = vp && vp->name ? vp->name : NULL;
	char ifname[32];
	unsigned long bp = t->bridge_port ? t->bridge_port :
	    (vp ? vp->bridge_port : 0);
	int sb = st->has_ciscosb && t->mode != LAB_PORT_MODE_NONE;

	if (name == NULL) {
		snprintf(ifname, sizeof(ifname), "ifindex %lu", t->ifindex);
		name = ifname;
	}
	switch (ph) {
	case LAB_VLAN_PHASE_MODE:
		if (!sb || (vp && vp->mode == t->mode) ||
		    (t->mode != LAB_PORT_MODE_ACCESS &&
		    t->mode != LAB_PORT_MODE_TRUNK))
			return 0;
		if (push(w, cap, ph, COL(oid_mode), t->ifindex, err,
		    "%s mode", name) == -1)
			return -1;
		set_int(&w->v[w->n - 1], t->mode == LAB_PORT_MODE_ACCESS ?
		    LAB_SB_MODE_ACCESS : LAB_SB_MODE_TRUNK);
		return 0;
	case LAB_VLAN_PHASE_PVID:
		if (t->pvid == 0)
			return 0;
		if (bp != 0 && (vp == NULL || vp->pvid != t->pvid)) {
			if (push(w, cap, ph, COL(oid_pvid), bp, err,
			    "%s pvid", name) == -1)
				return -1;
			set_u32(&w->v[w->n - 1], t->pvid);
		}
		if (sb && t->mode == LAB_PORT_MODE_ACCESS &&
		    (vp == NULL || vp->access_vlan != t->pvid)) {
			if (push(w, cap, ph, COL(oid_access), t->ifindex, err,
			    "%s access vlan", name) == -1)
				return -1;
			set_int(&w->v[w->n - 1], (int64_t)t->pvid);
		}
		if (sb && t->mode == LAB_PORT_MODE_TRUNK &&
		    (vp == NULL || vp->trunk_native != t->pvid)) {
			if (push(w, cap, ph, COL(oid_native), t->ifindex, err,
			    "%s native vlan", name) == -1)
				return -1;
			set_int(&w->v[w->n - 1], (int64_t)t->pvid);
		}
		return 0;
	case LAB_VLAN_PHASE_DESCR:
		if (t->description == NULL ||
		    (vp && vp->alias && strcmp(vp->alias, t->description) == 0))
			return 0;
		if (push(w, cap, ph, COL(oid_alias), t->ifindex, err,
		    "%s description", name) == -1)
			return -1;
		set_str(&w->v[w->n - 1], t->description,
		    strlen(t->description));
		return 0;
	default:
		return 0;
	}
}

/* The state's VLAN id, or NULL when the switch has none. */
static const struct lab_snmp_vlan *
state_vlan(const struct lab_vlan_state *st, unsigned long id)
{
	size_t	i;

	for (i = 0; i < st->vlans.n; i++)
		if (st->vlans.v[i].id == id)
			return &st->vlans.v[i];
	return NULL;
}

static int
col_is(const struct lab_snmp_value *v, const unsigned long *col, size_t n)
{
	return v->oid.len == n + 1 &&
	    memcmp(v->oid.v, col, n * sizeof(col[0])) == 0;
}

static void
before_str(struct lab_snmp_value *b, const void *s, size_t len)
{
	if (len > sizeof(b->str))
		len = sizeof(b->str);
	b->type = LAB_SNMP_OCTETS;
	memcpy(b->str, s, len);
	b->len = len;
}

static int
before_int(struct lab_snmp_value *b, int64_t v)
{
	b->type = LAB_SNMP_INTEGER;
	b->i = v;
	return 1;
}

/*
 * x's value before the change, as the plan's read saw it moments ago:
 * 1 when the state tells it, 0 when it does not (the caller then reads
 * every value from the agent, as before).
 */
static int
known_before(struct lab_vlan_write *x, const struct lab_vlan_state *st,
    const struct vl *v, size_t nv)
{
	struct lab_snmp_value		*b = &x->before;
	unsigned long			 ix = x->to.oid.v[x->to.oid.len - 1];
	const struct lab_snmp_vlan	*sv = state_vlan(st, ix);
	const struct lab_vlan_port	*vp = lab_vlan_state_port(st, ix);
	size_t				 j;

	if (col_is(b, COL(oid_row))) {
		if (sv == NULL)
			b->absent = 1;
		else
			before_int(b, LAB_ROW_ACTIVE);
		return 1;
	}
	if (col_is(b, COL(oid_name)) || col_is(b, COL(oid_egress)) ||
	    col_is(b, COL(oid_untagged))) {
		if (sv == NULL) {
			b->absent = 1;
			return 1;
		}
		if (col_is(b, COL(oid_name))) {
			before_str(b, sv->name, strlen(sv->name));
			return 1;
		}
		for (j = 0; j < nv && v[j].id != ix; j++)
			continue;
		if (j == nv || v[j].mangled)
			return 0;
		before_str(b, col_is(b, COL(oid_egress)) ? v[j].eg[0] :
		    v[j].un[0], st->list_len);
		return 1;
	}
	if (col_is(b, COL(oid_pvid))) {
		for (j = 0; j < st->nports; j++)
			if (st->ports[j].bridge_port == ix &&
			    st->ports[j].pvid != 0) {
				b->type = LAB_SNMP_GAUGE32;
				b->u = st->ports[j].pvid;
				return 1;
			}
		return 0;
	}
	if (vp == NULL)
		return 0;
	if (col_is(b, COL(oid_mode)))
		switch (vp->mode) {
		case LAB_PORT_MODE_GENERAL:
			return before_int(b, LAB_SB_MODE_GENERAL);
		case LAB_PORT_MODE_ACCESS:
			return before_int(b, LAB_SB_MODE_ACCESS);
		case LAB_PORT_MODE_TRUNK:
			return before_int(b, LAB_SB_MODE_TRUNK);
		default:
			return 0;
		}
	if (col_is(b, COL(oid_access)))
		return vp->access_vlan != 0 &&
		    before_int(b, (int64_t)vp->access_vlan);
	if (col_is(b, COL(oid_native)))
		return vp->trunk_native != 0 &&
		    before_int(b, (int64_t)vp->trunk_native);
	if (col_is(b, COL(oid_alias)) && vp->alias != NULL) {
		before_str(b, vp->alias, strlen(vp->alias));
		return 1;
	}
	return 0;
}

static int
encode(const struct lab_switch_plan *p, const struct lab_vlan_state *st,
    const struct vl *v, size_t nv, struct lab_vlan_writes *w,
    struct lab_err *err)
{
	size_t	cap = 0, i;

	if (vlan_writes(p, st, v, nv, w, &cap, err) == -1)
		return -1;
	/* MODE before ADD: vlan_writes put ADD last, so move it after */
	{
		size_t add0 = w->n, nadd;
		struct lab_vlan_write *tmp;

		for (i = 0; i < w->n; i++)
			if (w->v[i].phase == LAB_VLAN_PHASE_ADD) {
				add0 = i;
				break;
			}
		nadd = w->n - add0;
		for (i = 0; i < p->ntargets; i++)
			if (port_writes(&p->targets[i], st, LAB_VLAN_PHASE_MODE,
			    w, &cap, err) == -1)
				return -1;
		if (nadd > 0 && w->n > add0 + nadd) {
			size_t nmode = w->n - add0 - nadd;

			tmp = malloc(nadd * sizeof(*tmp));
			if (tmp == NULL)
				return lab_err_oom(err);
			memcpy(tmp, &w->v[add0], nadd * sizeof(*tmp));
			memmove(&w->v[add0], &w->v[add0 + nadd],
			    nmode * sizeof(*tmp));
			memcpy(&w->v[add0 + nmode], tmp, nadd * sizeof(*tmp));
			free(tmp);
		}
	}
	for (i = 0; i < p->ntargets; i++)
		if (port_writes(&p->targets[i], st, LAB_VLAN_PHASE_PVID, w,
		    &cap, err) == -1)
			return -1;
	if (remove_writes(st, v, nv, w, &cap, err) == -1)
		return -1;
	for (i = 0; i < p->nvlans; i++) {
		const struct lab_vlan_action *a = &p->vlans[i];

		if (strcmp(a->action, "delete") != 0)
			continue;
		if (push(w, &cap, LAB_VLAN_PHASE_DELETE, COL(oid_row), a->id,
		    err, "VLAN %lu delete", a->id) == -1)
			return -1;
		set_int(&w->v[w->n - 1], LAB_ROW_DESTROY);
	}
	for (i = 0; i < p->ntargets; i++)
		if (port_writes(&p->targets[i], st, LAB_VLAN_PHASE_DESCR, w,
		    &cap, err) == -1)
			return -1;
	return 0;
}

int
lab_vlan_encode(const struct lab_switch_plan *p, const struct lab_vlan_state *st,
    struct lab_vlan_writes *ret, struct lab_err *err)
{
	struct vl	*v = NULL;
	size_t		 nv = 0, i;

	memset(ret, 0, sizeof(*ret));
	if (st->list_len == 0 || st->list_len > LAB_MIB_MAX_PORTLIST)
		return lab_err_set(err, LAB_EXIT_PARTIAL,
		    "switch %s: no usable PortList length (%zu octets)",
		    p->switch_name ? p->switch_name : "?", st->list_len);
	if (lists(p, st, &v, &nv, err) == -1)
		return -1;
	if (encode(p, st, v, nv, ret, err) == -1) {
		free(v);
		lab_vlan_writes_release(ret);
		return -1;
	}
	ret->before_known = 1;
	for (i = 0; i < ret->n; i++)
		if (!known_before(&ret->v[i], st, v, nv)) {
			ret->before_known = 0;
			break;
		}
	if (!ret->before_known)
		for (i = 0; i < ret->n; i++) {
			memset(&ret->v[i].before, 0, sizeof(ret->v[i].before));
			ret->v[i].before.oid = ret->v[i].to.oid;
		}
	free(v);
	return 0;
}
