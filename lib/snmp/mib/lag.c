/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LAGs: port-channels by ifType, members from IEEE8023-LAG-MIB. */
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

#include "mib-priv.h"

static const unsigned long if_oid[] = { 1, 3, 6, 1, 2, 1, 2, 2, 1 };
/* dot3adAggEntry: index dot3adAggIndex (an ifIndex). */
static const unsigned long agg_oid[] = {
	1, 2, 840, 10006, 300, 43, 1, 1, 1, 1 };
/* dot3adAggPortEntry: index dot3adAggPortIndex (an ifIndex). */
static const unsigned long aggport_oid[] = {
	1, 2, 840, 10006, 300, 43, 1, 2, 1, 1 };

#define IF_TYPE			3
#define IFTYPE_LAG		161	/* ieee8023adLag */
#define AGGPORT_ATTACHED	13	/* dot3adAggPortAttachedAggID */

/* A member row: sets *port and *agg; 0 if not one. */
static int
member(const struct lab_varbind *vb, unsigned long *port, unsigned long *agg)
{
	const unsigned long	*idx;
	unsigned long		 col;
	size_t			 idx_len;
	long long		 v;

	if (!lab_mib_column(vb, aggport_oid, MIB_LEN(aggport_oid), &col, &idx,
	    &idx_len) || col != AGGPORT_ATTACHED || idx_len != 1 ||
	    idx[0] == 0 || idx[0] > 2147483647UL)
		return 0;
	/* 0 is "not attached"; a port attached to itself is no LAG. */
	if (lab_mib_int(vb, 1, 2147483647, &v) == -1 ||
	    (unsigned long)v == idx[0])
		return 0;
	*port = idx[0];
	*agg = (unsigned long)v;
	return 1;
}

/* A LAG's own row: sets *ifindex; 0 if not one. */
static int
lagrow(const struct lab_varbind *vb, unsigned long *ifindex)
{
	const unsigned long	*idx;
	unsigned long		 col, port;
	size_t			 idx_len;
	long long		 v;

	if (lab_mib_column(vb, if_oid, MIB_LEN(if_oid), &col, &idx, &idx_len)) {
		if (col != IF_TYPE || idx_len != 1 || idx[0] == 0 ||
		    idx[0] > 2147483647UL ||
		    lab_mib_int(vb, 1, 2147483647, &v) == -1 || v != IFTYPE_LAG)
			return 0;
		*ifindex = idx[0];
		return 1;
	}
	if (lab_mib_column(vb, agg_oid, MIB_LEN(agg_oid), &col, &idx, &idx_len)) {
		if (idx_len != 1 || idx[0] == 0 || idx[0] > 2147483647UL)
			return 0;
		*ifindex = idx[0];
		return 1;
	}
	return member(vb, &port, ifindex);
}

/* Decodes LAGs sorted by ifindex, each with its sorted members. */
int
lab_mib_lag(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_lags *out, struct lab_err *err)
{
	struct lab_snmp_lags	 lg;
	struct mib_keys		 keys;
	unsigned long		 ifindex, port;
	size_t			 i;
	long			 at;

	memset(out, 0, sizeof(*out));
	memset(&lg, 0, sizeof(lg));
	memset(&keys, 0, sizeof(keys));
	for (i = 0; i < n; i++)
		if (lagrow(&vbs[i], &ifindex) &&
		    lab_mib_keys_add(&keys, &ifindex, 1, err) == -1)
			goto fail;
	lab_mib_keys_sort(&keys);
	if ((lg.v = lab_mib_calloc(keys.n, sizeof(*lg.v), err)) == NULL)
		goto fail;
	lg.n = keys.n;
	for (i = 0; i < lg.n; i++)
		lg.v[i].ifindex = keys.v[i][0];
	for (i = 0; i < n; i++) {
		if (!member(&vbs[i], &port, &ifindex))
			continue;
		if ((at = lab_mib_keys_find(&keys, &ifindex, 1)) < 0)
			continue;
		if (lab_mib_ifset_add(&lg.v[at].members, port, err) == -1)
			goto fail;
	}
	for (i = 0; i < lg.n; i++)
		lab_mib_ifset_sort(&lg.v[i].members);
	lab_mib_keys_release(&keys);
	*out = lg;
	return 0;
fail:
	lab_mib_keys_release(&keys);
	lab_snmp_lags_release(&lg);
	return -1;
}
