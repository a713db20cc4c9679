/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/bench-pool.h"
#include "lab/json.h"
#include "report-html-priv.h"

/*
 * The pool settings tables (lab bench HOST --pool): the JSON object that
 * lab bench --json prints and the report's pool_benchmarks hold, and the
 * report's HTML table, one a host and pool (the latest done run).
 */

/* The column order of the table and the JSON: the seed's. */
static const enum lab_bench_test cols[] = { LAB_BENCH_SEQ_WRITE,
	LAB_BENCH_SEQ_READ, LAB_BENCH_RAND_READ, LAB_BENCH_RAND_WRITE };

const struct lab_pool_test *
lab_pool_combo_test(const struct lab_pool_combo *c, enum lab_bench_test t)
{
	size_t	i;

	for (i = 0; i < c->ntests; i++)
		if (c->tests[i].test == t)
			return &c->tests[i];
	return NULL;
}

static void
jnum(struct lab_json *j, const char *key, double v)
{
	char	num[64];

	snprintf(num, sizeof(num), "%.3f", v);
	lab_json_key(j, key);
	lab_json_raw(j, num);
}

void
lab_pool_run_json(struct lab_json *j, const struct lab_pool_run *run)
{
	size_t	k, i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "host", run->host);
	lab_json_kstr(j, "pool", run->pool);
	lab_json_kint(j, "run", run->id);
	lab_json_kint(j, "repeat", run->repeat);
	lab_json_key(j, "settings");
	lab_json_arr_begin(j);
	for (k = 0; k < run->ncombos; k++) {
		const struct lab_pool_combo	*c = &run->combos[k];
		char				 set[1024], *p, *w, *eq;

		lab_json_obj_begin(j);
		lab_json_key(j, "set");
		lab_json_obj_begin(j);
		snprintf(set, sizeof(set), "%s", c->set != NULL ? c->set : "");
		/* "defaults" (no --set) has no '=': an empty object */
		for (p = set; (w = strsep(&p, " ")) != NULL;)
			if ((eq = strchr(w, '=')) != NULL) {
				*eq = '\0';
				lab_json_kstr(j, w, eq + 1);
			}
		lab_json_obj_end(j);
		lab_json_key(j, "tests");
		lab_json_arr_begin(j);
		for (i = 0; i < LAB_ARRAY_SIZE(cols); i++) {
			const struct lab_pool_test *t = lab_pool_combo_test(c,
			    cols[i]);

			if (t == NULL)
				continue;
			lab_json_obj_begin(j);
			lab_json_kstr(j, "name", lab_bench_test_name(t->test));
			jnum(j, "mb_s", t->mb_s);
			jnum(j, "mb_s_min", t->mb_s_min);
			jnum(j, "mb_s_max", t->mb_s_max);
			jnum(j, "iops", t->iops);
			jnum(j, "lat_mean_ms", t->lat_mean_ms);
			jnum(j, "lat_p99_ms", t->lat_p99_ms);
			lab_json_kint(j, "runs", t->runs);
			lab_json_obj_end(j);
		}
		lab_json_arr_end(j);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}

void
lab_pool_cell(char *buf, size_t n, const struct lab_pool_test *t,
    int iops)
{
	double	med, lo, hi, s;

	if (t == NULL || t->runs == 0) {
		snprintf(buf, n, "-");
		return;
	}
	med = iops ? t->iops : t->mb_s;
	lo = iops ? t->iops_min : t->mb_s_min;
	hi = iops ? t->iops_max : t->mb_s_max;
	s = med - lo > hi - med ? med - lo : hi - med;
	if (med < 100)
		snprintf(buf, n, "%.1f ±%.1f", med, s);
	else
		snprintf(buf, n, "%.0f ±%.0f", med, s);
}

void
lab_report_html_pools(const struct lab_report *r, struct lab_buf *b)
{
	char	cell[64];
	size_t	i, k, c;

	if (r->npools == 0)
		return;
	lab_buf_adds(b, "<section id=\"pools\"><h2>Pool settings</h2>\n");
	for (i = 0; i < r->npools; i++) {
		const struct lab_pool_run	*p = &r->pools[i];

		lab_buf_adds(b, "<h3>");
		lab_report_esc(b, p->host);
		lab_buf_adds(b, ": pool ");
		lab_report_esc(b, p->pool);
		lab_buf_addf(b, "</h3>\n<p>lab bench run %lld: median ±the "
		    "largest distance of a run from it, over %d run%s a "
		    "setting</p>\n<table><thead><tr><th>setting</th>"
		    "<th>seq-write MB/s</th><th>seq-read MB/s</th>"
		    "<th>rand-read IOPS</th><th>rand-write IOPS</th></tr>"
		    "</thead><tbody>\n", (long long)p->id, p->repeat,
		    p->repeat == 1 ? "" : "s");
		for (k = 0; k < p->ncombos; k++) {
			lab_buf_adds(b, "<tr><td>");
			lab_report_esc(b, p->combos[k].set);
			lab_buf_adds(b, "</td>");
			for (c = 0; c < LAB_ARRAY_SIZE(cols); c++) {
				lab_pool_cell(cell, sizeof(cell),
				    lab_pool_combo_test(&p->combos[k], cols[c]),
				    c >= 2);
				lab_buf_adds(b, "<td class=\"num\">");
				lab_report_esc(b, cell);
				lab_buf_adds(b, "</td>");
			}
			lab_buf_adds(b, "</tr>\n");
		}
		lab_buf_adds(b, "</tbody></table>\n");
	}
	lab_buf_adds(b, "</section>\n");
}
