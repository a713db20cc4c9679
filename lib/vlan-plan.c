/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch plan: read each switch live, want, diff. */
#include <stdlib.h>
#include <string.h>

#include "lab/fanout.h"
#include "lab/vlan.h"
#include "vlan-priv.h"

/* What the database says of one switch, read before the fan-out. */
struct known {
	const char		*name;
	int			 discovered;
	struct lab_links_seen	 links;
	unsigned long		*found;		/* uplinks discovery found */
	size_t			 nfound;
	struct lab_vlan_state	 cache;		/* its stored structure */
	struct lab_vlan_state	 state;		/* what the plan read */
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

static struct known *
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

/* The ports the wants name, for the fast read, and what each needs read
 * (the columns its writes may touch); the first bridge port when none
 * (the read then still checks the agent answers dot1qPvid). */
static unsigned long *
wanted(const struct lab_port_wants *w, const struct lab_vlan_state *st,
    unsigned **need, size_t *n)
{
	unsigned long	*v;
	size_t		 i;

	v = calloc(w->n + 1, sizeof(*v));
	*need = calloc(w->n + 1, sizeof(**need));
	if (v == NULL || *need == NULL) {
		free(v);
		free(*need);
		*need = NULL;
		return NULL;
	}
	for (i = 0; i < w->n; i++) {
		v[i] = w->v[i].ifindex;
		(*need)[i] = (w->v[i].description != NULL ?
		    LAB_VLAN_READ_ALIAS : 0) |
		    (w->v[i].mode == LAB_PORT_MODE_ACCESS ?
		    LAB_VLAN_READ_ACCESS : LAB_VLAN_READ_NATIVE);
	}
	*n = w->n;
	if (*n == 0 && st->bridge.n > 0) {
		(*need)[*n] = LAB_VLAN_READ_ALL;
		v[(*n)++] = st->bridge.v[0].ifindex;
	}
	return v;
}

/*
 * The live state and the wants: the fast read over the structure the
 * last discovery stored, when there is one (not for --prune, which looks
 * at every port, nor SNMPv1, whose GET fails whole on one absent
 * object); else, or when the structure turns out stale, all of it.
 */
static int
read_state(const struct run *run, const struct lab_switch *sw,
    struct known *k, struct lab_snmp *s, int v1, struct lab_vlan_state *st,
    struct lab_port_wants *w, int *whole, struct lab_err *err)
{
	unsigned long	*ifx;
	unsigned	*need;
	size_t		 n;
	int		 r;

	if (k->cache.nports > 0 && !run->req->prune && !v1) {
		*st = k->cache;
		memset(&k->cache, 0, sizeof(k->cache));
		r = lab_vlan_read_vlans(s, st, err);
		if (r == 0 && lab_vlan_wants(run->inv, sw, &k->links, st, w,
		    err) == 0) {
			if ((ifx = wanted(w, st, &need, &n)) == NULL)
				return lab_err_oom(err);
			r = lab_vlan_read_ports(s, st, ifx, need, n, err);
			free(ifx);
			free(need);
			if (r == 0) {
				*whole = 0;
				return 0;
			}
		} else if (r == 0)
			/* a conflict: say it with the full read's names */
			lab_err_init(err);
		lab_port_wants_release(w);
		lab_vlan_state_release(st);
		if (r == -1)
			return -1;
	}
	*whole = 1;
	if (lab_vlan_read(s, st, err) == -1)
		return -1;
	return lab_vlan_wants(run->inv, sw, &k->links, st, w, err);
}

static void
work(void *arg, const void *item, void *res)
{
	struct run			*run = arg;
	const struct lab_switch		*sw = item;
	struct lab_switch_plan		*pl = res;
	struct known			*k = known_of(run, sw->name);
	struct lab_snmp_target		 t;
	struct lab_snmp			*s = NULL;
	struct lab_vlan_state		 st;
	struct lab_port_wants		 w;
	struct lab_vlan_diff_opts	 o;
	struct lab_switch_plan		 got;
	unsigned long			*up = NULL;
	size_t				 nup;
	int				 whole = 1;

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
	if (read_state(run, sw, k, s, t.version != NULL &&
	    strcmp(t.version, "1") == 0, &st, &w, &whole, &pl->err) == -1)
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
	got.read_whole = whole;
	lab_snmp_get_stats(s, &got.read_stats);
	*pl = got;
	/* apply writes from what the plan read */
	k->state = st;
	memset(&st, 0, sizeof(st));
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
		lab_vlan_state_release(&k[i].cache);
		lab_vlan_state_release(&k[i].state);
		free(k[i].mgmt_note);
	}
	free(k);
}

int
lab_switch_vlan_plan_read(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    struct lab_switch_plan **ret, struct lab_vlan_state **states,
    struct lab_err *err)
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
	if (states != NULL)
		*states = NULL;
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
		    &run.known[i].found, &run.known[i].nfound, err) == -1 ||
		    lab_db_vlan_ports(db, names->v[i], &run.known[i].cache,
		    err) == -1)
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
	if (states != NULL) {
		if ((*states = calloc(names->n + 1, sizeof(**states))) ==
		    NULL) {
			for (i = 0; i < names->n; i++)
				lab_switch_plan_release(&pl[i]);
			free(pl);
			(void)lab_err_oom(err);
			goto fail;
		}
		for (i = 0; i < names->n; i++) {
			(*states)[i] = run.known[i].state;
			memset(&run.known[i].state, 0,
			    sizeof(run.known[i].state));
		}
	}
	known_free(run.known, run.nknown);
	*ret = pl;
	return 0;
fail:
	known_free(run.known, run.nknown);
	return -1;
}

int
lab_switch_vlan_plan(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    struct lab_switch_plan **ret, struct lab_err *err)
{
	return lab_switch_vlan_plan_read(ctx, db, inv, names, creds, req, ret,
	    NULL, err);
}
