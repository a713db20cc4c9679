/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/json.h"
#include "lab/render.h"
#include "lab/report.h"
#include "core/idx.h"
#include "db/history-rows.h"
#include "history-priv.h"
#include "report-html-priv.h"
#include "spark-priv.h"

/*
 * The series of the report's sparklines: each host's power states and
 * temperatures over the window, from lib/db (db/history-rows.h).
 */

#define WINDOW_DEFAULT	((int64_t)30 * 86400)

struct load {
	struct lab_report	*r;
	const struct lab_idx	*ids;
};

static int
add_power(void *arg, const struct lab_db_report_power_point *row)
{
	struct load		*l = arg;
	struct lab_report_host	*h;
	struct lab_report_point	*p;
	long			 i = lab_idx_find(l->ids, row->host_id);

	if (i < 0)
		return 0;
	h = &l->r->hosts[i];
	if ((p = lab_push(&h->power_history, &h->npower_history,
	    sizeof(*p))) == NULL)
		return -1;
	p->time = row->time;
	p->known = row->state != NULL;
	p->value = row->state != NULL && strcmp(row->state, "on") == 0;
	return 0;
}

static int
add_temperature(void *arg, const struct lab_db_report_reading *row)
{
	struct load			*l = arg;
	struct lab_report_host		*h;
	struct lab_report_series	*s;
	struct lab_report_point		*p;
	long				 i = lab_idx_find(l->ids, row->host_id);

	if (i < 0 || row->name == NULL)
		return 0;
	h = &l->r->hosts[i];
	s = h->ntemperatures > 0 ? &h->temperatures[h->ntemperatures - 1] :
	    NULL;
	if (s == NULL || strcmp(s->name, row->name) != 0) {
		if ((s = lab_push(&h->temperatures, &h->ntemperatures,
		    sizeof(*s))) == NULL ||
		    (s->name = lab_strdup(row->name)) == NULL)
			return -1;
		s->unit = lab_strdup(row->unit);
	}
	if ((p = lab_push(&s->v, &s->n, sizeof(*p))) == NULL)
		return -1;
	p->time = row->time;
	p->value = row->value;
	p->known = 1;
	return 0;
}

int
lab_report_history(struct lab_db *db, struct lab_report *r,
    const struct lab_idx *hids, struct lab_err *err)
{
	struct load	l = { r, hids };

	r->history_since = r->previous_run != 0 ? r->previous_run :
	    r->generated_at - WINDOW_DEFAULT;
	if (lab_db_report_power_history(db, r->history_since, add_power, &l,
	    err) == -1 ||
	    lab_db_report_temperatures(db, r->history_since, add_temperature,
	    &l, err) == -1)
		return -1;
	return 0;
}

void
lab_report_history_free(struct lab_report_host *h)
{
	size_t	i;

	free(h->power_history);
	for (i = 0; i < h->ntemperatures; i++) {
		free(h->temperatures[i].name);
		free(h->temperatures[i].unit);
		free(h->temperatures[i].v);
	}
	free(h->temperatures);
}

/* The host's sparklines, as <dt>/<dd> pairs of its facts; nothing to
 * draw, nothing written. */
void
lab_report_html_history(const struct lab_report_host *h, struct lab_buf *b)
{
	const struct lab_report_series	*s;
	char				*title;
	double				 lo, hi;
	size_t				 i, k;

	if (h->npower_history >= 2) {
		title = lab_asprintf("power state of %s: %zu readings "
		    "(top: on, bottom: off, middle: unknown)", h->name,
		    h->npower_history);
		lab_buf_adds(b, "<dt>Power history</dt><dd>\n");
		lab_report_spark(b, title ? title : "power state",
		    h->power_history, h->npower_history, LAB_SPARK_STEP);
		lab_buf_adds(b, "</dd>\n");
		free(title);
	}
	for (i = 0; i < h->ntemperatures; i++) {
		s = &h->temperatures[i];
		if (s->n < 2)
			continue;
		lo = hi = s->v[0].value;
		for (k = 1; k < s->n; k++) {
			if (s->v[k].value < lo)
				lo = s->v[k].value;
			if (s->v[k].value > hi)
				hi = s->v[k].value;
		}
		title = lab_asprintf("%s: %.2f to %.2f%s%s, %zu readings, "
		    "latest %.2f", s->name, lo, hi, s->unit ? " " : "",
		    s->unit ? s->unit : "", s->n, s->v[s->n - 1].value);
		lab_buf_adds(b, "<dt>");
		lab_report_esc(b, s->name);
		lab_buf_adds(b, "</dt><dd>\n");
		lab_report_spark(b, title ? title : s->name, s->v, s->n,
		    LAB_SPARK_LINE);
		lab_buf_addf(b, "%.2f%s", s->v[s->n - 1].value,
		    s->unit ? " " : "");
		lab_report_esc(b, s->unit);
		lab_buf_adds(b, "</dd>\n");
		free(title);
	}
}

/* The host's series in its JSON: power_history [{time, state}] and
 * temperatures [{sensor, unit, points [{time, value}]}]. */
void
lab_report_json_history(struct lab_json *j, const struct lab_report_host *h)
{
	const struct lab_report_series	*s;
	char				 num[32];
	size_t				 i, k;

	lab_json_key(j, "power_history");
	lab_json_arr_begin(j);
	for (i = 0; i < h->npower_history; i++) {
		lab_json_obj_begin(j);
		lab_json_ktime(j, "time", h->power_history[i].time);
		lab_json_kstr(j, "state", !h->power_history[i].known ? NULL :
		    h->power_history[i].value > 0.5 ? "on" : "off");
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "temperatures");
	lab_json_arr_begin(j);
	for (i = 0; i < h->ntemperatures; i++) {
		s = &h->temperatures[i];
		lab_json_obj_begin(j);
		lab_json_kstr(j, "sensor", s->name);
		lab_json_kstr(j, "unit", s->unit);
		lab_json_key(j, "points");
		lab_json_arr_begin(j);
		for (k = 0; k < s->n; k++) {
			lab_json_obj_begin(j);
			lab_json_ktime(j, "time", s->v[k].time);
			snprintf(num, sizeof(num), "%.2f", s->v[k].value);
			lab_json_key(j, "value");
			lab_json_raw(j, num);
			lab_json_obj_end(j);
		}
		lab_json_arr_end(j);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}
