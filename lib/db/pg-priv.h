/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_PG_PRIV_H
#define LAB_DB_PG_PRIV_H

#include <stdint.h>

struct lab_db;
struct lab_err;

/*
 * The PostgreSQL backend (lib/db/pg.c): connects to db->path, a
 * postgresql:// URI without a password.
 */
int	lab_db_pg_open(struct lab_db *, int flags, const char *password,
	    struct lab_err *);
/*
 * db.c names lab_db_pg_open weakly, so a program linked with liblab gets
 * the PostgreSQL driver (and libpq) only when it asks for it: lab-full
 * does (-Wl,-u,lab_db_pg_open in cmd/meson.build); the light front does
 * not, and runs lab-full for a postgresql:// database (cmd/lab.c).
 */
#pragma weak lab_db_pg_open
/* sql in PostgreSQL's words (pg-sql.c); NULL when out of memory. */
char	*lab_db_pg_sql(const char *sql, int *nparams, uint64_t *typed);

#endif
