/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SNMP_VLAN_READ_PRIV_H
#define LAB_SNMP_VLAN_READ_PRIV_H

#include <stdint.h>

#include "lab/vlan.h"

/* Shared by the two reads, vlan-read.c and vlan-read-some.c. */

/* A vlanPortModeState value as a mode. */
enum lab_port_mode	lab_vlan_mode_of(int64_t);
/* st->mgmt_address from the session's peer "ADDRESS:PORT". */
int	lab_vlan_state_set_peer(struct lab_vlan_state *, const char *peer,
	    struct lab_err *);

#endif
