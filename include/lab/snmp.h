/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SNMP_H
#define LAB_SNMP_H

#include <stddef.h>

#include <stdint.h>

#include "lab/err.h"
#include "lab/mib.h"

/*
 * What one walk may hold, whatever the agent sends: each OCTET STRING is
 * copied up to the longest any decoder keeps (LAB_MIB_MAX_STR text,
 * LAB_MIB_MAX_PORTLIST port lists; the rest is dropped, str_len is the
 * length kept), at most LAB_MIB_MAX_ROWS rows a column, and at most
 * LAB_SNMP_MAX_WALK_BYTES in the list (varbinds, OIDs and values). Past
 * a bound the walk fails: a table cut short is never taken for the whole.
 */
#define LAB_SNMP_MAX_VALUE	1024	/* the larger of the two; lib/snmp checks */
#define LAB_SNMP_MAX_WALK_BYTES	((size_t)16 * 1024 * 1024)

/*
 * SNMP v1/v2c/v3 sessions to one agent (lib/snmp.c, on net-snmp's
 * single-session API; usable from many threads, one session each).
 * Errors reaching the agent are LAB_EXIT_PARTIAL and start with
 * "switch ADDRESS:PORT: "; bad settings are LAB_EXIT_INPUT. No message
 * carries a community or a key.
 */

/* Where and how to reach one agent. Strings are borrowed. */
struct lab_snmp_target {
	const char	*address;
	int		 port;		/* 161 */
	const char	*version;	/* "1", "2c" or "3" */
	const char	*community;	/* v1, v2c */
	const char	*username;	/* v3 */
	const char	*auth_protocol;	/* sha | sha256 | md5 */
	const char	*auth_password;	/* NULL: noAuthNoPriv */
	const char	*priv_protocol;	/* aes | des */
	const char	*priv_password;	/* NULL: authNoPriv */
	const char	*context;	/* v3 context, or NULL */
	int		 timeout_ms;	/* per request; 0: 1000 */
	int		 retries;	/* -1: 2 */
	/*
	 * A deadline for the whole session on the clock monotonic_ms (both
	 * or neither): no request starts after it, and each waits at most
	 * until it. 0: none.
	 */
	int64_t		(*monotonic_ms)(void);
	int64_t		 deadline_ms;
};

/* An OID to ask for. */
struct lab_oid {
	unsigned long	v[LAB_MIB_MAX_OID];
	size_t		len;
};

/* A growing list of varbinds that owns its members. */
struct lab_varbind_list {
	struct lab_varbind	*v;
	size_t			 n;
	size_t			 cap;
};

/* What a session cost: the benchmark prints these. */
struct lab_snmp_stats {
	unsigned long	requests;	/* every PDU sent, SETs included */
	unsigned long	varbinds;
	unsigned long	sets;		/* SET PDUs */
	unsigned long	set_varbinds;
};

struct lab_snmp;

/* Opens a session; *ret is caller-owned (lab_snmp_free). */
int	lab_snmp_open(const struct lab_snmp_target *, struct lab_snmp **ret,
	    struct lab_err *err);
void	lab_snmp_free(struct lab_snmp *);
/* GETs scalars, appending the answers to out. */
int	lab_snmp_get(struct lab_snmp *, const struct lab_oid *, size_t n,
	    struct lab_varbind_list *out, struct lab_err *err);
/*
 * Walks whole columns with GETBULK, several columns per request and at
 * most max_varbinds varbinds per answer, appending rows to out. A column
 * ends when it leaves its subtree or reports endOfMibView; an OID that is
 * not greater than the one before it in its column (an agent that loops)
 * is an error, "OID not increasing", as are the bounds above. On error
 * out may hold part of the walk: the caller must drop it.
 */
int	lab_snmp_walk(struct lab_snmp *, const struct lab_oid *cols,
	    size_t ncols, int max_varbinds, struct lab_varbind_list *out,
	    struct lab_err *err);
/* SETs one OCTET STRING. */
int	lab_snmp_set_octets(struct lab_snmp *, const struct lab_oid *,
	    const char *value, size_t len, struct lab_err *err);

/*
 * One value to SET or that was read back: INTEGER (.i), GAUGE32 for
 * Unsigned32 (.u), OCTETS (.str, .len). absent: the agent has no such
 * instance (a GET answered noSuchObject/noSuchInstance).
 */
struct lab_snmp_value {
	struct lab_oid		 oid;
	enum lab_snmp_type	 type;
	int			 absent;
	int64_t			 i;
	uint64_t		 u;
	size_t			 len;
	unsigned char		 str[LAB_SNMP_MAX_VALUE];
};

/*
 * SETs n values in one PDU (the caller keeps the PDU small enough). On an
 * error the agent names (errorIndex), *failed is that value's index, else
 * n; err then names the OID and the agent's error status.
 */
int	lab_snmp_set(struct lab_snmp *, const struct lab_snmp_value *, size_t n,
	    size_t *failed, struct lab_err *err);
/*
 * 1 when the last lab_snmp_set() failed with tooBig: the agent took none
 * of it (a SET is all or nothing), so fewer values a PDU may go through.
 */
int	lab_snmp_set_too_big(const struct lab_snmp *);
/* GETs the current content of n values (oid set) into them, in one PDU
 * when it fits; type, absent and the value are overwritten. */
int	lab_snmp_get_values(struct lab_snmp *, struct lab_snmp_value *, size_t n,
	    struct lab_err *err);
/* 1 when a and b hold the same type and value (OIDs not compared). */
int	lab_snmp_value_eq(const struct lab_snmp_value *a,
	    const struct lab_snmp_value *b);
void	lab_snmp_get_stats(const struct lab_snmp *, struct lab_snmp_stats *);
/* 1 when the last call failed because the target's deadline passed. */
int	lab_snmp_past_deadline(const struct lab_snmp *);
/* "ADDRESS:PORT" ("[ADDRESS]:PORT" for IPv6), as messages name it. */
const char	*lab_snmp_peer(const struct lab_snmp *);
/* Frees the varbinds of a list. */
void	lab_varbind_list_release(struct lab_varbind_list *);

#endif
