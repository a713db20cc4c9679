/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bench.h"

/* STUB: helper 3 (issue 18) writes lab bench HOST --pool NAME. */
int
cmd_bench_pool(struct lab_call *call, struct lab_err *err)
{
	(void)call;
	return lab_err_set(err, LAB_EXIT_INPUT, "bench --pool: not built yet");
}
