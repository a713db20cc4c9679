/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The VLAN keys of an inventory file (issue 19): a NIC's or a ports:
 * entry's wish (vlan, vlans, native, tagged) and a switch's vlans:,
 * ports:, management_vlan and uplinks. The conflicts between entries
 * (two NICs on one port, a port the switch lacks) are lib/plan's.
 */
#include <stdio.h>
#include <string.h>

#include "lab/inventory.h"
#include "lab/parse.h"
#include "lab/str.h"
#include "inventory-priv.h"
#include "core/schema.h"
#include "core/yaml-priv.h"

static const char *const port_keys[] = { "port", "vlan", "vlans", "native",
	"description", NULL };
static const char *const vlan_keys[] = { "id", "name", NULL };

static struct lab_loc
loc(const char *file, const struct ynode *n)
{
	struct lab_loc	l = { file, n->line, n->col };

	return l;
}

/* A VLAN id: a plain number from 1 to 4094. */
static int
vlan_id(const char *file, const struct ynode *n, const char *key,
    const char *what, unsigned long *ret, struct lab_err *err)
{
	long	v;

	if (n->kind != YNODE_SCALAR || !n->plain || lab_yaml_is_null(n) ||
	    lab_parse_int(n->value, 0, 1000000, &v) == -1)
		return lab_schema_fail(err, file, n, "'%s' of %s must be a "
		    "VLAN id, a whole number from 1 to 4094", key, what);
	if (v < 1 || v > 4094)
		return lab_schema_fail(err, file, n, "VLAN %ld in '%s' of %s "
		    "is out of range: VLAN ids are 1 to 4094", v, key, what);
	*ret = (unsigned long)v;
	return 0;
}

int
lab_load_vlan_want(const char *file, struct lab_pool *pool,
    const struct ynode *map, int nic, const char *what,
    struct lab_vlan_want *w, struct lab_err *err)
{
	const struct ynode	*one, *list, *nat, *tag, *n;
	size_t			 i, j;

	one = lab_schema_get(map, "vlan");
	list = lab_schema_get(map, "vlans");
	nat = lab_schema_get(map, "native");
	tag = nic ? lab_schema_get(map, "tagged") : NULL;
	if (one != NULL && lab_yaml_is_null(one))
		one = NULL;
	if (list != NULL && lab_yaml_is_null(list))
		list = NULL;
	if (nat != NULL && lab_yaml_is_null(nat))
		nat = NULL;
	if (one != NULL && list != NULL)
		return lab_schema_fail(err, file, list, "%s has both 'vlan' "
		    "(an access port) and 'vlans' (a trunk): write one",
		    what);
	if (one != NULL) {
		w->set = 1;
		w->loc = loc(file, one);
		if (vlan_id(file, one, "vlan", what, &w->access, err) == -1)
			return -1;
	}
	if (list != NULL) {
		w->set = 1;
		w->loc = loc(file, list);
		if (list->kind != YNODE_SEQ)
			return lab_schema_fail(err, file, list, "'vlans' of %s "
			    "must be a list of VLAN ids ([10, 20])", what);
		if (list->n == 0)
			return lab_schema_fail(err, file, list, "'vlans' of %s "
			    "is empty (leave it out to leave the port alone)",
			    what);
		if ((w->trunk = lab_pool_alloc(pool, list->n *
		    sizeof(*w->trunk))) == NULL)
			return lab_err_oom(err);
		for (i = 0; i < list->n; i++) {
			n = list->items[i];
			if (vlan_id(file, n, "vlans", what, &w->trunk[i],
			    err) == -1)
				return -1;
			for (j = 0; j < i; j++)
				if (w->trunk[j] == w->trunk[i])
					return lab_schema_fail(err, file, n,
					    "'vlans' of %s lists VLAN %lu "
					    "twice", what, w->trunk[i]);
			w->ntrunk++;
		}
	}
	if (nat != NULL) {
		w->native_loc = loc(file, nat);
		if (list == NULL)
			return lab_schema_fail(err, file, nat, "'native' of %s "
			    "needs 'vlans' (the native VLAN of a trunk)", what);
		if (vlan_id(file, nat, "native", what, &w->native, err) == -1)
			return -1;
		for (i = 0; w->native != 1 && i < w->ntrunk; i++)
			if (w->trunk[i] == w->native)
				break;
		if (w->native != 1 && i == w->ntrunk)
			return lab_schema_fail(err, file, nat, "native VLAN "
			    "%lu of %s is not in its 'vlans'", w->native,
			    what);
	}
	if (tag != NULL && !lab_yaml_is_null(tag)) {
		if (tag->kind != YNODE_SCALAR || !tag->plain ||
		    (strcmp(tag->value, "true") != 0 &&
		    strcmp(tag->value, "false") != 0))
			return lab_schema_fail(err, file, tag, "'tagged' of %s "
			    "must be true or false", what);
		w->tagged = strcmp(tag->value, "true") == 0;
		if (w->tagged && !w->set)
			return lab_schema_fail(err, file, tag, "'tagged' of %s "
			    "needs 'vlan' or 'vlans' (the VLANs the host tags)",
			    what);
	}
	return 0;
}

/* A switch's vlans: [{id: N, name: TEXT}]. */
static int
load_vlans(const char *file, struct lab_pool *pool, const struct ynode *seq,
    struct lab_switch *s, const char *what, struct lab_err *err)
{
	const struct ynode	*n, *id, *name;
	struct lab_switch_vlan	*v;
	size_t			 i, j;

	if (seq->kind != YNODE_SEQ)
		return lab_schema_fail(err, file, seq, "'vlans' of %s must be "
		    "a list ([{id: 20, name: storage}])", what);
	if ((s->vlans = lab_pool_alloc(pool, (seq->n ? seq->n : 1) *
	    sizeof(*s->vlans))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (n->kind != YNODE_MAP)
			return lab_schema_fail(err, file, n, "a VLAN of %s "
			    "must be a mapping ({id: 20, name: storage})",
			    what);
		if (lab_schema_keys(file, n, vlan_keys, "vlan", err) == -1)
			return -1;
		v = &s->vlans[s->nvlans];
		v->loc = loc(file, n);
		if ((id = lab_schema_get(n, "id")) == NULL)
			return lab_schema_fail(err, file, n, "a VLAN of %s has "
			    "no 'id'", what);
		if (vlan_id(file, id, "id", what, &v->id, err) == -1)
			return -1;
		for (j = 0; j < s->nvlans; j++)
			if (s->vlans[j].id == v->id)
				return lab_schema_fail(err, file, id, "%s "
				    "declares VLAN %lu twice (first at line "
				    "%d)", what, v->id, s->vlans[j].loc.line);
		name = lab_schema_get(n, "name");
		if (name != NULL && !lab_yaml_is_null(name)) {
			if (name->kind != YNODE_SCALAR || name->len == 0 ||
			    name->len > 32)
				return lab_schema_fail(err, file, name, "the "
				    "name of VLAN %lu of %s must be text of 1 "
				    "to 32 characters", v->id, what);
			if ((v->name = lab_pool_strndup(pool, name->value,
			    name->len)) == NULL)
				return lab_err_oom(err);
		}
		s->nvlans++;
	}
	return 0;
}

/* A switch's ports: [{port: NAME, vlan: N, description: TEXT}]. */
static int
load_ports(const char *file, struct lab_pool *pool, const struct ynode *seq,
    struct lab_switch *s, const char *sw, struct lab_err *err)
{
	const struct ynode	*n, *name, *d;
	struct lab_switch_port	*p;
	char			 what[160];
	size_t			 i, j;

	if (seq->kind != YNODE_SEQ)
		return lab_schema_fail(err, file, seq, "'ports' of %s must be "
		    "a list ([{port: gi7, vlan: 20}])", sw);
	if ((s->ports = lab_pool_alloc(pool, (seq->n ? seq->n : 1) *
	    sizeof(*s->ports))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (n->kind != YNODE_MAP)
			return lab_schema_fail(err, file, n, "a port of %s "
			    "must be a mapping ({port: gi7, vlan: 20})", sw);
		if (lab_schema_keys(file, n, port_keys, "port", err) == -1)
			return -1;
		p = &s->ports[s->nports];
		p->loc = loc(file, n);
		name = lab_schema_get(n, "port");
		if (name == NULL || name->kind != YNODE_SCALAR ||
		    name->len == 0 || lab_yaml_is_null(name))
			return lab_schema_fail(err, file, name ? name : n,
			    "a port of %s needs 'port', its name (gi7)", sw);
		if ((p->port = lab_pool_strndup(pool, name->value,
		    name->len)) == NULL)
			return lab_err_oom(err);
		for (j = 0; j < s->nports; j++)
			if (strcmp(s->ports[j].port, p->port) == 0)
				return lab_schema_fail(err, file, name, "%s "
				    "lists port '%.64s' twice (first at line "
				    "%d)", sw, p->port, s->ports[j].loc.line);
		snprintf(what, sizeof(what), "port '%.64s' of %s", p->port,
		    sw);
		d = lab_schema_get(n, "description");
		if (d != NULL && !lab_yaml_is_null(d)) {
			if (d->kind != YNODE_SCALAR)
				return lab_schema_fail(err, file, d, "the "
				    "description of %s must be text", what);
			if ((p->description = lab_pool_strndup(pool, d->value,
			    d->len)) == NULL)
				return lab_err_oom(err);
		}
		if (lab_load_vlan_want(file, pool, n, 0, what, &p->vlan,
		    err) == -1)
			return -1;
		s->nports++;
	}
	return 0;
}

static int
load_uplinks(const char *file, struct lab_pool *pool, const struct ynode *seq,
    struct lab_switch *s, const char *what, struct lab_err *err)
{
	const struct ynode	*n;
	char			*p;
	size_t			 i;

	if (seq->kind != YNODE_SEQ)
		return lab_schema_fail(err, file, seq, "'uplinks' of %s must "
		    "be a list of port names ([gi25])", what);
	if (lab_strv_pool(&s->uplinks, pool, seq->n) == -1)
		return lab_err_oom(err);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (n->kind != YNODE_SCALAR || n->len == 0 ||
		    lab_yaml_is_null(n))
			return lab_schema_fail(err, file, n, "an uplink of %s "
			    "must be a port name", what);
		if (lab_strv_find(&s->uplinks, n->value) >= 0)
			return lab_schema_fail(err, file, n, "%s lists uplink "
			    "'%.64s' twice", what, n->value);
		if ((p = lab_pool_strndup(pool, n->value, n->len)) == NULL)
			return lab_err_oom(err);
		lab_strv_put(&s->uplinks, p);
	}
	return 0;
}

int
lab_load_switch_vlans(const char *file, struct lab_pool *pool,
    const struct ynode *map, struct lab_switch *s, const char *what,
    struct lab_err *err)
{
	const struct ynode	*v;

	if ((v = lab_schema_get(map, "vlans")) != NULL &&
	    !lab_yaml_is_null(v) &&
	    load_vlans(file, pool, v, s, what, err) == -1)
		return -1;
	if ((v = lab_schema_get(map, "ports")) != NULL &&
	    !lab_yaml_is_null(v) &&
	    load_ports(file, pool, v, s, what, err) == -1)
		return -1;
	if ((v = lab_schema_get(map, "management_vlan")) != NULL &&
	    !lab_yaml_is_null(v) &&
	    vlan_id(file, v, "management_vlan", what, &s->management_vlan,
	    err) == -1)
		return -1;
	if ((v = lab_schema_get(map, "uplinks")) != NULL &&
	    !lab_yaml_is_null(v) &&
	    load_uplinks(file, pool, v, s, what, err) == -1)
		return -1;
	return 0;
}
