/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_REPORT_BARS_PRIV_H
#define LAB_REPORT_BARS_PRIV_H

#include <stddef.h>

#include "lab/str.h"

/* A bar chart's size, in SVG user units (pixels). */
#define LAB_BARS_W	720
#define LAB_BARS_H	220

/*
 * Appends an inline <svg class="bars"> (its own lines, no script): ngroups
 * groups side by side (the tests), in each one bar a series (the disks)
 * of height v[g * nseries + s], scaled to the largest of its group, so a
 * disk stands beside its peers test by test; a value below 0 (or NaN) is
 * no bar. Each bar is one <rect> with a <title> "SERIES GROUP: V UNIT"
 * and its value above it; the series' labels under the bars, the groups'
 * under those, all escaped. data-bars holds the bars drawn. No group, no
 * series, or no value draws nothing.
 */
void	lab_report_bars(struct lab_buf *, const char *title,
	    const char *const *groups, size_t ngroups,
	    const char *const *series, size_t nseries, const double *v,
	    const char *unit);

#endif
