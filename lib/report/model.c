/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/model.h"
#include "lab/render.h"
#include "lab/report.h"
#include "db/db-priv.h"
#include "report-priv.h"

/*
 * The report model: one query per table, joined in memory. Hosts come
 * sorted by name, switches by name and their ports by ifindex.
 */

/* Adds a finding (copies of the strings). */
int
lab_report_finding_push(struct lab_report *r, const char *severity,
    const char *subject, const char *message)
{
	struct lab_report_finding	*f;

	if ((f = lab_report_push(&r->findings, &r->nfindings, sizeof(*f))) == NULL)
		return -1;
	f->severity = lab_strdup(severity);
	f->subject = lab_strdup(subject);
	f->message = lab_strdup(message);
	if (f->severity == NULL || f->subject == NULL || f->message == NULL)
		return -1;
	return 0;
}

/*
 * Rows of other tables find their host (or switch) by id: the ids, in
 * the name order of the report, and beside them an index sorted by id.
 */
struct ids {
	int64_t		*v;	/* v[i]: the id of element i */
	size_t		*by_id;	/* element indexes, sorted by id */
	size_t		 n;
};

static const int64_t	*sort_ids;

static int
cmp_by_id(const void *a, const void *b)
{
	int64_t	x = sort_ids[*(const size_t *)a];
	int64_t	y = sort_ids[*(const size_t *)b];

	return (x > y) - (x < y);
}

/* Builds the id index once the ids are read; -1 when out of memory. */
static int
ids_index(struct ids *ids)
{
	size_t	i;

	if ((ids->by_id = calloc(ids->n + 1, sizeof(*ids->by_id))) == NULL)
		return -1;
	for (i = 0; i < ids->n; i++)
		ids->by_id[i] = i;
	sort_ids = ids->v;
	qsort(ids->by_id, ids->n, sizeof(*ids->by_id), cmp_by_id);
	sort_ids = NULL;
	return 0;
}

static int
ids_add(struct ids *ids, int64_t id)
{
	int64_t	*p;

	if ((p = lab_report_push(&ids->v, &ids->n, sizeof(*p))) == NULL)
		return -1;
	*p = id;
	return 0;
}

static void
ids_release(struct ids *ids)
{
	free(ids->v);
	free(ids->by_id);
}

/* The index of the element with this id, or ids->n. */
static size_t
host_index(const struct ids *ids, int64_t id)
{
	size_t	lo = 0, hi = ids->by_id != NULL ? ids->n : 0, mid;
	int64_t	v;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((v = ids->v[ids->by_id[mid]]) == id)
			return ids->by_id[mid];
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ids->n;
}

static int
step_fail(struct lab_db *db, sqlite3_stmt *st, int rc, struct lab_err *err,
    const char *what)
{
	sqlite3_finalize(st);
	if (rc == SQLITE_NOMEM)
		return lab_err_oom(err);
	return lab_db_fail(db, err, what);
}

static int
load_hosts(struct lab_db *db, struct lab_report *r, struct ids *ids,
    struct lab_err *err)
{
	const struct lab_model	*m;
	struct lab_report_host	*h;
	sqlite3_stmt		*st;
	int			 rc;

	if (lab_db_prepare(db, "SELECT h.id, h.name, h.model, h.role, b.type, "
	    "b.address, b.port, ps.state, ps.seen_at, ps.checked_at, "
	    "ps.bmc_reachable, (SELECT pr.kind || ' ' || pr.layout || ' ' || "
	    "pr.status || ' ' || strftime('%Y-%m-%dT%H:%M:%SZ', "
	    "pr.started_at, 'unixepoch') || ' (run ' || pr.id || ')' "
	    "FROM provision_runs pr WHERE pr.host = h.name "
	    "ORDER BY pr.started_at DESC, pr.id DESC LIMIT 1) FROM hosts h "
	    "LEFT JOIN bmcs b ON b.host_id = h.id "
	    "LEFT JOIN power_state ps ON ps.host_id = h.id ORDER BY h.name",
	    &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((h = lab_report_push(&r->hosts, &r->nhosts, sizeof(*h))) ==
		    NULL || ids_add(ids, sqlite3_column_int64(st, 0)) == -1) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
		lab_strv_init(&h->groups);
		h->name = lab_db_text(st, 1);
		h->model = lab_db_text(st, 2);
		h->role = lab_db_text(st, 3);
		if ((m = lab_model_find(h->model)) != NULL)
			h->model_name = lab_strdup(m->name);
		if (sqlite3_column_type(st, 4) != SQLITE_NULL)
			h->bmc = lab_asprintf(strchr((const char *)
			    sqlite3_column_text(st, 5), ':') != NULL ?
			    "%s [%s]:%d" : "%s %s:%d",
			    sqlite3_column_text(st, 4),
			    sqlite3_column_text(st, 5),
			    sqlite3_column_int(st, 6));
		h->power = lab_db_text(st, 7);
		h->power_seen = sqlite3_column_int64(st, 8);
		h->power_checked = sqlite3_column_int64(st, 9);
		h->bmc_reachable = sqlite3_column_int(st, 10);
		h->last_run = lab_db_text(st, 11);
		if (h->name == NULL || h->model == NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, rc, err, "read hosts");
	sqlite3_finalize(st);
	if (ids_index(ids) == -1)
		return lab_err_oom(err);
	return 0;
}

static int
load_groups(struct lab_db *db, struct lab_report *r, const struct ids *ids,
    struct lab_err *err)
{
	sqlite3_stmt	*st;
	size_t		 i;
	int		 rc;

	if (lab_db_prepare(db, "SELECT hg.host_id, g.name FROM host_groups hg "
	    "JOIN groups g ON g.id = hg.group_id "
	    "ORDER BY hg.host_id, hg.position", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		i = host_index(ids, sqlite3_column_int64(st, 0));
		if (i < r->nhosts && lab_strv_add(&r->hosts[i].groups,
		    (const char *)sqlite3_column_text(st, 1)) == -1) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, rc, err, "read groups");
	sqlite3_finalize(st);
	return 0;
}

static int
load_nics(struct lab_db *db, struct lab_report *r, const struct ids *ids,
    struct lab_err *err)
{
	struct lab_report_host	*h;
	struct lab_report_nic	*n;
	sqlite3_stmt		*st;
	size_t			 i;
	int			 rc;

	/* the link last seen, even by an older discovery: "seen <when>" */
	if (lab_db_prepare(db, "SELECT n.host_id, n.name, n.mac, s.name, l.port, "
	    "l.last_seen FROM nics n "
	    "LEFT JOIN nic_links l ON l.host_id = n.host_id AND l.nic = n.name "
	    "LEFT JOIN switches s ON s.id = l.switch_id "
	    "ORDER BY n.host_id, n.position", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		i = host_index(ids, sqlite3_column_int64(st, 0));
		if (i == r->nhosts)
			continue;
		h = &r->hosts[i];
		if ((n = lab_report_push(&h->nics, &h->nnics, sizeof(*n))) ==
		    NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		n->name = lab_db_text(st, 1);
		n->mac = lab_db_text(st, 2);
		n->switch_name = lab_db_text(st, 3);
		n->port = lab_db_text(st, 4);
		n->last_seen = sqlite3_column_int64(st, 5);
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, rc, err, "read NICs");
	sqlite3_finalize(st);
	return 0;
}

static int
load_disks(struct lab_db *db, struct lab_report *r, const struct ids *ids,
    struct lab_err *err)
{
	struct lab_report_host	*h;
	struct lab_report_disk	*d;
	sqlite3_stmt		*st;
	size_t			 i;
	int			 rc;

	/* member_of: where the last done storage run put the disk */
	if (lab_db_prepare(db, "SELECT d.host_id, d.slot, d.kind, d.size_bytes, "
	    "d.controller, m.member_of FROM disks d JOIN hosts h ON "
	    "h.id = d.host_id LEFT JOIN disk_members m ON m.host = h.name "
	    "AND m.slot = d.slot ORDER BY d.host_id, d.position", &st,
	    err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		i = host_index(ids, sqlite3_column_int64(st, 0));
		if (i == r->nhosts)
			continue;
		h = &r->hosts[i];
		if ((d = lab_report_push(&h->disks, &h->ndisks, sizeof(*d))) ==
		    NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		d->slot = lab_db_text(st, 1);
		d->kind = lab_db_text(st, 2);
		d->size_bytes = (uint64_t)sqlite3_column_int64(st, 3);
		d->controller = lab_db_text(st, 4);
		d->member_of = lab_db_text(st, 5);
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, rc, err, "read disks");
	sqlite3_finalize(st);
	return 0;
}

static int
load_switches(struct lab_db *db, struct lab_report *r, struct ids *ids,
    struct lab_err *err)
{
	const struct lab_model		*m;
	struct lab_report_switch	*s;
	sqlite3_stmt			*st;
	int				 rc;

	if (lab_db_prepare(db, "SELECT id, name, model, sys_descr, discovered_at "
	    "FROM switches ORDER BY name", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((s = lab_report_push(&r->switches, &r->nswitches,
		    sizeof(*s))) == NULL ||
		    ids_add(ids, sqlite3_column_int64(st, 0)) == -1) {
			rc = SQLITE_NOMEM;
			break;
		}
		s->name = lab_db_text(st, 1);
		s->model = lab_db_text(st, 2);
		if (s->model != NULL &&
		    (m = lab_model_find(s->model)) != NULL) {
			s->model_name = lab_strdup(m->name);
			s->model_ports = m->switch_ports;
		}
		s->descr = lab_db_text(st, 3);
		s->discovered_at = sqlite3_column_int64(st, 4);
		if (s->discovered_at == 0) {
			/* a walk that never completed leaves no description */
			free(s->descr);
			s->descr = NULL;
		}
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, rc, err, "read switches");
	sqlite3_finalize(st);
	if (ids_index(ids) == -1)
		return lab_err_oom(err);
	return 0;
}

static int
load_ports(struct lab_db *db, struct lab_report *r, const struct ids *ids,
    struct lab_err *err)
{
	struct lab_report_switch	*s;
	struct lab_report_port		*p;
	sqlite3_stmt			*st;
	size_t				 i;
	int				 rc;

	/*
	 * The VLANs whose untagged list holds the port, the port-channel
	 * whose members do, the hosts whose link the last discovery saw,
	 * and the neighbours: correlated, still one statement.
	 */
	if (lab_db_prepare(db, "SELECT p.switch_id, p.ifindex, p.name, p.alias, "
	    "p.oper_status, p.speed_mbps, p.duplex, p.speed_suspect, "
	    "(SELECT group_concat(v.vlan_id, ',') FROM switch_vlans v "
	    " WHERE v.switch_id = p.switch_id AND "
	    " ',' || v.untagged || ',' LIKE '%,' || p.ifindex || ',%'), "
	    "(SELECT coalesce(q.name, g.ifindex) FROM switch_lags g "
	    " LEFT JOIN switch_ports q ON q.switch_id = g.switch_id AND "
	    " q.ifindex = g.ifindex WHERE g.switch_id = p.switch_id AND "
	    " ',' || g.members || ',' LIKE '%,' || p.ifindex || ',%' "
	    " ORDER BY g.ifindex LIMIT 1), "
	    "(SELECT group_concat(h.name, ',') FROM nic_links l "
	    " JOIN hosts h ON h.id = l.host_id JOIN switches s "
	    " ON s.id = l.switch_id WHERE l.switch_id = p.switch_id AND "
	    " l.ifindex = p.ifindex AND l.last_seen = s.discovered_at), "
	    "(SELECT group_concat(l.nic, ',') FROM nic_links l "
	    " JOIN switches s ON s.id = l.switch_id "
	    " WHERE l.switch_id = p.switch_id AND l.ifindex = p.ifindex AND "
	    " l.last_seen = s.discovered_at), "
	    "(SELECT n.protocol || ': ' || coalesce(n.remote_device, '?') || "
	    " ' ' || coalesce(n.remote_port, '?') FROM switch_neighbors n "
	    " WHERE n.switch_id = p.switch_id AND n.ifindex = p.ifindex "
	    " ORDER BY n.protocol LIMIT 1) "
	    "FROM switch_ports p ORDER BY p.switch_id, p.ifindex", &st,
	    err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		i = host_index(ids, sqlite3_column_int64(st, 0));
		if (i == r->nswitches)
			continue;
		s = &r->switches[i];
		if ((p = lab_report_push(&s->ports, &s->nports, sizeof(*p))) ==
		    NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		p->ifindex = (unsigned long)sqlite3_column_int64(st, 1);
		p->name = lab_db_text(st, 2);
		p->alias = lab_db_text(st, 3);
		p->oper_status = lab_db_text(st, 4);
		p->speed_mbps = sqlite3_column_int64(st, 5);
		p->duplex = lab_db_text(st, 6);
		p->speed_suspect = sqlite3_column_int(st, 7);
		p->vlan = lab_db_text(st, 8);
		p->lag = lab_db_text(st, 9);
		p->host = lab_db_text(st, 10);
		p->nic = lab_db_text(st, 11);
		p->neighbor = lab_db_text(st, 12);
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, rc, err, "read switch ports");
	sqlite3_finalize(st);
	return 0;
}

static int
load_findings(struct lab_db *db, struct lab_report *r, struct lab_err *err)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (lab_db_prepare(db, "SELECT f.severity, f.subject, f.message "
	    "FROM switch_findings f JOIN switches s ON s.id = f.switch_id "
	    "ORDER BY s.name, f.rowid", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (lab_report_finding_push(r, (const char *)sqlite3_column_text(st, 0),
		    (const char *)sqlite3_column_text(st, 1),
		    (const char *)sqlite3_column_text(st, 2)) == -1) {
			rc = SQLITE_NOMEM;
			break;
		}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, rc, err, "read switch findings");
	sqlite3_finalize(st);
	return 0;
}

static int
load_audit(struct lab_db *db, struct lab_report *r, struct lab_err *err)
{
	struct lab_report_audit	*a;
	sqlite3_stmt		*st;
	int			 rc;

	if (lab_db_prepare(db, "SELECT time, user, argv, result, message FROM "
	    "(SELECT * FROM audit_log ORDER BY id DESC LIMIT 20) ORDER BY id",
	    &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((a = lab_report_push(&r->audit, &r->naudit, sizeof(*a))) ==
		    NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		a->time = sqlite3_column_int64(st, 0);
		a->user = lab_db_text(st, 1);
		a->argv = lab_db_text(st, 2);
		a->result = sqlite3_column_int(st, 3);
		a->message = lab_db_text(st, 4);
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, rc, err, "read the audit log");
	sqlite3_finalize(st);
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
		rc = msg == NULL ? -1 : lab_report_finding_push(r, "info", h->name, msg);
		free(msg);
	} else if (h->bmc != NULL && !h->bmc_reachable) {
		lab_format_time(h->power_checked, when, sizeof(when));
		/* a MicroServer RAC runs on standby power: no mains, no RAC */
		msg = lab_asprintf("BMC %s unreachable at %s%s", h->bmc, when,
		    m != NULL && strncmp(m->id, "hp-microserver", 14) == 0 ?
		    "; the Remote Access Card has no battery, so the "
		    "MicroServer's mains power may be off" : "");
		rc = msg == NULL ? -1 : lab_report_finding_push(r, "critical", h->name,
		    msg);
		free(msg);
	}
	for (i = 0; m != NULL && rc == 0 && i < h->ndisks; i++) {
		if (strcmp(h->disks[i].kind, "ssd") != 0 ||
		    !slot_is_ide(m, h->disks[i].slot))
			continue;
		subj = lab_asprintf("%s disk %s", h->name, h->disks[i].slot);
		rc = subj == NULL ? -1 : lab_report_finding_push(r, "warning", subj,
		    "SSD on an IDE-emulation port: as a cache it runs at a "
		    "fraction of its speed (set the port to AHCI in the BIOS, "
		    "or use a bay)");
		free(subj);
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

/* Builds the report. */
int
lab_report_build(struct lab_db *db, int64_t now, int64_t since,
    struct lab_report **ret, struct lab_err *err)
{
	struct lab_report	*r;
	struct ids		 hids, sids;
	int			 rc = -1;

	memset(&hids, 0, sizeof(hids));
	memset(&sids, 0, sizeof(sids));
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return lab_err_oom(err);
	r->generated_at = now;
	if (load_hosts(db, r, &hids, err) == -1 ||
	    load_groups(db, r, &hids, err) == -1 ||
	    load_nics(db, r, &hids, err) == -1 ||
	    load_disks(db, r, &hids, err) == -1 ||
	    load_switches(db, r, &sids, err) == -1 ||
	    load_ports(db, r, &sids, err) == -1 ||
	    load_findings(db, r, err) == -1 ||
	    load_audit(db, r, err) == -1)
		goto out;
	if (derive(r) == -1) {
		lab_err_oom(err);
		goto out;
	}
	if (lab_report_snapshot(db, r, err) == -1 ||
	    lab_report_changes(db, r, since, err) == -1)
		goto out;
	*ret = r;
	r = NULL;
	rc = 0;
out:
	ids_release(&hids);
	ids_release(&sids);
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
		if (lab_report_finding_push(r, severity, subjects[i], messages[i]) == -1)
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
	size_t				 i, j;

	if (r == NULL)
		return;
	for (i = 0; i < r->nhosts; i++) {
		h = &r->hosts[i];
		free(h->name);
		free(h->model);
		free(h->model_name);
		free(h->role);
		lab_strv_release(&h->groups);
		free(h->bmc);
		free(h->power);
		for (j = 0; j < h->nnics; j++) {
			free(h->nics[j].name);
			free(h->nics[j].mac);
			free(h->nics[j].switch_name);
			free(h->nics[j].port);
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
	free(r->snapshot);
	free(r);
}
