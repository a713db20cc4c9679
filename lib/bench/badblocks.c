/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/burnin.h"

/*
 * badblocks -w -v -b 4096 (e2fsprogs 1.47): the bad blocks on stdout,
 * one decimal number a line; on stderr, after the passes, the summary
 *
 *	Pass completed, 4160 bad blocks found. (0/4096/64 errors)
 *
 * (read/write/compare errors). Fixtures: tests/fixtures/burnin/.
 */
#define SUMMARY	"Pass completed, "

/* The last summary line in text, or NULL. */
static const char *
summary(const char *text)
{
	const char	*p, *last = NULL;

	for (p = text; (p = strstr(p, SUMMARY)) != NULL; p++)
		last = p;
	return last;
}

static int
number(const char *p, size_t n, int64_t *v)
{
	char		 buf[32];
	char		*end;
	long long	 x;

	if (n == 0 || n >= sizeof(buf) || strspn(p, "0123456789") < n)
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = x;
	return 0;
}

/* A decimal count at *p, then the text lit; moves *p past both. */
static int
count_then(const char **p, const char *lit, int64_t *v)
{
	size_t	n = strspn(*p, "0123456789");

	if (number(*p, n, v) == -1 || strncmp(*p + n, lit, strlen(lit)) != 0)
		return -1;
	*p += n + strlen(lit);
	return 0;
}

/* "N bad blocks found. (R/W/C errors)" */
static int
counts(const char *p, int64_t *bad, int64_t *r, int64_t *w, int64_t *c)
{
	if (count_then(&p, " bad blocks found. (", bad) == -1 ||
	    count_then(&p, "/", r) == -1 || count_then(&p, "/", w) == -1 ||
	    count_then(&p, " errors)", c) == -1)
		return -1;
	return 0;
}

int
lab_badblocks_parse(const char *out, size_t outlen, const char *err_text,
    const char *where, struct lab_badblocks *bb, struct lab_err *err)
{
	const char	*s, *p, *end, *nl;
	int64_t		 bad, r, w, c, v;
	size_t		 line = 0, n;

	memset(bb, 0, sizeof(*bb));
	bb->first = -1;
	if (err_text == NULL || (s = summary(err_text)) == NULL)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: badblocks did "
		    "not finish: no \"Pass completed\" summary in what it "
		    "printed", where);
	if (counts(s + strlen(SUMMARY), &bad, &r, &w, &c) == -1)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: badblocks' "
		    "summary is not \"Pass completed, N bad blocks found. "
		    "(R/W/C errors)\"", where);
	bb->bad = bad;
	bb->read = r;
	bb->write = w;
	bb->compare = c;
	if (out == NULL)
		return 0;	/* cut: the counts alone */
	p = out;
	end = out + outlen;
	while (p < end) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (n > 0) {
			if (number(p, n, &v) == -1)
				return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: "
				    "badblocks' output line %zu is not a block "
				    "number", where, line);
			if (bb->listed++ == 0)
				bb->first = v;
		}
		p += n + (nl != NULL);
	}
	return 0;
}
