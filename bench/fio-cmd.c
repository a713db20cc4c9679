/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fio-cmd PROFILE DEVICE: prints the fio command line lab bench runs on
 * DEVICE (lib/bench/fio-job.c, lab_bench_jobs_build), so that bench/disks
 * runs by hand over ssh(1) exactly what lab runs, not a copy of it.
 * PROFILE is quick or full.
 */
#include <stdio.h>

#include "lab/bench.h"

int
main(int argc, char **argv)
{
	struct lab_bench_job_target	 t = { 0 };
	struct lab_bench_jobs		 jobs;
	struct lab_err			 err = { 0 };
	int				 profile;

	if (argc != 3) {
		fprintf(stderr, "usage: fio-cmd quick|full DEVICE\n");
		return 2;
	}
	if ((profile = lab_bench_profile_parse(argv[1])) == -1) {
		fprintf(stderr, "fio-cmd: unknown profile '%s'\n", argv[1]);
		return 2;
	}
	t.kind = LAB_BENCH_TARGET_DEVICE;
	t.path = argv[2];
	if (lab_bench_jobs_build((enum lab_bench_profile)profile, &t, &jobs,
	    &err) == -1) {
		fprintf(stderr, "fio-cmd: %s\n", err.msg);
		return (int)err.code;
	}
	printf("%s\n", jobs.command);
	lab_bench_jobs_release(&jobs);
	return 0;
}
