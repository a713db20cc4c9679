/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_COPY_PRIV_H
#define LAB_DB_COPY_PRIV_H

#include <stddef.h>

#include "lab/str.h"

struct lab_db;
struct lab_err;

/* A table as lab_db_copy() moves it (lib/db/copy-tables.c). */
struct copy_table {
	char		*name;
	struct lab_strv	 cols;	/* in declared order */
	struct lab_strv	 deps;	/* the tables its foreign keys name */
};

/* Whether db is a PostgreSQL one. */
int	lab_db_is_pg(const struct lab_db *);
/*
 * The tables of db (not the schema version's), parents before the tables
 * whose foreign keys name them. *ret is caller-owned.
 */
int	lab_db_copy_tables(struct lab_db *, struct copy_table **ret,
	    size_t *n, struct lab_err *);
void	lab_db_copy_tables_free(struct copy_table *, size_t n);
/* The table named name in v, or NULL. */
struct copy_table *lab_db_copy_find(struct copy_table *v, size_t n,
	    const char *name);

#endif
