/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DBURI_H
#define LAB_DBURI_H

#include "lab/err.h"

/*
 * Where the database is: a SQLite file path, or a PostgreSQL URI
 * postgresql://USER@HOST:PORT/DBNAME?sslmode=... (also postgres://). A
 * password is never in the URI (it would show in argv, logs and the
 * config file): libpq reads it from ~/.pgpass or the file PGPASSFILE
 * names.
 */
struct lab_db_uri {
	int	pg;		/* 1: PostgreSQL, 0: a SQLite file */
	char	user[64];	/* "" when not given (libpq: the login name) */
	char	host[256];	/* "" when not given (libpq: the socket) */
	char	port[8];	/* "" when not given (5432) */
	char	dbname[64];	/* "" when not given (libpq: the user name) */
};

/* Whether s names a PostgreSQL database (postgresql:// or postgres://). */
int	lab_db_uri_is_pg(const char *s);
/*
 * Splits s into u; a path is a SQLite file. A URI with a password, or
 * one lab cannot read, is refused (LAB_EXIT_INPUT).
 */
int	lab_db_uri_parse(const char *s, struct lab_db_uri *u,
	    struct lab_err *err);

#endif
