/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/fanout.h"
#include "lab/reason.h"
#include "lab/switch.h"

/* The scalars of the system group: sysDescr, sysObjectID, sysUpTime, sysName. */
static const struct lab_oid system_oids[] = {
	{ { 1, 3, 6, 1, 2, 1, 1, 1, 0 }, 9 },
	{ { 1, 3, 6, 1, 2, 1, 1, 2, 0 }, 9 },
	{ { 1, 3, 6, 1, 2, 1, 1, 3, 0 }, 9 },
	{ { 1, 3, 6, 1, 2, 1, 1, 5, 0 }, 9 },
};

/*
 * Only the columns the decoders read, walked together: asking for less
 * is what makes a discovery fast against a slow agent.
 */
static const struct lab_oid columns[] = {
	{ { 1, 3, 6, 1, 2, 1, 2, 2, 1, 2 }, 10 },	/* ifDescr */
	{ { 1, 3, 6, 1, 2, 1, 2, 2, 1, 3 }, 10 },	/* ifType */
	{ { 1, 3, 6, 1, 2, 1, 2, 2, 1, 5 }, 10 },	/* ifSpeed */
	{ { 1, 3, 6, 1, 2, 1, 2, 2, 1, 7 }, 10 },	/* ifAdminStatus */
	{ { 1, 3, 6, 1, 2, 1, 2, 2, 1, 8 }, 10 },	/* ifOperStatus */
	{ { 1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 1 }, 11 },	/* ifName */
	{ { 1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 15 }, 11 },	/* ifHighSpeed */
	{ { 1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 18 }, 11 },	/* ifAlias */
	{ { 1, 3, 6, 1, 2, 1, 10, 7, 2, 1, 19 }, 11 },	/* dot3StatsDuplexStatus */
	{ { 1, 3, 6, 1, 2, 1, 17, 1, 4, 1, 2 }, 11 },	/* dot1dBasePortIfIndex */
	{ { 1, 3, 6, 1, 2, 1, 17, 4, 3, 1, 2 }, 11 },	/* dot1dTpFdbPort */
	{ { 1, 3, 6, 1, 2, 1, 17, 7, 1, 2, 2, 1, 2 }, 13 },	/* dot1qTpFdbPort */
	{ { 1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1, 1 }, 13 },	/* dot1qVlanStaticName */
	{ { 1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1, 2 }, 13 },	/* ...EgressPorts */
	{ { 1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1, 4 }, 13 },	/* ...UntaggedPorts */
	{ { 1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 5, 1, 1 }, 13 },	/* dot1qPvid */
	{ { 1, 2, 840, 10006, 300, 43, 1, 2, 1, 1, 13 }, 11 },	/* dot3adAggPortAttachedAggID */
	{ { 1, 3, 6, 1, 4, 1, 9, 9, 23, 1, 2, 1, 1, 4 }, 14 },	/* cdpCacheAddress */
	{ { 1, 3, 6, 1, 4, 1, 9, 9, 23, 1, 2, 1, 1, 6 }, 14 },	/* cdpCacheDeviceId */
	{ { 1, 3, 6, 1, 4, 1, 9, 9, 23, 1, 2, 1, 1, 7 }, 14 },	/* cdpCacheDevicePort */
	{ { 1, 3, 6, 1, 4, 1, 9, 9, 23, 1, 2, 1, 1, 8 }, 14 },	/* cdpCachePlatform */
	{ { 1, 0, 8802, 1, 1, 2, 1, 3, 7, 1, 3 }, 11 },	/* lldpLocPortId */
	{ { 1, 0, 8802, 1, 1, 2, 1, 4, 1, 1, 5 }, 11 },	/* lldpRemChassisId */
	{ { 1, 0, 8802, 1, 1, 2, 1, 4, 1, 1, 7 }, 11 },	/* lldpRemPortId */
	{ { 1, 0, 8802, 1, 1, 2, 1, 4, 1, 1, 8 }, 11 },	/* lldpRemPortDesc */
	{ { 1, 0, 8802, 1, 1, 2, 1, 4, 1, 1, 9 }, 11 },	/* lldpRemSysName */
	/* ENTITY-MIB: the class of every row; the rest by GET (entity()) */
	{ { 1, 3, 6, 1, 2, 1, 47, 1, 1, 1, 1, 5 }, 12 },	/* entPhysicalClass */
};

/*
 * The ENTITY-MIB columns read of the rows that matter (chassis, module,
 * stack): entPhysicalDescr, Name, HardwareRev, FirmwareRev, SoftwareRev,
 * SerialNum, ModelName.
 */
static const unsigned long entity_cols[] = { 2, 7, 8, 9, 10, 11, 13 };
static const unsigned long entity_oid[] = { 1, 3, 6, 1, 2, 1, 47, 1, 1, 1, 1 };
#define ENTITY_COLS	LAB_ARRAY_SIZE(entity_cols)

struct run {
	const struct lab_ctx		*ctx;
	const struct lab_inventory	*inv;
	const struct lab_creds		*creds;
	const struct lab_switch_req	*req;
	struct lab_fanout_job		 job;
};

static void
view_clear(struct lab_switch_view *v)
{
	lab_snmp_system_release(&v->sys);
	lab_snmp_ports_release(&v->ports);
	lab_snmp_bridge_release(&v->bridge);
	lab_snmp_fdb_release(&v->fdb);
	lab_snmp_vlans_release(&v->vlans);
	lab_snmp_lags_release(&v->lags);
	lab_snmp_neighbors_release(&v->nbrs);
	lab_switch_facts_release(&v->facts);
	free(v->facts_note);
	v->facts_note = NULL;
}

/* Decodes every table; all or nothing. */
static int
decode(struct lab_switch_view *v, const struct lab_varbind_list *l,
    struct lab_err *err)
{
	memset(&v->nbrs, 0, sizeof(v->nbrs));
	if (lab_mib_system(l->v, l->n, &v->sys, err) == -1 ||
	    lab_mib_ifaces(l->v, l->n, &v->ports, err) == -1 ||
	    lab_mib_duplex(l->v, l->n, &v->ports, err) == -1 ||
	    lab_mib_bridge(l->v, l->n, &v->bridge, err) == -1 ||
	    lab_mib_fdb(l->v, l->n, &v->fdb, err) == -1 ||
	    lab_mib_vlan(l->v, l->n, &v->vlans, err) == -1 ||
	    lab_mib_lag(l->v, l->n, &v->lags, err) == -1 ||
	    lab_mib_cdp(l->v, l->n, &v->nbrs, err) == -1 ||
	    lab_mib_lldp(l->v, l->n, &v->nbrs, err) == -1 ||
	    lab_mib_entity(l->v, l->n, &v->facts, err) == -1) {
		view_clear(v);
		return -1;
	}
	return 0;
}

/* How to reach a switch: the inventory's settings, its credential, req. */
int
lab_switch_target(const struct lab_switch *sw, const struct lab_creds *creds,
    const struct lab_switch_req *req, struct lab_snmp_target *t,
    struct lab_err *err)
{
	const struct lab_cred	*cred;

	if (sw->snmp.version == NULL)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "no snmp settings in "
		    "the inventory");
	if ((cred = lab_creds_find(creds, sw->snmp.credential)) == NULL)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "credential '%s' is "
		    "not in the credentials file", sw->snmp.credential);
	memset(t, 0, sizeof(*t));
	t->address = sw->address;
	t->port = sw->port;
	t->version = sw->snmp.version;
	t->community = cred->community;
	t->username = cred->username;
	t->auth_protocol = cred->auth_protocol;
	t->auth_password = cred->auth_password;
	t->priv_protocol = cred->priv_protocol;
	t->priv_password = cred->priv_password;
	t->context = sw->snmp.context;
	t->timeout_ms = req->timeout_ms > 0 ? req->timeout_ms :
	    sw->snmp.timeout_ms;
	t->retries = req->retries >= 0 ? req->retries : sw->snmp.retries;
	return 0;
}

/*
 * GETs the text columns of the entities that matter, as few rows a
 * request as fit max varbinds. They are facts, not the discovery: a
 * failure is a note (an SNMPv1 agent answers a missing one with an error).
 */
static void
entity(struct lab_snmp *s, struct lab_varbind_list *l, int max,
    struct lab_switch_view *v)
{
	unsigned long	 idx[LAB_MIB_ENTITY_MAX_ROWS];
	struct lab_oid	*oids;
	struct lab_err	 e;
	size_t		 nidx, i, c, n = 0, per;

	nidx = lab_mib_entity_indexes(l->v, l->n, idx, LAB_ARRAY_SIZE(idx));
	if (nidx == 0)
		return;
	per = (size_t)max / ENTITY_COLS > 0 ? (size_t)max / ENTITY_COLS : 1;
	if ((oids = calloc(per * ENTITY_COLS, sizeof(*oids))) == NULL) {
		v->facts_note = lab_strdup("ENTITY-MIB not read: out of memory");
		return;
	}
	lab_err_init(&e);
	for (i = 0; i < nidx; i++) {
		for (c = 0; c < ENTITY_COLS; c++, n++) {
			memcpy(oids[n].v, entity_oid, sizeof(entity_oid));
			oids[n].v[LAB_ARRAY_SIZE(entity_oid)] = entity_cols[c];
			oids[n].v[LAB_ARRAY_SIZE(entity_oid) + 1] = idx[i];
			oids[n].len = LAB_ARRAY_SIZE(entity_oid) + 2;
		}
		if ((i + 1) % per != 0 && i + 1 < nidx)
			continue;
		if (lab_snmp_get(s, oids, n, l, &e) == -1) {
			v->facts_note = lab_asprintf("ENTITY-MIB not read: %s",
			    e.msg);
			break;
		}
		n = 0;
	}
	free(oids);
}

static void
work(void *arg, const void *item, void *res)
{
	struct run		*run = arg;
	const struct lab_switch	*sw = item;
	struct lab_switch_view	*v = res;
	struct lab_snmp_target	 t;
	struct lab_varbind_list	 l;
	struct lab_snmp		*s = NULL;
	int64_t			 start = run->ctx->monotonic_ms();
	int			 deadline_s = run->req->deadline_s > 0 ?
				    run->req->deadline_s : LAB_SWITCH_DEADLINE_S;

	memset(&l, 0, sizeof(l));
	if (lab_switch_target(sw, run->creds, run->req, &t, &v->err) == -1)
		return;
	/* the whole discovery, however many requests and retries */
	t.monotonic_ms = run->ctx->monotonic_ms;
	t.deadline_ms = start + (int64_t)deadline_s * 1000;
	if (lab_snmp_open(&t, &s, &v->err) == -1)
		goto out;
	/* a walk that stops half way keeps nothing: decode only a whole one */
	if (lab_snmp_get(s, system_oids, LAB_ARRAY_SIZE(system_oids), &l,
	    &v->err) == -1 ||
	    lab_snmp_walk(s, columns, LAB_ARRAY_SIZE(columns),
	    run->req->max_varbinds > 0 ? run->req->max_varbinds : 60, &l,
	    &v->err) == -1)
		goto out;
	entity(s, &l, run->req->max_varbinds > 0 ? run->req->max_varbinds :
	    60, v);
	if (decode(v, &l, &v->err) == -1)
		goto out;
	v->ok = 1;
out:
	if (!v->ok && s != NULL && lab_snmp_past_deadline(s)) {
		lab_err_init(&v->err);
		lab_err_why(&v->err, LAB_REASON_TIMEOUT, LAB_EXIT_PARTIAL,
		    "switch %s: discovery took "
		    "longer than the %d s deadline (--deadline, config "
		    "switch_deadline)", lab_snmp_peer(s), deadline_s);
	}
	if (s != NULL) {
		lab_snmp_get_stats(s, &v->stats);
		lab_snmp_free(s);
	}
	lab_varbind_list_release(&l);
	v->elapsed_ms = run->ctx->monotonic_ms() - start;
}

/* Discovers the named switches in parallel. */
int
lab_switch_discover(const struct lab_ctx *ctx, const struct lab_inventory *inv,
    const struct lab_strv *names, const struct lab_creds *creds,
    const struct lab_switch_req *req, struct lab_switch_view **ret,
    struct lab_err *err)
{
	/* ctx->finished and ctx->progress hear of each switch done */
	struct run	run = { .ctx = ctx, .inv = inv, .creds = creds,
			    .req = req, .job = LAB_FANOUT_JOB(ctx,
			    struct lab_switch_view, name, work, &run) };

	if (lab_fanout_job_run(&run.job, names, lab_inventory_find_switch,
	    inv, req->fanout, err) == -1)
		return -1;
	*ret = run.job.res;
	return 0;
}

/* Frees views. */
void
lab_switch_views_free(struct lab_switch_view *v, size_t n)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++) {
		view_clear(&v[i]);
		free(v[i].name);
	}
	free(v);
}

/* The port with this ifindex, or NULL (ports are sorted by ifindex). */
const struct lab_snmp_port *
lab_switch_port(const struct lab_switch_view *v, unsigned long ifindex)
{
	size_t	lo = 0, hi = v->ports.n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v->ports.v[mid].ifindex == ifindex)
			return &v->ports.v[mid];
		if (v->ports.v[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
