/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench-history.h"
#include "report-priv.h"

/*
 * The report's Disks section: each host's last done bench run, each of
 * its disks' last runs by serial (on any host), and the findings of those
 * runs, recomputed here with lab_bench_findings (not stored: the rules
 * apply to what the database holds now). A host's run is compared with
 * the other hosts' last runs (its peers by model), a disk with its own
 * earlier runs by serial. A disk is never its own peer: another host's
 * run that holds a disk of the same serial (the disk moved since) lends
 * no peer, and of two other runs with one serial only the newest counts.
 */

void
lab_report_disks_free(struct lab_report_host *h)
{
	size_t	i;

	if (h->bench != NULL) {
		for (i = 0; h->bench_history != NULL && i < h->bench->disks.n;
		    i++)
			lab_bench_disks_release(&h->bench_history[i]);
		lab_bench_run_release(h->bench);
	}
	free(h->bench_history);
	free(h->bench);
	h->bench = NULL;
	h->bench_history = NULL;
}

static int
load_host(struct lab_db *db, struct lab_report_host *h, struct lab_err *err)
{
	struct lab_bench_run	*run;
	size_t			 i;

	if ((run = calloc(1, sizeof(*run))) == NULL)
		return lab_err_oom(err);
	if (lab_db_bench_last_done(db, h->name, run, err) == -1) {
		free(run);
		return -1;
	}
	if (run->id == 0) {
		free(run);
		return 0;
	}
	h->bench = run;
	if (run->disks.n == 0)
		return 0;
	if ((h->bench_history = calloc(run->disks.n,
	    sizeof(*h->bench_history))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < run->disks.n; i++)
		if (lab_db_bench_history(db, run->disks.v[i].serial,
		    LAB_REPORT_BENCH_RUNS, &h->bench_history[i], err) == -1)
			return -1;
	return 0;
}

static int
same_serial(const struct lab_bench_disk *a, const struct lab_bench_disk *b)
{
	return a->serial != NULL && b->serial != NULL &&
	    strcmp(a->serial, b->serial) == 0;
}

/* 1 when disk o of another host's run lends a peer to host h's run. */
static int
lends(const struct lab_report *r, const struct lab_report_host *h,
    const struct lab_bench_disk *o)
{
	size_t	i, j;

	for (i = 0; i < h->bench->disks.n; i++)
		if (same_serial(&h->bench->disks.v[i], o))
			return 0;
	for (i = 0; i < r->nhosts; i++) {
		const struct lab_bench_run *x = r->hosts[i].bench;

		if (x == NULL || &r->hosts[i] == h)
			continue;
		for (j = 0; j < x->disks.n; j++)
			if (same_serial(&x->disks.v[j], o) &&
			    (x->disks.v[j].time > o->time ||
			    (x->disks.v[j].time == o->time &&
			    x->disks.v[j].run_id > o->run_id)))
				return 0;
	}
	return 1;
}

static int
host_findings(const struct lab_report *r, size_t hi,
    struct lab_bench_findings *out, struct lab_err *err)
{
	const struct lab_report_host	*h = &r->hosts[hi];
	const struct lab_bench_run	*run = h->bench;
	struct lab_bench_findings_in	 in;
	struct lab_bench_disk		*others = NULL;
	struct lab_bench_disks		*hist = NULL;
	size_t				 nothers = 0, i, j;
	int				 rc = -1;

	for (i = 0; i < r->nhosts; i++) {
		const struct lab_bench_run *x = r->hosts[i].bench;

		for (j = 0; x != NULL && i != hi && j < x->disks.n; j++) {
			if (!lends(r, h, &x->disks.v[j]))
				continue;
			/* borrowed, not owned */
			if (lab_push(&others, &nothers,
			    sizeof(*others)) == NULL)
				goto oom;
			others[nothers - 1] = x->disks.v[j];
		}
	}
	if ((hist = calloc(run->disks.n, sizeof(*hist))) == NULL)
		goto oom;
	for (i = 0; i < run->disks.n; i++) {
		const struct lab_bench_disks *all = &h->bench_history[i];

		/* the earlier runs: not this one, nor a later one (the
		   disk moved on to another host since) */
		if ((hist[i].v = calloc(all->n + 1, sizeof(*hist[i].v))) ==
		    NULL)
			goto oom;
		for (j = 0; j < all->n; j++)
			if (all->v[j].time < run->started_at ||
			    (all->v[j].time == run->started_at &&
			    all->v[j].run_id < run->id))
				hist[i].v[hist[i].n++] = all->v[j];
	}
	in.disks = run->disks.v;
	in.ndisks = run->disks.n;
	in.others = others;
	in.nothers = nothers;
	in.history = hist;
	if (lab_bench_findings(&in, out, err) == -1)
		goto out;
	rc = 0;
	goto out;
oom:
	lab_err_oom(err);
out:
	for (i = 0; hist != NULL && i < run->disks.n; i++)
		free(hist[i].v);
	free(hist);
	free(others);
	return rc;
}

int
lab_report_disks(struct lab_db *db, struct lab_report *r,
    struct lab_bench_findings *out, struct lab_err *err)
{
	size_t	i;

	for (i = 0; i < r->nhosts; i++)
		if (load_host(db, &r->hosts[i], err) == -1)
			return -1;
	for (i = 0; i < r->nhosts; i++)
		if (r->hosts[i].bench != NULL && r->hosts[i].bench->disks.n > 0 &&
		    host_findings(r, i, out, err) == -1)
			return -1;
	return 0;
}
