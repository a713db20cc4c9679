/* SPDX-License-Identifier: GPL-3.0-or-later */
/* running-config to startup-config through the CISCOSB copy table. */
#include <string.h>
#include <time.h>

#include "lab/ctx.h"
#include "lab/vlan.h"

/* CISCOSB-COPY-MIB: rlCopyMibVersion.0 and rlCopyEntry's columns */
#define COPY_ENTRY	1, 3, 6, 1, 4, 1, 9, 6, 1, 101, 87, 2, 1
#define COL_SRC_LOCATION	3
#define COL_SRC_FILE_TYPE	7
#define COL_DST_LOCATION	8
#define COL_DST_FILE_TYPE	12
#define COL_OPERATION_STATE	14
#define COL_ROW_STATUS		17
#define LOCATION_LOCAL		1
#define FILE_RUNNING_CONFIG	2
#define FILE_STARTUP_CONFIG	3
#define STATE_UPLOAD		1
#define STATE_DOWNLOAD		2
#define STATE_FAILED		3
#define STATE_TIMEDOUT		4
#define STATE_FINISHED		5

static const unsigned long copy_version[] = {
	1, 3, 6, 1, 4, 1, 9, 6, 1, 101, 87, 1, 0
};
static const unsigned long copy_entry[] = { COPY_ENTRY };

static void
column(struct lab_snmp_value *v, unsigned long col, unsigned long index,
    long value)
{
	size_t	n = sizeof(copy_entry) / sizeof(copy_entry[0]);

	memset(v, 0, sizeof(*v));
	memcpy(v->oid.v, copy_entry, sizeof(copy_entry));
	v->oid.v[n] = col;
	v->oid.v[n + 1] = index;
	v->oid.len = n + 2;
	v->type = LAB_SNMP_INTEGER;
	v->i = value;
}

static void
nap_ms(long ms)
{
	struct timespec	ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1)
		;
}

int
lab_vlan_save(struct lab_snmp *s, int timeout_ms, struct lab_err *err)
{
	struct lab_snmp_value	 v[5];
	unsigned long		 index;
	int64_t			 end;
	size_t			 failed;

	memset(v, 0, sizeof(v[0]));
	memcpy(v[0].oid.v, copy_version, sizeof(copy_version));
	v[0].oid.len = sizeof(copy_version) / sizeof(copy_version[0]);
	if (lab_snmp_get_values(s, v, 1, err) == -1)
		return -1;
	if (v[0].absent)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: save: "
		    "the agent has no CISCOSB copy table (rlCopyTable): save "
		    "the running configuration on the switch itself",
		    lab_snmp_peer(s));
	/* a row of our own: an index that an earlier save did not use */
	index = (unsigned long)(lab_clock_monotonic_ms() % 100000) + 1;
	column(&v[0], COL_SRC_LOCATION, index, LOCATION_LOCAL);
	column(&v[1], COL_SRC_FILE_TYPE, index, FILE_RUNNING_CONFIG);
	column(&v[2], COL_DST_LOCATION, index, LOCATION_LOCAL);
	column(&v[3], COL_DST_FILE_TYPE, index, FILE_STARTUP_CONFIG);
	column(&v[4], COL_ROW_STATUS, index, 4);	/* createAndGo */
	if (lab_snmp_set(s, v, 5, &failed, err) == -1)
		return -1;
	end = lab_clock_monotonic_ms() + (timeout_ms > 0 ? timeout_ms : 30000);
	for (;;) {
		column(&v[0], COL_OPERATION_STATE, index, 0);
		if (lab_snmp_get_values(s, v, 1, err) == -1)
			return -1;
		/* a switch may drop the row once the copy is done */
		if (v[0].absent || v[0].i == STATE_FINISHED)
			return 0;
		if (v[0].i == STATE_FAILED || v[0].i == STATE_TIMEDOUT)
			return lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: "
			    "save: copy running-config startup-config %s",
			    lab_snmp_peer(s), v[0].i == STATE_FAILED ?
			    "failed" : "timed out");
		if (lab_clock_monotonic_ms() >= end)
			return lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: "
			    "save: copy running-config startup-config still "
			    "in progress after %d ms", lab_snmp_peer(s),
			    timeout_ms);
		nap_ms(100);
	}
}
