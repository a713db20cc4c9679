/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_REPORT_SPARK_PRIV_H
#define LAB_REPORT_SPARK_PRIV_H

#include <stddef.h>

#include "lab/report.h"
#include "lab/str.h"

/* A sparkline's size, in SVG user units (pixels). */
#define LAB_SPARK_W	120
#define LAB_SPARK_H	20

enum lab_spark_kind {
	LAB_SPARK_LINE,		/* numbers: a line through the known points */
	LAB_SPARK_STEP,		/* power: 1 on (top), 0 off (bottom), unknown
				 * (known 0) at mid height, held until the
				 * next point */
};

/*
 * Appends an inline <svg class="spark"> (its own lines, no script) of
 * the n points p (oldest first): time across, value up, scaled to the
 * series' own range; title (escaped) is its tooltip. data-points holds
 * the points drawn. Fewer than two points (known ones for a line) draw
 * nothing.
 */
void	lab_report_spark(struct lab_buf *, const char *title,
	    const struct lab_report_point *p, size_t n, enum lab_spark_kind);

#endif
