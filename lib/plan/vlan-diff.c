/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The declared VLANs and wants against the live state: the plan. */
#include <stdlib.h>
#include <string.h>

#include "lab/str.h"
#include "lab/vlan.h"

static int
has(const struct lab_snmp_ifset *s, unsigned long ifindex)
{
	size_t	i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == ifindex)
			return 1;
	return 0;
}

static int
in(const unsigned long *v, size_t n, unsigned long x)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* "10,20", "" for none. */
static char *
list(const unsigned long *v, size_t n)
{
	struct lab_buf	b;
	size_t		i;

	lab_buf_init(&b);
	lab_buf_adds(&b, "");
	for (i = 0; i < n; i++)
		lab_buf_addf(&b, "%s%lu", i ? "," : "", v[i]);
	return lab_buf_steal(&b);
}

static unsigned long
cur_pvid(const struct lab_vlan_state *st, const struct lab_vlan_port *p)
{
	size_t	i;

	for (i = 0; i < st->vlans.npvid; i++)
		if (st->vlans.pvid[i].ifindex == p->ifindex)
			return st->vlans.pvid[i].vlan;
	return p->pvid;
}

/* The port's current untagged and tagged VLANs (sorted: vlans are). */
static int
members(const struct lab_vlan_state *st, unsigned long ifindex,
    unsigned long **u, size_t *nu, unsigned long **t, size_t *nt)
{
	size_t	i;

	*u = calloc(st->vlans.n + 1, sizeof(**u));
	*t = calloc(st->vlans.n + 1, sizeof(**t));
	*nu = *nt = 0;
	if (*u == NULL || *t == NULL)
		return -1;
	for (i = 0; i < st->vlans.n; i++) {
		const struct lab_snmp_vlan *v = &st->vlans.v[i];

		if (has(&v->untagged, ifindex))
			(*u)[(*nu)++] = v->id;
		else if (has(&v->egress, ifindex))
			(*t)[(*nt)++] = v->id;
	}
	return 0;
}

static int
change(struct lab_switch_plan *pl, const struct lab_vlan_port *p,
    const char *what, char *from, char *to)
{
	struct lab_port_change	*c;

	if (from == NULL || to == NULL)
		goto fail;
	if (strcmp(from, to) == 0) {
		free(from);
		free(to);
		return 0;
	}
	if ((c = lab_push(&pl->changes, &pl->nchanges, sizeof(*c))) == NULL)
		goto fail;
	c->ifindex = p->ifindex;
	c->what = what;
	c->from = from;
	c->to = to;
	if ((c->port = strdup(p->name)) == NULL)
		return -1;
	return 1;
fail:
	free(from);
	free(to);
	return -1;
}

static int
untouched(struct lab_switch_plan *pl, const struct lab_vlan_state *st,
    const struct lab_vlan_port *p)
{
	struct lab_port_untouched	*u;
	const struct lab_vlan_port	*lag;

	if ((u = lab_push(&pl->untouched, &pl->nuntouched, sizeof(*u))) ==
	    NULL)
		return -1;
	u->ifindex = p->ifindex;
	if (p->lag != 0) {
		lag = lab_vlan_state_port(st, p->lag);
		u->why = lab_asprintf("LAG member of %s",
		    lag != NULL && lag->name != NULL ? lag->name : "a LAG");
	} else if (p->is_lag)
		u->why = strdup("a LAG");
	else
		u->why = strdup("no wish in the inventory");
	if ((u->port = strdup(p->name != NULL ? p->name : "")) == NULL ||
	    u->why == NULL)
		return -1;
	return 0;
}

static int
refuse(struct lab_switch_plan *pl, const struct lab_vlan_port *p,
    const struct lab_vlan_diff_opts *o, unsigned long mgmt)
{
	const char	*why = NULL;
	char		*s;

	if (in(o->uplinks, o->nuplinks, p->ifindex))
		why = "an uplink";
	else if (p->lag != 0)
		why = "a LAG member";
	else if (o->mgmt_port != 0 && o->mgmt_port == p->ifindex)
		why = "the port the management address is reached through";
	if (why == NULL)
		return 0;
	if ((s = lab_asprintf("%s: takes the management VLAN %lu off %s",
	    p->name, mgmt, why)) == NULL)
		return -1;
	return lab_strv_take(&pl->refused, s);
}

static int
port_plan(struct lab_switch_plan *pl, const struct lab_vlan_state *st,
    const struct lab_vlan_port *p, const struct lab_port_want *w,
    const struct lab_vlan_diff_opts *o, unsigned long mgmt)
{
	struct lab_port_target	 t;
	unsigned long		*cu = NULL, *ct = NULL, pv;
	size_t			 ncu, nct, before = pl->nchanges;
	int			 r = -1;

	memset(&t, 0, sizeof(t));
	if (members(st, p->ifindex, &cu, &ncu, &ct, &nct) == -1)
		goto out;
	t.ifindex = p->ifindex;
	t.bridge_port = p->bridge_port;
	t.mode = st->has_ciscosb ? w->mode : LAB_PORT_MODE_NONE;
	t.pvid = w->pvid;
	if ((t.untagged = calloc(1, sizeof(*t.untagged))) == NULL ||
	    (t.tagged = calloc(w->ntagged + 1, sizeof(*t.tagged))) == NULL)
		goto out;
	t.untagged[0] = w->pvid;
	t.nuntagged = 1;
	if (w->ntagged > 0)
		memcpy(t.tagged, w->tagged, w->ntagged * sizeof(*t.tagged));
	t.ntagged = w->ntagged;
	pv = cur_pvid(st, p);
	if (st->has_ciscosb && change(pl, p, "mode",
	    strdup(lab_port_mode_name(p->mode)),
	    strdup(lab_port_mode_name(w->mode))) == -1)
		goto out;
	if (change(pl, p, "pvid", lab_asprintf("%lu", pv),
	    lab_asprintf("%lu", t.pvid)) == -1 ||
	    change(pl, p, "untagged", list(cu, ncu),
	    list(t.untagged, t.nuntagged)) == -1 ||
	    change(pl, p, "tagged", list(ct, nct),
	    list(t.tagged, t.ntagged)) == -1)
		goto out;
	if (w->description != NULL && change(pl, p, "description",
	    strdup(p->alias != NULL ? p->alias : ""),
	    strdup(w->description)) == -1)
		goto out;
	if (w->description != NULL && (p->alias == NULL ||
	    strcmp(p->alias, w->description) != 0) &&
	    (t.description = strdup(w->description)) == NULL)
		goto out;
	if ((in(cu, ncu, mgmt) || in(ct, nct, mgmt)) &&
	    !in(t.untagged, t.nuntagged, mgmt) &&
	    !in(t.tagged, t.ntagged, mgmt) && refuse(pl, p, o, mgmt) == -1)
		goto out;
	if (pl->nchanges > before) {
		struct lab_port_target *tp;

		if ((tp = lab_push(&pl->targets, &pl->ntargets,
		    sizeof(*tp))) == NULL)
			goto out;
		*tp = t;
		memset(&t, 0, sizeof(t));
	}
	r = 0;
out:
	free(cu);
	free(ct);
	free(t.untagged);
	free(t.tagged);
	free(t.description);
	return r;
}

static int
used(const struct lab_port_wants *w, unsigned long id)
{
	size_t	i;

	for (i = 0; i < w->n; i++)
		if (w->v[i].pvid == id || in(w->v[i].tagged, w->v[i].ntagged,
		    id))
			return 1;
	return 0;
}

static int
vlan_plan(struct lab_switch_plan *pl, const struct lab_switch *sw,
    const struct lab_port_wants *w, const struct lab_vlan_state *st,
    const struct lab_vlan_diff_opts *o, unsigned long mgmt)
{
	const struct lab_snmp_vlan	*sv;
	struct lab_vlan_action		*a;
	size_t				 i, k;
	int				 kept;

	for (i = 0; i < sw->nvlans; i++) {
		const struct lab_switch_vlan *d = &sw->vlans[i];

		sv = lab_vlan_state_vlan(st, d->id);
		if (sv != NULL && (d->name == NULL ||
		    strcmp(d->name, sv->name) == 0))
			goto note;
		if ((a = lab_push(&pl->vlans, &pl->nvlans, sizeof(*a))) == NULL)
			return -1;
		a->id = d->id;
		a->action = sv == NULL ? "create" : "rename";
		if ((d->name != NULL && (a->name = strdup(d->name)) == NULL) ||
		    (sv != NULL && (a->from = strdup(sv->name)) == NULL))
			return -1;
note:
		if (!used(w, d->id) && lab_strv_take(&pl->notes, lab_asprintf(
		    "VLAN %lu declared, no port uses it", d->id)) == -1)
			return -1;
	}
	if (!o->prune)
		return 0;
	for (i = 0; i < st->vlans.n; i++) {
		sv = &st->vlans.v[i];
		if (sv->id == 1 || sv->id == mgmt || used(w, sv->id))
			continue;
		for (k = 0, kept = 0; k < sw->nvlans; k++)
			kept |= sw->vlans[k].id == sv->id;
		/* a port lab leaves alone still carries it */
		for (k = 0; k < st->nports && !kept; k++) {
			const struct lab_vlan_port *p = &st->ports[k];
			size_t j;

			for (j = 0; j < w->n && w->v[j].ifindex != p->ifindex;
			    j++)
				;
			if (j == w->n && has(&sv->egress, p->ifindex))
				kept = 1;
		}
		if (kept)
			continue;
		if ((a = lab_push(&pl->vlans, &pl->nvlans, sizeof(*a))) == NULL)
			return -1;
		a->id = sv->id;
		a->action = "delete";
		if ((a->from = strdup(sv->name)) == NULL ||
		    (a->name = strdup(sv->name)) == NULL)
			return -1;
	}
	return 0;
}

int
lab_vlan_diff(const struct lab_switch *sw, const struct lab_port_wants *w,
    const struct lab_vlan_state *st, const struct lab_vlan_diff_opts *o,
    struct lab_switch_plan *ret, struct lab_err *err)
{
	const struct lab_vlan_port *mp;
	unsigned long	mgmt;
	size_t		i, k;

	memset(ret, 0, sizeof(*ret));
	mgmt = o->mgmt_vlan != 0 ? o->mgmt_vlan :
	    sw->management_vlan != 0 ? sw->management_vlan : 1;
	ret->mgmt_vlan = mgmt;
	ret->ok = 1;
	if ((ret->switch_name = strdup(sw->name)) == NULL)
		goto oom;
	if (vlan_plan(ret, sw, w, st, o, mgmt) == -1)
		goto oom;
	if (o->mgmt_port != 0 && (mp = lab_vlan_state_port(st,
	    o->mgmt_port)) != NULL && mp->name != NULL &&
	    (ret->mgmt_port = strdup(mp->name)) == NULL)
		goto oom;
	for (i = 0; i < st->nports; i++) {
		const struct lab_vlan_port *p = &st->ports[i];

		for (k = 0; k < w->n && w->v[k].ifindex != p->ifindex; k++)
			;
		if (k == w->n || p->is_lag) {
			if (untouched(ret, st, p) == -1)
				goto oom;
		} else if (port_plan(ret, st, p, &w->v[k], o, mgmt) == -1)
			goto oom;
	}
	return 0;
oom:
	lab_switch_plan_release(ret);
	return lab_err_oom(err);
}
