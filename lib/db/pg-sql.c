/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lab/str.h"
#include "pg-priv.h"

/*
 * The statements of lib/db are written once, in SQLite's words; this
 * turns one into PostgreSQL's. The differences, side by side:
 *
 *	SQLite			PostgreSQL
 *	?  ?N			$N
 *	LIKE (ASCII case-blind)	ILIKE
 *	INSERT OR IGNORE INTO	INSERT INTO ... ON CONFLICT DO NOTHING
 *	group_concat, strftime	functions of the same name (schema/pg/compat.sql)
 *	rowid			a rowid column where a query orders by it
 *	user (a column)		"user"
 *	char(N)			chr(N)
 *
 * Strings ('...'), quoted names ("...") and comments are copied as they
 * are.
 */

static const struct {
	const char	*sqlite, *pg;
} words[] = {
	{ "LIKE", "ILIKE" },
	{ "user", "\"user\"" },	/* a column name; a reserved word there */
	{ "char", "chr" },		/* char(10): the function, not the type */
};

/* Whether s starts with the words w, case-blind, then not a name char. */
static int
starts(const char *s, const char *w)
{
	size_t	n = strlen(w);

	return strncasecmp(s, w, n) == 0 && !isalnum((unsigned char)s[n]) &&
	    s[n] != '_';
}

/*
 * The PostgreSQL text of sql; *nparams is the highest placeholder, bit
 * N-1 of *typed set when ?N stands where the server cannot infer its
 * type (`?1 IS NULL`): it is sent with the type of the value bound.
 */
char *
lab_db_pg_sql(const char *sql, int *nparams, uint64_t *typed)
{
	struct lab_buf	 b;
	const char	*p = sql, *q;
	int		 n = 0, v, ignore = 0;
	size_t		 i;

	*typed = 0;
	lab_buf_init(&b);
	while (*p != '\0') {
		if (*p == '\'' || *p == '"') {
			q = strchr(p + 1, *p);
			q = q != NULL ? q + 1 : p + strlen(p);
			lab_buf_add(&b, p, (size_t)(q - p));
			p = q;
		} else if (p[0] == '-' && p[1] == '-') {
			q = p + strcspn(p, "\n");
			lab_buf_add(&b, p, (size_t)(q - p));
			p = q;
		} else if (*p == '?') {
			p++;
			if (isdigit((unsigned char)*p)) {
				v = (int)strtol(p, (char **)&q, 10);
				p = q;
			} else
				v = n + 1;
			if (v > n)
				n = v;
			lab_buf_addf(&b, "$%d", v);
			q = p + strspn(p, " \t\n");
			if (v <= 64 && (starts(q, "IS NULL") ||
			    starts(q, "IS NOT NULL")))
				*typed |= (uint64_t)1 << (v - 1);
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			q = p;
			while (isalnum((unsigned char)*q) || *q == '_')
				q++;
			if (starts(p, "INSERT OR IGNORE INTO")) {
				lab_buf_adds(&b, "INSERT INTO");
				p += strlen("INSERT OR IGNORE INTO");
				ignore = 1;
				continue;
			}
			for (i = 0; i < LAB_ARRAY_SIZE(words); i++)
				if ((size_t)(q - p) == strlen(words[i].sqlite) &&
				    strncasecmp(p, words[i].sqlite,
				    (size_t)(q - p)) == 0)
					break;
			if (i < LAB_ARRAY_SIZE(words))
				lab_buf_adds(&b, words[i].pg);
			else
				lab_buf_add(&b, p, (size_t)(q - p));
			p = q;
		} else
			lab_buf_addc(&b, *p++);
	}
	if (ignore)
		lab_buf_adds(&b, " ON CONFLICT DO NOTHING");
	if (b.oom) {
		lab_buf_release(&b);
		return NULL;
	}
	*nparams = n;
	return lab_buf_steal(&b);
}
