/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab/dburi.h"

#define PASSWORD_WHERE	"a password does not go in the database URI: put " \
	"it in ~/.pgpass (or the file PGPASSFILE names), mode 0600, as " \
	"HOST:PORT:DBNAME:USER:PASSWORD, or in lab's credentials file as " \
	"'postgres: {password: ...}'"

/* Whether s starts with one of the PostgreSQL schemes. */
int
lab_db_uri_is_pg(const char *s)
{
	return strncmp(s, "postgresql://", 13) == 0 ||
	    strncmp(s, "postgres://", 11) == 0;
}

/* Copies s[0..n) into dst of size cap; -1 when it does not fit. */
static int
part(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* Whether the query (after '?') sets a password. */
static int
query_password(const char *q)
{
	const char	*p;

	for (p = q; p != NULL && *p != '\0'; p = strchr(p, '&')) {
		if (*p == '&')
			p++;
		if (strncmp(p, "password=", 9) == 0)
			return 1;
	}
	return 0;
}

/* Splits a database path or URI. */
int
lab_db_uri_parse(const char *s, struct lab_db_uri *u, struct lab_err *err)
{
	const char	*p, *at, *end, *colon;
	size_t		 n;

	memset(u, 0, sizeof(*u));
	if (!lab_db_uri_is_pg(s))
		return 0;
	u->pg = 1;
	p = strstr(s, "://") + 3;
	end = p + strcspn(p, "/?");
	if ((at = memchr(p, '@', (size_t)(end - p))) != NULL) {
		if (memchr(p, ':', (size_t)(at - p)) != NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "%s",
			    PASSWORD_WHERE);
		if (part(u->user, sizeof(u->user), p, (size_t)(at - p)) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "database "
			    "URI: the user name is too long");
		p = at + 1;
	}
	if (*p == '[') {
		if ((colon = memchr(p, ']', (size_t)(end - p))) == NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "database "
			    "URI: '[' without ']' in the host");
		colon++;
		if (colon < end && *colon != ':')
			return lab_err_set(err, LAB_EXIT_INPUT, "database "
			    "URI: ':PORT' or '/' expected after ']'");
	} else
		colon = memchr(p, ':', (size_t)(end - p));
	if (colon == NULL)
		colon = end;
	if (part(u->host, sizeof(u->host), p, (size_t)(colon - p)) == -1)
		return lab_err_set(err, LAB_EXIT_INPUT, "database URI: the "
		    "host name is too long");
	if (colon < end) {
		n = (size_t)(end - colon - 1);
		if (n == 0 || strspn(colon + 1, "0123456789") != n ||
		    part(u->port, sizeof(u->port), colon + 1, n) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "database "
			    "URI: the port is not a number");
	}
	p = end;
	if (*p == '/') {
		p++;
		n = strcspn(p, "?");
		if (strcspn(p, "/") < n)
			return lab_err_set(err, LAB_EXIT_INPUT, "database "
			    "URI: one database name after the host, not a path");
		if (part(u->dbname, sizeof(u->dbname), p, n) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "database "
			    "URI: the database name is too long");
		p += n;
	}
	if (*p == '?' && query_password(p + 1))
		return lab_err_set(err, LAB_EXIT_INPUT, "%s", PASSWORD_WHERE);
	return 0;
}
