/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lab/facts.h"
#include "db-priv.h"

/*
 * The switch's side of each of a host's links, for drift: the ports the
 * last discovery of each switch linked the host's NICs to (nic_links
 * with last_seen = the switch's discovered_at), with the port's speed
 * (ifHighSpeed, Mb/s; -1 when down, unknown or suspect), duplex
 * (dot3StatsDuplexStatus) and what the port can do.
 */

/*
 * What a port can do, in Mb/s: every port of an SG200 is gigabit;
 * otherwise the name says (Cisco's gi/fa/te, "GigabitEthernet..."); -1
 * when neither tells.
 */
static long
port_max(const char *model, const char *name)
{
	static const struct {
		const char	*prefix;
		long		 mbps;
	} names[] = {
		{ "tengigabit", 10000 }, { "te", 10000 }, { "xe", 10000 },
		{ "gigabit", 1000 }, { "gi", 1000 }, { "ge", 1000 },
		{ "fastethernet", 100 }, { "fa", 100 }, { "fe", 100 },
	};
	size_t	i, len;

	if (model != NULL && strncmp(model, "cisco-sg200-", 12) == 0)
		return 1000;
	if (name == NULL)
		return -1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		len = strlen(names[i].prefix);
		/* the short forms only before a digit: "gi1/0/7", "fa0/1" */
		if (strncasecmp(name, names[i].prefix, len) == 0 &&
		    (len > 2 || (name[len] >= '0' && name[len] <= '9')))
			return names[i].mbps;
	}
	return -1;
}

int
lab_db_port_views(struct lab_db *db, const char *host,
    struct lab_port_view **ret, size_t *n, struct lab_err *err)
{
	struct lab_port_view	*v = NULL, *p;
	struct db_stmt		*st;
	size_t			 m = 0;
	char			*model;
	int			 rc;

	*ret = NULL;
	*n = 0;
	if (lab_db_prepare(db, "SELECT l.nic, w.name, COALESCE(p.name, l.port), "
	    "p.speed_mbps, p.duplex, w.model, p.speed_suspect, p.oper_status "
	    "FROM nic_links l JOIN hosts h ON h.id = l.host_id "
	    "JOIN switches w ON w.id = l.switch_id "
	    "LEFT JOIN switch_ports p ON p.switch_id = l.switch_id AND "
	    "p.ifindex = l.ifindex "
	    "WHERE h.name = ?1 AND l.last_seen = w.discovered_at "
	    "ORDER BY l.nic, w.name", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		const char *oper = (const char *)lab_db_column_text(st, 7);
		const char *dx = (const char *)lab_db_column_text(st, 4);

		if ((p = lab_push(&v, &m, sizeof(*p))) == NULL)
			break;
		p->nic = lab_db_text(st, 0);
		p->switch_name = lab_db_text(st, 1);
		p->port = lab_db_text(st, 2);
		p->speed_mbps = -1;
		if (lab_db_column_type(st, 3) != DB_NULL &&
		    lab_db_column_int(st, 6) == 0 &&
		    (oper == NULL || strcmp(oper, "up") == 0) &&
		    lab_db_column_int64(st, 3) > 0)
			p->speed_mbps = (long)lab_db_column_int64(st, 3);
		if (dx != NULL && (strcmp(dx, "full") == 0 ||
		    strcmp(dx, "half") == 0) && (p->duplex = strdup(dx)) == NULL)
			break;
		model = lab_db_text(st, 5);
		p->max_mbps = port_max(model, p->port);
		free(model);
		if (p->nic == NULL || p->switch_name == NULL || p->port == NULL)
			break;
	}
	if (rc != DB_DONE) {
		lab_port_views_free(v, m);
		return lab_db_step_fail(db, st, rc, err, "read port views");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = m;
	return 0;
}
