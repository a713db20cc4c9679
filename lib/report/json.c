/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/bench-history.h"
#include "lab/bench-pool.h"
#include "lab/json.h"
#include "lab/render.h"
#include "lab/report.h"
#include "history-priv.h"
#include "report-priv.h"

/*
 * The report as JSON (a contract, documented in the README: add members,
 * never rename them). Times are ISO 8601 UTC strings, null when never;
 * each old time key has its "*_at" twin, and bmc/power their objects
 * (bmc_info, power_info) as lab(1) JSON says.
 */

static void
ksize(struct lab_json *j, const char *key, size_t n)
{
	lab_json_kint(j, key, (int64_t)n);
}

static void
summary(struct lab_json *j, const struct lab_report *r)
{
	struct lab_report_summary	s;

	lab_report_summarise(r, &s);
	lab_json_key(j, "summary");
	lab_json_obj_begin(j);
	ksize(j, "hosts", s.hosts);
	ksize(j, "power_on", s.power_on);
	ksize(j, "power_off", s.power_off);
	ksize(j, "power_unknown", s.power_unknown);
	ksize(j, "no_bmc", s.no_bmc);
	ksize(j, "bmc_unreachable", s.bmc_unreachable);
	ksize(j, "switches", s.switches);
	ksize(j, "switches_discovered", s.switches_discovered);
	ksize(j, "ports", s.ports);
	ksize(j, "ports_up", s.ports_up);
	ksize(j, "unknown_macs", s.unknown_macs);
	ksize(j, "changes", s.changes);
	ksize(j, "critical", s.critical);
	ksize(j, "warning", s.warning);
	ksize(j, "info", s.info);
	lab_json_obj_end(j);
}

static void
host(struct lab_json *j, const struct lab_report_host *h)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "name", h->name);
	lab_json_kstr(j, "model", h->model);
	lab_json_kstr(j, "model_name", h->model_name);
	lab_json_kstr(j, "role", h->role);
	lab_json_key(j, "groups");
	lab_json_arr_begin(j);
	for (i = 0; i < h->groups.n; i++)
		lab_json_str(j, h->groups.v[i]);
	lab_json_arr_end(j);
	lab_json_kstr(j, "bmc", h->bmc);
	lab_json_kstr(j, "power", h->power);
	lab_json_ktime(j, "power_seen", h->power_seen);
	lab_json_ktime(j, "power_checked", h->power_checked);
	lab_json_key(j, "bmc_reachable");
	if (h->bmc == NULL || h->power_checked == 0)
		lab_json_null(j);
	else
		lab_json_bool(j, h->bmc_reachable);
	/* the one shapes (lab(1), JSON): "bmc" and "power" stay the strings
	   of the contract, these are the objects ls and show have */
	lab_json_key(j, "bmc_info");
	lab_render_bmc_json(j, h->bmc_info);
	lab_json_key(j, "power_info");
	if (h->power_checked == 0)
		lab_json_null(j);
	else {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "state", h->power);
		lab_json_key(j, "bmc_reachable");
		lab_json_bool(j, h->bmc_reachable);
		lab_json_ktime(j, "checked_at", h->power_checked);
		lab_json_ktime(j, "seen_at", h->power_seen);
		lab_json_kstr(j, "error", h->power_error);
		lab_json_obj_end(j);
	}
	lab_json_key(j, "nics");
	lab_json_arr_begin(j);
	for (i = 0; i < h->nnics; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", h->nics[i].name);
		lab_json_kstr(j, "mac", h->nics[i].mac);
		lab_json_kstr(j, "switch", h->nics[i].switch_name);
		lab_json_kstr(j, "port", h->nics[i].port);
		lab_json_ktime(j, "last_seen", h->nics[i].last_seen);
		lab_json_ktime(j, "last_seen_at", h->nics[i].last_seen);
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
		lab_json_kstr(j, "member_of", h->disks[i].member_of);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_kstr(j, "last_run", h->last_run);
	/* only a host with a done bench run has one */
	if (h->bench != NULL) {
		lab_json_key(j, "bench");
		lab_bench_run_json(j, h->bench);
	}
	lab_report_json_history(j, h);
	lab_json_obj_end(j);
}

static void
port(struct lab_json *j, const struct lab_report_port *p)
{
	lab_json_obj_begin(j);
	lab_json_kint(j, "ifindex", (int64_t)p->ifindex);
	lab_json_kstr(j, "name", p->name);
	lab_json_kstr(j, "alias", p->alias);
	lab_json_kstr(j, "oper_status", p->oper_status);
	lab_json_kint(j, "speed_mbps", p->speed_mbps);
	lab_json_kstr(j, "duplex", p->duplex);
	lab_json_key(j, "speed_suspect");
	lab_json_bool(j, p->speed_suspect);
	lab_json_kstr(j, "vlan", p->vlan);
	lab_json_kstr(j, "lag", p->lag);
	lab_json_kstr(j, "host", p->host);
	lab_json_kstr(j, "nic", p->nic);
	lab_json_kstr(j, "neighbor", p->neighbor);
	lab_json_obj_end(j);
}

static void
switch_obj(struct lab_json *j, const struct lab_report_switch *s)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "name", s->name);
	lab_json_kstr(j, "model", s->model);
	lab_json_kstr(j, "model_name", s->model_name);
	lab_json_kint(j, "model_ports", s->model_ports);
	lab_json_kstr(j, "descr", s->descr);
	lab_json_ktime(j, "discovered_at", s->discovered_at);
	lab_json_key(j, "ports");
	lab_json_arr_begin(j);
	for (i = 0; i < s->nports; i++)
		port(j, &s->ports[i]);
	lab_json_arr_end(j);
	/* what the inventory declares: ports above are what was found */
	lab_json_key(j, "declared");
	if (s->decl == NULL)
		lab_json_null(j);
	else {
		lab_json_obj_begin(j);
		lab_render_switch_vlans_fields(j, s->decl);
		lab_json_obj_end(j);
	}
	lab_json_obj_end(j);
}

/* The report as JSON. */
void
lab_report_json(const struct lab_report *r, struct lab_buf *out)
{
	struct lab_json	j;
	size_t		i;

	lab_json_init(&j, out);
	lab_json_obj_begin(&j);
	lab_json_ktime(&j, "generated_at", r->generated_at);
	lab_json_ktime(&j, "previous_run", r->previous_run);
	lab_json_ktime(&j, "history_since", r->history_since);
	lab_json_ktime(&j, "previous_run_at", r->previous_run);
	/* what the changes compare with: the report run, or null */
	lab_json_key(&j, "baseline");
	if (r->previous_id == 0)
		lab_json_null(&j);
	else {
		lab_json_obj_begin(&j);
		lab_json_kint(&j, "id", r->previous_id);
		lab_json_ktime(&j, "time", r->previous_run);
		lab_json_ktime(&j, "recorded_at", r->previous_run);
		lab_json_obj_end(&j);
	}
	summary(&j, r);
	lab_json_key(&j, "hosts");
	lab_json_arr_begin(&j);
	for (i = 0; i < r->nhosts; i++)
		host(&j, &r->hosts[i]);
	lab_json_arr_end(&j);
	lab_json_key(&j, "switches");
	lab_json_arr_begin(&j);
	for (i = 0; i < r->nswitches; i++)
		switch_obj(&j, &r->switches[i]);
	lab_json_arr_end(&j);
	lab_json_key(&j, "changes");
	lab_json_arr_begin(&j);
	for (i = 0; i < r->nchanges; i++) {
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "kind", r->changes[i].kind);
		lab_json_kstr(&j, "subject", r->changes[i].subject);
		lab_json_kstr(&j, "message", r->changes[i].message);
		lab_json_obj_end(&j);
	}
	lab_json_arr_end(&j);
	lab_json_key(&j, "findings");
	lab_json_arr_begin(&j);
	for (i = 0; i < r->nfindings; i++) {
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "severity", r->findings[i].severity);
		/* the disk findings' kind: slow-disk, ...; others have none */
		if (r->findings[i].kind != NULL)
			lab_json_kstr(&j, "kind", r->findings[i].kind);
		lab_json_kstr(&j, "subject", r->findings[i].subject);
		lab_json_kstr(&j, "message", r->findings[i].message);
		lab_json_obj_end(&j);
	}
	lab_json_arr_end(&j);
	lab_json_key(&j, "audit");
	lab_json_arr_begin(&j);
	for (i = 0; i < r->naudit; i++) {
		lab_json_obj_begin(&j);
		lab_json_ktime(&j, "time", r->audit[i].time);
		lab_json_kstr(&j, "user", r->audit[i].user);
		lab_json_kstr(&j, "argv", r->audit[i].argv);
		lab_json_kint(&j, "result", r->audit[i].result);
		lab_json_kstr(&j, "message", r->audit[i].message);
		lab_json_kargs(&j, "args", r->audit[i].argv);
		lab_json_ktime(&j, "logged_at", r->audit[i].time);
		lab_json_obj_end(&j);
	}
	lab_json_arr_end(&j);
	if (r->npools > 0) {	/* only when a pool was benched */
		lab_json_key(&j, "pool_benchmarks");
		lab_json_arr_begin(&j);
		for (i = 0; i < r->npools; i++)
			lab_pool_run_json(&j, &r->pools[i]);
		lab_json_arr_end(&j);
	}
	lab_report_switch_applies_json(r, &j);
	lab_report_drift_json(r, &j);
	lab_report_shares_json(r, &j);
	lab_json_obj_end(&j);
	lab_json_end(&j);
}
