/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "bars-priv.h"
#include "report-html-priv.h"
#include "report-priv.h"
#include "spark-priv.h"

/*
 * The HTML Disks section: per host with a bench run, one grouped bar
 * chart (a group a test, a bar a disk) and a table of its disks, each
 * with a sparkline of its seq-read and seq-write over its last runs (by
 * serial, so the runs on another host or slot count).
 */

int
lab_report_has_disks(const struct lab_report *r)
{
	size_t	i;

	for (i = 0; i < r->nhosts; i++)
		if (r->hosts[i].bench != NULL &&
		    r->hosts[i].bench->disks.n > 0)
			return 1;
	return 0;
}

static double
mb_of(const struct lab_bench_disk *d, enum lab_bench_test t)
{
	size_t	i;

	for (i = 0; i < d->nresults; i++)
		if (d->results[i].test == t)
			return d->results[i].mb_s;
	return -1;
}

static void
cell_mb(struct lab_buf *b, double v)
{
	if (v < 0)
		lab_buf_adds(b, "<td class=\"muted\">-</td>");
	else
		lab_buf_addf(b, "<td class=\"num\">%.1f</td>", v);
}

static void
cell(struct lab_buf *b, const char *s)
{
	lab_buf_adds(b, "<td>");
	if (s == NULL)
		lab_buf_adds(b, "<span class=\"muted\">-</span>");
	else
		lab_report_esc(b, s);
	lab_buf_adds(b, "</td>");
}

/* The disk's test over its runs, oldest first. */
static void
spark(struct lab_buf *b, const struct lab_bench_disk *d,
    const struct lab_bench_disks *h, enum lab_bench_test t)
{
	struct lab_report_point	*p;
	char			*title;
	size_t			 i;

	lab_buf_adds(b, "<td>");
	if (h->n > 0 && (p = calloc(h->n, sizeof(*p))) != NULL) {
		for (i = 0; i < h->n; i++) {
			double v = mb_of(&h->v[i], t);

			p[i].time = h->v[i].time;
			p[i].value = v;
			p[i].known = v >= 0;
		}
		title = lab_asprintf("%s %s MB/s over %zu runs",
		    d->serial != NULL ? d->serial : d->slot,
		    lab_bench_test_name(t), h->n);
		lab_report_spark(b, title != NULL ? title : "", p, h->n,
		    LAB_SPARK_LINE);
		free(title);
		free(p);
	}
	lab_buf_adds(b, "</td>");
}

static void
host_disks(const struct lab_report_host *h, struct lab_buf *b)
{
	const struct lab_bench_run	*run = h->bench;
	const char			*groups[LAB_BENCH_NTESTS];
	char				**labels, *title;
	double				*v;
	size_t				 n = run->disks.n, i;
	int				 t;

	lab_buf_adds(b, "<h3>");
	lab_report_esc(b, h->name);
	lab_buf_addf(b, "</h3>\n<p>Bench run %lld, ", (long long)run->id);
	lab_report_esc(b, run->profile);
	lab_buf_addf(b, ", %zu %s: MB/s per test, each test scaled to its "
	    "fastest disk.</p>\n", n, n == 1 ? "disk" : "disks");
	labels = calloc(n, sizeof(*labels));
	v = calloc(n * LAB_BENCH_NTESTS, sizeof(*v));
	if (labels != NULL && v != NULL) {
		for (t = 0; t < LAB_BENCH_NTESTS; t++)
			groups[t] = lab_bench_test_name((enum lab_bench_test)t);
		for (i = 0; i < n; i++) {
			labels[i] = lab_asprintf("slot %s", run->disks.v[i].slot);
			for (t = 0; t < LAB_BENCH_NTESTS; t++)
				v[(size_t)t * n + i] = mb_of(&run->disks.v[i],
				    (enum lab_bench_test)t);
		}
		title = lab_asprintf("%s: MB/s of each disk per test, bench "
		    "run %lld", h->name, (long long)run->id);
		lab_report_bars(b, title != NULL ? title : "", groups,
		    LAB_BENCH_NTESTS, (const char *const *)labels, n, v, "MB/s");
		free(title);
		for (i = 0; i < n; i++)
			free(labels[i]);
	}
	free(labels);
	free(v);
	lab_buf_adds(b, "<table><thead><tr><th>Slot</th><th>Device</th>"
	    "<th>Serial</th><th>Model</th><th>Kind</th><th>Controller</th>"
	    "<th>seq-read</th><th>seq-write</th><th>rand-read</th>"
	    "<th>rand-write</th><th>seq-read, last runs</th>"
	    "<th>seq-write, last runs</th><th>Skipped</th></tr></thead>"
	    "<tbody>\n");
	for (i = 0; i < n; i++) {
		const struct lab_bench_disk *d = &run->disks.v[i];

		lab_buf_adds(b, "<tr class=\"bench-disk\">");
		cell(b, d->slot);
		cell(b, d->device);
		cell(b, d->serial);
		cell(b, d->model);
		cell(b, d->kind);
		cell(b, d->controller);
		for (t = 0; t < LAB_BENCH_NTESTS; t++)
			cell_mb(b, mb_of(d, (enum lab_bench_test)t));
		spark(b, d, &h->bench_history[i], LAB_BENCH_SEQ_READ);
		spark(b, d, &h->bench_history[i], LAB_BENCH_SEQ_WRITE);
		cell(b, d->skipped);
		lab_buf_adds(b, "</tr>\n");
	}
	lab_buf_adds(b, "</tbody></table>\n");
}

void
lab_report_disks_html(const struct lab_report *r, struct lab_buf *b)
{
	size_t	i;

	if (!lab_report_has_disks(r))
		return;
	lab_buf_adds(b, "<section id=\"disks\"><h2>Disks</h2>\n");
	for (i = 0; i < r->nhosts; i++)
		if (r->hosts[i].bench != NULL &&
		    r->hosts[i].bench->disks.n > 0)
			host_disks(&r->hosts[i], b);
	lab_buf_adds(b, "</section>\n");
}
