/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lab/str.h"
#include "schema.h"

int
lab_schema_vfail(struct lab_err *err, const char *file, const struct ynode *n,
    const char *fmt, va_list ap)
{
	char	msg[400];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: %s", file,
	    n->line, n->col, msg);
}

int
lab_schema_fail(struct lab_err *err, const char *file, const struct ynode *n,
    const char *fmt, ...)
{
	va_list	ap;
	int	rc;

	va_start(ap, fmt);
	rc = lab_schema_vfail(err, file, n, fmt, ap);
	va_end(ap);
	return rc;
}

const struct ynode *
lab_schema_get(const struct ynode *map, const char *key)
{
	size_t	i;

	/* the first letter first: most keys differ there */
	for (i = 0; i + 1 < map->n; i += 2)
		if (map->items[i]->value[0] == key[0] &&
		    strcmp(map->items[i]->value, key) == 0)
			return map->items[i + 1];
	return NULL;
}

size_t
lab_schema_count(const char *const *w)
{
	size_t	n = 0;

	while (w[n] != NULL)
		n++;
	return n;
}

void
lab_schema_join(const char *const *w, char *buf, size_t len)
{
	size_t	i, off = 0;

	buf[0] = '\0';
	for (i = 0; w[i] != NULL && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i ? ", " : "", w[i]);
}

int
lab_schema_key(const char *file, const struct ynode *k,
    const char *const *keys, const char *what, int flags,
    struct lab_err *err)
{
	const char	*near;
	char		 known[256];
	size_t		 i;

	for (i = 0; keys[i] != NULL; i++)
		if (k->value[0] == keys[i][0] && strcmp(k->value, keys[i]) == 0)
			return (int)i;
	near = lab_suggest(k->value, keys, i);
	if (flags & LAB_SCHEMA_QUIET) {
		if (near != NULL)
			return lab_schema_fail(err, file, k, "unknown key in "
			    "%s; did you mean '%s'?", what, near);
		lab_schema_join(keys, known, sizeof(known));
		return lab_schema_fail(err, file, k, "unknown key in %s "
		    "(known keys: %s)", what, known);
	}
	if (near != NULL)
		return lab_schema_fail(err, file, k, "unknown key '%.64s' in "
		    "%s; did you mean '%s'?", k->value, what, near);
	lab_schema_join(keys, known, sizeof(known));
	return lab_schema_fail(err, file, k, "unknown key '%.64s' in %s "
	    "(known keys: %s)", k->value, what, known);
}

int
lab_schema_keys(const char *file, const struct ynode *map,
    const char *const *keys, const char *what, struct lab_err *err)
{
	size_t	i;

	for (i = 0; i < map->n; i += 2)
		if (lab_schema_key(file, map->items[i], keys, what, 0,
		    err) == -1)
			return -1;
	return 0;
}

int
lab_schema_word(const char *file, const struct ynode *n, const char *key,
    const char *s, const char *what, const char *const *words,
    struct lab_err *err)
{
	const char	*near;
	char		 known[128];
	size_t		 i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(s, words[i]) == 0)
			return 0;
	lab_schema_join(words, known, sizeof(known));
	if ((near = lab_suggest(s, words, i)) != NULL)
		return lab_schema_fail(err, file, n, "unknown %s '%.64s' in "
		    "%s; did you mean '%s'? (one of: %s)", key, s, what, near,
		    known);
	return lab_schema_fail(err, file, n, "unknown %s '%.64s' in %s "
	    "(one of: %s)", key, s, what, known);
}
