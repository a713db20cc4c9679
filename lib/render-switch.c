/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/render.h"
#include "lab/switch.h"

static void
ifset(struct lab_json *j, const char *key, const struct lab_snmp_ifset *s)
{
	size_t	i;

	lab_json_key(j, key);
	lab_json_arr_begin(j);
	for (i = 0; i < s->n; i++)
		lab_json_int(j, (int64_t)s->v[i]);
	lab_json_arr_end(j);
}

static void
ports(struct lab_json *j, const struct lab_switch_view *v)
{
	size_t	i;

	lab_json_key(j, "ports");
	lab_json_arr_begin(j);
	for (i = 0; i < v->ports.n; i++) {
		const struct lab_snmp_port	*p = &v->ports.v[i];

		lab_json_obj_begin(j);
		lab_json_kint(j, "ifindex", (int64_t)p->ifindex);
		lab_json_kstr(j, "name", p->name);
		lab_json_kstr(j, "alias", p->alias);
		lab_json_kstr(j, "oper_status",
		    lab_snmp_status_name(p->oper_status));
		lab_json_kstr(j, "admin_status",
		    lab_snmp_status_name(p->admin_status));
		lab_json_kint(j, "speed_mbps", (int64_t)p->speed_mbps);
		lab_json_kstr(j, "duplex", lab_snmp_duplex_name(p->duplex));
		lab_json_kint(j, "type", p->type);
		lab_json_key(j, "speed_suspect");
		lab_json_bool(j, (p->flags & LAB_PORT_SPEED_SUSPECT) != 0);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}

static void
tables(struct lab_json *j, const struct lab_switch_view *v)
{
	size_t	i;

	lab_json_key(j, "fdb");
	lab_json_arr_begin(j);
	for (i = 0; i < v->fdb.n; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "mac", v->fdb.v[i].mac);
		lab_json_kint(j, "vlan", (int64_t)v->fdb.v[i].vlan);
		lab_json_kint(j, "port", (int64_t)v->fdb.v[i].port);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "vlans");
	lab_json_arr_begin(j);
	for (i = 0; i < v->vlans.n; i++) {
		lab_json_obj_begin(j);
		lab_json_kint(j, "id", (int64_t)v->vlans.v[i].id);
		lab_json_kstr(j, "name", v->vlans.v[i].name);
		ifset(j, "egress", &v->vlans.v[i].egress);
		ifset(j, "untagged", &v->vlans.v[i].untagged);
		lab_json_key(j, "lists_mangled");
		lab_json_bool(j, v->vlans.v[i].lists_mangled);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "lags");
	lab_json_arr_begin(j);
	for (i = 0; i < v->lags.n; i++) {
		lab_json_obj_begin(j);
		lab_json_kint(j, "ifindex", (int64_t)v->lags.v[i].ifindex);
		ifset(j, "members", &v->lags.v[i].members);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "neighbors");
	lab_json_arr_begin(j);
	for (i = 0; i < v->nbrs.n; i++) {
		const struct lab_snmp_neighbor	*n = &v->nbrs.v[i];

		lab_json_obj_begin(j);
		lab_json_kint(j, "port", (int64_t)n->port);
		lab_json_kstr(j, "protocol", n->protocol == LAB_NBR_CDP ? "cdp" :
		    "lldp");
		lab_json_kstr(j, "remote_device", n->remote_device);
		lab_json_kstr(j, "remote_port", n->remote_port);
		lab_json_kstr(j, "platform", n->platform);
		lab_json_kstr(j, "address", n->address);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}

/* A switch's facts: {version, entities: [...]}, or null when none. */
void
lab_render_switch_facts_json(struct lab_json *j,
    const struct lab_switch_facts *sf)
{
	const struct lab_entity	*e;
	size_t			 i;

	if (sf == NULL || (sf->version == NULL && sf->nents == 0)) {
		lab_json_null(j);
		return;
	}
	lab_json_obj_begin(j);
	lab_json_kstr(j, "version", sf->version);
	lab_json_key(j, "entities");
	lab_json_arr_begin(j);
	for (i = 0; i < sf->nents; i++) {
		e = &sf->ents[i];
		lab_json_obj_begin(j);
		lab_json_kint(j, "index", e->index);
		lab_json_kstr(j, "class", e->class_name);
		lab_json_kstr(j, "descr", e->descr);
		lab_json_kstr(j, "name", e->name);
		lab_json_kstr(j, "model", e->model);
		lab_json_kstr(j, "serial", e->serial);
		lab_json_kstr(j, "hardware_rev", e->hardware_rev);
		lab_json_kstr(j, "firmware_rev", e->firmware_rev);
		lab_json_kstr(j, "software_rev", e->software_rev);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}

/* Known-issue findings, as members of the findings array open in j. */
void
lab_render_fact_findings_items(struct lab_json *j,
    const struct lab_fact_findings *f)
{
	size_t	i;

	for (i = 0; f != NULL && i < f->n; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "severity", f->v[i].severity);
		lab_json_kstr(j, "kind", f->v[i].kind);
		lab_json_kstr(j, "subject", f->v[i].subject);
		lab_json_kstr(j, "message", f->v[i].message);
		lab_json_obj_end(j);
	}
}

/* One discovered switch, with its links and findings. */
void
lab_render_switch_view_json(struct lab_json *j, const struct lab_switch_view *v,
    const struct lab_links *links, const struct lab_findings *f)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "name", v->name);
	lab_json_key(j, "ok");
	lab_json_bool(j, v->ok);
	lab_json_kstr(j, "error", v->ok ? NULL : v->err.msg);
	lab_json_key(j, "system");
	if (!v->ok)
		lab_json_null(j);
	else {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "descr", v->sys.descr);
		lab_json_kstr(j, "name", v->sys.name);
		lab_json_kstr(j, "object_id", v->sys.object_id);
		lab_json_key(j, "uptime");
		if (v->sys.has_uptime)
			lab_json_int(j, (int64_t)v->sys.uptime);
		else
			lab_json_null(j);
		lab_json_obj_end(j);
	}
	ports(j, v);
	tables(j, v);
	lab_json_key(j, "links");
	lab_json_arr_begin(j);
	for (i = 0; links != NULL && i < links->n; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "host", links->v[i].host);
		lab_json_kstr(j, "nic", links->v[i].nic);
		lab_json_kstr(j, "mac", links->v[i].mac);
		lab_json_kstr(j, "switch", links->v[i].switch_name);
		lab_json_kstr(j, "port", links->v[i].port);
		lab_json_kint(j, "ifindex", (int64_t)links->v[i].ifindex);
		lab_json_kstr(j, "source", links->v[i].source);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "findings");
	lab_json_arr_begin(j);
	for (i = 0; f != NULL && i < f->n; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "severity", f->v[i].severity);
		lab_json_kstr(j, "kind", f->v[i].kind);
		lab_json_kstr(j, "subject", f->v[i].subject);
		lab_json_kstr(j, "message", f->v[i].message);
		lab_json_obj_end(j);
	}
	lab_render_fact_findings_items(j, &v->facts.findings);
	lab_json_arr_end(j);
	lab_json_key(j, "facts");
	lab_render_switch_facts_json(j, v->ok ? &v->facts : NULL);
	lab_json_kstr(j, "facts_note", v->facts_note);
	lab_json_key(j, "stats");
	lab_json_obj_begin(j);
	lab_json_kint(j, "requests", (int64_t)v->stats.requests);
	lab_json_kint(j, "varbinds", (int64_t)v->stats.varbinds);
	lab_json_kint(j, "elapsed_ms", v->elapsed_ms);
	lab_json_obj_end(j);
	lab_json_obj_end(j);
}
