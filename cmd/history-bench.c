/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench-history.h"
#include "lab/json.h"
#include "lab/render.h"
#include "history-bench.h"

/*
 * lab history HOST --bench. The runs table (newest first), then one
 * table a disk, by serial: every stored run of that disk on any host,
 * newest first, with its host and slot then, so a disk moved from
 * another slot or host shows where it was ("moved" in the heading).
 * CSV: one row a disk a run, the four tests' MB/s as columns.
 */

/* A test's MB/s in a cell, "-" when it did not run. */
static void
mbs(const struct lab_bench_disk *d, enum lab_bench_test t, char *buf,
    size_t len)
{
	size_t	i;

	for (i = 0; i < d->nresults; i++)
		if (d->results[i].test == t) {
			snprintf(buf, len, "%.1f", d->results[i].mb_s);
			return;
		}
	snprintf(buf, len, "-");
}

static int
print_json(const struct lab_bench_runs *rs, struct lab_err *err)
{
	struct lab_buf	b;
	struct lab_json	j;
	size_t		i;
	int		rc;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	for (i = 0; i < rs->n; i++)
		lab_bench_run_json(&j, &rs->v[i]);
	lab_json_arr_end(&j);
	lab_json_end(&j);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc;
}

static void
print_runs(const struct lab_bench_runs *rs)
{
	struct table	t;
	char		id[24], when[32], n[24];
	size_t		i;

	table_init(&t, 6, "RUN", "TIME", "PROFILE", "STATUS", "DISKS",
	    "MESSAGE");
	table_paint(&t, 3);
	table_key(&t, 1);
	table_text(&t, 5);
	for (i = 0; i < rs->n; i++) {
		const struct lab_bench_run *r = &rs->v[i];

		snprintf(id, sizeof(id), "%lld", (long long)r->id);
		lab_format_time(r->started_at, when, sizeof(when));
		snprintf(n, sizeof(n), "%zu", r->disks.n);
		table_row(&t, id, when, r->profile,
		    lab_bench_status_name(r->status), n, r->message);
	}
	table_print(&t, stdout);
	table_release(&t);
}

static void
disk_row(struct table *t, const struct lab_bench_disk *d, const char *host)
{
	char	id[24], when[32], v[LAB_BENCH_NTESTS][32];
	int	k;

	snprintf(id, sizeof(id), "%lld", (long long)d->run_id);
	lab_format_time(d->time, when, sizeof(when));
	for (k = 0; k < LAB_BENCH_NTESTS; k++)
		mbs(d, (enum lab_bench_test)k, v[k], sizeof(v[k]));
	table_row(t, id, when, d->host != NULL ? d->host : host, d->slot,
	    d->device, v[0], v[1], v[2], v[3]);
}

/* 1 when serial was printed already (a disk of an earlier run). */
static int
seen(const struct lab_bench_runs *rs, size_t ri, size_t di)
{
	const struct lab_bench_disk	*d = &rs->v[ri].disks.v[di];
	size_t				 i, j, n;

	for (i = 0; i <= ri; i++) {
		n = i < ri ? rs->v[i].disks.n : di;
		for (j = 0; j < n; j++) {
			const struct lab_bench_disk *o = &rs->v[i].disks.v[j];

			if (d->serial != NULL ? o->serial != NULL &&
			    strcmp(o->serial, d->serial) == 0 :
			    o->serial == NULL && strcmp(o->slot, d->slot) == 0)
				return 1;
		}
	}
	return 0;
}

/* One disk: its heading and its runs, newest first, from since. */
static int
print_disk(struct lab_call *call, const struct lab_bench_runs *rs,
    const struct lab_bench_disk *d, const char *host, int64_t since,
    struct lab_err *err)
{
	struct lab_bench_disks	 h = { NULL, 0 };
	struct table		 t;
	const struct lab_bench_disk	*moved = NULL;
	size_t			 i, j;

	if (d->serial != NULL &&
	    lab_db_bench_history(call->db, d->serial, 0, &h, err) == -1)
		return -1;
	printf("\ndisk %s (%s, %s): slot %s, %s, controller %s",
	    cmd_vis(d->serial != NULL ? d->serial : "without a serial"),
	    cmd_vis(d->model != NULL ? d->model : "model unknown"),
	    cmd_vis(d->kind != NULL ? d->kind : "kind unknown"),
	    cmd_vis(d->slot), cmd_vis(d->device != NULL ? d->device : "-"),
	    cmd_vis(d->controller != NULL ? d->controller : "not declared"));
	/* the newest run of it elsewhere: before this one, or after */
	for (i = 0; i < h.n; i++)
		if (strcmp(h.v[i].host, host) != 0 ||
		    strcmp(h.v[i].slot, d->slot) != 0)
			moved = &h.v[i];
	if (moved != NULL)
		printf("; moved: %s on %s slot %s (run %lld)", moved->run_id >
		    d->run_id ? "since then" : "it was", cmd_vis(moved->host),
		    cmd_vis(moved->slot), (long long)moved->run_id);
	printf("\n");
	table_init(&t, 9, "RUN", "TIME", "HOST", "SLOT", "DEVICE",
	    "SEQ-READ", "SEQ-WRITE", "RAND-READ", "RAND-WRITE");
	table_key(&t, 1);
	if (d->serial != NULL) {
		/* oldest first: newest first here */
		for (i = h.n; i-- > 0;)
			if (h.v[i].time >= since)
				disk_row(&t, &h.v[i], host);
	} else
		for (i = 0; i < rs->n; i++)
			for (j = 0; j < rs->v[i].disks.n; j++) {
				const struct lab_bench_disk *o =
				    &rs->v[i].disks.v[j];

				if (o->serial == NULL &&
				    strcmp(o->slot, d->slot) == 0)
					disk_row(&t, o, host);
			}
	table_print(&t, stdout);
	table_release(&t);
	lab_bench_disks_release(&h);
	return 0;
}

static void
print_csv(const struct lab_bench_runs *rs)
{
	struct table	t;
	size_t		i, j;

	table_init(&t, 9, "RUN", "TIME", "HOST", "SLOT", "DEVICE",
	    "SEQ-READ", "SEQ-WRITE", "RAND-READ", "RAND-WRITE");
	for (i = 0; i < rs->n; i++)
		for (j = 0; j < rs->v[i].disks.n; j++)
			disk_row(&t, &rs->v[i].disks.v[j], rs->v[i].host);
	table_print(&t, stdout);
	table_release(&t);
}

int
cmd_history_bench(struct lab_call *call, const char *host, int known,
    int64_t since, struct lab_err *err)
{
	struct lab_bench_runs	rs;
	size_t			i, j;
	int			rc = 0;

	if (lab_db_bench_runs(call->db, host, since, &rs, err) == -1)
		return err->code;
	if (!known && rs.n == 0 && since == 0) {
		lab_bench_runs_release(&rs);
		return lab_err_set(err, LAB_EXIT_INPUT, "'%s' is not a host",
		    host), LAB_EXIT_INPUT;
	}
	if (call->json)
		rc = print_json(&rs, err);
	else if (call->csv)
		print_csv(&rs);
	else {
		print_runs(&rs);
		for (i = j = 0; i < rs.n; i++)
			j += rs.v[i].disks.n;
		if (j > 0)
			printf("\nMB/s of each disk over its runs (by serial, on any "
		    "host):\n");
		for (i = 0; rc == 0 && i < rs.n; i++)
			for (j = 0; rc == 0 && j < rs.v[i].disks.n; j++)
				if (!seen(&rs, i, j))
					rc = print_disk(call, &rs,
					    &rs.v[i].disks.v[j], host, since,
					    err);
	}
	if (rs.n == 0 && !call->json && !call->csv)
		fprintf(stderr, "lab: no bench runs of %s%s (lab bench %s "
		    "stores them)\n", cmd_vis(host), since ? " in that window" :
		    "", cmd_vis(host));
	lab_bench_runs_release(&rs);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}
