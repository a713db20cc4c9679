/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_FACTS_PRIV_H
#define LAB_FACTS_PRIV_H

#include <json-c/json.h>

#include "lab/facts.h"

/*
 * What the parsers of lib/facts/ share (parse.c): json-c reading, notes,
 * peer strings made tidy.
 */

/* Most that lab reads of one tool's JSON. */
#define LAB_FACTS_JSON_MAX	((size_t)4 << 20)

/* Parses text (what names the tool) as one JSON value; NULL with err
 * (LAB_EXIT_PARTIAL, "HOST: WHAT ...") when it is not JSON. */
struct json_object *lab_facts_json_parse(const struct lab_host_facts *f,
	    const char *text, const char *what, struct lab_err *err);
/* The string at key of o, or NULL (not a string, empty). */
const char	*lab_facts_jstr(struct json_object *o, const char *key);
/* The integer at key of o (a number or a string of digits); -1. */
int64_t		 lab_facts_jint(struct json_object *o, const char *key);
/* 1, 0 for a boolean (or "1"/"0", 1/0) at key; -1. */
int		 lab_facts_jbool(struct json_object *o, const char *key);
/* A copy of s without blanks at either end and with every control
 * character as '?'; NULL for NULL or blank. */
char		*lab_facts_tidy(const char *s);
/* Replaces *dst by a tidy copy of s when *dst is NULL; -1: no memory. */
int		 lab_facts_fill(char **dst, const char *s);
/* Adds a note to f; -1: no memory. */
int		 lab_facts_note(struct lab_host_facts *f, const char *fmt, ...)
		    LAB_PRINTF(2, 3);
/* The disk called name in f, or NULL. */
struct lab_fact_disk *lab_facts_disk(struct lab_host_facts *f,
	    const char *name);
/* Appends an empty disk called name (-1: no memory). */
struct lab_fact_disk *lab_facts_disk_add(struct lab_host_facts *f,
	    const char *name);

/* parse-net.c: the sections of the script other than JSON */
int	lab_facts_parse_nic(struct lab_host_facts *f, const char *name,
	    const char *body, struct lab_err *err);
int	lab_facts_parse_dmi(struct lab_host_facts *f, const char *body,
	    struct lab_err *err);
int	lab_facts_parse_nm(struct lab_host_facts *f, const char *body,
	    struct lab_err *err);
/* parse-lsblk.c: the by-id links ("sda ata-..." lines) */
int	lab_facts_parse_byid(struct lab_host_facts *f, const char *body,
	    struct lab_err *err);

#endif
