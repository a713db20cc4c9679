/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What each port of a switch should be, from NIC wishes and ports:. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"

/* "gi1/0/7" and "gi7" both give "gi7" (Cisco SB short forms). */
static void
short_name(const char *name, char *buf, size_t len)
{
	const char	*slash, *p;
	size_t		 n = 0;

	for (p = name; *p != '\0' && isalpha((unsigned char)*p); p++)
		n++;
	slash = strrchr(name, '/');
	(void)snprintf(buf, len, "%.*s%s", (int)n, name,
	    slash != NULL ? slash + 1 : name + n);
}

static const struct lab_vlan_port *
port_named(const struct lab_vlan_state *st, const char *name)
{
	const struct lab_vlan_port	*p, *found = NULL;
	char				 want[64], have[64];
	size_t				 i;

	if ((p = lab_vlan_state_port_named(st, name)) != NULL)
		return p;
	short_name(name, want, sizeof(want));
	for (i = 0; i < st->nports; i++) {
		if (st->ports[i].name == NULL)
			continue;
		short_name(st->ports[i].name, have, sizeof(have));
		if (strcmp(want, have) != 0)
			continue;
		if (found != NULL)
			return NULL;	/* ambiguous */
		found = &st->ports[i];
	}
	return found;
}

static int
cmp_ul(const void *a, const void *b)
{
	unsigned long	x = *(const unsigned long *)a;
	unsigned long	y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

static int
cmp_want(const void *a, const void *b)
{
	const struct lab_port_want	*x = a, *y = b;

	return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
}

/* Fills mode, pvid and tagged of w from v; checks the ids. */
static int
apply_rules(const struct lab_vlan_want *v, struct lab_port_want *w,
    struct lab_err *err)
{
	const struct lab_loc	*l = &v->loc;
	unsigned long		 native = v->native != 0 ? v->native : 1;
	size_t			 i, n = 0;
	int			 in = native == 1;

	if (v->access != 0 && !v->tagged) {
		if (v->access > 4094)
			return lab_err_set(err, LAB_EXIT_INPUT,
			    "%s:%d:%d: VLAN %lu is out of 1..4094", l->file,
			    l->line, l->col, v->access);
		w->mode = LAB_PORT_MODE_ACCESS;
		w->pvid = v->access;
		return 0;
	}
	w->mode = LAB_PORT_MODE_TRUNK;
	w->pvid = native;
	if ((w->tagged = calloc(v->ntrunk + 1, sizeof(*w->tagged))) == NULL)
		return lab_err_oom(err);
	if (v->access != 0)
		w->tagged[n++] = v->access;
	for (i = 0; i < v->ntrunk; i++) {
		if (v->trunk[i] == 0 || v->trunk[i] > 4094)
			return lab_err_set(err, LAB_EXIT_INPUT,
			    "%s:%d:%d: VLAN %lu is out of 1..4094", l->file,
			    l->line, l->col, v->trunk[i]);
		if (v->trunk[i] == native) {
			in = 1;
			continue;
		}
		w->tagged[n++] = v->trunk[i];
	}
	if (!in)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "%s:%d:%d: native VLAN %lu is not in the trunk's vlans",
		    v->native_loc.file, v->native_loc.line, v->native_loc.col,
		    native);
	qsort(w->tagged, n, sizeof(*w->tagged), cmp_ul);
	for (i = 0, w->ntagged = 0; i < n; i++)
		if (w->ntagged == 0 || w->tagged[w->ntagged - 1] != w->tagged[i])
			w->tagged[w->ntagged++] = w->tagged[i];
	return 0;
}

static int
same(const struct lab_port_want *a, const struct lab_port_want *b)
{
	return a->mode == b->mode && a->pvid == b->pvid &&
	    a->ntagged == b->ntagged && (a->ntagged == 0 ||
	    memcmp(a->tagged, b->tagged, a->ntagged * sizeof(*a->tagged)) == 0);
}

static int
declared(const struct lab_switch *sw, unsigned long id)
{
	size_t	i;

	if (id == 1)
		return 1;
	for (i = 0; i < sw->nvlans; i++)
		if (sw->vlans[i].id == id)
			return 1;
	return 0;
}

/* A NIC's VLANs must be declared on the switch or present on it. */
static int
check_known(const struct lab_switch *sw, const struct lab_vlan_state *st,
    const struct lab_port_want *w, struct lab_err *err)
{
	size_t	i;

	for (i = 0; i <= w->ntagged; i++) {
		unsigned long id = i < w->ntagged ? w->tagged[i] : w->pvid;

		if (declared(sw, id) || lab_vlan_state_vlan(st, id) != NULL)
			continue;
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "%s:%d:%d: VLAN %lu is not declared on switch %s, "
		    "which does not have it", w->loc.file, w->loc.line,
		    w->loc.col, id, sw->name);
	}
	return 0;
}

/* Adds w (owned) to ret, or checks it against the want already there. */
static int
add_want(struct lab_port_wants *ret, struct lab_port_want *w,
    struct lab_err *err)
{
	struct lab_port_want	*o, *nv;
	size_t			 i;

	for (i = 0; i < ret->n; i++) {
		o = &ret->v[i];
		if (o->ifindex != w->ifindex)
			continue;
		if (same(o, w)) {
			if (w->description != NULL && o->host == NULL &&
			    o->description == NULL) {
				o->description = w->description;
				w->description = NULL;
			}
			goto drop;
		}
		if (o->host != NULL && w->host != NULL)
			(void)lab_err_set(err, LAB_EXIT_INPUT,
			    "%s:%d:%d: %s %s and %s %s are both on port %s "
			    "of switch and ask for different VLANs",
			    w->loc.file, w->loc.line, w->loc.col, o->host,
			    o->nic, w->host, w->nic, w->port);
		else
			(void)lab_err_set(err, LAB_EXIT_INPUT,
			    "%s:%d:%d: port %s: %s %s's VLANs and the ports: "
			    "entry at %s:%d:%d disagree", w->loc.file,
			    w->loc.line, w->loc.col, w->port,
			    o->host != NULL ? o->host : w->host,
			    o->host != NULL ? o->nic : w->nic, o->loc.file,
			    o->loc.line, o->loc.col);
		goto fail;
	}
	if ((nv = reallocarray(ret->v, ret->n + 1, sizeof(*nv))) == NULL) {
		(void)lab_err_oom(err);
		goto fail;
	}
	ret->v = nv;
	ret->v[ret->n++] = *w;
	return 0;
fail:
	free(w->port); free(w->tagged); free(w->description);
	free(w->host); free(w->nic);
	return -1;
drop:
	free(w->port); free(w->tagged); free(w->description);
	free(w->host); free(w->nic);
	return 0;
}

static int
nic_wants(const struct lab_inventory *inv, const struct lab_switch *sw,
    const struct lab_links_seen *links, const struct lab_vlan_state *st,
    struct lab_port_wants *ret, struct lab_err *err)
{
	const struct lab_vlan_port	*p;
	struct lab_port_want		 w;
	char				 descr[256];
	size_t				 h, i, k;

	for (h = 0; h < inv->nhosts; h++)
	for (i = 0; i < inv->hosts[h].nnics; i++) {
		const struct lab_host	*host = &inv->hosts[h];
		const struct lab_nic	*nic = &host->nics[i];

		if (!nic->vlan.set)
			continue;
		for (k = 0; k < links->n; k++) {
			const struct lab_link_seen *l = &links->v[k];

			if (strcmp(l->switch_name, sw->name) != 0 ||
			    strcmp(l->host, host->name) != 0 ||
			    strcmp(l->nic, nic->name) != 0)
				continue;
			if ((p = port_named(st, l->port)) == NULL)
				continue;	/* gone since discovery */
			memset(&w, 0, sizeof(w));
			w.ifindex = p->ifindex;
			w.loc = nic->vlan.loc;
			(void)snprintf(descr, sizeof(descr), "%s %s",
			    host->name, nic->name);
			if ((w.port = strdup(p->name)) == NULL ||
			    (w.host = strdup(host->name)) == NULL ||
			    (w.nic = strdup(nic->name)) == NULL ||
			    (w.description = strdup(descr)) == NULL) {
				free(w.port); free(w.host); free(w.nic);
				return lab_err_oom(err);
			}
			if (apply_rules(&nic->vlan, &w, err) == -1 ||
			    check_known(sw, st, &w, err) == -1) {
				free(w.port); free(w.host); free(w.nic);
				free(w.description); free(w.tagged);
				return -1;
			}
			if (add_want(ret, &w, err) == -1)
				return -1;
		}
	}
	return 0;
}

int
lab_vlan_wants(const struct lab_inventory *inv, const struct lab_switch *sw,
    const struct lab_links_seen *links, const struct lab_vlan_state *st,
    struct lab_port_wants *ret, struct lab_err *err)
{
	const struct lab_vlan_port	*p;
	struct lab_port_want		 w;
	size_t				 i;

	memset(ret, 0, sizeof(*ret));
	if (nic_wants(inv, sw, links, st, ret, err) == -1)
		goto fail;
	for (i = 0; i < sw->nports; i++) {
		const struct lab_switch_port *sp = &sw->ports[i];

		if ((p = port_named(st, sp->port)) == NULL) {
			(void)lab_err_set(err, LAB_EXIT_INPUT,
			    "%s:%d:%d: switch %s has no port '%s' (see 'lab "
			    "switch ports %s')", sp->loc.file, sp->loc.line,
			    sp->loc.col, sw->name, sp->port, sw->name);
			goto fail;
		}
		if (!sp->vlan.set)
			continue;
		memset(&w, 0, sizeof(w));
		w.ifindex = p->ifindex;
		w.loc = sp->vlan.set ? sp->vlan.loc : sp->loc;
		if ((w.port = strdup(p->name)) == NULL ||
		    (sp->description != NULL &&
		    (w.description = strdup(sp->description)) == NULL)) {
			free(w.port);
			(void)lab_err_oom(err);
			goto fail;
		}
		if (apply_rules(&sp->vlan, &w, err) == -1) {
			free(w.port); free(w.description); free(w.tagged);
			goto fail;
		}
		if (add_want(ret, &w, err) == -1)
			goto fail;
	}
	if (ret->n > 0)
		qsort(ret->v, ret->n, sizeof(*ret->v), cmp_want);
	return 0;
fail:
	lab_port_wants_release(ret);
	return -1;
}
