/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_PG_PRIV_H
#define LAB_DB_PG_PRIV_H

#include <stdint.h>

struct lab_db;
struct lab_err;

/*
 * The PostgreSQL backend (lib/db/pg.c): connects to db->path, a
 * postgresql:// URI without a password. libpq is loaded then (pq.h).
 */
int	lab_db_pg_open(struct lab_db *, int flags, const char *password,
	    struct lab_err *);
/* sql in PostgreSQL's words (pg-sql.c); NULL when out of memory. */
char	*lab_db_pg_sql(const char *sql, int *nparams, uint64_t *typed);

#endif
