/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SNMPv2-MIB system group: sysDescr, sysObjectID, sysUpTime, sysName. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"
#include "lab/str.h"

#include "mib-priv.h"

static const unsigned long system_oid[] = { 1, 3, 6, 1, 2, 1, 1 };

static char *
dotted(const struct lab_varbind *vb)
{
	struct lab_buf	b;
	size_t		i, n;

	lab_buf_init(&b);
	n = vb->oidv_len > LAB_MIB_MAX_OID ? LAB_MIB_MAX_OID : vb->oidv_len;
	for (i = 0; i < n; i++)
		lab_buf_addf(&b, "%s%lu", i ? "." : "", vb->oidv[i]);
	if (b.oom) {
		lab_buf_release(&b);
		return NULL;
	}
	return lab_buf_steal(&b);
}

/* Decodes the system group (scalars .0). */
int
lab_mib_system(const struct lab_varbind *vbs, size_t n,
    struct lab_snmp_system *out, struct lab_err *err)
{
	struct lab_snmp_system	 s;
	const unsigned long	*idx;
	unsigned long		 col;
	size_t			 i, idx_len;
	char			**slot, *v;

	memset(&s, 0, sizeof(s));
	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (!lab_mib_column(&vbs[i], system_oid, MIB_LEN(system_oid),
		    &col, &idx, &idx_len) || idx_len != 1 || idx[0] != 0)
			continue;
		slot = NULL;
		v = NULL;
		switch (col) {
		case 1:		/* sysDescr */
		case 5:		/* sysName */
			if (vbs[i].type != LAB_SNMP_OCTETS)
				continue;
			slot = col == 1 ? &s.descr : &s.name;
			v = lab_mib_text(&vbs[i]);
			break;
		case 2:		/* sysObjectID */
			if (vbs[i].type != LAB_SNMP_OID ||
			    (vbs[i].oidv == NULL && vbs[i].oidv_len > 0))
				continue;
			slot = &s.object_id;
			v = dotted(&vbs[i]);
			break;
		case 3:		/* sysUpTime */
			if (vbs[i].type == LAB_SNMP_TIMETICKS) {
				s.uptime = vbs[i].u;
				s.has_uptime = 1;
			}
			continue;
		default:
			continue;
		}
		if (v == NULL) {
			lab_snmp_system_release(&s);
			return lab_err_oom(err);
		}
		/* A duplicate row: the last one wins. */
		free(*slot);
		*slot = v;
	}
	*out = s;
	return 0;
}
