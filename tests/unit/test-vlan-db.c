/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The VLAN tables (migration 014, lib/db/vlan.c): a probe stored and
 * replaced, a switch never probed, applies recorded with their changes
 * and states, read newest first, by switch, since a time, and only the
 * problems (failed, refused, unsaved) for the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lab/db.h"
#include "lab/err.h"
#include "lab/vlan.h"
#include "db/db-priv.h"

#include "tests.h"

static void
test_probe(struct lab_db *db)
{
	struct lab_vlan_probe	 p, got;
	struct lab_err		 err = { 0 };

	CHECK(lab_db_vlan_probe_get(db, "sg350x", &got, &err) == 0);
	CHECK(got.at == 0 && got.why == NULL);

	memset(&p, 0, sizeof(p));
	p.qbridge = p.ciscosb = p.copy = 1;
	p.why = strdup("notWritable");
	CHECK(lab_db_vlan_probe_store(db, "sg350x", &p, 100, &err) == 0);
	CHECK(lab_db_vlan_probe_get(db, "sg350x", &got, &err) == 0);
	CHECK(got.qbridge == 1 && got.ciscosb == 1 && got.copy == 1);
	CHECK(got.writable == 0 && got.at == 100);
	CHECK_STR(got.why, "notWritable");
	lab_vlan_probe_release(&got);

	/* a newer probe replaces it; a writable one keeps no why */
	p.writable = 1;
	CHECK(lab_db_vlan_probe_store(db, "sg350x", &p, 200, &err) == 0);
	CHECK(lab_db_vlan_probe_get(db, "sg350x", &got, &err) == 0);
	CHECK(got.writable == 1 && got.at == 200 && got.why == NULL);
	lab_vlan_probe_release(&got);
	lab_vlan_probe_release(&p);
}

static void
add_change(struct lab_switch_plan *p, unsigned long ifindex, const char *port,
    const char *what, const char *from, const char *to)
{
	struct lab_port_change	*c;

	p->changes = realloc(p->changes, (p->nchanges + 1) * sizeof(*c));
	CHECK(p->changes != NULL);
	c = &p->changes[p->nchanges++];
	c->ifindex = ifindex;
	c->port = strdup(port);
	c->what = what;
	c->from = strdup(from);
	c->to = strdup(to);
}

static void
add_write(struct lab_vlan_writes *w, const char *what,
    enum lab_write_state state)
{
	struct lab_vlan_write	*x;

	w->v = realloc(w->v, (w->n + 1) * sizeof(*x));
	CHECK(w->v != NULL);
	x = &w->v[w->n++];
	memset(x, 0, sizeof(*x));
	x->what = strdup(what);
	x->state = state;
}

static struct lab_switch_result *
result(const char *sw)
{
	struct lab_switch_result	*r;

	CHECK((r = calloc(1, sizeof(*r))) != NULL);
	r->plan.switch_name = strdup(sw);
	add_change(&r->plan, 7, "gi7", "pvid", "1", "20");
	add_change(&r->plan, 7, "gi7", "untagged", "1", "20");
	add_change(&r->plan, 8, "gi8", "tagged", "", "10,20");
	return r;
}

static long
count(struct lab_db *db, const char *sw, int64_t since, int problems)
{
	struct lab_switch_apply_rows	 rows;
	struct lab_err			 err = { 0 };
	long				 n;

	if (lab_db_switch_applies(db, sw, since, problems, 0, &rows,
	    &err) == -1) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	n = (long)rows.n;
	lab_switch_apply_rows_release(&rows);
	return n;
}

static void
test_applies(struct lab_db *db)
{
	struct lab_switch_apply_rows	 rows;
	struct lab_switch_result	*r;
	struct lab_err			 err = { 0 };
	const struct lab_switch_apply_row *a;

	/* ok and saved */
	r = result("sg350x");
	add_write(&r->writes, "gi7 pvid", LAB_WRITE_DONE);
	add_write(&r->writes, "gi8 egress VLAN 10", LAB_WRITE_DONE);
	r->ok = r->saved = 1;
	CHECK(lab_db_switch_apply_record(db, r, "alice", 1000, &err) == 0);
	CHECK(r->apply_id > 0);
	lab_switch_results_free(r, 1);

	/* failed half way: gi7 put back, gi8 left */
	r = result("sg350x");
	add_write(&r->writes, "gi7 pvid", LAB_WRITE_RESTORED);
	add_write(&r->writes, "gi8 egress VLAN 10", LAB_WRITE_LEFT);
	add_write(&r->writes, "gi8 egress VLAN 20", LAB_WRITE_FAILED);
	lab_err_set(&r->err, LAB_EXIT_ENV, "gi8 egress VLAN 20: notWritable");
	CHECK(lab_db_switch_apply_record(db, r, "alice", 2000, &err) == 0);
	lab_switch_results_free(r, 1);

	/* refused, on another switch; and an unsaved ok */
	r = result("sg200");
	r->refused = 1;
	lab_err_set(&r->err, LAB_EXIT_ENV, "gi24: management VLAN 1 off "
	    "the uplink");
	CHECK(lab_db_switch_apply_record(db, r, NULL, 3000, &err) == 0);
	lab_switch_results_free(r, 1);
	r = result("sg350x");
	r->ok = 1;
	CHECK(lab_db_switch_apply_record(db, r, "bob", 4000, &err) == 0);
	lab_switch_results_free(r, 1);

	CHECK(count(db, NULL, 0, 0) == 4);
	CHECK(count(db, "sg350x", 0, 0) == 3);
	CHECK(count(db, "sg350x", 2000, 0) == 2);
	CHECK(count(db, NULL, 0, 1) == 3);
	CHECK(count(db, "nosuch", 0, 0) == 0);

	CHECK(lab_db_switch_applies(db, "sg350x", 0, 0, 2, &rows, &err) == 0);
	CHECK(rows.n == 2);
	if (rows.n == 2) {
		a = &rows.v[0];		/* newest first */
		CHECK(a->at == 4000 && a->saved == 0);
		CHECK_STR(a->status, "ok");
		CHECK_STR(a->user, "bob");
		CHECK(a->message == NULL);
		a = &rows.v[1];
		CHECK(a->at == 2000);
		CHECK_STR(a->status, "failed");
		CHECK_STR(a->message, "gi8 egress VLAN 20: notWritable");
		CHECK(a->nchanges == 3);
		if (a->nchanges == 3) {
			CHECK_STR(a->changes[0].port, "gi7");
			CHECK_STR(a->changes[0].what, "pvid");
			CHECK_STR(a->changes[0].from, "1");
			CHECK_STR(a->changes[0].to, "20");
			CHECK(a->changes[2].ifindex == 8);
			CHECK_STR(a->changes[2].from, "");
			CHECK_STR(a->changes[2].to, "10,20");
			CHECK_STR(a->states[0], "restored");
			CHECK_STR(a->states[2], "left");
		}
	}
	lab_switch_apply_rows_release(&rows);
}

/* The state of a stored change, by apply time and position. */
static char *
state_of(struct lab_db *db, int64_t at, int seq)
{
	sqlite3_stmt	*st;
	char		*v = NULL;

	if (sqlite3_prepare_v2(db->h, "SELECT c.state FROM "
	    "switch_apply_changes c JOIN switch_applies a ON a.id = "
	    "c.apply_id WHERE a.at = ?1 AND c.seq = ?2", -1, &st, NULL) !=
	    SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, at);
	sqlite3_bind_int(st, 2, seq);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

static void
check_state(struct lab_db *db, int64_t at, int seq, const char *want)
{
	char	*got = state_of(db, at, seq);

	CHECK_STR(got, want);
	free(got);
}

static void
test_states(struct lab_db *db)
{
	check_state(db, 1000, 0, "done");
	check_state(db, 1000, 2, "done");
	check_state(db, 2000, 0, "restored");
	check_state(db, 2000, 2, "left");
	check_state(db, 3000, 1, "refused");
	check_state(db, 4000, 1, "done");
}

/*
 * The management port (lib/db/vlan-mgmt.c): the MAC's row in the
 * management VLAN before another VLAN's, the newest, any case of the
 * MAC; rows without an ifindex and other switches' rows are not it.
 */
static void
test_mac_port(struct lab_db *db)
{
	struct lab_err	 err = { 0 };
	unsigned long	 p;
	char		*msg = NULL;

	CHECK(sqlite3_exec(db->h, "INSERT INTO switches (id, name, model, "
	    "address, port, created_at, updated_at) VALUES (71, 'm1', "
	    "'generic-switch', '192.0.2.2', 161, 1, 1), (72, 'm2', "
	    "'generic-switch', '192.0.2.3', 161, 1, 1); "
	    "INSERT INTO switch_fdb VALUES "
	    "(71, '02:00:00:00:19:01', 20, 12, 100), "
	    "(71, '02:00:00:00:19:01', 1, 9, 50), "
	    "(71, '02:00:00:00:19:02', 20, 12, 100), "
	    "(71, '02:00:00:00:19:02', 30, 14, 200), "
	    "(71, '02:00:00:00:19:03', 1, NULL, 100), "
	    "(72, '02:00:00:00:19:03', 1, 5, 100)",
	    NULL, NULL, &msg) == SQLITE_OK);
	if (msg != NULL)
		fprintf(stderr, "%s\n", msg);
	sqlite3_free(msg);
	CHECK(lab_db_vlan_mac_port(db, "m1", "02:00:00:00:19:01", 1, &p,
	    &err) == 0);
	CHECK(p == 9);
	CHECK(lab_db_vlan_mac_port(db, "m1", "02:00:00:00:19:01", 20, &p,
	    &err) == 0);
	CHECK(p == 12);
	/* not in the management VLAN: the newest row */
	CHECK(lab_db_vlan_mac_port(db, "m1", "02:00:00:00:19:02", 1, &p,
	    &err) == 0);
	CHECK(p == 14);
	CHECK(lab_db_vlan_mac_port(db, "m1", "02:00:00:00:19:0A", 1, &p,
	    &err) == 0);
	CHECK(p == 0);
	CHECK(lab_db_vlan_mac_port(db, "M1", "02:00:00:00:19:01", 1, &p,
	    &err) == 0);
	CHECK(p == 0);
	CHECK(lab_db_vlan_mac_port(db, "m1", "02:00:00:00:19:03", 1, &p,
	    &err) == 0);
	CHECK(p == 0);
	CHECK(lab_db_vlan_mac_port(db, "m2", "02:00:00:00:19:03", 1, &p,
	    &err) == 0);
	CHECK(p == 5);
	CHECK(lab_db_vlan_mac_port(db, "m1", "02:00:00:00:19", 1, &p,
	    &err) == 0);
	CHECK(p == 0);
	CHECK(err.code == LAB_EXIT_OK);
}

int
main(void)
{
	struct lab_db	*db;
	struct lab_err	 err = { 0 };

	CHECK(lab_db_open(":memory:", 0, &db, &err) == 0);
	test_probe(db);
	test_applies(db);
	test_states(db);
	test_mac_port(db);
	lab_db_free(db);
	TESTS_DONE();
}
