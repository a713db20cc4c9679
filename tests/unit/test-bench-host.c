/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab bench of a host without a peer (lib/bench-host.c): which disks, the
 * plan of each from the free-disk check's answer, a job's runtime.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench-host.h"
#include "lab/err.h"

#include "tests.h"

static struct lab_err *
fresh(struct lab_err *e)
{
	lab_err_init(e);
	return e;
}

static struct lab_disk disks[] = {
	{ .slot = "1", .kind = "sata", .device = "/dev/sdb",
	  .loc = { "lab.yaml", 10, 9 } },
	{ .slot = "2", .kind = "sata", .device = "/dev/sdc",
	  .loc = { "lab.yaml", 11, 9 } },
	{ .slot = "3", .kind = "sata", .controller = "sc44ge",
	  .device = "/dev/sdd", .loc = { "lab.yaml", 12, 9 } },
	{ .slot = "odd", .kind = "ssd", .loc = { "lab.yaml", 13, 9 } },
};

static struct lab_ssh_cfg ssh = { .address = "192.0.2.5", .port = 22 };

static void
test_disks(void)
{
	struct lab_host		 h = { .name = "nas", .ssh = &ssh,
				    .disks = disks, .ndisks = 3 };
	const struct lab_disk	**v = NULL;
	const char		*one[] = { "3" }, *typo[] = { "33" },
				*far[] = { "9x9" }, *odd[] = { "odd" };
	struct lab_err		 err;
	size_t			 n = 0;

	CHECK(lab_bench_host_disks(&h, NULL, 0, &v, &n, fresh(&err)) == 0);
	CHECK(n == 3 && v[0] == &disks[0] && v[2] == &disks[2]);
	free(v);
	CHECK(lab_bench_host_disks(&h, one, 1, &v, &n, fresh(&err)) == 0);
	CHECK(n == 1 && v[0] == &disks[2]);
	free(v);
	CHECK(lab_bench_host_disks(&h, typo, 1, &v, &n, fresh(&err)) == -1);
	CHECK(err.code == LAB_EXIT_INPUT && v == NULL && n == 0);
	CHECK_STR(err.msg, "host 'nas' has no disk in slot '33'; did you mean "
	    "'3'?");
	CHECK(lab_bench_host_disks(&h, far, 1, &v, &n, fresh(&err)) == -1);
	CHECK_STR(err.msg, "host 'nas' has no disk in slot '9x9' (its slots: "
	    "1 2 3)");
	/* a disk without a device is named where the inventory has it */
	h.ndisks = 4;
	CHECK(lab_bench_host_disks(&h, odd, 1, &v, &n, fresh(&err)) == -1);
	CHECK_STR(err.msg, "lab.yaml:13:9: the disk in slot odd of host 'nas' "
	    "has no 'device': lab cannot bench it");
	h.ndisks = 0;
	CHECK(lab_bench_host_disks(&h, NULL, 0, &v, &n, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "host 'nas' has no disks in the inventory");
	h.ndisks = 3;
	h.ssh = NULL;
	CHECK(lab_bench_host_disks(&h, NULL, 0, &v, &n, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "host 'nas' has no ssh: block");
}

static void
test_plan(void)
{
	struct lab_bench_disk_plan	 p;
	struct lab_disk_state		 st;
	struct lab_bench_jobs		 j;
	struct lab_err			 err;

	/* free, or not checked yet (the dry run): all on the device */
	lab_bench_disk_plan(&disks[0], NULL, "T", 0, 0, &p);
	CHECK(!p.dev.read_only && !p.has_file && p.why[0] == '\0');
	CHECK_STR(p.dev.path, "/dev/sdb");
	memset(&st, 0, sizeof(st));
	st.use = LAB_DISK_FREE;
	lab_bench_disk_plan(&disks[0], &st, "T", 0, 3, &p);
	CHECK(!p.dev.read_only && !p.has_file && p.dev.runtime_s == 3);
	/* mounted: the reads on the device, the writes into a file there */
	st.use = LAB_DISK_MOUNTED;
	snprintf(st.reason, sizeof(st.reason), "it is mounted on /srv/a");
	snprintf(st.mount, sizeof(st.mount), "/srv/a");
	lab_bench_disk_plan(&disks[0], &st, "17-42", UINT64_C(1) << 30, 0, &p);
	CHECK(p.dev.read_only && p.has_file);
	CHECK_STR(p.file_path, "/srv/a/.lab-bench-17-42.fio");
	CHECK(p.file.kind == LAB_BENCH_TARGET_FILE &&
	    p.file.file_size == UINT64_C(1) << 30 && !p.file.read_only);
	CHECK_STR(p.why, "it is mounted on /srv/a: the writes into a file on "
	    "its filesystem");
	snprintf(st.mount, sizeof(st.mount), "/");
	lab_bench_disk_plan(&disks[0], &st, "x", UINT64_C(1) << 30, 0, &p);
	CHECK_STR(p.file_path, "/.lab-bench-x.fio");
	/* no room there: reads only */
	lab_bench_disk_plan(&disks[0], &st, "x", 1 << 20, 0, &p);
	CHECK(p.dev.read_only && !p.has_file);
	CHECK_HAS(p.why, "no room for a file");
	/* an array member: reads only, with the check's reason */
	st.use = LAB_DISK_ARRAY;
	snprintf(st.reason, sizeof(st.reason), "it is in an md array "
	    "(/proc/mdstat)");
	st.mount[0] = '\0';
	lab_bench_disk_plan(&disks[0], &st, "x", 0, 0, &p);
	CHECK(p.dev.read_only && !p.has_file);
	CHECK_STR(p.why, "it is in an md array (/proc/mdstat): reads only, the "
	    "writes dropped");
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &p.dev, &j,
	    fresh(&err)) == 0);
	CHECK(j.runs[LAB_BENCH_SEQ_READ] && !j.runs[LAB_BENCH_SEQ_WRITE] &&
	    !j.runs[LAB_BENCH_RAND_WRITE]);
	CHECK_HAS(j.command, " --readonly");
	CHECK_STR(j.dropped, p.why);
	lab_bench_jobs_release(&j);
}

static void
test_runtime(void)
{
	struct lab_bench_job_target	 t = { .kind = LAB_BENCH_TARGET_DEVICE,
					    .path = "/dev/sdb" };
	struct lab_bench_jobs		 j;
	struct lab_err			 err;

	t.runtime_s = 2;
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &t, &j, fresh(&err)) == 0);
	CHECK_HAS(j.command, " --runtime=2 ");
	CHECK(strstr(j.command, "--runtime=10") == NULL);
	lab_bench_jobs_release(&j);
	CHECK(lab_bench_jobs_build(LAB_BENCH_FULL, &t, &j, fresh(&err)) == 0);
	CHECK_HAS(j.command, " --ramp_time=5 --runtime=2 ");
	lab_bench_jobs_release(&j);
	t.runtime_s = 0;
	CHECK(lab_bench_jobs_build(LAB_BENCH_FULL, &t, &j, fresh(&err)) == 0);
	CHECK_HAS(j.command, " --runtime=60 ");
	lab_bench_jobs_release(&j);
	t.runtime_s = 3601;
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &t, &j, fresh(&err)) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_STR(err.msg, "bench: a job of 3601 s: give 1 to 3600");
}

int
main(void)
{
	test_disks();
	test_plan();
	test_runtime();
	TESTS_DONE();
}
