/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/render.h"
#include "lab/text.h"
#include "report-priv.h"

/*
 * The text and markdown Disks sections: per host with a bench run, its
 * last done run and one line (a row) a disk with the four tests' MB/s.
 * The findings of those runs are in the report's findings list.
 */

static const char *
dash(const char *s)
{
	return s != NULL && *s != '\0' ? s : "-";
}

static void
mb(struct lab_buf *b, const struct lab_bench_disk *d, enum lab_bench_test t,
    const char *fmt)
{
	size_t	i;

	for (i = 0; i < d->nresults; i++)
		if (d->results[i].test == t) {
			lab_buf_addf(b, fmt, d->results[i].mb_s);
			return;
		}
	lab_buf_adds(b, strchr(fmt, '|') != NULL ? " | -" : " -");
}

static void
run_head(struct lab_buf *b, const struct lab_bench_run *run)
{
	char	when[32];

	lab_format_time(run->started_at, when, sizeof(when));
	lab_buf_addf(b, "bench run %lld, %s, %s", (long long)run->id,
	    run->profile, when);
}

void
lab_report_disks_text(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_bench_disk	*d;
	size_t				 i, j;
	int				 t;

	if (!lab_report_has_disks(r))
		return;
	lab_buf_adds(b, "\nDisks (MB/s: seq-read, seq-write, rand-read, "
	    "rand-write)\n");
	for (i = 0; i < r->nhosts; i++) {
		const struct lab_bench_run *run = r->hosts[i].bench;

		if (run == NULL || run->disks.n == 0)
			continue;
		lab_buf_addf(b, "  %s: ", r->hosts[i].name);
		run_head(b, run);
		lab_buf_addc(b, '\n');
		for (j = 0; j < run->disks.n; j++) {
			d = &run->disks.v[j];
			lab_buf_addf(b, "    slot %s  %s  %s  %s  %s  %s ",
			    d->slot, dash(d->device), dash(d->serial),
			    dash(d->model), dash(d->kind), dash(d->controller));
			for (t = 0; t < LAB_BENCH_NTESTS; t++)
				mb(b, d, (enum lab_bench_test)t, " %.1f");
			if (d->skipped != NULL)
				lab_buf_addf(b, "  (%s)", d->skipped);
			lab_buf_addc(b, '\n');
		}
	}
}

/* As text.c's md(): visible, Markdown's marks escaped, one line. */
static void
md(struct lab_buf *b, const char *str)
{
	char		*v;
	const char	*s;

	if (str == NULL || *str == '\0') {
		lab_buf_adds(b, "-");
		return;
	}
	if ((v = lab_visible(str)) == NULL) {
		b->oom = 1;
		return;
	}
	for (s = v; *s != '\0'; s++) {
		if (*s == '|' || *s == '*' || *s == '_' || *s == '`' ||
		    *s == '<' || *s == '[' || *s == ']' || *s == '\\')
			lab_buf_addc(b, '\\');
		lab_buf_addc(b, *s);
	}
	free(v);
}

void
lab_report_disks_markdown(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_bench_disk	*d;
	size_t				 i, j;
	int				 t;

	if (!lab_report_has_disks(r))
		return;
	lab_buf_adds(b, "\n## Disks\n\nMB/s of each disk in its host's last "
	    "bench run.\n\n| host | run | slot | device | serial | model | "
	    "kind | controller | seq-read | seq-write | rand-read | "
	    "rand-write |\n|---|---:|---|---|---|---|---|---|---:|---:|---:|"
	    "---:|\n");
	for (i = 0; i < r->nhosts; i++) {
		const struct lab_bench_run *run = r->hosts[i].bench;

		for (j = 0; run != NULL && j < run->disks.n; j++) {
			d = &run->disks.v[j];
			lab_buf_adds(b, "| ");
			md(b, r->hosts[i].name);
			lab_buf_addf(b, " | %lld | ", (long long)run->id);
			md(b, d->slot);
			lab_buf_adds(b, " | ");
			md(b, d->device);
			lab_buf_adds(b, " | ");
			md(b, d->serial);
			lab_buf_adds(b, " | ");
			md(b, d->model);
			lab_buf_adds(b, " | ");
			md(b, d->kind);
			lab_buf_adds(b, " | ");
			md(b, d->controller);
			for (t = 0; t < LAB_BENCH_NTESTS; t++)
				mb(b, d, (enum lab_bench_test)t, " | %.1f");
			lab_buf_adds(b, " |\n");
		}
	}
}
