/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_KNOWN_ISSUES_H
#define LAB_DB_KNOWN_ISSUES_H

#include <stdint.h>

#include "lab/db.h"
#include "lab/inventory.h"

/*
 * The known issues of inv into the database, inside the transaction of
 * lab_db_inventory_apply (lib/db/apply.c), with its changes ("known-issue"
 * NAME): added, changed (severity, message, source), removed (prune) or
 * kept. write 0: only the changes. lib/db/known-issues.c.
 */
int	lab_db_known_issues_apply(struct lab_db *, const struct lab_inventory *,
	    int flags, int write, int64_t now, struct lab_changes *ch,
	    struct lab_err *err);

/* The stored known issues into inv->known (left NULL when none). */
int	lab_db_known_issues_into(struct lab_db *, struct lab_inventory *inv,
	    struct lab_err *err);

#endif
