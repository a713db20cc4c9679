/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/str.h"
#include "db-priv.h"
#include "known-issues.h"
#include "shares.h"

/*
 * The statements one apply needs, prepared once. A host's rows are
 * written by its id (from the insert, or RETURNED by the update) and
 * each membership by its group's id: no lookup by name per row.
 */
struct stmts {
	struct db_stmt	*host_upd, *host_del, *host_max;
	struct db_stmt	*bmc_del, *nic_del, *nic_del_name, *nic_loc;
	struct db_stmt	*disk_del, *hg_del, *ssh_del, *net_del;
	struct db_stmt	*grp_put, *grp_ids, *grp_del;
	struct db_stmt	*sw_ins, *sw_upd, *sw_del;
};

static const struct {
	size_t		 off;
	const char	*sql;
} stmt_sql[] = {
#define S(f, q) { offsetof(struct stmts, f), q }
	S(host_max, "SELECT coalesce(max(id), 0) FROM hosts"),
	S(host_upd, "UPDATE hosts SET model = ?2, role = ?3, updated_at = ?4 "
	    "WHERE name = ?1 RETURNING id"),
	S(host_del, "DELETE FROM hosts WHERE name = ?1"),
	S(bmc_del, "DELETE FROM bmcs WHERE host_id = ?1"),
	S(nic_del, "DELETE FROM nics WHERE host_id = ?1"),
	S(nic_del_name, "DELETE FROM nics WHERE host_id = "
	    "(SELECT id FROM hosts WHERE name = ?1)"),
	S(nic_loc, "UPDATE nics SET vlan_file = ?3, vlan_line = ?4, "
	    "vlan_col = ?5, native_line = ?6, native_col = ?7 WHERE host_id = "
	    "(SELECT id FROM hosts WHERE name = ?1) AND position = ?2"),
	S(disk_del, "DELETE FROM disks WHERE host_id = ?1"),
	S(hg_del, "DELETE FROM host_groups WHERE host_id = ?1"),
	S(ssh_del, "DELETE FROM host_ssh WHERE host_id = ?1"),
	S(net_del, "DELETE FROM host_network WHERE host_id = ?1"),
	S(grp_put, "INSERT INTO groups (name, description, declared) "
	    "VALUES (?1, ?2, ?3) ON CONFLICT (name) DO UPDATE SET "
	    "description = excluded.description, declared = excluded.declared"),
	S(grp_ids, "SELECT id, name FROM groups"),
	S(grp_del, "DELETE FROM groups WHERE name = ?1"),
	S(sw_ins, "INSERT INTO switches (name, model, address, port, "
	    "snmp_version, snmp_credential, snmp_context, snmp_timeout_ms, "
	    "snmp_retries, created_at, updated_at) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)"),
	S(sw_upd, "UPDATE switches SET model = ?2, address = ?3, port = ?4, "
	    "snmp_version = ?5, snmp_credential = ?6, snmp_context = ?7, "
	    "snmp_timeout_ms = ?8, snmp_retries = ?9, updated_at = ?10 "
	    "WHERE name = ?1"),
	S(sw_del, "DELETE FROM switches WHERE name = ?1"),
#undef S
};

/*
 * The groups after the apply: declared now, named by a host that stays,
 * or (without prune) declared before. Each with its description, whether
 * it is declared and, once written, its id.
 */
struct fgroup {
	const char	*name;
	const char	*description;
	int		 declared;
	size_t		 order;		/* lower: higher precedence */
	int64_t	 id;
};

struct apply {
	struct lab_db		*db;
	struct stmts		 st;
	/* rows written many at a time; a new host's id is chosen here */
	struct db_batch		 hosts, bmcs, ssh, net, nics, disks, members;
	int64_t		 next_id;
	struct lab_strv		 owned;	/* strings the batches point to */
	struct lab_changes	*ch;
	int64_t			 now;
	struct fgroup		*fv;	/* the groups, sorted by name */
	size_t			 fn;
	struct lab_err		*err;
};

static void
stmts_release(struct stmts *st)
{
	size_t	i;

	for (i = 0; i < LAB_ARRAY_SIZE(stmt_sql); i++)
		lab_db_finalize(*(struct db_stmt **)((char *)st +
		    stmt_sql[i].off));
	memset(st, 0, sizeof(*st));
}

static int
stmts_prepare(struct lab_db *db, struct stmts *st, struct lab_err *err)
{
	size_t	i;

	for (i = 0; i < LAB_ARRAY_SIZE(stmt_sql); i++)
		if (lab_db_prepare(db, stmt_sql[i].sql, (struct db_stmt **)
		    ((char *)st + stmt_sql[i].off), err) == -1) {
			stmts_release(st);
			return -1;
		}
	return 0;
}

/*
 * Binds a string the statement only reads while it steps: run() resets
 * and clears the bindings before the string can go away.
 */
static void
bind_str(struct db_stmt *st, int idx, const char *s)
{
	lab_db_bind_static(st, idx, s);
}

/*
 * Runs a bound write statement once (sent: on PostgreSQL its failure may
 * be the next statement's) and resets it.
 */
static int
run(struct apply *a, struct db_stmt *st, const char *what)
{
	int	rc = lab_db_send(st);

	lab_db_reset(st);
	lab_db_clear_bindings(st);
	if (rc != DB_DONE)
		return lab_db_fail(a->db, a->err, what);
	return 0;
}

static int
add_change(struct lab_changes *ch, enum lab_change_op op, const char *what,
    const char *name, char *detail)
{
	struct lab_change	*v;

	if (lab_grow(&ch->v, ch->n, sizeof(*ch->v)) == -1) {
		free(detail);
		return -1;
	}
	v = &ch->v[ch->n];
	v->op = op;
	v->what = what;
	v->detail = detail;
	if ((v->name = strdup(name)) == NULL) {
		free(detail);
		return -1;
	}
	ch->n++;
	return 0;
}

/* Frees the changes. */
void
lab_changes_release(struct lab_changes *ch)
{
	size_t	i;

	for (i = 0; i < ch->n; i++) {
		free(ch->v[i].name);
		free(ch->v[i].detail);
	}
	free(ch->v);
	ch->v = NULL;
	ch->n = 0;
}

static int
streq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static void
note(struct lab_buf *d, const char *field, const char *old, const char *new)
{
	if (d->len > 0)
		lab_buf_adds(d, ", ");
	if (old == NULL && new == NULL)
		lab_buf_adds(d, field);
	else
		lab_buf_addf(d, "%s %s -> %s", field, old ? old : "(none)",
		    new ? new : "(none)");
}

static int
strv_eq(const struct lab_strv *a, const struct lab_strv *b)
{
	size_t	i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return 0;
	return 1;
}

/* Words joined by spaces; NULL when out of memory. */
static char *
join_words(const struct lab_strv *sv)
{
	struct lab_buf	b;
	size_t		i;

	lab_buf_init(&b);
	for (i = 0; i < sv->n; i++)
		lab_buf_addf(&b, "%s%s", i ? " " : "", sv->v[i]);
	return lab_buf_steal(&b);
}

static int
bmc_eq(const struct lab_bmc *a, const struct lab_bmc *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return streq(a->type, b->type) && streq(a->address, b->address) &&
	    a->port == b->port && streq(a->credential, b->credential) &&
	    a->cipher_suite == b->cipher_suite &&
	    strv_eq(&a->workarounds, &b->workarounds) &&
	    streq(a->privilege, b->privilege) &&
	    a->timeout_ms == b->timeout_ms &&
	    a->retransmit_ms == b->retransmit_ms;
}

static int
nics_eq(const struct lab_host *a, const struct lab_host *b)
{
	size_t	i;

	if (a->nnics != b->nnics)
		return 0;
	for (i = 0; i < a->nnics; i++)
		if (!streq(a->nics[i].name, b->nics[i].name) ||
		    !streq(a->nics[i].mac, b->nics[i].mac))
			return 0;
	return 1;
}

/* The VLAN wishes of two hosts with the same NICs alike. */
static int
nic_vlans_eq(const struct lab_host *a, const struct lab_host *b)
{
	size_t	i;

	for (i = 0; i < a->nnics && i < b->nnics; i++)
		if (!lab_vlan_want_eq(&a->nics[i].vlan, &b->nics[i].vlan))
			return 0;
	return 1;
}

static int
disks_eq(const struct lab_host *a, const struct lab_host *b)
{
	size_t	i;

	if (a->ndisks != b->ndisks)
		return 0;
	for (i = 0; i < a->ndisks; i++)
		if (!streq(a->disks[i].slot, b->disks[i].slot) ||
		    !streq(a->disks[i].kind, b->disks[i].kind) ||
		    a->disks[i].size_bytes != b->disks[i].size_bytes ||
		    !streq(a->disks[i].controller, b->disks[i].controller) ||
		    !streq(a->disks[i].device, b->disks[i].device) ||
		    a->disks[i].boot != b->disks[i].boot)
			return 0;
	return 1;
}

static int
ssh_eq(const struct lab_ssh_cfg *a, const struct lab_ssh_cfg *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return streq(a->address, b->address) && a->port == b->port &&
	    streq(a->user, b->user) && streq(a->identity, b->identity) &&
	    streq(a->known_hosts, b->known_hosts) &&
	    a->legacy_crypto == b->legacy_crypto;
}

static int
net_eq(const struct lab_netcfg *a, const struct lab_netcfg *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return streq(a->address, b->address) &&
	    streq(a->gateway, b->gateway) && strv_eq(&a->dns, &b->dns);
}

static int
loc_eq(const struct lab_loc *a, const struct lab_loc *b)
{
	return streq(a->file, b->file) && a->line == b->line &&
	    a->col == b->col;
}

/*
 * Whether two alike VLAN wishes were written at the same place: the file
 * of a native: is the wish's own (the database keeps one).
 */
static int
want_locs_eq(const struct lab_vlan_want *a, const struct lab_vlan_want *b)
{
	if (!a->set || !b->set)
		return a->set == b->set;
	return loc_eq(&a->loc, &b->loc) && (a->native == 0 ||
	    (a->native_loc.line == b->native_loc.line &&
	    a->native_loc.col == b->native_loc.col));
}

/*
 * Whether the VLAN declarations of two alike switches were written at
 * the same places (the database keeps a ports: entry's file once).
 */
static int
switch_locs_eq(const struct lab_switch *a, const struct lab_switch *b)
{
	const struct lab_vlan_want	*x, *y;
	size_t				 i;

	for (i = 0; i < a->nvlans && i < b->nvlans; i++)
		if (!loc_eq(&a->vlans[i].loc, &b->vlans[i].loc))
			return 0;
	for (i = 0; i < a->nports && i < b->nports; i++) {
		x = &a->ports[i].vlan;
		y = &b->ports[i].vlan;
		if (!loc_eq(&a->ports[i].loc, &b->ports[i].loc) ||
		    x->loc.line != y->loc.line || x->loc.col != y->loc.col ||
		    x->native_loc.line != y->native_loc.line ||
		    x->native_loc.col != y->native_loc.col)
			return 0;
	}
	return 1;
}

/* What differs between two declarations of a host; "" when nothing. */
static void
host_diff(const struct lab_host *o, const struct lab_host *n,
    struct lab_buf *d)
{
	if (!streq(o->model, n->model))
		note(d, "model", o->model, n->model);
	if (!streq(o->role, n->role))
		note(d, "role", o->role, n->role);
	if (!strv_eq(&o->groups, &n->groups))
		note(d, "groups", NULL, NULL);
	if (!bmc_eq(o->bmc, n->bmc)) {
		if (o->bmc != NULL && n->bmc != NULL &&
		    !streq(o->bmc->address, n->bmc->address))
			note(d, "bmc address", o->bmc->address, n->bmc->address);
		else
			note(d, "bmc", NULL, NULL);
	}
	if (!ssh_eq(o->ssh, n->ssh))
		note(d, "ssh", NULL, NULL);
	if (!net_eq(o->network, n->network))
		note(d, "network", NULL, NULL);
	if (!nics_eq(o, n))
		note(d, "nics", NULL, NULL);
	else if (!nic_vlans_eq(o, n))
		note(d, "nic vlans", NULL, NULL);
	if (!disks_eq(o, n))
		note(d, "disks", NULL, NULL);
	if (!lab_db_shares_eq(o, n))
		note(d, "shares", NULL, NULL);
}

static void
switch_diff(const struct lab_switch *o, const struct lab_switch *n,
    struct lab_buf *d)
{
	if (!streq(o->model, n->model))
		note(d, "model", o->model, n->model);
	if (!streq(o->address, n->address))
		note(d, "address", o->address, n->address);
	if (o->port != n->port)
		note(d, "port", NULL, NULL);
	if (!streq(o->snmp.version, n->snmp.version) ||
	    !streq(o->snmp.credential, n->snmp.credential) ||
	    !streq(o->snmp.context, n->snmp.context) ||
	    o->snmp.timeout_ms != n->snmp.timeout_ms ||
	    o->snmp.retries != n->snmp.retries)
		note(d, "snmp", NULL, NULL);
	if (!lab_switch_vlans_eq(o, n))
		note(d, "vlans", NULL, NULL);
}

/* Group name among fv (sorted by name), or NULL. */
static struct fgroup *
find_fgroup(struct fgroup *fv, size_t fn, const char *name)
{
	size_t	lo = 0, hi = fn, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(name, fv[mid].name)) == 0)
			return &fv[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The id of group name, written before any host. */
static int64_t
group_id(const struct apply *a, const char *name)
{
	struct fgroup	*g = find_fgroup(a->fv, a->fn, name);

	return g != NULL ? g->id : 0;
}

static void
int_val(struct db_val *v, int64_t i)
{
	v->type = DB_INTEGER;
	v->i = i;
}

static void
str_val(struct db_val *v, const char *s)
{
	v->type = DB_TEXT;
	v->s = s;
}

/* A NIC's VLAN wish into columns 4.. of its row (NULL when unset). */
static int
write_nic_vlan(struct apply *a, const struct lab_vlan_want *w,
    struct db_val *v)
{
	int_val(&v[7], w->tagged);
	if (!w->set)
		return 0;
	if (w->access != 0)
		int_val(&v[4], (int64_t)w->access);
	if (w->ntrunk > 0) {
		if (lab_strv_take(&a->owned, lab_vlan_list_join(w, " ")) == -1)
			return lab_err_oom(a->err);
		str_val(&v[5], a->owned.v[a->owned.n - 1]);
	}
	if (w->native != 0) {
		int_val(&v[6], (int64_t)w->native);
		int_val(&v[11], w->native_loc.line);
		int_val(&v[12], w->native_loc.col);
	}
	str_val(&v[8], w->loc.file);
	int_val(&v[9], w->loc.line);
	int_val(&v[10], w->loc.col);
	return 0;
}

/* Writes the host row (a new one into the batch) and gets its id. */
static int
write_host_row(struct apply *a, const struct lab_host *h, int update,
    int64_t *id)
{
	struct db_stmt	*hs = a->st.host_upd;
	struct db_val	*v;
	int		 rc;

	if (!update) {
		if ((v = lab_db_batch_row(&a->hosts, a->err)) == NULL)
			return -1;
		*id = a->next_id++;
		int_val(&v[0], *id);
		str_val(&v[1], h->name);
		str_val(&v[2], h->model);
		str_val(&v[3], h->role);
		int_val(&v[4], a->now);
		int_val(&v[5], a->now);
		return 0;
	}
	bind_str(hs, 1, h->name);
	bind_str(hs, 2, h->model);
	bind_str(hs, 3, h->role);
	lab_db_bind_int64(hs, 4, a->now);
	if ((rc = lab_db_step(hs)) == DB_ROW) {
		*id = lab_db_column_int64(hs, 0);
		rc = lab_db_step(hs);
	}
	lab_db_reset(hs);
	lab_db_clear_bindings(hs);
	if (rc != DB_DONE)
		return lab_db_fail(a->db, a->err, "write host");
	return 0;
}

/*
 * Writes a host: its row and BMC now, its NICs, disks and memberships
 * into the batches (written by the time of the next flush).
 */
static int
write_host(struct apply *a, const struct lab_host *h, int update)
{
	struct stmts	*st = &a->st;
	struct db_val	*v;
	int64_t	 id = 0, gid;
	size_t		 i;

	if (write_host_row(a, h, update, &id) == -1)
		return -1;
	if (update) {
		struct db_stmt *del[] = { st->bmc_del, st->nic_del,
		    st->disk_del, st->hg_del, st->ssh_del, st->net_del };

		for (i = 0; i < LAB_ARRAY_SIZE(del); i++) {
			lab_db_bind_int64(del[i], 1, id);
			if (run(a, del[i], "write host") == -1)
				return -1;
		}
	}
	if (h->bmc != NULL) {
		if ((v = lab_db_batch_row(&a->bmcs, a->err)) == NULL)
			return -1;
		int_val(&v[0], id);
		str_val(&v[1], h->bmc->type);
		str_val(&v[2], h->bmc->address);
		int_val(&v[3], h->bmc->port);
		str_val(&v[4], h->bmc->credential);
		int_val(&v[5], h->bmc->cipher_suite);
		if (h->bmc->workarounds.n > 0) {
			if (lab_strv_take(&a->owned,
			    join_words(&h->bmc->workarounds)) == -1)
				return lab_err_oom(a->err);
			str_val(&v[6], a->owned.v[a->owned.n - 1]);
		}
		str_val(&v[7], h->bmc->privilege);
		if (h->bmc->timeout_ms > 0)
			int_val(&v[8], h->bmc->timeout_ms);
		if (h->bmc->retransmit_ms > 0)
			int_val(&v[9], h->bmc->retransmit_ms);
	}
	if (h->ssh != NULL) {
		if ((v = lab_db_batch_row(&a->ssh, a->err)) == NULL)
			return -1;
		int_val(&v[0], id);
		str_val(&v[1], h->ssh->address);
		int_val(&v[2], h->ssh->port);
		str_val(&v[3], h->ssh->user);
		str_val(&v[4], h->ssh->identity);
		str_val(&v[5], h->ssh->known_hosts);
		int_val(&v[6], h->ssh->legacy_crypto);
	}
	if (h->network != NULL) {
		if ((v = lab_db_batch_row(&a->net, a->err)) == NULL)
			return -1;
		int_val(&v[0], id);
		str_val(&v[1], h->network->address);
		str_val(&v[2], h->network->gateway);
		if (h->network->dns.n > 0) {
			if (lab_strv_take(&a->owned,
			    join_words(&h->network->dns)) == -1)
				return lab_err_oom(a->err);
			str_val(&v[3], a->owned.v[a->owned.n - 1]);
		}
	}
	for (i = 0; i < h->nnics; i++) {
		if ((v = lab_db_batch_row(&a->nics, a->err)) == NULL)
			return -1;
		int_val(&v[0], id);
		int_val(&v[1], (int64_t)i);
		str_val(&v[2], h->nics[i].name);
		str_val(&v[3], h->nics[i].mac);
		if (write_nic_vlan(a, &h->nics[i].vlan, v) == -1)
			return -1;
	}
	for (i = 0; i < h->ndisks; i++) {
		if ((v = lab_db_batch_row(&a->disks, a->err)) == NULL)
			return -1;
		int_val(&v[0], id);
		int_val(&v[1], (int64_t)i);
		str_val(&v[2], h->disks[i].slot);
		str_val(&v[3], h->disks[i].kind);
		int_val(&v[4], (int64_t)h->disks[i].size_bytes);
		str_val(&v[5], h->disks[i].controller);
		str_val(&v[6], h->disks[i].device);
		int_val(&v[7], h->disks[i].boot);
	}
	for (i = 0; i < h->groups.n; i++) {
		if ((gid = group_id(a, h->groups.v[i])) == 0)
			return lab_err_set(a->err, LAB_EXIT_ENV, "database "
			    "'%s': write group membership: no group '%s'",
			    lab_db_path(a->db), h->groups.v[i]);
		if ((v = lab_db_batch_row(&a->members, a->err)) == NULL)
			return -1;
		int_val(&v[0], id);
		int_val(&v[1], gid);
		int_val(&v[2], (int64_t)i);
	}
	return 0;
}

/*
 * A host that did not change whose NIC VLAN wishes moved in the YAML (a
 * line added above them, another file): their rows get the new places,
 * so that an error names the line the wish is on now.
 */
static int
write_nic_locs(struct apply *a, const struct lab_host *o,
    const struct lab_host *n)
{
	struct db_stmt			*st = a->st.nic_loc;
	const struct lab_vlan_want	*w;
	size_t				 i;

	for (i = 0; i < o->nnics && i < n->nnics; i++) {
		w = &n->nics[i].vlan;
		if (want_locs_eq(&o->nics[i].vlan, w))
			continue;
		bind_str(st, 1, n->name);
		lab_db_bind_int64(st, 2, (int64_t)i);
		bind_str(st, 3, w->loc.file);
		lab_db_bind_int(st, 4, w->loc.line);
		lab_db_bind_int(st, 5, w->loc.col);
		if (w->native != 0) {
			lab_db_bind_int(st, 6, w->native_loc.line);
			lab_db_bind_int(st, 7, w->native_loc.col);
		}
		if (run(a, st, "write nic") == -1)
			return -1;
	}
	return 0;
}

static int
write_switch(struct apply *a, const struct lab_switch *s, int update)
{
	struct db_stmt	*st = update ? a->st.sw_upd : a->st.sw_ins;

	bind_str(st, 1, s->name);
	bind_str(st, 2, s->model);
	bind_str(st, 3, s->address);
	lab_db_bind_int(st, 4, s->port);
	bind_str(st, 5, s->snmp.version);
	bind_str(st, 6, s->snmp.credential);
	bind_str(st, 7, s->snmp.context);
	if (s->snmp.timeout_ms > 0)
		lab_db_bind_int(st, 8, s->snmp.timeout_ms);
	if (s->snmp.retries >= 0)
		lab_db_bind_int(st, 9, s->snmp.retries);
	lab_db_bind_int64(st, 10, a->now);
	if (run(a, st, "write switch") == -1)
		return -1;
	return lab_db_switch_decl_write(a->db, s, update, a->err);
}

static int
delete_named(struct apply *a, struct db_stmt *st, const char *name)
{
	lab_db_bind_text(st, 1, name);
	return run(a, st, "delete");
}

static int
cmp_hostp(const void *x, const void *y)
{
	return strcmp((*(const struct lab_host *const *)x)->name,
	    (*(const struct lab_host *const *)y)->name);
}

static int
cmp_switchp(const void *x, const void *y)
{
	return strcmp((*(const struct lab_switch *const *)x)->name,
	    (*(const struct lab_switch *const *)y)->name);
}

/* The host of the YAML named name, from its name-sorted pointers. */
static const struct lab_host *
find_new(const struct lab_host **hv, size_t n, const char *name)
{
	size_t	lo = 0, hi = n, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(name, hv[mid]->name)) == 0)
			return hv[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/*
 * Deletes, before any host is written, the NICs of hosts that change or
 * (with prune) lose theirs: a MAC moving to a host written earlier would
 * otherwise still be held by its old host (nics.mac is unique).
 */
static int
release_nics(struct apply *a, const struct lab_inventory *cur,
    const struct lab_host **hv, size_t nn, int flags)
{
	const struct lab_host	*o, *n;
	size_t			 i;

	for (i = 0; i < cur->nhosts; i++) {
		o = &cur->hosts[i];
		n = find_new(hv, nn, o->name);
		if (n == NULL ? !(flags & LAB_APPLY_PRUNE) : nics_eq(o, n))
			continue;
		lab_db_bind_text(a->st.nic_del_name, 1, o->name);
		if (run(a, a->st.nic_del_name, "write nic") == -1)
			return -1;
	}
	return 0;
}

/*
 * Walks old (sorted) and new (sorted pointers) hosts together, recording
 * each change and, when write, making it.
 */
static int
merge_hosts(struct apply *a, const struct lab_inventory *cur,
    const struct lab_host **nv, size_t nn, int flags, int write)
{
	struct lab_buf	 d;
	size_t		 i = 0, j = 0;
	int		 c;

	while (i < cur->nhosts || j < nn) {
		const struct lab_host	*o = i < cur->nhosts ? &cur->hosts[i] : NULL;
		const struct lab_host	*n = j < nn ? nv[j] : NULL;

		c = i == cur->nhosts ? 1 : j == nn ? -1 :
		    strcmp(o->name, n->name);
		if (c < 0) {
			i++;
			if (!(flags & LAB_APPLY_PRUNE)) {
				if (add_change(a->ch, LAB_CHANGE_KEEP, "host",
				    o->name, NULL) == -1)
					return lab_err_oom(a->err);
				continue;
			}
			if (add_change(a->ch, LAB_CHANGE_REMOVE, "host",
			    o->name, NULL) == -1)
				return lab_err_oom(a->err);
			if (write && delete_named(a, a->st.host_del, o->name))
				return -1;
		} else if (c > 0) {
			j++;
			if (add_change(a->ch, LAB_CHANGE_ADD, "host", n->name,
			    NULL) == -1)
				return lab_err_oom(a->err);
			if (write && write_host(a, n, 0) == -1)
				return -1;
		} else {
			i++;
			j++;
			lab_buf_init(&d);
			host_diff(o, n, &d);
			/* unchanged, but the places of its wishes follow */
			if (d.len == 0 && !d.oom) {
				if (write && write_nic_locs(a, o, n) == -1)
					return -1;
				continue;
			}
			if (add_change(a->ch, LAB_CHANGE_MODIFY, "host",
			    n->name, lab_buf_steal(&d)) == -1)
				return lab_err_oom(a->err);
			if (write && write_host(a, n, 1) == -1)
				return -1;
		}
	}
	return 0;
}

static int
merge_switches(struct apply *a, const struct lab_inventory *cur,
    const struct lab_switch **nv, size_t nn, int flags, int write)
{
	struct lab_buf	 d;
	size_t		 i = 0, j = 0;
	int		 c;

	while (i < cur->nswitches || j < nn) {
		const struct lab_switch	*o = i < cur->nswitches ?
		    &cur->switches[i] : NULL;
		const struct lab_switch	*n = j < nn ? nv[j] : NULL;

		c = i == cur->nswitches ? 1 : j == nn ? -1 :
		    strcmp(o->name, n->name);
		if (c < 0) {
			i++;
			if (add_change(a->ch, flags & LAB_APPLY_PRUNE ?
			    LAB_CHANGE_REMOVE : LAB_CHANGE_KEEP, "switch",
			    o->name, NULL) == -1)
				return lab_err_oom(a->err);
			if ((flags & LAB_APPLY_PRUNE) && write &&
			    delete_named(a, a->st.sw_del, o->name) == -1)
				return -1;
		} else if (c > 0) {
			j++;
			if (add_change(a->ch, LAB_CHANGE_ADD, "switch",
			    n->name, NULL) == -1)
				return lab_err_oom(a->err);
			if (write && write_switch(a, n, 0) == -1)
				return -1;
		} else {
			i++;
			j++;
			lab_buf_init(&d);
			switch_diff(o, n, &d);
			/* unchanged, but its declarations written elsewhere */
			if (d.len == 0 && !d.oom) {
				if (write && !switch_locs_eq(o, n) &&
				    lab_db_switch_decl_write(a->db, n, 1,
				    a->err) == -1)
					return -1;
				continue;
			}
			if (add_change(a->ch, LAB_CHANGE_MODIFY, "switch",
			    n->name, lab_buf_steal(&d)) == -1)
				return lab_err_oom(a->err);
			if (write && write_switch(a, n, 1) == -1)
				return -1;
		}
	}
	return 0;
}

static const struct lab_group *
find_group(const struct lab_inventory *inv, const char *name)
{
	size_t	i;

	for (i = 0; i < inv->ngroups; i++)
		if (strcmp(inv->groups[i].name, name) == 0)
			return &inv->groups[i];
	return NULL;
}

#define IMPLICIT_CACHE	8

/* By name, then precedence: qsort is not stable, the order field is. */
static int
cmp_fgroup(const void *x, const void *y)
{
	const struct fgroup	*a = x, *b = y;
	int			 c = strcmp(a->name, b->name);

	if (c != 0)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * Adds an implicit group, unless one of the names recently added (a
 * small cache, slot by the name's length) is the same.
 */
static size_t
add_implicit(struct fgroup *v, size_t n, const char **imp, const char *name)
{
	const char	**slot = &imp[strlen(name) % IMPLICIT_CACHE];

	if (*slot != NULL && strcmp(*slot, name) == 0)
		return n;
	*slot = name;
	v[n] = (struct fgroup){ name, NULL, 0, 0 };
	return n + 1;
}

static int
final_groups(const struct lab_inventory *cur, const struct lab_inventory *inv,
    const struct lab_host **hv, int flags, struct fgroup **ret, size_t *retn)
{
	const char	*imp[IMPLICIT_CACHE];
	struct fgroup	*v;
	size_t		 n = 0, max = inv->ngroups + cur->ngroups, i, j, k;

	for (i = 0; i < inv->nhosts; i++)
		max += inv->hosts[i].groups.n;
	for (i = 0; i < cur->nhosts; i++)
		max += cur->hosts[i].groups.n;
	if ((v = calloc(max ? max : 1, sizeof(*v))) == NULL)
		return -1;
	/* order of precedence: declared now, declared before, implicit */
	for (i = 0; i < LAB_ARRAY_SIZE(imp); i++)
		imp[i] = NULL;
	for (i = 0; i < inv->ngroups; i++)
		v[n++] = (struct fgroup){ inv->groups[i].name,
		    inv->groups[i].description, 1, 0 };
	if (!(flags & LAB_APPLY_PRUNE))
		for (i = 0; i < cur->ngroups; i++)
			v[n++] = (struct fgroup){ cur->groups[i].name,
			    cur->groups[i].description, 1, 0 };
	/*
	 * Groups only named by hosts are all alike: one entry per name is
	 * enough, and neighbours mostly name the same (10,000 hosts, 20,000
	 * memberships, 400 names): skip a name the entry before had.
	 */
	for (i = 0; i < inv->nhosts; i++)
		for (j = 0; j < inv->hosts[i].groups.n; j++)
			n = add_implicit(v, n, imp, inv->hosts[i].groups.v[j]);
	if (!(flags & LAB_APPLY_PRUNE))
		for (i = 0; i < cur->nhosts; i++) {
			if (find_new(hv, inv->nhosts, cur->hosts[i].name))
				continue;
			for (j = 0; j < cur->hosts[i].groups.n; j++)
				n = add_implicit(v, n, imp,
				    cur->hosts[i].groups.v[j]);
		}
	/* sorted by name then precedence, the first of each name wins */
	for (i = 0; i < n; i++)
		v[i].order = i;
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_fgroup);
	for (i = 0, k = 0; i < n; i++)
		if (k == 0 || strcmp(v[k - 1].name, v[i].name) != 0)
			v[k++] = v[i];
	*ret = v;
	*retn = k;
	return 0;
}

/* The ids of the groups fv names, as written. */
static int
group_ids(struct apply *a, struct fgroup *fv, size_t fn)
{
	struct db_stmt	*st = a->st.grp_ids;
	struct fgroup	*g;
	int		 rc;

	while ((rc = lab_db_step(st)) == DB_ROW)
		if ((g = find_fgroup(fv, fn,
		    (const char *)lab_db_column_text(st, 1))) != NULL)
			g->id = lab_db_column_int64(st, 0);
	lab_db_reset(st);
	return rc == DB_DONE ? 0 : lab_db_fail(a->db, a->err, "read groups");
}

static int
merge_groups(struct apply *a, const struct lab_inventory *cur,
    struct fgroup *fv, size_t fn, int write_puts, int write_dels)
{
	struct lab_strv		 old;
	const struct lab_group	*og;
	size_t			 i = 0, j = 0;
	int			 c, rc = -1;

	if (lab_inventory_group_names(cur, &old, a->err) == -1)
		return -1;
	if (write_puts) {
		/* sent without waiting for each (a pipeline on PostgreSQL);
		   the ids read after, in one statement */
		for (j = 0; j < fn; j++) {
			lab_db_bind_text(a->st.grp_put, 1, fv[j].name);
			lab_db_bind_text(a->st.grp_put, 2, fv[j].description);
			lab_db_bind_int(a->st.grp_put, 3, fv[j].declared);
			if (run(a, a->st.grp_put, "write group") == -1)
				goto out;
		}
		rc = group_ids(a, fv, fn);
		goto out;
	}
	while (i < old.n || j < fn) {
		c = i == old.n ? 1 : j == fn ? -1 :
		    strcmp(old.v[i], fv[j].name);
		if (c < 0) {
			if (add_change(a->ch, LAB_CHANGE_REMOVE, "group",
			    old.v[i], NULL) == -1)
				goto oom;
			if (write_dels && delete_named(a, a->st.grp_del,
			    old.v[i]) == -1)
				goto out;
			i++;
		} else if (c > 0) {
			if (add_change(a->ch, LAB_CHANGE_ADD, "group",
			    fv[j].name, NULL) == -1)
				goto oom;
			j++;
		} else {
			og = find_group(cur, fv[j].name);
			if (!streq(og ? og->description : NULL,
			    fv[j].description) && add_change(a->ch,
			    LAB_CHANGE_MODIFY, "group", fv[j].name,
			    lab_strdup("description")) == -1)
				goto oom;
			i++;
			j++;
		}
	}
	rc = 0;
	goto out;
oom:
	lab_err_oom(a->err);
out:
	lab_strv_release(&old);
	return rc;
}

struct macref {
	const char	*mac;
	const char	*host;
	int		 kept;	/* on a host the import keeps, not declares */
};

static int
cmp_macref(const void *x, const void *y)
{
	const struct macref	*a = x, *b = y;
	int			 c = strcmp(a->mac, b->mac);

	return c != 0 ? c : a->kept - b->kept;
}

/*
 * Without --prune, hosts the YAML does not name stay: a MAC the YAML gives
 * to another host must not be on one of them. An input error, naming both.
 */
static int
check_kept_macs(const struct lab_inventory *cur,
    const struct lab_inventory *inv, const struct lab_host **hv,
    struct lab_err *err)
{
	struct macref	*v;
	size_t		 n = 0, max = 0, i, j, kept = 0;
	int		 rc = 0;

	/* no host kept (a re-import of the same lab): nothing to clash with */
	for (i = 0; i < cur->nhosts; i++)
		if (find_new(hv, inv->nhosts, cur->hosts[i].name) == NULL)
			kept++;
	if (kept == 0)
		return 0;
	for (i = 0; i < cur->nhosts; i++)
		max += cur->hosts[i].nnics;
	for (i = 0; i < inv->nhosts; i++)
		max += inv->hosts[i].nnics;
	if (max == 0)
		return 0;
	if ((v = calloc(max, sizeof(*v))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < inv->nhosts; i++)
		for (j = 0; j < inv->hosts[i].nnics; j++)
			v[n++] = (struct macref){ inv->hosts[i].nics[j].mac,
			    inv->hosts[i].name, 0 };
	for (i = 0; i < cur->nhosts; i++) {
		if (find_new(hv, inv->nhosts, cur->hosts[i].name) != NULL)
			continue;
		for (j = 0; j < cur->hosts[i].nnics; j++)
			v[n++] = (struct macref){ cur->hosts[i].nics[j].mac,
			    cur->hosts[i].name, 1 };
	}
	qsort(v, n, sizeof(*v), cmp_macref);
	for (i = 1; i < n && rc == 0; i++)
		if (strcmp(v[i - 1].mac, v[i].mac) == 0 && v[i].kept &&
		    !v[i - 1].kept)
			rc = lab_err_set(err, LAB_EXIT_INPUT, "mac %s of host "
			    "'%s' is already on host '%s' in the database, which "
			    "this import keeps: import the file that moves it "
			    "too, or use --prune", v[i].mac, v[i - 1].host,
			    v[i].host);
	free(v);
	return rc;
}

/* The id the first new host gets (in the write transaction). */
static int
next_host_id(struct apply *a)
{
	int	rc = lab_db_step(a->st.host_max);

	if (rc == DB_ROW)
		a->next_id = lab_db_column_int64(a->st.host_max, 0) + 1;
	lab_db_reset(a->st.host_max);
	if (rc != DB_ROW)
		return lab_db_fail(a->db, a->err, "read host ids");
	return 0;
}

/* Makes the database hold inv, in one transaction. */
static int
apply_once(struct lab_db *db, const struct lab_inventory *inv,
    int flags, int64_t now, struct lab_changes *ret, struct lab_err *err)
{
	struct apply		 a;
	struct lab_changes	 ch = { NULL, 0 };
	struct lab_inventory	*cur = NULL;
	const struct lab_host	**hv = NULL;
	const struct lab_switch	**sv = NULL;
	struct fgroup		*fv = NULL;
	size_t			 i, fn = 0;
	int			 write = !(flags & LAB_APPLY_DRY_RUN), rc = -1;
	int			 bulk;

	memset(&a, 0, sizeof(a));
	a.db = db;
	a.ch = &ch;
	a.now = now;
	a.err = err;
	hv = calloc(inv->nhosts + 1, sizeof(*hv));
	sv = calloc(inv->nswitches + 1, sizeof(*sv));
	if (hv == NULL || sv == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < inv->nhosts; i++)
		hv[i] = &inv->hosts[i];
	for (i = 0; i < inv->nswitches; i++)
		sv[i] = &inv->switches[i];
	qsort(hv, inv->nhosts, sizeof(*hv), cmp_hostp);
	qsort(sv, inv->nswitches, sizeof(*sv), cmp_switchp);
	if (write && (stmts_prepare(db, &a.st, err) == -1 ||
	    lab_db_batch_init(&a.hosts, db, "hosts (id, name, model, role, "
	    "created_at, updated_at)", 6, "write host", err) == -1 ||
	    lab_db_batch_init(&a.bmcs, db, "bmcs (host_id, type, address, port, "
	    "credential, cipher_suite, workarounds, privilege, timeout_ms, "
	    "retransmit_ms)", 10, "write bmc", err) == -1 ||
	    lab_db_batch_init(&a.ssh, db, "host_ssh (host_id, address, port, user, "
	    "identity, known_hosts, legacy_crypto)", 7, "write ssh",
	    err) == -1 ||
	    lab_db_batch_init(&a.net, db, "host_network (host_id, address, "
	    "gateway, dns)", 4, "write network", err) == -1 ||
	    lab_db_batch_init(&a.nics, db, "nics (host_id, position, name, mac, "
	    "vlan_access, vlan_trunk, vlan_native, vlan_tagged, vlan_file, "
	    "vlan_line, vlan_col, native_line, native_col)", 13, "write nic",
	    err) == -1 ||
	    lab_db_batch_init(&a.disks, db, "disks (host_id, position, slot, kind, "
	    "size_bytes, controller, device, boot)", 8, "write disk",
	    err) == -1 ||
	    lab_db_batch_init(&a.members, db, "host_groups (host_id, group_id, "
	    "position)", 3, "write group membership", err) == -1 ||
	    lab_db_begin(db, err) == -1 || next_host_id(&a) == -1))
		goto out;
	/* a host's rows are written after it (its batch flushes first) */
	a.bmcs.first = a.ssh.first = a.net.first = a.nics.first =
	    a.disks.first = a.members.first = &a.hosts;
	if (lab_db_inventory_load(db, &cur, err) == -1)
		goto out;
	if (!(flags & LAB_APPLY_PRUNE) && check_kept_macs(cur, inv, hv, err) == -1)
		goto out;
	bulk = write && cur->nhosts == 0 && inv->nhosts >= LAB_DB_BULK_HOSTS;
	if (bulk) {
		struct db_batch *bv[] = { &a.hosts, &a.bmcs, &a.ssh, &a.net,
		    &a.nics, &a.disks, &a.members };

		if (lab_db_bulk(db, 1, err) == -1)
			goto out;
		for (i = 0; i < LAB_ARRAY_SIZE(bv); i++)
			lab_db_batch_copy(bv[i]);
	}
	if (final_groups(cur, inv, hv, flags, &fv, &fn) == -1) {
		lab_err_oom(err);
		goto out;
	}
	a.fv = fv;
	a.fn = fn;
	/* groups first: memberships written with the hosts refer to them */
	if ((write && merge_groups(&a, cur, fv, fn, 1, 0) == -1) ||
	    (write && release_nics(&a, cur, hv, inv->nhosts, flags) == -1) ||
	    merge_hosts(&a, cur, hv, inv->nhosts, flags, write) == -1 ||
	    (write && (lab_db_batch_end(&a.hosts, err) == -1 ||
	    lab_db_batch_end(&a.bmcs, err) == -1 ||
	    lab_db_batch_end(&a.ssh, err) == -1 ||
	    lab_db_batch_end(&a.net, err) == -1 ||
	    lab_db_batch_end(&a.nics, err) == -1 ||
	    lab_db_batch_end(&a.disks, err) == -1 ||
	    lab_db_batch_end(&a.members, err) == -1 ||
	    lab_db_shares_apply(db, cur, inv, err) == -1)) ||
	    merge_switches(&a, cur, sv, inv->nswitches, flags, write) == -1 ||
	    merge_groups(&a, cur, fv, fn, 0, write) == -1 ||
	    lab_db_known_issues_apply(db, inv, flags, write, now, &ch,
	    err) == -1)
		goto out;
	if (bulk && lab_db_bulk(db, 0, err) == -1)
		goto out;
	if (write && lab_db_commit(db, err) == -1)
		goto out;
	*ret = ch;
	ch.v = NULL;
	ch.n = 0;
	rc = 0;
out:
	if (rc == -1 && write)
		lab_db_rollback(db);
	lab_changes_release(&ch);
	stmts_release(&a.st);
	lab_strv_release(&a.owned);
	lab_db_batch_release(&a.hosts);
	lab_db_batch_release(&a.bmcs);
	lab_db_batch_release(&a.ssh);
	lab_db_batch_release(&a.net);
	lab_db_batch_release(&a.nics);
	lab_db_batch_release(&a.disks);
	lab_db_batch_release(&a.members);
	lab_inventory_free(cur);
	free(fv);
	free(hv);
	free(sv);
	return rc;
}

/*
 * Makes the database hold inv, in one transaction, run again from the
 * start when the server ended it for a conflict (a deadlock, a
 * serialization failure): LAB_DB_TRIES runs at most.
 */
int
lab_db_inventory_apply(struct lab_db *db, const struct lab_inventory *inv,
    int flags, int64_t now, struct lab_changes *ret, struct lab_err *err)
{
	int	i, rc;

	for (i = 1;; i++) {
		rc = apply_once(db, inv, flags, now, ret, err);
		if (rc == 0 || i >= LAB_DB_TRIES || !lab_db_conflict(db))
			return rc;
		lab_err_init(err);
	}
}
