/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench-pool.h"
#include "lab/bench-remote.h"
#include "lab/str.h"

/*
 * lab bench HOST --pool NAME: over the host's provisioning SSH connection,
 * one scratch dataset NAME/lab-bench-PID-K a combination of the --set
 * values, the fio jobs on a file in it --repeat times, the dataset
 * destroyed after. Every dataset is created before any fio runs, so a
 * value zfs refuses stops the run before it has measured anything; on
 * any failure the datasets not yet destroyed are destroyed over the
 * connection, or over a new one when it dropped, and what could not be
 * is named with the exact command (run->left).
 */

#define CHECK_MS	(90 * 1000)	/* zpool list, zfs create, destroy */

struct pool_state {
	const struct lab_pool_req	*req;
	struct lab_ssh			*s;	/* NULL: dropped */
	const char			*host;
	int				*made;	/* dataset k exists */
};

/* "'tank/lab-bench-1-0'" into b */
static char *
quoted(const char *s)
{
	struct lab_buf	b;

	lab_buf_init(&b);
	lab_sh_quote(&b, s);
	if (b.oom) {
		lab_buf_release(&b);
		return NULL;
	}
	return lab_buf_steal(&b);
}

/* The first line of what a failed command said on stderr. */
static void
first_line(const struct lab_bench_output *o, char *buf, size_t n)
{
	const char	*s = o->err_tail != NULL && *o->err_tail != '\0' ?
	    o->err_tail : o->out != NULL && *o->out != '\0' ? o->out : NULL;

	if (s == NULL)
		snprintf(buf, n, "exit status %d", o->exit_status);
	else
		snprintf(buf, n, "%.*s", (int)strcspn(s, "\n"), s);
}

/*
 * Runs cmd; 0 with out filled (any exit status), -1 with err when the
 * link or the deadline failed (then the connection is closed).
 */
static int
run_cmd(struct pool_state *ps, const char *cmd, int timeout_ms,
    struct lab_bench_output *out, struct lab_err *err)
{
	if (ps->s == NULL) {
		memset(out, 0, sizeof(*out));
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: the connection "
		    "is gone", ps->host);
	}
	if (lab_bench_run(ps->s, ps->host, cmd, timeout_ms, ps->req->ctx, out,
	    err) == -1) {
		lab_ssh_close(ps->s);
		ps->s = NULL;
		return -1;
	}
	return 0;
}

/*
 * Destroys dataset ds (gone already counts): zfs-fuse may call a dataset
 * whose file was just closed busy, so -f (unmount it first: it is ours)
 * if not, and "busy" waited out 30 s.
 */
static int
destroy(struct pool_state *ps, const char *ds, struct lab_err *err)
{
	struct lab_bench_output	 o;
	char			*q = quoted(ds), *cmd;
	int			 rc;

	if (q == NULL)
		return lab_err_oom(err);
	if ((cmd = lab_asprintf("i=0; while zfs list -H -o name %s >/dev/null "
	    "2>&1; do zfs destroy %s 2>/dev/null || zfs destroy -f %s "
	    "2>/dev/null && exit 0; i=$((i + 1)); [ $i -lt 60 ] || "
	    "{ zfs destroy -f %s; exit 1; }; sleep 0.5; done", q, q, q,
	    q)) == NULL) {
		free(q);
		return lab_err_oom(err);
	}
	free(q);
	rc = run_cmd(ps, cmd, CHECK_MS, &o, err);
	free(cmd);
	if (rc == 0 && o.exit_status != 0) {
		char	why[256];

		first_line(&o, why, sizeof(why));
		rc = lab_err_set(err, LAB_EXIT_PARTIAL, "%s: zfs destroy %s: "
		    "%s", ps->host, ds, why);
	}
	lab_bench_output_free(&o);
	return rc;
}

/*
 * Destroys every dataset still made, over a new connection when the link
 * dropped; what is left goes into run->left as the commands to run.
 */
static void
cleanup(struct pool_state *ps, struct lab_pool_run *run)
{
	struct lab_buf	left;
	struct lab_err	e;
	size_t		k;

	lab_err_init(&e);
	if (ps->s == NULL) {
		for (k = 0; k < run->ncombos && !ps->made[k]; k++)
			;
		if (k < run->ncombos &&
		    lab_bench_connect(ps->req->ctx, ps->req->host, 0, &ps->s,
		    NULL, &e) == -1)
			ps->s = NULL;
	}
	lab_buf_init(&left);
	for (k = 0; k < run->ncombos; k++) {
		if (!ps->made[k])
			continue;
		lab_err_init(&e);
		if (destroy(ps, run->combos[k].dataset, &e) == 0) {
			ps->made[k] = 0;
			continue;
		}
		lab_buf_addf(&left, "%szfs destroy -f %s", left.len > 0 ? "; " :
		    "", run->combos[k].dataset);
	}
	if (left.len > 0 && !left.oom)
		run->left = lab_buf_steal(&left);
	lab_buf_release(&left);
}

/* The mount point of dataset ds into *ret. */
static int
mountpoint(struct pool_state *ps, const char *ds, char **ret,
    struct lab_err *err)
{
	struct lab_bench_output	 o;
	char			*q = quoted(ds), *cmd;
	int			 rc;

	*ret = NULL;
	if (q == NULL || (cmd = lab_asprintf("zfs get -H -o value mountpoint "
	    "%s", q)) == NULL) {
		free(q);
		return lab_err_oom(err);
	}
	free(q);
	rc = run_cmd(ps, cmd, CHECK_MS, &o, err);
	free(cmd);
	if (rc == -1)
		return -1;
	o.out[strcspn(o.out, "\n")] = '\0';
	if (o.exit_status != 0 || o.out[0] != '/') {
		char	why[256];

		first_line(&o, why, sizeof(why));
		rc = lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s is not mounted "
		    "(mountpoint %s): give the pool a mount point", ps->host,
		    ds, o.exit_status == 0 ? o.out : why);
	} else if ((*ret = strdup(o.out)) == NULL)
		rc = lab_err_oom(err);
	lab_bench_output_free(&o);
	return rc;
}

/* Checks the pool and reads its free bytes. */
static int
check_pool(struct pool_state *ps, uint64_t *avail, struct lab_err *err)
{
	struct lab_bench_output	 o;
	char			*q = quoted(ps->req->pool), *cmd, *end;
	char			 why[256];
	int			 rc;

	if (q == NULL || (cmd = lab_asprintf("zpool list -H -o name %s && "
	    "zfs get -Hp -o value available %s", q, q)) == NULL) {
		free(q);
		return lab_err_oom(err);
	}
	free(q);
	rc = run_cmd(ps, cmd, CHECK_MS, &o, err);
	free(cmd);
	if (rc == -1)
		return -1;
	if (o.exit_status != 0) {
		first_line(&o, why, sizeof(why));
		rc = lab_err_set(err, LAB_EXIT_INPUT, "%s: no pool '%s': %s",
		    ps->host, ps->req->pool, why);
	} else {
		const char	*v = strchr(o.out, '\n');

		*avail = v != NULL ? strtoull(v + 1, &end, 10) : 0;
		if (v == NULL || end == v + 1)
			rc = lab_err_set(err, LAB_EXIT_PARTIAL, "%s: pool '%s': "
			    "zfs get available said nothing", ps->host,
			    ps->req->pool);
	}
	lab_bench_output_free(&o);
	return rc;
}

/* Creates combination k's dataset; a refusal is the user's input. */
static int
create(struct pool_state *ps, const struct lab_pool_run *run, size_t k,
    struct lab_err *err)
{
	struct lab_bench_output	 o;
	char			*opts, *q, *cmd = NULL;
	char			 why[512];
	int			 rc;

	opts = lab_pool_combo_opts(ps->req->sets, k);
	q = quoted(run->combos[k].dataset);
	if (opts == NULL || q == NULL || (cmd = lab_asprintf("zfs create %s "
	    "%s", opts, q)) == NULL) {
		free(opts);
		free(q);
		return lab_err_oom(err);
	}
	free(opts);
	free(q);
	rc = run_cmd(ps, cmd, CHECK_MS, &o, err);
	free(cmd);
	if (rc == -1)
		return -1;
	if (o.exit_status == 0)
		ps->made[k] = 1;
	else {
		first_line(&o, why, sizeof(why));
		rc = lab_err_set(err, LAB_EXIT_INPUT, "%s: %s: %s", ps->host,
		    run->combos[k].set, why);
	}
	lab_bench_output_free(&o);
	return rc;
}

/* One repeat of the jobs on file, its results in *res. */
static int
repeat_once(struct pool_state *ps, const char *file, uint64_t size,
    struct lab_bench_result **res, size_t *nres, struct lab_err *err)
{
	const struct lab_pool_req	*req = ps->req;
	struct lab_bench_job_target	 t;
	struct lab_bench_output		 o;
	char				*cmd, where[512], why[256];
	int				 rc, ms;

	if (lab_pool_fio_command(file, size, req->runtime_s, req->ramp_s,
	    &cmd, err) == -1)
		return -1;
	/* the jobs, laying the file out at 1 MB/s at worst, and a minute */
	ms = (4 * (req->runtime_s + req->ramp_s) + 60 +
	    (int)(size / 1000000)) * 1000;
	rc = run_cmd(ps, cmd, ms, &o, err);
	free(cmd);
	if (rc == -1)
		return -1;
	snprintf(where, sizeof(where), "%s:%s", ps->host, file);
	if (o.exit_status != 0) {
		first_line(&o, why, sizeof(why));
		rc = lab_err_set(err, LAB_EXIT_PARTIAL, "%s: fio: %s", where,
		    why);
	} else {
		memset(&t, 0, sizeof(t));
		t.kind = LAB_BENCH_TARGET_FILE;
		t.path = file;
		t.file_size = size;
		t.why = "a scratch dataset of the pool";
		rc = lab_bench_fio_parse(o.out, o.outlen, where, &t, res, nres,
		    err);
	}
	lab_bench_output_free(&o);
	return rc;
}

static void
results_free(struct lab_bench_result *r, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		lab_bench_result_release(&r[i]);
	free(r);
}

static const enum lab_bench_test order[] = { LAB_BENCH_SEQ_WRITE,
	LAB_BENCH_SEQ_READ, LAB_BENCH_RAND_READ, LAB_BENCH_RAND_WRITE };

/* Combination k: the repeats, the medians, the dataset destroyed. */
static int
bench_combo(struct pool_state *ps, struct lab_pool_run *run, size_t k,
    uint64_t size, struct lab_err *err)
{
	const struct lab_pool_req	*req = ps->req;
	struct lab_pool_combo		*c = &run->combos[k];
	struct lab_bench_result		*res[LAB_POOL_MAX_REPEAT] = { 0 };
	size_t				 nres[LAB_POOL_MAX_REPEAT] = { 0 };
	const struct lab_bench_result	*by[LAB_POOL_MAX_REPEAT];
	char				*mnt = NULL, *file = NULL;
	size_t				 i, j, m;
	int				 r, rc = -1;

	if (mountpoint(ps, c->dataset, &mnt, err) == -1)
		return -1;
	if ((file = lab_asprintf("%s/lab-bench.fio", mnt)) == NULL) {
		free(mnt);
		return lab_err_oom(err);
	}
	free(mnt);
	for (r = 0; r < req->repeat; r++) {
		if (req->progress != NULL)
			req->progress(req->progress_arg, k, run->ncombos, r);
		if (repeat_once(ps, file, size, &res[r], &nres[r], err) == -1)
			goto out;
	}
	for (i = 0; i < LAB_ARRAY_SIZE(order); i++) {
		for (m = 0, r = 0; r < req->repeat; r++)
			for (j = 0; j < nres[r]; j++)
				if (res[r][j].test == order[i])
					by[m++] = &res[r][j];
		if (m == 0)
			continue;
		lab_pool_summarise(order[i], by, m, &c->tests[c->ntests++]);
	}
	rc = destroy(ps, c->dataset, err);
	if (rc == 0)
		ps->made[k] = 0;
out:
	for (r = 0; r < req->repeat; r++)
		results_free(res[r], nres[r]);
	free(file);
	return rc;
}

static int
fill_run(const struct lab_pool_req *req, struct lab_pool_run *run,
    struct lab_err *err)
{
	size_t	k, n = req->sets->ncombos;

	run->host = strdup(req->host->name);
	run->pool = strdup(req->pool);
	run->props = lab_pool_sets_props(req->sets);
	run->repeat = req->repeat;
	run->status = LAB_BENCH_RUNNING;
	if ((run->combos = calloc(n, sizeof(*run->combos))) == NULL ||
	    run->host == NULL || run->pool == NULL || run->props == NULL)
		return lab_err_oom(err);
	for (k = 0; k < n; k++) {
		run->ncombos++;
		run->combos[k].set = lab_pool_combo_text(req->sets, k);
		if (run->combos[k].set == NULL ||
		    (run->combos[k].dataset = lab_asprintf("%s/lab-bench-%ld-%zu",
		    req->pool, req->pid, k)) == NULL)
			return lab_err_oom(err);
	}
	return 0;
}

int
lab_bench_pool(const struct lab_pool_req *req, struct lab_pool_run *run,
    struct lab_err *err)
{
	const struct lab_ctx	*ctx = req->ctx != NULL ? req->ctx :
	    lab_ctx_default();
	struct pool_state	 ps;
	uint64_t		 avail = 0, size;
	size_t			 k;
	int			 rc = -1, created = 0;

	memset(run, 0, sizeof(*run));
	memset(&ps, 0, sizeof(ps));
	ps.req = req;
	ps.host = req->host->name;
	if (req->repeat < 1 || req->repeat > LAB_POOL_MAX_REPEAT)
		return lab_err_set(err, LAB_EXIT_INPUT, "--repeat %d: give 1 to "
		    "%d", req->repeat, LAB_POOL_MAX_REPEAT);
	if (fill_run(req, run, err) == -1)
		goto out;
	if ((ps.made = calloc(run->ncombos, sizeof(*ps.made))) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	if (lab_bench_connect(ctx, req->host, 0, &ps.s, NULL, err) == -1) {
		ps.s = NULL;
		goto out;
	}
	if (check_pool(&ps, &avail, err) == -1 || req->check_only) {
		rc = req->check_only && err->code == LAB_EXIT_OK ? 0 : -1;
		goto out;
	}
	/* half the free space (copies, metadata), whole MiB */
	size = avail / 2;
	if (req->max_size > 0 && size > req->max_size)
		size = req->max_size;
	size &= ~((UINT64_C(1) << 20) - 1);
	if (size < (UINT64_C(2) << 20)) {
		lab_err_set(err, LAB_EXIT_INPUT, "%s: pool '%s' has %" PRIu64
		    " bytes free: the bench needs a file of at least 2 MiB",
		    ps.host, req->pool, avail);
		goto out;
	}
	for (k = 0; k < run->ncombos; k++)
		if (create(&ps, run, k, err) == -1)
			goto out;
	created = 1;
	run->started_at = ctx->wall();
	for (k = 0; k < run->ncombos; k++)
		if (bench_combo(&ps, run, k, size, err) == -1)
			goto out;
	rc = 0;
out:
	if (ps.made != NULL)
		cleanup(&ps, run);
	if (rc == 0 && run->left != NULL)
		rc = lab_err_set(err, LAB_EXIT_PARTIAL, "%s: could not destroy "
		    "the scratch datasets: run %s", ps.host, run->left);
	if (created) {
		run->finished_at = ctx->wall();
		run->status = rc == 0 ? LAB_BENCH_DONE : LAB_BENCH_FAILED;
		if (rc == -1 && (run->message = strdup(err->msg)) == NULL)
			lab_err_oom(err);
	} else
		run->started_at = 0;
	if (ps.s != NULL)
		lab_ssh_close(ps.s);
	free(ps.made);
	return rc;
}
