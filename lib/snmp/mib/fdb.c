/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MAC table: Q-BRIDGE dot1qTpFdbPort, else BRIDGE-MIB dot1dTpFdbPort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

#include "mib-priv.h"

/* dot1qTpFdbEntry: index dot1qFdbId.MAC (6 sub-identifiers). */
static const unsigned long qfdb_oid[] = { 1, 3, 6, 1, 2, 1, 17, 7, 1, 2, 2, 1 };
/* dot1dTpFdbEntry: index MAC. */
static const unsigned long dfdb_oid[] = { 1, 3, 6, 1, 2, 1, 17, 4, 3, 1 };

#define FDB_PORT	2

/* The varbind's FDB id (0 for BRIDGE-MIB) and MAC; 0 if not a good row. */
static int
row(const struct lab_varbind *vb, int q, unsigned long *vlan, char *mac)
{
	const unsigned long	*idx;
	unsigned long		 col;
	size_t			 idx_len, i;

	if (q) {
		if (!lab_mib_column(vb, qfdb_oid, MIB_LEN(qfdb_oid), &col, &idx,
		    &idx_len) || col != FDB_PORT || idx_len != 7)
			return 0;
		/* dot1qFdbId is Unsigned32; VLAN ids fit in 12 bits. */
		if (idx[0] > 4095)
			return 0;
		*vlan = idx[0];
		idx++;
	} else {
		if (!lab_mib_column(vb, dfdb_oid, MIB_LEN(dfdb_oid), &col, &idx,
		    &idx_len) || col != FDB_PORT || idx_len != 6)
			return 0;
		*vlan = 0;
	}
	for (i = 0; i < 6; i++)
		if (idx[i] > 255)
			return 0;
	snprintf(mac, 18, "%02lx:%02lx:%02lx:%02lx:%02lx:%02lx", idx[0],
	    idx[1], idx[2], idx[3], idx[4], idx[5]);
	return 1;
}

static int
entcmp(const void *a, const void *b)
{
	const struct lab_snmp_fdb_entry	*x = a, *y = b;
	int				 c;

	if (x->vlan != y->vlan)
		return x->vlan < y->vlan ? -1 : 1;
	if ((c = strcmp(x->mac, y->mac)) != 0)
		return c;
	return 0;
}

static int
collect(const struct lab_varbind *vbs, size_t n, int q,
    const struct lab_snmp_bridge *br, struct lab_snmp_fdb *f,
    struct lab_err *err)
{
	size_t		i, j, cnt;
	unsigned long	vlan;
	char		mac[18];
	long long	port;

	cnt = 0;
	for (i = 0; i < n; i++)
		if (row(&vbs[i], q, &vlan, mac))
			cnt++;
	if (cnt == 0)
		return 0;
	if ((f->v = lab_mib_calloc(cnt, sizeof(*f->v), err)) == NULL)
		return -1;
	f->qbridge = q;
	for (i = 0; i < n; i++) {
		if (!row(&vbs[i], q, &vlan, mac))
			continue;
		/* Port 0: learnt but not on a known port; keep it as 0. */
		if (lab_mib_int(&vbs[i], 0, 65535, &port) == -1)
			continue;
		memcpy(f->v[f->n].mac, mac, sizeof(mac));
		f->v[f->n].vlan = vlan;
		f->v[f->n].bridge_port = (unsigned long)port;
		f->v[f->n].port = port == 0 ? 0 :
		    lab_snmp_bridge_ifindex(br, (unsigned long)port);
		f->n++;
	}
	qsort(f->v, f->n, sizeof(*f->v), entcmp);
	for (i = 1, j = f->n ? 1 : 0; i < f->n; i++)
		if (entcmp(&f->v[i], &f->v[j - 1]) != 0)
			f->v[j++] = f->v[i];
	f->n = j;
	return 0;
}

/* Decodes the MAC table, sorted by VLAN then MAC. */
int
lab_mib_fdb(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_fdb *out, struct lab_err *err)
{
	struct lab_snmp_bridge	br;
	struct lab_snmp_fdb	f;
	int			rc;

	memset(out, 0, sizeof(*out));
	memset(&f, 0, sizeof(f));
	if (lab_mib_bridge(vbs, n, &br, err) == -1)
		return -1;
	rc = collect(vbs, n, 1, &br, &f, err);
	if (rc == 0 && f.n == 0) {
		lab_snmp_fdb_release(&f);
		rc = collect(vbs, n, 0, &br, &f, err);
	}
	lab_snmp_bridge_release(&br);
	if (rc == -1) {
		lab_snmp_fdb_release(&f);
		return -1;
	}
	*out = f;
	return 0;
}
