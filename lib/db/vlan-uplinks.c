/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The ports the last discovery of a switch found to be uplinks, by the
 * rule of lab_switch_analyse (lib/links.c): a CDP/LLDP neighbour that
 * looks like a switch, more than 3 MACs, a LAG or one of its members.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"
#include "db-priv.h"

#define LIKE(w)	"n.platform LIKE '%" w "%' OR n.remote_device LIKE '%" w "%'"

static const char uplinks_sql[] =
    "SELECT n.ifindex, NULL FROM switch_neighbors n JOIN switches s ON "
    "s.id = n.switch_id WHERE s.name = ?1 AND (" LIKE("ws-c") " OR "
    LIKE("sg") " OR " LIKE("switch") " OR " LIKE("catalyst") " OR "
    LIKE("nexus") " OR " LIKE("procurve") " OR " LIKE("edgeswitch") ") "
    "UNION SELECT f.ifindex, NULL FROM switch_fdb f JOIN switches s ON "
    "s.id = f.switch_id WHERE s.name = ?1 AND f.ifindex IS NOT NULL "
    "GROUP BY f.ifindex HAVING count(*) > 3 "
    "UNION SELECT l.ifindex, l.members FROM switch_lags l JOIN switches s "
    "ON s.id = l.switch_id WHERE s.name = ?1";

static int
add(unsigned long **v, size_t *n, size_t *cap, unsigned long x)
{
	unsigned long	*nv;
	size_t		 i;

	if (x == 0)
		return 0;
	for (i = 0; i < *n; i++)
		if ((*v)[i] == x)
			return 0;
	if (*n == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		if ((nv = realloc(*v, *cap * sizeof(**v))) == NULL)
			return -1;
		*v = nv;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* A LAG's members, "3,4" as stored. */
static int
add_members(unsigned long **v, size_t *n, size_t *cap, const char *s)
{
	char	*end;

	while (s != NULL && *s != '\0') {
		unsigned long	x = strtoul(s, &end, 10);

		if (end == s)
			break;
		if (add(v, n, cap, x) == -1)
			return -1;
		s = *end == ',' ? end + 1 : end;
	}
	return 0;
}

int
lab_db_vlan_uplinks(struct lab_db *db, const char *switch_name,
    unsigned long **ret, size_t *retn, struct lab_err *err)
{
	struct db_stmt	*st;
	unsigned long	*v = NULL;
	size_t		 n = 0, cap = 0;
	int		 rc;

	*ret = NULL;
	*retn = 0;
	if (lab_db_prepare(db, uplinks_sql, &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, switch_name);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		int64_t	 x = lab_db_column_int64(st, 0);

		if (add(&v, &n, &cap, x > 0 ? (unsigned long)x : 0) == -1 ||
		    add_members(&v, &n, &cap,
		    (const char *)lab_db_column_text(st, 1)) == -1) {
			lab_db_finalize(st);
			free(v);
			return lab_err_oom(err);
		}
	}
	if (rc != DB_DONE) {
		(void)lab_db_fail(db, err, "read the switch's uplinks");
		lab_db_finalize(st);
		free(v);
		return -1;
	}
	lab_db_finalize(st);
	*ret = v;
	*retn = n;
	return 0;
}
