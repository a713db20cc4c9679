/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <time.h>

#include "lab/facts.h"
#include "lab/render.h"

/* One host as JSON. */
void
lab_render_host_json(struct lab_json *j, const struct lab_host *h)
{
	lab_json_obj_begin(j);
	lab_render_host_fields(j, h);
	lab_json_obj_end(j);
}

/* The members of a host's JSON object. */
void
lab_render_host_fields(struct lab_json *j, const struct lab_host *h)
{
	size_t	i;

	lab_json_kstr(j, "name", h->name);
	lab_json_kstr(j, "model", h->model);
	lab_json_kstr(j, "role", h->role);
	lab_json_key(j, "groups");
	lab_json_arr_begin(j);
	for (i = 0; i < h->groups.n; i++)
		lab_json_str(j, h->groups.v[i]);
	lab_json_arr_end(j);
	lab_json_key(j, "bmc");
	lab_render_bmc_json(j, h->bmc);
	lab_json_key(j, "ssh");
	if (h->ssh == NULL)
		lab_json_null(j);
	else {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "address", h->ssh->address);
		lab_json_kint(j, "port", h->ssh->port);
		lab_json_kstr(j, "user", h->ssh->user);
		lab_json_kstr(j, "identity", h->ssh->identity);
		lab_json_kstr(j, "known_hosts", h->ssh->known_hosts);
		lab_json_key(j, "legacy_crypto");
		lab_json_bool(j, h->ssh->legacy_crypto);
		lab_json_obj_end(j);
	}
	lab_json_key(j, "network");
	if (h->network == NULL)
		lab_json_null(j);
	else {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "address", h->network->address);
		lab_json_kstr(j, "gateway", h->network->gateway);
		lab_json_key(j, "dns");
		lab_json_arr_begin(j);
		for (i = 0; i < h->network->dns.n; i++)
			lab_json_str(j, h->network->dns.v[i]);
		lab_json_arr_end(j);
		lab_json_obj_end(j);
	}
	lab_json_key(j, "nics");
	lab_json_arr_begin(j);
	for (i = 0; i < h->nnics; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", h->nics[i].name);
		lab_json_kstr(j, "mac", h->nics[i].mac);
		lab_render_vlan_want_fields(j, &h->nics[i].vlan);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "disks");
	lab_json_arr_begin(j);
	for (i = 0; i < h->ndisks; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "slot", h->disks[i].slot);
		lab_json_kstr(j, "kind", h->disks[i].kind);
		lab_json_kint(j, "size_bytes", (int64_t)h->disks[i].size_bytes);
		lab_json_kstr(j, "controller", h->disks[i].controller);
		lab_json_kstr(j, "device", h->disks[i].device);
		lab_json_key(j, "boot");
		lab_json_bool(j, h->disks[i].boot);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}

void
lab_render_vlan_want_fields(struct lab_json *j, const struct lab_vlan_want *w)
{
	size_t	i;

	if (!w->set)
		return;
	if (w->ntrunk == 0)
		lab_json_kint(j, "vlan", (int64_t)w->access);
	else {
		lab_json_key(j, "vlans");
		lab_json_arr_begin(j);
		for (i = 0; i < w->ntrunk; i++)
			lab_json_int(j, (int64_t)w->trunk[i]);
		lab_json_arr_end(j);
		lab_json_kint(j, "native", w->native ? (int64_t)w->native : 1);
	}
	if (w->tagged) {
		lab_json_key(j, "tagged");
		lab_json_bool(j, 1);
	}
}

/* A switch's declared vlans, ports, management_vlan and uplinks. */
void
lab_render_switch_vlans_fields(struct lab_json *j, const struct lab_switch *s)
{
	size_t	i;

	lab_json_key(j, "vlans");
	lab_json_arr_begin(j);
	for (i = 0; i < s->nvlans; i++) {
		lab_json_obj_begin(j);
		lab_json_kint(j, "id", (int64_t)s->vlans[i].id);
		lab_json_kstr(j, "name", s->vlans[i].name);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "ports");
	lab_json_arr_begin(j);
	for (i = 0; i < s->nports; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "port", s->ports[i].port);
		lab_render_vlan_want_fields(j, &s->ports[i].vlan);
		lab_json_kstr(j, "description", s->ports[i].description);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_kint(j, "management_vlan",
	    s->management_vlan ? (int64_t)s->management_vlan : 1);
	lab_json_key(j, "uplinks");
	lab_json_arr_begin(j);
	for (i = 0; i < s->uplinks.n; i++)
		lab_json_str(j, s->uplinks.v[i]);
	lab_json_arr_end(j);
}

/* One switch as JSON. */
void
lab_render_switch_json(struct lab_json *j, const struct lab_switch *s)
{
	lab_json_obj_begin(j);
	lab_render_switch_fields(j, s);
	lab_json_obj_end(j);
}

/* The members of lab_render_switch_json, for callers that add more. */
void
lab_render_switch_fields(struct lab_json *j, const struct lab_switch *s)
{
	lab_json_kstr(j, "name", s->name);
	lab_json_kstr(j, "model", s->model);
	lab_json_kstr(j, "address", s->address);
	lab_json_kint(j, "port", s->port);
	lab_json_key(j, "snmp");
	if (s->snmp.version == NULL)
		lab_json_null(j);
	else {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "version", s->snmp.version);
		lab_json_kstr(j, "credential", s->snmp.credential);
		lab_json_kstr(j, "context", s->snmp.context);
		lab_json_key(j, "timeout");
		if (s->snmp.timeout_ms > 0)
			lab_json_int(j, s->snmp.timeout_ms / 1000);
		else
			lab_json_null(j);
		lab_json_key(j, "retries");
		if (s->snmp.retries >= 0)
			lab_json_int(j, s->snmp.retries);
		else
			lab_json_null(j);
		lab_json_obj_end(j);
	}
	lab_render_switch_vlans_fields(j, s);
}

/* The whole inventory as JSON. */
/* The known_issues: of the inventory (include/lab/facts.h), [] when none. */
static void
render_known_json(struct lab_json *j, const struct lab_known_issues *k)
{
	const struct lab_known_issue	*ki;
	size_t				 i;

	lab_json_key(j, "known_issues");
	lab_json_arr_begin(j);
	for (i = 0; k != NULL && i < k->n; i++) {
		ki = &k->v[i];
		lab_json_obj_begin(j);
		lab_json_key(j, "match");
		lab_json_obj_begin(j);
		lab_json_kstr(j, "model", ki->model);
		lab_json_kstr(j, "bmc", ki->bmc);
		lab_json_kstr(j, "component", ki->component);
		lab_json_kstr(j, "product", ki->product);
		lab_json_kstr(j, "below", ki->below);
		lab_json_kstr(j, "equal", ki->equal);
		lab_json_kstr(j, "matching", ki->matching);
		lab_json_obj_end(j);
		lab_json_kstr(j, "severity", ki->severity);
		lab_json_kstr(j, "message", ki->message);
		lab_json_kstr(j, "source", ki->source);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}

void
lab_render_inventory_json(struct lab_json *j, const struct lab_inventory *inv)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_key(j, "groups");
	lab_json_arr_begin(j);
	for (i = 0; i < inv->ngroups; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", inv->groups[i].name);
		lab_json_kstr(j, "description", inv->groups[i].description);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "hosts");
	lab_json_arr_begin(j);
	for (i = 0; i < inv->nhosts; i++)
		lab_render_host_json(j, &inv->hosts[i]);
	lab_json_arr_end(j);
	lab_json_key(j, "switches");
	lab_json_arr_begin(j);
	for (i = 0; i < inv->nswitches; i++)
		lab_render_switch_json(j, &inv->switches[i]);
	lab_json_arr_end(j);
	render_known_json(j, inv->known);
	lab_json_obj_end(j);
}

/* Formats a time as ISO 8601 UTC. */
void
lab_format_time(int64_t t, char *buf, size_t len)
{
	struct tm	tm;
	time_t		tt = (time_t)t;

	if (gmtime_r(&tt, &tm) == NULL)
		snprintf(buf, len, "%lld", (long long)t);
	else
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void
lab_json_ktime(struct lab_json *j, const char *key, int64_t t)
{
	char	buf[32];

	lab_json_key(j, key);
	if (t == 0) {
		lab_json_null(j);
		return;
	}
	lab_format_time(t, buf, sizeof(buf));
	lab_json_str(j, buf);
}

/* One audit entry as JSON. */
void
lab_render_audit_json(struct lab_json *j, const struct lab_audit *a)
{
	char	t[32];

	lab_format_time(a->time, t, sizeof(t));
	lab_json_obj_begin(j);
	lab_json_kint(j, "id", a->id);
	lab_json_kstr(j, "time", t);
	lab_json_kstr(j, "user", a->user);
	lab_json_kstr(j, "command", a->command);
	lab_json_kstr(j, "argv", a->argv);
	lab_json_kint(j, "result", a->result);
	lab_json_kstr(j, "message", a->message);
	/* the one shapes (lab(1), JSON) beside the keys of the contract */
	lab_json_kargs(j, "args", a->argv);
	lab_json_kstr(j, "logged_at", t);
	lab_json_obj_end(j);
}
