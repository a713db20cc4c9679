/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/str.h"
#include "db-priv.h"

#define FROM_DB	"(database)"

static int
step_fail(struct lab_db *db, sqlite3_stmt *st, struct lab_err *err,
    const char *what)
{
	sqlite3_finalize(st);
	return db_fail(db, err, what);
}

/* Finds the host by name in a name-sorted array, from a hint upwards. */
static struct lab_host *
host_at(struct lab_inventory *inv, const char *name, size_t *hint)
{
	while (*hint < inv->nhosts &&
	    strcmp(inv->hosts[*hint].name, name) < 0)
		(*hint)++;
	if (*hint < inv->nhosts && strcmp(inv->hosts[*hint].name, name) == 0)
		return &inv->hosts[*hint];
	return NULL;
}

/* Splits space-separated words into sv; NULL adds nothing. */
static int
split_words(struct lab_strv *sv, const char *s)
{
	const char	*p;
	size_t		 n;

	while (s != NULL && *s != '\0') {
		while (*s == ' ')
			s++;
		for (p = s; *p != '\0' && *p != ' '; p++)
			;
		n = (size_t)(p - s);
		if (n > 0 && lab_strv_take(sv, strndup(s, n)) == -1)
			return -1;
		s = p;
	}
	return 0;
}

static int
load_hosts(struct lab_db *db, struct lab_inventory *inv, const char *file,
    struct lab_err *err)
{
	sqlite3_stmt	*st;
	struct lab_host	*h;
	size_t		 cap = 0;
	int		 rc;

	if (db_prepare(db, "SELECT name, model, role FROM hosts ORDER BY name",
	    &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (inv->nhosts == cap) {
			cap = cap ? cap * 2 : 64;
			h = realloc(inv->hosts, cap * sizeof(*h));
			if (h == NULL) {
				sqlite3_finalize(st);
				return lab_err_oom(err);
			}
			inv->hosts = h;
		}
		h = &inv->hosts[inv->nhosts++];
		memset(h, 0, sizeof(*h));
		h->name = db_text(st, 0);
		h->model = db_text(st, 1);
		h->role = db_text(st, 2);
		h->loc.file = file;
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read hosts");
	sqlite3_finalize(st);
	return 0;
}

static int
load_ssh(struct lab_db *db, struct lab_inventory *inv, const char *file,
    struct lab_err *err)
{
	sqlite3_stmt	*st;
	struct lab_host	*h;
	size_t		 hint = 0;
	int		 rc;

	if (db_prepare(db, "SELECT h.name, s.address, s.port, s.user, "
	    "s.identity, s.known_hosts, s.legacy_crypto FROM host_ssh s "
	    "JOIN hosts h ON h.id = s.host_id ORDER BY h.name", &st,
	    err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		h = host_at(inv, (const char *)sqlite3_column_text(st, 0), &hint);
		if (h == NULL)
			continue;
		if ((h->ssh = calloc(1, sizeof(*h->ssh))) == NULL) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
		h->ssh->address = db_text(st, 1);
		h->ssh->port = sqlite3_column_int(st, 2);
		h->ssh->user = db_text(st, 3);
		h->ssh->identity = db_text(st, 4);
		h->ssh->known_hosts = db_text(st, 5);
		h->ssh->legacy_crypto = sqlite3_column_int(st, 6);
		h->ssh->loc.file = file;
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read ssh settings");
	sqlite3_finalize(st);
	return 0;
}

static int
load_network(struct lab_db *db, struct lab_inventory *inv, const char *file,
    struct lab_err *err)
{
	sqlite3_stmt	*st;
	struct lab_host	*h;
	size_t		 hint = 0;
	int		 rc;

	if (db_prepare(db, "SELECT h.name, n.address, n.gateway, n.dns "
	    "FROM host_network n JOIN hosts h ON h.id = n.host_id "
	    "ORDER BY h.name", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		h = host_at(inv, (const char *)sqlite3_column_text(st, 0), &hint);
		if (h == NULL)
			continue;
		if ((h->network = calloc(1, sizeof(*h->network))) == NULL ||
		    split_words(&h->network->dns,
		    (const char *)sqlite3_column_text(st, 3)) == -1) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
		h->network->address = db_text(st, 1);
		h->network->gateway = db_text(st, 2);
		h->network->loc.file = file;
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read network settings");
	sqlite3_finalize(st);
	return 0;
}

static int
load_children(struct lab_db *db, struct lab_inventory *inv, const char *file,
    struct lab_err *err)
{
	sqlite3_stmt	*st;
	struct lab_host	*h;
	struct lab_nic	*nic;
	struct lab_disk	*d;
	size_t		 hint = 0;
	int		 rc;

	if (db_prepare(db, "SELECT h.name, b.type, b.address, b.port, "
	    "b.credential, b.cipher_suite, b.workarounds, b.privilege, "
	    "b.timeout_ms, b.retransmit_ms FROM bmcs b JOIN hosts h ON "
	    "h.id = b.host_id ORDER BY h.name", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		h = host_at(inv, (const char *)sqlite3_column_text(st, 0), &hint);
		if (h == NULL || (h->bmc = calloc(1, sizeof(*h->bmc))) == NULL)
			continue;
		h->bmc->type = db_text(st, 1);
		h->bmc->address = db_text(st, 2);
		h->bmc->port = sqlite3_column_int(st, 3);
		h->bmc->credential = db_text(st, 4);
		h->bmc->cipher_suite = sqlite3_column_int(st, 5);
		if (split_words(&h->bmc->workarounds,
		    (const char *)sqlite3_column_text(st, 6)) == -1) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
		h->bmc->privilege = db_text(st, 7);
		h->bmc->timeout_ms = sqlite3_column_int(st, 8);
		h->bmc->retransmit_ms = sqlite3_column_int(st, 9);
		h->bmc->loc.file = file;
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read bmcs");
	sqlite3_finalize(st);
	if (load_ssh(db, inv, file, err) == -1 ||
	    load_network(db, inv, file, err) == -1)
		return -1;

	hint = 0;
	if (db_prepare(db, "SELECT h.name, n.name, n.mac, "
	    "(SELECT count(*) FROM nics m WHERE m.host_id = n.host_id) "
	    "FROM nics n JOIN hosts h ON h.id = n.host_id "
	    "ORDER BY h.name, n.position", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		h = host_at(inv, (const char *)sqlite3_column_text(st, 0), &hint);
		if (h == NULL)
			continue;
		if (h->nics == NULL && (h->nics = calloc((size_t)
		    sqlite3_column_int(st, 3), sizeof(*h->nics))) == NULL) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
		nic = &h->nics[h->nnics++];
		nic->name = db_text(st, 1);
		nic->mac = db_text(st, 2);
		nic->loc.file = file;
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read nics");
	sqlite3_finalize(st);

	hint = 0;
	if (db_prepare(db, "SELECT h.name, d.slot, d.kind, d.size_bytes, "
	    "d.controller, "
	    "(SELECT count(*) FROM disks e WHERE e.host_id = d.host_id), "
	    "d.device, d.boot "
	    "FROM disks d JOIN hosts h ON h.id = d.host_id "
	    "ORDER BY h.name, d.position", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		h = host_at(inv, (const char *)sqlite3_column_text(st, 0), &hint);
		if (h == NULL)
			continue;
		if (h->disks == NULL && (h->disks = calloc((size_t)
		    sqlite3_column_int(st, 5), sizeof(*h->disks))) == NULL) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
		d = &h->disks[h->ndisks++];
		d->slot = db_text(st, 1);
		d->kind = db_text(st, 2);
		d->size_bytes = (uint64_t)sqlite3_column_int64(st, 3);
		d->controller = db_text(st, 4);
		d->device = db_text(st, 6);
		d->boot = sqlite3_column_int(st, 7);
		d->loc.file = file;
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read disks");
	sqlite3_finalize(st);

	hint = 0;
	if (db_prepare(db, "SELECT h.name, g.name FROM host_groups hg "
	    "JOIN hosts h ON h.id = hg.host_id JOIN groups g ON "
	    "g.id = hg.group_id ORDER BY h.name, hg.position", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		h = host_at(inv, (const char *)sqlite3_column_text(st, 0), &hint);
		if (h != NULL && lab_strv_add(&h->groups,
		    (const char *)sqlite3_column_text(st, 1)) == -1) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read groups");
	sqlite3_finalize(st);
	return 0;
}

static int
load_switches(struct lab_db *db, struct lab_inventory *inv, const char *file,
    struct lab_err *err)
{
	sqlite3_stmt		*st;
	struct lab_switch	*s;
	int			 rc;

	if (db_prepare(db, "SELECT name, model, address, port, snmp_version, "
	    "snmp_credential, snmp_context, snmp_timeout_ms, snmp_retries "
	    "FROM switches ORDER BY name", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		s = realloc(inv->switches, (inv->nswitches + 1) * sizeof(*s));
		if (s == NULL) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
		inv->switches = s;
		s = &inv->switches[inv->nswitches++];
		memset(s, 0, sizeof(*s));
		s->name = db_text(st, 0);
		s->model = db_text(st, 1);
		s->address = db_text(st, 2);
		s->port = sqlite3_column_int(st, 3);
		s->snmp.version = db_text(st, 4);
		s->snmp.credential = db_text(st, 5);
		s->snmp.context = db_text(st, 6);
		s->snmp.timeout_ms = sqlite3_column_int(st, 7);
		s->snmp.retries = sqlite3_column_type(st, 8) == SQLITE_NULL ?
		    -1 : sqlite3_column_int(st, 8);
		s->loc.file = file;
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read switches");
	sqlite3_finalize(st);
	return 0;
}

static int
load_groups(struct lab_db *db, struct lab_inventory *inv, const char *file,
    struct lab_err *err)
{
	sqlite3_stmt		*st;
	struct lab_group	*g;
	int			 rc;

	if (db_prepare(db, "SELECT name, description FROM groups "
	    "WHERE declared ORDER BY name", &st, err) == -1)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		g = realloc(inv->groups, (inv->ngroups + 1) * sizeof(*g));
		if (g == NULL) {
			sqlite3_finalize(st);
			return lab_err_oom(err);
		}
		inv->groups = g;
		g = &inv->groups[inv->ngroups++];
		memset(g, 0, sizeof(*g));
		g->name = db_text(st, 0);
		g->description = db_text(st, 1);
		g->loc.file = file;
	}
	if (rc != SQLITE_DONE)
		return step_fail(db, st, err, "read groups");
	sqlite3_finalize(st);
	return 0;
}

/* Reads the whole inventory, sorted by name. */
int
lab_db_inventory_load(struct lab_db *db, struct lab_inventory **ret,
    struct lab_err *err)
{
	struct lab_inventory	*inv;
	const char		*file;
	int			 rc = -1, own_tx;

	if ((inv = lab_inventory_new()) == NULL ||
	    lab_strv_add(&inv->files, FROM_DB) == -1) {
		lab_inventory_free(inv);
		return lab_err_oom(err);
	}
	file = inv->files.v[0];
	/* one read transaction: a consistent snapshot across the tables */
	own_tx = sqlite3_get_autocommit(db->h);
	if (own_tx && sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(db, err, "begin");
		goto out;
	}
	if (load_hosts(db, inv, file, err) == 0 &&
	    load_children(db, inv, file, err) == 0 &&
	    load_switches(db, inv, file, err) == 0 &&
	    load_groups(db, inv, file, err) == 0)
		rc = 0;
	if (own_tx)
		sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
out:
	if (rc == 0)
		*ret = inv;
	else
		lab_inventory_free(inv);
	return rc;
}
