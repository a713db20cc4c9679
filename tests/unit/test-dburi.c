/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The database URI (issue 22): PostgreSQL's parts, a password refused;
 * and the SQLite statement text turned into PostgreSQL's (lib/db/pg-sql.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/dburi.h"
#include "lab/err.h"
#include "db/pg-priv.h"

#include "tests.h"

static int
parse(const char *s, struct lab_db_uri *u, struct lab_err *err)
{
	lab_err_init(err);
	return lab_db_uri_parse(s, u, err);
}

/* sql in PostgreSQL's words must be want, with n parameters. */
static void
pg(const char *sql, const char *want, int n, uint64_t typed)
{
	uint64_t	 t = 0;
	int		 got = -1;
	char		*s = lab_db_pg_sql(sql, &got, &t);

	CHECK_STR(s, want);
	CHECK(got == n);
	CHECK(t == typed);
	free(s);
}

int
main(void)
{
	struct lab_db_uri	u;
	struct lab_err		err;

	CHECK(parse("/srv/lab/lab.db", &u, &err) == 0 && !u.pg);
	CHECK(parse("postgresql://lab@db.example:5433/labdb?sslmode=require",
	    &u, &err) == 0 && u.pg);
	CHECK_STR(u.user, "lab");
	CHECK_STR(u.host, "db.example");
	CHECK_STR(u.port, "5433");
	CHECK_STR(u.dbname, "labdb");
	CHECK(parse("postgres://127.0.0.1/x", &u, &err) == 0 && u.pg);
	CHECK_STR(u.user, "");
	CHECK_STR(u.host, "127.0.0.1");
	CHECK_STR(u.port, "");
	CHECK_STR(u.dbname, "x");
	CHECK(parse("postgresql://lab@[::1]:5432/x", &u, &err) == 0);
	CHECK_STR(u.host, "[::1]");
	CHECK_STR(u.port, "5432");

	/* a password: refused, saying where it goes, never repeated */
	CHECK(parse("postgresql://lab:s3cret@h/x", &u, &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, "~/.pgpass");
	CHECK_HAS(err.msg, "postgres:");
	CHECK(strstr(err.msg, "s3cret") == NULL);
	CHECK(parse("postgresql://lab@h/x?sslmode=disable&password=s3cret",
	    &u, &err) == -1);
	CHECK(strstr(err.msg, "s3cret") == NULL);
	CHECK(parse("postgresql://lab@h:port/x", &u, &err) == -1);
	CHECK_HAS(err.msg, "port");
	CHECK(parse("postgresql://lab@h/x/y", &u, &err) == -1);

	pg("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE "
	    "b = $1 AND c = $2", 2, 0);
	pg("UPDATE t SET a = ?2 WHERE id = ?1 OR ?1 IS NULL", "UPDATE t SET "
	    "a = $2 WHERE id = $1 OR $1 IS NULL", 2, 1);
	pg("SELECT '?', \"?\" -- ?\nFROM t WHERE x LIKE ?", "SELECT '?', "
	    "\"?\" -- ?\nFROM t WHERE x ILIKE $1", 1, 0);
	pg("INSERT OR IGNORE INTO t (a) VALUES (?)", "INSERT INTO t (a) "
	    "VALUES ($1) ON CONFLICT DO NOTHING", 1, 0);
	pg("SELECT user, replace(s, char(10), '') FROM audit_log",
	    "SELECT \"user\", replace(s, chr(10), '') FROM audit_log", 0, 0);
	pg("SELECT username FROM t", "SELECT username FROM t", 0, 0);
	TESTS_DONE();
}
