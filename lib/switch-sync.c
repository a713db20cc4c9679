/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/switch.h"
#include "lab/db.h"

/* The descriptions that differ from the inventory. */
int
lab_switch_sync_plan(struct lab_db *db, const char *sw,
    struct lab_alias_changes *ret, struct lab_err *err)
{
	struct lab_alias_changes	 c = { NULL, 0 };
	struct lab_alias_change		*v;
	struct lab_port_rows		 r;
	char				*want;
	size_t				 i;

	if (lab_db_switch_ports(db, sw, &r, err) == -1)
		return -1;
	if (r.discovered_at == 0) {
		lab_port_rows_release(&r);
		/* the command was right; this switch cannot be served yet */
		return lab_err_set(err, LAB_EXIT_PARTIAL, "switch '%s' was never "
		    "discovered: run 'lab switch discover %s' first", sw, sw);
	}
	for (i = 0; i < r.n; i++) {
		const struct lab_port_row	*p = &r.v[i];

		/* one description per port: the first NIC on it */
		if (p->host == NULL || (i > 0 && r.v[i - 1].ifindex ==
		    p->ifindex))
			continue;
		if ((want = lab_asprintf("%s %s", p->host, p->nic)) == NULL)
			goto oom;
		if (p->alias != NULL && strcmp(p->alias, want) == 0) {
			free(want);
			continue;
		}
		if ((v = realloc(c.v, (c.n + 1) * sizeof(*v))) == NULL) {
			free(want);
			goto oom;
		}
		c.v = v;
		v = &c.v[c.n++];
		memset(v, 0, sizeof(*v));
		v->ifindex = p->ifindex;
		v->port = lab_strdup(p->name);
		v->from = lab_strdup(p->alias ? p->alias : "");
		v->to = want;
		lab_err_init(&v->err);
	}
	lab_port_rows_release(&r);
	*ret = c;
	return 0;
oom:
	lab_port_rows_release(&r);
	lab_alias_changes_release(&c);
	return lab_err_oom(err);
}

/* Writes the descriptions by SNMP SET. */
int
lab_switch_sync_apply(struct lab_db *db, const struct lab_switch *sw,
    const struct lab_creds *creds, const struct lab_switch_req *req,
    struct lab_alias_changes *c, int64_t now, struct lab_err *err)
{
	struct lab_snmp_target	 t;
	struct lab_snmp		*s;
	struct lab_oid		 o = { { 1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 18 }, 12 };
	size_t			 i;

	if (lab_switch_target(sw, creds, req, &t, err) == -1 ||
	    lab_snmp_open(&t, &s, err) == -1)
		return -1;
	for (i = 0; i < c->n; i++) {
		o.v[11] = c->v[i].ifindex;
		if (lab_snmp_set_octets(s, &o, c->v[i].to, strlen(c->v[i].to),
		    &c->v[i].err) == -1)
			continue;
		c->v[i].done = 1;
	}
	lab_snmp_free(s);
	return lab_db_switch_aliases_record(db, sw->name, c, now, err);
}

/* Frees changes. */
void
lab_alias_changes_release(struct lab_alias_changes *c)
{
	size_t	i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].port);
		free(c->v[i].from);
		free(c->v[i].to);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
