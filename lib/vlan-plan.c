/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch plan: read each switch live, want, diff. */
#include <stdlib.h>
#include <string.h>

#include "lab/fanout.h"
#include "lab/vlan.h"

/* What the database says of one switch, read before the fan-out. */
struct known {
	const char		*name;
	int			 discovered;
	struct lab_links_seen	 links;
	unsigned long		*found;		/* uplinks discovery found */
	size_t			 nfound;
	unsigned long		 mgmt_port;	/* lib/vlan-mgmt.c, or 0 */
	char			*mgmt_note;	/* why 0 */
};

struct run {
	const struct lab_ctx		*ctx;
	const struct lab_inventory	*inv;
	const struct lab_creds		*creds;
	const struct lab_vlan_req	*req;
	struct known			*known;
	size_t				 nknown;
	struct lab_fanout_job		 job;
};

static const struct known *
known_of(const struct run *run, const char *name)
{
	size_t	i;

	for (i = 0; i < run->nknown; i++)
		if (strcmp(run->known[i].name, name) == 0)
			return &run->known[i];
	return NULL;
}

/*
 * The declared uplinks, by ifindex (a name the switch lacks is skipped),
 * then the ones the last discovery found.
 */
static int
uplinks(const struct lab_switch *sw, const struct known *k,
    const struct lab_vlan_state *st, unsigned long **ret, size_t *n)
{
	const struct lab_vlan_port	*p;
	size_t				 i;

	*n = 0;
	if ((*ret = calloc(sw->uplinks.n + k->nfound + 1,
	    sizeof(**ret))) == NULL)
		return -1;
	for (i = 0; i < sw->uplinks.n; i++)
		if ((p = lab_vlan_state_port_named(st, sw->uplinks.v[i])) !=
		    NULL)
			(*ret)[(*n)++] = p->ifindex;
	for (i = 0; i < k->nfound; i++)
		(*ret)[(*n)++] = k->found[i];
	return 0;
}

static void
work(void *arg, const void *item, void *res)
{
	struct run			*run = arg;
	const struct lab_switch		*sw = item;
	struct lab_switch_plan		*pl = res;
	const struct known		*k = known_of(run, sw->name);
	struct lab_snmp_target		 t;
	struct lab_snmp			*s = NULL;
	struct lab_vlan_state		 st;
	struct lab_port_wants		 w;
	struct lab_vlan_diff_opts	 o;
	struct lab_switch_plan		 got;
	unsigned long			*up = NULL;
	size_t				 nup;

	memset(&st, 0, sizeof(st));
	memset(&w, 0, sizeof(w));
	if (k == NULL || !k->discovered) {
		(void)lab_err_set(&pl->err, LAB_EXIT_PARTIAL, "run 'lab "
		    "switch discover %s' first", sw->name);
		return;
	}
	if (lab_switch_target(sw, run->creds, &run->req->sw, &t,
	    &pl->err) == -1)
		return;
	t.monotonic_ms = run->ctx->monotonic_ms;
	if (lab_snmp_open(&t, &s, &pl->err) == -1)
		goto out;
	if (lab_vlan_read(s, &st, &pl->err) == -1)
		goto out;
	if (lab_vlan_wants(run->inv, sw, &k->links, &st, &w, &pl->err) == -1)
		goto out;
	if (uplinks(sw, k, &st, &up, &nup) == -1) {
		(void)lab_err_oom(&pl->err);
		goto out;
	}
	memset(&o, 0, sizeof(o));
	o.prune = run->req->prune;
	o.uplinks = up;
	o.nuplinks = nup;
	o.mgmt_port = k->mgmt_port;
	if (lab_vlan_diff(sw, &w, &st, &o, &got, &pl->err) == -1)
		goto out;
	if (k->mgmt_note != NULL && (got.mgmt_unknown =
	    strdup(k->mgmt_note)) == NULL) {
		lab_switch_plan_release(&got);
		(void)lab_err_oom(&pl->err);
		goto out;
	}
	/* keep the fan-out's copy of the name */
	free(got.switch_name);
	got.switch_name = pl->switch_name;
	*pl = got;
out:
	free(up);
	lab_port_wants_release(&w);
	lab_vlan_state_release(&st);
	if (s != NULL)
		lab_snmp_free(s);
}

static void
known_free(struct known *k, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		lab_links_seen_release(&k[i].links);
		free(k[i].found);
		free(k[i].mgmt_note);
	}
	free(k);
}

int
lab_switch_vlan_plan(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    struct lab_switch_plan **ret, struct lab_err *err)
{
	struct run		 run = { .ctx = ctx, .inv = inv, .creds = creds,
				    .req = req, .job = LAB_FANOUT_JOB(ctx,
				    struct lab_switch_plan, switch_name, work,
				    &run) };
	struct lab_switch_plan	*pl;
	struct lab_port_rows	 rows;
	const struct lab_switch	*sw;
	struct lab_err		 e = { 0 };
	size_t			 i;

	*ret = NULL;
	if ((run.known = calloc(names->n + 1, sizeof(*run.known))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < names->n; i++, run.nknown++) {
		run.known[i].name = names->v[i];
		if (lab_db_switch_ports(db, names->v[i], &rows, err) == -1)
			goto fail;
		run.known[i].discovered = rows.discovered_at != 0;
		lab_port_rows_release(&rows);
		if (lab_db_links_seen(db, names->v[i], &run.known[i].links,
		    err) == -1 || lab_db_vlan_uplinks(db, names->v[i],
		    &run.known[i].found, &run.known[i].nfound, err) == -1)
			goto fail;
		if ((sw = lab_inventory_find_switch(inv, names->v[i],
		    &e)) != NULL && lab_switch_mgmt_port(db, sw,
		    &run.known[i].mgmt_port, &run.known[i].mgmt_note,
		    err) == -1)
			goto fail;
	}
	if (lab_fanout_job_run(&run.job, names, lab_inventory_find_switch,
	    inv, req->sw.fanout, err) == -1)
		goto fail;
	pl = run.job.res;
	for (i = 0; i < names->n; i++)
		pl[i].ok = pl[i].err.code == LAB_EXIT_OK;
	/* an inventory conflict: nothing planned */
	for (i = 0; i < names->n; i++)
		if (pl[i].err.code == LAB_EXIT_INPUT) {
			*err = pl[i].err;
			for (i = 0; i < names->n; i++)
				lab_switch_plan_release(&pl[i]);
			free(pl);
			goto fail;
		}
	known_free(run.known, run.nknown);
	*ret = pl;
	return 0;
fail:
	known_free(run.known, run.nknown);
	return -1;
}
