/* SPDX-License-Identifier: GPL-3.0-or-later */
/* IF-MIB ifTable and ifXTable: one port per ifIndex. */
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

#include "mib-priv.h"

static const unsigned long if_oid[] = { 1, 3, 6, 1, 2, 1, 2, 2, 1 };
static const unsigned long ifx_oid[] = { 1, 3, 6, 1, 2, 1, 31, 1, 1, 1 };

#define IF_DESCR	2
#define IF_TYPE		3
#define IF_SPEED	5
#define IF_ADMIN	7
#define IF_OPER		8
#define IFX_NAME	1
#define IFX_HIGHSPEED	15
#define IFX_ALIAS	18

/* Which table and column a varbind is, with its ifIndex; 0 if neither. */
static int
ifcol(const struct lab_varbind *vb, int *x, unsigned long *col,
    unsigned long *ifindex)
{
	const unsigned long	*idx;
	size_t			 idx_len;

	if (lab_mib_column(vb, if_oid, MIB_LEN(if_oid), col, &idx, &idx_len)) {
		*x = 0;
		if (*col != IF_DESCR && *col != IF_TYPE && *col != IF_SPEED &&
		    *col != IF_ADMIN && *col != IF_OPER)
			return 0;
	} else if (lab_mib_column(vb, ifx_oid, MIB_LEN(ifx_oid), col, &idx,
	    &idx_len)) {
		*x = 1;
		if (*col != IFX_NAME && *col != IFX_HIGHSPEED &&
		    *col != IFX_ALIAS)
			return 0;
	} else
		return 0;
	/* InterfaceIndex is 1..2147483647. */
	if (idx_len != 1 || idx[0] == 0 || idx[0] > 2147483647UL)
		return 0;
	*ifindex = idx[0];
	return 1;
}

static int
settext(char **slot, const struct lab_varbind *vb)
{
	char	*s;

	if (vb->type != LAB_SNMP_OCTETS)
		return 0;
	if ((s = lab_mib_text(vb)) == NULL)
		return -1;
	free(*slot);
	*slot = s;
	return 0;
}

static int
fill(struct lab_snmp_port *p, int x, unsigned long col,
    const struct lab_varbind *vb)
{
	long long	v;

	if (!x && col == IF_DESCR)
		return settext(&p->descr, vb);
	if (x && col == IFX_NAME)
		return settext(&p->name, vb);
	if (x && col == IFX_ALIAS)
		return settext(&p->alias, vb);
	if (!x && col == IF_TYPE && lab_mib_int(vb, 1, 2147483647, &v) == 0)
		p->type = (long)v;
	else if (!x && col == IF_SPEED && vb->type == LAB_SNMP_GAUGE32 &&
	    vb->u <= UINT32_MAX) {
		p->if_speed = (uint32_t)vb->u;
		p->flags |= LAB_PORT_HAS_SPEED;
	} else if (x && col == IFX_HIGHSPEED && vb->type == LAB_SNMP_GAUGE32 &&
	    vb->u <= UINT32_MAX) {
		p->high_speed = (uint32_t)vb->u;
		p->flags |= LAB_PORT_HAS_HIGHSPEED;
	} else if (!x && col == IF_ADMIN && lab_mib_int(vb, 1, 3, &v) == 0)
		p->admin_status = (int)v;
	else if (!x && col == IF_OPER && lab_mib_int(vb, 1, 7, &v) == 0)
		p->oper_status = (int)v;
	return 0;
}

static int
finish(struct lab_snmp_port *p)
{
	char	*s;

	if (p->descr == NULL && (p->descr = strdup("")) == NULL)
		return -1;
	if (p->alias == NULL && (p->alias = strdup("")) == NULL)
		return -1;
	/* ifName in preference to ifDescr, which Cisco SB repeats. */
	if (p->name == NULL || p->name[0] == '\0') {
		if ((s = strdup(p->descr)) == NULL)
			return -1;
		free(p->name);
		p->name = s;
	}
	if ((p->flags & LAB_PORT_HAS_HIGHSPEED) &&
	    (p->high_speed > 0 || !(p->flags & LAB_PORT_HAS_SPEED)))
		p->speed_mbps = p->high_speed;
	else if (p->flags & LAB_PORT_HAS_SPEED)
		p->speed_mbps = p->if_speed / 1000000;
	if ((p->flags & LAB_PORT_HAS_SPEED) &&
	    !(p->flags & LAB_PORT_HAS_HIGHSPEED) &&
	    (p->if_speed == 10 || p->if_speed == 100 || p->if_speed == 1000))
		p->flags |= LAB_PORT_SPEED_SUSPECT;
	return 0;
}

/* Decodes ifTable and ifXTable into ports sorted by ifindex. */
int
lab_mib_ifaces(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_ports *out, struct lab_err *err)
{
	struct mib_keys		 keys;
	struct lab_snmp_ports	 ps;
	unsigned long		 col, ifindex;
	size_t			 i;
	long			 at;
	int			 x;

	memset(out, 0, sizeof(*out));
	memset(&keys, 0, sizeof(keys));
	memset(&ps, 0, sizeof(ps));
	for (i = 0; i < n; i++)
		if (ifcol(&vbs[i], &x, &col, &ifindex) &&
		    lab_mib_keys_add(&keys, &ifindex, 1, err) == -1)
			goto fail;
	lab_mib_keys_sort(&keys);
	if ((ps.v = lab_mib_calloc(keys.n, sizeof(*ps.v), err)) == NULL)
		goto fail;
	ps.n = keys.n;
	for (i = 0; i < ps.n; i++)
		ps.v[i].ifindex = keys.v[i][0];
	for (i = 0; i < n; i++) {
		if (!ifcol(&vbs[i], &x, &col, &ifindex))
			continue;
		if ((at = lab_mib_keys_find(&keys, &ifindex, 1)) < 0)
			continue;
		if (fill(&ps.v[at], x, col, &vbs[i]) == -1) {
			lab_err_oom(err);
			goto fail;
		}
	}
	for (i = 0; i < ps.n; i++)
		if (finish(&ps.v[i]) == -1) {
			lab_err_oom(err);
			goto fail;
		}
	lab_mib_keys_release(&keys);
	*out = ps;
	return 0;
fail:
	lab_mib_keys_release(&keys);
	lab_snmp_ports_release(&ps);
	return -1;
}
