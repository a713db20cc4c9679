/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stddef.h>

#include "bench.h"

static const char *const profile_words[] = { "quick", "full", NULL };

static const struct lab_opt bench_opts[] = {
	{ "profile", "PROFILE", "quick (about 10 s a job, the default) or "
	  "full (past the caches: 5 s warm-up, 60 s a job)", profile_words,
	  0 },
	{ "pool", "NAME", "bench a scratch dataset of the ZFS pool NAME for "
	  "each combination of the --set values" },
	{ "set", "PROP=V1,V2", "with --pool: a ZFS property and the values "
	  "to compare (repeatable)" },
	{ "repeat", "N", "with --pool: runs of each combination (default 3)" },
	{ "runtime", "S", "seconds a fio job runs instead of the profile's "
	  "(1-3600)" },
	{ "timeout", "S", "the deadline of one disk's fio jobs in seconds "
	  "(default: their time plus 120 s)" },
	{ "fanout", "N", "hosts benched at once (default 64)" },
	{ "accept-new", NULL, "trust and record an unknown SSH host key" },
	{ "verbose", NULL, "one line a failed host on stderr instead of the "
	  "folded summary" },
	{ NULL, NULL, NULL },
};

static int
bench_run(struct lab_call *call, struct lab_err *err)
{
	if (cmd_opt(call, "pool") != NULL)
		return cmd_bench_pool(call, err);
	return cmd_bench_disks(call, err);
}

static const struct lab_verb bench_verbs[] = {
	{ .name = NULL, .args = "TARGET... [SLOT...]", .min = 1,
	  .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_DRYRUN | LAB_VERB_TARGETS |
		LAB_VERB_MUTATES | LAB_VERB_CONFIRMS,
	  .run = bench_run, .opts = bench_opts,
	  .summary = "benchmark disks over SSH with fio (writes only on "
		"free disks), read SMART, keep the results and say which "
		"disk is slow" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_bench = {
	.name = "bench",
	.summary = "benchmark disks and ZFS settings, with history",
	.verbs = bench_verbs,
};
