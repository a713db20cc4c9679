/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Sizes: lab_parse_size, lab_format_size (and that the two round-trip),
 * lab_format_size_human.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lab/parse.h"

#include "tests.h"

#define KB	1000ULL
#define MB	(1000ULL * KB)
#define GB	(1000ULL * MB)
#define TB	(1000ULL * GB)
#define PB	(1000ULL * TB)
#define KIB	(1ULL << 10)
#define MIB	(1ULL << 20)
#define GIB	(1ULL << 30)
#define TIB	(1ULL << 40)
#define PIB	(1ULL << 50)

#define SENTINEL	0x5a5a5a5a5a5a5a5aULL

/* s parses to want bytes. */
static void
size_ok(const char *s, uint64_t want)
{
	uint64_t	 v = SENTINEL;
	const char	*why = NULL;
	int		 rc;

	rc = lab_parse_size(s, &v, &why);
	if (rc != 0 || v != want) {
		fprintf(stderr, "lab_parse_size(\"%s\"): rc %d, %" PRIu64
		    " (%s), want %" PRIu64 "\n", s, rc, v,
		    why ? why : "no reason", want);
		tests_failed++;
	}
}

/* s is refused with a reason containing reason; the output is untouched. */
static void
size_bad(const char *s, const char *reason)
{
	uint64_t	 v = SENTINEL;
	const char	*why = NULL;
	int		 rc;

	rc = lab_parse_size(s, &v, &why);
	if (rc != -1 || v != SENTINEL) {
		fprintf(stderr, "lab_parse_size(\"%s\"): rc %d, %" PRIu64
		    ", want refused\n", s, rc, v);
		tests_failed++;
		return;
	}
	CHECK_HAS(why, reason);
	/* why is optional */
	CHECK(lab_parse_size(s, &v, NULL) == -1);
}

static void
test_parse(void)
{
	size_ok("500GB", 500 * GB);
	size_ok("1TB", TB);
	size_ok("72G", 72 * GB);
	size_ok("1.5TiB", TIB + TIB / 2);
	size_ok("4096", 4096);
	size_ok("0", 0);
	size_ok("7B", 7);
	size_ok("1kib", KIB);
	size_ok("1KiB", KIB);
	size_ok("1KIB", KIB);
	size_ok("2k", 2 * KB);
	size_ok("2kb", 2 * KB);
	size_ok("2Kb", 2 * KB);
	size_ok("3m", 3 * MB);
	size_ok("3mb", 3 * MB);
	size_ok("3mib", 3 * MIB);
	size_ok("500gb", 500 * GB);
	size_ok("4gib", 4 * GIB);
	size_ok("2t", 2 * TB);
	size_ok("2tib", 2 * TIB);
	size_ok("1p", PB);
	size_ok("1pb", PB);
	size_ok("1pib", PIB);
	size_ok("1.5KB", 1500);
	size_ok("0.5KB", 500);
	size_ok("1.001KB", 1001);
	size_ok("2.25GiB", 2 * GIB + GIB / 4);
	size_ok("1.50TB", 1500 * GB);
	size_ok("007GB", 7 * GB);
	/* a space between the number and the unit is allowed */
	size_ok("500 GB", 500 * GB);
	/* the largest: 63 bits */
	size_ok("9223372036854775807", INT64_MAX);
	size_ok("9000PB", 9000 * PB);
	size_ok("8191PiB", 8191 * PIB);
	size_ok("8191.5PiB", 8191 * PIB + PIB / 2);
	size_ok("9223.372036854775807PB", INT64_MAX);
}

static void
test_parse_bad(void)
{
	size_bad("1.5", "whole number of bytes");
	size_bad("1.0005KB", "whole number of bytes");
	size_bad("1.3KiB", "whole number of bytes");
	size_bad("0.1", "whole number of bytes");
	size_bad("9223372036854775808", "too large");
	size_bad("18446744073709551615", "too large");
	size_bad("99999999999999999999999", "too large");
	size_bad("9300PB", "too large");
	size_bad("8192PiB", "too large");
	size_bad("9223.372036854775808PB", "too large");
	size_bad("", "starts with a number");
	size_bad("GB", "starts with a number");
	size_bad("-1", "starts with a number");
	size_bad("+1", "starts with a number");
	size_bad(" 500GB", "starts with a number");
	size_bad("1.2.3", "unknown unit");
	size_bad("1.", "digit must follow");
	size_bad("1.GB", "digit must follow");
	size_bad("500GB ", "unknown unit");
	size_bad("500 G B", "unknown unit");
	size_bad("12XB", "unknown unit");
	size_bad("1e3", "unknown unit");
	size_bad("0x10", "unknown unit");
	size_bad("1gigabytes", "unknown unit");
	size_bad("1EB", "unknown unit");
	size_bad("1.0000000000000000001TB", "decimal places");
}

/*
 * bytes -> text -> bytes is the identity, and the text is at most two
 * characters longer than the plain number ("1.5KB" for 1500).
 */
static void
round_trip(uint64_t v)
{
	char		 buf[32], plain[32];
	uint64_t	 back = SENTINEL;
	const char	*why = NULL;

	memset(buf, 'X', sizeof(buf));
	lab_format_size(v, buf, sizeof(buf));
	snprintf(plain, sizeof(plain), "%" PRIu64, v);
	if (lab_parse_size(buf, &back, &why) != 0 || back != v) {
		fprintf(stderr, "round trip of %" PRIu64 ": '%s' reads back "
		    "as %" PRIu64 " (%s)\n", v, buf, back,
		    why ? why : "ok");
		tests_failed++;
	}
	if (strlen(buf) > strlen(plain) + 2) {
		fprintf(stderr, "%" PRIu64 " formats as '%s', much longer "
		    "than '%s'\n", v, buf, plain);
		tests_failed++;
	}
}

static void
test_format(void)
{
	static const struct {
		uint64_t	 v;
		const char	*s;
	} cases[] = {
		{ 0, "0" },
		{ 1, "1" },
		{ 123, "123" },
		{ 999, "999" },
		{ 1000, "1KB" },
		{ 1500, "1.5KB" },
		{ 1024, "1KiB" },
		{ 1536, "1.5KiB" },
		{ 1280, "1280" },
		{ 2000000, "2MB" },
		{ 72 * GB, "72GB" },
		{ 500 * GB, "500GB" },
		{ 60 * GB, "60GB" },
		{ 250 * GB, "250GB" },
		{ TB, "1TB" },
		{ 1500 * GB, "1.5TB" },
		{ TIB, "1TiB" },
		{ TIB + TIB / 2, "1.5TiB" },
		{ 4 * GIB, "4GiB" },
		{ PB, "1PB" },
		{ PIB, "1PiB" },
		{ 3 * PIB, "3PiB" },
		{ (uint64_t)INT64_MAX, "9223372036854775807" },
	};
	char	buf[32];
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lab_format_size(cases[i].v, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].s);
	}
	/* a short buffer is truncated, never overrun */
	memset(buf, 'X', sizeof(buf));
	lab_format_size(TIB + TIB / 2, buf, 4);
	CHECK_STR(buf, "1.5");
	CHECK(buf[4] == 'X');
}

static void
test_round_trip(void)
{
	static const uint64_t units[] = { 1, KB, KIB, MB, MIB, GB, GIB, TB,
		TIB, PB, PIB };
	static const uint64_t fixed[] = { 0, 1, 9, 10, 123, 999, 1000, 1001,
		1023, 1024, 1025, 1500, 1536, 4096, 72 * GB, 500 * GB, TB,
		TIB + TIB / 2, 1649267441664ULL, 1649267441665ULL,
		(uint64_t)INT64_MAX, (uint64_t)INT64_MAX - 1, 1ULL << 62,
		(1ULL << 62) + (1ULL << 61), 9000 * PB, 8191 * PIB };
	uint64_t	x = 88172645463325252ULL, v;
	size_t		i, k;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		round_trip(fixed[i]);
	/* whole and tenth multiples of every unit, and one byte more */
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		for (k = 1; k <= 2000; k++) {
			if (k <= (uint64_t)INT64_MAX / units[i])
				round_trip(k * units[i]);
			round_trip(k * units[i] / 10);
			round_trip(k * units[i] + 1);
		}
	/* pseudo-random values below 2^63 (xorshift64) */
	for (i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (1 + i % 50);
		round_trip(v);
	}
}

static void
test_human(void)
{
	static const struct {
		uint64_t	 v;
		const char	*s;
	} cases[] = {
		{ 0, "0 B" },
		{ 1, "1 B" },
		{ 999, "999 B" },
		{ 1000, "1 KB" },
		{ 1500, "1.5 KB" },
		{ 1234567, "1.23 MB" },
		{ 12345678, "12.3 MB" },
		{ 123456789, "123 MB" },
		{ 72 * GB, "72 GB" },
		{ 500 * GB, "500 GB" },
		{ 1500 * GB, "1.5 TB" },
		{ TIB + TIB / 2, "1.65 TB" },
		{ 999499, "999 KB" },
		/* rounding up crosses into the next unit */
		{ 999999, "1 MB" },
		{ 999999999999ULL, "1 TB" },
		{ 9999, "10 KB" },
		{ 99999, "100 KB" },
		{ 2 * PB, "2 PB" },
		{ 5000 * PB, "5000 PB" },
	};
	char	buf[32];
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lab_format_size_human(cases[i].v, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].s);
	}
}

int
main(void)
{
	test_parse();
	test_parse_bad();
	test_format();
	test_round_trip();
	test_human();
	TESTS_DONE();
}
