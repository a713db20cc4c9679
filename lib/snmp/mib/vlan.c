/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Q-BRIDGE VLANs: names, egress and untagged port lists, and PVIDs. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

#include "mib-priv.h"

/* dot1qVlanStaticEntry: index VlanIndex. */
static const unsigned long static_oid[] = {
	1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1 };
/* dot1qVlanCurrentEntry: index TimeMark.VlanIndex. */
static const unsigned long current_oid[] = {
	1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 2, 1 };
/* dot1qPortVlanEntry: index dot1dBasePort. */
static const unsigned long pvid_oid[] = { 1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 5, 1 };

#define STATIC_NAME	1
#define STATIC_EGRESS	2
#define STATIC_UNTAGGED	4
#define CURRENT_EGRESS	4
#define CURRENT_UNTAGGED 5
#define PVID		1

#define SEEN_EGRESS	0x1
#define SEEN_UNTAGGED	0x2

/* Sets *vid and *col for a VLAN row of either table; 0 if not one. */
static int
vlanrow(const struct lab_varbind *vb, int *cur, unsigned long *col,
    unsigned long *vid)
{
	const unsigned long	*idx;
	size_t			 idx_len;

	if (lab_mib_column(vb, static_oid, MIB_LEN(static_oid), col, &idx,
	    &idx_len)) {
		if (idx_len != 1 || (*col != STATIC_NAME &&
		    *col != STATIC_EGRESS && *col != STATIC_UNTAGGED))
			return 0;
		*cur = 0;
		*vid = idx[0];
	} else if (lab_mib_column(vb, current_oid, MIB_LEN(current_oid), col,
	    &idx, &idx_len)) {
		if (idx_len != 2 || (*col != CURRENT_EGRESS &&
		    *col != CURRENT_UNTAGGED))
			return 0;
		*cur = 1;
		*vid = idx[1];
	} else
		return 0;
	return *vid >= 1 && *vid <= 4094;
}

/*
 * The captures turned wrapped snmpwalk hex into bytes: after ~16 real
 * bytes comes "\nFF FF 00 ...". A newline followed by "XX " is that
 * text, never a plausible bitmap continuation on those captures.
 */
static int
mangled_at(const unsigned char *p, size_t len, size_t i)
{
	return p[i] == '\n' && i + 3 < len && isxdigit(p[i + 1]) &&
	    isxdigit(p[i + 2]) && p[i + 3] == ' ';
}

/* Decodes a PortList into ifindexes; sets *mangled if it looked mangled. */
static int
portlist(const struct lab_varbind *vb, const struct lab_snmp_bridge *br,
    struct lab_snmp_ifset *set, int *mangled, struct lab_err *err)
{
	unsigned long	port, ifindex;
	size_t		i, len;
	int		bit;

	len = vb->str == NULL ? 0 : vb->str_len;
	if (len > LAB_MIB_MAX_PORTLIST)
		len = LAB_MIB_MAX_PORTLIST;
	for (i = 0; i < len; i++) {
		if (mangled_at(vb->str, len, i)) {
			*mangled = 1;
			break;
		}
		for (bit = 0; bit < 8; bit++) {
			if (!(vb->str[i] & (0x80 >> bit)))
				continue;
			port = i * 8 + (unsigned long)bit + 1;
			if ((ifindex = lab_snmp_bridge_ifindex(br, port)) == 0)
				continue;
			if (lab_mib_ifset_add(set, ifindex, err) == -1)
				return -1;
		}
	}
	lab_mib_ifset_sort(set);
	return 0;
}

static int
pvidcmp(const void *a, const void *b)
{
	const struct lab_snmp_pvid	*x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

static int
pvids(const struct lab_varbind *vbs, size_t n,
    const struct lab_snmp_bridge *br, struct lab_snmp_vlans *vl,
    struct lab_err *err)
{
	const unsigned long	*idx;
	unsigned long		 col, ifindex;
	size_t			 i, j, idx_len, cnt;
	long long		 v;

	cnt = 0;
	for (i = 0; i < n; i++)
		if (lab_mib_column(&vbs[i], pvid_oid, MIB_LEN(pvid_oid), &col,
		    &idx, &idx_len) && col == PVID && idx_len == 1)
			cnt++;
	if (cnt == 0)
		return 0;
	if ((vl->pvid = lab_mib_calloc(cnt, sizeof(*vl->pvid), err)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (!lab_mib_column(&vbs[i], pvid_oid, MIB_LEN(pvid_oid), &col,
		    &idx, &idx_len) || col != PVID || idx_len != 1)
			continue;
		if (lab_mib_int(&vbs[i], 1, 4094, &v) == -1)
			continue;
		if ((ifindex = lab_snmp_bridge_ifindex(br, idx[0])) == 0)
			continue;
		vl->pvid[vl->npvid].ifindex = ifindex;
		vl->pvid[vl->npvid].vlan = (unsigned long)v;
		vl->npvid++;
	}
	qsort(vl->pvid, vl->npvid, sizeof(*vl->pvid), pvidcmp);
	for (i = 1, j = vl->npvid ? 1 : 0; i < vl->npvid; i++)
		if (vl->pvid[i].ifindex != vl->pvid[j - 1].ifindex)
			vl->pvid[j++] = vl->pvid[i];
	vl->npvid = j;
	return 0;
}

/* One pass over one table (static, then current) filling the VLANs. */
static int
lists(const struct lab_varbind *vbs, size_t n, int want_cur,
    const struct mib_keys *keys, const struct lab_snmp_bridge *br,
    unsigned char *seen, struct lab_snmp_vlans *vl, struct lab_err *err)
{
	struct lab_snmp_vlan	*v;
	struct lab_snmp_ifset	*set;
	unsigned long		 col, vid;
	size_t			 i;
	long			 at;
	int			 cur, flag;
	char			*s;

	for (i = 0; i < n; i++) {
		if (!vlanrow(&vbs[i], &cur, &col, &vid) || cur != want_cur)
			continue;
		if ((at = lab_mib_keys_find(keys, &vid, 1)) < 0)
			continue;
		v = &vl->v[at];
		if (!cur && col == STATIC_NAME) {
			if (vbs[i].type != LAB_SNMP_OCTETS)
				continue;
			if ((s = lab_mib_text(&vbs[i])) == NULL)
				return lab_err_oom(err);
			free(v->name);
			v->name = s;
			continue;
		}
		if (vbs[i].type != LAB_SNMP_OCTETS)
			continue;
		if (col == (cur ? CURRENT_EGRESS : STATIC_EGRESS)) {
			set = &v->egress;
			flag = SEEN_EGRESS << (cur ? 2 : 0);
		} else {
			set = &v->untagged;
			flag = SEEN_UNTAGGED << (cur ? 2 : 0);
		}
		/* The first row wins; static lists win over current ones. */
		if (seen[at] & (flag | (cur ? flag >> 2 : 0)))
			continue;
		seen[at] |= flag;
		if (portlist(&vbs[i], br, set, &v->lists_mangled, err) == -1)
			return -1;
	}
	return 0;
}

/* Decodes VLANs (sorted by id) and PVIDs (sorted by ifindex). */
int
lab_mib_vlan(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_vlans *out, struct lab_err *err)
{
	struct lab_snmp_bridge	 br;
	int			 rc;

	memset(out, 0, sizeof(*out));
	if (lab_mib_bridge(vbs, n, &br, err) == -1)
		return -1;
	rc = lab_mib_vlan_map(vbs, n, &br, out, err);
	lab_snmp_bridge_release(&br);
	return rc;
}

int
lab_mib_vlan_map(const struct lab_varbind *vbs, size_t n,
    const struct lab_snmp_bridge *br, struct lab_snmp_vlans *out,
    struct lab_err *err)
{
	struct lab_snmp_vlans	 vl;
	struct mib_keys		 keys;
	unsigned char		*seen = NULL;
	unsigned long		 col, vid;
	size_t			 i;
	int			 cur;

	memset(out, 0, sizeof(*out));
	memset(&vl, 0, sizeof(vl));
	memset(&keys, 0, sizeof(keys));
	for (i = 0; i < n; i++)
		if (vlanrow(&vbs[i], &cur, &col, &vid) &&
		    lab_mib_keys_add(&keys, &vid, 1, err) == -1)
			goto fail;
	lab_mib_keys_sort(&keys);
	if ((vl.v = lab_mib_calloc(keys.n, sizeof(*vl.v), err)) == NULL ||
	    (seen = lab_mib_calloc(keys.n, 1, err)) == NULL)
		goto fail;
	vl.n = keys.n;
	for (i = 0; i < vl.n; i++)
		vl.v[i].id = keys.v[i][0];
	if (lists(vbs, n, 0, &keys, br, seen, &vl, err) == -1 ||
	    lists(vbs, n, 1, &keys, br, seen, &vl, err) == -1)
		goto fail;
	for (i = 0; i < vl.n; i++)
		if (vl.v[i].name == NULL &&
		    (vl.v[i].name = strdup("")) == NULL) {
			lab_err_oom(err);
			goto fail;
		}
	if (pvids(vbs, n, br, &vl, err) == -1)
		goto fail;
	free(seen);
	lab_mib_keys_release(&keys);
	*out = vl;
	return 0;
fail:
	free(seen);
	lab_mib_keys_release(&keys);
	lab_snmp_vlans_release(&vl);
	return -1;
}
