/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stddef.h>

#include "lab.h"

/* STUB: helper 2 (issue 18) writes lab burnin. */
static int
burnin_run(struct lab_call *call, struct lab_err *err)
{
	(void)call;
	return lab_err_set(err, LAB_EXIT_INPUT, "burnin: not built yet");
}

static const struct lab_verb burnin_verbs[] = {
	{ .name = NULL, .args = "TARGET... [SLOT...]", .min = 1,
	  .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_DRYRUN | LAB_VERB_TARGETS |
		LAB_VERB_MUTATES | LAB_VERB_CONFIRMS,
	  .run = burnin_run, .opts = NULL,
	  .summary = "write and read back the whole surface of free disks, "
		"SMART before and after; refuses any disk in use" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_burnin = {
	.name = "burnin",
	.summary = "destructive full-surface test of free disks",
	.verbs = burnin_verbs,
};
