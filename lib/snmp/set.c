/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Typed SETs of many varbinds a PDU, and GETs of the same values. */
#include <string.h>

#include "lab/snmp.h"

int
lab_snmp_set(struct lab_snmp *s, const struct lab_snmp_value *v, size_t n,
    size_t *failed, struct lab_err *err)
{
	(void)s; (void)v; *failed = n;
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

int
lab_snmp_get_values(struct lab_snmp *s, struct lab_snmp_value *v, size_t n,
    struct lab_err *err)
{
	(void)s; (void)v; (void)n;
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

int
lab_snmp_value_eq(const struct lab_snmp_value *a, const struct lab_snmp_value *b)
{
	if (a->type != b->type || a->absent != b->absent)
		return 0;
	if (a->type == LAB_SNMP_OCTETS)
		return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
	if (a->type == LAB_SNMP_INTEGER)
		return a->i == b->i;
	return a->u == b->u;
}
