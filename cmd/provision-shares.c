/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab provision HOST --shares [--prune] and HOST --mounts (issue 21):
 * reads what the host has over SSH (read-only), plans from it, shows the
 * plan in full, and with --yes (or "y") applies it as a provisioning run.
 * A plan with no step: "nothing to change", no run. --dry-run contacts
 * nothing: it plans as for a host that has none of it yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/json.h"
#include "lab/plan.h"
#include "lab/provision.h"
#include "lab/ssh.h"
#include "lab/text.h"
#include "lab.h"
#include "provision-shares.h"

/* {plan, run: {id, status, failed_step, message}} or the plan alone. */
static int
print_json(const struct lab_plan *p, const struct lab_provision *a,
    struct lab_err *err)
{
	struct lab_buf	b;
	struct lab_json	j;
	int		rc;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_obj_begin(&j);
	lab_json_key(&j, "plan");
	lab_plan_json(&j, p);
	lab_json_key(&j, "run");
	if (a == NULL)
		lab_json_null(&j);
	else {
		lab_json_obj_begin(&j);
		lab_json_kint(&j, "id", a->run_id);
		lab_json_kstr(&j, "status", lab_run_status_name(a->status));
		lab_json_key(&j, "failed_step");
		if (a->status == LAB_RUN_DONE)
			lab_json_null(&j);
		else
			lab_json_int(&j, (int64_t)a->failed_step);
		lab_json_kstr(&j, "message", a->message[0] ? a->message : NULL);
		lab_json_obj_end(&j);
	}
	lab_json_obj_end(&j);
	lab_json_end(&j);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc;
}

static int
print_text(const struct lab_plan *p, struct lab_err *err)
{
	struct lab_buf	b;
	int		rc;

	lab_buf_init(&b);
	if (lab_plan_text(p, &b, err) == -1) {
		lab_buf_release(&b);
		return -1;
	}
	rc = cmd_write_text(&b, err);
	lab_buf_release(&b);
	return rc;
}

int
cmd_provision_shares(struct lab_call *call, const struct lab_inventory *inv,
    const struct lab_host *h, const struct cmd_shares_opts *o,
    struct lab_err *err)
{
	const struct lab_ssh_cfg	*c = h->ssh;
	struct lab_ssh_opts		 so;
	struct lab_ssh_hostkey		 key;
	struct lab_provision_hooks	 hooks;
	struct lab_provision		 a;
	struct lab_shares_req		 req;
	struct lab_plan			*plan = NULL;
	struct lab_ctx			 ctx;
	char				*identity, *known, *state = NULL;
	char				 q[160], what[160];
	int				 rc = -1;

	if (c == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no ssh: "
		    "block in the inventory: lab cannot read what it %s",
		    h->name, o->mounts ? "mounts" : "shares");
	if (o->mounts ? h->nmounts == 0 : h->nshares == 0 && !o->prune)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no %s: "
		    "in the inventory", h->name, o->mounts ? "mounts" :
		    "shares");
	identity = lab_path_home(c->identity, getenv("HOME"));
	known = lab_path_home(c->known_hosts, getenv("HOME"));
	lab_ctx_init(&ctx);
	memset(&a, 0, sizeof(a));
	memset(&key, 0, sizeof(key));
	lab_ssh_opts_set(&so, h->name, c, identity, known);
	so.ctx = &ctx;
	so.accept_new = o->accept_new;
	if (call->dry_run) {
		memset(&req, 0, sizeof(req));
		req.inv = inv;
		if ((o->mounts ? lab_plan_mounts(h, &req, &plan, err) :
		    lab_plan_shares(h, &req, &plan, err)) == -1)
			goto out;
		rc = call->json ? print_json(plan, NULL, err) :
		    print_text(plan, err);
		if (rc == 0 && !call->json) {
			fflush(stdout);
			fprintf(stderr, "lab: %s: nothing was changed or read: "
			    "this plan is for a host that has none of it yet; "
			    "'lab provision %s --%s%s' reads what it has and "
			    "plans only what is missing\n", h->name, h->name,
			    o->mounts ? "mounts" : "shares",
			    o->prune ? " --prune" : "");
		}
		goto out;
	}
	a.target_lock = getenv("LAB_TARGET_LOCK");
	if (a.target_lock != NULL && *a.target_lock == '\0')
		a.target_lock = NULL;
	if (lab_ssh_connect(&so, &a.conn, &key, err) == -1)
		goto out;
	if (key.added)
		fprintf(stderr, "lab: added %s's %s host key %s to %s\n",
		    h->name, key.type, key.fingerprint,
		    known ? known : "~/.ssh/known_hosts");
	if (lab_provision_shares_state(a.conn, h->name, &state, err) == -1)
		goto out;
	memset(&req, 0, sizeof(req));
	req.inv = inv;
	req.state = state;
	req.prune = o->prune;
	if ((o->mounts ? lab_plan_mounts(h, &req, &plan, err) :
	    lab_plan_shares(h, &req, &plan, err)) == -1)
		goto out;
	if (plan->nsteps == 0) {
		if (call->json)
			rc = print_json(plan, NULL, err);
		else {
			rc = print_text(plan, err);
			fflush(stdout);
			fprintf(stderr, "lab: %s: nothing to change: it %s what "
			    "the inventory says\n", h->name, o->mounts ?
			    "mounts" : "shares");
		}
		goto out;
	}
	if (!call->json && print_text(plan, err) == -1)
		goto out;
	snprintf(q, sizeof(q), "Apply this %s plan to %s?", plan->kind,
	    h->name);
	snprintf(what, sizeof(what), "this changes the %s of %s", plan->kind,
	    h->name);
	if (cmd_confirm(call, q, what, err) != 1)
		goto out;
	call->no_audit = 0;
	hooks.begin = cmd_provision_step_begin;
	hooks.end = cmd_provision_step_end;
	hooks.arg = plan;
	a.ssh = &so;
	a.hooks = &hooks;
	if (lab_provision_apply(&ctx, call->db, plan, &a, err) == -1)
		goto out;
	if (call->json && print_json(plan, &a, err) == -1)
		goto out;
	if (a.status == LAB_RUN_DONE) {
		fprintf(stderr, "lab: %s: %s %s applied (run %lld)\n", h->name,
		    plan->kind, plan->layout, (long long)a.run_id);
		rc = 0;
	} else
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: run %lld %s: %s",
		    h->name, (long long)a.run_id,
		    lab_run_status_name(a.status), a.message);
out:
	lab_provision_release(&a);
	lab_plan_free(plan);
	free(state);
	free(identity);
	free(known);
	return rc;
}
