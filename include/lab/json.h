/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_JSON_H
#define LAB_JSON_H

#include <stdint.h>

#include "lab/str.h"

/*
 * A small streaming JSON writer into a lab_buf, pretty-printed with two
 * spaces. Commas and indentation are handled; the caller keeps objects
 * and arrays balanced (at most LAB_JSON_DEPTH deep).
 */
#define LAB_JSON_DEPTH	32

struct lab_json {
	struct lab_buf	*out;
	int		 depth;
	int		 count[LAB_JSON_DEPTH];	/* members written per level */
	int		 after_key;
};

/* Starts writing into out. */
void	lab_json_init(struct lab_json *, struct lab_buf *out);
void	lab_json_obj_begin(struct lab_json *);
void	lab_json_obj_end(struct lab_json *);
void	lab_json_arr_begin(struct lab_json *);
void	lab_json_arr_end(struct lab_json *);
/* Writes a member name; the next value belongs to it. */
void	lab_json_key(struct lab_json *, const char *);
/* A string, or null when s is NULL. */
void	lab_json_str(struct lab_json *, const char *s);
void	lab_json_int(struct lab_json *, int64_t);
void	lab_json_bool(struct lab_json *, int);
void	lab_json_null(struct lab_json *);
/* A value written as is (a number already formatted). */
void	lab_json_raw(struct lab_json *, const char *);
/* key + string (null when NULL). */
void	lab_json_kstr(struct lab_json *, const char *key, const char *s);
/* key + integer. */
void	lab_json_kint(struct lab_json *, const char *key, int64_t);
/* Ends the document with a newline. */
void	lab_json_end(struct lab_json *);

#endif
