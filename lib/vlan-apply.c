/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch apply and probe: plan, refuse, encode, exec, save, record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"

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

/* One switch, its plan made: probe, refuse, read, encode, exec, save. */
static void
apply_one(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_switch *sw, const struct lab_creds *creds,
    const struct lab_vlan_req *req, struct lab_switch_result *r)
{
	struct lab_vlan_probe	 p;
	struct lab_vlan_state	 st;
	struct lab_snmp		*s = NULL;
	int64_t			 t0 = ctx->monotonic_ms();
	char			 why[400];
	size_t			 i, n;

	memset(&st, 0, sizeof(st));
	memset(&p, 0, sizeof(p));
	if (r->plan.nvlans == 0 && r->plan.ntargets == 0) {
		r->nothing = r->ok = 1;
		return;
	}
	if (r->plan.refused.n > 0 && !req->force) {
		r->refused = 1;
		why[0] = '\0';
		for (i = 0; i < r->plan.refused.n; i++) {
			n = strlen(why);
			snprintf(why + n, sizeof(why) - n, "%s%s", i > 0 ?
			    "; " : "", r->plan.refused.v[i]);
		}
		(void)lab_err_set(&r->err, LAB_EXIT_INPUT, "%s: refused: %s "
		    "(--force applies it anyway); nothing changed", sw->name,
		    why);
		return;
	}
	if (lab_db_vlan_probe_get(db, sw->name, &p, &r->err) == -1)
		return;
	if (p.at == 0 && lab_switch_vlan_probe(ctx, db, sw, creds, req, &p,
	    &r->err) == -1)
		return;
	if (can_write(&p, r) == -1) {
		r->refused = 1;
		goto out;
	}
	if (open_switch(ctx, sw, creds, req, &s, &r->err) == -1 ||
	    lab_vlan_read(s, &st, &r->err) == -1 ||
	    lab_vlan_encode(&r->plan, &st, &r->writes, &r->err) == -1)
		goto out;
	if (lab_vlan_exec(s, &r->writes, req->max_varbinds, &r->err) == -1)
		goto out;
	r->ok = 1;
	if (!req->no_save && p.copy) {
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
	lab_vlan_state_release(&st);
	lab_vlan_probe_release(&p);
}

int
lab_switch_vlan_apply(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    const char *user, struct lab_switch_result **ret, struct lab_err *err)
{
	struct lab_switch_plan		*plans;
	struct lab_switch_result	*r;
	const struct lab_switch		*sw;
	size_t				 i;

	*ret = NULL;
	if (lab_switch_vlan_plan(ctx, db, inv, names, creds, req, &plans,
	    err) == -1)
		return -1;
	if ((r = calloc(names->n + 1, sizeof(*r))) == NULL) {
		for (i = 0; i < names->n; i++)
			lab_switch_plan_release(&plans[i]);
		free(plans);
		return lab_err_oom(err);
	}
	for (i = 0; i < names->n; i++)
		r[i].plan = plans[i];
	free(plans);
	for (i = 0; i < names->n; i++) {
		if (!r[i].plan.ok) {
			r[i].err = r[i].plan.err;
			continue;
		}
		sw = lab_inventory_switch(inv, names->v[i]);
		apply_one(ctx, db, sw, creds, req, &r[i]);
		/* an empty plan sent nothing: no history row */
		if (r[i].nothing)
			continue;
		if (lab_db_switch_apply_record(db, &r[i], user, ctx->wall(),
		    err) == -1) {
			lab_switch_results_free(r, names->n);
			return -1;
		}
	}
	*ret = r;
	return 0;
}
