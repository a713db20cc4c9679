/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lib/report/bars.c: the Disks section's grouped bar charts, a pure
   function of the figures: one <rect> a value, heights scaled to the
   largest of each group, missing values drawn as no bar, labels escaped,
   empty input drawing nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab/str.h"
#include "report/bars-priv.h"

#include "tests.h"

static size_t
count(const char *s, const char *what)
{
	size_t	n = 0;

	for (; s != NULL && (s = strstr(s, what)) != NULL; s++)
		n++;
	return n;
}

/* The height="..." of the i-th <rect>, or -1. */
static double
rect_height(const char *s, size_t i)
{
	const char	*h;

	for (; s != NULL && (s = strstr(s, "<rect ")) != NULL; s++)
		if (i-- == 0) {
			h = strstr(s, " height=\"");
			return h != NULL ? strtod(h + 9, NULL) : -1;
		}
	return -1;
}

static void
test_grouped(void)
{
	const char *const	groups[] = { "seq-read", "seq-write" };
	const char *const	series[] = { "slot 1", "slot 2", "slot 4" };
	/* seq-read: 117, 117, 107; seq-write: 110, 110, 11.3 */
	const double		v[] = { 117, 117, 107, 110, 110, 11.3 };
	struct lab_buf		b;
	double			top;

	lab_buf_init(&b);
	lab_report_bars(&b, "neo", groups, 2, series, 3, v, "MB/s");
	CHECK(!b.oom);
	CHECK(strncmp(b.s, "<svg class=\"bars\" ", 18) == 0);
	CHECK_HAS(b.s, "width=\"720\" height=\"220\"");
	CHECK_HAS(b.s, "data-bars=\"6\"");
	CHECK(count(b.s, "<rect ") == 6);
	CHECK(count(b.s, "<script") == 0);
	CHECK_HAS(b.s, "<title>slot 4 seq-write: 11.3 MB/s</title>");
	/* the fastest of each group is the full height, the rest scaled */
	top = rect_height(b.s, 0);
	CHECK(top > 100);
	CHECK(fabs(rect_height(b.s, 3) - top) < 0.11);
	CHECK(fabs(rect_height(b.s, 2) - top * 107 / 117) < 0.11);
	CHECK(fabs(rect_height(b.s, 5) - top * 11.3 / 110) < 0.11);
	CHECK(count(b.s, ">seq-write</text>") == 1);
	lab_buf_release(&b);
}

static void
test_missing(void)
{
	const char *const	groups[] = { "seq-read", "seq-write" };
	const char *const	series[] = { "slot 1", "slot 2" };
	const double		v[] = { 90, 100, -1, NAN };
	struct lab_buf		b;

	lab_buf_init(&b);
	lab_report_bars(&b, "nas", groups, 2, series, 2, v, "MB/s");
	CHECK_HAS(b.s, "data-bars=\"2\"");
	CHECK(count(b.s, "<rect ") == 2);
	/* the group is still labelled */
	CHECK(count(b.s, ">seq-write</text>") == 1);
	lab_buf_release(&b);
}

static void
test_empty(void)
{
	const char *const	groups[] = { "seq-read" };
	const char *const	series[] = { "slot 1" };
	const double		none[] = { -1 };
	struct lab_buf		b;

	lab_buf_init(&b);
	lab_report_bars(&b, "x", groups, 0, series, 1, none, "MB/s");
	lab_report_bars(&b, "x", groups, 1, series, 0, none, "MB/s");
	lab_report_bars(&b, "x", groups, 1, series, 1, none, "MB/s");
	CHECK(b.len == 0);
	lab_buf_release(&b);
}

static void
test_escaping(void)
{
	const char *const	groups[] = { "<g>&" };
	const char *const	series[] = { "slot \"A\" <script>\x1b[31m" };
	const double		v[] = { 5 };
	struct lab_buf		b;

	lab_buf_init(&b);
	lab_report_bars(&b, "r&d <lab>", groups, 1, series, 1, v, "MB/s");
	CHECK_HAS(b.s, "<title>r&amp;d &lt;lab&gt;</title>");
	CHECK_HAS(b.s, "slot &quot;A&quot; &lt;script&gt;");
	CHECK_HAS(b.s, "&lt;g&gt;&amp;");
	CHECK(strstr(b.s, "<script") == NULL);
	CHECK(strchr(b.s, '\x1b') == NULL);
	lab_buf_release(&b);
}

int
main(void)
{
	test_grouped();
	test_missing();
	test_empty();
	test_escaping();
	return tests_failed ? 1 : 0;
}
