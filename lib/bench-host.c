/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab bench of hosts: see include/lab/bench-host.h. One disk at a time on
 * a host (so that disks on one controller or bus never share it and mask
 * each other: the inventory's controller is not trusted to name every
 * shared path), the hosts at once through the fan-out engine.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/bench-host.h"
#include "lab/fanout.h"
#include "lab/macro.h"
#include "lab/reason.h"

#define SMART_TIMEOUT_MS	60000
#define DF_TIMEOUT_MS		30000
#define FIO_MARGIN_MS		120000
#define HISTORY_RUNS		20
#define FILE_MAX_BYTES		(UINT64_C(1) << 40)
#define FILE_MIN_BYTES		(UINT64_C(16) << 20)

static void
slot_list(const struct lab_host *h, char *buf, size_t size)
{
	size_t	i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < h->ndisks && len + 1 < size; i++) {
		int	n = snprintf(buf + len, size - len, "%s%s",
			    i ? " " : "", h->disks[i].slot);

		if (n < 0)
			break;
		len += (size_t)n;
	}
}

static int
no_slot(const struct lab_host *h, const char *slot, struct lab_err *err)
{
	const char	*cands[256];
	const char	*near;
	char		 slots[512];
	size_t		 i, n = 0;

	for (i = 0; i < h->ndisks && n < LAB_ARRAY_SIZE(cands); i++)
		cands[n++] = h->disks[i].slot;
	if ((near = lab_suggest(slot, cands, n)) != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disk "
		    "in slot '%s'; did you mean '%s'?", h->name, slot, near);
	slot_list(h, slots, sizeof(slots));
	return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disk in "
	    "slot '%s' (its slots: %s)", h->name, slot, slots);
}

static int
add_disk(const struct lab_host *h, const struct lab_disk *d,
    const struct lab_disk ***ret, size_t *nret, struct lab_err *err)
{
	const struct lab_disk	**p;

	if (d->device == NULL || *d->device == '\0')
		return lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: the disk in "
		    "slot %s of host '%s' has no 'device': lab cannot bench "
		    "it", d->loc.file != NULL ? d->loc.file : "inventory",
		    d->loc.line, d->loc.col, d->slot, h->name);
	if ((p = lab_push(ret, nret, sizeof(*p))) == NULL)
		return lab_err_oom(err);
	*p = d;
	return 0;
}

int
lab_bench_host_disks(const struct lab_host *h, const char *const *slots,
    size_t nslots, const struct lab_disk ***ret, size_t *nret,
    struct lab_err *err)
{
	size_t	i, k;

	*ret = NULL;
	*nret = 0;
	if (h->ssh == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no ssh: "
		    "block in the inventory (address, port, user, identity, "
		    "known_hosts): lab cannot reach it", h->name);
	if (h->ndisks == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disks "
		    "in the inventory: nothing to bench", h->name);
	for (k = 0; k < nslots; k++) {
		for (i = 0; i < h->ndisks; i++)
			if (strcmp(h->disks[i].slot, slots[k]) == 0)
				break;
		if (i == h->ndisks)
			goto fail_slot;
	}
	for (i = 0; i < h->ndisks; i++) {
		for (k = 0; k < nslots; k++)
			if (strcmp(h->disks[i].slot, slots[k]) == 0)
				break;
		if (nslots > 0 && k == nslots)
			continue;
		if (add_disk(h, &h->disks[i], ret, nret, err) == -1)
			goto fail;
	}
	return 0;
fail_slot:
	no_slot(h, slots[k], err);
fail:
	free(*ret);
	*ret = NULL;
	*nret = 0;
	return -1;
}

/* The first line of s, at most max bytes, or "". */
static void
first_line(const char *s, char *buf, size_t size)
{
	size_t	n;

	if (s == NULL)
		s = "";
	/* the last non-empty line: what a command says last is its why */
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	{
		const char	*e = s + n, *b = e;

		while (b > s && b[-1] != '\n')
			b--;
		snprintf(buf, size, "%.*s", (int)(e - b), b);
	}
}

int
lab_bench_smart(struct lab_ssh *s, const char *host, const char *dev,
    struct lab_smart *smart, struct lab_err *err)
{
	struct lab_bench_output	 o;
	struct lab_err		 perr;
	struct lab_buf		 cmd;
	char			 why[300], where[300];
	int			 rc;

	lab_smart_init(smart);
	lab_buf_init(&cmd);
	lab_buf_adds(&cmd, "smartctl -i -H -A -j ");
	lab_sh_quote(&cmd, dev);
	if (cmd.oom) {
		lab_buf_release(&cmd);
		return lab_err_oom(err);
	}
	rc = lab_bench_run(s, host, cmd.s, SMART_TIMEOUT_MS, NULL, &o, err);
	lab_buf_release(&cmd);
	if (rc == -1)
		return -1;
	snprintf(where, sizeof(where), "%s:%s", host, dev);
	lab_err_init(&perr);
	if (o.outlen > 0 && lab_smart_parse(o.out, o.outlen, where, smart,
	    &perr) == 0) {
		lab_bench_output_free(&o);
		return 0;
	}
	lab_smart_release(smart);
	if (o.exit_status == 127)
		snprintf(why, sizeof(why), "smartctl is not installed on %s "
		    "(smartmontools)", host);
	else if (o.outlen == 0) {
		char	line[200];

		first_line(o.err_tail, line, sizeof(line));
		snprintf(why, sizeof(why), "smartctl exited with status %d%s%s",
		    o.exit_status, line[0] != '\0' ? ": " : "", line);
	} else
		snprintf(why, sizeof(why), "%s", perr.msg);
	lab_bench_output_free(&o);
	if ((smart->message = strdup(why)) == NULL)
		return lab_err_oom(err);
	return 0;
}

void
lab_bench_disk_plan(const struct lab_disk *d, const struct lab_disk_state *st,
    const char *tag, uint64_t file_size, int runtime_s,
    struct lab_bench_disk_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->dev.kind = LAB_BENCH_TARGET_DEVICE;
	p->dev.path = d->device;
	p->dev.runtime_s = runtime_s;
	if (st == NULL || st->use == LAB_DISK_FREE)
		return;
	p->dev.read_only = 1;
	p->dev.why = p->why;
	if (st->use != LAB_DISK_MOUNTED || st->mount[0] != '/') {
		snprintf(p->why, sizeof(p->why), "%s: reads only, the writes "
		    "dropped", st->reason);
		return;
	}
	if (file_size < FILE_MIN_BYTES) {
		snprintf(p->why, sizeof(p->why), "%s: no room for a file of "
		    "16 MiB there: reads only, the writes dropped", st->reason);
		return;
	}
	snprintf(p->why, sizeof(p->why), "%s: the writes into a file on its "
	    "filesystem", st->reason);
	snprintf(p->file_path, sizeof(p->file_path), "%s%s.lab-bench-%s.fio",
	    st->mount, st->mount[strlen(st->mount) - 1] == '/' ? "" : "/",
	    tag);
	p->has_file = 1;
	p->file.kind = LAB_BENCH_TARGET_FILE;
	p->file.path = p->file_path;
	p->file.file_size = file_size > FILE_MAX_BYTES ? FILE_MAX_BYTES :
	    file_size;
	p->file.why = p->why;
	p->file.runtime_s = runtime_s;
}

/* Half the room left on the filesystem of mount (df), in bytes; 0: none
 * or unknown. */
static int
file_room(struct lab_ssh *s, const char *host, const char *mount,
    uint64_t *ret, struct lab_err *err)
{
	struct lab_bench_output	 o;
	struct lab_buf		 cmd;
	unsigned long long	 kib;
	char			*end;
	int			 rc;

	*ret = 0;
	lab_buf_init(&cmd);
	lab_buf_adds(&cmd, "df -Pk -- ");
	lab_sh_quote(&cmd, mount);
	lab_buf_adds(&cmd, " | awk 'NR == 2 { print $4 }'");
	if (cmd.oom) {
		lab_buf_release(&cmd);
		return lab_err_oom(err);
	}
	rc = lab_bench_run(s, host, cmd.s, DF_TIMEOUT_MS, NULL, &o, err);
	lab_buf_release(&cmd);
	if (rc == -1)
		return -1;
	if (o.exit_status == 0 && o.out != NULL && o.out[0] >= '0' &&
	    o.out[0] <= '9') {
		errno = 0;
		kib = strtoull(o.out, &end, 10);
		if (errno == 0 && (*end == '\0' || (*end == '\n' &&
		    end[1] == '\0')) && kib < (1ULL << 50))
			*ret = (uint64_t)kib * 1024 / 2;
	}
	lab_bench_output_free(&o);
	return 0;
}

static int
jobs_time_ms(const struct lab_bench_jobs *j, enum lab_bench_profile profile,
    int runtime_s)
{
	int	i, n = 0, each;

	for (i = 0; i < LAB_BENCH_NTESTS; i++)
		n += j->runs[i];
	each = runtime_s > 0 ? runtime_s : profile == LAB_BENCH_FULL ? 60 : 10;
	if (profile == LAB_BENCH_FULL)
		each += 5;
	return n * each * 1000 + FIO_MARGIN_MS;
}

/*
 * Runs the fio jobs of t and parses them into *ret. keep_writes: only
 * the write results are kept (a file beside the device's reads). -1 and
 * LAB_EXIT_PARTIAL when the link dropped, the deadline passed, fio failed
 * or said what is not its JSON.
 */
static int
run_fio(struct lab_ssh *s, const char *host, const struct lab_bench_req *req,
    const struct lab_bench_job_target *t, int writes_only,
    struct lab_bench_disk *d, struct lab_err *err)
{
	struct lab_bench_jobs	 jobs;
	struct lab_bench_output	 o;
	struct lab_bench_result	*res = NULL, *r;
	struct lab_buf		 cmd;
	char			 where[300], why[300];
	size_t			 i, n = 0;
	int			 rc, timeout;

	if (lab_bench_jobs_build(req->profile, t, &jobs, err) == -1)
		return -1;
	timeout = req->timeout_ms > 0 ? req->timeout_ms :
	    jobs_time_ms(&jobs, req->profile, t->runtime_s);
	lab_buf_init(&cmd);
	if (t->kind == LAB_BENCH_TARGET_FILE) {
		/* the file goes on every path: the end, an error, a hangup */
		lab_buf_adds(&cmd, "f=");
		lab_sh_quote(&cmd, t->path);
		lab_buf_adds(&cmd, "; trap 'rm -f -- \"$f\"' EXIT; "
		    "trap 'exit 129' HUP INT TERM PIPE; ");
	}
	lab_buf_adds(&cmd, jobs.command);
	lab_bench_jobs_release(&jobs);
	if (cmd.oom) {
		lab_buf_release(&cmd);
		return lab_err_oom(err);
	}
	if (req->step != NULL)
		req->step(req->step_arg, host, d->slot, t->kind ==
		    LAB_BENCH_TARGET_FILE ? "fio on a file" : "fio");
	rc = lab_bench_run(s, host, cmd.s, timeout, NULL, &o, err);
	lab_buf_release(&cmd);
	if (rc == -1)
		return -1;
	snprintf(where, sizeof(where), "%s:%s", host, t->path);
	if (o.exit_status != 0) {
		first_line(o.err_tail, why, sizeof(why));
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: fio exited with status "
		    "%d%s%s%s%s%s", where, o.exit_status, o.signal ?
		    " (signal " : "", o.signal ? o.signal : "", o.signal ?
		    ")" : "", why[0] != '\0' ? ": " : "", why);
		lab_bench_output_free(&o);
		return -1;
	}
	rc = lab_bench_fio_parse(o.out, o.outlen, where, t, &res, &n, err);
	lab_bench_output_free(&o);
	if (rc == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (writes_only && !lab_bench_test_writes(res[i].test)) {
			lab_bench_result_release(&res[i]);
			continue;
		}
		if ((r = lab_push(&d->results, &d->nresults,
		    sizeof(*r))) == NULL) {
			for (; i < n; i++)
				lab_bench_result_release(&res[i]);
			free(res);
			return lab_err_oom(err);
		}
		*r = res[i];
		/* why: why a file; a device's result has none */
		if (r->target_kind == LAB_BENCH_TARGET_DEVICE) {
			free(r->why);
			r->why = NULL;
		}
	}
	free(res);
	return 0;
}

static int
copy(char **dst, const char *src, struct lab_err *err)
{
	if (src == NULL)
		return 0;
	if ((*dst = strdup(src)) == NULL)
		return lab_err_oom(err);
	return 0;
}

/* One disk: SMART, the free-disk check, the jobs. */
static int
bench_disk(struct lab_ssh *s, const struct lab_host *h,
    const struct lab_disk *dk, const struct lab_bench_req *req,
    const char *tag, struct lab_bench_disk *d, struct lab_err *err)
{
	struct lab_bench_disk_plan	*p;
	struct lab_disk_state		 st;
	uint64_t			 room = 0;
	int				 rc = -1;

	if (copy(&d->host, h->name, err) == -1 ||
	    copy(&d->slot, dk->slot, err) == -1 ||
	    copy(&d->device, dk->device, err) == -1 ||
	    copy(&d->kind, dk->kind, err) == -1 ||
	    copy(&d->controller, dk->controller, err) == -1)
		return -1;
	if (req->step != NULL)
		req->step(req->step_arg, h->name, dk->slot, "smart");
	if (lab_bench_smart(s, h->name, dk->device, &d->smart, err) == -1)
		return -1;
	if (copy(&d->serial, d->smart.serial, err) == -1 ||
	    copy(&d->model, d->smart.model, err) == -1)
		return -1;
	if (req->step != NULL)
		req->step(req->step_arg, h->name, dk->slot, "free-disk check");
	if (lab_bench_disk_check(s, h->name, dk->slot, dk->device, &st,
	    err) == -1)
		return -1;
	if (st.use == LAB_DISK_MISSING) {
		/* nothing to measure: said, kept, not a failure of the run */
		if ((d->skipped = lab_asprintf("%s: not benched",
		    st.reason)) == NULL)
			return lab_err_oom(err);
		return 0;
	}
	if (st.use == LAB_DISK_MOUNTED && st.mount[0] == '/' &&
	    file_room(s, h->name, st.mount, &room, err) == -1)
		return -1;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return lab_err_oom(err);
	lab_bench_disk_plan(dk, &st, tag, room, req->runtime_s, p);
	if (p->why[0] != '\0' && (d->skipped = strdup(p->why)) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	if (run_fio(s, h->name, req, &p->dev, 0, d, err) == -1)
		goto out;
	if (p->has_file && run_fio(s, h->name, req, &p->file, 1, d, err) == -1)
		goto out;
	rc = 0;
out:
	free(p);
	return rc;
}

struct run {
	const struct lab_ctx		*ctx;
	const struct lab_bench_req	*req;
	struct lab_fanout_job		 job;
};

static void
work(void *arg, const void *item, void *res)
{
	struct run			*run = arg;
	const struct lab_host		*h = item;
	struct lab_bench_host_result	*r = res;
	const struct lab_disk		**disks = NULL;
	struct lab_ssh			*s = NULL;
	struct lab_bench_disk		*d;
	char				 tag[64];
	size_t				 i, n = 0;

	r->run.host = strdup(h->name);
	r->run.profile = strdup(lab_bench_profile_name(run->req->profile));
	r->run.started_at = run->ctx->wall();
	r->run.status = LAB_BENCH_RUNNING;
	if (h->ssh != NULL)
		r->addr = lab_asprintf("%s:%d", h->ssh->address,
		    h->ssh->port > 0 ? h->ssh->port : LAB_SSH_PORT);
	if (r->run.host == NULL || r->run.profile == NULL ||
	    (h->ssh != NULL && r->addr == NULL)) {
		lab_err_oom(&r->err);
		goto fail;
	}
	snprintf(tag, sizeof(tag), "%" PRId64 "-%ld", r->run.started_at,
	    (long)getpid());
	if (lab_bench_host_disks(h, run->req->slots, run->req->nslots,
	    &disks, &n, &r->err) == -1)
		goto fail;
	if (lab_bench_connect(run->ctx, h, run->req->accept_new, &s, &r->key,
	    &r->err) == -1)
		goto fail;
	for (i = 0; i < n; i++) {
		if ((d = lab_push(&r->run.disks.v, &r->run.disks.n,
		    sizeof(*d))) == NULL) {
			lab_err_oom(&r->err);
			goto fail;
		}
		lab_bench_disk_init(d);
		if (bench_disk(s, h, disks[i], run->req, tag, d, &r->err) == -1)
			goto fail;
	}
	lab_ssh_close(s);
	free(disks);
	r->ok = 1;
	r->run.status = LAB_BENCH_DONE;
	r->run.finished_at = run->ctx->wall();
	return;
fail:
	if (s != NULL)
		lab_ssh_close(s);
	free(disks);
	/* a failed run keeps no partial result */
	lab_bench_disks_release(&r->run.disks);
	r->ok = 0;
	r->run.status = LAB_BENCH_FAILED;
	r->run.finished_at = run->ctx->wall();
	if (r->err.code == LAB_EXIT_OK)
		lab_err_set(&r->err, LAB_EXIT_PARTIAL, "%s: failed", h->name);
	r->run.message = strdup(r->err.msg);
}

int
lab_bench_hosts(const struct lab_ctx *ctx, const struct lab_inventory *inv,
    const struct lab_strv *hosts, const struct lab_bench_req *req,
    struct lab_bench_host_result **ret, struct lab_err *err)
{
	struct run	run = { .ctx = ctx != NULL ? ctx : lab_ctx_default(),
			    .req = req,
			    .job = LAB_FANOUT_JOB(ctx,
			    struct lab_bench_host_result, host, work, &run) };

	*ret = NULL;
	if (lab_fanout_job_run(&run.job, hosts, lab_inventory_find_host, inv,
	    req->fanout > 0 ? req->fanout : LAB_FANOUT_DEFAULT, err) == -1)
		return -1;
	*ret = run.job.res;
	return 0;
}

void
lab_bench_host_results_free(struct lab_bench_host_result *res, size_t n)
{
	size_t	i;

	if (res == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(res[i].host);
		free(res[i].addr);
		lab_bench_run_release(&res[i].run);
	}
	free(res);
}

static int
add_peers(const struct lab_bench_disks *from, struct lab_bench_disk **v,
    size_t *n, struct lab_err *err)
{
	struct lab_bench_disk	*d;
	size_t			 i;

	for (i = 0; i < from->n; i++) {
		if ((d = lab_push(v, n, sizeof(*d))) == NULL)
			return lab_err_oom(err);
		*d = from->v[i];	/* a view: owned by from */
	}
	return 0;
}

int
lab_bench_host_findings(struct lab_db *db, const struct lab_inventory *inv,
    const struct lab_bench_host_result *res, size_t n, size_t i,
    struct lab_bench_findings *out, struct lab_err *err)
{
	const struct lab_bench_run	*run = &res[i].run;
	struct lab_bench_findings_in	 in;
	struct lab_bench_disk		*others = NULL;
	struct lab_bench_disks		*hist = NULL;
	struct lab_bench_run		*last = NULL;
	size_t				 nothers = 0, nlast = 0, j, k;
	int				 rc = -1;

	if (!res[i].ok || run->disks.n == 0)
		return 0;
	for (j = 0; j < n; j++)
		if (j != i && res[j].ok &&
		    add_peers(&res[j].run.disks, &others, &nothers, err) == -1)
			goto out;
	/* the last runs of the hosts not in this bench */
	if ((last = calloc(inv->nhosts + 1, sizeof(*last))) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (j = 0; j < inv->nhosts; j++) {
		for (k = 0; k < n; k++)
			if (strcmp(res[k].host, inv->hosts[j].name) == 0)
				break;
		if (k < n)
			continue;
		if (lab_db_bench_last(db, inv->hosts[j].name, &last[nlast],
		    err) == -1)
			goto out;
		if (last[nlast].id != 0 && last[nlast].status ==
		    LAB_BENCH_DONE && add_peers(&last[nlast].disks, &others,
		    &nothers, err) == -1) {
			nlast++;
			goto out;
		}
		nlast++;
	}
	if ((hist = calloc(run->disks.n, sizeof(*hist))) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (j = 0; j < run->disks.n; j++)
		if (run->disks.v[j].serial != NULL &&
		    lab_db_bench_history(db, run->disks.v[j].serial,
		    HISTORY_RUNS, &hist[j], err) == -1)
			goto out;
	memset(&in, 0, sizeof(in));
	in.disks = run->disks.v;
	in.ndisks = run->disks.n;
	in.others = others;
	in.nothers = nothers;
	in.history = hist;
	rc = lab_bench_findings(&in, out, err);
out:
	free(others);
	for (j = 0; last != NULL && j < nlast; j++)
		lab_bench_run_release(&last[j]);
	free(last);
	for (j = 0; hist != NULL && j < run->disks.n; j++)
		lab_bench_disks_release(&hist[j]);
	free(hist);
	return rc;
}
