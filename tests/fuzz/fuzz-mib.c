/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the MIB decoders: fuzz bytes become a varbind
 * list, which goes through every decoder. Not built by meson yet (issue
 * 8); by hand, from the top of the tree:
 *	clang -g -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
 *	    -Iinclude -Ilib lib/mib/[a-z]*.c lib/str.c lib/err.c \
 *	    tests/fuzz/fuzz-mib.c -o fuzz-mib
 *	./fuzz-mib -max_total_time=60 tests/fuzz/corpus-mib
 *
 * Input, repeated: a prefix selector byte (one of the tables below, so
 * most varbinds land in a decoded table), an arc count byte, that many
 * arcs (one byte each; 0xff means the next 4 bytes, big-endian), a type
 * byte, then the value: 8 bytes for numbers, a length byte (0xff: two
 * bytes) and the bytes for strings, a count and arcs for OIDs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

static const unsigned long prefixes[][12] = {
	{ 10, 1, 3, 6, 1, 2, 1, 1 },			/* system */
	{ 10, 1, 3, 6, 1, 2, 1, 2, 2, 1 },		/* ifEntry */
	{ 11, 1, 3, 6, 1, 2, 1, 31, 1, 1, 1 },		/* ifXEntry */
	{ 11, 1, 3, 6, 1, 2, 1, 10, 7, 2, 1 },		/* dot3StatsEntry */
	{ 11, 1, 3, 6, 1, 2, 1, 17, 1, 4, 1 },		/* dot1dBasePortEntry */
	{ 11, 1, 3, 6, 1, 2, 1, 17, 4, 3, 1 },		/* dot1dTpFdbEntry */
	{ 11, 1, 3, 6, 1, 2, 1, 17, 7, 1, 2 },		/* dot1qTpFdbTable */
	{ 11, 1, 3, 6, 1, 2, 1, 17, 7, 1, 4 },		/* dot1qVlan */
	{ 11, 1, 3, 6, 1, 4, 1, 9, 9, 23, 1 },		/* cdpCache.. */
	{ 9, 1, 0, 8802, 1, 1, 2, 1, 4 },		/* lldpRemoteData */
	{ 9, 1, 0, 8802, 1, 1, 2, 1, 3 },		/* lldpLocalData */
	{ 8, 1, 2, 840, 10006, 300, 43, 1 },		/* lagMIBObjects */
	{ 0 },						/* free-form */
};

struct in {
	const uint8_t	*p;
	size_t		 n;
};

static int
byte(struct in *in, unsigned *v)
{
	if (in->n == 0)
		return -1;
	*v = *in->p++;
	in->n--;
	return 0;
}

static int
arc(struct in *in, unsigned long *v)
{
	unsigned	b, i;

	if (byte(in, &b) == -1)
		return -1;
	if (b != 0xff) {
		*v = b;
		return 0;
	}
	*v = 0;
	for (i = 0; i < 4; i++) {
		if (byte(in, &b) == -1)
			return -1;
		*v = *v << 8 | b;
	}
	return 0;
}

static int
oid(struct in *in, unsigned long **ret, size_t *ret_len,
    const unsigned long *pre)
{
	unsigned	 cnt, i;
	size_t		 plen = pre ? pre[0] : 0;

	if (byte(in, &cnt) == -1)
		return -1;
	cnt %= 40;
	if ((*ret = calloc(plen + cnt + 1, sizeof(**ret))) == NULL)
		return -1;
	for (i = 0; i < plen; i++)
		(*ret)[i] = pre[i + 1];
	for (i = 0; i < cnt; i++)
		if (arc(in, &(*ret)[plen + i]) == -1)
			return -1;
	*ret_len = plen + cnt;
	return 0;
}

static int
one(struct in *in, struct lab_varbind *vb)
{
	unsigned	sel, t, b, i;
	size_t		len;
	uint64_t	u;

	memset(vb, 0, sizeof(*vb));
	if (byte(in, &sel) == -1)
		return -1;
	sel %= sizeof(prefixes) / sizeof(prefixes[0]);
	if (oid(in, &vb->oid, &vb->oid_len, prefixes[sel]) == -1 ||
	    byte(in, &t) == -1)
		return -1;
	vb->type = (enum lab_snmp_type)(t % (LAB_SNMP_END_OF_MIB + 1));
	switch (vb->type) {
	case LAB_SNMP_OCTETS:
		if (byte(in, &b) == -1)
			return -1;
		len = b;
		if (b == 0xff) {
			if (byte(in, &b) == -1)
				return -1;
			len = b << 8;
			if (byte(in, &b) == -1)
				return -1;
			len |= b;
		}
		if (len > in->n)
			len = in->n;
		if ((vb->str = malloc(len ? len : 1)) == NULL)
			return -1;
		memcpy(vb->str, in->p, len);
		vb->str_len = len;
		in->p += len;
		in->n -= len;
		return 0;
	case LAB_SNMP_OID:
		return oid(in, &vb->oidv, &vb->oidv_len, NULL);
	default:
		u = 0;
		for (i = 0; i < 8; i++) {
			if (byte(in, &b) == -1)
				break;
			u = u << 8 | b;
		}
		vb->u = u;
		vb->i = (int64_t)u;
		memcpy(vb->ip, &u, sizeof(vb->ip));
		return 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_varbind		*vbs;
	struct in			 in = { data, size };
	struct lab_snmp_system		 sys;
	struct lab_snmp_ports		 ports;
	struct lab_snmp_bridge		 br;
	struct lab_snmp_fdb		 fdb;
	struct lab_snmp_vlans		 vl;
	struct lab_snmp_lags		 lags;
	struct lab_snmp_neighbors	 nb;
	struct lab_err			 err;
	size_t				 n = 0, cap = 512;

	if ((vbs = calloc(cap, sizeof(*vbs))) == NULL)
		return 0;
	while (in.n > 0 && n < cap) {
		if (one(&in, &vbs[n]) == -1) {
			/* Keep the partial varbind: decoders must cope. */
			n++;
			break;
		}
		n++;
	}
	lab_err_init(&err);
	if (lab_mib_system(vbs, n, &sys, &err) == 0)
		lab_snmp_system_release(&sys);
	if (lab_mib_ifaces(vbs, n, &ports, &err) == 0) {
		lab_mib_duplex(vbs, n, &ports, &err);
		lab_snmp_ports_release(&ports);
	}
	if (lab_mib_bridge(vbs, n, &br, &err) == 0)
		lab_snmp_bridge_release(&br);
	if (lab_mib_fdb(vbs, n, &fdb, &err) == 0)
		lab_snmp_fdb_release(&fdb);
	if (lab_mib_vlan(vbs, n, &vl, &err) == 0)
		lab_snmp_vlans_release(&vl);
	if (lab_mib_lag(vbs, n, &lags, &err) == 0)
		lab_snmp_lags_release(&lags);
	memset(&nb, 0, sizeof(nb));
	lab_mib_cdp(vbs, n, &nb, &err);
	lab_mib_lldp(vbs, n, &nb, &err);
	lab_snmp_neighbors_release(&nb);
	lab_varbinds_free(vbs, n);
	return 0;
}
