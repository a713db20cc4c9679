/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SNMP_VLAN_OIDS_H
#define LAB_SNMP_VLAN_OIDS_H

/*
 * The OIDs of the VLAN verbs, for lib/snmp only (read, encode, exec,
 * probe, save). Columns: append the index (a VLAN id, an ifindex or a
 * bridge port).
 */

/* Q-BRIDGE-MIB dot1qVlanStaticTable, index VLAN id */
#define LAB_OID_DOT1Q_STATIC_NAME	1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1, 1
#define LAB_OID_DOT1Q_STATIC_EGRESS	1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1, 2
#define LAB_OID_DOT1Q_STATIC_FORBIDDEN	1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1, 3
#define LAB_OID_DOT1Q_STATIC_UNTAGGED	1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1, 4
#define LAB_OID_DOT1Q_STATIC_ROWSTATUS	1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3, 1, 5
/* dot1qPvid (Unsigned32), index bridge port */
#define LAB_OID_DOT1Q_PVID		1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 5, 1, 1
/* BRIDGE-MIB dot1dBasePortIfIndex, index bridge port */
#define LAB_OID_DOT1D_BASE_PORT_IFINDEX	1, 3, 6, 1, 2, 1, 17, 1, 4, 1, 2
/* IF-MIB ifType, ifName, ifAlias, index ifindex */
#define LAB_OID_IF_TYPE			1, 3, 6, 1, 2, 1, 2, 2, 1, 3
#define LAB_OID_IF_NAME			1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 1
#define LAB_OID_IF_ALIAS		1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 18
/* IEEE8023-LAG-MIB dot3adAggPortAttachedAggID, index ifindex */
#define LAB_OID_LAG_ATTACHED		1, 2, 840, 10006, 300, 43, 1, 2, 1, 1, 13

/* A struct lab_oid of the arcs given. */
#define LAB_OID_COL(...)	{ { __VA_ARGS__ }, sizeof((unsigned long[]){ \
	__VA_ARGS__ }) / sizeof(unsigned long) }

/* CISCOSB-vlan-MIB (rlvlan 1.3.6.1.4.1.9.6.1.101.48), index ifindex */
#define LAB_OID_SB_VLAN_MIB_VERSION	1, 3, 6, 1, 4, 1, 9, 6, 1, 101, 48, 1
#define LAB_OID_SB_PORT_MODE		1, 3, 6, 1, 4, 1, 9, 6, 1, 101, 48, 22, 1, 1
#define LAB_OID_SB_ACCESS_VLAN		1, 3, 6, 1, 4, 1, 9, 6, 1, 101, 48, 62, 1, 1
#define LAB_OID_SB_TRUNK_NATIVE		1, 3, 6, 1, 4, 1, 9, 6, 1, 101, 48, 61, 1, 1
/* vlanPortModeState values */
#define LAB_SB_MODE_GENERAL	10
#define LAB_SB_MODE_ACCESS	11
#define LAB_SB_MODE_TRUNK	12

/* RowStatus values */
#define LAB_ROW_ACTIVE		1
#define LAB_ROW_CREATE_AND_GO	4
#define LAB_ROW_DESTROY		6

#endif
