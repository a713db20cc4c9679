/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LLDP-MIB lldpRemTable: LLDP neighbours, mapped to local ifindexes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

#include "mib-priv.h"

/* lldpRemEntry: index TimeMark.LocalPortNum.RemIndex. */
static const unsigned long rem_oid[] = { 1, 0, 8802, 1, 1, 2, 1, 4, 1, 1 };
/* lldpRemManAddrEntry: rem index, then subtype, length, address. */
static const unsigned long man_oid[] = { 1, 0, 8802, 1, 1, 2, 1, 4, 2, 1 };
/* lldpLocPortEntry: index LocPortNum. */
static const unsigned long loc_oid[] = { 1, 0, 8802, 1, 1, 2, 1, 3, 7, 1 };
static const unsigned long ifname_oid[] = {
	1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 1 };
static const unsigned long ifdescr_oid[] = { 1, 3, 6, 1, 2, 1, 2, 2, 1, 2 };

#define REM_CHASSIS_SUB	4
#define REM_CHASSIS	5
#define REM_PORT_SUB	6
#define REM_PORT	7
#define REM_PORT_DESC	8
#define REM_SYSNAME	9
#define REM_SYSDESC	10
#define NCOLS		7
#define LOC_PORT_ID	3

#define CHASSIS_MAC	4	/* LldpChassisIdSubtype macAddress */
#define PORT_MAC	3	/* LldpPortIdSubtype macAddress */

/* A name to ifindex pair, sorted by bytes for lookups. */
struct name {
	const unsigned char	*s;
	size_t			 len;
	unsigned long		 ifindex;
};

struct names {
	struct name	*v;
	size_t		 n;
};

static int
namecmp(const void *a, const void *b)
{
	const struct name	*x = a, *y = b;
	size_t			 n = x->len < y->len ? x->len : y->len;
	int			 c;

	if (n > 0 && (c = memcmp(x->s, y->s, n)) != 0)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* Collects prefix.INDEX = string rows, sorted by string. */
static int
names(const struct lab_varbind *vbs, size_t n, const unsigned long *prefix,
    size_t plen, struct names *out, struct lab_err *err)
{
	size_t	i, cnt;

	memset(out, 0, sizeof(*out));
	cnt = 0;
	for (i = 0; i < n; i++)
		if (vbs[i].oid != NULL && vbs[i].oid_len == plen + 1 &&
		    memcmp(vbs[i].oid, prefix, plen * sizeof(*prefix)) == 0 &&
		    vbs[i].type == LAB_SNMP_OCTETS && vbs[i].str_len > 0 &&
		    vbs[i].str != NULL)
			cnt++;
	if (cnt == 0)
		return 0;
	if ((out->v = lab_mib_calloc(cnt, sizeof(*out->v), err)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (vbs[i].oid != NULL && vbs[i].oid_len == plen + 1 &&
		    memcmp(vbs[i].oid, prefix, plen * sizeof(*prefix)) == 0 &&
		    vbs[i].type == LAB_SNMP_OCTETS && vbs[i].str_len > 0 &&
		    vbs[i].str != NULL) {
			out->v[out->n].s = vbs[i].str;
			out->v[out->n].len = vbs[i].str_len;
			out->v[out->n].ifindex = vbs[i].oid[plen];
			out->n++;
		}
	qsort(out->v, out->n, sizeof(*out->v), namecmp);
	return 0;
}

static const struct name *
lookup(const struct names *ns, const unsigned char *s, size_t len)
{
	struct name	key;

	memset(&key, 0, sizeof(key));
	key.s = s;
	key.len = len;
	if (ns->n == 0)
		return NULL;
	return bsearch(&key, ns->v, ns->n, sizeof(*ns->v), namecmp);
}

/* Tables used to map a local port number; all may be empty. */
struct map {
	struct names		locport;	/* ifindex = LocPortNum here */
	struct names		ifname;
	struct names		ifdescr;
	struct lab_snmp_bridge	bridge;
};

static unsigned long
localport(const struct map *m, unsigned long num)
{
	const struct name	*lp, *hit;
	size_t			 i;

	lp = NULL;
	/* locport is sorted by name: a linear scan by number is bounded
	 * by the table, and only done once per neighbour. */
	for (i = 0; i < m->locport.n && lp == NULL; i++)
		if (m->locport.v[i].ifindex == num)
			lp = &m->locport.v[i];
	if (lp != NULL) {
		if ((hit = lookup(&m->ifname, lp->s, lp->len)) != NULL ||
		    (hit = lookup(&m->ifdescr, lp->s, lp->len)) != NULL)
			return hit->ifindex;
	}
	return lab_snmp_bridge_ifindex(&m->bridge, num);
}

/* Text of an id: a MAC in colon form, printable text, else hex. */
static char *
ident(const struct lab_varbind *vb, int is_mac)
{
	if (vb == NULL || vb->type != LAB_SNMP_OCTETS || vb->str == NULL)
		return strdup("");
	if (is_mac && vb->str_len == 6)
		return lab_mib_hex(vb->str, 6, ':');
	if (lab_mib_printable(vb))
		return lab_mib_text(vb);
	return lab_mib_hex(vb->str, vb->str_len, ':');
}

/* Fills one neighbour from its columns (NULL when absent). */
static int
build(struct lab_snmp_neighbor *r, const struct lab_varbind **c,
    const struct lab_varbind *man)
{
	long long	sub;
	char		buf[16];

	if (c[REM_SYSNAME - 4] != NULL &&
	    c[REM_SYSNAME - 4]->type == LAB_SNMP_OCTETS &&
	    c[REM_SYSNAME - 4]->str_len > 0) {
		if ((r->remote_device = lab_mib_text(c[REM_SYSNAME - 4])) == NULL)
			return -1;
	}
	if (r->remote_device == NULL || r->remote_device[0] == '\0') {
		free(r->remote_device);
		sub = 0;
		if (c[REM_CHASSIS_SUB - 4] != NULL)
			(void)lab_mib_int(c[REM_CHASSIS_SUB - 4], 1, 7, &sub);
		if ((r->remote_device = ident(c[REM_CHASSIS - 4],
		    sub == CHASSIS_MAC)) == NULL)
			return -1;
	}
	sub = 0;
	if (c[REM_PORT_SUB - 4] != NULL)
		(void)lab_mib_int(c[REM_PORT_SUB - 4], 1, 7, &sub);
	if (c[REM_PORT - 4] != NULL && c[REM_PORT - 4]->str_len > 0)
		r->remote_port = ident(c[REM_PORT - 4], sub == PORT_MAC);
	else
		r->remote_port = ident(c[REM_PORT_DESC - 4], 0);
	if (r->remote_port == NULL)
		return -1;
	if (c[REM_SYSDESC - 4] != NULL &&
	    (r->version = lab_mib_text(c[REM_SYSDESC - 4])) == NULL)
		return -1;
	if (man != NULL) {
		snprintf(buf, sizeof(buf), "%lu.%lu.%lu.%lu", man->oid[
		    MIB_LEN(man_oid) + 6], man->oid[MIB_LEN(man_oid) + 7],
		    man->oid[MIB_LEN(man_oid) + 8],
		    man->oid[MIB_LEN(man_oid) + 9]);
		if ((r->address = strdup(buf)) == NULL)
			return -1;
	}
	return lab_mib_neighbor_finish(r);
}

/* An IPv4 management address row: col.tm.port.rem.1.4.a.b.c.d. */
static int
manrow(const struct lab_varbind *vb, const unsigned long **idx)
{
	unsigned long	col;
	size_t		idx_len, i;

	if (!lab_mib_column(vb, man_oid, MIB_LEN(man_oid), &col, idx, &idx_len) ||
	    idx_len != 9 || (*idx)[3] != 1 || (*idx)[4] != 4)
		return 0;
	for (i = 5; i < 9; i++)
		if ((*idx)[i] > 255)
			return 0;
	return 1;
}

/* Decodes the LLDP remote table and appends it to out. */
int
lab_mib_lldp(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_neighbors *out, struct lab_err *err)
{
	struct lab_snmp_neighbors	  nb;
	struct map			  m;
	struct mib_keys			  keys;
	const struct lab_varbind	**cols = NULL, **man = NULL;
	const unsigned long		 *idx;
	unsigned long			  col;
	size_t				  i, idx_len;
	long				  at;

	memset(&nb, 0, sizeof(nb));
	memset(&m, 0, sizeof(m));
	memset(&keys, 0, sizeof(keys));
	for (i = 0; i < n; i++)
		if (lab_mib_column(&vbs[i], rem_oid, MIB_LEN(rem_oid), &col, &idx,
		    &idx_len) && idx_len == 3 && col >= REM_CHASSIS_SUB &&
		    col <= REM_SYSDESC &&
		    lab_mib_keys_add(&keys, idx, 3, err) == -1)
			goto fail;
	lab_mib_keys_sort(&keys);
	if (keys.n == 0) {
		lab_mib_keys_release(&keys);
		return 0;
	}
	if ((nb.v = lab_mib_calloc(keys.n, sizeof(*nb.v), err)) == NULL ||
	    (cols = lab_mib_calloc(keys.n, NCOLS * sizeof(*cols), err)) == NULL ||
	    (man = lab_mib_calloc(keys.n, sizeof(*man), err)) == NULL)
		goto fail;
	nb.n = keys.n;
	for (i = 0; i < n; i++) {
		if (lab_mib_column(&vbs[i], rem_oid, MIB_LEN(rem_oid), &col, &idx,
		    &idx_len) && idx_len == 3 && col >= REM_CHASSIS_SUB &&
		    col <= REM_SYSDESC &&
		    (at = lab_mib_keys_find(&keys, idx, 3)) >= 0)
			cols[at * NCOLS + (col - REM_CHASSIS_SUB)] = &vbs[i];
		else if (manrow(&vbs[i], &idx) &&
		    (at = lab_mib_keys_find(&keys, idx, 3)) >= 0 && man[at] == NULL)
			man[at] = &vbs[i];
	}
	if (names(vbs, n, ifname_oid, MIB_LEN(ifname_oid), &m.ifname,
	    err) == -1 || names(vbs, n, ifdescr_oid, MIB_LEN(ifdescr_oid),
	    &m.ifdescr, err) == -1)
		goto fail;
	{
		unsigned long	locid[MIB_LEN(loc_oid) + 1];

		memcpy(locid, loc_oid, sizeof(loc_oid));
		locid[MIB_LEN(loc_oid)] = LOC_PORT_ID;
		if (names(vbs, n, locid, MIB_LEN(locid), &m.locport,
		    err) == -1)
			goto fail;
	}
	if (lab_mib_bridge(vbs, n, &m.bridge, err) == -1)
		goto fail;
	for (i = 0; i < nb.n; i++) {
		nb.v[i].protocol = LAB_NBR_LLDP;
		nb.v[i].port = localport(&m, keys.v[i][1]);
		if (build(&nb.v[i], cols + i * NCOLS, man[i]) == -1) {
			lab_err_oom(err);
			goto fail;
		}
	}
	free(cols);
	free(man);
	free(m.ifname.v);
	free(m.ifdescr.v);
	free(m.locport.v);
	lab_snmp_bridge_release(&m.bridge);
	lab_mib_keys_release(&keys);
	return lab_mib_neighbors_append(out, &nb, err);
fail:
	free(cols);
	free(man);
	free(m.ifname.v);
	free(m.ifdescr.v);
	free(m.locport.v);
	lab_snmp_bridge_release(&m.bridge);
	lab_mib_keys_release(&keys);
	lab_snmp_neighbors_release(&nb);
	return -1;
}
