/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_PRIV_H
#define LAB_DB_PRIV_H

#include <sqlite3.h>

#include "lab/db.h"

struct lab_db {
	sqlite3	*h;
	char	*path;
	int	 in_tx;
};

/* Sets err from the handle's last error, naming the file; returns -1. */
int	db_fail(struct lab_db *, struct lab_err *, const char *what);
/* Prepares sql or fails with err. */
int	db_prepare(struct lab_db *, const char *sql, sqlite3_stmt **ret,
	    struct lab_err *err);
/* A column as a newly allocated string, NULL for SQL NULL. */
char	*db_text(sqlite3_stmt *, int col);
/* Binds a string, or NULL when s is NULL. */
int	db_bind_text(sqlite3_stmt *, int idx, const char *s);

#endif
