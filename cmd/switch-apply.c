/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch apply and probe. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/cred.h"
#include "lab/parse.h"
#include "switch.h"

/* The options of apply and probe (plan's, with apply's own). */
static int
apply_req(struct lab_call *call, struct lab_vlan_req *req,
    struct lab_err *err)
{
	const char	*s;
	long		 t;

	memset(req, 0, sizeof(*req));
	req->sw.retries = -1;
	req->prune = cmd_opt(call, "prune") != NULL;
	req->force = cmd_opt(call, "force") != NULL;
	req->no_save = cmd_opt(call, "no-save") != NULL;
	if ((s = cmd_opt(call, "timeout")) != NULL) {
		if (lab_parse_int(s, 1, 600, &t) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--timeout "
			    "takes seconds from 1 to 600, not '%s'", s);
		req->sw.timeout_ms = (int)t * 1000;
	}
	if ((s = cmd_opt(call, "retries")) != NULL) {
		if (lab_parse_int(s, 0, 10, &t) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--retries "
			    "takes a number from 0 to 10, not '%s'", s);
		req->sw.retries = (int)t;
	}
	if ((s = cmd_opt(call, "max-varbinds")) != NULL) {
		if (lab_parse_int(s, 1, 64, &t) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--max-varbinds "
			    "takes a number from 1 to 64, not '%s'", s);
		req->max_varbinds = (int)t;
	}
	return 0;
}

/* Who applies, as the audit log names them. */
static const char *
user(void)
{
	struct passwd	*pw = getpwuid(geteuid());

	return pw != NULL ? pw->pw_name : "?";
}

/* Values written, and the SET PDUs that carried them. */
static size_t
written(const struct lab_switch_result *r)
{
	size_t	i, n = 0;

	for (i = 0; i < r->writes.n; i++)
		if (r->writes.v[i].state == LAB_WRITE_DONE)
			n++;
	return n;
}

static void
result_print(const struct lab_switch_result *r)
{
	const char	*sw = r->plan.switch_name;
	size_t		 i;

	if (r->nothing) {
		printf("%s: nothing to change: no SET sent\n", sw);
		return;
	}
	if (r->refused) {
		printf("%s\n", r->err.msg);
		return;
	}
	if (r->ok || written(r) == r->writes.n) {
		printf("%s: %zu values in %llu SET PDUs, read back equal; %s\n",
		    sw, written(r), (unsigned long long)r->stats.sets,
		    r->saved ? "saved to startup-config" : "NOT saved "
		    "(--no-save): a power cut loses it");
		if (!r->ok)
			printf("%s: the save failed: %s\n", sw, r->err.msg);
		return;
	}
	printf("%s: FAILED: %s\n", sw, r->err.msg);
	for (i = 0; i < r->writes.n; i++)
		if (r->writes.v[i].state == LAB_WRITE_LEFT)
			printf("  left changed: %s\n", r->writes.v[i].what);
	printf("%s: everything else is as before\n", sw);
}

static void
result_json(struct lab_json *j, const struct lab_switch_result *r)
{
	size_t	i;

	lab_json_obj_begin(j);
	(void)cmd_switch_plan_json(j, &r->plan);
	lab_json_kint(j, "written", (int64_t)written(r));
	lab_json_kint(j, "sets", (int64_t)r->stats.sets);
	/* the apply's own requests, SETs and GETs (the plan's: "read") */
	lab_json_kint(j, "requests", (int64_t)r->stats.requests);
	lab_json_key(j, "saved");
	lab_json_bool(j, r->saved);
	lab_json_key(j, "applied");
	lab_json_bool(j, r->ok);
	lab_json_kstr(j, "message", r->err.msg[0] ? r->err.msg : NULL);
	lab_json_key(j, "left");
	lab_json_arr_begin(j);
	for (i = 0; i < r->writes.n; i++)
		if (r->writes.v[i].state == LAB_WRITE_LEFT)
			lab_json_str(j, r->writes.v[i].what);
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}

/* Without --yes: the plan, then the question; 1 to go on. */
static int
confirm(struct lab_call *call, const struct lab_ctx *ctx,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    struct lab_err *err)
{
	struct lab_switch_plan	*p;
	size_t			 i, n = 0;
	int			 go;

	if (lab_switch_vlan_plan(ctx, call->db, inv, names, creds, req, &p,
	    err) == -1)
		return -1;
	for (i = 0; i < names->n; i++) {
		if (p[i].ok)
			cmd_switch_plan_print(&p[i]);
		else
			fprintf(stderr, "lab: switch %s: %s\n",
			    p[i].switch_name, p[i].err.msg);
		n += p[i].nchanges + p[i].nvlans;
		lab_switch_plan_release(&p[i]);
	}
	free(p);
	if (n == 0)
		return 1;	/* nothing to ask: apply sends no SET */
	go = cmd_confirm(call, "Apply these changes to the switches?",
	    "this writes to the switch", err);
	return go;
}

int
cmd_switch_apply(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	struct lab_switch_result	*r = NULL;
	struct lab_vlan_req		 req;
	struct lab_strv			 names;
	struct lab_ctx			 ctx;
	struct lab_buf			 b;
	struct lab_json			 j;
	size_t				 i, nw = 0;
	int				 rc = LAB_EXIT_OK, go;

	if (apply_req(call, &req, err) == -1)
		return err->code;
	lab_strv_init(&names);
	lab_ctx_init(&ctx);
	if (cmd_inventory(call, &inv, err) == -1 ||
	    cmd_switch_names(call, inv, &names, err) == -1 ||
	    lab_creds_load(call->cred_path, &creds, err) == -1)
		goto out;
	if (!call->yes) {
		if ((go = confirm(call, &ctx, inv, &names, creds, &req,
		    err)) != 1) {
			call->no_audit = 1;	/* nothing was done */
			lab_strv_release(&names);
			return go == 0 ? LAB_EXIT_OK : (int)err->code;
		}
	}
	if (lab_switch_vlan_apply(&ctx, call->db, inv, &names, creds, &req,
	    user(), &r, err) == -1)
		goto out;
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	for (i = 0; i < names.n; i++) {
		if (!r[i].plan.ok) {
			fprintf(stderr, "lab: switch %s: %s; nothing "
			    "changed\n", r[i].plan.switch_name, r[i].err.msg);
			rc = LAB_EXIT_PARTIAL;
		} else if (!call->json) {
			if (call->yes)
				cmd_switch_plan_print(&r[i].plan);
			result_print(&r[i]);
		}
		if (r[i].plan.ok && (!r[i].ok || r[i].refused))
			rc = LAB_EXIT_PARTIAL;
		nw += written(&r[i]);
		result_json(&j, &r[i]);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (call->json && cmd_write(&b, err) == -1)
		rc = LAB_EXIT_ENV;
	lab_buf_release(&b);
	snprintf(call->audit_msg, sizeof(call->audit_msg), "%zu VLAN values "
	    "written on %zu switch%s", nw, names.n, names.n == 1 ? "" : "es");
	lab_switch_results_free(r, names.n);
	lab_strv_release(&names);
	return rc;
out:
	lab_strv_release(&names);
	return err->code;
}

static void
yes_no(const char *what, int v)
{
	printf("%s: %s\n", what, v ? "yes" : "no");
}

int
cmd_switch_probe(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	const struct lab_switch	*sw;
	struct lab_vlan_probe	 p;
	struct lab_vlan_req	 req;
	struct lab_ctx		 ctx;
	struct lab_buf		 b;
	struct lab_json		 j;
	int			 rc = 0;

	if (apply_req(call, &req, err) == -1 ||
	    cmd_inventory(call, &inv, err) == -1)
		return err->code;
	if ((sw = lab_inventory_switch(inv, call->argv[0])) == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "'%s' is not a switch",
		    call->argv[0]), LAB_EXIT_INPUT;
	lab_ctx_init(&ctx);
	if (lab_creds_load(call->cred_path, &creds, err) == -1 ||
	    lab_switch_vlan_probe(&ctx, call->db, sw, creds, &req, &p,
	    err) == -1)
		return err->code;
	if (call->json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "switch", sw->name);
		lab_json_key(&j, "qbridge");
		lab_json_bool(&j, p.qbridge);
		lab_json_key(&j, "ciscosb");
		lab_json_bool(&j, p.ciscosb);
		lab_json_key(&j, "copy");
		lab_json_bool(&j, p.copy);
		lab_json_key(&j, "writable");
		lab_json_bool(&j, p.writable);
		lab_json_kstr(&j, "why", p.why);
		lab_json_obj_end(&j);
		lab_json_end(&j);
		rc = cmd_write(&b, err);
		lab_buf_release(&b);
	} else {
		yes_no("Q-BRIDGE-MIB static VLANs", p.qbridge);
		yes_no("Cisco SB port modes", p.ciscosb);
		yes_no("copy to startup-config", p.copy);
		if (p.writable)
			printf("SET: accepted (a no-op SET of a current "
			    "value)\n");
		else
			printf("SET: refused (%s)\n", p.why ? p.why :
			    "no answer");
	}
	snprintf(call->audit_msg, sizeof(call->audit_msg), "probe stored: "
	    "SET %s", p.writable ? "accepted" : "refused");
	lab_vlan_probe_release(&p);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}
