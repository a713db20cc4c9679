/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which VLAN MIBs an agent has, and whether it takes a SET. */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"
#include "vlan-oids.h"

static void
set_oid(struct lab_oid *o, const unsigned long *v, size_t n,
    unsigned long index)
{
	memcpy(o->v, v, n * sizeof(*v));
	o->len = n;
	if (index != 0)
		o->v[o->len++] = index;
}

#define SET_OID(o, arr, idx) set_oid((o), (arr), \
	sizeof(arr) / sizeof((arr)[0]), (idx))

static const unsigned long static_rs[] = { LAB_OID_DOT1Q_STATIC_ROWSTATUS };
static const unsigned long pvid[] = { LAB_OID_DOT1Q_PVID };
static const unsigned long sb_mode[] = { LAB_OID_SB_PORT_MODE };
static const unsigned long if_alias[] = { LAB_OID_IF_ALIAS };
/* rlCopyMibVersion.0 (CISCOSB-COPY-MIB) */
static const unsigned long copy_version[] = {
	1, 3, 6, 1, 4, 1, 9, 6, 1, 101, 87, 1, 0
};

/* 1 when the first varbind of out under col is there; its index. */
static int
first_under(const struct lab_varbind_list *l, const struct lab_oid *col,
    size_t *at)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		if (l->v[i].oid_len > col->len && memcmp(l->v[i].oid, col->v,
		    col->len * sizeof(col->v[0])) == 0) {
			*at = i;
			return 1;
		}
	}
	return 0;
}

int
lab_vlan_probe(struct lab_snmp *s, struct lab_vlan_probe *ret,
    struct lab_err *err)
{
	struct lab_varbind_list	 l;
	struct lab_oid		 cols[3];
	struct lab_snmp_value	 v;
	struct lab_err		 serr;
	size_t			 at, failed, k;
	int			 has_rs, has_pvid;

	memset(ret, 0, sizeof(*ret));
	memset(&l, 0, sizeof(l));
	SET_OID(&cols[0], static_rs, 0);
	SET_OID(&cols[1], pvid, 0);
	SET_OID(&cols[2], sb_mode, 0);
	if (lab_snmp_walk(s, cols, 3, 48, &l, err) == -1) {
		lab_varbind_list_release(&l);
		return -1;
	}
	has_rs = first_under(&l, &cols[0], &at);
	has_pvid = first_under(&l, &cols[1], &at);
	ret->qbridge = has_rs && has_pvid;
	ret->ciscosb = first_under(&l, &cols[2], &k);

	memset(&v, 0, sizeof(v));
	SET_OID(&v.oid, copy_version, 0);
	if (lab_snmp_get_values(s, &v, 1, err) == -1) {
		lab_varbind_list_release(&l);
		return -1;
	}
	ret->copy = !v.absent;

	/* the no-op SET: a current value to itself */
	memset(&v, 0, sizeof(v));
	if (has_pvid) {
		v.oid.len = l.v[at].oid_len;
		memcpy(v.oid.v, l.v[at].oid, v.oid.len * sizeof(v.oid.v[0]));
		v.type = LAB_SNMP_GAUGE32;
		v.u = l.v[at].u;
	} else {
		SET_OID(&v.oid, if_alias, 1);
		if (lab_snmp_get_values(s, &v, 1, err) == -1) {
			lab_varbind_list_release(&l);
			return -1;
		}
	}
	lab_varbind_list_release(&l);
	if (v.absent) {
		if ((ret->why = strdup("nothing to set: neither dot1qPvid nor "
		    "ifAlias.1 answers")) == NULL)
			return lab_err_oom(err);
		return 0;
	}
	lab_err_init(&serr);
	if (lab_snmp_set(s, &v, 1, &failed, &serr) == 0) {
		ret->writable = 1;
		return 0;
	}
	if (serr.local) {
		*err = serr;
		return -1;
	}
	if ((ret->why = strdup(serr.msg)) == NULL)
		return lab_err_oom(err);
	return 0;
}
