/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The database: migrations, applying inventories (add, modify, keep,
 * prune, dry run, implicit groups), reading them back, the audit log and
 * the errors of opening.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lab/db.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/json.h"
#include "lab/render.h"
#include "lab/str.h"
#include "db/db-priv.h"

#include "tests.h"

#define NOW	1700000000

/* Stage A: the first import. */
static const char yaml_a[] =
	"groups:\n"
	"  - {name: nas, description: storage}\n"
	"  - {name: empty, description: no hosts}\n"
	"hosts:\n"
	"  - name: zeta\n"
	"    model: hp-microserver-n40l\n"
	"    role: san\n"
	"    groups: [nas, solo]\n"
	"    bmc: {type: rac, address: 192.0.2.21, credential: rac-default}\n"
	"    nics:\n"
	"      - {name: eth1, mac: \"00:26:55:d1:0a:02\"}\n"
	"      - {name: eth0, mac: \"00:26:55:d1:0a:01\"}\n"
	"    disks:\n"
	"      - {slot: 3, kind: sata, size: 500GB}\n"
	"      - {slot: 1, kind: sata, size: 1TB, controller: onboard}\n"
	"      - {slot: odd, kind: ssd, size: 60GB}\n"
	"  - name: alpha\n"
	"    model: hp-dl320-g5p\n"
	"    groups: [xen]\n"
	"    bmc: {type: ilo2, address: 192.0.2.30, port: 6230,\n"
	"          credential: ilo, cipher_suite: 17}\n"
	"  - name: mid\n"
	"    model: generic-server\n"
	"switches:\n"
	"  - name: sg200\n"
	"    model: cisco-sg200-26\n"
	"    address: 192.0.2.2\n"
	"    snmp: {version: 2c, credential: ro, timeout: 5, retries: 0}\n"
	"  - name: plainsw\n"
	"    model: generic-switch\n"
	"    address: sw.example\n";

/* Stage A2: A with one change to each kind of thing. */
static const char yaml_a2[] =
	"groups:\n"
	"  - {name: nas, description: storage pools}\n"
	"  - {name: empty, description: no hosts}\n"
	"hosts:\n"
	"  - name: zeta\n"
	"    model: hp-microserver-n40l\n"
	"    role: nas\n"
	"    groups: [nas, solo]\n"
	"    bmc: {type: rac, address: 192.0.2.21, credential: rac-default}\n"
	"    nics:\n"
	"      - {name: eth1, mac: \"00:26:55:d1:0a:02\"}\n"
	"      - {name: eth0, mac: \"00:26:55:d1:0a:01\"}\n"
	"    disks:\n"
	"      - {slot: 3, kind: sata, size: 500GB}\n"
	"      - {slot: 1, kind: sata, size: 1TB, controller: onboard}\n"
	"      - {slot: odd, kind: ssd, size: 60GB}\n"
	"  - name: alpha\n"
	"    model: hp-dl320-g5p\n"
	"    groups: [xen]\n"
	"    bmc: {type: ilo2, address: 192.0.2.31, port: 6230,\n"
	"          credential: ilo, cipher_suite: 17}\n"
	"  - name: mid\n"
	"    model: generic-server\n"
	"    disks: [{slot: 1, kind: sata, size: 2TB}]\n"
	"switches:\n"
	"  - name: sg200\n"
	"    model: cisco-sg200-26\n"
	"    address: 192.0.2.3\n"
	"    snmp: {version: 2c, credential: ro, timeout: 5, retries: 0}\n"
	"  - name: plainsw\n"
	"    model: generic-switch\n"
	"    address: sw.example\n";

/* Stage B: A2 without mid and plainsw. */
static const char yaml_b[] =
	"groups:\n"
	"  - {name: nas, description: storage pools}\n"
	"  - {name: empty, description: no hosts}\n"
	"hosts:\n"
	"  - name: zeta\n"
	"    model: hp-microserver-n40l\n"
	"    role: nas\n"
	"    groups: [nas, solo]\n"
	"    bmc: {type: rac, address: 192.0.2.21, credential: rac-default}\n"
	"    nics:\n"
	"      - {name: eth1, mac: \"00:26:55:d1:0a:02\"}\n"
	"      - {name: eth0, mac: \"00:26:55:d1:0a:01\"}\n"
	"    disks:\n"
	"      - {slot: 3, kind: sata, size: 500GB}\n"
	"      - {slot: 1, kind: sata, size: 1TB, controller: onboard}\n"
	"      - {slot: odd, kind: ssd, size: 60GB}\n"
	"  - name: alpha\n"
	"    model: hp-dl320-g5p\n"
	"    groups: [xen]\n"
	"    bmc: {type: ilo2, address: 192.0.2.31, port: 6230,\n"
	"          credential: ilo, cipher_suite: 17}\n"
	"switches:\n"
	"  - name: sg200\n"
	"    model: cisco-sg200-26\n"
	"    address: 192.0.2.3\n"
	"    snmp: {version: 2c, credential: ro, timeout: 5, retries: 0}\n";

/* Stage C: B plus a host, zeta leaves solo, empty is no longer declared. */
static const char yaml_c[] =
	"groups:\n"
	"  - {name: nas, description: storage pools}\n"
	"hosts:\n"
	"  - name: zeta\n"
	"    model: hp-microserver-n40l\n"
	"    role: nas\n"
	"    groups: [nas]\n"
	"    bmc: {type: rac, address: 192.0.2.21, credential: rac-default}\n"
	"    nics:\n"
	"      - {name: eth1, mac: \"00:26:55:d1:0a:02\"}\n"
	"      - {name: eth0, mac: \"00:26:55:d1:0a:01\"}\n"
	"    disks:\n"
	"      - {slot: 3, kind: sata, size: 500GB}\n"
	"      - {slot: 1, kind: sata, size: 1TB, controller: onboard}\n"
	"      - {slot: odd, kind: ssd, size: 60GB}\n"
	"  - name: alpha\n"
	"    model: hp-dl320-g5p\n"
	"    groups: [xen]\n"
	"    bmc: {type: ilo2, address: 192.0.2.31, port: 6230,\n"
	"          credential: ilo, cipher_suite: 17}\n"
	"  - {name: newbie, model: generic-server, groups: [fresh, nas]}\n"
	"switches:\n"
	"  - name: sg200\n"
	"    model: cisco-sg200-26\n"
	"    address: 192.0.2.3\n"
	"    snmp: {version: 2c, credential: ro, timeout: 5, retries: 0}\n";

/* Stage D: C without newbie. */
static const char yaml_d[] =
	"groups:\n"
	"  - {name: nas, description: storage pools}\n"
	"hosts:\n"
	"  - name: zeta\n"
	"    model: hp-microserver-n40l\n"
	"    role: nas\n"
	"    groups: [nas]\n"
	"    bmc: {type: rac, address: 192.0.2.21, credential: rac-default}\n"
	"    nics:\n"
	"      - {name: eth1, mac: \"00:26:55:d1:0a:02\"}\n"
	"      - {name: eth0, mac: \"00:26:55:d1:0a:01\"}\n"
	"    disks:\n"
	"      - {slot: 3, kind: sata, size: 500GB}\n"
	"      - {slot: 1, kind: sata, size: 1TB, controller: onboard}\n"
	"      - {slot: odd, kind: ssd, size: 60GB}\n"
	"  - name: alpha\n"
	"    model: hp-dl320-g5p\n"
	"    groups: [xen]\n"
	"    bmc: {type: ilo2, address: 192.0.2.31, port: 6230,\n"
	"          credential: ilo, cipher_suite: 17}\n"
	"switches:\n"
	"  - name: sg200\n"
	"    model: cisco-sg200-26\n"
	"    address: 192.0.2.3\n"
	"    snmp: {version: 2c, credential: ro, timeout: 5, retries: 0}\n";

static struct lab_inventory *
parse(const char *yaml)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;

	lab_err_init(&err);
	if ((inv = lab_inventory_new()) == NULL)
		return NULL;
	if (lab_inventory_load_buf(inv, "db.yaml", yaml, strlen(yaml),
	    &err) != 0) {
		fprintf(stderr, "test YAML does not load: %s\n", err.msg);
		lab_inventory_free(inv);
		return NULL;
	}
	return inv;
}

/* The changes as "+host a;~host b (detail);-group c;=switch d". */
static char *
changes_str(const struct lab_changes *ch)
{
	static const char ops[] = { '+', '~', '-', '=' };
	struct lab_buf	b;
	size_t		i;

	lab_buf_init(&b);
	for (i = 0; i < ch->n; i++) {
		lab_buf_addf(&b, "%s%c%s %s", i ? ";" : "",
		    ops[ch->v[i].op], ch->v[i].what, ch->v[i].name);
		if (ch->v[i].detail != NULL)
			lab_buf_addf(&b, " (%s)", ch->v[i].detail);
	}
	return lab_buf_steal(&b);
}

/* Applies yaml with flags and checks the changes reported. */
static void
apply(struct lab_db *db, const char *yaml, int flags, const char *want)
{
	struct lab_inventory	*inv;
	struct lab_changes	 ch = { NULL, 0 };
	struct lab_err		 err;
	char			*got;

	lab_err_init(&err);
	if ((inv = parse(yaml)) == NULL) {
		tests_failed++;
		return;
	}
	if (lab_db_inventory_apply(db, inv, flags, NOW, &ch, &err) != 0) {
		fprintf(stderr, "apply failed: %s\n", err.msg);
		tests_failed++;
		lab_inventory_free(inv);
		return;
	}
	CHECK(err.code == LAB_EXIT_OK);
	got = changes_str(&ch);
	CHECK_STR(got, want);
	free(got);
	lab_changes_release(&ch);
	CHECK(ch.n == 0 && ch.v == NULL);
	lab_inventory_free(inv);
}

static char	*db_json(struct lab_db *);

/* Applying yaml fails with an error holding want, and changes nothing. */
static void
apply_fail(struct lab_db *db, const char *yaml, int flags, const char *want)
{
	struct lab_inventory	*inv;
	struct lab_changes	 ch = { NULL, 0 };
	struct lab_err		 err;
	char			*before, *after;

	lab_err_init(&err);
	if ((inv = parse(yaml)) == NULL) {
		tests_failed++;
		return;
	}
	before = db_json(db);
	CHECK(lab_db_inventory_apply(db, inv, flags, NOW, &ch, &err) == -1);
	CHECK(ch.n == 0 && ch.v == NULL);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, want);
	after = db_json(db);
	CHECK(before != NULL);
	CHECK_STR(after, before);
	free(before);
	free(after);
	lab_inventory_free(inv);
}

static char *
to_json(const struct lab_inventory *inv)
{
	struct lab_buf	b;
	struct lab_json	j;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_render_inventory_json(&j, inv);
	lab_json_end(&j);
	return lab_buf_steal(&b);
}

/* The database's inventory as JSON (NULL on error). */
static char *
db_json(struct lab_db *db)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;
	char			*s;

	lab_err_init(&err);
	if (lab_db_inventory_load(db, &inv, &err) != 0) {
		fprintf(stderr, "load: %s\n", err.msg);
		return NULL;
	}
	s = to_json(inv);
	lab_inventory_free(inv);
	return s;
}

/* One integer from SQL, or -1. */
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

/* Every group row, declared or not, as "name:declared,...". */
static char *
group_rows(struct lab_db *db)
{
	sqlite3_stmt	*st;
	struct lab_buf	 b;

	lab_buf_init(&b);
	if (sqlite3_prepare_v2(db->h, "SELECT name, declared FROM groups "
	    "ORDER BY name", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	while (sqlite3_step(st) == SQLITE_ROW)
		lab_buf_addf(&b, "%s%s:%d", b.len ? "," : "",
		    (const char *)sqlite3_column_text(st, 0),
		    sqlite3_column_int(st, 1));
	sqlite3_finalize(st);
	return lab_buf_steal(&b);
}

static void
test_open_memory(void)
{
	struct lab_db	*db = NULL;
	struct lab_err	 err;
	struct lab_inventory *inv = NULL;

	lab_err_init(&err);
	CHECK(lab_db_schema_version() >= 1);
	CHECK(lab_db_open(":memory:", 0, &db, &err) == 0);
	if (db == NULL) {
		fprintf(stderr, "open: %s\n", err.msg);
		tests_failed++;
		return;
	}
	CHECK_STR(lab_db_path(db), ":memory:");
	CHECK(sql_int(db, "PRAGMA user_version") == lab_db_schema_version());
	CHECK(sql_int(db, "PRAGMA foreign_keys") == 1);
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE "
	    "type = 'table' AND name IN ('hosts', 'groups', 'host_groups', "
	    "'bmcs', 'nics', 'disks', 'switches', 'audit_log')") == 8);
	/* an empty database reads as an empty inventory */
	CHECK(lab_db_inventory_load(db, &inv, &err) == 0);
	CHECK(inv != NULL && inv->nhosts == 0 && inv->nswitches == 0 &&
	    inv->ngroups == 0);
	lab_inventory_free(inv);
	lab_db_free(db);
	lab_db_free(NULL);
}

static void
test_apply(void)
{
	struct lab_inventory	*inv = NULL, *want;
	struct lab_db		*db = NULL;
	struct lab_err		 err;
	struct lab_strv		 names;
	char			*j1, *j2, *g1, *g2;
	const struct lab_host	*h;

	lab_err_init(&err);
	if (lab_db_open(":memory:", LAB_DB_CREATE, &db, &err) != 0) {
		fprintf(stderr, "open: %s\n", err.msg);
		tests_failed++;
		return;
	}

	/* a dry run into an empty database lists the adds, writes nothing */
	apply(db, yaml_a, LAB_APPLY_DRY_RUN, "+host alpha;+host mid;"
	    "+host zeta;+switch plainsw;+switch sg200;+group empty;"
	    "+group nas;+group solo;+group xen");
	CHECK(sql_int(db, "SELECT (SELECT count(*) FROM hosts) + "
	    "(SELECT count(*) FROM switches) + (SELECT count(*) FROM groups) "
	    "+ (SELECT count(*) FROM nics)") == 0);

	/* the first import */
	apply(db, yaml_a, 0, "+host alpha;+host mid;+host zeta;"
	    "+switch plainsw;+switch sg200;+group empty;+group nas;"
	    "+group solo;+group xen");
	g1 = group_rows(db);
	CHECK_STR(g1, "empty:1,nas:1,solo:0,xen:0");
	free(g1);
	CHECK(sql_int(db, "SELECT count(*) FROM hosts WHERE created_at = "
	    "1700000000 AND updated_at = 1700000000") == 3);

	/* what it reads back: sorted, children in declared order */
	CHECK(lab_db_inventory_load(db, &inv, &err) == 0);
	if (inv == NULL) {
		lab_db_free(db);
		tests_failed++;
		return;
	}
	CHECK(inv->nhosts == 3 && inv->nswitches == 2 && inv->ngroups == 2);
	if (inv->nhosts == 3) {
		CHECK_STR(inv->hosts[0].name, "alpha");
		CHECK_STR(inv->hosts[1].name, "mid");
		CHECK_STR(inv->hosts[2].name, "zeta");
		h = &inv->hosts[2];
		CHECK(h->nnics == 2 && h->ndisks == 3 && h->groups.n == 2);
		if (h->nnics == 2 && h->ndisks == 3 && h->groups.n == 2) {
			CHECK_STR(h->nics[0].name, "eth1");
			CHECK_STR(h->nics[1].name, "eth0");
			CHECK_STR(h->disks[0].slot, "3");
			CHECK_STR(h->disks[1].slot, "1");
			CHECK_STR(h->disks[2].slot, "odd");
			CHECK(h->disks[1].size_bytes == 1000000000000ULL);
			CHECK_STR(h->groups.v[0], "nas");
			CHECK_STR(h->groups.v[1], "solo");
		}
		CHECK(inv->hosts[1].bmc == NULL);
		CHECK(inv->hosts[0].bmc != NULL &&
		    inv->hosts[0].bmc->cipher_suite == 17 &&
		    inv->hosts[0].bmc->port == 6230);
	}
	/* only declared groups are groups; solo and xen are implicit */
	CHECK(lab_inventory_group_names(inv, &names, &err) == 0);
	CHECK(names.n == 4 && lab_strv_find(&names, "solo") == 2 &&
	    lab_strv_find(&names, "xen") == 3);
	lab_strv_release(&names);
	/* the whole of it is what the YAML said */
	want = parse(yaml_a);
	if (want != NULL) {
		lab_inventory_sort(want);
		j1 = to_json(want);
		j2 = to_json(inv);
		CHECK_STR(j2, j1);
		free(j1);
		free(j2);
		lab_inventory_free(want);
	}
	lab_inventory_free(inv);
	inv = NULL;

	/* the same again changes nothing */
	apply(db, yaml_a, 0, "");
	apply(db, yaml_a, LAB_APPLY_PRUNE, "");

	/* one change to each kind of thing, each named */
	apply(db, yaml_a2, 0, "~host alpha (bmc address 192.0.2.30 -> "
	    "192.0.2.31);~host mid (disks);~host zeta (role san -> nas);"
	    "~switch sg200 (address 192.0.2.2 -> 192.0.2.3);"
	    "~group nas (description)");
	j1 = db_json(db);
	CHECK_HAS(j1, "\"role\": \"nas\"");
	CHECK_HAS(j1, "\"address\": \"192.0.2.31\"");
	CHECK_HAS(j1, "\"description\": \"storage pools\"");
	CHECK_HAS(j1, "\"size_bytes\": 2000000000000");
	free(j1);
	apply(db, yaml_a2, 0, "");

	/* missing without prune: kept, and said so every time */
	apply(db, yaml_b, 0, "=host mid;=switch plainsw");
	apply(db, yaml_b, 0, "=host mid;=switch plainsw");
	j1 = db_json(db);
	CHECK_HAS(j1, "\"name\": \"mid\"");
	CHECK_HAS(j1, "\"name\": \"plainsw\"");
	free(j1);
	CHECK(sql_int(db, "SELECT count(*) FROM disks d JOIN hosts h ON "
	    "h.id = d.host_id WHERE h.name = 'mid'") == 1);
	/* a dry prune says what it would remove and removes nothing */
	apply(db, yaml_b, LAB_APPLY_PRUNE | LAB_APPLY_DRY_RUN,
	    "-host mid;-switch plainsw");
	CHECK(sql_int(db, "SELECT count(*) FROM hosts") == 3);
	/* with prune: gone, with their disks */
	apply(db, yaml_b, LAB_APPLY_PRUNE, "-host mid;-switch plainsw");
	j1 = db_json(db);
	CHECK(j1 != NULL && strstr(j1, "\"mid\"") == NULL &&
	    strstr(j1, "plainsw") == NULL);
	free(j1);
	CHECK(sql_int(db, "SELECT count(*) FROM hosts") == 2);
	CHECK(sql_int(db, "SELECT count(*) FROM switches") == 1);
	CHECK(sql_int(db, "SELECT count(*) FROM disks") == 3);
	apply(db, yaml_b, LAB_APPLY_PRUNE, "");

	/*
	 * A dry run lists exactly what the real run then does, and writes
	 * nothing: not even implicit groups.
	 */
	j1 = db_json(db);
	g1 = group_rows(db);
	CHECK_STR(g1, "empty:1,nas:1,solo:0,xen:0");
	apply(db, yaml_c, LAB_APPLY_PRUNE | LAB_APPLY_DRY_RUN,
	    "+host newbie;~host zeta (groups);-group empty;+group fresh;"
	    "-group solo");
	j2 = db_json(db);
	g2 = group_rows(db);
	CHECK_STR(j2, j1);
	CHECK_STR(g2, g1);
	free(j1);
	free(j2);
	free(g1);
	free(g2);
	apply(db, yaml_c, LAB_APPLY_PRUNE, "+host newbie;~host zeta (groups);"
	    "-group empty;+group fresh;-group solo");
	g1 = group_rows(db);
	CHECK_STR(g1, "fresh:0,nas:1,xen:0");
	free(g1);

	/* an implicit group goes with the last host that names it */
	apply(db, yaml_d, 0, "=host newbie");
	g1 = group_rows(db);
	CHECK_STR(g1, "fresh:0,nas:1,xen:0");
	free(g1);
	apply(db, yaml_d, LAB_APPLY_PRUNE, "-host newbie;-group fresh");
	g1 = group_rows(db);
	CHECK_STR(g1, "nas:1,xen:0");
	free(g1);
	CHECK(sql_int(db, "SELECT count(*) FROM host_groups") == 2);

	/* an empty inventory with prune empties the database */
	apply(db, "", LAB_APPLY_PRUNE, "-host alpha;-host zeta;"
	    "-switch sg200;-group nas;-group xen");
	CHECK(sql_int(db, "SELECT (SELECT count(*) FROM hosts) + "
	    "(SELECT count(*) FROM switches) + (SELECT count(*) FROM groups) "
	    "+ (SELECT count(*) FROM nics) + (SELECT count(*) FROM disks) + "
	    "(SELECT count(*) FROM bmcs) + (SELECT count(*) FROM host_groups)")
	    == 0);
	lab_db_free(db);
}

/* A MAC may move from one host to another in one import. */
static void
test_apply_mac_moves(void)
{
	static const char before[] =
	    "hosts:\n"
	    "  - {name: a, model: generic-server,\n"
	    "     nics: [{name: eth0, mac: \"00:26:55:00:00:0a\"}]}\n"
	    "  - {name: b, model: generic-server,\n"
	    "     nics: [{name: eth0, mac: \"00:26:55:00:00:0b\"}]}\n"
	    "  - {name: z, model: generic-server,\n"
	    "     nics: [{name: eth0, mac: \"00:26:55:00:00:ff\"}]}\n";
	/* a and b swap cards; z is replaced by y, which takes its card */
	static const char after[] =
	    "hosts:\n"
	    "  - {name: a, model: generic-server,\n"
	    "     nics: [{name: eth0, mac: \"00:26:55:00:00:0b\"}]}\n"
	    "  - {name: b, model: generic-server,\n"
	    "     nics: [{name: eth0, mac: \"00:26:55:00:00:0a\"}]}\n"
	    "  - {name: y, model: generic-server,\n"
	    "     nics: [{name: eth0, mac: \"00:26:55:00:00:ff\"}]}\n";
	struct lab_inventory	*inv = NULL;
	struct lab_db		*db = NULL;
	struct lab_err		 err;

	lab_err_init(&err);
	if (lab_db_open(":memory:", 0, &db, &err) != 0) {
		tests_failed++;
		return;
	}
	apply(db, before, 0, "+host a;+host b;+host z");
	apply(db, after, LAB_APPLY_PRUNE, "~host a (nics);~host b (nics);"
	    "+host y;-host z");
	CHECK(lab_db_inventory_load(db, &inv, &err) == 0);
	CHECK(inv != NULL && inv->nhosts == 3);
	if (inv != NULL && inv->nhosts == 3) {
		CHECK_STR(inv->hosts[0].name, "a");
		CHECK_STR(inv->hosts[1].name, "b");
		CHECK_STR(inv->hosts[2].name, "y");
		CHECK(inv->hosts[0].nnics == 1 && inv->hosts[1].nnics == 1 &&
		    inv->hosts[2].nnics == 1);
		CHECK_STR(inv->hosts[0].nics[0].mac, "00:26:55:00:00:0b");
		CHECK_STR(inv->hosts[1].nics[0].mac, "00:26:55:00:00:0a");
		CHECK_STR(inv->hosts[2].nics[0].mac, "00:26:55:00:00:ff");
	}
	lab_inventory_free(inv);
	CHECK(sql_int(db, "SELECT count(*) FROM nics") == 3);
	/*
	 * Without prune y stays and keeps its card, so z cannot have it:
	 * the apply fails as bad input naming both, and writes nothing.
	 */
	apply_fail(db, before, 0, "mac 00:26:55:00:00:ff of host 'z' is "
	    "already on host 'y'");
	lab_db_free(db);
}

static void
test_audit(void)
{
	struct lab_audit	 a, *v = NULL;
	struct lab_db		*db = NULL;
	struct lab_err		 err;
	char			 argv[64];
	size_t			 n = 99, i;

	lab_err_init(&err);
	if (lab_db_open(":memory:", 0, &db, &err) != 0) {
		tests_failed++;
		return;
	}
	CHECK(lab_db_audit_list(db, 0, &v, &n, &err) == 0);
	CHECK(n == 0);
	free(v);
	for (i = 1; i <= 5; i++) {
		snprintf(argv, sizeof(argv), "lab power on node%zu", i);
		memset(&a, 0, sizeof(a));
		a.time = NOW + (int64_t)i;
		a.user = "tester";
		a.command = "power on";
		a.argv = argv;
		a.result = (int)(i % 3);
		a.message = i % 2 ? NULL : "node failed";
		CHECK(lab_db_audit_add(db, &a, &err) == 0);
	}
	CHECK(err.code == LAB_EXIT_OK);

	/* the newest three, oldest first */
	CHECK(lab_db_audit_list(db, 3, &v, &n, &err) == 0);
	CHECK(n == 3);
	if (n == 3) {
		for (i = 0; i < 3; i++) {
			CHECK(v[i].id == (int64_t)i + 3);
			CHECK(v[i].time == NOW + (int64_t)i + 3);
			CHECK_STR(v[i].user, "tester");
			CHECK_STR(v[i].command, "power on");
			CHECK(v[i].result == (int)((i + 3) % 3));
		}
		CHECK_STR(v[0].argv, "lab power on node3");
		CHECK_STR(v[2].argv, "lab power on node5");
		CHECK(v[0].message == NULL);
		CHECK_STR(v[1].message, "node failed");
	}
	lab_audit_free_all(v, n);

	/* no limit, or one past the end: all of them */
	CHECK(lab_db_audit_list(db, 0, &v, &n, &err) == 0);
	CHECK(n == 5 && v[0].id == 1 && v[4].id == 5);
	lab_audit_free_all(v, n);
	CHECK(lab_db_audit_list(db, -1, &v, &n, &err) == 0);
	CHECK(n == 5);
	lab_audit_free_all(v, n);
	CHECK(lab_db_audit_list(db, 10, &v, &n, &err) == 0);
	CHECK(n == 5);
	lab_audit_free_all(v, n);
	CHECK(lab_db_audit_list(db, 1, &v, &n, &err) == 0);
	CHECK(n == 1 && v[0].id == 5);
	lab_audit_free_all(v, n);

	/* a missing required field is refused, naming the database */
	memset(&a, 0, sizeof(a));
	a.time = NOW;
	a.command = "x";
	a.argv = "x";
	CHECK(lab_db_audit_add(db, &a, &err) == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, "database ':memory:': write audit log:");
	lab_db_free(db);
}

/* Removes what a file database leaves behind. */
static void
remove_db(const char *path)
{
	char	*p;

	unlink(path);
	if ((p = lab_asprintf("%s-wal", path)) != NULL) {
		unlink(p);
		free(p);
	}
	if ((p = lab_asprintf("%s-shm", path)) != NULL) {
		unlink(p);
		free(p);
	}
}

static void
test_files(void)
{
	struct lab_inventory	*inv = NULL;
	struct lab_db		*db = NULL;
	struct lab_err		 err;
	struct stat		 st;
	char			 tmpl[] = "/tmp/lab-test-db.XXXXXX";
	char			*dir, *sub, *deeper, *path, *bad;
	FILE			*f;
	int			 i;

	if ((dir = mkdtemp(tmpl)) == NULL) {
		perror("mkdtemp");
		tests_failed++;
		return;
	}
	sub = lab_asprintf("%s/sub", dir);
	deeper = lab_asprintf("%s/sub/deeper", dir);
	path = lab_asprintf("%s/sub/deeper/lab.db", dir);
	bad = lab_asprintf("%s/not-a-db", dir);

	/* missing, without LAB_DB_CREATE */
	lab_err_init(&err);
	CHECK(lab_db_open(path, 0, &db, &err) == -1);
	CHECK(db == NULL);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, path);
	CHECK_HAS(err.msg, "no database at");
	CHECK(stat(sub, &st) == -1 && errno == ENOENT);

	/* created with its folders, private */
	lab_err_init(&err);
	CHECK(lab_db_open(path, LAB_DB_CREATE, &db, &err) == 0);
	if (db == NULL) {
		fprintf(stderr, "create: %s\n", err.msg);
		tests_failed++;
		goto out;
	}
	CHECK(stat(deeper, &st) == 0 && (st.st_mode & 0777) == 0700);
	CHECK(sql_int(db, "PRAGMA user_version") == lab_db_schema_version());
	apply(db, yaml_a, 0, "+host alpha;+host mid;+host zeta;"
	    "+switch plainsw;+switch sg200;+group empty;+group nas;"
	    "+group solo;+group xen");
	lab_db_free(db);
	db = NULL;

	/* it persists, and opening needs no LAB_DB_CREATE now */
	lab_err_init(&err);
	CHECK(lab_db_open(path, 0, &db, &err) == 0);
	if (db != NULL) {
		CHECK(lab_db_inventory_load(db, &inv, &err) == 0);
		CHECK(inv != NULL && inv->nhosts == 3);
		lab_inventory_free(inv);
		CHECK(sql_int(db, "PRAGMA user_version") ==
		    lab_db_schema_version());
		/* a schema newer than this build is refused */
		CHECK(sqlite3_exec(db->h, "PRAGMA user_version = 999", NULL,
		    NULL, NULL) == SQLITE_OK);
		lab_db_free(db);
		db = NULL;
	}
	lab_err_init(&err);
	CHECK(lab_db_open(path, 0, &db, &err) == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, path);
	CHECK_HAS(err.msg, "schema version 999, newer than this lab knows");
	lab_db_free(db);
	db = NULL;

	/* a file that is not a database */
	if ((f = fopen(bad, "w")) != NULL) {
		for (i = 0; i < 200; i++)
			fputs("this is not an SQLite database\n", f);
		fclose(f);
	}
	lab_err_init(&err);
	CHECK(lab_db_open(bad, 0, &db, &err) == -1);
	CHECK(db == NULL);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, bad);
	CHECK_HAS(err.msg, "not a database");
	lab_err_init(&err);
	CHECK(lab_db_open(bad, LAB_DB_CREATE, &db, &err) == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	lab_db_free(db);
out:
	remove_db(bad);
	remove_db(path);
	CHECK(rmdir(deeper) == 0);
	CHECK(rmdir(sub) == 0);
	CHECK(rmdir(dir) == 0);
	free(sub);
	free(deeper);
	free(path);
	free(bad);
}

int
main(void)
{
	test_open_memory();
	test_apply();
	test_apply_mac_moves();
	test_audit();
	test_files();
	TESTS_DONE();
}
