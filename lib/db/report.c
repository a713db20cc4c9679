/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab/db.h"
#include "db-priv.h"
#include "runs.h"
#include "report-rows.h"

/*
 * The rows of the report model (report-rows.h): one query per table,
 * which lib/report/ joins in memory.
 */

static const char *
text(struct db_stmt *st, int col)
{
	return (const char *)lab_db_column_text(st, col);
}

/* Ends a scan: 0 when it read every row, else the error. */
static int
scan_end(struct lab_db *db, struct db_stmt *st, int rc, struct lab_err *err,
    const char *what)
{
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, what);
	lab_db_finalize(st);
	return 0;
}

/* Hosts by name. */
int
lab_db_report_hosts(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_host *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_host	 h;
	struct db_stmt			*st;
	int				 rc;

	/* a run whose lab is gone reads as abandoned, not running */
	if (lab_db_runs_reap(db, NULL, err) == -1)
		return -1;
	if (lab_db_prepare(db, "SELECT h.id, h.name, h.model, h.role, b.type, "
	    "b.address, b.port, ps.state, ps.seen_at, ps.checked_at, "
	    "ps.bmc_reachable, (SELECT pr.kind || ' ' || pr.layout || ' ' || "
	    "pr.status || ' ' || strftime('%Y-%m-%dT%H:%M:%SZ', "
	    "pr.started_at, 'unixepoch') || ' (run ' || pr.id || ')' "
	    "FROM provision_runs pr WHERE pr.host = h.name "
	    "ORDER BY pr.started_at DESC, pr.id DESC LIMIT 1), "
	    "b.credential, b.cipher_suite, b.workarounds, b.privilege, "
	    "b.timeout_ms, b.retransmit_ms, ps.error FROM hosts h "
	    "LEFT JOIN bmcs b ON b.host_id = h.id "
	    "LEFT JOIN power_state ps ON ps.host_id = h.id ORDER BY h.name",
	    &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		memset(&h, 0, sizeof(h));
		h.id = lab_db_column_int64(st, 0);
		h.name = text(st, 1);
		h.model = text(st, 2);
		h.role = text(st, 3);
		if (lab_db_column_type(st, 4) != DB_NULL) {
			h.bmc_type = text(st, 4);
			h.bmc_address = text(st, 5);
			h.bmc_port = lab_db_column_int(st, 6);
			h.bmc_credential = text(st, 12);
			h.bmc_cipher_suite = lab_db_column_int(st, 13);
			h.bmc_workarounds = text(st, 14);
			h.bmc_privilege = text(st, 15);
			h.bmc_timeout_ms = lab_db_column_int(st, 16);
			h.bmc_retransmit_ms = lab_db_column_int(st, 17);
		}
		h.power = text(st, 7);
		h.power_seen = lab_db_column_int64(st, 8);
		h.power_checked = lab_db_column_int64(st, 9);
		h.bmc_reachable = lab_db_column_int(st, 10);
		h.last_run = text(st, 11);
		h.power_error = text(st, 18);
		if (fn(arg, &h) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	return scan_end(db, st, rc, err, "read hosts");
}

/* Group memberships, by host id and position. */
int
lab_db_report_groups(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_group *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_group	 g;
	struct db_stmt			*st;
	int				 rc;

	if (lab_db_prepare(db, "SELECT hg.host_id, g.name FROM host_groups hg "
	    "JOIN groups g ON g.id = hg.group_id "
	    "ORDER BY hg.host_id, hg.position", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		g.host_id = lab_db_column_int64(st, 0);
		g.name = text(st, 1);
		if (fn(arg, &g) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	return scan_end(db, st, rc, err, "read groups");
}

/* NICs by host id and position, with the link last seen. */
int
lab_db_report_nics(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_nic *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_nic	 n;
	struct db_stmt			*st;
	int				 rc;

	/* the link last seen, even by an older discovery: "seen <when>" */
	if (lab_db_prepare(db, "SELECT n.host_id, n.name, n.mac, s.name, "
	    "l.port, l.last_seen, n.vlan_line IS NOT NULL, n.vlan_access, "
	    "n.vlan_trunk, n.vlan_native, n.vlan_tagged FROM nics n "
	    "LEFT JOIN nic_links l ON l.host_id = n.host_id AND l.nic = n.name "
	    "LEFT JOIN switches s ON s.id = l.switch_id "
	    "ORDER BY n.host_id, n.position", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		n.host_id = lab_db_column_int64(st, 0);
		n.name = text(st, 1);
		n.mac = text(st, 2);
		n.switch_name = text(st, 3);
		n.port = text(st, 4);
		n.last_seen = lab_db_column_int64(st, 5);
		n.vlan_set = lab_db_column_int(st, 6);
		n.vlan_access = lab_db_column_int64(st, 7);
		n.vlan_trunk = text(st, 8);
		n.vlan_native = lab_db_column_int64(st, 9);
		n.vlan_tagged = lab_db_column_int(st, 10);
		if (fn(arg, &n) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	return scan_end(db, st, rc, err, "read NICs");
}

/* Disks by host id and position. */
int
lab_db_report_disks(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_disk *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_disk	 d;
	struct db_stmt			*st;
	int				 rc;

	/* member_of: where the last done storage run put the disk */
	if (lab_db_prepare(db, "SELECT d.host_id, d.slot, d.kind, "
	    "d.size_bytes, d.controller, m.member_of FROM disks d "
	    "JOIN hosts h ON h.id = d.host_id LEFT JOIN disk_members m "
	    "ON m.host = h.name AND m.slot = d.slot "
	    "ORDER BY d.host_id, d.position", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		d.host_id = lab_db_column_int64(st, 0);
		d.slot = text(st, 1);
		d.kind = text(st, 2);
		d.size_bytes = (uint64_t)lab_db_column_int64(st, 3);
		d.controller = text(st, 4);
		d.member_of = text(st, 5);
		if (fn(arg, &d) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	return scan_end(db, st, rc, err, "read disks");
}

/* Switches by name. */
int
lab_db_report_switches(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_switch *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_switch	 s;
	struct db_stmt			*st;
	int				 rc;

	if (lab_db_prepare(db, "SELECT id, name, model, sys_descr, "
	    "discovered_at FROM switches ORDER BY name", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		s.id = lab_db_column_int64(st, 0);
		s.name = text(st, 1);
		s.model = text(st, 2);
		s.descr = text(st, 3);
		s.discovered_at = lab_db_column_int64(st, 4);
		if (fn(arg, &s) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	return scan_end(db, st, rc, err, "read switches");
}

/* Ports by switch id and ifindex. */
int
lab_db_report_ports(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_port *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_port	 p;
	struct db_stmt			*st;
	int				 rc;

	/*
	 * The port's PVID, else the VLANs whose untagged list holds it, the port-channel
	 * whose members do, the hosts whose link the last discovery saw,
	 * and the neighbours: correlated, still one statement.
	 */
	if (lab_db_prepare(db, "SELECT p.switch_id, p.ifindex, p.name, "
	    "p.alias, p.oper_status, p.speed_mbps, p.duplex, p.speed_suspect, "
	    "coalesce(CAST(p.pvid AS TEXT), "
	    "(SELECT group_concat(v.vlan_id, ',') FROM switch_vlans v "
	    " WHERE v.switch_id = p.switch_id AND "
	    " ',' || v.untagged || ',' LIKE '%,' || p.ifindex || ',%')), "
	    "(SELECT coalesce(q.name, CAST(g.ifindex AS TEXT)) "
	    " FROM switch_lags g LEFT JOIN switch_ports q ON q.switch_id = g.switch_id AND "
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
	    " ORDER BY n.protocol LIMIT 1), coalesce(p.type, 0) "
	    "FROM switch_ports p ORDER BY p.switch_id, p.ifindex", &st,
	    err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		p.switch_id = lab_db_column_int64(st, 0);
		p.ifindex = lab_db_column_int64(st, 1);
		p.name = text(st, 2);
		p.alias = text(st, 3);
		p.oper_status = text(st, 4);
		p.speed_mbps = lab_db_column_int64(st, 5);
		p.duplex = text(st, 6);
		p.speed_suspect = lab_db_column_int(st, 7);
		p.vlan = text(st, 8);
		p.lag = text(st, 9);
		p.host = text(st, 10);
		p.nic = text(st, 11);
		p.neighbor = text(st, 12);
		p.type = lab_db_column_int(st, 13);
		if (fn(arg, &p) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	return scan_end(db, st, rc, err, "read switch ports");
}

/* The switches' findings, by switch name, in the order they were found. */
int
lab_db_report_findings(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_finding *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_finding	 f;
	struct db_stmt			*st;
	int				 rc;

	if (lab_db_prepare(db, "SELECT f.severity, f.subject, f.message "
	    "FROM switch_findings f JOIN switches s ON s.id = f.switch_id "
	    "ORDER BY s.name, f.rowid", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		f.severity = text(st, 0);
		f.subject = text(st, 1);
		f.message = text(st, 2);
		if (fn(arg, &f) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	return scan_end(db, st, rc, err, "read switch findings");
}

/* The last 20 lines of the audit log, oldest first. */
int
lab_db_report_audit(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_audit *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_audit	 a;
	struct lab_audit		*v;
	size_t				 i, n;
	int				 rc = 0;

	if (lab_db_audit_read(db, 20, "read the audit log", &v, &n,
	    err) == -1)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		a.time = v[i].time;
		a.user = v[i].user;
		a.argv = v[i].argv;
		a.result = v[i].result;
		a.message = v[i].message;
		if (fn(arg, &a) == -1)
			rc = lab_err_oom(err);
	}
	lab_audit_free_all(v, n);
	return rc;
}
