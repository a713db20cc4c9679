/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lib/report/spark.c: the report's sparklines, a pure function of the
   points: how many are drawn, where, an empty or one-point series, the
   escaping of the title. */
#include <stdlib.h>
#include <string.h>

#include "lab/report.h"
#include "lab/str.h"
#include "report/spark-priv.h"

#include "tests.h"

/* The points="..." attribute of the first polyline, copied. */
static char *
points(const char *svg)
{
	const char	*a = strstr(svg, " points=\"");
	const char	*z;
	char		*s;

	if (a == NULL)
		return NULL;
	a += 9;
	if ((z = strchr(a, '"')) == NULL)
		return NULL;
	s = malloc((size_t)(z - a) + 1);
	memcpy(s, a, (size_t)(z - a));
	s[z - a] = '\0';
	return s;
}

static size_t
count_pairs(const char *pts)
{
	size_t	n = 0;

	for (; pts != NULL && *pts != '\0'; pts++)
		if (*pts == ',')
			n++;
	return n;
}

static void
test_line(void)
{
	struct lab_report_point	p[3] = {
		{ .time = 1000, .value = 40, .known = 1 },
		{ .time = 1500, .value = 60, .known = 1 },
		{ .time = 2000, .value = 50, .known = 1 },
	};
	struct lab_buf		b;
	char			*pts;

	lab_buf_init(&b);
	lab_report_spark(&b, "MB Temp", p, 3, LAB_SPARK_LINE);
	CHECK(!b.oom);
	CHECK(strncmp(b.s, "<svg ", 5) == 0);
	CHECK_HAS(b.s, "xmlns=\"http://www.w3.org/2000/svg\"");
	CHECK_HAS(b.s, "width=\"120\" height=\"20\"");
	CHECK_HAS(b.s, "data-points=\"3\"");
	CHECK_HAS(b.s, "<title>MB Temp</title>");
	CHECK(strstr(b.s, "<script") == NULL);
	CHECK(b.len > 7 && strcmp(b.s + b.len - 7, "</svg>\n") == 0);
	pts = points(b.s);
	/* first at the left, lowest at the bottom, highest at the top,
	   the middle time in the middle */
	CHECK_STR(pts, "1.0,18.0 60.0,2.0 119.0,10.0");
	free(pts);
	lab_buf_release(&b);
}

static void
test_step(void)
{
	struct lab_report_point	p[3] = {
		{ .time = 0, .value = 0, .known = 1 },		/* off */
		{ .time = 100, .value = 1, .known = 1 },	/* on */
		{ .time = 200, .value = 0, .known = 0 },	/* unknown */
	};
	struct lab_buf		b;
	char			*pts;

	lab_buf_init(&b);
	lab_report_spark(&b, "power", p, 3, LAB_SPARK_STEP);
	pts = points(b.s);
	/* held across, then up or down: 2n - 1 pairs */
	CHECK_STR(pts, "1.0,18.0 60.0,18.0 60.0,2.0 119.0,2.0 119.0,10.0");
	CHECK(count_pairs(pts) == 5);
	CHECK_HAS(b.s, "data-points=\"3\"");
	free(pts);
	lab_buf_release(&b);
}

static void
test_scaling(void)
{
	struct lab_report_point	p[4] = {
		{ .time = 5, .value = 7, .known = 1 },
		{ .time = 5, .value = 7, .known = 1 },
		{ .time = 5, .value = 7, .known = 0 },	/* a line skips it */
		{ .time = 5, .value = 7, .known = 1 },
	};
	struct lab_buf		b;
	char			*pts;

	/* one time, one value: spread by index, at mid height */
	lab_buf_init(&b);
	lab_report_spark(&b, "flat", p, 4, LAB_SPARK_LINE);
	pts = points(b.s);
	CHECK_STR(pts, "1.0,10.0 60.0,10.0 119.0,10.0");
	CHECK_HAS(b.s, "data-points=\"3\"");
	free(pts);
	lab_buf_release(&b);
}

static void
test_empty(void)
{
	struct lab_report_point	p[2] = {
		{ .time = 1, .value = 3, .known = 1 },
		{ .time = 2, .value = 3, .known = 0 },
	};
	struct lab_buf		b;

	lab_buf_init(&b);
	lab_report_spark(&b, "none", NULL, 0, LAB_SPARK_LINE);
	CHECK(b.len == 0);
	lab_report_spark(&b, "one", p, 1, LAB_SPARK_STEP);
	CHECK(b.len == 0);
	/* one known point of a line: nothing either */
	lab_report_spark(&b, "one known", p, 2, LAB_SPARK_LINE);
	CHECK(b.len == 0);
	/* a step line draws the unknown one */
	lab_report_spark(&b, "two", p, 2, LAB_SPARK_STEP);
	CHECK(b.len > 0);
	lab_buf_release(&b);
}

static void
test_escaping(void)
{
	struct lab_report_point	p[2] = {
		{ .time = 1, .value = 1, .known = 1 },
		{ .time = 2, .value = 2, .known = 1 },
	};
	struct lab_buf		b;

	lab_buf_init(&b);
	lab_report_spark(&b, "<b>\"CPU\" & 'x'</b>\x1b[31m", p, 2,
	    LAB_SPARK_LINE);
	CHECK_HAS(b.s, "<title>&lt;b&gt;&quot;CPU&quot; &amp; &#39;x&#39;"
	    "&lt;/b&gt;");
	CHECK(strstr(b.s, "<b>") == NULL);
	CHECK(strchr(b.s, '\x1b') == NULL);
	lab_buf_release(&b);
}

int
main(void)
{
	test_line();
	test_step();
	test_scaling();
	test_empty();
	test_escaping();
	return tests_failed ? 1 : 0;
}
