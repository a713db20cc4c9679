/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>

#include "bars-priv.h"
#include "report-html-priv.h"

/*
 * Grouped bar charts as inline SVG, a pure function of the figures: the
 * Disks section's MB/s of each disk per test beside its peers.
 */

#define PAD	10.0
#define TOP	24.0		/* room for the values over the bars */
#define BASE_Y	170.0		/* the bars stand on it */
#define GAP	0.2		/* of a group's width, between groups */

static const char *const colours[] = {
	"#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#ad1457",
};

static int
has(double v)
{
	return isfinite(v) && v >= 0;
}

void
lab_report_bars(struct lab_buf *b, const char *title,
    const char *const *groups, size_t ngroups, const char *const *series,
    size_t nseries, const double *v, const char *unit)
{
	double	gw, bw, x, h, max;
	size_t	g, s, n = 0;

	for (g = 0; g < ngroups * nseries; g++)
		if (has(v[g]))
			n++;
	if (ngroups == 0 || nseries == 0 || n == 0)
		return;
	gw = (LAB_BARS_W - 2 * PAD) / (double)ngroups;
	bw = gw * (1 - GAP) / (double)nseries;
	lab_buf_addf(b, "<svg class=\"bars\" xmlns=\"http://www.w3.org/2000/"
	    "svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "role=\"img\" data-bars=\"%zu\"><title>", LAB_BARS_W, LAB_BARS_H,
	    LAB_BARS_W, LAB_BARS_H, n);
	lab_report_esc(b, title);
	lab_buf_addf(b, "</title>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	    "y2=\"%.1f\" stroke=\"#999\"/>\n", PAD, BASE_Y, LAB_BARS_W - PAD,
	    BASE_Y);
	for (g = 0; g < ngroups; g++) {
		max = 0;
		for (s = 0; s < nseries; s++)
			if (has(v[g * nseries + s]) && v[g * nseries + s] > max)
				max = v[g * nseries + s];
		for (s = 0; s < nseries; s++) {
			double val = v[g * nseries + s];

			x = PAD + gw * (double)g + gw * GAP / 2 + bw * (double)s;
			if (has(val)) {
				h = max > 0 ? (BASE_Y - TOP) * val / max : 0;
				lab_buf_addf(b, "<rect x=\"%.1f\" y=\"%.1f\" "
				    "width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
				    "<title>", x + 1, BASE_Y - h, bw - 2, h,
				    colours[s % 6]);
				lab_report_esc(b, series[s]);
				lab_buf_adds(b, " ");
				lab_report_esc(b, groups[g]);
				lab_buf_addf(b, ": %.1f ", val);
				lab_report_esc(b, unit);
				lab_buf_addf(b, "</title></rect><text x=\"%.1f\" "
				    "y=\"%.1f\" font-size=\"10\" "
				    "text-anchor=\"middle\">%.1f</text>\n",
				    x + bw / 2, BASE_Y - h - 3, val);
			}
			lab_buf_addf(b, "<text x=\"%.1f\" y=\"%.1f\" "
			    "font-size=\"10\" text-anchor=\"middle\">",
			    x + bw / 2, BASE_Y + 14);
			lab_report_esc_short(b, series[s], 10);
			lab_buf_adds(b, "</text>\n");
		}
		lab_buf_addf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
		    "font-weight=\"bold\" text-anchor=\"middle\">",
		    PAD + gw * (double)g + gw / 2, BASE_Y + 36);
		lab_report_esc(b, groups[g]);
		lab_buf_adds(b, "</text>\n");
	}
	lab_buf_adds(b, "</svg>\n");
}
