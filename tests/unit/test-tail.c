/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lib/core/tail.c: the last bytes of a stream, and the note of the cut. */
#include <stdint.h>

#include "lab/tail.h"
#include "tests.h"

/* Adds the bytes 'a'..'z' over and over, n in all, step at a time. */
static void
feed(struct lab_tail *t, size_t n, size_t step)
{
	char	buf[64];
	size_t	i, k, at = 0;

	while (at < n) {
		k = n - at < step ? n - at : step;
		for (i = 0; i < k; i++)
			buf[i] = (char)('a' + (at + i) % 26);
		CHECK(lab_tail_add(t, buf, k) == 0);
		at += k;
	}
}

static void
test_ring(void)
{
	struct lab_tail	 t;
	char		*p;
	size_t		 len, i, steps[] = { 1, 7, 26, 64 };
	int		 ok;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		lab_tail_init(&t, 100);
		feed(&t, 1000, steps[i]);
		CHECK(t.total == 1000);
		CHECK(t.size <= 100);
		p = lab_tail_steal(&t, &len);
		CHECK(p != NULL && len == 100 && p[100] == '\0');
		/* the last 100 of 1000: byte 900 first */
		ok = p != NULL;
		for (size_t k = 0; ok && k < len; k++)
			ok = p[k] == (char)('a' + (900 + k) % 26);
		CHECK(ok);
		free(p);
		lab_tail_release(&t);
	}
	/* short: all of it, in little memory */
	lab_tail_init(&t, 1 << 20);
	CHECK(lab_tail_add(&t, "hello", 5) == 0);
	CHECK(t.size < 8192);
	p = lab_tail_steal(&t, &len);
	CHECK_STR(p, "hello");
	free(p);
	lab_tail_release(&t);
	/* one add larger than the cap */
	lab_tail_init(&t, 10);
	CHECK(lab_tail_add(&t, "0123456789abcdef", 16) == 0);
	p = lab_tail_steal(&t, &len);
	CHECK_STR(p, "6789abcdef");
	free(p);
	lab_tail_release(&t);
	/* nothing */
	lab_tail_init(&t, 10);
	p = lab_tail_steal(&t, &len);
	CHECK(p != NULL && len == 0 && *p == '\0');
	free(p);
	lab_tail_release(&t);
}

static void
test_text(void)
{
	char	*q;

	q = lab_tail_text("all of it\n", 10, 10);
	CHECK_STR(q, "all of it\n");
	free(q);
	/* cut: from the first whole line, after the note */
	q = lab_tail_text("ne one\nline two\nthree\n", 22, 2147483648U);
	CHECK_STR(q, "[output cut: 2147483648 bytes, the last 15 kept]\n"
	    "line two\nthree\n");
	free(q);
	/* no line end in what is kept: all of it */
	q = lab_tail_text("xxxx", 4, 9);
	CHECK_STR(q, "[output cut: 9 bytes, the last 4 kept]\nxxxx");
	free(q);
	/* only a line end at the very end: kept as it is */
	q = lab_tail_text("abc\n", 4, 9);
	CHECK_STR(q, "[output cut: 9 bytes, the last 4 kept]\nabc\n");
	free(q);
	q = lab_tail_text(NULL, 0, 0);
	CHECK_STR(q, "");
	free(q);
}

int
main(void)
{
	test_ring();
	test_text();
	TESTS_DONE();
}
