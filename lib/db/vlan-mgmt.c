/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The port the last discovery of a switch learned a MAC on (switch_fdb):
 * the row in the management VLAN first, then any other VLAN's; among
 * equals the newest, then the lowest ifindex.
 */
#include <ctype.h>
#include <string.h>

#include "lab/vlan.h"
#include "db-priv.h"

static const char mgmt_sql[] =
    "SELECT f.ifindex FROM switch_fdb f JOIN switches s ON s.id = "
    "f.switch_id WHERE s.name = ?1 AND f.mac = ?2 AND f.ifindex IS NOT "
    "NULL AND f.ifindex > 0 ORDER BY f.vlan = ?3 DESC, f.seen_at DESC, "
    "f.ifindex LIMIT 1";

int
lab_db_vlan_mac_port(struct lab_db *db, const char *switch_name,
    const char *mac, unsigned long vlan, unsigned long *ret,
    struct lab_err *err)
{
	struct db_stmt	*st;
	char		 m[18];
	size_t		 i;
	int		 rc;

	*ret = 0;
	if (strlen(mac) != 17)
		return 0;
	for (i = 0; i < sizeof(m); i++)
		m[i] = (char)tolower((unsigned char)mac[i]);
	if (lab_db_prepare(db, mgmt_sql, &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, switch_name);
	lab_db_bind_text(st, 2, m);
	lab_db_bind_int64(st, 3, (int64_t)vlan);
	if ((rc = lab_db_step(st)) == DB_ROW)
		*ret = (unsigned long)lab_db_column_int64(st, 0);
	else if (rc != DB_DONE) {
		(void)lab_db_fail(db, err, "read the switch's MAC table");
		lab_db_finalize(st);
		return -1;
	}
	lab_db_finalize(st);
	return 0;
}
