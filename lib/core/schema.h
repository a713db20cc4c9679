/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SCHEMA_H
#define LAB_SCHEMA_H

#include <stdarg.h>
#include <stddef.h>

#include "lab/err.h"
#include "yaml-priv.h"

/*
 * The checks every YAML file of lab makes on its tree: which keys a
 * mapping may hold, and which words a value may be. Word lists are
 * NULL-terminated. Errors are LAB_EXIT_INPUT and read
 * "file:line:col: what", with the position of the node at fault.
 */

/* Do not repeat an unknown key: it may hold a secret. */
#define LAB_SCHEMA_QUIET	0x1

/* Sets "file:line:col: " and the message (cut to 400 bytes); returns -1. */
int	lab_schema_fail(struct lab_err *err, const char *file,
	    const struct ynode *n, const char *fmt, ...) LAB_PRINTF(4, 5);
int	lab_schema_vfail(struct lab_err *err, const char *file,
	    const struct ynode *n, const char *fmt, va_list ap);
/* The value under key in a mapping, or NULL. */
const struct ynode *
	lab_schema_get(const struct ynode *map, const char *key);
/* The number of words. */
size_t	lab_schema_count(const char *const *words);
/* The words joined with ", " into buf of len bytes (cut to fit). */
void	lab_schema_join(const char *const *words, char *buf, size_t len);
/*
 * The index in keys of the key node k, or -1 with err set to
 * "unknown key 'k' in what", the nearest key suggested or else all
 * listed. LAB_SCHEMA_QUIET leaves the key out of the message.
 */
int	lab_schema_key(const char *file, const struct ynode *k,
	    const char *const *keys, const char *what, int flags,
	    struct lab_err *err);
/* Checks every key of a mapping with lab_schema_key. */
int	lab_schema_keys(const char *file, const struct ynode *map,
	    const char *const *keys, const char *what, struct lab_err *err);
/*
 * Checks that s, the value of key at node n in what, is one of words:
 * "unknown <key> 's' in what", the nearest word suggested, all listed.
 */
int	lab_schema_word(const char *file, const struct ynode *n,
	    const char *key, const char *s, const char *what,
	    const char *const *words, struct lab_err *err);

#endif
