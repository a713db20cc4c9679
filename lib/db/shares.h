/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_SHARES_H
#define LAB_DB_SHARES_H

#include "lab/db.h"
#include "lab/inventory.h"

/*
 * The shares:, mounts: and iscsi_initiator of hosts (schema 018,
 * lib/db/shares.c). _apply rewrites the rows of each host of inv that
 * has some or had some in cur, inside lab_db_inventory_apply's
 * transaction, after the hosts' rows; _read fills the hosts of inv
 * (sorted by name); _eq compares two declarations, not where they were
 * written.
 */
int	lab_db_shares_apply(struct lab_db *, const struct lab_inventory *cur,
	    const struct lab_inventory *inv, struct lab_err *err);
int	lab_db_shares_read(struct lab_db *, struct lab_inventory *inv,
	    struct lab_err *err);
int	lab_db_shares_eq(const struct lab_host *, const struct lab_host *);

#endif
