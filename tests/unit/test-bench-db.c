/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The bench tables (migration 010, lib/db/bench.c): a database at version
 * 9 migrated, runs stored in one transaction, a failed run without
 * partial results, a disk's history by serial across slots and hosts,
 * a host's last run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lab/bench.h"
#include "lab/db.h"
#include "lab/err.h"
#include "db/db-priv.h"

#include "tests.h"

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

/* A database file at schema version 9, from the migrations' own files. */
static void
make_v9(const char *path)
{
	static const char *const files[] = { "001-inventory",
		"002-bmc-settings", "003-switch-discovery", "004-report-runs",
		"005-provision", "006-scale", "007-run-owner",
		"008-port-pvid", "009-history" };
	sqlite3	*h;
	char	 p[4096], *sql, *msg = NULL;
	FILE	*f;
	long	 n;
	size_t	 i;

	CHECK(sqlite3_open(path, &h) == SQLITE_OK);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/lib/db/schema/%s.sql", LAB_SRCDIR,
		    files[i]);
		if ((f = fopen(p, "rb")) == NULL) {
			fprintf(stderr, "%s: cannot open\n", p);
			exit(1);
		}
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
	CHECK(sqlite3_exec(h, "PRAGMA user_version = 9; INSERT INTO "
	    "provision_runs (host, kind, layout, plan, started_at, status) "
	    "VALUES ('nas', 'storage', 'raid10', '{}', 1, 'done')", NULL,
	    NULL, NULL) == SQLITE_OK);
	sqlite3_close(h);
}

static void
test_migrate(void)
{
	char		 tmpl[] = "/tmp/lab-test-bench-db.XXXXXX", path[64];
	struct lab_db	*db;
	struct lab_err	 err;

	lab_err_init(&err);
	CHECK(mkdtemp(tmpl) != NULL);
	snprintf(path, sizeof(path), "%s/lab.db", tmpl);
	make_v9(path);
	CHECK(lab_db_open(path, 0, &db, &err) == 0);
	if (db == NULL)
		return;
	/* every later migration too */
	CHECK(sql_int(db, "PRAGMA user_version") == lab_db_schema_version());
	CHECK(lab_db_schema_version() >= 10);
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name IN "
	    "('bench_runs', 'bench_disks', 'bench_results', "
	    "'bench_disks_serial')") == 4);
	/* what was there stays */
	CHECK(sql_int(db, "SELECT count(*) FROM provision_runs") == 1);
	lab_db_free(db);
	unlink(path);
	rmdir(tmpl);
}

static void
add_disk(struct lab_bench_run *r, const char *host, const char *slot,
    const char *serial, double mb_s, int64_t reallocated)
{
	struct lab_bench_disk	*d;
	size_t			 i;

	d = lab_push(&r->disks.v, &r->disks.n, sizeof(*d));
	lab_bench_disk_init(d);
	d->host = strdup(host);
	d->slot = strdup(slot);
	d->device = strdup("/dev/sdb");
	d->serial = strdup(serial);
	d->model = strdup("WDC WD5002ABYS-02B1B0");
	d->kind = strdup("sata");
	d->controller = strdup("sc44ge");
	d->smart.health = LAB_SMART_PASSED;
	d->smart.reallocated = reallocated;
	d->smart.temperature_c = 34;
	d->results = calloc(2, sizeof(*d->results));
	d->nresults = 2;
	for (i = 0; i < 2; i++) {
		/* stored out of order, read back in the jobs' order */
		d->results[i].test = i == 0 ? LAB_BENCH_RAND_WRITE :
		    LAB_BENCH_SEQ_READ;
		d->results[i].mb_s = mb_s + (double)i;
		d->results[i].iops = 100;
		d->results[i].lat_mean_ms = 1.5;
		d->results[i].lat_p99_ms = 7.25;
		d->results[i].target_kind = LAB_BENCH_TARGET_FILE;
		d->results[i].target = strdup("/srv/lab.fio");
		d->results[i].why = strdup("mounted on /srv");
	}
	d->skipped = strdup("mounted on /srv: writes into a file");
}

static void
init_run(struct lab_bench_run *r, const char *host, int64_t t,
    enum lab_bench_status status)
{
	memset(r, 0, sizeof(*r));
	r->host = strdup(host);
	r->profile = strdup("quick");
	r->started_at = t;
	r->finished_at = t + 40;
	r->status = status;
}

static void
test_store(void)
{
	struct lab_db		*db;
	struct lab_err		 err;
	struct lab_bench_run	 r, last;
	struct lab_bench_disks	 h;
	struct lab_bench_disk	*d;

	lab_err_init(&err);
	CHECK(lab_db_open(":memory:", 0, &db, &err) == 0);
	if (db == NULL)
		return;
	/* nothing yet */
	CHECK(lab_db_bench_last(db, "dl320", &last, &err) == 0);
	CHECK(last.id == 0 && last.disks.n == 0);
	CHECK(lab_db_bench_history(db, "S1", 0, &h, &err) == 0 && h.n == 0);

	init_run(&r, "dl320", 1000, LAB_BENCH_DONE);
	add_disk(&r, "dl320", "3", "S1", 31.6, 0);
	add_disk(&r, "dl320", "4", "S2", 107, -1);
	CHECK(lab_db_bench_store(db, &r, &err) == 0);
	CHECK(r.id > 0);
	lab_bench_run_release(&r);

	/* S1 moved to another host and slot: its history follows it */
	init_run(&r, "nas", 2000, LAB_BENCH_DONE);
	add_disk(&r, "nas", "1", "S1", 11.3, 8);
	CHECK(lab_db_bench_store(db, &r, &err) == 0);
	lab_bench_run_release(&r);

	/* a failed run: its status and message, no partial result */
	init_run(&r, "nas", 3000, LAB_BENCH_FAILED);
	r.message = strdup("nas: the SSH link dropped during rand-read");
	add_disk(&r, "nas", "1", "S1", 1, 99);
	CHECK(lab_db_bench_store(db, &r, &err) == 0);
	lab_bench_run_release(&r);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_disks") == 3);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_results") == 6);

	CHECK(lab_db_bench_history(db, "S1", 0, &h, &err) == 0);
	CHECK(h.n == 2);
	if (h.n == 2) {
		CHECK_STR(h.v[0].host, "dl320");	/* oldest first */
		CHECK_STR(h.v[0].slot, "3");
		CHECK_STR(h.v[1].host, "nas");
		CHECK(h.v[1].time == 2000);
		CHECK(h.v[1].smart.reallocated == 8);
		CHECK(h.v[0].smart.pending == -1);
		CHECK(h.v[0].smart.temperature_c == 34);
		CHECK(h.v[0].nresults == 2);
		d = &h.v[0];
		if (d->nresults == 2) {
			CHECK(d->results[0].test == LAB_BENCH_SEQ_READ);
			CHECK(d->results[0].mb_s == 32.6);
			CHECK(d->results[1].test == LAB_BENCH_RAND_WRITE);
			CHECK(d->results[1].mb_s == 31.6);
			CHECK(d->results[1].lat_p99_ms == 7.25);
			CHECK(d->results[1].target_kind ==
			    LAB_BENCH_TARGET_FILE);
			CHECK_STR(d->results[1].why, "mounted on /srv");
		}
		CHECK_STR(d->skipped, "mounted on /srv: writes into a file");
		CHECK(d->smart.health == LAB_SMART_PASSED);
	}
	lab_bench_disks_release(&h);
	CHECK(lab_db_bench_history(db, "S1", 1, &h, &err) == 0);
	CHECK(h.n == 1 && strcmp(h.v[0].host, "nas") == 0);
	lab_bench_disks_release(&h);

	/* the last run of nas is the failed one, without disks */
	CHECK(lab_db_bench_last(db, "nas", &last, &err) == 0);
	CHECK(last.status == LAB_BENCH_FAILED && last.disks.n == 0);
	CHECK_STR(last.message, "nas: the SSH link dropped during rand-read");
	lab_bench_run_release(&last);
	CHECK(lab_db_bench_last(db, "dl320", &last, &err) == 0);
	CHECK(last.status == LAB_BENCH_DONE && last.disks.n == 2);
	CHECK(last.started_at == 1000 && last.finished_at == 1040);
	if (last.disks.n == 2) {
		CHECK_STR(last.disks.v[1].serial, "S2");
		CHECK(last.disks.v[1].smart.reallocated == -1);
	}
	lab_bench_run_release(&last);

	/* a store that fails half way (a result the schema refuses) leaves
	   nothing, not even the run */
	init_run(&r, "dl320", 4000, LAB_BENCH_DONE);
	add_disk(&r, "dl320", "3", "S9", 50, 0);
	r.disks.v[0].results[1].test = LAB_BENCH_NTESTS;
	CHECK(lab_db_bench_store(db, &r, &err) == -1);
	CHECK(r.id == 0);
	lab_bench_run_release(&r);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_runs") == 3);
	CHECK(sql_int(db, "SELECT count(*) FROM bench_disks") == 3);
	CHECK(lab_db_bench_history(db, "S9", 0, &h, &err) == 0 && h.n == 0);
	lab_db_free(db);
}

int
main(void)
{
	test_migrate();
	test_store();
	TESTS_DONE();
}
