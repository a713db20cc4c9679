/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BENCH_PRIV_H
#define LAB_BENCH_PRIV_H

#include <stddef.h>

#include <json-c/json.h>

#include "lab/err.h"

/* The most JSON lab reads from one fio or smartctl run: fio's four jobs
   are 25 KB, smartctl's answer 2-30 KB. json-c's tree of a text made of
   small objects takes about 110 times the text (4 MB of {"a":1} took
   456 MB), so the bound is low: 256 KiB of text, at most 28 MB. */
#define LAB_BENCH_JSON_MAX	((size_t)256 << 10)

/*
 * Parses the JSON object in text (lib/bench/json-in.c): leading lines
 * before the first line that starts with '{' are skipped (fio's notes);
 * text cut short, not JSON, deeper than 32 levels, not an object, or
 * over LAB_BENCH_JSON_MAX is an error (LAB_EXIT_PARTIAL) naming what
 * ("fio", "smartctl") and where. The caller puts the object.
 */
struct json_object	*lab_bench_json_read(const char *text, size_t len,
			    const char *what, const char *where,
			    struct lab_err *);
/* The member at path (keys separated by '.'; "" is o itself), or NULL. */
struct json_object	*lab_bench_json_at(struct json_object *o,
			    const char *path);
/* 1 and *v for a number at path; 0 when it is absent or not a number. */
int	lab_bench_json_num(struct json_object *o, const char *path,
	    double *v);

#endif
