/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_TESTS_H
#define LAB_TESTS_H

/*
 * A tiny harness for unit tests: each test executable exits 0 when every
 * check passed, 1 when one failed (after running the rest), 77 to skip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tests_failed;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,	\
		    __LINE__, #cond);					\
		tests_failed++;						\
	}								\
} while (0)

#define CHECK_STR(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (g_ == NULL || w_ == NULL ? g_ != w_ : strcmp(g_, w_) != 0) {	\
		fprintf(stderr, "%s:%d: got '%s', want '%s'\n", __FILE__,	\
		    __LINE__, g_ ? g_ : "(null)", w_ ? w_ : "(null)");	\
		tests_failed++;						\
	}								\
} while (0)

/* got must contain want. */
#define CHECK_HAS(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (g_ == NULL || strstr(g_, w_) == NULL) {			\
		fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n",	\
		    __FILE__, __LINE__, g_ ? g_ : "(null)", w_);		\
		tests_failed++;						\
	}								\
} while (0)

#define TESTS_DONE()	return tests_failed ? 1 : 0

#endif
