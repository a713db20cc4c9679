/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <string.h>

#include "report-html-priv.h"
#include "spark-priv.h"

/*
 * Sparklines: a series as a small inline SVG polyline, a pure function
 * of the points. The line keeps one pixel inside the box.
 */

#define PADX	1.0
#define PADY	2.0

/* x of time t in [t0, t1]; the i-th of n when every time is the same. */
static double
xpos(int64_t t, int64_t t0, int64_t t1, size_t i, size_t n)
{
	double	w = LAB_SPARK_W - 2 * PADX;

	if (t1 > t0)
		return PADX + w * (double)(t - t0) / (double)(t1 - t0);
	return PADX + w * (double)i / (double)(n - 1);
}

/* y of value v in [lo, hi] (higher is up); the middle when flat. */
static double
ypos(double v, double lo, double hi)
{
	double	h = LAB_SPARK_H - 2 * PADY;

	if (hi > lo)
		return PADY + h * (hi - v) / (hi - lo);
	return LAB_SPARK_H / 2.0;
}

static double
step_y(const struct lab_report_point *p)
{
	if (!p->known)
		return LAB_SPARK_H / 2.0;
	return p->value > 0.5 ? PADY : LAB_SPARK_H - PADY;
}

static void
open_svg(struct lab_buf *b, const char *title, size_t npoints,
    const char *cls)
{
	lab_buf_addf(b, "<svg class=\"spark %s\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" role=\"img\" data-points=\"%zu\">"
	    "<title>", cls, LAB_SPARK_W, LAB_SPARK_H, LAB_SPARK_W,
	    LAB_SPARK_H, npoints);
	lab_report_esc(b, title);
	lab_buf_addf(b, "</title>\n<polyline fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"1.5\" points=\"", strcmp(cls, "step") == 0 ?
	    "#2e7d32" : "#1565c0");
}

void
lab_report_spark(struct lab_buf *b, const char *title,
    const struct lab_report_point *p, size_t n, enum lab_spark_kind kind)
{
	double	lo = 0, hi = 0, x, y, prev_y = 0;
	size_t	i, known = 0, drawn = 0;
	int64_t	t0 = 0, t1 = 0;

	for (i = 0; i < n; i++) {
		if (kind == LAB_SPARK_LINE && !p[i].known)
			continue;
		if (known == 0 || p[i].value < lo)
			lo = p[i].value;
		if (known == 0 || p[i].value > hi)
			hi = p[i].value;
		if (known == 0)
			t0 = p[i].time;
		t1 = p[i].time;
		known++;
	}
	if (known < 2)
		return;
	/* the points as given, oldest first: t1 is the last */
	open_svg(b, title, known, kind == LAB_SPARK_STEP ? "step" : "line");
	for (i = 0; i < n; i++) {
		if (kind == LAB_SPARK_LINE && !p[i].known)
			continue;
		x = xpos(p[i].time, t0, t1, drawn, known);
		if (kind == LAB_SPARK_STEP) {
			y = step_y(&p[i]);
			/* held until now: across, then up or down */
			if (drawn > 0)
				lab_buf_addf(b, " %.1f,%.1f", x, prev_y);
		} else
			y = ypos(p[i].value, lo, hi);
		lab_buf_addf(b, "%s%.1f,%.1f", drawn > 0 ? " " : "", x, y);
		prev_y = y;
		drawn++;
	}
	lab_buf_adds(b, "\"/>\n</svg>\n");
}
