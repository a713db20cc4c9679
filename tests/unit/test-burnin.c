/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab burnin's pure parts: badblocks -w -v's output parsed from recorded
 * runs (tests/fixtures/burnin: a clean 64 MiB loop device, one over a
 * sparse file on a full tmpfs with real write errors, one cut short),
 * migration 011 (the bench tables rebuilt with profile 'burnin', the
 * rows of 010 kept, the references still right) and lab_db_burnin_store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lab/bench.h"
#include "lab/burnin.h"
#include "lab/db.h"
#include "lab/err.h"
#include "db/db-priv.h"

#include "tests.h"

static char *
slurp(const char *rel, size_t *len)
{
	char	 path[4096];
	FILE	*f;
	char	*s;
	long	 n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/burnin/%s",
	    LAB_SRCDIR, rel);
	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "%s: cannot open\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc((size_t)n + 1);
	if (s == NULL || fread(s, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	s[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return s;
}

static int
parse(const char *name, struct lab_badblocks *bb, struct lab_err *err)
{
	char	 o[64], e[64], *out, *etext;
	size_t	 olen, elen;
	int	 rc;

	snprintf(o, sizeof(o), "%s.out", name);
	snprintf(e, sizeof(e), "%s.err", name);
	out = slurp(o, &olen);
	etext = slurp(e, &elen);
	lab_err_init(err);
	rc = lab_badblocks_parse(out, olen, etext, "rig:/dev/loop5", bb, err);
	free(out);
	free(etext);
	return rc;
}

static void
test_parse(void)
{
	struct lab_badblocks	bb;
	struct lab_err		err;

	CHECK(parse("clean", &bb, &err) == 0);
	CHECK(bb.bad == 0 && bb.read == 0 && bb.write == 0 && bb.compare == 0);
	CHECK(bb.first == -1 && bb.listed == 0);

	/* 64 MiB over a 60 MiB tmpfs: 1024 blocks past the space */
	CHECK(parse("errors", &bb, &err) == 0);
	CHECK(bb.bad == 1088 && bb.read == 0 && bb.write == 1024 &&
	    bb.compare == 64);
	CHECK(bb.listed == 1088 && bb.first == 15360);

	/* killed before its summary: no result */
	CHECK(parse("cut", &bb, &err) == -1);
	CHECK(err.code == LAB_EXIT_PARTIAL);
	CHECK_HAS(err.msg, "rig:/dev/loop5: badblocks did not finish");

	/* stdout that is not a list of blocks */
	lab_err_init(&err);
	CHECK(lab_badblocks_parse("12\nx13\n", 7, "Pass completed, 2 bad "
	    "blocks found. (0/2/0 errors)\n", "h:/dev/sdb", &bb, &err) == -1);
	CHECK_HAS(err.msg, "line 2 is not a block number");
	/* a summary that is not badblocks' */
	lab_err_init(&err);
	CHECK(lab_badblocks_parse("", 0, "Pass completed, many bad blocks\n",
	    "h:/dev/sdb", &bb, &err) == -1);
	CHECK_HAS(err.msg, "summary is not");
	/* the last summary counts; stdout NULL (cut): the counts alone */
	lab_err_init(&err);
	CHECK(lab_badblocks_parse(NULL, 0, "Pass completed, 1 bad blocks "
	    "found. (1/0/0 errors)\nPass completed, 3 bad blocks found. "
	    "(1/1/1 errors)\n", "h:/dev/sdb", &bb, &err) == 0);
	CHECK(bb.bad == 3 && bb.read == 1 && bb.write == 1 && bb.compare == 1);
	CHECK(bb.listed == 0 && bb.first == -1);
	CHECK_STR(lab_burnin_result_name(LAB_BURNIN_ERRORS), "errors");
	CHECK_STR(lab_burnin_result_name(LAB_BURNIN_REFUSED), "refused");
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

/* A database file at schema version 10 holding one bench run. */
static void
make_v10(const char *path)
{
	static const char *const files[] = { "001-inventory",
		"002-bmc-settings", "003-switch-discovery", "004-report-runs",
		"005-provision", "006-scale", "007-run-owner",
		"008-port-pvid", "009-history", "010-bench" };
	sqlite3	*h;
	char	 p[4096], *sql, *msg = NULL;
	FILE	*f;
	long	 n;
	size_t	 i;

	CHECK(sqlite3_open(path, &h) == SQLITE_OK);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/lib/db/schema/%s.sql", LAB_SRCDIR,
		    files[i]);
		if ((f = fopen(p, "rb")) == NULL)
			exit(1);
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		sql = calloc(1, (size_t)n + 1);
		if (sql == NULL || fread(sql, 1, (size_t)n, f) != (size_t)n)
			exit(1);
		fclose(f);
		if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
			fprintf(stderr, "%s: %s\n", p, msg);
			tests_failed++;
		}
		free(sql);
	}
	CHECK(sqlite3_exec(h, "PRAGMA user_version = 10; "
	    "INSERT INTO bench_runs (id, host, profile, started_at, status) "
	    "VALUES (7, 'nas', 'quick', 100, 'done'); "
	    "INSERT INTO bench_disks (id, run_id, host, slot, serial, "
	    "reallocated) VALUES (3, 7, 'nas', '2', 'WD-1', 5); "
	    "INSERT INTO bench_results VALUES (3, 'seq-read', 'device', "
	    "'/dev/sdb', NULL, 117.5, 112, 8.5, 20.1)", NULL, NULL,
	    &msg) == SQLITE_OK);
	sqlite3_close(h);
}

static void
add(struct lab_burnin_host *h, const char *slot, enum lab_burnin_result r,
    int64_t errors)
{
	struct lab_burnin_disk	*d;

	d = lab_push(&h->disks, &h->ndisks, sizeof(*d));
	lab_bench_disk_init(&d->d);
	lab_smart_init(&d->before);
	d->d.host = strdup("rig");
	d->d.slot = strdup(slot);
	d->d.device = strdup("/dev/sdb");
	d->d.serial = strdup("WD-9");
	d->result = r;
	d->before.reallocated = 1;
	d->d.smart.reallocated = 4;
	if (r == LAB_BURNIN_REFUSED)
		d->d.skipped = strdup("it is in an md array (/proc/mdstat)");
	if (r == LAB_BURNIN_CLEAN || r == LAB_BURNIN_ERRORS) {
		d->d.burnin.ran = 1;
		d->d.burnin.method = strdup(LAB_BURNIN_METHOD);
		d->d.burnin.errors = errors;
		d->d.burnin.detail = strdup("0 read, 3 write, 0 compare");
		d->elapsed_ms = 1500;
	}
}

static void
test_db(void)
{
	char			 tmpl[] = "/tmp/lab-test-burnin.XXXXXX", path[64];
	struct lab_burnin_host	 h;
	struct lab_db		*db;
	struct lab_err		 err;
	int64_t			 id = 0;

	lab_err_init(&err);
	CHECK(mkdtemp(tmpl) != NULL);
	snprintf(path, sizeof(path), "%s/lab.db", tmpl);
	make_v10(path);
	CHECK(lab_db_open(path, 0, &db, &err) == 0);
	if (db == NULL)
		return;
	CHECK(sql_int(db, "PRAGMA user_version") >= 11);
	CHECK(sql_int(db, "PRAGMA user_version") == lab_db_schema_version());
	/* 010's rows kept, their links right */
	CHECK(sql_int(db, "SELECT count(*) FROM bench_runs r JOIN bench_disks "
	    "d ON d.run_id = r.id JOIN bench_results x ON x.disk_id = d.id "
	    "WHERE r.id = 7 AND d.reallocated = 5 AND x.mb_s = 117.5") == 1);
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE sql LIKE "
	    "'%_new%'") == 0);
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name IN "
	    "('bench_runs_host', 'bench_disks_run', 'bench_disks_serial')") ==
	    3);
	CHECK(sqlite3_exec(db->h, "INSERT INTO bench_runs (host, profile, "
	    "started_at, status) VALUES ('x', 'bogus', 1, 'done')", NULL, NULL,
	    NULL) != SQLITE_OK);

	/* a done burn-in: every disk, refused ones with why */
	memset(&h, 0, sizeof(h));
	h.host = strdup("rig");
	h.status = LAB_BENCH_DONE;
	add(&h, "1", LAB_BURNIN_CLEAN, 0);
	add(&h, "2", LAB_BURNIN_ERRORS, 3);
	add(&h, "3", LAB_BURNIN_REFUSED, 0);
	CHECK(lab_db_burnin_store(db, &h, 200, 300, &id, &err) == 0);
	CHECK(id > 7);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_runs WHERE profile = "
	    "'burnin' AND status = 'done' AND finished_at = 300") == 1);
	CHECK(sql_int(db, "SELECT burnin_errors FROM bench_disks WHERE slot = "
	    "'2' AND burnin_result = 'errors' AND burnin_method = "
	    "'badblocks -w' AND burnin_ms = 1500 AND before_reallocated = 1 "
	    "AND reallocated = 4") == 3);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_disks WHERE slot = '3' "
	    "AND burnin_result = 'refused' AND skipped LIKE '%md array%' AND "
	    "burnin_errors IS NULL AND before_health IS NULL") == 1);
	/* a failed one: its message, no disk */
	h.status = LAB_BENCH_FAILED;
	snprintf(h.err.msg, sizeof(h.err.msg), "rig: ssh 127.0.88.1:2222: "
	    "connection lost");
	CHECK(lab_db_burnin_store(db, &h, 400, 500, &id, &err) == 0);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_disks d JOIN bench_runs "
	    "r ON r.id = d.run_id WHERE r.status = 'failed'") == 0);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_runs WHERE status = "
	    "'failed' AND message LIKE '%connection lost%'") == 1);
	/* the cascade still reaches the rebuilt children */
	CHECK(sqlite3_exec(db->h, "DELETE FROM bench_runs WHERE id = 7", NULL,
	    NULL, NULL) == SQLITE_OK);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_results") == 0);
	lab_burnin_host_release(&h);
	lab_db_free(db);
	unlink(path);
	rmdir(tmpl);
}

int
main(void)
{
	test_parse();
	test_db();
	TESTS_DONE();
}
