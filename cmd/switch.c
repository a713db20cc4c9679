/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/fanout.h"
#include "lab/json.h"
#include "lab/parse.h"
#include "lab/render.h"
#include "lab/switch.h"
#include "lab.h"
#include "switch.h"
#include "stream.h"

/* The switches named on the command line, or every one. */
int
cmd_switch_names(struct lab_call *call, const struct lab_inventory *inv,
    struct lab_strv *ret, struct lab_err *err)
{
	size_t	i;
	int	a;

	lab_strv_init(ret);
	for (a = 0; a < call->argc; a++)
		if (lab_inventory_switch(inv, call->argv[a]) == NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "unknown switch "
			    "'%s' (see 'lab ls switches')", call->argv[a]);
	for (i = 0; i < inv->nswitches; i++) {
		for (a = 0; a < call->argc; a++)
			if (strcmp(call->argv[a], inv->switches[i].name) == 0)
				break;
		if ((call->argc == 0 || a < call->argc) &&
		    lab_strv_add(ret, inv->switches[i].name) == -1)
			return lab_err_oom(err);
	}
	if (ret->n == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "no switch in the "
		    "inventory");
	return 0;
}

/* --deadline S, else switch_deadline, else 0. */
int
cmd_switch_deadline(const char *opt, int *ret, struct lab_err *err)
{
	const char	*s = cmd_setting(LAB_CONFIG_SWITCH_DEADLINE);
	long		 t;

	*ret = 0;
	if (opt != NULL) {
		if (lab_parse_int(opt, 1, 86400, &t) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--deadline "
			    "takes seconds from 1 to 86400, not '%s'", opt);
		*ret = (int)t;
	} else if (s != NULL && lab_parse_int(s, 1, 86400, &t) == 0)
		*ret = (int)t;
	return 0;
}

static void
print_view(const struct lab_switch_view *v, const struct lab_links *l,
    const struct lab_findings *f)
{
	size_t	i, up = 0;

	for (i = 0; i < v->ports.n; i++)
		up += v->ports.v[i].oper_status == 1;
	/* the switch's own words: shown, never obeyed by the terminal */
	printf("%s: %s\n", cmd_vis(v->name), v->sys.descr ?
	    cmd_vis(v->sys.descr) : "");
	printf("  %zu ports (%zu up), %zu MACs, %zu VLANs, %zu LAGs, "
	    "%zu neighbours; %lu requests, %lu varbinds, %.2f s\n",
	    v->ports.n, up, v->fdb.n, v->vlans.n, v->lags.n, v->nbrs.n,
	    v->stats.requests, v->stats.varbinds, (double)v->elapsed_ms / 1000);
	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].switch_name, v->name) == 0)
			printf("  link     %s %s on %s (%s)\n",
			    cmd_vis(l->v[i].host), cmd_vis(l->v[i].nic),
			    cmd_vis(l->v[i].port), cmd_vis(l->v[i].mac));
	for (i = 0; i < v->nbrs.n; i++) {
		const struct lab_snmp_port *p = lab_switch_port(v,
		    v->nbrs.v[i].port);

		printf("  %-8s %s: %s %s%s%s\n",
		    v->nbrs.v[i].protocol == LAB_NBR_CDP ? "cdp" : "lldp",
		    p ? cmd_vis(p->name) : "?",
		    cmd_vis(v->nbrs.v[i].remote_device),
		    cmd_vis(v->nbrs.v[i].remote_port),
		    *v->nbrs.v[i].platform ? ", " : "",
		    cmd_vis(v->nbrs.v[i].platform));
	}
	for (i = 0; i < f->n; i++)
		printf("  %-8s %s: %s\n", f->v[i].severity,
		    cmd_vis(f->v[i].subject), cmd_vis(f->v[i].message));
	cmd_switch_facts_print(&v->facts, "  ");
	if (v->facts_note != NULL)
		printf("  note     %s\n", cmd_vis(v->facts_note));
}

static int
discover(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	struct lab_switch_collected	 c;
	struct lab_switch_req		 req;
	struct lab_strv			 names;
	struct lab_ctx			 ctx;
	struct cmd_stream		 st;
	struct lab_fail			*f;
	struct lab_buf			 b;
	struct lab_json			 j;
	const char			*s;
	char				(*addr)[300];
	size_t				 i, nf = 0;
	long				 t;
	int				 rc = LAB_EXIT_OK, crc;

	memset(&req, 0, sizeof(req));
	req.retries = -1;
	if ((s = cmd_opt(call, "timeout")) != NULL) {
		if (lab_parse_int(s, 1, 600, &t) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--timeout takes "
			    "seconds from 1 to 600, not '%s'", s);
		req.timeout_ms = (int)t * 1000;
	}
	if ((s = cmd_opt(call, "retries")) != NULL) {
		if (lab_parse_int(s, 0, 10, &t) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--retries takes "
			    "a number from 0 to 10, not '%s'", s);
		req.retries = (int)t;
	}
	if (cmd_switch_deadline(cmd_opt(call, "deadline"), &req.deadline_s,
	    err) == -1)
		return err->code;
	lab_strv_init(&names);
	lab_ctx_init(&ctx);
	if (cmd_inventory(call, &inv, err) == -1 ||
	    cmd_switch_names(call, inv, &names, err) == -1 ||
	    lab_creds_load(call->cred_path, &creds, err) == -1) {
		lab_strv_release(&names);
		return err->code;
	}
	/* several switches: the progress line (lab(1), OUTPUT) */
	memset(&st, 0, sizeof(st));
	st.label = call->label;
	st.names = &names;
	st.deadline_ms = (int64_t)(req.deadline_s > 0 ? req.deadline_s :
	    LAB_SWITCH_DEADLINE_S) * 1000;
	st.fanout = req.fanout > 0 ? req.fanout : LAB_FANOUT_DEFAULT;
	cmd_stream_start(&st, &ctx);
	crc = lab_switch_collect(&ctx, call->db, inv, &names, creds, &req,
	    call->now, &c, err);
	cmd_stream_stop(&st);
	if (crc == -1) {
		lab_strv_release(&names);
		return err->code;
	}
	f = calloc(c.n + 1, sizeof(*f));
	addr = calloc(c.n + 1, sizeof(*addr));
	if (f == NULL || addr == NULL) {
		free(f);
		free(addr);
		lab_switch_collected_release(&c);
		lab_strv_release(&names);
		return lab_err_oom(err), LAB_EXIT_ENV;
	}
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	for (i = 0; i < c.n; i++) {
		if (!c.views[i].ok) {
			const struct lab_switch	*sw = lab_inventory_switch(inv,
			    c.views[i].name);

			/* as lib/snmp/session.c names the peer */
			if (sw != NULL && sw->address != NULL)
				snprintf(addr[nf], sizeof(addr[nf]),
				    strchr(sw->address, ':') != NULL ?
				    "[%s]:%d" : "%s:%d", sw->address,
				    sw->port > 0 ? sw->port : 161);
			f[nf].host = c.views[i].name;
			f[nf].addr = addr[nf];
			f[nf].local = c.views[i].err.local;
			f[nf++].msg = c.views[i].err.msg;
			/* this machine's trouble (no fd) wins over a switch's */
			if (rc != LAB_EXIT_ENV)
				rc = c.views[i].err.local ?
				    LAB_EXIT_ENV : LAB_EXIT_PARTIAL;
		} else if (!call->json)
			print_view(&c.views[i], &c.links[i], &c.findings[i]);
		lab_render_switch_view_json(&j, &c.views[i], &c.links[i],
		    &c.findings[i]);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (call->json && cmd_write(&b, err) == -1)
		rc = LAB_EXIT_ENV;
	lab_buf_release(&b);
	/* after the views: one line per distinct failure, switches folded */
	cmd_failures(call, f, nf, c.n, cmd_opt(call, "verbose") != NULL);
	free(f);
	free(addr);
	lab_switch_collected_release(&c);
	lab_strv_release(&names);
	return rc;
}

static int
ports(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	struct lab_port_rows	 r = { NULL, 0, 0 };
	struct lab_findings	 f = { NULL, 0 };
	struct lab_buf		 b;
	struct lab_json		 j;
	struct table		 t;
	char			 ifx[24], speed[24], who[160];
	size_t			 i, hidden = 0;
	int			 rc, all = cmd_opt(call, "all") != NULL;

	if (cmd_inventory(call, &inv, err) == -1)
		return err->code;
	if (lab_inventory_switch(inv, call->argv[0]) == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown switch '%s' "
		    "(see 'lab ls switches')", call->argv[0]);
	if (lab_db_switch_ports(call->db, call->argv[0], &r, err) == -1 ||
	    lab_db_switch_findings(call->db, call->argv[0], &f, err) == -1) {
		lab_port_rows_release(&r);
		return err->code;
	}
	/* exit 1, as sync: the command was right, the switch cannot be
	   served until it is discovered */
	if (r.discovered_at == 0) {
		lab_port_rows_release(&r);
		lab_findings_release(&f);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "switch '%s' was "
		    "never discovered: run 'lab switch discover %s' first",
		    call->argv[0], call->argv[0]);
	}
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	table_init(&t, 7, "IFINDEX", "PORT", "STATUS", "SPEED", "DUPLEX",
	    "HOST", "ALIAS");
	table_paint(&t, 2);
	table_key(&t, 1);
	table_key(&t, 5);
	table_text(&t, 6);
	for (i = 0; i < r.n; i++) {
		const struct lab_port_row	*p = &r.v[i];

		lab_json_obj_begin(&j);
		lab_json_kint(&j, "ifindex", (int64_t)p->ifindex);
		lab_json_kstr(&j, "name", p->name);
		lab_json_kstr(&j, "alias", p->alias);
		lab_json_kstr(&j, "oper_status", p->oper_status);
		lab_json_kstr(&j, "admin_status", p->admin_status);
		lab_json_kint(&j, "speed_mbps", p->speed_mbps);
		lab_json_kstr(&j, "duplex", p->duplex);
		lab_json_kstr(&j, "host", p->host);
		lab_json_kstr(&j, "nic", p->nic);
		lab_json_obj_end(&j);
		/* a slot with nothing in it (an absent stack member) */
		if (!all && p->oper_status != NULL &&
		    strcmp(p->oper_status, "notPresent") == 0) {
			hidden++;
			continue;
		}
		snprintf(ifx, sizeof(ifx), "%lu", p->ifindex);
		snprintf(speed, sizeof(speed), "%lld%s", p->speed_mbps,
		    p->speed_suspect ? "?" : "");
		snprintf(who, sizeof(who), "%s%s%s", p->host ? p->host : "",
		    p->host ? " " : "", p->nic ? p->nic : "");
		table_row(&t, ifx, p->name, p->oper_status, speed, p->duplex,
		    who, p->alias);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (call->json)
		rc = cmd_write(&b, err) == -1 ? LAB_EXIT_ENV : LAB_EXIT_OK;
	else {
		if (r.n > 0 || call->csv)
			table_print(&t, stdout);
		if (hidden > 0 && !call->csv)
			printf("%zu of %zu ports not present (hidden; --all "
			    "shows them)\n", hidden, r.n);
		for (i = 0; i < f.n && !call->csv; i++) {
			table_word(stdout, f.v[i].severity);
			printf("%*s %s: %s\n", (int)(strlen(f.v[i].severity) <
			    8 ? 8 - strlen(f.v[i].severity) : 0), "",
			    cmd_vis(f.v[i].subject), cmd_vis(f.v[i].message));
		}
		rc = LAB_EXIT_OK;
	}
	table_release(&t);
	lab_buf_release(&b);
	lab_port_rows_release(&r);
	lab_findings_release(&f);
	return rc;
}

/* Prints each change of c, with its outcome once applied. */
static void
sync_print(struct lab_call *call, const struct lab_switch *sw,
    const struct lab_alias_changes *c, int applied, size_t *failed)
{
	size_t	i;

	for (i = 0; i < c->n; i++) {
		printf("%s %s: '%s' -> '%s'%s\n", sw->name,
		    cmd_vis(c->v[i].port), cmd_vis(c->v[i].from),
		    cmd_vis(c->v[i].to), !applied ? (call->dry_run ?
		    " (dry run)" : "") : c->v[i].done ? "" : " FAILED");
		if (applied && !c->v[i].done) {
			fprintf(stderr, "lab: %s: %s %s: %s\n", call->label,
			    sw->name, cmd_vis(c->v[i].port),
			    cmd_vis(c->v[i].err.msg));
			(*failed)++;
		}
	}
}

static int
sync_run(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	const struct lab_switch		*sw;
	struct lab_alias_changes	 c = { NULL, 0 };
	struct lab_switch_req		 req;
	char				 q[160];
	size_t				 failed = 0;
	int				 go;

	memset(&req, 0, sizeof(req));
	req.retries = -1;
	if (cmd_inventory(call, &inv, err) == -1)
		return err->code;
	if ((sw = lab_inventory_switch(inv, call->argv[0])) == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown switch '%s' "
		    "(see 'lab ls switches')", call->argv[0]);
	if (lab_switch_sync_plan(call->db, sw->name, &c, err) == -1)
		return err->code;
	if (c.n == 0) {
		printf("%s: every port description already matches the "
		    "inventory\n", sw->name);
		return LAB_EXIT_OK;
	}
	/* the plan, unless --yes already confirmed it */
	if (!call->yes)
		sync_print(call, sw, &c, 0, &failed);
	snprintf(q, sizeof(q), "Apply these %zu changes to %s?", c.n,
	    sw->name);
	if ((go = cmd_confirm(call, q, "this writes to the switch", err)) != 1) {
		call->no_audit = 1;	/* nothing was done */
		lab_alias_changes_release(&c);
		return go == 0 ? LAB_EXIT_OK : (int)err->code;
	}
	if (lab_creds_load(call->cred_path, &creds, err) == -1 ||
	    lab_switch_sync_apply(call->db, sw, creds, &req, &c, call->now,
	    err) == -1) {
		lab_alias_changes_release(&c);
		return err->code;
	}
	sync_print(call, sw, &c, 1, &failed);
	lab_alias_changes_release(&c);
	return failed ? LAB_EXIT_PARTIAL : LAB_EXIT_OK;
}

static const struct lab_opt discover_opts[] = {
	{ "timeout", "S", "seconds per SNMP request (default: the "
	  "inventory's, else 1)" },
	{ "retries", "N", "retries per request (default: the inventory's, "
	  "else 2)" },
	{ "deadline", "S", "seconds for the whole discovery of each switch "
	  "(default: config switch_deadline, else 120)" },
	{ "verbose", NULL, "one line a failed switch on stderr instead of "
	  "the folded summary" },
	{ NULL, NULL, NULL },
};

static const struct lab_opt ports_opts[] = {
	{ "all", NULL, "also the rows whose status is notPresent (hidden by "
	  "default; --json always has every row)" },
	{ NULL, NULL, NULL },
};

static const struct lab_opt plan_opts[] = {
	{ "prune", NULL, "also delete the VLANs the switch has and the "
	  "inventory does not declare (never VLAN 1 or the management VLAN)" },
	{ "timeout", "S", "seconds per SNMP request (default: the "
	  "inventory's, else 1)" },
	{ "retries", "N", "retries per request (default: the inventory's, "
	  "else 2)" },
	{ NULL, NULL, NULL },
};

static const struct lab_opt apply_opts[] = {
	{ "prune", NULL, "also delete the VLANs the switch has and the "
	  "inventory does not declare (never VLAN 1 or the management VLAN)" },
	{ "force", NULL, "also make the changes lab refuses: the management "
	  "VLAN off an uplink, a LAG member or the management port" },
	{ "no-save", NULL, "leave the change in the running config only (the "
	  "report flags it: a power cut loses it)" },
	{ "max-varbinds", "N", "values per SET PDU (default 64)" },
	{ "timeout", "S", "seconds per SNMP request (default: the "
	  "inventory's, else 1)" },
	{ "retries", "N", "retries per request (default: the inventory's, "
	  "else 2)" },
	{ NULL, NULL, NULL },
};

static const struct lab_opt probe_opts[] = {
	{ "timeout", "S", "seconds per SNMP request (default: the "
	  "inventory's, else 1)" },
	{ "retries", "N", "retries per request (default: the inventory's, "
	  "else 2)" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb switch_verbs[] = {
	{ .name = "discover", .args = "[SWITCH...]", .min = 0,
	  .max = LAB_ARGS_ANY, .flags = LAB_VERB_JSON | LAB_VERB_MUTATES,
	  .run = discover, .opts = discover_opts,
	  .summary = "read ports, MAC table, VLANs, LAGs and CDP/LLDP "
		"neighbours over SNMP, store them, and map every NIC to its "
		"port" },
	{ .name = "ports", .args = "SWITCH", .min = 1, .max = 1,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV, .run = ports,
	  .opts = ports_opts,
	  .summary = "the port table of the last discovery, with the host on "
		"each port" },
	{ .name = "sync", .args = "SWITCH", .min = 1, .max = 1,
	  .flags = LAB_VERB_DRYRUN | LAB_VERB_MUTATES | LAB_VERB_CONFIRMS,
	  .run = sync_run,
	  .summary = "write port descriptions (ifAlias) \"host nic\" from "
		"the inventory by SNMP SET, only where they differ" },
	{ .name = "plan", .args = "[SWITCH...]", .min = 0,
	  .max = LAB_ARGS_ANY, .flags = LAB_VERB_JSON, .run = cmd_switch_plan,
	  .opts = plan_opts,
	  .summary = "the VLANs, port memberships, PVIDs and descriptions "
		"that differ from the inventory, read live; changes nothing" },
	{ .name = "apply", .args = "[SWITCH...]", .min = 0,
	  .max = LAB_ARGS_ANY, .flags = LAB_VERB_JSON | LAB_VERB_DRYRUN |
	  LAB_VERB_MUTATES | LAB_VERB_CONFIRMS, .run = cmd_switch_apply,
	  .opts = apply_opts,
	  .summary = "make the switch's VLANs what the inventory declares "
		"by SNMP SET, read back, put back on failure, then save" },
	{ .name = "probe", .args = "SWITCH", .min = 1, .max = 1,
	  .flags = LAB_VERB_JSON | LAB_VERB_MUTATES, .run = cmd_switch_probe,
	  .opts = probe_opts,
	  .summary = "which VLAN MIBs the switch has and whether it takes "
		"SETs, stored for apply" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_switch = {
	.name = "switch",
	.summary = "discover switches over SNMP and map NICs to ports",
	.verbs = switch_verbs,
};
