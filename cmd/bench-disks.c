/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab bench TARGET... [SLOT...]: fio on each disk of the hosts over SSH
 * (lib/bench-host.c), the table or JSON, the findings, the runs stored.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/bench-host.h"
#include "lab/fanout.h"
#include "lab/json.h"
#include "lab/parse.h"
#include "lab/reason.h"
#include "lab/render.h"
#include "lab/target.h"
#include "lab/text.h"
#include "bench.h"
#include "stream.h"

struct bench {
	struct lab_call			*call;
	struct lab_inventory		*inv;
	struct lab_strv			 hosts;
	struct lab_strv			 slots;
	struct lab_bench_req		 req;
	struct lab_bench_host_result	*res;
	struct lab_bench_findings	*found;	/* one list a host */
	pthread_mutex_t			 lock;
	int				 steps;	/* stderr is a terminal */
};

static int
parse_opts(struct bench *b, struct lab_err *err)
{
	struct lab_call	*call = b->call;
	const char	*s;
	const char	*const words[] = { "quick", "full" };
	const char	*near;
	long		 v;
	int		 p;

	if (cmd_opt(call, "set") != NULL || cmd_opt(call, "repeat") != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "--set and --repeat "
		    "go with --pool NAME (the ZFS settings table)");
	b->req.profile = LAB_BENCH_QUICK;
	if ((s = cmd_opt(call, "profile")) != NULL) {
		if ((p = lab_bench_profile_parse(s)) == -1) {
			near = lab_suggest(s, words, 2);
			return lab_err_set(err, LAB_EXIT_INPUT, "--profile: "
			    "unknown profile '%s'%s%s%s: quick or full", s,
			    near ? "; did you mean '" : "", near ? near : "",
			    near ? "'?" : "");
		}
		b->req.profile = (enum lab_bench_profile)p;
	}
	if ((s = cmd_opt(call, "runtime")) != NULL) {
		if (lab_parse_int(s, 1, 3600, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--runtime "
			    "takes seconds a job from 1 to 3600, not '%s'", s);
		b->req.runtime_s = (int)v;
	}
	if ((s = cmd_opt(call, "timeout")) != NULL) {
		if (lab_parse_int(s, 1, 86400, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--timeout "
			    "takes seconds from 1 to 86400, not '%s'", s);
		b->req.timeout_ms = (int)v * 1000;
	}
	if ((s = cmd_opt(call, "fanout")) != NULL ||
	    (s = cmd_setting(LAB_CONFIG_FANOUT)) != NULL) {
		if (lab_parse_int(s, 1, LAB_FANOUT_MAX, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--fanout "
			    "takes a number from 1 to %d, not '%s'",
			    LAB_FANOUT_MAX, s);
		b->req.fanout = (size_t)v;
	}
	b->req.accept_new = cmd_opt(call, "accept-new") != NULL;
	return 0;
}

static int
listed(const struct lab_strv *v, const char *name)
{
	size_t	i;

	for (i = 0; i < v->n; i++)
		if (strcmp(v->v[i], name) == 0)
			return 1;
	return 0;
}

/* Is word a slot of one of the hosts? */
static int
is_slot(const struct bench *b, const char *word)
{
	const struct lab_host	*h;
	size_t			 i, k;

	for (i = 0; i < b->hosts.n; i++) {
		h = lab_inventory_host(b->inv, b->hosts.v[i]);
		for (k = 0; h != NULL && k < h->ndisks; k++)
			if (strcmp(h->disks[k].slot, word) == 0)
				return 1;
	}
	return 0;
}

/* A slot near word on one of the hosts, or NULL. */
static const char *
near_slot(const struct bench *b, const char *word)
{
	const struct lab_host	*h;
	const char		*cands[256];
	size_t			 i, k, n;

	for (i = 0; i < b->hosts.n; i++) {
		h = lab_inventory_host(b->inv, b->hosts.v[i]);
		for (k = n = 0; h != NULL && k < h->ndisks &&
		    n < LAB_ARRAY_SIZE(cands); k++)
			cands[n++] = h->disks[k].slot;
		if (n > 0 && lab_suggest(word, cands, n) != NULL)
			return b->hosts.v[i];
	}
	return NULL;
}

/*
 * The words: the first names targets; each after it a slot when one of
 * the hosts named so far has a disk in that slot, else more targets. Once
 * a slot is given, the rest are slots.
 */
static int
split_words(struct bench *b, struct lab_err *err)
{
	struct lab_call	*call = b->call;
	struct lab_strv	 more;
	struct lab_err	 terr;
	const char	*near;
	size_t		 i, k;

	if (lab_target_resolve(b->inv, call->argv, 1, call->all, &b->hosts,
	    err) == -1)
		return -1;
	for (i = 1; i < (size_t)call->argc; i++) {
		const char	*w = call->argv[i];

		if (b->slots.n > 0 || is_slot(b, w)) {
			if (lab_strv_add(&b->slots, w) == -1)
				return lab_err_oom(err);
			continue;
		}
		memset(&more, 0, sizeof(more));
		lab_err_init(&terr);
		if (lab_target_resolve(b->inv, &call->argv[i], 1, 0, &more,
		    &terr) == -1) {
			/* a typo of a slot reads as one, not as a host; a word
			   near no host either is named as a slot */
			near = near_slot(b, w);
			if (near == NULL && strstr(terr.msg, "did you mean") ==
			    NULL)
				near = b->hosts.v[0];
			if (near != NULL) {
				const struct lab_host *h =
				    lab_inventory_host(b->inv, near);
				const char	*one = w;
				const struct lab_disk **d = NULL;
				size_t		 nd = 0;

				lab_bench_host_disks(h, &one, 1, &d, &nd, err);
				free(d);
				if (err->code == LAB_EXIT_OK)
					*err = terr;
				return -1;
			}
			*err = terr;
			return -1;
		}
		for (k = 0; k < more.n; k++)
			if (!listed(&b->hosts, more.v[k]) &&
			    lab_strv_add(&b->hosts, more.v[k]) == -1) {
				lab_strv_release(&more);
				return lab_err_oom(err);
			}
		lab_strv_release(&more);
	}
	return 0;
}

/* Every host's disks exist, with a device, and it has an ssh: block. */
static int
check_hosts(struct bench *b, struct lab_err *err)
{
	const struct lab_disk	**d = NULL;
	size_t			 i, nd;

	for (i = 0; i < b->hosts.n; i++) {
		const struct lab_host *h = lab_inventory_host(b->inv,
		    b->hosts.v[i]);

		if (lab_bench_host_disks(h, (const char *const *)b->slots.v,
		    b->slots.n, &d, &nd, err) == -1)
			return -1;
		free(d);
	}
	return 0;
}

/* The plan: what runs where, before anything is contacted. */
static int
print_plan(struct bench *b, struct lab_err *err)
{
	const struct lab_disk	**d = NULL;
	struct lab_bench_disk_plan p;
	struct lab_bench_jobs	 jobs;
	struct lab_buf		 out, jout;
	struct lab_json		 j;
	size_t			 i, k, nd;
	int			 rc = 0, t;

	lab_buf_init(&out);
	lab_buf_init(&jout);
	lab_json_init(&j, &jout);
	lab_json_arr_begin(&j);
	for (i = 0; i < b->hosts.n && rc == 0; i++) {
		const struct lab_host *h = lab_inventory_host(b->inv,
		    b->hosts.v[i]);

		if (lab_bench_host_disks(h, (const char *const *)b->slots.v,
		    b->slots.n, &d, &nd, err) == -1) {
			rc = -1;
			break;
		}
		if (!b->call->json)
			lab_buf_addf(&out, "%s (ssh %s@%s:%d), profile %s, one "
			    "disk at a time: smartctl -i -H -A -j, the free-disk "
			    "check, then fio: seq-read and rand-read on the "
			    "device; seq-write and rand-write on the device if "
			    "it is free (this destroys what it holds), into a "
			    "file on its filesystem if it is mounted, else "
			    "none\n", h->name, h->ssh->user ? h->ssh->user :
			    "root", h->ssh->address, h->ssh->port > 0 ?
			    h->ssh->port : 22,
			    lab_bench_profile_name(b->req.profile));
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "host", h->name);
		lab_json_kstr(&j, "profile",
		    lab_bench_profile_name(b->req.profile));
		lab_json_key(&j, "disks");
		lab_json_arr_begin(&j);
		for (k = 0; k < nd && rc == 0; k++) {
			lab_bench_disk_plan(d[k], NULL, "RUN", 0,
			    b->req.runtime_s, &p);
			if (lab_bench_jobs_build(b->req.profile, &p.dev, &jobs,
			    err) == -1) {
				rc = -1;
				break;
			}
			lab_json_obj_begin(&j);
			lab_json_kstr(&j, "slot", d[k]->slot);
			lab_json_kstr(&j, "device", d[k]->device);
			lab_json_kstr(&j, "kind", d[k]->kind);
			lab_json_kstr(&j, "controller", d[k]->controller);
			lab_json_key(&j, "tests");
			lab_json_arr_begin(&j);
			for (t = 0; t < LAB_BENCH_NTESTS; t++)
				lab_json_str(&j, lab_bench_test_name(
				    (enum lab_bench_test)t));
			lab_json_arr_end(&j);
			lab_json_kstr(&j, "command", jobs.command);
			lab_json_kstr(&j, "writes", "on the device when the "
			    "free-disk check finds it free; into a file on "
			    "its filesystem when it is mounted; none when it "
			    "is in an array, a pool or a volume group or "
			    "holds signatures");
			lab_json_obj_end(&j);
			if (!b->call->json)
				lab_buf_addf(&out, "  slot %s %s (%s%s%s%s):\n"
				    "    %s\n", d[k]->slot, d[k]->device,
				    d[k]->kind ? d[k]->kind : "disk",
				    d[k]->controller ? ", controller " : "",
				    d[k]->controller ? d[k]->controller : "",
				    d[k]->boot ? ", the boot disk" : "",
				    jobs.command);
			lab_bench_jobs_release(&jobs);
		}
		lab_json_arr_end(&j);
		lab_json_obj_end(&j);
		free(d);
		d = NULL;
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (rc == 0)
		rc = b->call->json ? cmd_write(&jout, err) :
		    cmd_write_text(&out, err);
	lab_buf_release(&out);
	lab_buf_release(&jout);
	return rc;
}

static void
step(void *arg, const char *host, const char *slot, const char *what)
{
	struct bench	*b = arg;

	pthread_mutex_lock(&b->lock);
	fprintf(stderr, "%s: slot ", cmd_vis(host));
	cmd_puts_text(stderr, slot);
	fprintf(stderr, " %s\n", what);
	fflush(stderr);
	pthread_mutex_unlock(&b->lock);
}

static const struct lab_bench_result *
result_of(const struct lab_bench_disk *d, enum lab_bench_test t)
{
	size_t	i;

	for (i = 0; i < d->nresults; i++)
		if (d->results[i].test == t)
			return &d->results[i];
	return NULL;
}

static void
json_num(struct lab_json *j, const char *key, double v, const char *fmt)
{
	char	num[64];

	lab_json_key(j, key);
	snprintf(num, sizeof(num), fmt, v);
	lab_json_raw(j, num);
}

static void
json_count(struct lab_json *j, const char *key, int64_t v)
{
	lab_json_key(j, key);
	if (v < 0)
		lab_json_null(j);
	else
		lab_json_int(j, v);
}

static void
json_smart(struct lab_json *j, const struct lab_smart *s)
{
	lab_json_obj_begin(j);
	lab_json_kstr(j, "health", s->health == LAB_SMART_UNKNOWN ? NULL :
	    lab_smart_health_name(s->health));
	lab_json_kstr(j, "model", s->model);
	lab_json_kstr(j, "serial", s->serial);
	lab_json_kstr(j, "firmware", s->firmware);
	json_count(j, "reallocated", s->reallocated);
	json_count(j, "pending", s->pending);
	json_count(j, "offline_uncorrectable", s->offline_uncorrectable);
	json_count(j, "power_on_hours", s->power_on_hours);
	json_count(j, "temperature_c", s->temperature_c);
	lab_json_kstr(j, "message", s->message);
	lab_json_obj_end(j);
}

/* Did the writes run, into a file? */
static int
file_writes(const struct lab_bench_disk *d)
{
	size_t	i;

	for (i = 0; i < d->nresults; i++)
		if (d->results[i].target_kind == LAB_BENCH_TARGET_FILE)
			return 1;
	return 0;
}

static void
json_disk(struct lab_json *j, const struct lab_bench_disk *d)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "slot", d->slot);
	lab_json_kstr(j, "device", d->device);
	lab_json_kstr(j, "serial", d->serial);
	lab_json_kstr(j, "model", d->model);
	lab_json_kstr(j, "kind", d->kind);
	lab_json_kstr(j, "controller", d->controller);
	lab_json_key(j, "tests");
	lab_json_arr_begin(j);
	for (i = 0; i < d->nresults; i++) {
		const struct lab_bench_result *r = &d->results[i];

		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", lab_bench_test_name(r->test));
		json_num(j, "mb_s", r->mb_s, "%.2f");
		json_num(j, "iops", r->iops, "%.1f");
		json_num(j, "lat_mean_ms", r->lat_mean_ms, "%.3f");
		json_num(j, "lat_p99_ms", r->lat_p99_ms, "%.3f");
		lab_json_kstr(j, "target_kind",
		    lab_bench_target_name(r->target_kind));
		lab_json_kstr(j, "target", r->target);
		lab_json_kstr(j, "why", r->why);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "smart");
	json_smart(j, &d->smart);
	/* skipped: a boolean, as everywhere (lab(1), JSON); why: the words */
	lab_json_key(j, "skipped");
	lab_json_bool(j, d->skipped != NULL && !file_writes(d));
	lab_json_kstr(j, "why", d->skipped);
	lab_json_obj_end(j);
}

static void
json_host(struct lab_json *j, const struct lab_bench_host_result *r,
    const struct lab_bench_findings *f)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "host", r->host);
	lab_json_key(j, "run");
	if (r->run.id > 0)
		lab_json_int(j, r->run.id);
	else
		lab_json_null(j);
	lab_json_key(j, "ok");
	lab_json_bool(j, r->ok);
	lab_json_key(j, "skipped");	/* a named host is always worked */
	lab_json_bool(j, 0);
	lab_json_kstr(j, "error", r->ok ? NULL : r->err.msg);
	lab_json_kstr(j, "reason", r->ok ? NULL : lab_err_reason(&r->err));
	lab_json_kstr(j, "status", lab_bench_status_name(r->run.status));
	lab_json_kstr(j, "message", r->run.message);
	lab_json_kstr(j, "profile", r->run.profile);
	lab_json_kstr(j, "ssh", r->addr);
	lab_json_ktime(j, "started_at", r->run.started_at);
	lab_json_ktime(j, "finished_at", r->run.finished_at);
	lab_json_key(j, "disks");
	lab_json_arr_begin(j);
	for (i = 0; i < r->run.disks.n; i++)
		json_disk(j, &r->run.disks.v[i]);
	lab_json_arr_end(j);
	lab_json_key(j, "findings");
	lab_json_arr_begin(j);
	for (i = 0; f != NULL && i < f->n; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "severity", f->v[i].severity);
		lab_json_kstr(j, "kind", f->v[i].kind);
		lab_json_kstr(j, "subject", f->v[i].subject);
		lab_json_kstr(j, "message", f->v[i].message);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}

static void
cell(char *buf, size_t size, const struct lab_bench_result *r, int rand)
{
	if (r == NULL)
		buf[0] = '\0';
	else if (rand)
		snprintf(buf, size, "%.1f/%.0f", r->mb_s, r->iops);
	else
		snprintf(buf, size, "%.1f", r->mb_s);
}

static int
print_results(struct bench *b, struct lab_err *err)
{
	struct lab_buf	 out;
	struct lab_json	 j;
	struct table	 t;
	char		 c[LAB_BENCH_NTESTS][48];
	size_t		 i, k, rows = 0, nf = 0;
	int		 rc = 0, x;

	lab_buf_init(&out);
	if (b->call->json) {
		lab_json_init(&j, &out);
		lab_json_arr_begin(&j);
		for (i = 0; i < b->hosts.n; i++)
			json_host(&j, &b->res[i], &b->found[i]);
		lab_json_arr_end(&j);
		lab_json_end(&j);
		rc = cmd_write(&out, err);
		lab_buf_release(&out);
		return rc;
	}
	table_init(&t, 10, "HOST", "SLOT", "DEVICE", "SERIAL", "KIND",
	    "SEQ-READ", "SEQ-WRITE", "RAND-READ", "RAND-WRITE", "NOTE");
	table_key(&t, 1);
	table_text(&t, 9);
	for (i = 0; i < b->hosts.n; i++) {
		const struct lab_bench_run *run = &b->res[i].run;

		for (k = 0; k < run->disks.n; k++) {
			const struct lab_bench_disk *d = &run->disks.v[k];

			for (x = 0; x < LAB_BENCH_NTESTS; x++)
				cell(c[x], sizeof(c[x]), result_of(d,
				    (enum lab_bench_test)x), x >= 2);
			table_row(&t, d->host, d->slot, d->device, d->serial,
			    d->kind, c[0], c[1], c[2], c[3], d->skipped);
			rows++;
		}
		nf += b->found[i].n;
	}
	if (rows > 0) {
		table_print(&t, stdout);
		printf("(MB/s; random: MB/s/IOPS)\n");
	}
	table_release(&t);
	if (nf > 0) {
		lab_buf_adds(&out, "\nfindings:\n");
		for (i = 0; i < b->hosts.n; i++)
			for (k = 0; k < b->found[i].n; k++) {
				const struct lab_bench_finding *f =
				    &b->found[i].v[k];

				lab_buf_addf(&out, "  %s %s: %s: %s\n",
				    f->severity, f->kind, f->subject,
				    f->message);
			}
		fflush(stdout);
		rc = cmd_write_text(&out, err);
	}
	lab_buf_release(&out);
	return rc;
}

/* Each host's findings, then its run stored. */
static int
findings_and_store(struct bench *b, struct lab_err *err)
{
	size_t	i;

	if ((b->found = calloc(b->hosts.n + 1, sizeof(*b->found))) == NULL)
		return lab_err_oom(err);
	/* before storing: a disk's history is its earlier runs */
	for (i = 0; i < b->hosts.n; i++)
		if (lab_bench_host_findings(b->call->db, b->inv, b->res,
		    b->hosts.n, i, &b->found[i], err) == -1)
			return -1;
	for (i = 0; i < b->hosts.n; i++)
		if (lab_db_bench_store(b->call->db, &b->res[i].run, err) == -1)
			return -1;
	return 0;
}

static int
failures(struct bench *b, struct lab_err *err)
{
	struct lab_fail	*f;
	size_t		 i, nf = 0;
	int		 rc = LAB_EXIT_OK;

	if ((f = calloc(b->hosts.n + 1, sizeof(*f))) == NULL)
		return lab_err_oom(err), LAB_EXIT_ENV;
	for (i = 0; i < b->hosts.n; i++) {
		const struct lab_bench_host_result *r = &b->res[i];

		if (r->key.added)
			fprintf(stderr, "lab: added %s's %s host key %s\n",
			    cmd_vis(r->host), r->key.type, r->key.fingerprint);
		if (r->ok)
			continue;
		f[nf].host = r->host;
		f[nf].addr = r->addr;
		f[nf].local = r->err.local;
		f[nf++].msg = r->err.msg;
		if (rc != LAB_EXIT_ENV)
			rc = r->err.local ? LAB_EXIT_ENV : LAB_EXIT_PARTIAL;
	}
	cmd_failures(b->call, f, nf, b->hosts.n,
	    cmd_opt(b->call, "verbose") != NULL);
	free(f);
	return rc;
}

int
cmd_bench_disks(struct lab_call *call, struct lab_err *err)
{
	struct bench	 b;
	struct lab_ctx	 ctx;
	char		 q[200], what[200];
	size_t		 i;
	int		 rc = -1, c;

	memset(&b, 0, sizeof(b));
	b.call = call;
	pthread_mutex_init(&b.lock, NULL);
	call->no_audit = !call->yes;	/* a plan only, until confirmed */
	if (parse_opts(&b, err) == -1 ||
	    cmd_inventory(call, &b.inv, err) == -1 ||
	    split_words(&b, err) == -1 || check_hosts(&b, err) == -1)
		goto out;
	/* the safety rule (lab(1), SAFETY): the plan, then --yes or "y" */
	if ((call->dry_run || !call->yes) && print_plan(&b, err) == -1)
		goto out;
	snprintf(q, sizeof(q), "Bench the disks of %s%s? The write jobs "
	    "destroy what a free disk holds.", b.hosts.v[0],
	    b.hosts.n > 1 ? " and the others" : "");
	snprintf(what, sizeof(what), "the write jobs destroy what a free "
	    "disk of %s holds", b.hosts.n > 1 ? "these hosts" : b.hosts.v[0]);
	if ((c = cmd_confirm(call, q, what, err)) != 1) {
		if (c == 0) {
			if (!call->json) {
				fflush(stdout);
				fprintf(stderr, "lab: nothing was run; 'lab bench "
				    "... --yes' runs this plan\n");
			}
			rc = 0;
		}
		goto out;
	}
	call->no_audit = 0;
	lab_ctx_init(&ctx);
	b.steps = isatty(STDERR_FILENO) && !call->json;
	if (b.steps) {
		b.req.step = step;
		b.req.step_arg = &b;
	}
	b.req.slots = (const char *const *)b.slots.v;
	b.req.nslots = b.slots.n;
	if (lab_bench_hosts(&ctx, b.inv, &b.hosts, &b.req, &b.res, err) == -1)
		goto out;
	if (findings_and_store(&b, err) == -1 || print_results(&b, err) == -1)
		goto out;
	rc = failures(&b, err);
	goto done;
out:
	rc = rc == 0 ? 0 : (int)(err->code != LAB_EXIT_OK ? err->code :
	    LAB_EXIT_ENV);
done:
	if (b.found != NULL)
		for (i = 0; i < b.hosts.n; i++)
			lab_bench_findings_release(&b.found[i]);
	free(b.found);
	lab_bench_host_results_free(b.res, b.hosts.n);
	lab_strv_release(&b.hosts);
	lab_strv_release(&b.slots);
	lab_inventory_free(b.inv);
	pthread_mutex_destroy(&b.lock);
	return rc;
}
