/* SPDX-License-Identifier: GPL-3.0-or-later */
/* BRIDGE-MIB dot1dBasePortIfIndex: bridge port to ifIndex. */
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

#include "mib-priv.h"

static const unsigned long base_oid[] = { 1, 3, 6, 1, 2, 1, 17, 1, 4, 1 };

#define BASE_IFINDEX	2

static int
portcmp(const void *a, const void *b)
{
	const struct lab_snmp_bridge_port *x = a, *y = b;

	return x->port < y->port ? -1 : x->port > y->port;
}

/* Decodes dot1dBasePortIfIndex into a map sorted by bridge port. */
int
lab_mib_bridge(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_bridge *out, struct lab_err *err)
{
	struct lab_snmp_bridge	 br;
	const unsigned long	*idx;
	unsigned long		 col;
	size_t			 i, j, idx_len, cnt;
	long long		 v;

	memset(out, 0, sizeof(*out));
	memset(&br, 0, sizeof(br));
	cnt = 0;
	for (i = 0; i < n; i++)
		if (lab_mib_column(&vbs[i], base_oid, MIB_LEN(base_oid), &col,
		    &idx, &idx_len) && col == BASE_IFINDEX && idx_len == 1)
			cnt++;
	if (cnt == 0)
		return 0;
	if ((br.v = lab_mib_calloc(cnt, sizeof(*br.v), err)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (!lab_mib_column(&vbs[i], base_oid, MIB_LEN(base_oid), &col,
		    &idx, &idx_len) || col != BASE_IFINDEX || idx_len != 1)
			continue;
		/* dot1dBasePort is 1..65535; ifIndex 0 means none. */
		if (idx[0] == 0 || idx[0] > 65535 ||
		    lab_mib_int(&vbs[i], 1, 2147483647, &v) == -1)
			continue;
		br.v[br.n].port = idx[0];
		br.v[br.n].ifindex = (unsigned long)v;
		br.n++;
	}
	qsort(br.v, br.n, sizeof(*br.v), portcmp);
	/* Duplicate rows: keep one of each port. */
	for (i = 1, j = br.n ? 1 : 0; i < br.n; i++)
		if (br.v[i].port != br.v[j - 1].port)
			br.v[j++] = br.v[i];
	br.n = j;
	*out = br;
	return 0;
}
