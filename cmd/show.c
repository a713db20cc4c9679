/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/json.h"
#include "lab/model.h"
#include "lab/parse.h"
#include "lab/render.h"
#include "lab/switch.h"
#include "lab/target.h"
#include "lab.h"
#include "switch.h"

/* Strings from the database are printed through cmd_vis: shown, never
   obeyed by the terminal. */
static void
show_power(const struct lab_power_seen *p)
{
	char	seen[32], checked[32];

	if (p->checked_at == 0) {
		printf("power:    never checked ('lab power status' asks)\n");
		return;
	}
	lab_format_time(p->checked_at, checked, sizeof(checked));
	if (p->reachable) {
		printf("power:    %s (seen %s)\n", lab_power_name(p->state),
		    checked);
		return;
	}
	printf("power:    BMC unreachable at %s: %s\n", checked,
	    p->error ? cmd_vis(p->error) : "no answer");
	if (p->seen_at > 0) {
		lab_format_time(p->seen_at, seen, sizeof(seen));
		printf("          last seen %s at %s\n",
		    lab_power_name(p->state), seen);
	}
}

/* Where a NIC was last seen on a switch, or NULL. */
static const struct lab_link_seen *
nic_link(const struct lab_links_seen *l, const char *host, const char *nic)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].host, host) == 0 &&
		    strcmp(l->v[i].nic, nic) == 0)
			return &l->v[i];
	return NULL;
}

static void
show_host(const struct lab_host *h, const struct lab_power_seen *p,
    const struct lab_links_seen *links)
{
	const struct lab_link_seen	*l;
	const struct lab_model	*m = lab_model_find(h->model);
	char			 size[32], exact[32], *vlan;
	size_t			 i;

	printf("host:     %s\n", h->name);
	printf("model:    %s%s%s%s\n", h->model, m ? " (" : "",
	    m ? m->name : "", m ? ")" : "");
	if (h->role != NULL)
		printf("role:     %s\n", cmd_vis(h->role));
	printf("groups:   ");
	for (i = 0; i < h->groups.n; i++)
		printf("%s%s", i ? ", " : "", cmd_vis(h->groups.v[i]));
	printf("%s\n", h->groups.n ? "" : "-");
	if (h->bmc != NULL)
		printf(strchr(h->bmc->address, ':') != NULL ?
		    "bmc:      %s at [%s]:%d, credential '%s', cipher suite "
		    "%d\n" : "bmc:      %s at %s:%d, credential '%s', cipher "
		    "suite %d\n", h->bmc->type, h->bmc->address, h->bmc->port,
		    h->bmc->credential, h->bmc->cipher_suite);
	else
		printf("bmc:      none recorded\n");
	if (h->bmc != NULL)
		show_power(p);
	if (h->ssh != NULL)
		printf("ssh:      %s@%s:%d%s%s%s\n", h->ssh->user,
		    h->ssh->address, h->ssh->port,
		    h->ssh->identity ? ", key " : "",
		    h->ssh->identity ? cmd_vis(h->ssh->identity) : "",
		    h->ssh->legacy_crypto ? ", legacy algorithms allowed" : "");
	if (h->network != NULL)
		printf("network:  %s%s%s\n", h->network->address ?
		    h->network->address : "DHCP",
		    h->network->gateway ? " via " : "",
		    h->network->gateway ? h->network->gateway : "");
	printf("nics:\n");
	for (i = 0; i < h->nnics; i++) {
		l = nic_link(links, h->name, h->nics[i].name);
		vlan = lab_vlan_want_text(&h->nics[i].vlan);
		printf("  %-8s %s%s%s%s%s%s%s\n", h->nics[i].name,
		    h->nics[i].mac, l ? "  on " : "",
		    l ? cmd_vis(l->switch_name) : "", l ? " " : "",
		    l ? cmd_vis(l->port) : "", vlan && *vlan ? "  " : "",
		    vlan ? vlan : "");
		free(vlan);
	}
	if (h->nnics == 0)
		printf("  -\n");
	printf("disks:\n");
	for (i = 0; i < h->ndisks; i++) {
		lab_format_size_human(h->disks[i].size_bytes, size,
		    sizeof(size));
		lab_format_size(h->disks[i].size_bytes, exact, sizeof(exact));
		printf("  slot %-6s %-5s %-9s (%s)%s%s%s%s%s\n",
		    cmd_vis(h->disks[i].slot), h->disks[i].kind, size, exact,
		    h->disks[i].controller ? " on " : "",
		    h->disks[i].controller ?
		    cmd_vis(h->disks[i].controller) : "",
		    h->disks[i].device ? "  " : "",
		    h->disks[i].device ? cmd_vis(h->disks[i].device) : "",
		    h->disks[i].boot ? " (boot)" : "");
	}
	if (h->ndisks == 0)
		printf("  -\n");
	if (m != NULL && m->note != NULL)
		printf("note:     %s\n", m->note);
}

static void
show_switch(const struct lab_switch *s, const struct lab_switch_facts *sf)
{
	const struct lab_model	*m = lab_model_find(s->model);

	printf("switch:   %s\n", s->name);
	printf("model:    %s%s%s%s\n", s->model, m ? " (" : "",
	    m ? m->name : "", m ? ")" : "");
	printf(strchr(s->address, ':') != NULL ? "address:  [%s]:%d\n" :
	    "address:  %s:%d\n", s->address, s->port);
	if (s->snmp.version != NULL)
		printf("snmp:     v%s, credential '%s'%s%s\n", s->snmp.version,
		    s->snmp.credential, s->snmp.context ? ", context " : "",
		    s->snmp.context ? cmd_vis(s->snmp.context) : "");
	else
		printf("snmp:     none\n");
	if (m != NULL && m->note != NULL)
		printf("note:     %s\n", m->note);
	if (sf->version == NULL && sf->nents == 0 && sf->findings.n == 0)
		printf("facts:    none recorded (lab switch discover)\n");
	else {
		printf("facts:\n");
		cmd_switch_facts_print(sf, "  ");
	}
}

/* The switch's inventory object plus its facts and known issues. */
static void
render_switch(struct lab_json *j, const struct lab_switch *s,
    const struct lab_switch_facts *sf)
{
	lab_json_obj_begin(j);
	lab_render_switch_fields(j, s);
	lab_json_key(j, "facts");
	lab_render_switch_facts_json(j, sf);
	lab_json_key(j, "findings");
	lab_json_arr_begin(j);
	lab_render_fact_findings_items(j, &sf->findings);
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}

/* What lab facts last read of a host or switch, and its findings. */
struct seen_facts {
	int64_t				 at;
	struct lab_fact_kv		*kv;
	size_t				 n;
	struct lab_stored_finding	*f;
	size_t				 nf;
	const char			*kind;	/* "host" or "switch" */
	size_t				 nmine;	/* of f, this kind's */
};

static int
mine(const struct seen_facts *sf, size_t i)
{
	return strcmp(sf->f[i].kind, sf->kind) == 0;
}

static int
facts_load(struct lab_db *db, const char *kind, const char *name,
    struct seen_facts *sf, struct lab_err *err)
{
	size_t	i;

	memset(sf, 0, sizeof(*sf));
	if (lab_db_facts_seen(db, kind, name, &sf->at, err) == -1 ||
	    lab_db_facts_get(db, kind, name, &sf->kv, &sf->n, err) == -1 ||
	    lab_db_fact_findings(db, name, &sf->f, &sf->nf, err) == -1)
		return -1;
	/* a host and a switch of one name: only this one's findings */
	sf->kind = kind;
	for (i = 0; i < sf->nf; i++)
		if (mine(sf, i))
			sf->nmine++;
	return 0;
}

static void
facts_release(struct seen_facts *sf)
{
	lab_fact_kvs_free(sf->kv, sf->n);
	lab_stored_findings_free(sf->f, sf->nf);
	memset(sf, 0, sizeof(*sf));
}

static void
show_facts(const struct seen_facts *sf, const char *name)
{
	char	when[32];
	size_t	i;

	if (sf->n == 0 && sf->nmine == 0)
		return;
	if (sf->at > 0) {
		lab_format_time(sf->at, when, sizeof(when));
		printf("facts:    %zu current, last seen %s ('lab facts %s' reads them "
		    "again)\n", sf->n, when, name);
	} else
		printf("facts:    none current\n");
	/* one cmd_vis a printf */
	for (i = 0; i < sf->n; i++) {
		printf("  %-24s ", cmd_vis(sf->kv[i].key));
		printf("%s\n", sf->kv[i].value ? cmd_vis(sf->kv[i].value) :
		    "-");
	}
	if (sf->nmine == 0) {
		printf("findings: none\n");
		return;
	}
	printf("findings: %zu from the last facts run\n", sf->nmine);
	for (i = 0; i < sf->nf; i++) {
		if (!mine(sf, i))
			continue;
		printf("  %-8s ", cmd_vis(sf->f[i].f.severity));
		printf("%s: ", cmd_vis(sf->f[i].f.kind));
		printf("%s\n", cmd_vis(sf->f[i].f.message));
	}
}

static void
facts_json(struct lab_json *j, const struct seen_facts *sf)
{
	size_t	i;

	lab_json_key(j, "facts");
	lab_json_obj_begin(j);
	lab_json_ktime(j, "seen_at", sf->at);
	lab_json_key(j, "values");
	lab_json_obj_begin(j);
	for (i = 0; i < sf->n; i++)
		lab_json_kstr(j, sf->kv[i].key, sf->kv[i].value);
	lab_json_obj_end(j);
	lab_json_key(j, "findings");
	lab_json_arr_begin(j);
	for (i = 0; i < sf->nf; i++) {
		if (!mine(sf, i))
			continue;
		lab_json_obj_begin(j);
		lab_json_kstr(j, "severity", sf->f[i].f.severity);
		lab_json_kstr(j, "kind", sf->f[i].f.kind);
		lab_json_kstr(j, "subject", sf->f[i].f.subject);
		lab_json_kstr(j, "message", sf->f[i].f.message);
		lab_json_ktime(j, "seen_at", sf->f[i].seen_at);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}

/* The host's inventory object plus what was last observed of it. */
static void
render_host(struct lab_json *j, const struct lab_host *h,
    const struct lab_power_seen *p, const struct seen_facts *sf)
{
	char	t[32];

	lab_json_obj_begin(j);
	lab_render_host_fields(j, h);
	lab_json_key(j, "power");
	if (p->checked_at == 0)
		lab_json_null(j);
	else {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "state", p->state == LAB_POWER_UNKNOWN ? NULL :
		    lab_power_name(p->state));
		lab_json_key(j, "bmc_reachable");
		lab_json_bool(j, p->reachable);
		lab_format_time(p->checked_at, t, sizeof(t));
		lab_json_kstr(j, "checked_at", t);
		if (p->seen_at > 0)
			lab_format_time(p->seen_at, t, sizeof(t));
		lab_json_kstr(j, "seen_at", p->seen_at > 0 ? t : NULL);
		lab_json_kstr(j, "error", p->error);
		lab_json_obj_end(j);
	}
	/* only when lab facts ran: the object it had otherwise */
	if (sf->n > 0 || sf->nmine > 0)
		facts_json(j, sf);
	lab_json_obj_end(j);
}

static int
show_run(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	const struct lab_host	*h;
	const struct lab_switch	*s;
	struct lab_strv		 none;
	struct lab_power_seen	 seen;
	struct lab_links_seen	 links = { NULL, 0 };
	struct seen_facts	 sf;
	struct lab_switch_facts	 swf;
	struct lab_buf		 b;
	struct lab_json		 j;
	int			 rc;

	/* only the one host or switch: a lab may have 10,000 */
	if (cmd_db(call, 0, err) == -1 ||
	    lab_db_inventory_load_parts(call->db, LAB_LOAD_ALL, call->argv[0],
	    &inv, err) == -1)
		return err->code;
	h = lab_inventory_host(inv, call->argv[0]);
	s = lab_inventory_switch(inv, call->argv[0]);
	if (h == NULL && s == NULL) {
		/* the target parser words the error, with a suggestion */
		lab_inventory_free(inv);
		inv = NULL;
		if (cmd_inventory(call, &inv, err) == -1)
			return err->code;
		if (lab_target_resolve(inv, call->argv, 1, 0, &none, err) == 0)
			lab_strv_release(&none);
		return LAB_EXIT_INPUT;
	}
	memset(&seen, 0, sizeof(seen));
	memset(&swf, 0, sizeof(swf));
	if (h == NULL && lab_switch_facts_load(call->db, s->name, &swf,
	    err) == -1)
		return err->code;
	if (h != NULL && (lab_db_power_seen(call->db, h->name, &seen, err) == -1 ||
	    lab_db_links_of(call->db, h->name, &links, err) == -1)) {
		lab_power_seen_release(&seen);
		return err->code;
	}
	if (facts_load(call->db, h != NULL ? "host" : "switch",
	    h != NULL ? h->name : s->name, &sf, err) == -1) {
		facts_release(&sf);
		lab_switch_facts_release(&swf);
		lab_power_seen_release(&seen);
		lab_links_seen_release(&links);
		return err->code;
	}
	if (!call->json) {
		if (h != NULL)
			show_host(h, &seen, &links);
		else
			show_switch(s, &swf);
		/* a switch's facts are shown as the chassis and stack above */
		if (h != NULL)
			show_facts(&sf, h->name);
		facts_release(&sf);
		lab_switch_facts_release(&swf);
		lab_power_seen_release(&seen);
		lab_links_seen_release(&links);
		return LAB_EXIT_OK;
	}
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	if (h != NULL)
		render_host(&j, h, &seen, &sf);
	else
		render_switch(&j, s, &swf);
	lab_json_end(&j);
	facts_release(&sf);
	lab_switch_facts_release(&swf);
	lab_power_seen_release(&seen);
	lab_links_seen_release(&links);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc == -1 ? LAB_EXIT_ENV : LAB_EXIT_OK;
}

static const struct lab_verb show_verbs[] = {
	{ .name = NULL, .args = "HOST|SWITCH", .min = 1, .max = 1,
	  .flags = LAB_VERB_JSON, .run = show_run,
	  .summary = "show everything recorded about one host or switch" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_show = {
	.name = "show",
	.summary = "show one host or switch",
	.verbs = show_verbs,
};
