/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/switch.h"
#include "db-priv.h"

static int
links_read(struct lab_db *db, const char *host, struct lab_links_seen *ret,
    struct lab_err *err)
{
	struct lab_links_seen	 s = { NULL, 0 };
	struct lab_link_seen	*v;
	struct db_stmt		*st;
	int			 rc;

	if (lab_db_prepare(db, host == NULL ? "SELECT h.name, l.nic, w.name, "
	    "l.port FROM nic_links l JOIN hosts h ON h.id = l.host_id "
	    "JOIN switches w ON w.id = l.switch_id" : "SELECT h.name, l.nic, "
	    "w.name, l.port FROM hosts h JOIN nic_links l ON l.host_id = h.id "
	    "JOIN switches w ON w.id = l.switch_id WHERE h.name = ?1",
	    &st, err) == -1)
		return -1;
	if (host != NULL)
		lab_db_bind_text(st, 1, host);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (lab_grow(&s.v, s.n, sizeof(*s.v)) == -1)
			break;
		v = &s.v[s.n++];
		v->host = lab_db_text(st, 0);
		v->nic = lab_db_text(st, 1);
		v->switch_name = lab_db_text(st, 2);
		v->port = lab_db_text(st, 3);
		if (v->host == NULL || v->nic == NULL || v->switch_name == NULL ||
		    v->port == NULL)
			break;
	}
	lab_db_finalize(st);
	if (rc != DB_DONE) {
		lab_links_seen_release(&s);
		return rc == DB_ROW ? lab_err_oom(err) :
		    lab_db_fail(db, err, "read links");
	}
	*ret = s;
	return 0;
}

/* The links stored by earlier discoveries (every switch: a NIC may move
 * from one switch to another). */
int
lab_db_links_seen(struct lab_db *db, const char *switch_name,
    struct lab_links_seen *ret, struct lab_err *err)
{
	(void)switch_name;
	return links_read(db, NULL, ret, err);
}

/* The links of one host's NICs. */
int
lab_db_links_of(struct lab_db *db, const char *host,
    struct lab_links_seen *ret, struct lab_err *err)
{
	return links_read(db, host, ret, err);
}

static char *
join(const struct lab_snmp_ifset *set)
{
	struct lab_buf	b;
	size_t		i;

	lab_buf_init(&b);
	for (i = 0; i < set->n; i++)
		lab_buf_addf(&b, "%s%lu", i ? "," : "", set->v[i]);
	return lab_buf_steal(&b);
}

/* Runs sql (with ?1 the switch name) once. */
static int
exec1(struct lab_db *db, const char *sql, const char *name,
    struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	if (lab_db_prepare(db, sql, &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, name);
	rc = lab_db_step(st);
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "store discovery");
	return 0;
}

static const char *const clear_sql[] = {
	"DELETE FROM switch_ports WHERE switch_id = "
	    "(SELECT id FROM switches WHERE name = ?1)",
	"DELETE FROM switch_fdb WHERE switch_id = "
	    "(SELECT id FROM switches WHERE name = ?1)",
	"DELETE FROM switch_vlans WHERE switch_id = "
	    "(SELECT id FROM switches WHERE name = ?1)",
	"DELETE FROM switch_lags WHERE switch_id = "
	    "(SELECT id FROM switches WHERE name = ?1)",
	"DELETE FROM switch_neighbors WHERE switch_id = "
	    "(SELECT id FROM switches WHERE name = ?1)",
	"DELETE FROM switch_findings WHERE switch_id = "
	    "(SELECT id FROM switches WHERE name = ?1)",
};

/* The statements of one store, in the order of store_sql. */
enum { S_SYS, S_PORT, S_FDB, S_VLAN, S_LAG, S_NBR, S_LINK, S_FIND, S_N };

static const char *const store_sql[S_N] = {
	"UPDATE switches SET sys_descr = ?2, sys_name = ?3, sys_object_id = ?4, "
	    "uptime = ?5, discovered_at = ?6 WHERE name = ?1",
	"INSERT INTO switch_ports (switch_id, ifindex, name, alias, "
	    "oper_status, admin_status, speed_mbps, duplex, seen_at, type, "
	    "speed_suspect, pvid, bridge_port) SELECT id, ?2, ?3, ?4, ?5, ?6, "
	    "?7, ?8, ?9, ?10, ?11, ?12, ?13 FROM switches WHERE name = ?1",
	"INSERT INTO switch_fdb (switch_id, mac, vlan, ifindex, seen_at) "
	    "SELECT id, ?2, ?3, ?4, ?5 FROM switches WHERE name = ?1",
	"INSERT INTO switch_vlans (switch_id, vlan_id, name, egress, untagged, "
	    "lists_mangled) SELECT id, ?2, ?3, ?4, ?5, ?6 FROM switches "
	    "WHERE name = ?1 ON CONFLICT (switch_id, vlan_id) DO UPDATE SET "
	    "name = excluded.name, egress = excluded.egress, "
	    "untagged = excluded.untagged, lists_mangled = excluded.lists_mangled",
	"INSERT INTO switch_lags (switch_id, ifindex, members) "
	    "SELECT id, ?2, ?3 FROM switches WHERE name = ?1 "
	    "ON CONFLICT (switch_id, ifindex) DO UPDATE SET "
	    "members = excluded.members",
	"INSERT INTO switch_neighbors (switch_id, ifindex, protocol, "
	    "remote_device, remote_port, platform, address, seen_at) "
	    "SELECT id, ?2, ?3, ?4, ?5, ?6, ?7, ?8 FROM switches WHERE name = ?1",
	/* a link that stays on its port keeps its first-seen time */
	"INSERT INTO nic_links (host_id, nic, mac, switch_id, port, ifindex, "
	    "source, first_seen, last_seen) SELECT h.id, ?3, ?4, w.id, ?5, ?6, "
	    "?7, ?8, ?8 FROM hosts h, switches w WHERE w.name = ?1 AND "
	    "h.name = ?2 ON CONFLICT (host_id, nic) DO UPDATE SET "
	    "first_seen = CASE WHEN nic_links.switch_id = excluded.switch_id "
	    "AND nic_links.port = excluded.port THEN nic_links.first_seen "
	    "ELSE excluded.first_seen END, "
	    "mac = excluded.mac, switch_id = excluded.switch_id, "
	    "port = excluded.port, ifindex = excluded.ifindex, "
	    "source = excluded.source, last_seen = excluded.last_seen",
	"INSERT INTO switch_findings (switch_id, severity, kind, subject, "
	    "message, seen_at) SELECT id, ?2, ?3, ?4, ?5, ?6 FROM switches "
	    "WHERE name = ?1",
};

static int
step(struct lab_db *db, struct db_stmt *st, struct lab_err *err)
{
	int	rc = lab_db_step(st);

	lab_db_reset(st);
	lab_db_clear_bindings(st);
	return rc == DB_DONE ? 0 : lab_db_fail(db, err, "store discovery");
}

/* The PVID of a port, or NULL (the PVIDs are sorted by ifindex). */
static const struct lab_snmp_pvid *
pvid_of(const struct lab_snmp_vlans *vl, unsigned long ifindex)
{
	size_t	lo = 0, hi = vl->npvid, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (vl->pvid[mid].ifindex == ifindex)
			return &vl->pvid[mid];
		if (vl->pvid[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The bridge port of an ifindex, or 0 (the map is small: a scan). */
static unsigned long
bridge_port_of(const struct lab_snmp_bridge *br, unsigned long ifindex)
{
	size_t	i;

	for (i = 0; i < br->n; i++)
		if (br->v[i].ifindex == ifindex)
			return br->v[i].port;
	return 0;
}

static int
store_tables(struct lab_db *db, struct db_stmt **st,
    const struct lab_switch_view *v, int64_t now, struct lab_err *err)
{
	const char			*name = v->name;
	const struct lab_snmp_pvid	*pv;
	char				*a, *b;
	unsigned long			 bp;
	size_t				 i;

	for (i = 0; i < v->ports.n; i++) {
		const struct lab_snmp_port	*p = &v->ports.v[i];

		lab_db_bind_text(st[S_PORT], 1, name);
		lab_db_bind_int64(st[S_PORT], 2, (int64_t)p->ifindex);
		lab_db_bind_text(st[S_PORT], 3, p->name);
		lab_db_bind_text(st[S_PORT], 4, p->alias);
		lab_db_bind_text(st[S_PORT], 5, lab_snmp_status_name(p->oper_status));
		lab_db_bind_text(st[S_PORT], 6,
		    lab_snmp_status_name(p->admin_status));
		lab_db_bind_int64(st[S_PORT], 7, (int64_t)p->speed_mbps);
		lab_db_bind_text(st[S_PORT], 8, lab_snmp_duplex_name(p->duplex));
		lab_db_bind_int64(st[S_PORT], 9, now);
		lab_db_bind_int64(st[S_PORT], 10, p->type);
		lab_db_bind_int(st[S_PORT], 11,
		    (p->flags & LAB_PORT_SPEED_SUSPECT) != 0);
		if ((pv = pvid_of(&v->vlans, p->ifindex)) != NULL)
			lab_db_bind_int64(st[S_PORT], 12,
			    (int64_t)pv->vlan);
		else
			lab_db_bind_null(st[S_PORT], 12);
		if ((bp = bridge_port_of(&v->bridge, p->ifindex)) != 0)
			lab_db_bind_int64(st[S_PORT], 13, (int64_t)bp);
		else
			lab_db_bind_null(st[S_PORT], 13);
		if (step(db, st[S_PORT], err) == -1)
			return -1;
	}
	for (i = 0; i < v->fdb.n; i++) {
		const struct lab_snmp_fdb_entry	*e = &v->fdb.v[i];

		lab_db_bind_text(st[S_FDB], 1, name);
		lab_db_bind_text(st[S_FDB], 2, e->mac);
		lab_db_bind_int64(st[S_FDB], 3, (int64_t)e->vlan);
		if (e->port != 0)
			lab_db_bind_int64(st[S_FDB], 4, (int64_t)e->port);
		lab_db_bind_int64(st[S_FDB], 5, now);
		if (step(db, st[S_FDB], err) == -1)
			return -1;
	}
	for (i = 0; i < v->vlans.n; i++) {
		const struct lab_snmp_vlan	*vl = &v->vlans.v[i];

		a = join(&vl->egress);
		b = join(&vl->untagged);
		lab_db_bind_text(st[S_VLAN], 1, name);
		lab_db_bind_int64(st[S_VLAN], 2, (int64_t)vl->id);
		lab_db_bind_text(st[S_VLAN], 3, vl->name);
		lab_db_bind_text(st[S_VLAN], 4, a);
		lab_db_bind_text(st[S_VLAN], 5, b);
		lab_db_bind_int(st[S_VLAN], 6, vl->lists_mangled);
		free(a);
		free(b);
		if (step(db, st[S_VLAN], err) == -1)
			return -1;
	}
	for (i = 0; i < v->lags.n; i++) {
		a = join(&v->lags.v[i].members);
		lab_db_bind_text(st[S_LAG], 1, name);
		lab_db_bind_int64(st[S_LAG], 2,
		    (int64_t)v->lags.v[i].ifindex);
		lab_db_bind_text(st[S_LAG], 3, a);
		free(a);
		if (step(db, st[S_LAG], err) == -1)
			return -1;
	}
	for (i = 0; i < v->nbrs.n; i++) {
		const struct lab_snmp_neighbor	*n = &v->nbrs.v[i];

		lab_db_bind_text(st[S_NBR], 1, name);
		lab_db_bind_int64(st[S_NBR], 2, (int64_t)n->port);
		lab_db_bind_text(st[S_NBR], 3, n->protocol == LAB_NBR_CDP ? "cdp" :
		    "lldp");
		lab_db_bind_text(st[S_NBR], 4, n->remote_device);
		lab_db_bind_text(st[S_NBR], 5, n->remote_port);
		lab_db_bind_text(st[S_NBR], 6, n->platform);
		lab_db_bind_text(st[S_NBR], 7, n->address);
		lab_db_bind_int64(st[S_NBR], 8, now);
		if (step(db, st[S_NBR], err) == -1)
			return -1;
	}
	return 0;
}

struct switch_store {
	const struct lab_switch_view	*v;
	const struct lab_links		*links;
	const struct lab_findings	*f;
	int64_t				 now;
};

static int
store_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	const struct switch_store	*a = arg;
	const struct lab_switch_view	*v = a->v;
	const struct lab_links		*links = a->links;
	const struct lab_findings	*f = a->f;
	int64_t				 now = a->now;
	struct db_stmt			*st[S_N] = { NULL };
	size_t				 i;
	int				 rc = -1;

	for (i = 0; i < S_N; i++)
		if (lab_db_prepare(db, store_sql[i], &st[i], err) == -1)
			goto out;
	for (i = 0; i < LAB_ARRAY_SIZE(clear_sql); i++)
		if (exec1(db, clear_sql[i], v->name, err) == -1)
			goto out;
	lab_db_bind_text(st[S_SYS], 1, v->name);
	lab_db_bind_text(st[S_SYS], 2, v->sys.descr);
	lab_db_bind_text(st[S_SYS], 3, v->sys.name);
	lab_db_bind_text(st[S_SYS], 4, v->sys.object_id);
	if (v->sys.has_uptime)
		lab_db_bind_int64(st[S_SYS], 5, (int64_t)v->sys.uptime);
	lab_db_bind_int64(st[S_SYS], 6, now);
	if (step(db, st[S_SYS], err) == -1 ||
	    store_tables(db, st, v, now, err) == -1)
		goto out;
	for (i = 0; i < links->n; i++) {
		const struct lab_link	*l = &links->v[i];

		if (strcmp(l->switch_name, v->name) != 0)
			continue;
		lab_db_bind_text(st[S_LINK], 1, v->name);
		lab_db_bind_text(st[S_LINK], 2, l->host);
		lab_db_bind_text(st[S_LINK], 3, l->nic);
		lab_db_bind_text(st[S_LINK], 4, l->mac);
		lab_db_bind_text(st[S_LINK], 5, l->port);
		lab_db_bind_int64(st[S_LINK], 6, (int64_t)l->ifindex);
		lab_db_bind_text(st[S_LINK], 7, l->source);
		lab_db_bind_int64(st[S_LINK], 8, now);
		if (step(db, st[S_LINK], err) == -1)
			goto out;
	}
	for (i = 0; i < f->n; i++) {
		lab_db_bind_text(st[S_FIND], 1, v->name);
		lab_db_bind_text(st[S_FIND], 2, f->v[i].severity);
		lab_db_bind_text(st[S_FIND], 3, f->v[i].kind);
		lab_db_bind_text(st[S_FIND], 4, f->v[i].subject);
		lab_db_bind_text(st[S_FIND], 5, f->v[i].message);
		lab_db_bind_int64(st[S_FIND], 6, now);
		if (step(db, st[S_FIND], err) == -1)
			goto out;
	}
	rc = 0;
out:
	for (i = 0; i < S_N; i++)
		lab_db_finalize(st[i]);
	return rc;
}

/* Stores a view, its links and findings in one transaction. */
int
lab_db_switch_store(struct lab_db *db, const struct lab_switch_view *v,
    const struct lab_links *links, const struct lab_findings *f, int64_t now,
    struct lab_err *err)
{
	struct switch_store	a = { v, links, f, now };

	return lab_db_tx(db, store_tx, &a, err);
}

/* The ports of the last discovery, with the host and NIC on each. */
int
lab_db_switch_ports(struct lab_db *db, const char *sw,
    struct lab_port_rows *ret, struct lab_err *err)
{
	struct lab_port_rows	 r = { NULL, 0, 0 };
	struct lab_port_row	*v;
	struct db_stmt		*st;
	int			 rc;

	if (lab_db_prepare(db, "SELECT p.ifindex, p.name, p.alias, p.oper_status, "
	    "p.admin_status, p.speed_mbps, p.duplex, h.name, l.nic, "
	    "p.speed_suspect, w.discovered_at FROM switch_ports p "
	    "JOIN switches w ON w.id = p.switch_id "
	    "LEFT JOIN nic_links l ON l.switch_id = p.switch_id AND "
	    "l.ifindex = p.ifindex AND l.last_seen = w.discovered_at "
	    "LEFT JOIN hosts h ON h.id = l.host_id "
	    "WHERE w.name = ?1 ORDER BY p.ifindex, h.name, l.nic",
	    &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, sw);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((v = realloc(r.v, (r.n + 1) * sizeof(*v))) == NULL)
			break;
		r.v = v;
		v = &r.v[r.n++];
		memset(v, 0, sizeof(*v));
		v->ifindex = (unsigned long)lab_db_column_int64(st, 0);
		v->name = lab_db_text(st, 1);
		v->alias = lab_db_text(st, 2);
		v->oper_status = lab_db_text(st, 3);
		v->admin_status = lab_db_text(st, 4);
		v->speed_mbps = lab_db_column_int64(st, 5);
		v->duplex = lab_db_text(st, 6);
		v->host = lab_db_text(st, 7);
		v->nic = lab_db_text(st, 8);
		v->speed_suspect = lab_db_column_int(st, 9);
		r.discovered_at = lab_db_column_int64(st, 10);
	}
	lab_db_finalize(st);
	if (rc != DB_DONE) {
		lab_port_rows_release(&r);
		return rc == DB_ROW ? lab_err_oom(err) :
		    lab_db_fail(db, err, "read ports");
	}
	*ret = r;
	return 0;
}

/* Frees port rows. */
void
lab_port_rows_release(struct lab_port_rows *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].name);
		free(r->v[i].alias);
		free(r->v[i].oper_status);
		free(r->v[i].admin_status);
		free(r->v[i].duplex);
		free(r->v[i].host);
		free(r->v[i].nic);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* The findings of the last discovery of a switch. */
int
lab_db_switch_findings(struct lab_db *db, const char *sw,
    struct lab_findings *ret, struct lab_err *err)
{
	struct lab_findings	 f = { NULL, 0 };
	struct lab_finding	*v;
	struct db_stmt		*st;
	const char		*sev;
	int			 rc;

	if (lab_db_prepare(db, "SELECT f.severity, f.kind, f.subject, f.message "
	    "FROM switch_findings f JOIN switches w ON w.id = f.switch_id "
	    "WHERE w.name = ?1 ORDER BY f.rowid", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, sw);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((v = realloc(f.v, (f.n + 1) * sizeof(*v))) == NULL)
			break;
		f.v = v;
		v = &f.v[f.n++];
		/* severity and kind point at static strings, as analyse's do */
		sev = (const char *)lab_db_column_text(st, 0);
		v->severity = sev && strcmp(sev, "critical") == 0 ? "critical" :
		    sev && strcmp(sev, "warning") == 0 ? "warning" : "info";
		v->kind = lab_finding_kind_static(
		    (const char *)lab_db_column_text(st, 1));
		v->subject = lab_db_text(st, 2);
		v->message = lab_db_text(st, 3);
	}
	lab_db_finalize(st);
	if (rc != DB_DONE) {
		lab_findings_release(&f);
		return rc == DB_ROW ? lab_err_oom(err) :
		    lab_db_fail(db, err, "read findings");
	}
	*ret = f;
	return 0;
}

/* Records the descriptions the switch took (done), each as it was set. */
int
lab_db_switch_aliases_record(struct lab_db *db, const char *sw,
    struct lab_alias_changes *c, int64_t now, struct lab_err *err)
{
	struct db_stmt	*st;
	size_t		 i;

	if (lab_db_prepare(db, "UPDATE switch_ports SET alias = ?3, "
	    "seen_at = ?4 WHERE ifindex = ?2 AND switch_id = "
	    "(SELECT id FROM switches WHERE name = ?1)", &st, err) == -1)
		return -1;
	for (i = 0; i < c->n; i++) {
		if (!c->v[i].done)
			continue;
		lab_db_bind_text(st, 1, sw);
		lab_db_bind_int64(st, 2, (int64_t)c->v[i].ifindex);
		lab_db_bind_text(st, 3, c->v[i].to);
		lab_db_bind_int64(st, 4, now);
		if (lab_db_step(st) != DB_DONE)
			lab_db_fail(db, &c->v[i].err, "record the description");
		lab_db_reset(st);
	}
	lab_db_finalize(st);
	return 0;
}
