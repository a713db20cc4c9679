/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab bench --pool without a peer: the --set words (the property table,
 * read-only and unknown properties, did-you-mean), the combinations in
 * order, the fio command, the medians and spreads; the database
 * (migration 012, lib/db/bench-pool.c): a done run with its rows, a
 * failed one without, the latest done run of each host and pool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lab/bench-pool.h"
#include "lab/db.h"
#include "lab/err.h"
#include "db/db-priv.h"

#include "tests.h"

/* The rows of pool_results. */
static long
sql_count(struct lab_db *db)
{
	sqlite3_stmt	*st;
	long		 v = -1;

	if (sqlite3_prepare_v2(db->h, "SELECT count(*) FROM pool_results", -1,
	    &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int
parse(const char *a, const char *b, struct lab_pool_sets *s,
    struct lab_err *err)
{
	const char	*w[2] = { a, b };

	lab_err_init(err);
	return lab_pool_sets_parse(w, b != NULL ? 2 : a != NULL ? 1 : 0, s,
	    err);
}

static void
test_sets(void)
{
	struct lab_pool_sets	 s;
	struct lab_err		 err;
	char			*t;

	CHECK(parse("compression=off,lz4", "sync=standard,disabled", &s,
	    &err) == 0);
	CHECK(s.n == 2 && s.ncombos == 4);
	/* the first --set varies slowest */
	CHECK_STR(t = lab_pool_combo_text(&s, 0),
	    "compression=off sync=standard");
	free(t);
	CHECK_STR(t = lab_pool_combo_text(&s, 1),
	    "compression=off sync=disabled");
	free(t);
	CHECK_STR(t = lab_pool_combo_text(&s, 3),
	    "compression=lz4 sync=disabled");
	free(t);
	CHECK_STR(t = lab_pool_combo_opts(&s, 2),
	    "-o compression=lz4 -o sync=standard");
	free(t);
	CHECK_STR(t = lab_pool_sets_props(&s), "compression sync");
	free(t);
	lab_pool_sets_release(&s);

	CHECK(parse(NULL, NULL, &s, &err) == 0 && s.ncombos == 1);
	CHECK_STR(t = lab_pool_combo_text(&s, 0), "defaults");
	free(t);
	lab_pool_sets_release(&s);

	CHECK(parse("compresion=off", NULL, &s, &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, "unknown ZFS property 'compresion', did you mean "
	    "'compression'?");
	CHECK(parse("used=1", NULL, &s, &err) == -1);
	CHECK_HAS(err.msg, "used is a read-only property");
	CHECK(parse("compressratio=2", NULL, &s, &err) == -1);
	CHECK_HAS(err.msg, "read-only");
	CHECK(parse("zzzzzzzzzz=1", NULL, &s, &err) == -1);
	CHECK_HAS(err.msg, "see zfsprops(7)");
	CHECK(parse("compression", NULL, &s, &err) == -1);
	CHECK_HAS(err.msg, "give PROP=V1,V2");
	CHECK(parse("compression=off,,on", NULL, &s, &err) == -1);
	CHECK_HAS(err.msg, "an empty value");
	CHECK(parse("compression=off", "compression=on", &s, &err) == -1);
	CHECK_HAS(err.msg, "given twice");
	CHECK(parse("compression=o;rm -rf /", NULL, &s, &err) == -1);
	CHECK_HAS(err.msg, "a character outside");
	CHECK(parse("recordsize=4k,8k,16k,32k,64k,128k,512,1k,2k",
	    "copies=1,2,3,4,5,6,7,8", &s, &err) == -1);
	CHECK_HAS(err.msg, "more than 64 combinations");
	CHECK(lab_pool_prop_kind("logbias") == 1);
	CHECK(lab_pool_prop_kind("available") == -1);
	CHECK(lab_pool_prop_kind("mountpoint") == 0);
}

static void
test_fio(void)
{
	struct lab_err	 err;
	char		*c;

	lab_err_init(&err);
	CHECK(lab_pool_fio_command("/tank/lab-bench-1-0/lab-bench.fio",
	    UINT64_C(100) << 20, 10, 0, &c, &err) == 0);
	CHECK_HAS(c, "fio --output-format=json --direct=0");
	CHECK_HAS(c, "--filename=/tank/lab-bench-1-0/lab-bench.fio "
	    "--size=100M --time_based --runtime=10 --name=seq-write --rw=write "
	    "--bs=1M --end_fsync=1 --name=seq-read --stonewall --rw=read");
	CHECK_HAS(c, "--name=rand-write --stonewall --rw=randwrite --bs=4k "
	    "--end_fsync=1");
	CHECK(strstr(c, "ramp_time") == NULL);
	free(c);
	CHECK(lab_pool_fio_command("/a b/f", UINT64_C(2) << 20, 60, 5, &c,
	    &err) == 0);
	CHECK_HAS(c, "'--filename=/a b/f'");
	CHECK_HAS(c, "--ramp_time=5");
	free(c);
	CHECK(lab_pool_fio_command("rel/f", UINT64_C(2) << 20, 1, 0, &c,
	    &err) == -1 && c == NULL);
	lab_err_init(&err);
	CHECK(lab_pool_fio_command("/f", 4096, 1, 0, &c, &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
}

static void
test_summarise(void)
{
	struct lab_bench_result		 r[4];
	const struct lab_bench_result	*p[4];
	struct lab_pool_test		 t;
	size_t				 i;
	static const double		 mb[4] = { 65, 164, 148, 150 };

	memset(r, 0, sizeof(r));
	for (i = 0; i < 4; i++) {
		r[i].test = LAB_BENCH_SEQ_WRITE;
		r[i].mb_s = mb[i];
		r[i].iops = mb[i] * 10;
		r[i].lat_mean_ms = (double)i;
		r[i].lat_p99_ms = 10 * (double)i;
		p[i] = &r[i];
	}
	lab_pool_summarise(LAB_BENCH_SEQ_WRITE, p, 3, &t);
	CHECK(t.runs == 3 && t.mb_s == 148 && t.mb_s_min == 65 &&
	    t.mb_s_max == 164 && t.iops == 1480 && t.lat_mean_ms == 1 &&
	    t.lat_p99_ms == 10);
	/* an even number: the mean of the two middle ones */
	lab_pool_summarise(LAB_BENCH_SEQ_WRITE, p, 4, &t);
	CHECK(t.runs == 4 && t.mb_s == 149 && t.mb_s_min == 65 &&
	    t.mb_s_max == 164);
	lab_pool_summarise(LAB_BENCH_SEQ_WRITE, p, 0, &t);
	CHECK(t.runs == 0 && t.mb_s == 0);
}

static void
make_run(struct lab_pool_run *r, const char *host, const char *pool,
    int64_t at, enum lab_bench_status st, double base)
{
	size_t	k, i;

	memset(r, 0, sizeof(*r));
	r->host = strdup(host);
	r->pool = strdup(pool);
	r->props = strdup("compression");
	r->repeat = 3;
	r->started_at = at;
	r->finished_at = at + 60;
	r->status = st;
	if (st == LAB_BENCH_FAILED) {
		r->message = strdup("nas: ssh 127.0.0.1:22: connection lost");
		r->left = strdup("zfs destroy -f tank/lab-bench-9-1");
	}
	r->ncombos = 2;
	r->combos = calloc(2, sizeof(*r->combos));
	for (k = 0; k < 2; k++) {
		r->combos[k].set = strdup(k == 0 ? "compression=off" :
		    "compression=lz4");
		r->combos[k].dataset = strdup("tank/lab-bench-9-0");
		r->combos[k].ntests = LAB_BENCH_NTESTS;
		for (i = 0; i < LAB_BENCH_NTESTS; i++) {
			struct lab_pool_test *t = &r->combos[k].tests[i];

			t->test = (enum lab_bench_test)i;
			t->mb_s = base + (double)(10 * k + i);
			t->mb_s_min = t->mb_s - 1;
			t->mb_s_max = t->mb_s + 2;
			t->iops = 452;
			t->iops_min = 400;
			t->iops_max = 500;
			t->lat_mean_ms = 0.5;
			t->lat_p99_ms = 2.25;
			t->runs = 3;
		}
	}
}

static const struct lab_pool_test *
find(const struct lab_pool_combo *c, enum lab_bench_test t)
{
	size_t	i;

	for (i = 0; i < c->ntests; i++)
		if (c->tests[i].test == t)
			return &c->tests[i];
	return NULL;
}

static void
test_db(void)
{
	char			 tmpl[] = "/tmp/lab-test-bench-pool.XXXXXX";
	char			 path[64];
	struct lab_db		*db;
	struct lab_err		 err;
	struct lab_pool_run	 r, last, *v;
	const struct lab_pool_test *t;
	size_t			 n;

	lab_err_init(&err);
	CHECK(mkdtemp(tmpl) != NULL);
	snprintf(path, sizeof(path), "%s/lab.db", tmpl);
	CHECK(lab_db_open(path, LAB_DB_CREATE, &db, &err) == 0);
	if (db == NULL)
		return;
	CHECK(lab_db_schema_version() >= 12);

	make_run(&r, "nas", "tank", 1000, LAB_BENCH_DONE, 100);
	CHECK(lab_db_pool_store(db, &r, &err) == 0 && r.id > 0);
	lab_pool_run_release(&r);
	/* a failed run keeps no figure, only why and what is left */
	make_run(&r, "nas", "tank", 2000, LAB_BENCH_FAILED, 500);
	CHECK(lab_db_pool_store(db, &r, &err) == 0);
	lab_pool_run_release(&r);
	make_run(&r, "nas", "scratch", 1500, LAB_BENCH_DONE, 200);
	CHECK(lab_db_pool_store(db, &r, &err) == 0);
	lab_pool_run_release(&r);
	CHECK(lab_db_pool_store(db, &r, &err) == -1);	/* no host */

	CHECK(lab_db_pool_last(db, "nas", "tank", &last, &err) == 0);
	CHECK(last.status == LAB_BENCH_FAILED && last.ncombos == 0);
	CHECK_STR(last.left, "zfs destroy -f tank/lab-bench-9-1");
	CHECK_HAS(last.message, "connection lost");
	lab_pool_run_release(&last);
	CHECK(lab_db_pool_last(db, "nas", "none", &last, &err) == 0 &&
	    last.id == 0);

	/* the latest done run of each host and pool: the failed one is not */
	CHECK(lab_db_pool_latest(db, &v, &n, &err) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK_STR(v[0].pool, "scratch");
		CHECK_STR(v[1].pool, "tank");
		CHECK(v[1].started_at == 1000 && v[1].repeat == 3);
		CHECK_STR(v[1].props, "compression");
		CHECK(v[1].ncombos == 2 && v[1].left == NULL);
		CHECK_STR(v[1].combos[1].set, "compression=lz4");
		CHECK(v[1].combos[1].ntests == LAB_BENCH_NTESTS);
		t = find(&v[1].combos[1], LAB_BENCH_RAND_WRITE);
		CHECK(t != NULL && t->mb_s == 113 && t->mb_s_min == 112 &&
		    t->mb_s_max == 115 && t->iops == 452 && t->iops_min == 400 &&
		    t->lat_p99_ms == 2.25 && t->runs == 3);
	}
	while (n > 0)
		lab_pool_run_release(&v[--n]);
	free(v);
	CHECK(sql_count(db) == 16);
	lab_db_free(db);
	unlink(path);
	rmdir(tmpl);
}

int
main(void)
{
	test_sets();
	test_fio();
	test_summarise();
	test_db();
	return tests_failed ? 1 : 0;
}
