/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The structure of a switch's VLAN ports as its last discovery stored it:
 * the bridge ports and LAGs, their names, the bridge port map and LAG
 * membership; the fast read of lab switch plan starts from it.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"
#include "db-priv.h"

static const char ports_sql[] =
    "SELECT p.ifindex, p.name, p.bridge_port, l.ifindex IS NOT NULL "
    "FROM switch_ports p JOIN switches s ON s.id = p.switch_id "
    "LEFT JOIN switch_lags l ON l.switch_id = p.switch_id AND "
    "l.ifindex = p.ifindex WHERE s.name = ?1 AND (p.bridge_port IS NOT NULL "
    "OR l.ifindex IS NOT NULL) ORDER BY p.ifindex";

static const char lags_sql[] =
    "SELECT l.ifindex, l.members FROM switch_lags l JOIN switches s ON "
    "s.id = l.switch_id WHERE s.name = ?1";

static int
load_ports(struct lab_db *db, const char *sw, struct lab_vlan_state *st,
    struct lab_err *err)
{
	struct db_stmt	*q;
	size_t		 cap = 0, nb = 0;
	int		 rc;

	if (lab_db_prepare(db, ports_sql, &q, err) == -1)
		return -1;
	lab_db_bind_text(q, 1, sw);
	while ((rc = lab_db_step(q)) == DB_ROW) {
		struct lab_vlan_port	*p;
		const char		*name;

		if (st->nports == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			p = realloc(st->ports, cap * sizeof(*p));
			st->bridge.v = realloc(st->bridge.v, cap *
			    sizeof(*st->bridge.v));
			if (p != NULL)
				st->ports = p;
			if (p == NULL || st->bridge.v == NULL)
				goto oom;
		}
		p = &st->ports[st->nports];
		memset(p, 0, sizeof(*p));
		st->nports++;
		p->ifindex = (unsigned long)lab_db_column_int64(q, 0);
		name = (const char *)lab_db_column_text(q, 1);
		if (lab_db_column_type(q, 2) != DB_NULL) {
			p->bridge_port = (unsigned long)lab_db_column_int64(q,
			    2);
			st->bridge.v[nb].port = p->bridge_port;
			st->bridge.v[nb++].ifindex = p->ifindex;
			st->bridge.n = nb;
		}
		p->is_lag = lab_db_column_int(q, 3);
		if ((p->name = strdup(name != NULL ? name : "")) == NULL ||
		    (p->alias = strdup("")) == NULL)
			goto oom;
	}
	lab_db_finalize(q);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "read the switch's ports");
	return 0;
oom:
	lab_db_finalize(q);
	return lab_err_oom(err);
}

/* Each member of a LAG ("3,4" as stored) points at it. */
static int
load_lags(struct lab_db *db, const char *sw, struct lab_vlan_state *st,
    struct lab_err *err)
{
	struct db_stmt	*q;
	int		 rc;

	if (lab_db_prepare(db, lags_sql, &q, err) == -1)
		return -1;
	lab_db_bind_text(q, 1, sw);
	while ((rc = lab_db_step(q)) == DB_ROW) {
		unsigned long	 lag = (unsigned long)lab_db_column_int64(q, 0);
		const char	*s = (const char *)lab_db_column_text(q, 1);
		char		*end;

		while (s != NULL && *s != '\0') {
			unsigned long		 x = strtoul(s, &end, 10);
			struct lab_vlan_port	*p;

			if (end == s)
				break;
			p = (struct lab_vlan_port *)lab_vlan_state_port(st, x);
			if (p != NULL)
				p->lag = lag;
			s = *end == ',' ? end + 1 : end;
		}
	}
	lab_db_finalize(q);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "read the switch's LAGs");
	return 0;
}

/* Frees what load_ports made (lib/db may not call lib/snmp's release). */
static void
drop(struct lab_vlan_state *st)
{
	size_t	i;

	for (i = 0; i < st->nports; i++) {
		free(st->ports[i].name);
		free(st->ports[i].alias);
	}
	free(st->ports);
	free(st->bridge.v);
	memset(st, 0, sizeof(*st));
}

/* How many VLANs the last discovery saw: the fast read sizes its walk. */
static int
count_vlans(struct lab_db *db, const char *sw, struct lab_vlan_state *st,
    struct lab_err *err)
{
	struct db_stmt	*q;
	int		 rc;

	if (lab_db_prepare(db, "SELECT count(*) FROM switch_vlans v JOIN "
	    "switches s ON s.id = v.switch_id WHERE s.name = ?1", &q,
	    err) == -1)
		return -1;
	lab_db_bind_text(q, 1, sw);
	rc = lab_db_step(q);
	if (rc == DB_ROW)
		st->nvlans_known = (size_t)lab_db_column_int64(q, 0);
	lab_db_finalize(q);
	if (rc != DB_ROW)
		return lab_db_fail(db, err, "count the switch's VLANs");
	return 0;
}

int
lab_db_vlan_ports(struct lab_db *db, const char *switch_name,
    struct lab_vlan_state *ret, struct lab_err *err)
{
	memset(ret, 0, sizeof(*ret));
	if (load_ports(db, switch_name, ret, err) == -1 ||
	    load_lags(db, switch_name, ret, err) == -1) {
		drop(ret);
		return -1;
	}
	if (ret->bridge.n == 0) {
		drop(ret);
		return 0;
	}
	return count_vlans(db, switch_name, ret, err);
}
