/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A switch's VLAN declarations in the database (schema 013): the VLANs,
 * the ports: entries and the uplinks it declares, and its management
 * VLAN, each with where it was written. Written after the switch's row
 * (the old ones replaced), read into an inventory of switches sorted by
 * name.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/inventory.h"
#include "lab/str.h"
#include "db-priv.h"

static int
step(struct lab_db *db, struct db_stmt *st, const char *what,
    struct lab_err *err)
{
	int	rc = lab_db_step(st);

	lab_db_reset(st);
	lab_db_clear_bindings(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, what);
	return 0;
}

static void
bind_loc(struct db_stmt *st, int idx, const struct lab_loc *l)
{
	lab_db_bind_text(st, idx, l->file);
	lab_db_bind_int(st, idx + 1, l->line);
	lab_db_bind_int(st, idx + 2, l->col);
}

static int
write_vlans(struct lab_db *db, int64_t id, const struct lab_switch *s,
    struct lab_err *err)
{
	struct db_stmt	*st;
	size_t		 i;
	int		 rc = 0;

	if (s->nvlans == 0)
		return 0;
	if (lab_db_prepare(db, "INSERT INTO declared_vlans (switch_id, "
	    "position, vlan_id, name, file, line, col) VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6, ?7)", &st, err) == -1)
		return -1;
	for (i = 0; rc == 0 && i < s->nvlans; i++) {
		lab_db_bind_int64(st, 1, id);
		lab_db_bind_int64(st, 2, (int64_t)i);
		lab_db_bind_int64(st, 3, (int64_t)s->vlans[i].id);
		lab_db_bind_text(st, 4, s->vlans[i].name);
		bind_loc(st, 5, &s->vlans[i].loc);
		rc = step(db, st, "write switch vlans", err);
	}
	lab_db_finalize(st);
	return rc;
}

static int
write_ports(struct lab_db *db, int64_t id, const struct lab_switch *s,
    struct lab_err *err)
{
	const struct lab_switch_port	*p;
	struct db_stmt			*st;
	char				*list;
	size_t				 i;
	int				 rc = 0;

	if (s->nports == 0)
		return 0;
	if (lab_db_prepare(db, "INSERT INTO declared_ports (switch_id, "
	    "position, port, description, vlan_access, vlan_trunk, "
	    "vlan_native, file, line, col, vlan_line, vlan_col, native_line, "
	    "native_col) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
	    "?11, ?12, ?13, ?14)", &st, err) == -1)
		return -1;
	for (i = 0; rc == 0 && i < s->nports; i++) {
		p = &s->ports[i];
		list = NULL;
		lab_db_bind_int64(st, 1, id);
		lab_db_bind_int64(st, 2, (int64_t)i);
		lab_db_bind_text(st, 3, p->port);
		lab_db_bind_text(st, 4, p->description);
		if (p->vlan.access != 0)
			lab_db_bind_int64(st, 5,
			    (int64_t)p->vlan.access);
		if (p->vlan.ntrunk > 0 &&
		    (list = lab_vlan_list_join(&p->vlan, " ")) == NULL) {
			rc = lab_err_oom(err);
			break;
		}
		lab_db_bind_text(st, 6, list);
		if (p->vlan.native != 0) {
			lab_db_bind_int64(st, 7,
			    (int64_t)p->vlan.native);
			lab_db_bind_int(st, 13, p->vlan.native_loc.line);
			lab_db_bind_int(st, 14, p->vlan.native_loc.col);
		}
		bind_loc(st, 8, &p->loc);
		if (p->vlan.set) {
			lab_db_bind_int(st, 11, p->vlan.loc.line);
			lab_db_bind_int(st, 12, p->vlan.loc.col);
		}
		rc = step(db, st, "write switch ports", err);
		free(list);
	}
	lab_db_finalize(st);
	return rc;
}

static int
write_uplinks(struct lab_db *db, int64_t id, const struct lab_switch *s,
    struct lab_err *err)
{
	struct db_stmt	*st;
	size_t		 i;
	int		 rc = 0;

	if (s->uplinks.n == 0)
		return 0;
	if (lab_db_prepare(db, "INSERT INTO declared_uplinks (switch_id, "
	    "position, port) VALUES (?1, ?2, ?3)", &st, err) == -1)
		return -1;
	for (i = 0; rc == 0 && i < s->uplinks.n; i++) {
		lab_db_bind_int64(st, 1, id);
		lab_db_bind_int64(st, 2, (int64_t)i);
		lab_db_bind_text(st, 3, s->uplinks.v[i]);
		rc = step(db, st, "write switch uplinks", err);
	}
	lab_db_finalize(st);
	return rc;
}

int
lab_db_switch_decl_write(struct lab_db *db, const struct lab_switch *s,
    int update, struct lab_err *err)
{
	static const char *const del[] = {
		"DELETE FROM declared_vlans WHERE switch_id = ?1",
		"DELETE FROM declared_ports WHERE switch_id = ?1",
		"DELETE FROM declared_uplinks WHERE switch_id = ?1",
	};
	struct db_stmt	*st;
	int64_t	 id = 0;
	size_t		 i;
	int		 rc;

	/* a new switch without declarations has nothing to write */
	if (!update && s->nvlans == 0 && s->nports == 0 &&
	    s->uplinks.n == 0 && s->management_vlan == 0)
		return 0;
	if (lab_db_prepare(db, "UPDATE switches SET management_vlan = ?2 "
	    "WHERE name = ?1 RETURNING id", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, s->name);
	if (s->management_vlan != 0)
		lab_db_bind_int64(st, 2, (int64_t)s->management_vlan);
	if ((rc = lab_db_step(st)) == DB_ROW)
		id = lab_db_column_int64(st, 0);
	if (rc != DB_ROW || lab_db_step(st) != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "write switch vlans");
	lab_db_finalize(st);
	for (i = 0; i < LAB_ARRAY_SIZE(del); i++) {
		if (lab_db_prepare(db, del[i], &st, err) == -1)
			return -1;
		lab_db_bind_int64(st, 1, id);
		rc = step(db, st, "write switch vlans", err);
		lab_db_finalize(st);
		if (rc == -1)
			return -1;
	}
	return write_vlans(db, id, s, err) == -1 ||
	    write_ports(db, id, s, err) == -1 ||
	    write_uplinks(db, id, s, err) == -1 ? -1 : 0;
}

static int
cmp_switch(const void *key, const void *elem)
{
	return strcmp(key, ((const struct lab_switch *)elem)->name);
}

static struct lab_switch *
find(struct lab_inventory *inv, const unsigned char *name)
{
	if (name == NULL || inv->nswitches == 0)
		return NULL;
	return bsearch(name, inv->switches, inv->nswitches,
	    sizeof(*inv->switches), cmp_switch);
}

static char *
text(struct lab_inventory *inv, struct db_stmt *st, int col)
{
	const unsigned char	*s = lab_db_column_text(st, col);

	if (s == NULL)
		return NULL;
	return lab_pool_strndup(&inv->pool, (const char *)s,
	    (size_t)lab_db_column_bytes(st, col));
}

/* The loc at columns col.. (file, line, col); the file defaults to dflt. */
static struct lab_loc
read_loc(struct lab_inventory *inv, struct db_stmt *st, int col,
    const char *dflt)
{
	struct lab_loc	l;

	if ((l.file = text(inv, st, col)) == NULL)
		l.file = dflt;
	l.line = lab_db_column_int(st, col + 1);
	l.col = lab_db_column_int(st, col + 2);
	return l;
}

/*
 * Rows of a query "SELECT s.name, COUNT-of-its-switch, ..." in switch
 * and position order: each switch's rows are counted first so that its
 * array is allocated once, from the pool.
 */
static int
read_vlans(struct lab_db *db, struct lab_inventory *inv, struct lab_err *err)
{
	struct lab_switch	*s;
	struct db_stmt		*st;
	int			 rc;

	if (lab_db_prepare(db, "SELECT s.name, (SELECT count(*) FROM "
	    "declared_vlans c WHERE c.switch_id = v.switch_id), v.vlan_id, "
	    "v.name, v.file, v.line, v.col FROM declared_vlans v JOIN "
	    "switches s ON s.id = v.switch_id ORDER BY v.switch_id, "
	    "v.position", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((s = find(inv, lab_db_column_text(st, 0))) == NULL)
			continue;
		if (s->vlans == NULL && (s->vlans = lab_pool_alloc(&inv->pool,
		    (size_t)lab_db_column_int64(st, 1) *
		    sizeof(*s->vlans) + 1)) == NULL)
			break;
		if ((int64_t)s->nvlans >= lab_db_column_int64(st, 1))
			continue;
		s->vlans[s->nvlans].id =
		    (unsigned long)lab_db_column_int64(st, 2);
		s->vlans[s->nvlans].name = text(inv, st, 3);
		s->vlans[s->nvlans].loc = read_loc(inv, st, 4, s->loc.file);
		s->nvlans++;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read switch vlans");
	lab_db_finalize(st);
	return 0;
}

static int
read_port(struct lab_inventory *inv, struct db_stmt *st,
    struct lab_switch_port *p, const char *dflt)
{
	struct lab_vlan_want	*w = &p->vlan;

	p->port = text(inv, st, 2);
	p->description = text(inv, st, 3);
	p->loc = read_loc(inv, st, 7, dflt);
	if (lab_db_column_type(st, 10) == DB_NULL)
		return p->port == NULL ? -1 : 0;
	w->set = 1;
	w->access = (unsigned long)lab_db_column_int64(st, 4);
	if (lab_vlan_list_parse(&inv->pool,
	    (const char *)lab_db_column_text(st, 5), w) == -1)
		return -1;
	w->native = (unsigned long)lab_db_column_int64(st, 6);
	w->loc.file = w->native_loc.file = p->loc.file;
	w->loc.line = lab_db_column_int(st, 10);
	w->loc.col = lab_db_column_int(st, 11);
	w->native_loc.line = lab_db_column_int(st, 12);
	w->native_loc.col = lab_db_column_int(st, 13);
	return p->port == NULL ? -1 : 0;
}

static int
read_ports(struct lab_db *db, struct lab_inventory *inv, struct lab_err *err)
{
	struct lab_switch	*s;
	struct db_stmt		*st;
	int			 rc;

	if (lab_db_prepare(db, "SELECT s.name, (SELECT count(*) FROM "
	    "declared_ports c WHERE c.switch_id = p.switch_id), p.port, "
	    "p.description, p.vlan_access, p.vlan_trunk, p.vlan_native, "
	    "p.file, p.line, p.col, p.vlan_line, p.vlan_col, p.native_line, "
	    "p.native_col FROM declared_ports p JOIN switches s ON "
	    "s.id = p.switch_id ORDER BY p.switch_id, p.position", &st,
	    err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((s = find(inv, lab_db_column_text(st, 0))) == NULL)
			continue;
		if (s->ports == NULL && (s->ports = lab_pool_alloc(&inv->pool,
		    (size_t)lab_db_column_int64(st, 1) *
		    sizeof(*s->ports) + 1)) == NULL)
			break;
		if ((int64_t)s->nports >= lab_db_column_int64(st, 1))
			continue;
		memset(&s->ports[s->nports], 0, sizeof(*s->ports));
		if (read_port(inv, st, &s->ports[s->nports], s->loc.file) == -1)
			break;
		s->nports++;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read switch ports");
	lab_db_finalize(st);
	return 0;
}

static int
read_rest(struct lab_db *db, struct lab_inventory *inv, struct lab_err *err)
{
	struct lab_switch	*s;
	struct db_stmt		*st;
	char			*p;
	int			 rc;

	if (lab_db_prepare(db, "SELECT s.name, (SELECT count(*) FROM "
	    "declared_uplinks c WHERE c.switch_id = u.switch_id), u.port "
	    "FROM declared_uplinks u JOIN switches s ON s.id = u.switch_id "
	    "ORDER BY u.switch_id, u.position", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((s = find(inv, lab_db_column_text(st, 0))) == NULL)
			continue;
		if (s->uplinks.v == NULL && lab_strv_pool(&s->uplinks,
		    &inv->pool, (size_t)lab_db_column_int64(st, 1)) == -1)
			break;
		if ((int64_t)s->uplinks.n >= lab_db_column_int64(st, 1))
			continue;
		if ((p = text(inv, st, 2)) == NULL)
			break;
		lab_strv_put(&s->uplinks, p);
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read switch uplinks");
	lab_db_finalize(st);
	if (lab_db_prepare(db, "SELECT name, management_vlan FROM switches "
	    "WHERE management_vlan IS NOT NULL", &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW)
		if ((s = find(inv, lab_db_column_text(st, 0))) != NULL)
			s->management_vlan =
			    (unsigned long)lab_db_column_int64(st, 1);
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read switches");
	lab_db_finalize(st);
	return 0;
}

int
lab_db_switch_decl_read(struct lab_db *db, struct lab_inventory *inv,
    struct lab_err *err)
{
	if (inv->nswitches == 0)
		return 0;
	return read_vlans(db, inv, err) == -1 ||
	    read_ports(db, inv, err) == -1 ||
	    read_rest(db, inv, err) == -1 ? -1 : 0;
}
