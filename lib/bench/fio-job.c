/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"

/*
 * The fio command for one disk (pure: a string, run elsewhere over SSH).
 *
 * Four jobs, one after the other (--stonewall on each after the first,
 * so no job shares the disk with another): seq-read and seq-write with
 * 1 MiB blocks at queue depth 1 (what dd and hdparm -t measure),
 * rand-read and rand-write with 4 KiB blocks at queue depth 32. Every
 * job: direct I/O (no page cache), libaio, JSON output.
 *
 * quick: 10 s a job (time_based), over at most the first 1 GiB of the
 *   device or file: 40 s a disk.
 * full: 5 s of ramp (not counted) and 60 s a job, over at most 16 GiB:
 *   at 150 MB/s a sequential job moves 9 GB, far past a disk's own cache
 *   (8-256 MiB) and its controller's (512 MiB-1 GiB on a P400), and the
 *   random jobs touch 16 GiB, so they are not served from either; 4.3
 *   minutes a disk.
 *
 * A target the caller marked read-only gets no write job at all: the
 * writes are dropped, the reason kept, and fio runs with --readonly, its
 * own refusal of any write. A device target never has a file created in
 * its place (--allow_file_create=0: a wrong path is an error, not a file
 * in /dev).
 */
static const struct {
	const char	*rw;
	const char	*bs;
	const char	*iodepth;
} jobs[LAB_BENCH_NTESTS] = {
	[LAB_BENCH_SEQ_READ] = { "read", "1M", "1" },
	[LAB_BENCH_SEQ_WRITE] = { "write", "1M", "1" },
	[LAB_BENCH_RAND_READ] = { "randread", "4k", "32" },
	[LAB_BENCH_RAND_WRITE] = { "randwrite", "4k", "32" },
};

#define MIB		(UINT64_C(1) << 20)
#define QUICK_CAP	(UINT64_C(1) << 30)
#define FULL_CAP	(UINT64_C(16) << 30)
#define FILE_MAX	(UINT64_C(1) << 40)

static void
opt(struct lab_buf *b, const char *name, const char *value)
{
	lab_buf_adds(b, " --");
	lab_buf_adds(b, name);
	if (value != NULL) {
		lab_buf_addc(b, '=');
		lab_buf_adds(b, value);
	}
}

/* --name=VALUE with the value quoted (a path) */
static void
opt_quoted(struct lab_buf *b, const char *name, const char *value)
{
	struct lab_buf	v;

	lab_buf_init(&v);
	lab_buf_adds(&v, "--");
	lab_buf_adds(&v, name);
	lab_buf_addc(&v, '=');
	lab_buf_adds(&v, value);
	lab_buf_addc(b, ' ');
	lab_sh_quote(b, v.oom ? "" : v.s);
	if (v.oom)
		b->oom = 1;
	lab_buf_release(&v);
}

static int
check_target(const struct lab_bench_job_target *t, struct lab_err *err)
{
	const char	*p = t->path;

	if (p == NULL || *p != '/')
		return lab_err_set(err, LAB_EXIT_INPUT, "bench target '%s': "
		    "not an absolute path", p != NULL ? p : "");
	if (strpbrk(p, "\n\r") != NULL || strlen(p) > 4096)
		return lab_err_set(err, LAB_EXIT_INPUT, "bench target: a path "
		    "with a line break or longer than 4096 bytes");
	if (t->kind == LAB_BENCH_TARGET_DEVICE) {
		if (strncmp(p, "/dev/", 5) != 0 || p[5] == '\0')
			return lab_err_set(err, LAB_EXIT_INPUT, "bench target "
			    "'%s': a device must be under /dev/", p);
		return 0;
	}
	if (t->kind != LAB_BENCH_TARGET_FILE)
		return lab_err_set(err, LAB_EXIT_INPUT, "bench target '%s': "
		    "neither a device nor a file", p);
	if (t->file_size < MIB || t->file_size > FILE_MAX)
		return lab_err_set(err, LAB_EXIT_INPUT, "bench target '%s': a "
		    "file of %" PRIu64 " bytes: give 1 MiB to 1 TiB", p,
		    t->file_size);
	if (strncmp(p, "/dev/", 5) == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "bench target '%s': a "
		    "file under /dev/", p);
	return 0;
}

int
lab_bench_jobs_build(enum lab_bench_profile profile,
    const struct lab_bench_job_target *t, struct lab_bench_jobs *out,
    struct lab_err *err)
{
	struct lab_buf	b;
	uint64_t	cap = profile == LAB_BENCH_FULL ? FULL_CAP : QUICK_CAP;
	uint64_t	size;
	char		num[32];
	size_t		i, n = 0;

	memset(out, 0, sizeof(*out));
	if (profile != LAB_BENCH_QUICK && profile != LAB_BENCH_FULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "bench: unknown "
		    "profile %d", (int)profile);
	if (check_target(t, err) == -1)
		return -1;
	if (t->runtime_s < 0 || t->runtime_s > 3600)
		return lab_err_set(err, LAB_EXIT_INPUT, "bench: a job of %d s: "
		    "give 1 to 3600", t->runtime_s);
	size = cap;
	if (t->kind == LAB_BENCH_TARGET_FILE && t->file_size < cap)
		size = t->file_size / MIB * MIB;
	lab_buf_init(&b);
	lab_buf_adds(&b, "fio");
	opt(&b, "output-format", "json");
	opt(&b, "direct", "1");
	opt(&b, "ioengine", "libaio");
	opt_quoted(&b, "filename", t->path);
	snprintf(num, sizeof(num), "%" PRIu64 "M", size / MIB);
	opt(&b, "size", num);
	if (t->kind == LAB_BENCH_TARGET_DEVICE)
		opt(&b, "allow_file_create", "0");
	opt(&b, "time_based", NULL);
	if (profile == LAB_BENCH_FULL)
		opt(&b, "ramp_time", "5");
	if (t->runtime_s > 0) {
		snprintf(num, sizeof(num), "%d", t->runtime_s);
		opt(&b, "runtime", num);
	} else
		opt(&b, "runtime", profile == LAB_BENCH_FULL ? "60" : "10");
	if (t->read_only)
		opt(&b, "readonly", NULL);
	for (i = 0; i < LAB_BENCH_NTESTS; i++) {
		if (t->read_only && lab_bench_test_writes((enum lab_bench_test)i))
			continue;
		opt(&b, "name", lab_bench_test_name((enum lab_bench_test)i));
		if (n++ > 0)
			opt(&b, "stonewall", NULL);
		opt(&b, "rw", jobs[i].rw);
		opt(&b, "bs", jobs[i].bs);
		opt(&b, "iodepth", jobs[i].iodepth);
		out->runs[i] = 1;
	}
	if (t->read_only) {
		out->dropped = strdup(t->why != NULL && *t->why != '\0' ?
		    t->why : "read-only");
	}
	if (b.oom || (t->read_only && out->dropped == NULL)) {
		lab_buf_release(&b);
		lab_bench_jobs_release(out);
		return lab_err_oom(err);
	}
	out->command = lab_buf_steal(&b);
	return 0;
}

void
lab_bench_jobs_release(struct lab_bench_jobs *j)
{
	free(j->command);
	free(j->dropped);
	memset(j, 0, sizeof(*j));
}
