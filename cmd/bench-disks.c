/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bench.h"

/* STUB: helper 1 (issue 18) writes lab bench TARGET... [SLOT...]. */
int
cmd_bench_disks(struct lab_call *call, struct lab_err *err)
{
	(void)call;
	return lab_err_set(err, LAB_EXIT_INPUT, "bench: not built yet");
}
