/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench-remote.h"
#include "lab/burnin.h"
#include "lab/fanout.h"
#include "lab/str.h"

/*
 * lab burnin: on each disk of a host, one after the other, provisioning's
 * free-disk check (a disk not free is refused, never written), SMART,
 * badblocks -w over the whole device, SMART again. The hosts run at once.
 * badblocks runs under the host's timeout(1) with the disk's deadline, so
 * a disk past it fails alone and the next one runs; lib's own deadline is
 * a minute later, for a host that stops answering.
 */
#define SMART_TIMEOUT_MS	120000
#define LINK_GRACE_MS		60000

void
lab_burnin_host_release(struct lab_burnin_host *h)
{
	size_t	i;

	if (h == NULL)
		return;
	for (i = 0; i < h->ndisks; i++) {
		lab_bench_disk_release(&h->disks[i].d);
		lab_smart_release(&h->disks[i].before);
		free(h->disks[i].message);
	}
	free(h->disks);
	free(h->host);
	lab_bench_findings_release(&h->findings);
	memset(h, 0, sizeof(*h));
}

static int
slot_list(const struct lab_host *h, struct lab_buf *b)
{
	size_t	i;

	for (i = 0; i < h->ndisks; i++)
		lab_buf_addf(b, "%s%s", i ? ", " : "", h->disks[i].slot);
	return b->oom ? -1 : 0;
}

static const struct lab_disk *
find_slot(const struct lab_host *h, const char *slot, struct lab_err *err)
{
	const char	*cands[256], *near;
	struct lab_buf	 b;
	size_t		 i, n = 0;

	for (i = 0; i < h->ndisks; i++)
		if (strcmp(h->disks[i].slot, slot) == 0)
			return &h->disks[i];
	if (h->ndisks == 0) {
		lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disks in "
		    "the inventory", h->name);
		return NULL;
	}
	for (i = 0; i < h->ndisks && n < sizeof(cands) / sizeof(cands[0]); i++)
		cands[n++] = h->disks[i].slot;
	if ((near = lab_suggest(slot, cands, n)) != NULL) {
		lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disk in slot "
		    "'%s'; did you mean '%s'?", h->name, slot, near);
		return NULL;
	}
	lab_buf_init(&b);
	if (slot_list(h, &b) == -1)
		lab_err_oom(err);
	else
		lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disk in slot "
		    "'%s' (its slots: %s)", h->name, slot, b.s);
	lab_buf_release(&b);
	return NULL;
}

static int
plan_disk(struct lab_burnin_host *bh, const struct lab_host *h,
    const struct lab_disk *k, struct lab_err *err)
{
	struct lab_burnin_disk	*bd;
	const char		*why = NULL;

	for (size_t i = 0; i < bh->ndisks; i++)
		if (strcmp(bh->disks[i].d.slot, k->slot) == 0)
			return 0;	/* named twice */
	if ((bd = lab_push(&bh->disks, &bh->ndisks, sizeof(*bd))) == NULL)
		return lab_err_oom(err);
	lab_bench_disk_init(&bd->d);
	lab_smart_init(&bd->before);
	bd->bad_first = -1;
	bd->d.host = lab_strdup(h->name);
	bd->d.slot = lab_strdup(k->slot);
	bd->d.device = k->device != NULL ? lab_strdup(k->device) : NULL;
	bd->d.kind = k->kind != NULL ? lab_strdup(k->kind) : NULL;
	bd->d.controller = k->controller != NULL ? lab_strdup(k->controller) :
	    NULL;
	if (bd->d.host == NULL || bd->d.slot == NULL || (k->device != NULL &&
	    bd->d.device == NULL) || (k->kind != NULL && bd->d.kind == NULL) ||
	    (k->controller != NULL && bd->d.controller == NULL))
		return lab_err_oom(err);
	if (k->boot)
		why = "it holds the running system (boot: true in the "
		    "inventory)";
	else if (k->device == NULL)
		why = "it has no 'device' in the inventory";
	if (why != NULL) {
		bd->result = LAB_BURNIN_REFUSED;
		if ((bd->d.skipped = lab_strdup(why)) == NULL)
			return lab_err_oom(err);
	}
	return 0;
}

int
lab_burnin_plan(const struct lab_host *h, const struct lab_burnin_req *req,
    struct lab_burnin_host *bh, struct lab_err *err)
{
	const struct lab_disk	*k;
	size_t			 i;

	memset(bh, 0, sizeof(*bh));
	bh->status = LAB_BENCH_RUNNING;
	if ((bh->host = lab_strdup(h->name)) == NULL)
		return lab_err_oom(err);
	if (h->ssh == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no ssh: "
		    "block in the inventory (address, port, user, identity, "
		    "known_hosts): lab cannot reach it", h->name);
	if (req->nslots == 0 && h->ndisks == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disks "
		    "in the inventory", h->name);
	for (i = 0; i < req->nslots; i++)
		if ((k = find_slot(h, req->slots[i], err)) == NULL ||
		    plan_disk(bh, h, k, err) == -1)
			return -1;
	/* every disk but the running system's (refused when named) */
	for (i = 0; req->nslots == 0 && i < h->ndisks; i++)
		if (!h->disks[i].boot && plan_disk(bh, h, &h->disks[i],
		    err) == -1)
			return -1;
	return 0;
}

struct job {
	const struct lab_burnin_req	*req;
	const struct lab_ctx		*ctx;
	const struct lab_inventory	*inv;
	struct lab_burnin_host		*hosts;
	int64_t				*started, *finished;
	pthread_mutex_t			 lock;
};

static void
hook(struct job *j, int end, const struct lab_burnin_host *h,
    const struct lab_burnin_disk *d)
{
	const struct lab_burnin_hooks	*k = j->req->hooks;

	if (k == NULL || (end ? k->end : k->begin) == NULL)
		return;
	pthread_mutex_lock(&j->lock);
	(end ? k->end : k->begin)(k->arg, h, d);
	pthread_mutex_unlock(&j->lock);
}

/* SMART of dev into *sm; -1 only when the link failed. */
static int
read_smart(struct job *j, struct lab_ssh *s, const char *host,
    const char *dev, struct lab_smart *sm, struct lab_err *err)
{
	struct lab_bench_output	 o;
	struct lab_err		 perr;
	struct lab_buf		 cmd;
	char			 where[300];
	int			 rc;

	lab_smart_release(sm);
	lab_smart_init(sm);
	lab_buf_init(&cmd);
	lab_buf_adds(&cmd, "smartctl -i -H -A -j ");
	lab_sh_quote(&cmd, dev);
	if (cmd.oom)
		return lab_err_oom(err);
	rc = lab_bench_run(s, host, cmd.s, SMART_TIMEOUT_MS, j->ctx, &o, err);
	lab_buf_release(&cmd);
	if (rc == -1)
		return -1;
	snprintf(where, sizeof(where), "%s:%s", host, dev);
	memset(&perr, 0, sizeof(perr));
	if (lab_smart_parse(o.out, o.outlen, where, sm, &perr) == -1) {
		/* no smartctl, or not its JSON: SMART unknown, said why */
		lab_smart_release(sm);
		lab_smart_init(sm);
		if (o.outlen == 0 && o.exit_status == 127)
			snprintf(perr.msg, sizeof(perr.msg), "smartctl is not "
			    "installed on %s (package smartmontools)", host);
		sm->message = lab_strdup(perr.msg);
	}
	lab_bench_output_free(&o);
	return 0;
}

/* The line of text that says the most: its last non-empty one. */
static void
last_line(const char *text, char *buf, size_t size)
{
	const char	*p = text, *e;
	size_t		 n;

	buf[0] = '\0';
	if (text == NULL)
		return;
	e = text + strlen(text);
	while (e > p && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' '))
		e--;
	for (p = e; p > text && p[-1] != '\n'; p--)
		;
	n = (size_t)(e - p);
	snprintf(buf, size, "%.*s", (int)n, p);
}

/* badblocks on one free disk; -1 only when the link failed. */
static int
burn(struct job *j, struct lab_ssh *s, const char *host,
    struct lab_burnin_disk *bd, struct lab_err *err)
{
	struct lab_bench_disk	*d = &bd->d;
	struct lab_bench_output	 o;
	struct lab_badblocks	 bb;
	struct lab_err		 perr;
	struct lab_buf		 cmd;
	char			 where[300], line[200];
	int			 timeout = j->req->timeout_ms > 0 ?
				    j->req->timeout_ms : LAB_BURNIN_TIMEOUT_MS;
	int			 secs = timeout / 1000 + (timeout % 1000 != 0);
	int			 rc;

	lab_buf_init(&cmd);
	/* the host's own deadline first: a disk past it fails alone */
	lab_buf_addf(&cmd, "exec timeout -s KILL %d badblocks -w -v -b 4096 "
	    "-- ", secs);
	lab_sh_quote(&cmd, d->device);
	if (cmd.oom)
		return lab_err_oom(err);
	if ((d->burnin.method = lab_strdup(LAB_BURNIN_METHOD)) == NULL) {
		lab_buf_release(&cmd);
		return lab_err_oom(err);
	}
	rc = lab_bench_run(s, host, cmd.s, timeout > INT32_MAX - LINK_GRACE_MS ?
	    INT32_MAX : timeout + LINK_GRACE_MS, j->ctx, &o, err);
	lab_buf_release(&cmd);
	bd->elapsed_ms = o.elapsed_ms;
	if (rc == -1)
		return -1;
	snprintf(where, sizeof(where), "%s:%s", host, d->device);
	memset(&perr, 0, sizeof(perr));
	last_line(o.err_tail, line, sizeof(line));
	if (o.exit_status == 137 || (o.signal != NULL &&
	    strcmp(o.signal, "KILL") == 0)) {
		bd->message = lab_asprintf("badblocks did not finish within "
		    "the deadline (%d s): the disk was written only in part",
		    secs);
	} else if (o.exit_status != 0) {
		bd->message = lab_asprintf("badblocks exited with status %d%s%s",
		    o.exit_status, line[0] ? ": " : "", line);
	} else if (lab_badblocks_parse(o.outbytes > o.outlen ? NULL : o.out,
	    o.outlen, o.err_tail, where, &bb, &perr) == -1) {
		bd->message = lab_strdup(perr.msg);
	} else {
		d->burnin.ran = 1;
		d->burnin.errors = bb.read + bb.write + bb.compare;
		bd->bad_first = bb.first;
		if (bb.bad > 0 && bb.first >= 0)
			d->burnin.detail = lab_asprintf("%" PRId64 " read, %"
			    PRId64 " write, %" PRId64 " compare; %" PRId64
			    " bad blocks of 4096 bytes, the first %" PRId64,
			    bb.read, bb.write, bb.compare, bb.bad, bb.first);
		else
			d->burnin.detail = lab_asprintf("%" PRId64 " read, %"
			    PRId64 " write, %" PRId64 " compare; %" PRId64
			    " bad blocks of 4096 bytes", bb.read, bb.write,
			    bb.compare, bb.bad);
		if (d->burnin.errors == 0 && bb.bad > 0)
			d->burnin.errors = bb.bad;
		bd->result = d->burnin.errors > 0 ? LAB_BURNIN_ERRORS :
		    LAB_BURNIN_CLEAN;
		lab_bench_output_free(&o);
		return d->burnin.detail == NULL ? lab_err_oom(err) : 0;
	}
	bd->result = LAB_BURNIN_FAILED;
	lab_bench_output_free(&o);
	return bd->message == NULL ? lab_err_oom(err) : 0;
}

/* One disk: check, SMART, badblocks, SMART; -1 when the link failed. */
static int
disk(struct job *j, struct lab_ssh *s, struct lab_burnin_host *h,
    struct lab_burnin_disk *bd, struct lab_err *err)
{
	struct lab_bench_disk	*d = &bd->d;
	struct lab_disk_state	 st;

	if (bd->result == LAB_BURNIN_REFUSED) {
		hook(j, 1, h, bd);
		return 0;
	}
	/* provisioning's check, always: a disk in use is never written */
	if (lab_bench_disk_check(s, h->host, d->slot, d->device, &st,
	    err) == -1)
		return -1;
	if (st.use != LAB_DISK_FREE) {
		bd->result = LAB_BURNIN_REFUSED;
		if ((d->skipped = lab_strdup(st.reason)) == NULL)
			return lab_err_oom(err);
		hook(j, 1, h, bd);
		return 0;
	}
	hook(j, 0, h, bd);
	if (read_smart(j, s, h->host, d->device, &bd->before, err) == -1 ||
	    burn(j, s, h->host, bd, err) == -1 ||
	    read_smart(j, s, h->host, d->device, &d->smart, err) == -1)
		return -1;
	if (d->smart.serial != NULL || bd->before.serial != NULL) {
		d->serial = lab_strdup(d->smart.serial != NULL ?
		    d->smart.serial : bd->before.serial);
		if (d->serial == NULL)
			return lab_err_oom(err);
	}
	if (d->smart.model != NULL &&
	    (d->model = lab_strdup(d->smart.model)) == NULL)
		return lab_err_oom(err);
	hook(j, 1, h, bd);
	return 0;
}

static void
findings(struct lab_burnin_host *h)
{
	struct lab_bench_findings_in	 in;
	struct lab_bench_disk		*v = NULL;
	struct lab_bench_disks		*hist = NULL;
	struct lab_err			 err;
	size_t				 i, n = 0;

	v = calloc(h->ndisks + 1, sizeof(*v));
	hist = calloc(h->ndisks + 1, sizeof(*hist));
	if (v == NULL || hist == NULL)
		goto out;
	/* the disks that ran, each with its SMART before as its "last run":
	   a bad-sector count grown during the burn-in is a critical smart */
	for (i = 0; i < h->ndisks; i++) {
		struct lab_burnin_disk *bd = &h->disks[i];

		if (bd->result != LAB_BURNIN_CLEAN &&
		    bd->result != LAB_BURNIN_ERRORS)
			continue;
		v[n] = bd->d;
		v[n].nresults = 0;
		v[n].results = NULL;
		hist[n].n = 1;
		hist[n].v = calloc(1, sizeof(*hist[n].v));
		if (hist[n].v == NULL)
			goto out;
		hist[n].v[0].smart = bd->before;
		n++;
	}
	memset(&in, 0, sizeof(in));
	in.disks = v;
	in.ndisks = n;
	in.history = hist;
	memset(&err, 0, sizeof(err));
	(void)lab_bench_findings(&in, &h->findings, &err);
out:
	for (i = 0; hist != NULL && i < h->ndisks; i++)
		free(hist[i].v);
	free(hist);
	free(v);
}

static void
work(size_t i, void *arg)
{
	struct job		*j = arg;
	struct lab_burnin_host	*h = &j->hosts[i];
	const struct lab_host	*host = lab_inventory_host(j->inv, h->host);
	struct lab_ssh		*s = NULL;
	struct lab_ssh_hostkey	 key;
	size_t			 k;

	j->started[i] = j->ctx->wall();
	memset(&key, 0, sizeof(key));
	if (host == NULL) {
		lab_err_set(&h->err, LAB_EXIT_INPUT, "unknown host '%s'",
		    h->host);
		h->status = LAB_BENCH_FAILED;
		j->finished[i] = j->ctx->wall();
		return;
	}
	h->status = LAB_BENCH_DONE;
	if (lab_bench_connect(j->ctx, host, j->req->accept_new, &s, &key,
	    &h->err) == -1) {
		h->status = LAB_BENCH_FAILED;
	} else {
		h->ran = 1;
		for (k = 0; k < h->ndisks; k++)
			if (disk(j, s, h, &h->disks[k], &h->err) == -1) {
				/* the link: the run failed, nothing kept */
				h->status = LAB_BENCH_FAILED;
				break;
			}
		lab_ssh_close(s);
	}
	if (h->status == LAB_BENCH_DONE)
		findings(h);
	j->finished[i] = j->ctx->wall();
}

int
lab_burnin_run(struct lab_db *db, const struct lab_inventory *inv,
    const struct lab_burnin_req *req, struct lab_burnin_host *hosts,
    size_t nhosts, struct lab_err *err)
{
	struct job	 j;
	size_t		 i;
	int		 rc = 0;

	memset(&j, 0, sizeof(j));
	j.req = req;
	j.ctx = req->ctx != NULL ? req->ctx : lab_ctx_default();
	j.inv = inv;
	j.hosts = hosts;
	j.started = calloc(nhosts + 1, sizeof(*j.started));
	j.finished = calloc(nhosts + 1, sizeof(*j.finished));
	if (j.started == NULL || j.finished == NULL) {
		free(j.started);
		free(j.finished);
		return lab_err_oom(err);
	}
	pthread_mutex_init(&j.lock, NULL);
	if (lab_fanout_run(nhosts, req->fanout > 0 ? req->fanout :
	    LAB_FANOUT_DEFAULT, work, NULL, &j, err) == -1)
		rc = -1;
	/* one writer: stored here, after the fan-out */
	for (i = 0; rc == 0 && i < nhosts; i++) {
		if (lab_db_burnin_store(db, &hosts[i], j.started[i],
		    j.finished[i], &hosts[i].run_id, err) == -1)
			rc = -1;
	}
	pthread_mutex_destroy(&j.lock);
	free(j.started);
	free(j.finished);
	return rc;
}
