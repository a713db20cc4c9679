/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CISCO-CDP-MIB cdpCacheTable: CDP neighbours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

#include "mib-priv.h"

/* cdpCacheEntry: index cdpCacheIfIndex.cdpCacheDeviceIndex. */
static const unsigned long cdp_oid[] = {
	1, 3, 6, 1, 4, 1, 9, 9, 23, 1, 2, 1, 1 };

#define CDP_ADDRTYPE	3
#define CDP_ADDRESS	4
#define CDP_VERSION	5
#define CDP_DEVICEID	6
#define CDP_DEVICEPORT	7
#define CDP_PLATFORM	8

#define CDP_ADDR_IP	1

static int
cdprow(const struct lab_varbind *vb, unsigned long *col,
    const unsigned long **idx)
{
	size_t	idx_len;

	if (!lab_mib_column(vb, cdp_oid, MIB_LEN(cdp_oid), col, idx, &idx_len) ||
	    idx_len != 2 || *col < CDP_ADDRTYPE || *col > CDP_PLATFORM)
		return 0;
	return (*idx)[0] != 0 && (*idx)[0] <= 2147483647UL;
}

static int
text(char **slot, const struct lab_varbind *vb, struct lab_err *err)
{
	char	*s;

	if (vb->type != LAB_SNMP_OCTETS)
		return 0;
	if ((s = lab_mib_text(vb)) == NULL)
		return lab_err_oom(err);
	free(*slot);
	*slot = s;
	return 0;
}

/* Decodes the CDP cache and appends it to out. */
int
lab_mib_cdp(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_neighbors *out, struct lab_err *err)
{
	struct lab_snmp_neighbors	 nb;
	struct lab_snmp_neighbor	*r;
	struct mib_keys			 keys;
	const struct lab_varbind	**addr = NULL;
	const unsigned long		*idx;
	unsigned char			*iptype = NULL;
	unsigned long			 col;
	size_t				 i;
	long				 at;
	long long			 v;
	char				 buf[16];

	memset(&nb, 0, sizeof(nb));
	memset(&keys, 0, sizeof(keys));
	for (i = 0; i < n; i++)
		if (cdprow(&vbs[i], &col, &idx) &&
		    lab_mib_keys_add(&keys, idx, 2, err) == -1)
			goto fail;
	lab_mib_keys_sort(&keys);
	if ((nb.v = lab_mib_calloc(keys.n, sizeof(*nb.v), err)) == NULL ||
	    (addr = lab_mib_calloc(keys.n, sizeof(*addr), err)) == NULL ||
	    (iptype = lab_mib_calloc(keys.n, 1, err)) == NULL)
		goto fail;
	nb.n = keys.n;
	for (i = 0; i < nb.n; i++) {
		nb.v[i].port = keys.v[i][0];
		nb.v[i].protocol = LAB_NBR_CDP;
	}
	for (i = 0; i < n; i++) {
		if (!cdprow(&vbs[i], &col, &idx) ||
		    (at = lab_mib_keys_find(&keys, idx, 2)) < 0)
			continue;
		r = &nb.v[at];
		switch (col) {
		case CDP_ADDRTYPE:
			if (lab_mib_int(&vbs[i], 1, 65535, &v) == 0)
				iptype[at] = v == CDP_ADDR_IP ? 1 : 2;
			continue;
		case CDP_ADDRESS:
			if (vbs[i].type == LAB_SNMP_OCTETS)
				addr[at] = &vbs[i];
			continue;
		case CDP_VERSION:
			if (text(&r->version, &vbs[i], err) == -1)
				goto fail;
			continue;
		case CDP_DEVICEID:
			if (text(&r->remote_device, &vbs[i], err) == -1)
				goto fail;
			continue;
		case CDP_DEVICEPORT:
			if (text(&r->remote_port, &vbs[i], err) == -1)
				goto fail;
			continue;
		case CDP_PLATFORM:
			if (text(&r->platform, &vbs[i], err) == -1)
				goto fail;
			continue;
		}
	}
	for (i = 0; i < nb.n; i++) {
		/* Only an address of type ip(1) is 4 bytes of IPv4. */
		if (iptype[i] == 1 && addr[i] != NULL &&
		    addr[i]->str_len == 4 && addr[i]->str != NULL) {
			snprintf(buf, sizeof(buf), "%u.%u.%u.%u",
			    addr[i]->str[0], addr[i]->str[1],
			    addr[i]->str[2], addr[i]->str[3]);
			if ((nb.v[i].address = strdup(buf)) == NULL) {
				lab_err_oom(err);
				goto fail;
			}
		}
		if (lab_mib_neighbor_finish(&nb.v[i]) == -1) {
			lab_err_oom(err);
			goto fail;
		}
	}
	free(addr);
	free(iptype);
	lab_mib_keys_release(&keys);
	return lab_mib_neighbors_append(out, &nb, err);
fail:
	free(addr);
	free(iptype);
	lab_mib_keys_release(&keys);
	lab_snmp_neighbors_release(&nb);
	return -1;
}
