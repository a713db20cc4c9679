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

/*
 * Every disk of the hosts' last runs, and whether it is the newest of
 * its serial among them (a disk without a serial always is): sorted by
 * serial once, so that picking peers is linear in the disks.
 */
struct ref {
	const struct lab_bench_disk	*d;
	size_t				 host;
	int				 newest;
};

static int
by_serial(const void *a, const void *b)
{
	const struct lab_bench_disk	*x = ((const struct ref *)a)->d;
	const struct lab_bench_disk	*y = ((const struct ref *)b)->d;
	int				 c;

	if (x->serial == NULL || y->serial == NULL)
		return (x->serial == NULL) - (y->serial == NULL);
	if ((c = strcmp(x->serial, y->serial)) != 0)
		return c;
	/* newest first */
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	return (x->run_id < y->run_id) - (x->run_id > y->run_id);
}

static int
refs_build(const struct lab_report *r, struct ref **ret, size_t *n)
{
	struct ref	*v = NULL;
	size_t		 i, j;

	*n = 0;
	for (i = 0; i < r->nhosts; i++) {
		const struct lab_bench_run *x = r->hosts[i].bench;

		for (j = 0; x != NULL && j < x->disks.n; j++) {
			if (lab_push(&v, n, sizeof(*v)) == NULL) {
				free(v);
				return -1;
			}
			v[*n - 1].d = &x->disks.v[j];
			v[*n - 1].host = i;
		}
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), by_serial);
	for (i = 0; i < *n; i++)
		v[i].newest = i == 0 || v[i].d->serial == NULL ||
		    !same_serial(v[i].d, v[i - 1].d);
	*ret = v;
	return 0;
}

/* 1 when disk o of another host's run lends a peer to host h's run. */
static int
lends(const struct lab_report_host *h, const struct ref *o)
{
	size_t	i;

	if (!o->newest)
		return 0;
	for (i = 0; i < h->bench->disks.n; i++)
		if (same_serial(&h->bench->disks.v[i], o->d))
			return 0;
	return 1;
}

static int
host_findings(const struct lab_report *r, size_t hi, const struct ref *refs,
    size_t nrefs, struct lab_bench_findings *out, struct lab_err *err)
{
	const struct lab_report_host	*h = &r->hosts[hi];
	const struct lab_bench_run	*run = h->bench;
	struct lab_bench_findings_in	 in;
	struct lab_bench_disk		*others = NULL;
	struct lab_bench_disks		*hist = NULL;
	size_t				 nothers = 0, i, j;
	int				 rc = -1;

	for (i = 0; i < nrefs; i++) {
		if (refs[i].host == hi || !lends(h, &refs[i]))
			continue;
		/* borrowed, not owned */
		if (lab_push(&others, &nothers, sizeof(*others)) == NULL)
			goto oom;
		others[nothers - 1] = *refs[i].d;
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
	struct lab_strv	 done;
	struct ref	*refs;
	size_t		 i, n;
	int		 rc = 0;

	/* only the hosts with a done run are asked for it: one statement
	   for a lab that never ran a bench, not one a host */
	if (lab_db_bench_done_hosts(db, &done, err) == -1)
		return -1;
	for (i = 0; i < r->nhosts; i++)
		if (lab_strv_sorted_find(&done, r->hosts[i].name) >= 0 &&
		    load_host(db, &r->hosts[i], err) == -1) {
			lab_strv_release(&done);
			return -1;
		}
	lab_strv_release(&done);
	if (refs_build(r, &refs, &n) == -1)
		return lab_err_oom(err);
	for (i = 0; rc == 0 && i < r->nhosts; i++)
		if (r->hosts[i].bench != NULL && r->hosts[i].bench->disks.n > 0)
			rc = host_findings(r, i, refs, n, out, err);
	free(refs);
	return rc;
}
