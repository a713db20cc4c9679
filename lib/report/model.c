/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench-pool.h"
#include "lab/model.h"
#include "lab/render.h"
#include "lab/report.h"
#include "lab/vlan.h"
#include "core/idx.h"
#include "db/report-rows.h"
#include "history-priv.h"
#include "report-priv.h"

/*
 * The report model: the rows of lib/db/ (one query per table, see
 * db/report-rows.h), joined in memory. Hosts come sorted by name,
 * switches by name and their ports by ifindex.
 */

/* Adds a finding (copies of the strings). */
int
lab_report_finding_push(struct lab_report *r, const char *severity,
    const char *subject, const char *message)
{
	struct lab_report_finding	*f;

	if ((f = lab_push(&r->findings, &r->nfindings,
	    sizeof(*f))) == NULL)
		return -1;
	f->severity = lab_strdup(severity);
	f->subject = lab_strdup(subject);
	f->message = lab_strdup(message);
	if (f->severity == NULL || f->subject == NULL || f->message == NULL)
		return -1;
	return 0;
}

/*
 * Rows of other tables find their host (or switch) by id: an index from
 * the ids to the positions in the name order of the report.
 */
static int
ids_add(struct lab_idx *ids, int64_t id)
{
	return lab_idx_add(ids, id, ids->n);
}

/* What the row callbacks fill: the report, and the ids of its hosts or
 * switches. */
struct load {
	struct lab_report	*r;
	struct lab_idx		*ids;
};

static void
bmc_info_free(struct lab_bmc *b)
{
	if (b == NULL)
		return;
	free(b->type);
	free(b->address);
	free(b->credential);
	free(b->privilege);
	lab_strv_release(&b->workarounds);
	free(b);
}

/* The host's BMC as the inventory has it, for its one JSON shape. */
static int
bmc_info(struct lab_report_host *h, const struct lab_db_report_host *row)
{
	struct lab_bmc	*b;
	const char	*w, *e;
	char		*word;

	if ((b = h->bmc_info = calloc(1, sizeof(*b))) == NULL)
		return -1;
	lab_strv_init(&b->workarounds);
	b->type = lab_strdup(row->bmc_type);
	b->address = lab_strdup(row->bmc_address);
	b->port = row->bmc_port;
	b->credential = lab_strdup(row->bmc_credential);
	b->cipher_suite = row->bmc_cipher_suite;
	b->privilege = lab_strdup(row->bmc_privilege);
	b->timeout_ms = row->bmc_timeout_ms;
	b->retransmit_ms = row->bmc_retransmit_ms;
	for (w = row->bmc_workarounds; w != NULL && *w != '\0'; w = e) {
		w += strspn(w, " ");
		if ((e = w + strcspn(w, " ")) == w)
			break;
		if ((word = strndup(w, (size_t)(e - w))) == NULL ||
		    lab_strv_take(&b->workarounds, word) == -1)
			return -1;
	}
	return b->type == NULL || b->address == NULL ? -1 : 0;
}

static int
add_host(void *arg, const struct lab_db_report_host *row)
{
	struct load		*l = arg;
	struct lab_report	*r = l->r;
	const struct lab_model	*m;
	struct lab_report_host	*h;

	if ((h = lab_push(&r->hosts, &r->nhosts, sizeof(*h))) ==
	    NULL || ids_add(l->ids, row->id) == -1)
		return -1;
	lab_strv_init(&h->groups);
	h->name = lab_strdup(row->name);
	h->model = lab_strdup(row->model);
	h->role = lab_strdup(row->role);
	if ((m = lab_model_find(h->model)) != NULL)
		h->model_name = lab_strdup(m->name);
	if (row->bmc_type != NULL)
		h->bmc = lab_asprintf(strchr(row->bmc_address, ':') != NULL ?
		    "%s [%s]:%d" : "%s %s:%d", row->bmc_type,
		    row->bmc_address, row->bmc_port);
	if (row->bmc_type != NULL && bmc_info(h, row) == -1)
		return -1;
	h->power_error = lab_strdup(row->power_error);
	h->power = lab_strdup(row->power);
	h->power_seen = row->power_seen;
	h->power_checked = row->power_checked;
	h->bmc_reachable = row->bmc_reachable;
	h->last_run = lab_strdup(row->last_run);
	if (h->name == NULL || h->model == NULL)
		return -1;
	return 0;
}

static int
load_hosts(struct lab_db *db, struct lab_report *r, struct lab_idx *ids,
    struct lab_err *err)
{
	struct load	l = { r, ids };

	if (lab_db_report_hosts(db, add_host, &l, err) == -1)
		return -1;
	lab_idx_sort(ids);
	return 0;
}

static int
add_group(void *arg, const struct lab_db_report_group *row)
{
	struct load	*l = arg;
	long		 i = lab_idx_find(l->ids, row->host_id);

	if (i >= 0 && lab_strv_add(&l->r->hosts[i].groups,
	    row->name) == -1)
		return -1;
	return 0;
}

static int
add_nic(void *arg, const struct lab_db_report_nic *row)
{
	struct load		*l = arg;
	struct lab_report_host	*h;
	struct lab_report_nic	*n;
	long			 i = lab_idx_find(l->ids, row->host_id);

	if (i < 0)
		return 0;
	h = &l->r->hosts[i];
	if ((n = lab_push(&h->nics, &h->nnics, sizeof(*n))) == NULL)
		return -1;
	n->name = lab_strdup(row->name);
	n->mac = lab_strdup(row->mac);
	n->switch_name = lab_strdup(row->switch_name);
	n->port = lab_strdup(row->port);
	n->last_seen = row->last_seen;
	n->vlan.set = row->vlan_set;
	n->vlan.access = (unsigned long)row->vlan_access;
	n->vlan.native = (unsigned long)row->vlan_native;
	n->vlan.tagged = row->vlan_tagged;
	if (row->vlan_set &&
	    lab_vlan_list_parse_alloc(row->vlan_trunk, &n->vlan) == -1)
		return -1;
	return 0;
}

static int
add_disk(void *arg, const struct lab_db_report_disk *row)
{
	struct load		*l = arg;
	struct lab_report_host	*h;
	struct lab_report_disk	*d;
	long			 i = lab_idx_find(l->ids, row->host_id);

	if (i < 0)
		return 0;
	h = &l->r->hosts[i];
	if ((d = lab_push(&h->disks, &h->ndisks, sizeof(*d))) == NULL)
		return -1;
	d->slot = lab_strdup(row->slot);
	d->kind = lab_strdup(row->kind);
	d->size_bytes = row->size_bytes;
	d->controller = lab_strdup(row->controller);
	d->member_of = lab_strdup(row->member_of);
	return 0;
}

/* The groups, NICs and disks of the hosts read. */
static int
load_host_parts(struct lab_db *db, struct lab_report *r,
    struct lab_idx *ids, struct lab_err *err)
{
	struct load	l = { r, ids };

	if (lab_db_report_groups(db, add_group, &l, err) == -1 ||
	    lab_db_report_nics(db, add_nic, &l, err) == -1 ||
	    lab_db_report_disks(db, add_disk, &l, err) == -1)
		return -1;
	return 0;
}

static int
add_switch(void *arg, const struct lab_db_report_switch *row)
{
	struct load			*l = arg;
	struct lab_report		*r = l->r;
	const struct lab_model		*m;
	struct lab_report_switch	*s;

	if ((s = lab_push(&r->switches, &r->nswitches,
	    sizeof(*s))) == NULL || ids_add(l->ids, row->id) == -1)
		return -1;
	s->name = lab_strdup(row->name);
	s->model = lab_strdup(row->model);
	if (s->model != NULL && (m = lab_model_find(s->model)) != NULL) {
		s->model_name = lab_strdup(m->name);
		s->model_ports = m->switch_ports;
	}
	s->discovered_at = row->discovered_at;
	/* a walk that never completed leaves no description */
	if (s->discovered_at != 0)
		s->descr = lab_strdup(row->descr);
	return 0;
}

static int
load_switches(struct lab_db *db, struct lab_report *r, struct lab_idx *ids,
    struct lab_err *err)
{
	struct load	l = { r, ids };

	size_t		i;

	if (lab_db_report_switches(db, add_switch, &l, err) == -1)
		return -1;
	lab_idx_sort(ids);
	/* the declared VLANs, ports and uplinks, and the hosts' shares */
	if (lab_db_inventory_load_parts(db, LAB_LOAD_ALL, NULL, &r->declared,
	    err) == -1)
		return -1;
	for (i = 0; i < r->nswitches; i++)
		if (r->switches[i].name != NULL)
			r->switches[i].decl = lab_inventory_switch(r->declared,
			    r->switches[i].name);
	return 0;
}

static int
add_port(void *arg, const struct lab_db_report_port *row)
{
	struct load			*l = arg;
	struct lab_report_switch	*s;
	struct lab_report_port		*p;
	long				 i = lab_idx_find(l->ids, row->switch_id);

	if (i < 0)
		return 0;
	s = &l->r->switches[i];
	if ((p = lab_push(&s->ports, &s->nports, sizeof(*p))) == NULL)
		return -1;
	p->ifindex = (unsigned long)row->ifindex;
	p->name = lab_strdup(row->name);
	p->alias = lab_strdup(row->alias);
	p->oper_status = lab_strdup(row->oper_status);
	p->speed_mbps = row->speed_mbps;
	p->duplex = lab_strdup(row->duplex);
	p->speed_suspect = row->speed_suspect;
	p->vlan = lab_strdup(row->vlan);
	p->lag = lab_strdup(row->lag);
	p->host = lab_strdup(row->host);
	p->nic = lab_strdup(row->nic);
	p->neighbor = lab_strdup(row->neighbor);
	p->type = row->type;
	return 0;
}

static int
load_ports(struct lab_db *db, struct lab_report *r, struct lab_idx *ids,
    struct lab_err *err)
{
	struct load	l = { r, ids };

	return lab_db_report_ports(db, add_port, &l, err);
}

static int
add_finding(void *arg, const struct lab_db_report_finding *row)
{
	return lab_report_finding_push(arg, row->severity, row->subject,
	    row->message);
}

static int
add_audit(void *arg, const struct lab_db_report_audit *row)
{
	struct lab_report	*r = arg;
	struct lab_report_audit	*a;

	if ((a = lab_push(&r->audit, &r->naudit, sizeof(*a))) == NULL)
		return -1;
	a->time = row->time;
	a->user = lab_strdup(row->user);
	a->argv = lab_strdup(row->argv);
	a->result = row->result;
	a->message = lab_strdup(row->message);
	return 0;
}

static int
slot_is_ide(const struct lab_model *m, const char *slot)
{
	const char *const	*s;

	for (s = m->ide_slots; s != NULL && *s != NULL; s++)
		if (strcmp(*s, slot) == 0)
			return 1;
	return 0;
}

/* The IDE-emulation finding, with the disk's measured figures from the
 * host's last bench when it has one. */
static char *
ide_message(const struct lab_report_host *h, const char *slot)
{
	static const char base[] = "SSD on an IDE-emulation port: as a cache "
	    "it runs at a fraction of its speed (set the port to AHCI in the "
	    "BIOS, or use a bay)";
	const struct lab_bench_run	*run = h->bench;
	const struct lab_bench_disk	*d = NULL;
	double				 v[2] = { -1, -1 };
	size_t				 i;

	if (run == NULL)
		return lab_strdup(base);
	for (i = 0; i < run->disks.n; i++)
		if (strcmp(run->disks.v[i].slot, slot) == 0)
			d = &run->disks.v[i];
	for (i = 0; d != NULL && i < d->nresults; i++)
		if (d->results[i].test == LAB_BENCH_SEQ_READ ||
		    d->results[i].test == LAB_BENCH_SEQ_WRITE)
			v[d->results[i].test] = d->results[i].mb_s;
	if (v[0] < 0 && v[1] < 0)
		return lab_strdup(base);
	if (v[0] < 0 || v[1] < 0)
		return lab_asprintf("%s; measured %.1f MB/s %s (bench run "
		    "%lld)", base, v[0] < 0 ? v[1] : v[0], v[0] < 0 ? "write" :
		    "read", (long long)run->id);
	return lab_asprintf("%s; measured %.1f MB/s read, %.1f MB/s write "
	    "(bench run %lld)", base, v[0], v[1], (long long)run->id);
}

static int
derive_host(struct lab_report *r, const struct lab_report_host *h)
{
	const struct lab_model	*m = lab_model_find(h->model);
	char			 when[32], *msg, *subj;
	size_t			 i;
	int			 rc = 0;

	if (h->bmc != NULL && h->power_checked == 0) {
		msg = lab_asprintf("BMC %s never checked: run 'lab power "
		    "status %s'", h->bmc, h->name);
		rc = msg == NULL ? -1 : lab_report_finding_push(r, "info",
		    h->name, msg);
		free(msg);
	} else if (h->bmc != NULL && !h->bmc_reachable) {
		lab_format_time(h->power_checked, when, sizeof(when));
		/* a MicroServer RAC runs on standby power: no mains, no RAC */
		msg = lab_asprintf("BMC %s unreachable at %s%s", h->bmc, when,
		    m != NULL && strncmp(m->id, "hp-microserver", 14) == 0 ?
		    "; the Remote Access Card has no battery, so the "
		    "MicroServer's mains power may be off" : "");
		rc = msg == NULL ? -1 : lab_report_finding_push(r, "critical",
		    h->name, msg);
		free(msg);
	}
	for (i = 0; m != NULL && rc == 0 && i < h->ndisks; i++) {
		if (strcmp(h->disks[i].kind, "ssd") != 0 ||
		    !slot_is_ide(m, h->disks[i].slot))
			continue;
		subj = lab_asprintf("%s disk %s", h->name, h->disks[i].slot);
		msg = ide_message(h, h->disks[i].slot);
		rc = subj == NULL || msg == NULL ? -1 :
		    lab_report_finding_push(r, "warning", subj, msg);
		free(subj);
		free(msg);
	}
	/*
	 * A mirror of unequal disks and a disk much slower than its peers
	 * need pool membership and benchmarks, which provisioning (issue 5)
	 * does not store yet: no data, no finding.
	 */
	return rc;
}

static int
severity_rank(const char *s)
{
	if (strcmp(s, "critical") == 0)
		return 0;
	if (strcmp(s, "warning") == 0)
		return 1;
	return 2;
}

/*
 * Most severe first, keeping the order within a severity: three ranks, so
 * a counting sort, linear in the findings (10,000 hosts, as many BMCs
 * unreachable). -1 when out of memory.
 */
static int
sort_findings(struct lab_report *r)
{
	struct lab_report_finding	*v;
	size_t				 i, k = 0;
	int				 rank;

	if (r->nfindings < 2)
		return 0;
	if ((v = calloc(r->nfindings, sizeof(*v))) == NULL)
		return -1;
	for (rank = 0; rank < 3; rank++)
		for (i = 0; i < r->nfindings; i++)
			if (severity_rank(r->findings[i].severity) == rank)
				v[k++] = r->findings[i];
	memcpy(r->findings, v, r->nfindings * sizeof(*v));
	free(v);
	return 0;
}

static int
derive(struct lab_report *r)
{
	char	*msg;
	size_t	 i;

	for (i = 0; i < r->nhosts; i++)
		if (derive_host(r, &r->hosts[i]) == -1)
			return -1;
	for (i = 0; i < r->nswitches; i++) {
		if (r->switches[i].discovered_at != 0)
			continue;
		msg = lab_asprintf("never discovered: run 'lab switch "
		    "discover %s'", r->switches[i].name);
		if (msg == NULL || lab_report_finding_push(r, "info",
		    r->switches[i].name, msg) == -1) {
			free(msg);
			return -1;
		}
		free(msg);
	}
	return sort_findings(r);
}

/* The Disks section and its findings, with their kind. */
static int
disk_findings(struct lab_db *db, struct lab_report *r, struct lab_err *err)
{
	struct lab_bench_findings	f = { NULL, 0 };
	size_t				i;
	int				rc = 0;

	if (lab_report_disks(db, r, &f, err) == -1)
		rc = -1;
	for (i = 0; rc == 0 && i < f.n; i++)
		if (lab_report_finding_push(r, f.v[i].severity, f.v[i].subject,
		    f.v[i].message) == -1 ||
		    (r->findings[r->nfindings - 1].kind =
		    lab_strdup(f.v[i].kind)) == NULL)
			rc = lab_err_oom(err);
	lab_bench_findings_release(&f);
	return rc;
}

/* Builds the report. */
/* The VLAN applies a later good one did not make good. */
static int
load_switch_applies(struct lab_db *db, struct lab_report *r,
    struct lab_err *err)
{
	struct lab_switch_apply_rows	rows;

	if (lab_db_switch_applies(db, NULL, 0, 1, LAB_REPORT_SWITCH_APPLIES,
	    &rows, err) == -1)
		return -1;
	r->switch_applies = rows.v;
	r->nswitch_applies = rows.n;
	return 0;
}

int
lab_report_build(struct lab_db *db, int64_t now, int64_t since_run,
    int64_t since_time, struct lab_report **ret, struct lab_err *err)
{
	struct lab_report	*r;
	struct lab_idx		 hids, sids;
	int			 rc = -1;

	memset(&hids, 0, sizeof(hids));
	memset(&sids, 0, sizeof(sids));
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return lab_err_oom(err);
	r->generated_at = now;
	if (load_hosts(db, r, &hids, err) == -1 ||
	    load_host_parts(db, r, &hids, err) == -1 ||
	    load_switches(db, r, &sids, err) == -1 ||
	    load_ports(db, r, &sids, err) == -1 ||
	    lab_db_report_findings(db, add_finding, r, err) == -1 ||
	    lab_db_report_audit(db, add_audit, r, err) == -1 ||
	    disk_findings(db, r, err) == -1 ||
	    lab_db_pool_latest(db, &r->pools, &r->npools, err) == -1 ||
	    load_switch_applies(db, r, err) == -1)
		goto out;
	if (derive(r) == -1) {
		lab_err_oom(err);
		goto out;
	}
	if (lab_report_snapshot(db, r, err) == -1 ||
	    lab_report_changes(db, r, since_run, since_time, err) == -1 ||
	    lab_report_drift(db, r, err) == -1 ||
	    lab_report_history(db, r, &hids, err) == -1)
		goto out;
	*ret = r;
	r = NULL;
	rc = 0;
out:
	lab_idx_release(&hids);
	lab_idx_release(&sids);
	lab_report_free(r);
	return rc;
}

/* Adds a finding, most severe first. */
int
lab_report_add_finding(struct lab_report *r, const char *severity,
    const char *subject, const char *message, struct lab_err *err)
{
	if (lab_report_finding_push(r, severity, subject, message) == -1 ||
	    sort_findings(r) == -1)
		return lab_err_oom(err);
	return 0;
}

/* Adds n findings of one severity, most severe first. */
int
lab_report_add_findings(struct lab_report *r, const char *severity,
    char *const *subjects, char *const *messages, size_t n,
    struct lab_err *err)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (lab_report_finding_push(r, severity, subjects[i],
		    messages[i]) == -1)
			return lab_err_oom(err);
	if (sort_findings(r) == -1)
		return lab_err_oom(err);
	return 0;
}

/* Counts the report's parts. */
void
lab_report_summarise(const struct lab_report *r,
    struct lab_report_summary *s)
{
	const struct lab_report_host	*h;
	size_t				 i, j;

	memset(s, 0, sizeof(*s));
	s->hosts = r->nhosts;
	for (i = 0; i < r->nhosts; i++) {
		h = &r->hosts[i];
		if (h->bmc == NULL)
			s->no_bmc++;
		if (h->bmc != NULL && h->power_checked != 0 &&
		    !h->bmc_reachable)
			s->bmc_unreachable++;
		if (h->power != NULL && strcmp(h->power, "on") == 0)
			s->power_on++;
		else if (h->power != NULL && strcmp(h->power, "off") == 0)
			s->power_off++;
		else if (h->bmc != NULL)
			s->power_unknown++;
	}
	s->switches = r->nswitches;
	for (i = 0; i < r->nswitches; i++) {
		if (r->switches[i].discovered_at != 0)
			s->switches_discovered++;
		s->ports += r->switches[i].nports;
		for (j = 0; j < r->switches[i].nports; j++)
			if (r->switches[i].ports[j].oper_status != NULL &&
			    strcmp(r->switches[i].ports[j].oper_status,
			    "up") == 0)
				s->ports_up++;
	}
	s->unknown_macs = r->unknown_macs;
	s->changes = r->nchanges;
	for (i = 0; i < r->nfindings; i++)
		switch (severity_rank(r->findings[i].severity)) {
		case 0:
			s->critical++;
			break;
		case 1:
			s->warning++;
			break;
		default:
			s->info++;
		}
}

/* Frees a report; NULL is a no-op. */
void
lab_report_free(struct lab_report *r)
{
	struct lab_report_host		*h;
	struct lab_report_switch	*s;
	struct lab_switch_apply_rows	 rows;
	size_t				 i, j;

	if (r == NULL)
		return;
	rows.v = r->switch_applies;
	rows.n = r->nswitch_applies;
	lab_switch_apply_rows_release(&rows);
	lab_inventory_free(r->declared);
	for (i = 0; i < r->npools; i++)
		lab_pool_run_release(&r->pools[i]);
	free(r->pools);
	for (i = 0; i < r->nhosts; i++) {
		h = &r->hosts[i];
		free(h->name);
		free(h->model);
		free(h->model_name);
		free(h->role);
		lab_strv_release(&h->groups);
		free(h->bmc);
		bmc_info_free(h->bmc_info);
		free(h->power_error);
		free(h->power);
		for (j = 0; j < h->nnics; j++) {
			free(h->nics[j].name);
			free(h->nics[j].mac);
			free(h->nics[j].switch_name);
			free(h->nics[j].port);
			free(h->nics[j].vlan.trunk);
		}
		free(h->nics);
		for (j = 0; j < h->ndisks; j++) {
			free(h->disks[j].slot);
			free(h->disks[j].kind);
			free(h->disks[j].controller);
			free(h->disks[j].member_of);
		}
		free(h->disks);
		free(h->last_run);
		lab_report_history_free(h);
		lab_report_disks_free(h);
	}
	free(r->hosts);
	for (i = 0; i < r->nswitches; i++) {
		s = &r->switches[i];
		free(s->name);
		free(s->model);
		free(s->model_name);
		free(s->descr);
		for (j = 0; j < s->nports; j++) {
			free(s->ports[j].name);
			free(s->ports[j].alias);
			free(s->ports[j].oper_status);
			free(s->ports[j].duplex);
			free(s->ports[j].vlan);
			free(s->ports[j].lag);
			free(s->ports[j].host);
			free(s->ports[j].nic);
			free(s->ports[j].neighbor);
		}
		free(s->ports);
	}
	free(r->switches);
	for (i = 0; i < r->nchanges; i++) {
		free(r->changes[i].kind);
		free(r->changes[i].subject);
		free(r->changes[i].message);
	}
	free(r->changes);
	for (i = 0; i < r->nfindings; i++) {
		free(r->findings[i].severity);
		free(r->findings[i].kind);
		free(r->findings[i].subject);
		free(r->findings[i].message);
	}
	free(r->findings);
	for (i = 0; i < r->naudit; i++) {
		free(r->audit[i].user);
		free(r->audit[i].argv);
		free(r->audit[i].message);
	}
	free(r->audit);
	lab_report_drift_free(r);
	free(r->snapshot);
	free(r->page_prev);
	free(r->page_next);
	free(r);
}
