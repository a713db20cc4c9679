/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Facts storage (migration 016, lib/db/facts.c, lib/db/facts-ports.c):
 * first and last seen under a fake clock, a changed value becoming a
 * dated event, a key gone, findings replaced, bad input refused without
 * a change, and the switch's view of a host's links.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lab/ctx.h"
#include "lab/db.h"
#include "lab/err.h"
#include "lab/facts.h"
#include "db/db-priv.h"
#include "db/report-rows.h"

#include "tests.h"

static int64_t fake_now;

static int64_t
fake_wall(void)
{
	return fake_now;
}

static long
sql_int(struct lab_db *db, const char *sql)
{
	sqlite3_stmt	*st;
	long		 v = -1;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db->h));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void
exec(struct lab_db *db, const char *sql)
{
	char	*msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, msg);
		sqlite3_free(msg);
		tests_failed++;
	}
}

static int
put(struct lab_db *db, const struct lab_ctx *ctx, const char *subject,
    struct lab_fact_kv *kv, size_t n, const struct lab_fact_findings *fs)
{
	struct lab_err	err = { 0 };
	int		r;

	r = lab_db_facts_put(db, "host", subject, kv, n, fs, ctx->wall(), &err);
	if (r == -1)
		fprintf(stderr, "put: %s\n", err.msg);
	return r;
}

static void
test_seen(struct lab_db *db, const struct lab_ctx *ctx)
{
	/* unsorted on purpose: put sorts */
	struct lab_fact_kv	 a[] = {
		{ "disk.sdb.serial", "WD-A" }, { "bmc.firmware", "1.20" },
		{ "disk.sda.serial", "S1" }, { "kernel", NULL },
	};
	struct lab_fact_kv	 b[] = {
		{ "bmc.firmware", "1.30" }, { "disk.sdb.serial", "WD-A" },
	};
	struct lab_fact_kv	*got;
	struct lab_fact_event	*ev;
	struct lab_err		 err = { 0 };
	size_t			 n, i;

	fake_now = 1000;
	CHECK(put(db, ctx, "nas", a, 4, NULL) == 0);
	CHECK(sql_int(db, "SELECT COUNT(*) FROM facts") == 3);
	CHECK(sql_int(db, "SELECT COUNT(*) FROM facts WHERE first_seen = 1000 "
	    "AND last_seen = 1000 AND current = 1") == 3);

	/* the same values later: last_seen moves, first_seen stays */
	fake_now = 2000;
	CHECK(put(db, ctx, "nas", a, 4, NULL) == 0);
	CHECK(sql_int(db, "SELECT COUNT(*) FROM facts") == 3);
	CHECK(sql_int(db, "SELECT first_seen FROM facts WHERE key = "
	    "'disk.sdb.serial'") == 1000);
	CHECK(sql_int(db, "SELECT last_seen FROM facts WHERE key = "
	    "'disk.sdb.serial'") == 2000);
	CHECK(lab_db_fact_events(db, 1000, &ev, &n, &err) == 0);
	CHECK(n == 0);
	lab_fact_events_free(ev, n);

	/* the firmware upgraded, sda gone */
	fake_now = 3000;
	CHECK(put(db, ctx, "nas", b, 2, NULL) == 0);
	CHECK(sql_int(db, "SELECT COUNT(*) FROM facts") == 4);
	CHECK(sql_int(db, "SELECT last_seen FROM facts WHERE key = "
	    "'bmc.firmware' AND value = '1.20'") == 2000);
	CHECK(sql_int(db, "SELECT current FROM facts WHERE key = "
	    "'bmc.firmware' AND value = '1.20'") == 0);
	CHECK(sql_int(db, "SELECT first_seen FROM facts WHERE key = "
	    "'bmc.firmware' AND value = '1.30'") == 3000);
	CHECK(sql_int(db, "SELECT last_seen FROM facts WHERE key = "
	    "'disk.sda.serial'") == 2000);

	CHECK(lab_db_facts_get(db, "host", "nas", &got, &n, &err) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK_STR(got[0].key, "bmc.firmware");
		CHECK_STR(got[0].value, "1.30");
		CHECK_STR(got[1].key, "disk.sdb.serial");
	}
	lab_fact_kvs_free(got, n);

	/* since 2000: the change and the disk gone, dated 3000 */
	CHECK(lab_db_fact_events(db, 2000, &ev, &n, &err) == 0);
	CHECK(n == 2);
	for (i = 0; i < n; i++) {
		CHECK(ev[i].at == 3000);
		CHECK_STR(ev[i].kind, "host");
		CHECK_STR(ev[i].subject, "nas");
	}
	if (n == 2) {
		CHECK_STR(ev[0].key, "bmc.firmware");
		CHECK_STR(ev[0].from, "1.20");
		CHECK_STR(ev[0].to, "1.30");
		CHECK_STR(ev[1].key, "disk.sda.serial");
		CHECK_STR(ev[1].from, "S1");
		CHECK(ev[1].to == NULL);
	}
	lab_fact_events_free(ev, n);

	/* since 0: the three first seen are new, then the two of 3000 */
	CHECK(lab_db_fact_events(db, 0, &ev, &n, &err) == 0);
	CHECK(n == 5);
	if (n == 5) {
		CHECK(ev[0].at == 1000 && ev[0].from == NULL);
		CHECK_STR(ev[0].to, "1.20");
		CHECK_STR(ev[3].to, "1.30");
		CHECK_STR(ev[3].from, "1.20");
	}
	lab_fact_events_free(ev, n);

	/* a disk comes back: new again, not a change */
	fake_now = 4000;
	{
		struct lab_fact_kv c[] = {
			{ "bmc.firmware", "1.30" },
			{ "disk.sda.serial", "S2" },
			{ "disk.sdb.serial", "WD-A" },
		};
		CHECK(put(db, ctx, "nas", c, 3, NULL) == 0);
	}
	CHECK(lab_db_fact_events(db, 3000, &ev, &n, &err) == 0);
	CHECK(n == 1);
	if (n == 1) {
		CHECK_STR(ev[0].key, "disk.sda.serial");
		CHECK(ev[0].from == NULL);
		CHECK_STR(ev[0].to, "S2");
		CHECK(ev[0].at == 4000);
	}
	lab_fact_events_free(ev, n);

	/* when last seen; whether known before a time (the report's filter) */
	{
		int64_t	last = -1;
		int	known = -1;

		CHECK(lab_db_facts_seen(db, "host", "nas", &last, &err) == 0);
		CHECK(last == 4000);
		CHECK(lab_db_facts_seen(db, "host", "nobody", &last,
		    &err) == 0);
		CHECK(last == 0);
		CHECK(lab_db_report_fact_known(db, "host", "nas", 999, &known,
		    &err) == 0);
		CHECK(known == 0);
		CHECK(lab_db_report_fact_known(db, "host", "nas", 1000, &known,
		    &err) == 0);
		CHECK(known == 1);
		CHECK(lab_db_report_fact_known(db, "switch", "nas", 5000,
		    &known, &err) == 0);
		CHECK(known == 0);
	}
}

static void
test_findings(struct lab_db *db, const struct lab_ctx *ctx)
{
	struct lab_fact_findings	 fs = { NULL, 0 };
	struct lab_stored_finding	*sf;
	struct lab_fact_kv		 kv[] = { { "kernel", "6.1" } };
	struct lab_err			 err = { 0 };
	size_t				 n;

	fake_now = 5000;
	CHECK(lab_fact_findings_add(&fs, "info", "disk-extra", "web sdc",
	    "web: disk sdc is not declared") == 0);
	CHECK(lab_fact_findings_add(&fs, "warning", "nic-mac", "web eth0",
	    "web: eth0 has MAC %s, the inventory says %s", "a", "b") == 0);
	CHECK(put(db, ctx, "web", kv, 1, &fs) == 0);
	CHECK(lab_db_fact_findings(db, "web", &sf, &n, &err) == 0);
	CHECK(n == 2);
	if (n == 2) {
		/* most severe first */
		CHECK_STR(sf[0].f.kind, "nic-mac");
		CHECK_STR(sf[0].f.severity, "warning");
		CHECK_STR(sf[0].subject_name, "web");
		CHECK_STR(sf[0].kind, "host");
		CHECK(sf[0].seen_at == 5000);
		CHECK_STR(sf[1].f.subject, "web sdc");
	}
	lab_stored_findings_free(sf, n);

	/* NULL findings leave them; an empty list replaces them */
	fake_now = 6000;
	CHECK(put(db, ctx, "web", kv, 1, NULL) == 0);
	CHECK(sql_int(db, "SELECT COUNT(*) FROM fact_findings") == 2);
	lab_fact_findings_release(&fs);
	CHECK(lab_fact_findings_add(&fs, "critical", "disk-missing", "web sdb",
	    "web: gone") == 0);
	CHECK(put(db, ctx, "web", kv, 1, &fs) == 0);
	CHECK(lab_db_fact_findings(db, NULL, &sf, &n, &err) == 0);
	CHECK(n == 1);
	if (n == 1)
		CHECK(sf[0].seen_at == 6000);
	lab_stored_findings_free(sf, n);
	lab_fact_findings_release(&fs);
	CHECK(put(db, ctx, "web", kv, 1, &fs) == 0);
	CHECK(sql_int(db, "SELECT COUNT(*) FROM fact_findings") == 0);
}

static void
test_bad(struct lab_db *db)
{
	struct lab_fact_kv	dup[] = { { "a", "1" }, { "a", "2" } };
	struct lab_fact_kv	nokey[] = { { NULL, "1" } };
	struct lab_err		err = { 0 };
	long			before = sql_int(db, "SELECT COUNT(*) FROM facts");

	CHECK(lab_db_facts_put(db, "host", "nas", dup, 2, NULL, 1, &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, "'a' twice");
	CHECK(lab_db_facts_put(db, "vm", "nas", dup, 1, NULL, 1, &err) == -1);
	CHECK(lab_db_facts_put(db, "host", "", dup, 1, NULL, 1, &err) == -1);
	CHECK(lab_db_facts_put(db, "host", "nas", nokey, 1, NULL, 1,
	    &err) == -1);
	CHECK(sql_int(db, "SELECT COUNT(*) FROM facts") == before);
}

static void
test_ports(struct lab_db *db)
{
	struct lab_port_view	*pv;
	struct lab_err		 err = { 0 };
	size_t			 n;

	exec(db, "INSERT INTO hosts (id, name, model, created_at, updated_at) "
	    "VALUES (1, 'nas', 'hp-microserver-n54l', 0, 0), "
	    "(2, 'web', 'generic-server', 0, 0);"
	    "INSERT INTO switches (id, name, model, address, port, created_at, "
	    "updated_at, discovered_at) VALUES "
	    "(1, 'sw1', 'cisco-sg200-26', '127.0.0.1', 161, 0, 0, 500), "
	    "(2, 'core', 'generic-switch', '127.0.0.1', 161, 0, 0, 700);"
	    "INSERT INTO switch_ports (switch_id, ifindex, name, oper_status, "
	    "speed_mbps, duplex) VALUES "
	    "(1, 7, 'gi7', 'up', 100, 'half'), "
	    "(1, 8, 'gi8', 'down', 0, 'unknown'), "
	    "(2, 1, 'fa0/1', 'up', 100, 'full'), "
	    "(2, 2, 'Port 2', 'up', 1000, 'full');"
	    /* eth0 on sw1 now; eth1 on sw1 once, not at the last discovery */
	    "INSERT INTO nic_links (host_id, nic, mac, switch_id, port, "
	    "ifindex, source, first_seen, last_seen) VALUES "
	    "(1, 'eth0', '00:11:22:33:44:55', 1, 'gi7', 7, 'fdb', 100, 500), "
	    "(1, 'eth1', '00:11:22:33:44:56', 1, 'gi8', 8, 'fdb', 100, 400), "
	    "(1, 'eth2', '00:11:22:33:44:57', 2, 'fa0/1', 1, 'fdb', 700, 700), "
	    "(1, 'eth3', '00:11:22:33:44:58', 2, 'Port 2', 2, 'fdb', 700, 700), "
	    "(2, 'eth0', '00:11:22:33:44:59', 1, 'gi8', 8, 'fdb', 500, 500);");
	CHECK(lab_db_port_views(db, "nas", &pv, &n, &err) == 0);
	CHECK(n == 3);
	if (n == 3) {
		CHECK_STR(pv[0].nic, "eth0");
		CHECK_STR(pv[0].switch_name, "sw1");
		CHECK_STR(pv[0].port, "gi7");
		CHECK(pv[0].speed_mbps == 100);
		CHECK_STR(pv[0].duplex, "half");
		CHECK(pv[0].max_mbps == 1000);	/* an SG200 */
		CHECK_STR(pv[1].nic, "eth2");
		CHECK(pv[1].max_mbps == 100);	/* fa0/1 */
		CHECK_STR(pv[1].duplex, "full");
		CHECK_STR(pv[2].port, "Port 2");
		CHECK(pv[2].max_mbps == -1);	/* nothing tells */
		CHECK(pv[2].speed_mbps == 1000);
	}
	lab_port_views_free(pv, n);
	/* a port down: no speed, no duplex */
	CHECK(lab_db_port_views(db, "web", &pv, &n, &err) == 0);
	CHECK(n == 1);
	if (n == 1) {
		CHECK(pv[0].speed_mbps == -1);
		CHECK(pv[0].duplex == NULL);
		CHECK(pv[0].max_mbps == 1000);
	}
	lab_port_views_free(pv, n);
	CHECK(lab_db_port_views(db, "nobody", &pv, &n, &err) == 0);
	CHECK(n == 0 && pv == NULL);
}

int
main(void)
{
	struct lab_db	*db = NULL;
	struct lab_err	 err = { 0 };
	struct lab_ctx	 ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.wall = fake_wall;
	if (lab_db_open(":memory:", 0, &db, &err) == -1) {
		fprintf(stderr, "open: %s\n", err.msg);
		return 1;
	}
	test_seen(db, &ctx);
	test_findings(db, &ctx);
	test_bad(db);
	test_ports(db);
	lab_db_free(db);
	TESTS_DONE();
}
