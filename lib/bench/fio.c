/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"
#include "bench/bench-priv.h"

/*
 * fio's --output-format=json (fio 3.33, Debian 12), one result a job:
 * the job's side is "read" for seq-read and rand-read and "write" for
 * seq-write and rand-write (a randwrite job's figures are under "write").
 *   mb_s        bw_bytes / 1e6 (MB: 10^6 bytes, not MiB)
 *   iops        iops
 *   lat_mean_ms clat_ns.mean / 1e6 (completion latency)
 *   lat_p99_ms  clat_ns.percentile["99.000000"] / 1e6
 * Recorded outputs are in tests/fixtures/fio/.
 */

/* More than any disk or array lab benches does (1 TB/s, 10M IOPS, an
   hour a request): past these a figure is a broken output, not a disk.
   Reads the page cache serves (a loop device, a file on a mounted disk)
   run at memory speed: 10.3 GB/s was seen on a 2-core CI machine. */
#define MAX_BW		1e12
#define MAX_IOPS	1e7
#define MAX_LAT_NS	3.6e12

static int
job_fail(struct lab_err *err, const char *where, const char *job,
    const char *what)
{
	return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: fio job '%s': %s",
	    where, job, what);
}

static int
one_job(struct json_object *j, const char *where,
    const struct lab_bench_job_target *t, struct lab_bench_result *r,
    const int *seen, struct lab_err *err)
{
	struct json_object	*name, *side, *pct, *p99;
	const char		*jn, *sidename;
	double			 error = 0, bw, iops, mean, p, ios;
	int			 test;
	char			 msg[160];

	if (!json_object_object_get_ex(j, "jobname", &name) ||
	    !json_object_is_type(name, json_type_string))
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: fio output: a "
		    "job without a name", where);
	jn = json_object_get_string(name);
	if ((test = lab_bench_test_parse(jn)) == -1)
		return job_fail(err, where, jn, "not one of seq-read, "
		    "seq-write, rand-read, rand-write");
	if (seen[test])
		return job_fail(err, where, jn, "twice in the output");
	if (!lab_bench_json_num(j, "error", &error))
		return job_fail(err, where, jn, "no \"error\" field");
	if (error != 0) {
		snprintf(msg, sizeof(msg), "failed with error %.0f (%s)",
		    error, error > 0 && error < 200 ?
		    strerror((int)error) : "unknown");
		return job_fail(err, where, jn, msg);
	}
	sidename = lab_bench_test_writes((enum lab_bench_test)test) ?
	    "write" : "read";
	side = lab_bench_json_at(j, sidename);
	if (side == NULL || !json_object_is_type(side, json_type_object)) {
		snprintf(msg, sizeof(msg), "no \"%s\" figures", sidename);
		return job_fail(err, where, jn, msg);
	}
	if (!lab_bench_json_num(side, "bw_bytes", &bw) ||
	    !lab_bench_json_num(side, "iops", &iops) ||
	    !lab_bench_json_num(side, "clat_ns.mean", &mean) ||
	    !lab_bench_json_num(side, "total_ios", &ios)) {
		snprintf(msg, sizeof(msg), "%s: bw_bytes, iops, total_ios or "
		    "clat_ns.mean missing or not a number", sidename);
		return job_fail(err, where, jn, msg);
	}
	if (ios <= 0) {
		snprintf(msg, sizeof(msg), "did no %s", sidename);
		return job_fail(err, where, jn, msg);
	}
	pct = lab_bench_json_at(side, "clat_ns.percentile");
	if (pct == NULL || !json_object_is_type(pct, json_type_object) ||
	    !json_object_object_get_ex(pct, "99.000000", &p99) ||
	    !(json_object_is_type(p99, json_type_int) ||
	    json_object_is_type(p99, json_type_double))) {
		snprintf(msg, sizeof(msg), "%s: no clat_ns.percentile "
		    "\"99.000000\"", sidename);
		return job_fail(err, where, jn, msg);
	}
	p = json_object_get_double(p99);
	if (!(bw >= 0 && bw <= MAX_BW) || !(iops >= 0 && iops <= MAX_IOPS) ||
	    !(mean >= 0 && mean <= MAX_LAT_NS) ||
	    !(p >= 0 && p <= MAX_LAT_NS)) {
		snprintf(msg, sizeof(msg), "absurd figures (%.0f bytes/s, "
		    "%.0f IOPS, %.0f ns mean, %.0f ns p99)", bw, iops, mean, p);
		return job_fail(err, where, jn, msg);
	}
	r->test = (enum lab_bench_test)test;
	r->mb_s = bw / 1e6;
	r->iops = iops;
	r->lat_mean_ms = mean / 1e6;
	r->lat_p99_ms = p / 1e6;
	r->target_kind = t != NULL ? t->kind : LAB_BENCH_TARGET_DEVICE;
	if (t != NULL && t->path != NULL &&
	    (r->target = strdup(t->path)) == NULL)
		return lab_err_oom(err);
	if (t != NULL && t->kind == LAB_BENCH_TARGET_FILE && t->why != NULL &&
	    (r->why = strdup(t->why)) == NULL)
		return lab_err_oom(err);
	return 0;
}

int
lab_bench_fio_parse(const char *text, size_t len, const char *where,
    const struct lab_bench_job_target *t, struct lab_bench_result **ret,
    size_t *nret, struct lab_err *err)
{
	struct json_object	*o, *jobs;
	struct lab_bench_result	*v = NULL;
	int			 seen[LAB_BENCH_NTESTS] = { 0 };
	size_t			 i, n = 0, njobs;

	*ret = NULL;
	*nret = 0;
	if (where == NULL)
		where = "-";
	if ((o = lab_bench_json_read(text, len, "fio", where, err)) == NULL)
		return -1;
	jobs = lab_bench_json_at(o, "jobs");
	if (jobs == NULL || !json_object_is_type(jobs, json_type_array) ||
	    (njobs = json_object_array_length(jobs)) == 0) {
		json_object_put(o);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: fio output has "
		    "no jobs", where);
	}
	if (njobs > LAB_BENCH_NTESTS) {
		json_object_put(o);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: fio output has "
		    "%zu jobs, more than lab's %d", where, njobs,
		    LAB_BENCH_NTESTS);
	}
	v = calloc(njobs, sizeof(*v));
	if (v == NULL) {
		json_object_put(o);
		return lab_err_oom(err);
	}
	for (i = 0; i < njobs; i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);

		if (j == NULL || !json_object_is_type(j, json_type_object)) {
			lab_err_set(err, LAB_EXIT_PARTIAL, "%s: fio output: "
			    "job %zu is not an object", where, i + 1);
			goto fail;
		}
		if (one_job(j, where, t, &v[n], seen, err) == -1) {
			n++;
			goto fail;
		}
		seen[v[n].test] = 1;
		n++;
	}
	json_object_put(o);
	*ret = v;
	*nret = n;
	return 0;
fail:
	for (i = 0; i < n; i++)
		lab_bench_result_release(&v[i]);
	free(v);
	json_object_put(o);
	return -1;
}
