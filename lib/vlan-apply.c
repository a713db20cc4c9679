/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch apply and probe: plan, refuse, encode, exec, save, record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/fanout.h"
#include "lab/vlan.h"
#include "vlan-priv.h"

/* The save of the startup config may take a while on an SG200. */
#define SAVE_TIMEOUT_MS	30000

static int
open_switch(const struct lab_ctx *ctx, const struct lab_switch *sw,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    struct lab_snmp **s, struct lab_err *err)
{
	struct lab_snmp_target	t;

	*s = NULL;
	if (lab_switch_target(sw, creds, &req->sw, &t, err) == -1)
		return -1;
	t.monotonic_ms = ctx->monotonic_ms;
	return lab_snmp_open(&t, s, err);
}

int
lab_switch_vlan_probe(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_switch *sw, const struct lab_creds *creds,
    const struct lab_vlan_req *req, struct lab_vlan_probe *ret,
    struct lab_err *err)
{
	struct lab_snmp	*s;
	int		 rc;

	memset(ret, 0, sizeof(*ret));
	if (open_switch(ctx, sw, creds, req, &s, err) == -1)
		return -1;
	rc = lab_vlan_probe(s, ret, err);
	lab_snmp_free(s);
	if (rc == -1)
		return -1;
	ret->at = ctx->wall();
	if (lab_db_vlan_probe_store(db, sw->name, ret, ret->at, err) == -1) {
		lab_vlan_probe_release(ret);
		return -1;
	}
	return 0;
}

/* Why the switch can't take the apply, in r->err; 0 when it can. */
static int
can_write(const struct lab_vlan_probe *p, struct lab_switch_result *r)
{
	const char	*sw = r->plan.switch_name;

	if (!p->qbridge)
		return lab_err_set(&r->err, LAB_EXIT_ENV, "%s: no "
		    "Q-BRIDGE-MIB VLAN table (the agent lacks the MIB); "
		    "nothing changed", sw);
	if (!p->writable)
		return lab_err_set(&r->err, LAB_EXIT_ENV, "%s: community is "
		    "read-only: SETs are refused (%s); nothing changed", sw,
		    p->why != NULL ? p->why : "notWritable");
	return 0;
}

/* One apply over the named switches: what the threads share. */
struct run {
	const struct lab_ctx		*ctx;
	const struct lab_inventory	*inv;
	const struct lab_strv		*names;
	const struct lab_creds		*creds;
	const struct lab_vlan_req	*req;
	struct lab_switch_result	*r;
	struct lab_vlan_state		*states;
	struct lab_vlan_probe		*probes;	/* stored, or 0 at */
	int				*probed;	/* probed now: store */
};

/* Why the plan is refused, in r->err; 0 when it is not (or --force). */
static int
refused(const struct lab_vlan_req *req, const char *sw,
    struct lab_switch_result *r)
{
	char	why[400];
	size_t	i, n;

	if (r->plan.refused.n == 0 || req->force)
		return 0;
	r->refused = 1;
	why[0] = '\0';
	for (i = 0; i < r->plan.refused.n; i++) {
		n = strlen(why);
		snprintf(why + n, sizeof(why) - n, "%s%s", i > 0 ? "; " : "",
		    r->plan.refused.v[i]);
	}
	return lab_err_set(&r->err, LAB_EXIT_INPUT, "%s: refused: %s "
	    "(--force applies it anyway); nothing changed", sw, why);
}

/*
 * One switch, its plan made from its state (what the plan read, moments
 * ago): probe when never probed, refuse, encode, exec, save. SNMP only:
 * runs in the fan-out; the database is written after.
 */
static void
apply_one(size_t i, void *arg)
{
	struct run			*run = arg;
	struct lab_switch_result	*r = &run->r[i];
	struct lab_vlan_probe		*p = &run->probes[i];
	const struct lab_ctx		*ctx = run->ctx;
	const struct lab_vlan_req	*req = run->req;
	const struct lab_switch		*sw;
	struct lab_snmp			*s = NULL;
	int64_t				 t0 = ctx->monotonic_ms();

	if (!r->plan.ok) {
		r->err = r->plan.err;
		return;
	}
	sw = lab_inventory_switch(run->inv, run->names->v[i]);
	if (r->plan.nvlans == 0 && r->plan.ntargets == 0) {
		r->nothing = r->ok = 1;
		return;
	}
	if (refused(req, sw->name, r) == -1)
		return;
	if (open_switch(ctx, sw, run->creds, req, &s, &r->err) == -1)
		goto out;
	if (p->at == 0) {
		if (lab_vlan_probe(s, p, &r->err) == -1)
			goto out;
		p->at = ctx->wall();
		run->probed[i] = 1;
	}
	if (can_write(p, r) == -1) {
		r->refused = 1;
		goto out;
	}
	if (lab_vlan_encode(&r->plan, &run->states[i], &r->writes,
	    &r->err) == -1)
		goto out;
	if (lab_vlan_exec(s, &r->writes, req->max_varbinds, &r->err) == -1)
		goto out;
	r->ok = 1;
	if (!req->no_save && p->copy) {
		if (lab_vlan_save(s, SAVE_TIMEOUT_MS, &r->err) == 0)
			r->saved = 1;
		else
			r->ok = 0;
	}
out:
	if (s != NULL) {
		lab_snmp_get_stats(s, &r->stats);
		lab_snmp_free(s);
	}
	r->elapsed_ms = ctx->monotonic_ms() - t0;
}

/* Stores the new probes and records the applies that sent something. */
static int
record(struct lab_db *db, struct run *run, const char *user,
    struct lab_err *err)
{
	size_t	i;

	for (i = 0; i < run->names->n; i++) {
		if (run->probed[i] && lab_db_vlan_probe_store(db,
		    run->names->v[i], &run->probes[i], run->probes[i].at,
		    err) == -1)
			return -1;
		/* an empty plan sent nothing: no history row */
		if (!run->r[i].plan.ok || run->r[i].nothing)
			continue;
		if (lab_db_switch_apply_record(db, &run->r[i], user,
		    run->ctx->wall(), err) == -1)
			return -1;
	}
	return 0;
}

int
lab_switch_vlan_apply(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    const char *user, struct lab_switch_result **ret, struct lab_err *err)
{
	struct run		 run = { .ctx = ctx, .inv = inv, .names = names,
				    .creds = creds, .req = req };
	struct lab_switch_plan	*plans;
	size_t			 i, n = names->n;
	int			 rc = -1;

	*ret = NULL;
	if (lab_switch_vlan_plan_read(ctx, db, inv, names, creds, req, &plans,
	    &run.states, err) == -1)
		return -1;
	run.r = calloc(n + 1, sizeof(*run.r));
	run.probes = calloc(n + 1, sizeof(*run.probes));
	run.probed = calloc(n + 1, sizeof(*run.probed));
	if (run.r == NULL || run.probes == NULL || run.probed == NULL) {
		for (i = 0; i < n; i++)
			lab_switch_plan_release(&plans[i]);
		free(plans);
		free(run.r);
		run.r = NULL;
		(void)lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < n; i++)
		run.r[i].plan = plans[i];
	free(plans);
	for (i = 0; i < n; i++)
		if (run.r[i].plan.ok && lab_db_vlan_probe_get(db, names->v[i],
		    &run.probes[i], err) == -1)
			goto fail;
	if (lab_fanout_run(n, req->sw.fanout > 0 ? (size_t)req->sw.fanout :
	    LAB_FANOUT_DEFAULT, apply_one, NULL, &run, err) == -1 ||
	    record(db, &run, user, err) == -1)
		goto fail;
	*ret = run.r;
	run.r = NULL;
	rc = 0;
	goto out;
fail:
	lab_switch_results_free(run.r, n);
	run.r = NULL;
out:
	for (i = 0; i < n; i++) {
		lab_vlan_state_release(&run.states[i]);
		if (run.probes != NULL)
			lab_vlan_probe_release(&run.probes[i]);
	}
	free(run.states);
	free(run.probes);
	free(run.probed);
	return rc;
}
