/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the bench parsers (lib/bench/fio.c, smart.c): any
 * bytes as fio's and as smartctl's JSON. Either parser succeeds with
 * figures in range or fails with a message; nothing leaks or crashes.
 * The corpus holds the recorded fixtures of tests/fixtures/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lab/bench.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_bench_job_target	 t = { LAB_BENCH_TARGET_FILE,
		"/srv/lab.fio", 1 << 20, 0, "mounted" };
	struct lab_bench_result		*r;
	struct lab_smart		 s;
	struct lab_err			 err;
	size_t				 n, i;

	lab_err_init(&err);
	if (lab_bench_fio_parse((const char *)data, size, "fuzz", &t, &r, &n,
	    &err) == 0) {
		if (n == 0 || n > LAB_BENCH_NTESTS)
			abort();
		for (i = 0; i < n; i++) {
			if (!(r[i].mb_s >= 0) || !(r[i].lat_p99_ms >= 0) ||
			    (unsigned)r[i].test >= LAB_BENCH_NTESTS)
				abort();
			lab_bench_result_release(&r[i]);
		}
		free(r);
	} else if (err.msg[0] == '\0')
		abort();
	lab_err_init(&err);
	if (lab_smart_parse((const char *)data, size, "fuzz", &s, &err) == 0) {
		if (s.reallocated < -1 || s.temperature_c < -1)
			abort();
		lab_smart_release(&s);
	} else if (err.msg[0] == '\0')
		abort();
	return 0;
}
