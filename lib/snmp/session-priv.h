/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SNMP_SESSION_PRIV_H
#define LAB_SNMP_SESSION_PRIV_H

/*
 * The session, for lib/snmp/session.c and lib/snmp/set.c only: include
 * after net-snmp's headers and lab/snmp.h, never with lab/inventory.h
 * (its struct lab_snmp is another thing of the same name).
 */
struct lab_snmp {
	void			*sp;		/* net-snmp's session handle */
	char			 peer[128];	/* "127.0.0.1:161" for messages */
	int			 v1;		/* no GETBULK */
	struct lab_snmp_stats	 stats;
	int64_t			(*monotonic_ms)(void);
	int64_t			 deadline_ms;	/* 0: none */
	long			 timeout_us;	/* per try, as asked */
	int			 retries;
	int			 past_deadline;	/* the last call ran out */
	size_t			 get_max;	/* varbinds a GET; 0: 64 */
	int			 set_too_big;	/* the last SET: tooBig */
};

int	lab_snmp_exchange_raw(struct lab_snmp *, netsnmp_pdu *,
	    const char *what, netsnmp_pdu **ret, struct lab_err *err);

#endif
