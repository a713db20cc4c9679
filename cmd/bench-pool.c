/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/bench-pool.h"
#include "lab/json.h"
#include "lab/target.h"
#include "bench.h"

/*
 * lab bench HOST --pool NAME [--set PROP=V1,V2]... [--repeat N]: the
 * plan (the combinations, the datasets, the fio command), then --yes (it
 * writes to a pool that may be in use: the safety rule, lab(1) SAFETY),
 * then the run over SSH (lib/bench-pool.c), stored, as one table.
 * --dry-run prints the plan without contacting the host, as lab
 * provision's does.
 */

/* The column order of the table and the JSON: the seed's. */
static const enum lab_bench_test cols[] = { LAB_BENCH_SEQ_WRITE,
	LAB_BENCH_SEQ_READ, LAB_BENCH_RAND_READ, LAB_BENCH_RAND_WRITE };

static int
int_opt(const char *name, const char *v, int lo, int hi, int *ret,
    struct lab_err *err)
{
	char	*end;
	long	 n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || n < lo || n > hi)
		return lab_err_set(err, LAB_EXIT_INPUT, "--%s '%s': give a "
		    "number from %d to %d", name, cmd_vis(v), lo, hi);
	*ret = (int)n;
	return 0;
}

/* The profile's job time and file cap; LAB_BENCH_POOL_RUNTIME (seconds)
   shortens a job for tests and small pools. */
static int
profile(struct lab_call *call, struct lab_pool_req *req, struct lab_err *err)
{
	const char	*p = cmd_opt(call, "profile"), *e;
	int		 k = p != NULL ? lab_bench_profile_parse(p) :
	    LAB_BENCH_QUICK;

	if (k < 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "--profile '%s': give "
		    "quick or full", cmd_vis(p));
	if (k == LAB_BENCH_FULL) {
		req->runtime_s = 60;
		req->ramp_s = 5;
		req->max_size = UINT64_C(16) << 30;
	} else {
		req->runtime_s = 10;
		req->max_size = UINT64_C(1) << 30;
	}
	e = getenv("LAB_BENCH_POOL_RUNTIME");
	if (e != NULL && *e != '\0' && int_opt("LAB_BENCH_POOL_RUNTIME", e, 1,
	    3600, &req->runtime_s, err) == -1) {
		lab_err_prefix(err, "environment");
		return -1;
	}
	return 0;
}

static int
print_plan(const struct lab_pool_req *req, FILE *f, struct lab_err *err)
{
	char	*opts, *text, *fio;
	size_t	 k;

	if (lab_pool_fio_command("/MOUNTPOINT/lab-bench.fio", req->max_size,
	    req->runtime_s, req->ramp_s, &fio, err) == -1)
		return -1;
	fprintf(f, "bench of pool %s on %s: %zu combination%s x %d run%s, "
	    "%d s a job%s, each on a file of up to %llu MiB (half the "
	    "pool's free space)\n", req->pool, req->host->name,
	    req->sets->ncombos, req->sets->ncombos == 1 ? "" : "s",
	    req->repeat, req->repeat == 1 ? "" : "s", req->runtime_s,
	    req->ramp_s > 0 ? " after a ramp" : "",
	    (unsigned long long)(req->max_size >> 20));
	fprintf(f, "  check: zpool list -H -o name %s\n", req->pool);
	for (k = 0; k < req->sets->ncombos; k++) {
		opts = lab_pool_combo_opts(req->sets, k);
		text = lab_pool_combo_text(req->sets, k);
		if (opts == NULL || text == NULL) {
			free(opts);
			free(text);
			free(fio);
			return lab_err_oom(err);
		}
		fprintf(f, "  %zu. %s: zfs create %s%s%s/lab-bench-%ld-%zu\n",
		    k + 1, text, opts, *opts ? " " : "", req->pool, req->pid, k);
		free(opts);
		free(text);
	}
	fprintf(f, "  then each in turn: %s\n  and zfs destroy of the dataset "
	    "after its runs (or on any failure)\n", fio);
	free(fio);
	return 0;
}

static int
print_json(const struct lab_pool_run *run, struct lab_err *err)
{
	struct lab_buf	b;
	struct lab_json	j;
	int		rc;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_pool_run_json(&j, run);
	lab_json_end(&j);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc;
}

static void
print_table(const struct lab_pool_run *run)
{
	struct table	t;
	char		c[4][64];
	size_t		k, i;

	table_init(&t, 5, "SETTING", "SEQ-WRITE MB/S", "SEQ-READ MB/S",
	    "RAND-READ IOPS", "RAND-WRITE IOPS");
	for (k = 0; k < run->ncombos; k++) {
		for (i = 0; i < LAB_ARRAY_SIZE(cols); i++)
			lab_pool_cell(c[i], sizeof(c[i]),
			    lab_pool_combo_test(&run->combos[k], cols[i]),
			    i >= 2);
		table_row(&t, run->combos[k].set, c[0], c[1], c[2], c[3]);
	}
	table_print(&t, stdout);
	table_release(&t);
	printf("median ±the largest distance of a run from it, over %d "
	    "run%s a setting (run %lld)\n", run->repeat,
	    run->repeat == 1 ? "" : "s", (long long)run->id);
}

static void
progress(void *arg, size_t k, size_t n, int r)
{
	const struct lab_pool_req	*req = arg;

	fprintf(stderr, "lab: bench: %s: %s: setting %zu of %zu, run %d of "
	    "%d\n", req->host->name, req->pool, k + 1, n, r + 1, req->repeat);
}

int
cmd_bench_pool(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	const char		*words[LAB_MAX_REPEATS];
	const char		*rep = cmd_opt(call, "repeat");
	struct lab_pool_sets	 sets;
	struct lab_pool_req	 req;
	struct lab_pool_run	 run;
	struct lab_ctx		 ctx;
	struct lab_strv		 none;
	struct lab_err		 e;
	size_t			 i, n = cmd_opt_n(call, "set");
	int			 rc;

	memset(&req, 0, sizeof(req));
	req.repeat = 3;
	req.pool = cmd_opt(call, "pool");
	if (call->argc != 1 || call->all)
		return lab_err_set(err, LAB_EXIT_INPUT, "--pool benches the "
		    "pool of one host: give one HOST, no slot");
	if (*req.pool == '\0' || strpbrk(req.pool, "/@# '\"\\\n") != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "--pool '%s': not a "
		    "pool name", cmd_vis(req.pool));
	if (rep != NULL && int_opt("repeat", rep, 1, LAB_POOL_MAX_REPEAT,
	    &req.repeat, err) == -1)
		return -1;
	if (profile(call, &req, err) == -1)
		return -1;
	for (i = 0; i < n; i++)
		words[i] = cmd_opt_i(call, "set", i);
	if (lab_pool_sets_parse(words, n, &sets, err) == -1)
		return -1;
	call->no_audit = !call->yes;	/* a plan only, until confirmed */
	if (cmd_inventory(call, &inv, err) == -1) {
		lab_pool_sets_release(&sets);
		return -1;
	}
	if ((req.host = lab_inventory_host(inv, call->argv[0])) == NULL) {
		if (lab_target_resolve(inv, call->argv, 1, 0, &none, err) == 0) {
			lab_strv_release(&none);
			lab_err_set(err, LAB_EXIT_INPUT, "'%s' is not a host",
			    cmd_vis(call->argv[0]));
		}
		lab_pool_sets_release(&sets);
		return -1;
	}
	lab_ctx_init(&ctx);
	req.ctx = &ctx;
	req.sets = &sets;
	req.pid = (long)getpid();
	req.progress = progress;
	req.progress_arg = &req;
	if (!call->yes && print_plan(&req, stdout, err) == -1) {
		lab_pool_sets_release(&sets);
		return -1;
	}
	if (call->dry_run) {
		fflush(stdout);
		fprintf(stderr, "lab: bench: %s: nothing was run (the host was "
		    "not contacted); --yes runs this plan\n", req.host->name);
		lab_pool_sets_release(&sets);
		return 0;
	}
	if (cmd_confirm(call, "Create and benchmark these scratch datasets?",
	    "this writes to the pool", err) != 1) {
		lab_pool_sets_release(&sets);
		return -1;
	}
	call->no_audit = 0;
	rc = lab_bench_pool(&req, &run, err);
	lab_pool_sets_release(&sets);
	lab_err_init(&e);
	if (run.started_at > 0) {
		if (cmd_db(call, 0, &e) == -1 ||
		    lab_db_pool_store(call->db, &run, &e) == -1) {
			fprintf(stderr, "lab: bench: %s\n", cmd_vis(e.msg));
			if (rc == 0) {
				*err = e;
				rc = -1;
			}
		}
	}
	if (run.left != NULL)
		fprintf(stderr, "lab: bench: %s: scratch datasets left on the "
		    "pool: run on %s: %s\n", req.host->name, req.host->name,
		    cmd_vis(run.left));
	if (rc == 0) {
		if (call->json)
			rc = print_json(&run, err);
		else
			print_table(&run);
	} else if (run.id > 0)
		fprintf(stderr, "lab: bench: %s: run %lld stored as failed\n",
		    req.host->name, (long long)run.id);
	lab_pool_run_release(&run);
	return rc == 0 ? LAB_EXIT_OK : -1;
}
