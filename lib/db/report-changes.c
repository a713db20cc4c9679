/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/db.h"
#include "db-priv.h"
#include "report-rows.h"

/*
 * What the report's changes need (report-rows.h): the MACs no inventory
 * NIC owns, and the report runs with their snapshots.
 */

/* MACs on a switch that no inventory NIC owns, by switch and MAC. */
int
lab_db_report_macs(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_mac *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_mac	 m;
	struct db_stmt			*st;
	int				 rc;

	/* one port a MAC: the least name, on either backend */
	if (lab_db_prepare(db, "SELECT s.name, lower(f.mac), "
	    "min(coalesce(p.name, CAST(f.ifindex AS TEXT), '?')) "
	    "FROM switch_fdb f "
	    "JOIN switches s ON s.id = f.switch_id "
	    "LEFT JOIN switch_ports p ON p.switch_id = f.switch_id AND "
	    "p.ifindex = f.ifindex "
	    "WHERE lower(f.mac) NOT IN (SELECT lower(mac) FROM nics) "
	    "GROUP BY s.name, lower(f.mac) ORDER BY s.name, lower(f.mac)",
	    &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		m.switch_name = (const char *)lab_db_column_text(st, 0);
		m.mac = (const char *)lab_db_column_text(st, 1);
		m.port = (const char *)lab_db_column_text(st, 2);
		if (fn(arg, &m) == -1) {
			lab_db_finalize(st);
			return lab_err_oom(err);
		}
	}
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "read MAC tables");
	return 0;
}

/* The baseline: run id when it is not 0, else the last report run (at or
 * before time before when it is not 0). */
int
lab_db_report_baseline(struct lab_db *db, int64_t id, int64_t before,
    int64_t *ret_id, int64_t *when, char **snapshot, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	*ret_id = 0;
	*when = 0;
	*snapshot = NULL;
	if (lab_db_prepare(db, "SELECT id, time, snapshot FROM report_runs "
	    "WHERE (?1 != 0 AND id = ?1) OR (?1 = 0 AND (?2 = 0 OR "
	    "time <= ?2)) ORDER BY time DESC, id DESC LIMIT 1", &st,
	    err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, id);
	lab_db_bind_int64(st, 2, before);
	if ((rc = lab_db_step(st)) == DB_ROW) {
		*ret_id = lab_db_column_int64(st, 0);
		*when = lab_db_column_int64(st, 1);
		if ((*snapshot = lab_db_text(st, 2)) == NULL)
			rc = DB_NOMEM;
	}
	lab_db_finalize(st);
	if (rc == DB_NOMEM)
		return lab_err_oom(err);
	if (rc != DB_ROW && rc != DB_DONE)
		return lab_db_fail(db, err, "read report runs");
	return 0;
}

/* The report runs, oldest first, with the facts of each snapshot. */
int
lab_db_report_runs(struct lab_db *db,
    int (*fn)(void *, const struct lab_db_report_run *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_run	 r;
	struct db_stmt			*st;
	int				 rc;

	/* a fact a line: the newlines count them */
	if (lab_db_prepare(db, "SELECT id, time, length(snapshot) - "
	    "length(replace(snapshot, char(10), '')) FROM report_runs "
	    "ORDER BY time, id", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		r.id = lab_db_column_int64(st, 0);
		r.time = lab_db_column_int64(st, 1);
		r.facts = lab_db_column_int64(st, 2);
		if (fn(arg, &r) == -1) {
			lab_db_finalize(st);
			return lab_err_oom(err);
		}
	}
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "read report runs");
	return 0;
}

/* Records a report run: its id in *id. */
int
lab_db_report_record(struct lab_db *db, int64_t when, const char *snapshot,
    int64_t *id, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	if (lab_db_prepare(db, "INSERT INTO report_runs (time, snapshot) "
	    "VALUES (?1, ?2)", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, when);
	lab_db_bind_text(st, 2, snapshot);
	rc = lab_db_step(st);
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "record the report run");
	*id = lab_db_last_id(db);
	return 0;
}
