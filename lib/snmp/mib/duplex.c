/* SPDX-License-Identifier: GPL-3.0-or-later */
/* EtherLike-MIB dot3StatsDuplexStatus, into ports already decoded. */
#include "lab/mib.h"

#include "mib-priv.h"

static const unsigned long dot3_oid[] = { 1, 3, 6, 1, 2, 1, 10, 7, 2, 1 };

#define DOT3_DUPLEX	19

static struct lab_snmp_port *
find(struct lab_snmp_ports *ps, unsigned long ifindex)
{
	size_t	lo, hi, mid;

	lo = 0;
	hi = ps->n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ps->v[mid].ifindex == ifindex)
			return &ps->v[mid];
		if (ps->v[mid].ifindex < ifindex)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Sets each known port's duplex: unknown(1), halfDuplex(2), fullDuplex(3). */
int
lab_mib_duplex(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_ports *ports, struct lab_err *err)
{
	struct lab_snmp_port	*p;
	const unsigned long	*idx;
	unsigned long		 col;
	size_t			 i, idx_len;
	long long		 v;

	(void)err;
	for (i = 0; i < n; i++) {
		/* dot3StatsIndex is an ifIndex. */
		if (!lab_mib_column(&vbs[i], dot3_oid, MIB_LEN(dot3_oid), &col,
		    &idx, &idx_len) || col != DOT3_DUPLEX || idx_len != 1)
			continue;
		if (lab_mib_int(&vbs[i], 1, 3, &v) == -1)
			continue;
		if ((p = find(ports, idx[0])) == NULL)
			continue;
		p->duplex = v == 3 ? LAB_DUPLEX_FULL :
		    v == 2 ? LAB_DUPLEX_HALF : LAB_DUPLEX_UNKNOWN;
	}
	return 0;
}
