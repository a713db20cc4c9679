/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/str.h"
#include "core/idx.h"
#include "db-priv.h"
#include "shares.h"
#include "known-issues.h"

#define FROM_DB	"(database)"

/*
 * Loading: hosts first, sorted by name, each with its id; then each
 * child table in one pass in host id order, each row finding its host by
 * id in a sorted index (no join, no sort by name, no query per host).
 */
struct load {
	struct lab_db		*db;
	struct lab_inventory	*inv;
	const char		*file;	/* loc.file of everything */
	const char		*name;	/* only this host or switch, or NULL */
	struct lab_idx		 ids;	/* host ids to inv->hosts indexes */
	struct lab_err		*err;
};

/* A column as a string in the inventory's pool, NULL for SQL NULL. */
static char *
text(struct load *l, struct db_stmt *st, int col)
{
	const unsigned char	*s = lab_db_column_text(st, col);

	if (s == NULL)
		return NULL;
	return lab_pool_strndup(&l->inv->pool, (const char *)s,
	    (size_t)lab_db_column_bytes(st, col));
}

/* The host with database id id, or NULL. */
static struct lab_host *
host_by_id(const struct load *l, int64_t id)
{
	long	i = lab_idx_find(&l->ids, id);

	return i < 0 ? NULL : &l->inv->hosts[i];
}

/* Prepares sql; when loading one host, binds its id (NULL: none) to ?1. */
static int
prepare(struct load *l, const char *all, const char *one,
    struct db_stmt **st)
{
	if (lab_db_prepare(l->db, l->name != NULL ? one : all, st, l->err) == -1)
		return -1;
	if (l->name != NULL && l->ids.n > 0)
		lab_db_bind_int64(*st, 1, l->ids.v[0].id);
	else if (l->name != NULL)
		lab_db_bind_null(*st, 1);
	return 0;
}

/* Splits space-separated words into sv, in the pool; NULL adds nothing. */
static int
split_words(struct load *l, struct lab_strv *sv, const char *s)
{
	const char	*p;
	char		*w;
	size_t		 n, words = 0;

	if (s == NULL)
		return 0;
	for (p = s; *p != '\0'; p++)
		if (*p != ' ' && (p == s || p[-1] == ' '))
			words++;
	if (words == 0)
		return 0;
	if (lab_strv_pool(sv, &l->inv->pool, words) == -1)
		return -1;
	while (*s != '\0') {
		while (*s == ' ')
			s++;
		for (p = s; *p != '\0' && *p != ' '; p++)
			;
		n = (size_t)(p - s);
		if (n > 0) {
			if ((w = lab_pool_strndup(&l->inv->pool, s, n)) == NULL)
				return -1;
			lab_strv_put(sv, w);
		}
		s = p;
	}
	return 0;
}

static int
load_hosts(struct load *l)
{
	struct lab_inventory	*inv = l->inv;
	struct db_stmt		*st;
	struct lab_host		*h;
	int			 rc;

	if (lab_db_prepare(l->db, l->name != NULL ? "SELECT id, name, model, role "
	    "FROM hosts WHERE name = ?1" : "SELECT id, name, model, role "
	    "FROM hosts ORDER BY name", &st, l->err) == -1)
		return -1;
	if (l->name != NULL)
		lab_db_bind_text(st, 1, l->name);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (lab_idx_add(&l->ids, lab_db_column_int64(st, 0),
		    inv->nhosts) == -1 || (h = lab_push(&inv->hosts,
		    &inv->nhosts, sizeof(*h))) == NULL)
			break;
		h->name = text(l, st, 1);
		h->model = text(l, st, 2);
		h->role = text(l, st, 3);
		h->loc.file = l->file;
		if (h->name == NULL || h->model == NULL)
			break;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(l->db, st, rc, l->err, "read hosts");
	lab_db_finalize(st);
	lab_idx_sort(&l->ids);
	return 0;
}

static int
load_bmcs(struct load *l)
{
	struct db_stmt	*st;
	struct lab_host	*h;
	struct lab_bmc	*b;
	int		 rc;

	if (prepare(l, "SELECT host_id, type, address, port, credential, "
	    "cipher_suite, workarounds, privilege, timeout_ms, retransmit_ms "
	    "FROM bmcs", "SELECT host_id, type, address, port, credential, "
	    "cipher_suite, workarounds, privilege, timeout_ms, retransmit_ms "
	    "FROM bmcs WHERE host_id = ?1", &st) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((h = host_by_id(l, lab_db_column_int64(st, 0))) == NULL ||
		    h->bmc != NULL)
			continue;
		if ((b = h->bmc = lab_pool_alloc(&l->inv->pool,
		    sizeof(*b))) == NULL)
			break;
		b->type = text(l, st, 1);
		b->address = text(l, st, 2);
		b->port = lab_db_column_int(st, 3);
		b->credential = text(l, st, 4);
		b->cipher_suite = lab_db_column_int(st, 5);
		if (split_words(l, &b->workarounds,
		    (const char *)lab_db_column_text(st, 6)) == -1)
			break;
		b->privilege = text(l, st, 7);
		b->timeout_ms = lab_db_column_int(st, 8);
		b->retransmit_ms = lab_db_column_int(st, 9);
		b->loc.file = l->file;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(l->db, st, rc, l->err, "read bmcs");
	lab_db_finalize(st);
	return 0;
}

/* How lab reaches each host over SSH, and the host's own address. */
static int
load_ssh(struct load *l)
{
	struct db_stmt		*st;
	struct lab_host		*h;
	struct lab_ssh_cfg	*c;
	int			 rc;

	if (prepare(l, "SELECT host_id, address, port, user, identity, "
	    "known_hosts, legacy_crypto FROM host_ssh", "SELECT host_id, "
	    "address, port, user, identity, known_hosts, legacy_crypto "
	    "FROM host_ssh WHERE host_id = ?1", &st) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((h = host_by_id(l, lab_db_column_int64(st, 0))) == NULL ||
		    h->ssh != NULL)
			continue;
		if ((c = h->ssh = lab_pool_alloc(&l->inv->pool,
		    sizeof(*c))) == NULL)
			break;
		c->address = text(l, st, 1);
		c->port = lab_db_column_int(st, 2);
		c->user = text(l, st, 3);
		c->identity = text(l, st, 4);
		c->known_hosts = text(l, st, 5);
		c->legacy_crypto = lab_db_column_int(st, 6);
		c->loc.file = l->file;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(l->db, st, rc, l->err,
		    "read ssh settings");
	lab_db_finalize(st);
	if (prepare(l, "SELECT host_id, address, gateway, dns "
	    "FROM host_network", "SELECT host_id, address, gateway, dns "
	    "FROM host_network WHERE host_id = ?1", &st) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((h = host_by_id(l, lab_db_column_int64(st, 0))) == NULL ||
		    h->network != NULL)
			continue;
		if ((h->network = lab_pool_alloc(&l->inv->pool,
		    sizeof(*h->network))) == NULL ||
		    split_words(l, &h->network->dns,
		    (const char *)lab_db_column_text(st, 3)) == -1)
			break;
		h->network->address = text(l, st, 1);
		h->network->gateway = text(l, st, 2);
		h->network->loc.file = l->file;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(l->db, st, rc, l->err,
		    "read network settings");
	lab_db_finalize(st);
	return 0;
}

/*
 * NICs and disks come grouped by host (an index on host_id), each host's
 * in name or slot order: a host's few are put in position order here, as
 * they are read, instead of a sort of every row.
 */
struct child {
	int64_t	 pos;
	union {
		struct lab_nic	nic;
		struct lab_disk	disk;
	} u;
};

#define NIC_COLS	"host_id, position, name, mac, vlan_access, " \
	"vlan_trunk, vlan_native, vlan_tagged, vlan_file, vlan_line, " \
	"vlan_col, native_line, native_col"

/* A NIC's VLAN wish from columns 4.. of NIC_COLS. */
static int
read_nic_vlan(struct load *l, struct db_stmt *st, struct lab_vlan_want *w)
{
	memset(w, 0, sizeof(*w));
	w->tagged = lab_db_column_int(st, 7);
	if (lab_db_column_type(st, 9) == DB_NULL)
		return 0;
	w->set = 1;
	w->access = (unsigned long)lab_db_column_int64(st, 4);
	if (lab_vlan_list_parse(&l->inv->pool,
	    (const char *)lab_db_column_text(st, 5), w) == -1)
		return -1;
	w->native = (unsigned long)lab_db_column_int64(st, 6);
	if ((w->loc.file = text(l, st, 8)) == NULL)
		w->loc.file = l->file;
	w->loc.line = lab_db_column_int(st, 9);
	w->loc.col = lab_db_column_int(st, 10);
	w->native_loc.file = w->loc.file;
	w->native_loc.line = lab_db_column_int(st, 11);
	w->native_loc.col = lab_db_column_int(st, 12);
	return 0;
}

/* Gives host h its children v[0..n), in position order. */
static int
flush_children(struct load *l, struct lab_host *h, struct child *v, size_t n,
    int nics)
{
	struct child	t;
	size_t		i, j;

	if (h == NULL || n == 0)
		return 0;
	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0 && v[j - 1].pos > t.pos; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	if (nics && (h->nics = lab_pool_alloc(&l->inv->pool,
	    n * sizeof(*h->nics))) == NULL)
		return -1;
	if (!nics && (h->disks = lab_pool_alloc(&l->inv->pool,
	    n * sizeof(*h->disks))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (nics)
			h->nics[h->nnics++] = v[i].u.nic;
		else
			h->disks[h->ndisks++] = v[i].u.disk;
	return 0;
}

static int
load_children(struct load *l, int nics)
{
	struct child	*v = NULL, *c;
	struct lab_host	*h = NULL, *nh;
	struct db_stmt	*st;
	int64_t	 id, last = 0;
	size_t		 n = 0;
	int		 rc, first = 1, ret = -1;

	if (prepare(l, nics ? "SELECT " NIC_COLS " FROM nics "
	    "ORDER BY host_id" : "SELECT host_id, position, slot, kind, "
	    "size_bytes, controller, device, boot FROM disks ORDER BY host_id",
	    nics ? "SELECT " NIC_COLS " FROM nics "
	    "WHERE host_id = ?1" : "SELECT host_id, position, slot, kind, "
	    "size_bytes, controller, device, boot FROM disks "
	    "WHERE host_id = ?1", &st) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		id = lab_db_column_int64(st, 0);
		if (first || id != last) {
			if (flush_children(l, h, v, n, nics) == -1)
				break;
			n = 0;
			/* a host's rows are read once: never twice */
			nh = host_by_id(l, id);
			h = nh != NULL && (nics ? nh->nics == NULL :
			    nh->disks == NULL) ? nh : NULL;
			first = 0;
			last = id;
		}
		if (h == NULL)
			continue;
		if ((c = lab_push(&v, &n, sizeof(*c))) == NULL)
			break;
		c->pos = lab_db_column_int64(st, 1);
		if (nics) {
			c->u.nic.name = text(l, st, 2);
			c->u.nic.mac = text(l, st, 3);
			c->u.nic.loc.file = l->file;
			if (read_nic_vlan(l, st, &c->u.nic.vlan) == -1)
				break;
		} else {
			c->u.disk.slot = text(l, st, 2);
			c->u.disk.kind = text(l, st, 3);
			c->u.disk.size_bytes = (uint64_t)lab_db_column_int64(st,
			    4);
			c->u.disk.controller = text(l, st, 5);
			c->u.disk.device = text(l, st, 6);
			c->u.disk.boot = lab_db_column_int(st, 7);
			c->u.disk.loc.file = l->file;
		}
	}
	if (rc == DB_DONE && flush_children(l, h, v, n, nics) == -1)
		rc = DB_NOMEM;
	if (rc != DB_DONE) {
		lab_db_step_fail(l->db, st, rc, l->err,
		    nics ? "read nics" : "read disks");
		goto out;
	}
	lab_db_finalize(st);
	ret = 0;
out:
	free(v);
	return ret;
}

/* A host's memberships, read in group id order, put in position order. */
struct member {
	int64_t	 pos;
	char		*group;
};

static int
flush_members(struct load *l, struct lab_host *h, struct member *v, size_t n)
{
	struct member	t;
	size_t		i, j;

	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0 && v[j - 1].pos > t.pos; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	/* the group names are the pool's: shared, not copied */
	if (lab_strv_pool(&h->groups, &l->inv->pool, n) == -1)
		return -1;
	for (i = 0; i < n; i++)
		lab_strv_put(&h->groups, v[i].group);
	return 0;
}

static int
cmp_groupid(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a;
	int64_t	y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Memberships in primary key order (host, group), no join: group names
 * come from a table of every group read first, and each host's few are
 * put in position order here rather than by a sort of all of them.
 */
static int
load_memberships(struct load *l)
{
	struct groupname {
		int64_t	 id;
		char		*name;
	}			*gv = NULL;
	struct member		*mv = NULL;
	struct groupname	 key, *g;
	struct lab_host		*h = NULL, *nh;
	struct db_stmt		*st;
	size_t			 ng = 0, nm = 0;
	int			 rc, ret = -1;

	if (lab_db_prepare(l->db, "SELECT id, name FROM groups", &st,
	    l->err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (lab_grow(&gv, ng, sizeof(*gv)) == -1)
			break;
		gv[ng].id = lab_db_column_int64(st, 0);
		if ((gv[ng++].name = text(l, st, 1)) == NULL)
			break;
	}
	if (rc != DB_DONE) {
		lab_db_step_fail(l->db, st, rc, l->err, "read groups");
		goto out;
	}
	lab_db_finalize(st);
	if (ng > 1)
		qsort(gv, ng, sizeof(*gv), cmp_groupid);
	/*
	 * one host's memberships together: SQLite's key order gave that
	 * without the ORDER BY, PostgreSQL's heap does not (a host updated
	 * by another import has its rows apart, and the second run of them
	 * replaced the first)
	 */
	if (prepare(l, "SELECT host_id, group_id, position FROM host_groups "
	    "ORDER BY host_id", "SELECT host_id, group_id, position FROM "
	    "host_groups WHERE host_id = ?1", &st) == -1)
		goto out;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		nh = host_by_id(l, lab_db_column_int64(st, 0));
		if (nh != h && h != NULL && flush_members(l, h, mv, nm) == -1)
			break;
		if (nh != h)
			nm = 0;
		h = nh;
		key.id = lab_db_column_int64(st, 1);
		g = ng > 0 ? bsearch(&key, gv, ng, sizeof(*gv), cmp_groupid) : NULL;
		if (h == NULL || g == NULL)
			continue;
		if (lab_grow(&mv, nm, sizeof(*mv)) == -1)
			break;
		mv[nm].pos = lab_db_column_int64(st, 2);
		mv[nm++].group = g->name;
	}
	if (rc == DB_DONE && h != NULL && flush_members(l, h, mv, nm) == -1)
		rc = DB_NOMEM;
	if (rc != DB_DONE) {
		lab_db_step_fail(l->db, st, rc, l->err, "read groups");
		goto out;
	}
	lab_db_finalize(st);
	ret = 0;
out:
	free(gv);
	free(mv);
	return ret;
}

static int
load_switches(struct load *l)
{
	struct lab_inventory	*inv = l->inv;
	struct db_stmt		*st;
	struct lab_switch	*s;
	const char		*file = l->file;
	int			 rc;

	if (lab_db_prepare(l->db, l->name != NULL ? "SELECT name, model, address, "
	    "port, snmp_version, snmp_credential, snmp_context, "
	    "snmp_timeout_ms, snmp_retries FROM switches WHERE name = ?1" :
	    "SELECT name, model, address, port, snmp_version, "
	    "snmp_credential, snmp_context, snmp_timeout_ms, snmp_retries "
	    "FROM switches ORDER BY name", &st, l->err) == -1)
		return -1;
	if (l->name != NULL)
		lab_db_bind_text(st, 1, l->name);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((s = lab_push(&inv->switches, &inv->nswitches,
		    sizeof(*s))) == NULL)
			break;
		s->name = text(l, st, 0);
		s->model = text(l, st, 1);
		s->address = text(l, st, 2);
		s->port = lab_db_column_int(st, 3);
		s->snmp.version = text(l, st, 4);
		s->snmp.credential = text(l, st, 5);
		s->snmp.context = text(l, st, 6);
		s->snmp.timeout_ms = lab_db_column_int(st, 7);
		s->snmp.retries = lab_db_column_type(st, 8) == DB_NULL ?
		    -1 : lab_db_column_int(st, 8);
		s->loc.file = file;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(l->db, st, rc, l->err, "read switches");
	lab_db_finalize(st);
	return 0;
}

static int
load_groups(struct load *l)
{
	struct lab_inventory	*inv = l->inv;
	struct db_stmt		*st;
	struct lab_group	*g;
	const char		*file = l->file;
	int			 rc;

	if (lab_db_prepare(l->db, "SELECT name, description FROM groups "
	    "WHERE declared <> 0 ORDER BY name", &st, l->err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((g = lab_push(&inv->groups, &inv->ngroups,
		    sizeof(*g))) == NULL)
			break;
		g->name = text(l, st, 0);
		g->description = text(l, st, 1);
		g->loc.file = file;
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(l->db, st, rc, l->err, "read groups");
	lab_db_finalize(st);
	return 0;
}

/* Reads the parts of the inventory asked for, sorted by name. */
int
lab_db_inventory_load_parts(struct lab_db *db, unsigned parts,
    const char *name, struct lab_inventory **ret, struct lab_err *err)
{
	struct load	 l;
	int		 rc = -1, own_tx;

	memset(&l, 0, sizeof(l));
	l.db = db;
	l.name = name;
	l.err = err;
	if ((l.inv = lab_inventory_new()) == NULL ||
	    lab_strv_add(&l.inv->files, FROM_DB) == -1) {
		lab_inventory_free(l.inv);
		return lab_err_oom(err);
	}
	l.file = l.inv->files.v[0];
	/* one read transaction: a consistent snapshot across the tables */
	own_tx = !lab_db_in_tx(db);
	if (own_tx && lab_db_begin_read(db, err) == -1)
		goto out;
	if (!(parts & LAB_LOAD_HOSTS))
		parts = 0;
	if ((!(parts & LAB_LOAD_HOSTS) || load_hosts(&l) == 0) &&
	    (!(parts & LAB_LOAD_BMCS) || load_bmcs(&l) == 0) &&
	    (!(parts & LAB_LOAD_SSH) || load_ssh(&l) == 0) &&
	    (!(parts & LAB_LOAD_NICS) || load_children(&l, 1) == 0) &&
	    (!(parts & LAB_LOAD_DISKS) || load_children(&l, 0) == 0) &&
	    (!(parts & LAB_LOAD_MEMBERSHIPS) || load_memberships(&l) == 0) &&
	    (parts != LAB_LOAD_ALL ||
	    lab_db_shares_read(db, l.inv, err) == 0) &&
	    load_switches(&l) == 0 &&
	    lab_db_switch_decl_read(db, l.inv, err) == 0 &&
	    load_groups(&l) == 0)
		rc = 0;
	if (own_tx)
		db->drv->exec(db, "COMMIT");
out:
	lab_idx_release(&l.ids);
	if (rc == 0)
		*ret = l.inv;
	else
		lab_inventory_free(l.inv);
	return rc;
}

/* Reads the whole inventory, sorted by name. */
int
lab_db_inventory_load(struct lab_db *db, struct lab_inventory **ret,
    struct lab_err *err)
{
	if (lab_db_inventory_load_parts(db, LAB_LOAD_ALL, NULL, ret, err) == -1)
		return -1;
	/* the known_issues: imported with it (lib/db/known-issues.c) */
	if (lab_db_known_issues_into(db, *ret, err) == -1) {
		lab_inventory_free(*ret);
		*ret = NULL;
		return -1;
	}
	return 0;
}
