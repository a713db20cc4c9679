/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_MIB_H
#define LAB_MIB_H

/*
 * Switch discovery over SNMP: the varbind list a walk returns, and the
 * model the MIB decoders in lib/mib/ build from it.
 *
 * Every decoder has the same shape:
 *	int lab_mib_NAME(const struct lab_varbind *vbs, size_t n,
 *	    <out>, struct lab_err *err);
 * The list may hold any OIDs in any order (several walks concatenated);
 * each decoder picks its own columns by OID prefix and ignores the rest.
 * Rows with a wrong value type, a short or overlong index or a value out
 * of range are skipped, never trusted; a missing table gives an empty
 * result. Decoders fail (-1, err set) only when memory runs out or a
 * table has more than LAB_MIB_MAX_ROWS rows (LAB_EXIT_INPUT). On failure
 * the output is left empty; on success the caller frees it with the
 * matching _release() function. Output structs are zeroed by the decoder
 * first, so they need no initialisation.
 *
 * Where a table is indexed by bridge port (FDB, VLAN port lists, PVIDs),
 * the decoder maps it to an ifIndex through dot1dBasePortIfIndex rows
 * found in the same list; without them, bridge port = ifIndex.
 * Decoders never print, allocate at most a bounded amount per row, and
 * include no net-snmp header: lib/snmp.c converts net-snmp's varbinds.
 */
#include <stddef.h>
#include <stdint.h>

#include "lab/err.h"

/* Upper bound on the rows of one table, and on OID and string lengths. */
#define LAB_MIB_MAX_ROWS	100000
#define LAB_MIB_MAX_OID		128	/* sub-identifiers, as SNMP allows */
#define LAB_MIB_MAX_STR		1024	/* bytes kept of a text column */
#define LAB_MIB_MAX_PORTLIST	1024	/* bytes decoded of a PortList */

enum lab_snmp_type {
	LAB_SNMP_NULL = 0,	/* no value (a Null in a capture) */
	LAB_SNMP_INTEGER,	/* INTEGER / Integer32: .i */
	LAB_SNMP_COUNTER32,	/* .u */
	LAB_SNMP_GAUGE32,	/* .u (also Unsigned32) */
	LAB_SNMP_TIMETICKS,	/* .u, hundredths of a second */
	LAB_SNMP_COUNTER64,	/* .u */
	LAB_SNMP_OCTETS,	/* OCTET STRING: .str, .str_len (may hold NULs) */
	LAB_SNMP_OID,		/* OBJECT IDENTIFIER: .oidv, .oidv_len */
	LAB_SNMP_IPADDRESS,	/* .ip */
	LAB_SNMP_NO_SUCH_OBJECT,
	LAB_SNMP_NO_SUCH_INSTANCE,
	LAB_SNMP_END_OF_MIB,
};

/*
 * One name/value pair. The pointers are owned by whoever built the list
 * (lab_varbinds_free() frees lists built with malloc'd members); decoders
 * only read them and copy what they keep.
 */
struct lab_varbind {
	unsigned long		*oid;
	size_t			 oid_len;
	enum lab_snmp_type	 type;
	int64_t			 i;
	uint64_t		 u;
	unsigned char		*str;		/* not NUL-terminated */
	size_t			 str_len;
	unsigned long		*oidv;
	size_t			 oidv_len;
	unsigned char		 ip[4];
};

/* Frees each varbind's oid, str and oidv, then the array; NULL is a no-op. */
void	lab_varbinds_free(struct lab_varbind *, size_t n);

/* SNMPv2-MIB system group. Strings are NULL when the object was absent. */
struct lab_snmp_system {
	char		*descr;		/* sysDescr */
	char		*name;		/* sysName */
	char		*object_id;	/* sysObjectID, dotted, no leading dot */
	uint64_t	 uptime;	/* sysUpTime, hundredths of a second */
	int		 has_uptime;
};

enum lab_duplex {
	LAB_DUPLEX_UNKNOWN = 0,
	LAB_DUPLEX_HALF,
	LAB_DUPLEX_FULL,
};

/* lab_snmp_port.flags */
#define LAB_PORT_HAS_SPEED	0x01	/* ifSpeed present */
#define LAB_PORT_HAS_HIGHSPEED	0x02	/* ifHighSpeed present */
/*
 * ifSpeed is 10, 100 or 1000 and no ifHighSpeed: that is 10 bit/s to
 * 1 kbit/s taken literally, almost surely Mb/s sent by mistake. The
 * value is kept as the switch said it; this flag lets a finding say so.
 */
#define LAB_PORT_SPEED_SUSPECT	0x04

/* One IF-MIB interface. Strings are never NULL ("" when absent). */
struct lab_snmp_port {
	unsigned long	 ifindex;
	char		*name;		/* ifName, else ifDescr */
	char		*descr;		/* ifDescr */
	char		*alias;		/* ifAlias */
	int		 oper_status;	/* ifOperStatus, 0 when absent */
	int		 admin_status;	/* ifAdminStatus, 0 when absent */
	long		 type;		/* ifType (IANAifType), 0 when absent */
	uint64_t	 speed_mbps;	/* ifHighSpeed, else ifSpeed / 1e6 */
	uint32_t	 if_speed;	/* ifSpeed as received, bit/s */
	uint32_t	 high_speed;	/* ifHighSpeed as received, Mb/s */
	unsigned	 flags;		/* LAB_PORT_* */
	enum lab_duplex	 duplex;	/* set by lab_mib_duplex() */
};

/* Ports sorted by ifindex, unique. */
struct lab_snmp_ports {
	struct lab_snmp_port	*v;
	size_t			 n;
};

/* One MAC table entry. */
struct lab_snmp_fdb_entry {
	char		mac[18];	/* "aa:bb:cc:dd:ee:ff" */
	unsigned long	vlan;		/* Q-BRIDGE FDB id (= VLAN), 0 unknown */
	unsigned long	bridge_port;	/* as the switch reported it */
	unsigned long	port;		/* ifindex, 0 when the port is unknown */
};

struct lab_snmp_fdb {
	struct lab_snmp_fdb_entry	*v;
	size_t				 n;
	int				 qbridge;	/* 1: Q-BRIDGE, 0: BRIDGE-MIB */
};

/* Bridge port to ifIndex (dot1dBasePortIfIndex), sorted by port. */
struct lab_snmp_bridge_port {
	unsigned long	port;
	unsigned long	ifindex;
};

struct lab_snmp_bridge {
	struct lab_snmp_bridge_port	*v;
	size_t				 n;
};

/* A list of ifindexes, ascending and unique. */
struct lab_snmp_ifset {
	unsigned long	*v;
	size_t		 n;
};

struct lab_snmp_vlan {
	unsigned long		 id;
	char			*name;		/* "" when unnamed */
	struct lab_snmp_ifset	 egress;
	struct lab_snmp_ifset	 untagged;
	/*
	 * A port list ended in text that looks like wrapped snmpwalk
	 * output (the captures' "\nFF FF ..." after 16 bytes): decoding
	 * stopped there, so the lists may be short.
	 */
	int			 lists_mangled;
};

struct lab_snmp_pvid {
	unsigned long	ifindex;
	unsigned long	vlan;
};

struct lab_snmp_vlans {
	struct lab_snmp_vlan	*v;	/* sorted by id */
	size_t			 n;
	struct lab_snmp_pvid	*pvid;	/* sorted by ifindex */
	size_t			 npvid;
};

/* A port-channel (ifType 161 or an IEEE8023-LAG-MIB aggregator). */
struct lab_snmp_lag {
	unsigned long		ifindex;
	struct lab_snmp_ifset	members;
};

struct lab_snmp_lags {
	struct lab_snmp_lag	*v;	/* sorted by ifindex */
	size_t			 n;
};

enum lab_nbr_proto {
	LAB_NBR_CDP = 1,
	LAB_NBR_LLDP,
};

/* A CDP or LLDP neighbour. Strings are never NULL ("" when absent). */
struct lab_snmp_neighbor {
	unsigned long		 port;		/* local ifindex */
	enum lab_nbr_proto	 protocol;
	char			*remote_device;	/* CDP device id; LLDP sysName,
						 * else the chassis id */
	char			*remote_port;	/* CDP device port; LLDP port id */
	char			*platform;	/* CDP platform; "" for LLDP */
	char			*version;	/* CDP version; LLDP sysDescr */
	char			*address;	/* first IPv4 address, or "" */
};

struct lab_snmp_neighbors {
	struct lab_snmp_neighbor	*v;	/* sorted by port, then row */
	size_t				 n;
};

/* The MIB word for an ifOperStatus/ifAdminStatus value ("up", "down",
 * "testing", "unknown", "dormant", "notPresent", "lowerLayerDown"), or
 * "" for 0 and values outside the MIB. Static storage. */
const char	*lab_snmp_status_name(int);
/* "full", "half" or "unknown". Static storage. */
const char	*lab_snmp_duplex_name(enum lab_duplex);
/* The ifindex of a bridge port: from the map, else the port itself when
 * the map is empty, else 0 (a port the map does not know). */
unsigned long	 lab_snmp_bridge_ifindex(const struct lab_snmp_bridge *,
		    unsigned long port);

/* Release functions free the members and zero the struct; a zeroed
 * struct is a no-op. */
void	lab_snmp_system_release(struct lab_snmp_system *);
void	lab_snmp_ports_release(struct lab_snmp_ports *);
void	lab_snmp_fdb_release(struct lab_snmp_fdb *);
void	lab_snmp_bridge_release(struct lab_snmp_bridge *);
void	lab_snmp_vlans_release(struct lab_snmp_vlans *);
void	lab_snmp_lags_release(struct lab_snmp_lags *);
void	lab_snmp_neighbors_release(struct lab_snmp_neighbors *);

/* SNMPv2-MIB system group (sysDescr, sysObjectID, sysUpTime, sysName). */
int	lab_mib_system(const struct lab_varbind *, size_t,
	    struct lab_snmp_system *, struct lab_err *);
/* IF-MIB ifTable and ifXTable, by column, in any order. */
int	lab_mib_ifaces(const struct lab_varbind *, size_t,
	    struct lab_snmp_ports *, struct lab_err *);
/* EtherLike-MIB dot3StatsDuplexStatus into ports already decoded (rows
 * for unknown ifindexes are skipped). Allocates nothing. */
int	lab_mib_duplex(const struct lab_varbind *, size_t,
	    struct lab_snmp_ports *, struct lab_err *);
/* BRIDGE-MIB dot1dBasePortIfIndex. */
int	lab_mib_bridge(const struct lab_varbind *, size_t,
	    struct lab_snmp_bridge *, struct lab_err *);
/* Q-BRIDGE dot1qTpFdbPort, or BRIDGE-MIB dot1dTpFdbPort when the list
 * has no Q-BRIDGE rows. */
int	lab_mib_fdb(const struct lab_varbind *, size_t,
	    struct lab_snmp_fdb *, struct lab_err *);
/* Q-BRIDGE static (else current) VLANs with port lists, and dot1qPvid. */
int	lab_mib_vlan(const struct lab_varbind *, size_t,
	    struct lab_snmp_vlans *, struct lab_err *);
/* The same with the bridge port map given (not read from the list). */
int	lab_mib_vlan_map(const struct lab_varbind *, size_t,
	    const struct lab_snmp_bridge *, struct lab_snmp_vlans *,
	    struct lab_err *);
/* Port-channels (ifType 161) and IEEE8023-LAG-MIB membership. */
int	lab_mib_lag(const struct lab_varbind *, size_t,
	    struct lab_snmp_lags *, struct lab_err *);
/* CISCO-CDP-MIB cdpCacheTable, appended to out (which the caller zeroes
 * before the first of lab_mib_cdp()/lab_mib_lldp()). */
int	lab_mib_cdp(const struct lab_varbind *, size_t,
	    struct lab_snmp_neighbors *, struct lab_err *);
/*
 * LLDP-MIB lldpRemTable, appended to out. lldpRemLocalPortNum is mapped
 * to an ifindex by matching its lldpLocPortId (lldpLocPortTable) against
 * ifName, then ifDescr, in the same list; failing that it is taken as a
 * bridge port (LLDP-MIB's lldpPortNumber is meant to equal dot1dBasePort)
 * and mapped through dot1dBasePortIfIndex, or used as is.
 */
int	lab_mib_lldp(const struct lab_varbind *, size_t,
	    struct lab_snmp_neighbors *, struct lab_err *);

/*
 * ENTITY-MIB entPhysicalTable (issue 20): the rows of class chassis(3),
 * module(9) and stack(11) that name anything (an empty stack slot does
 * not), sorted by index, into out->ents; out->version is the version in
 * sysDescr (lab_mib_sysdescr_version) when the list has one, else the
 * software revision of the first chassis that has one. Empty texts are
 * NULL. out->switch_name and out->findings are left empty.
 */
struct lab_switch_facts;
/*
 * What discovery asks: entPhysicalClass is walked (one column, every
 * row), then only the rows that matter are read by GET. This gives their
 * indexes (class chassis, module or stack), ascending and unique, at most
 * max of them; returns how many.
 */
#define LAB_MIB_ENTITY_MAX_ROWS	64
size_t	lab_mib_entity_indexes(const struct lab_varbind *, size_t,
	    unsigned long *out, size_t max);
int	lab_mib_entity(const struct lab_varbind *, size_t,
	    struct lab_switch_facts *, struct lab_err *);
/*
 * The software version a sysDescr names: the token after "Version"
 * ("Cisco IOS Software, ... Version 15.2(2)E7, RELEASE" gives
 * "15.2(2)E7"), up to a comma or a space, copied into buf (NUL-ended).
 * 1 when found, 0 when the text names none (Cisco SB's "SG350X-24P
 * 24-Port Gigabit PoE Stackable Managed Switch") or it does not fit.
 */
int	lab_mib_sysdescr_version(const char *descr, char *buf, size_t len);

#endif
