/* SPDX-License-Identifier: GPL-3.0-or-later */
/* running-config to startup-config through the CISCOSB copy table. */
#include "lab/vlan.h"

int
lab_vlan_save(struct lab_snmp *s, int timeout_ms, struct lab_err *err)
{
	(void)s; (void)timeout_ms;
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
