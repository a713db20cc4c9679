/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/facts.h"
#include "lab/file.h"
#include "lab/inventory.h"
#include "lab/ipmi.h"
#include "lab/model.h"
#include "lab/parse.h"
#include "lab/subnet.h"
#include "inventory-priv.h"
#include "core/schema.h"
#include "core/yaml-priv.h"

/* The keys each mapping may hold: the YAML contract (add, never rename). */
static const char *const top_keys[] = { "hosts", "switches", "groups",
	"known_issues", NULL };
static const char *const host_keys[] = { "name", "model", "role", "groups",
	"bmc", "ssh", "network", "nics", "disks", "shares", "mounts",
	"iscsi_initiator", NULL };
static const char *const bmc_keys[] = { "type", "address", "port",
	"credential", "cipher_suite", "workarounds", "privilege", "timeout",
	"retransmit", NULL };
static const char *const nic_keys[] = { "name", "mac", "vlan", "vlans",
	"native", "tagged", NULL };
static const char *const disk_keys[] = { "slot", "kind", "size", "controller",
	"device", "boot", NULL };
static const char *const ssh_keys[] = { "address", "port", "user", "identity",
	"known_hosts", "legacy_crypto", NULL };
static const char *const network_keys[] = { "address", "gateway", "dns",
	NULL };
static const char *const switch_keys[] = { "name", "model", "address", "port",
	"snmp", "vlans", "ports", "management_vlan", "uplinks", NULL };
static const char *const snmp_keys[] = { "version", "credential", "context",
	"timeout", "retries", NULL };
static const char *const group_keys[] = { "name", "description", NULL };
static const char *const disk_kinds[] = { "sata", "sas", "ssd", "nvme", NULL };
static const char *const bmc_types[] = { "rac", "ilo2", "ipmi", NULL };
static const char *const snmp_versions[] = { "1", "2c", "3", NULL };

struct ctx {
	struct lab_inventory	*inv;
	const char		*file;
	struct lab_err		*err;
	struct lab_pool		*pool;	/* the inventory's */
};

static int LAB_PRINTF(3, 4)
fail(struct ctx *c, const struct ynode *n, const char *fmt, ...)
{
	va_list	ap;
	int	rc;

	va_start(ap, fmt);
	rc = lab_schema_vfail(c->err, c->file, n, fmt, ap);
	va_end(ap);
	return rc;
}

static void LAB_PRINTF(3, 4)
warn(struct ctx *c, const struct ynode *n, const char *fmt, ...)
{
	struct lab_warning	*w;
	struct lab_inventory	*inv = c->inv;
	char			 msg[400];
	va_list			 ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	w = realloc(inv->warnings, (inv->nwarnings + 1) * sizeof(*w));
	if (w == NULL)
		return;
	inv->warnings = w;
	w = &inv->warnings[inv->nwarnings];
	if ((w->msg = strdup(msg)) == NULL)
		return;
	w->loc.file = c->file;
	w->loc.line = n->line;
	w->loc.col = n->col;
	inv->nwarnings++;
}

/*
 * a, b and c joined into buf (cut to fit): the labels every item of a big
 * inventory builds for its error messages, without snprintf's cost.
 */
static const char *
cat3(char *buf, size_t len, const char *a, const char *b, const char *c)
{
	const char	*parts[3] = { a, b, c };
	size_t		 off = 0, n, i;

	for (i = 0; i < 3; i++) {
		n = strlen(parts[i]);
		if (n > len - 1 - off)
			n = len - 1 - off;
		memcpy(buf + off, parts[i], n);
		off += n;
	}
	buf[off] = '\0';
	return buf;
}

static struct lab_loc
loc_of(struct ctx *c, const struct ynode *n)
{
	struct lab_loc	l = { c->file, n->line, n->col };

	return l;
}

static const char *
kind_name(const struct ynode *n)
{
	if (lab_yaml_is_null(n))
		return "nothing";
	switch (n->kind) {
	case YNODE_SEQ:
		return "a list";
	case YNODE_MAP:
		return "a mapping";
	default:
		return "a value";
	}
}

/* Refuses any key not in keys, suggesting the nearest. */
static int
check_keys(struct ctx *c, const struct ynode *map, const char *const *keys,
    const char *what)
{
	return lab_schema_keys(c->file, map, keys, what, c->err);
}

static const struct ynode *
get(const struct ynode *map, const char *key)
{
	return lab_schema_get(map, key);
}

static int
want_kind(struct ctx *c, const struct ynode *n, enum ynode_kind kind,
    const char *what)
{
	static const char *const names[] = { "a value", "a list", "a mapping" };

	if (n->kind == kind && !(kind == YNODE_SCALAR && lab_yaml_is_null(n)))
		return 0;
	return fail(c, n, "%s must be %s, not %s", what, names[kind],
	    kind_name(n));
}

/*
 * The node of a required (or optional, when opt) string under key: a
 * non-empty scalar; *ret is NULL when an optional one is absent.
 */
static int
want_value(struct ctx *c, const struct ynode *map, const char *key,
    const char *what, int opt, const struct ynode **ret)
{
	const struct ynode	*n = get(map, key);
	char			 label[128];

	*ret = NULL;
	if (n == NULL || (opt && lab_yaml_is_null(n))) {
		if (opt)
			return 0;
		return fail(c, map, "%s has no '%s'", what, key);
	}
	if (n->kind != YNODE_SCALAR || n->len == 0 || lab_yaml_is_null(n)) {
		snprintf(label, sizeof(label), "'%s' of %s", key, what);
		if (want_kind(c, n, YNODE_SCALAR, label) == -1)
			return -1;
		return fail(c, n, "%s cannot be empty", label);
	}
	*ret = n;
	return 0;
}

/* A required (or optional, when opt) string under key. */
static int
want_str(struct ctx *c, const struct ynode *map, const char *key,
    const char *what, int opt, char **ret)
{
	const struct ynode	*n;

	if (want_value(c, map, key, what, opt, &n) == -1)
		return -1;
	if (n != NULL &&
	    (*ret = lab_pool_strndup(c->pool, n->value, n->len)) == NULL)
		return lab_err_oom(c->err);
	return 0;
}

/* A string that must be a plain name. */
static int
want_name(struct ctx *c, const struct ynode *map, const char *key,
    const char *what, int opt, char **ret)
{
	const char	*why;

	if (want_str(c, map, key, what, opt, ret) == -1)
		return -1;
	if (*ret != NULL && lab_check_name(*ret, &why) == -1)
		return fail(c, get(map, key), "bad %s '%.64s' in %s: %s", key,
		    *ret, what, why);
	return 0;
}

/* A string that must be one of words. */
static int
want_word(struct ctx *c, const struct ynode *map, const char *key,
    const char *what, const char *const *words, int opt, char **ret)
{
	if (want_str(c, map, key, what, opt, ret) == -1 || *ret == NULL)
		return opt && *ret == NULL && c->err->code == 0 ? 0 : -1;
	return lab_schema_word(c->file, get(map, key), key, *ret, what, words,
	    c->err);
}

/* An optional integer in [min, max]; *ret is left alone when absent. */
static int
want_int(struct ctx *c, const struct ynode *map, const char *key,
    const char *what, long min, long max, int *ret)
{
	const struct ynode	*n = get(map, key);
	long			 v;

	if (n == NULL || lab_yaml_is_null(n))
		return 0;
	if (n->kind == YNODE_SCALAR && !n->plain &&
	    lab_parse_int(n->value, min, max, &v) == 0)
		return fail(c, n, "'%s' of %s is a quoted string: write the "
		    "number %s without quotes", key, what, n->value);
	if (n->kind != YNODE_SCALAR || !n->plain ||
	    lab_parse_int(n->value, min, max, &v) == -1)
		return fail(c, n, "'%s' of %s must be a whole number from "
		    "%ld to %ld", key, what, min, max);
	*ret = (int)v;
	return 0;
}

/* An optional true/false; *ret is left alone when absent. */
static int
want_bool(struct ctx *c, const struct ynode *map, const char *key,
    const char *what, int *ret)
{
	const struct ynode	*n = get(map, key);

	if (n == NULL || lab_yaml_is_null(n))
		return 0;
	if (n->kind == YNODE_SCALAR && n->plain) {
		if (strcmp(n->value, "true") == 0) {
			*ret = 1;
			return 0;
		}
		if (strcmp(n->value, "false") == 0) {
			*ret = 0;
			return 0;
		}
	}
	return fail(c, n, "'%s' of %s must be true or false", key, what);
}

/* An optional absolute path under key. */
static int
want_path(struct ctx *c, const struct ynode *map, const char *key,
    const char *what, char **ret)
{
	if (want_str(c, map, key, what, 1, ret) == -1)
		return -1;
	if (*ret == NULL)
		return 0;
	if ((*ret)[0] != '/' && strncmp(*ret, "~/", 2) != 0)
		return fail(c, get(map, key), "'%s' of %s must be an absolute "
		    "path (or start with ~/), not '%.64s'", key, what, *ret);
	if (strchr(*ret, '\n') != NULL || strchr(*ret, '\'') != NULL)
		return fail(c, get(map, key), "'%s' of %s holds a quote or a "
		    "newline", key, what);
	return 0;
}

/* An address (IP literal or host name). */
static int
want_address(struct ctx *c, const struct ynode *map, const char *what,
    char **ret)
{
	const char	*why;

	if (want_str(c, map, "address", what, 0, ret) == -1)
		return -1;
	if (lab_check_address(*ret, &why) == -1)
		return fail(c, get(map, "address"), "bad address '%.64s' in "
		    "%s: %s", *ret, what, why);
	return 0;
}

static int
want_model(struct ctx *c, const struct ynode *map, const char *what,
    enum lab_model_kind kind, char **ret)
{
	const struct lab_model	*all, *m;
	const char		*ids[32], *near;
	char			 known[512];
	size_t			 n, i, k = 0;

	if (want_str(c, map, "model", what, 0, ret) == -1)
		return -1;
	all = lab_model_all(&n);
	for (i = 0; i < n && k + 1 < LAB_ARRAY_SIZE(ids); i++)
		if (all[i].kind == kind)
			ids[k++] = all[i].id;
	ids[k] = NULL;
	m = lab_model_find(*ret);
	if (m != NULL && m->kind == kind)
		return 0;
	lab_schema_join(ids, known, sizeof(known));
	if (m != NULL)
		return fail(c, get(map, "model"), "model '%s' of %s is not a "
		    "%s (known: %s)", *ret, what,
		    kind == LAB_MODEL_SWITCH ? "switch" : "server", known);
	near = lab_suggest(*ret, ids, k);
	if (near != NULL)
		return fail(c, get(map, "model"), "unknown model '%.64s' in "
		    "%s; did you mean '%s'? (known: %s)", *ret, what, near,
		    known);
	return fail(c, get(map, "model"), "unknown model '%.64s' in %s "
	    "(known: %s)", *ret, what, known);
}

/* FreeIPMI workaround words, checked against the IPMI layer's list. */
static int
load_workarounds(struct ctx *c, const struct ynode *seq, struct lab_bmc *b,
    const char *what)
{
	const struct ynode	*n;
	char			 label[128], *p;
	unsigned		 bits = 0;
	size_t			 i;

	if (seq == NULL || lab_yaml_is_null(seq))
		return 0;
	snprintf(label, sizeof(label), "'workarounds' of %s", what);
	if (want_kind(c, seq, YNODE_SEQ, label) == -1)
		return -1;
	if (lab_strv_pool(&b->workarounds, c->pool, seq->n) == -1)
		return lab_err_oom(c->err);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (want_kind(c, n, YNODE_SCALAR, "a workaround") == -1)
			return -1;
		if (lab_ipmi_workaround_parse(n->value, &bits) == -1)
			return fail(c, n, "unknown IPMI workaround '%.64s' in "
			    "%s (FreeIPMI's words, as in ipmipower -W: "
			    "opensesspriv, authcap, intel20, supermicro20, "
			    "sun20, ...)", n->value, what);
		if (lab_strv_find(&b->workarounds, n->value) >= 0)
			return fail(c, n, "workaround '%s' listed twice",
			    n->value);
		if ((p = lab_pool_strdup(c->pool, n->value)) == NULL)
			return lab_err_oom(c->err);
		lab_strv_put(&b->workarounds, p);
	}
	return 0;
}

static int
load_bmc(struct ctx *c, const struct ynode *n, struct lab_host *h)
{
	const struct lab_model	*m = lab_model_find(h->model);
	struct lab_bmc		*b;
	char			 what[96], kinds[32];
	unsigned		 kind;
	int			 timeout = 0;

	cat3(what, sizeof(what), "the bmc of host '", h->name, "'");
	if (want_kind(c, n, YNODE_MAP, what) == -1 ||
	    check_keys(c, n, bmc_keys, "bmc") == -1)
		return -1;
	if ((b = h->bmc = lab_pool_alloc(c->pool, sizeof(*b))) == NULL)
		return lab_err_oom(c->err);
	b->port = 623;
	b->cipher_suite = 3;
	b->loc = loc_of(c, n);
	if (want_word(c, n, "type", what, bmc_types, 0, &b->type) == -1 ||
	    want_address(c, n, what, &b->address) == -1 ||
	    want_int(c, n, "port", what, 1, 65535, &b->port) == -1 ||
	    want_name(c, n, "credential", what, 0, &b->credential) == -1 ||
	    want_int(c, n, "cipher_suite", what, 0, 17, &b->cipher_suite) == -1)
		return -1;
	if (b->cipher_suite == 0)
		return fail(c, get(n, "cipher_suite"), "cipher suite 0 in %s "
		    "sends the password without authentication: refused; "
		    "use 3 (the default) or another suite the BMC offers",
		    what);
	if (want_word(c, n, "privilege", what, lab_ipmi_priv_words, 1,
	    &b->privilege) == -1 ||
	    want_int(c, n, "timeout", what, 1, 600, &timeout) == -1 ||
	    want_int(c, n, "retransmit", what, 10, 60000,
	    &b->retransmit_ms) == -1 ||
	    load_workarounds(c, get(n, "workarounds"), b, what) == -1)
		return -1;
	b->timeout_ms = timeout * 1000;
	kind = lab_bmc_kind_parse(b->type);
	if (m->bmc_kinds == 0)
		warn(c, n, "host '%s': model %s cannot carry a BMC, yet one is "
		    "declared", h->name, m->id);
	else if ((m->bmc_kinds & kind) == 0) {
		lab_bmc_kinds_format(m->bmc_kinds, kinds, sizeof(kinds));
		warn(c, n, "host '%s': model %s carries %s, not %s", h->name,
		    m->id, kinds, b->type);
	}
	return 0;
}

static int
load_ssh(struct ctx *c, const struct ynode *n, struct lab_host *h)
{
	struct lab_ssh_cfg	*ssh;
	char			 what[96];
	const char		*why;

	snprintf(what, sizeof(what), "the ssh of host '%s'", h->name);
	if (want_kind(c, n, YNODE_MAP, what) == -1 ||
	    check_keys(c, n, ssh_keys, "ssh") == -1)
		return -1;
	if ((ssh = h->ssh = lab_pool_alloc(c->pool, sizeof(*ssh))) == NULL)
		return lab_err_oom(c->err);
	ssh->port = 22;
	ssh->loc = loc_of(c, n);
	if (want_address(c, n, what, &ssh->address) == -1 ||
	    want_int(c, n, "port", what, 1, 65535, &ssh->port) == -1 ||
	    want_str(c, n, "user", what, 1, &ssh->user) == -1 ||
	    want_path(c, n, "identity", what, &ssh->identity) == -1 ||
	    want_path(c, n, "known_hosts", what, &ssh->known_hosts) == -1 ||
	    want_bool(c, n, "legacy_crypto", what, &ssh->legacy_crypto) == -1)
		return -1;
	if (ssh->user != NULL && lab_check_name(ssh->user, &why) == -1)
		return fail(c, get(n, "user"), "bad user '%.64s' in %s: %s",
		    ssh->user, what, why);
	if (ssh->user == NULL &&
	    (ssh->user = lab_pool_strdup(c->pool, "root")) == NULL)
		return lab_err_oom(c->err);
	return 0;
}

static int
load_network(struct ctx *c, const struct ynode *n, struct lab_host *h)
{
	struct lab_netcfg	*net;
	const struct ynode	*seq, *v;
	char			 what[96], *p;
	const char		*why;
	size_t			 i;

	snprintf(what, sizeof(what), "the network of host '%s'", h->name);
	if (want_kind(c, n, YNODE_MAP, what) == -1 ||
	    check_keys(c, n, network_keys, "network") == -1)
		return -1;
	if ((net = h->network = lab_pool_alloc(c->pool, sizeof(*net))) == NULL)
		return lab_err_oom(c->err);
	net->loc = loc_of(c, n);
	if (want_str(c, n, "address", what, 1, &net->address) == -1 ||
	    want_str(c, n, "gateway", what, 1, &net->gateway) == -1)
		return -1;
	if (net->address != NULL &&
	    lab_check_cidr(net->address, &why) == -1)
		return fail(c, get(n, "address"), "bad address '%.64s' in %s: "
		    "%s", net->address, what, why);
	if (net->gateway != NULL && (lab_check_ip(net->gateway, &why) == -1))
		return fail(c, get(n, "gateway"), "bad gateway '%.64s' in %s: "
		    "%s", net->gateway, what, why);
	if (net->gateway != NULL && net->address == NULL)
		return fail(c, get(n, "gateway"), "%s has a gateway but no "
		    "address (without an address the host uses DHCP)", what);
	/* a gateway off the host's own network is unreachable from it */
	if (net->gateway != NULL &&
	    lab_subnet_has(net->address, net->gateway) != 1)
		return fail(c, get(n, "gateway"), "gateway '%.64s' of %s is "
		    "outside its network %.64s", net->gateway, what,
		    net->address);
	if ((seq = get(n, "dns")) == NULL || lab_yaml_is_null(seq))
		return 0;
	if (want_kind(c, seq, YNODE_SEQ, "'dns'") == -1)
		return -1;
	if (lab_strv_pool(&net->dns, c->pool, seq->n) == -1)
		return lab_err_oom(c->err);
	for (i = 0; i < seq->n; i++) {
		v = seq->items[i];
		if (want_kind(c, v, YNODE_SCALAR, "a dns server") == -1)
			return -1;
		if (lab_check_ip(v->value, &why) == -1)
			return fail(c, v, "bad dns server '%.64s' in %s: %s",
			    v->value, what, why);
		if ((p = lab_pool_strdup(c->pool, v->value)) == NULL)
			return lab_err_oom(c->err);
		lab_strv_put(&net->dns, p);
	}
	return 0;
}

static int
load_nics(struct ctx *c, const struct ynode *seq, struct lab_host *h)
{
	const struct ynode	*n;
	struct lab_nic		*nic;
	const struct ynode	*raw;
	char			 what[96], mac[18];
	const char		*why;
	size_t			 i, j;

	cat3(what, sizeof(what), "'nics' of host '", h->name, "'");
	if (want_kind(c, seq, YNODE_SEQ, what) == -1)
		return -1;
	if ((h->nics = lab_pool_alloc(c->pool, (seq->n ? seq->n : 1) *
	    sizeof(*h->nics))) == NULL)
		return lab_err_oom(c->err);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		cat3(what, sizeof(what), "a nic of host '", h->name, "'");
		if (want_kind(c, n, YNODE_MAP, what) == -1 ||
		    check_keys(c, n, nic_keys, "nic") == -1)
			return -1;
		nic = &h->nics[h->nnics++];
		nic->loc = loc_of(c, n);
		if (want_name(c, n, "name", what, 0, &nic->name) == -1 ||
		    want_value(c, n, "mac", what, 0, &raw) == -1)
			return -1;
		if (lab_parse_mac(raw->value, mac, &why) == -1)
			return fail(c, raw, "bad mac '%.64s' of nic '%s' of "
			    "host '%s': %s", raw->value, nic->name, h->name,
			    why);
		if ((nic->mac = lab_pool_strdup(c->pool, mac)) == NULL)
			return lab_err_oom(c->err);
		for (j = 0; j + 1 < h->nnics; j++)
			if (strcmp(h->nics[j].name, nic->name) == 0)
				return fail(c, get(n, "name"), "host '%s' has "
				    "nic '%s' twice (first at line %d)",
				    h->name, nic->name, h->nics[j].loc.line);
		/* name and mac are 4 items: any more is a VLAN key */
		if (n->n <= 4)
			continue;
		snprintf(what, sizeof(what), "nic '%.32s' of host '%.32s'",
		    nic->name, h->name);
		if (lab_load_vlan_want(c->file, c->pool, n, 1, what,
		    &nic->vlan, c->err) == -1)
			return -1;
	}
	return 0;
}

/* Warns where a disk contradicts the host's model. */
static void
check_disk(struct ctx *c, const struct ynode *n, const struct lab_host *h,
    const struct lab_disk *d)
{
	const struct lab_model	*m = lab_model_find(h->model);
	long			 slot;
	size_t			 i;

	if (m->drive_bays == 0)
		return;
	if (lab_parse_int(d->slot, 0, 1000, &slot) == 0) {
		if (slot < 1 || slot > m->drive_bays)
			warn(c, n, "host '%s': disk in slot %ld, but model %s "
			    "has %d bays", h->name, slot, m->id, m->drive_bays);
	} else {
		for (i = 0; m->extra_slots[i] != NULL; i++)
			if (strcmp(m->extra_slots[i], d->slot) == 0)
				break;
		if (m->extra_slots[i] == NULL)
			warn(c, n, "host '%s': model %s has no slot '%s'",
			    h->name, m->id, d->slot);
	}
	if (strcmp(d->kind, "ssd") != 0)
		return;
	for (i = 0; m->ide_slots[i] != NULL; i++)
		if (strcmp(m->ide_slots[i], d->slot) == 0)
			warn(c, n, "host '%s': the ssd in slot '%s' is on an "
			    "IDE-emulation port (about 132 MB/s, no NCQ), the "
			    "slowest port for a cache or log device", h->name,
			    d->slot);
}

static int
load_disks(struct ctx *c, const struct ynode *seq, struct lab_host *h)
{
	const struct ynode	*n, *s;
	struct lab_disk		*d;
	const struct ynode	*raw;
	char			 what[96];
	const char		*why;
	size_t			 i, j;

	cat3(what, sizeof(what), "'disks' of host '", h->name, "'");
	if (want_kind(c, seq, YNODE_SEQ, what) == -1)
		return -1;
	if ((h->disks = lab_pool_alloc(c->pool, (seq->n ? seq->n : 1) *
	    sizeof(*h->disks))) == NULL)
		return lab_err_oom(c->err);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		cat3(what, sizeof(what), "a disk of host '", h->name, "'");
		if (want_kind(c, n, YNODE_MAP, what) == -1 ||
		    check_keys(c, n, disk_keys, "disk") == -1)
			return -1;
		d = &h->disks[h->ndisks++];
		d->loc = loc_of(c, n);
		if (want_name(c, n, "slot", what, 0, &d->slot) == -1 ||
		    want_word(c, n, "kind", what, disk_kinds, 0, &d->kind) == -1 ||
		    want_value(c, n, "size", what, 0, &raw) == -1)
			return -1;
		if (lab_parse_size(raw->value, &d->size_bytes, &why) == -1)
			return fail(c, raw, "bad size '%.64s' of disk in slot "
			    "%s of host '%s': %s", raw->value, d->slot, h->name,
			    why);
		if (d->size_bytes == 0)
			return fail(c, get(n, "size"), "disk in slot %s of "
			    "host '%s' has size 0", d->slot, h->name);
		if (want_name(c, n, "controller", what, 1, &d->controller) == -1 ||
		    want_path(c, n, "device", what, &d->device) == -1 ||
		    want_bool(c, n, "boot", what, &d->boot) == -1)
			return -1;
		if (d->device != NULL && strncmp(d->device, "/dev/", 5) != 0)
			return fail(c, get(n, "device"), "device '%.64s' of the "
			    "disk in slot %s of host '%s' is not under /dev/ "
			    "(use a stable /dev/disk/by-id/... path)",
			    d->device, d->slot, h->name);
		s = get(n, "slot");
		for (j = 0; d->device != NULL && j + 1 < h->ndisks; j++)
			if (h->disks[j].device != NULL &&
			    strcmp(h->disks[j].device, d->device) == 0)
				return fail(c, get(n, "device"), "host '%s' "
				    "has device %s twice (first at line %d)",
				    h->name, d->device, h->disks[j].loc.line);
		for (j = 0; j + 1 < h->ndisks; j++)
			if (strcmp(h->disks[j].slot, d->slot) == 0)
				return fail(c, s, "host '%s' has two disks in "
				    "slot %s (first at line %d)", h->name,
				    d->slot, h->disks[j].loc.line);
		check_disk(c, n, h, d);
	}
	return 0;
}

static int
load_groups_of(struct ctx *c, const struct ynode *seq, struct lab_host *h)
{
	const struct ynode	*n;
	const char		*why;
	char			 what[96], *p;
	size_t			 i;

	cat3(what, sizeof(what), "'groups' of host '", h->name, "'");
	if (want_kind(c, seq, YNODE_SEQ, what) == -1)
		return -1;
	if (lab_strv_pool(&h->groups, c->pool, seq->n) == -1)
		return lab_err_oom(c->err);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (want_kind(c, n, YNODE_SCALAR, "a group") == -1)
			return -1;
		if (lab_check_name(n->value, &why) == -1)
			return fail(c, n, "bad group name '%.64s': %s",
			    n->value, why);
		if (lab_strv_find(&h->groups, n->value) >= 0)
			return fail(c, n, "host '%s' lists group '%s' twice",
			    h->name, n->value);
		if ((p = lab_pool_strdup(c->pool, n->value)) == NULL)
			return lab_err_oom(c->err);
		lab_strv_put(&h->groups, p);
	}
	return 0;
}

static int
load_host(struct ctx *c, const struct ynode *n)
{
	struct lab_inventory	*inv = c->inv;
	const struct ynode	*v;
	struct lab_host		*h;
	char			 what[96];

	if (want_kind(c, n, YNODE_MAP, "a host") == -1 ||
	    check_keys(c, n, host_keys, "host") == -1)
		return -1;
	if ((h = lab_push(&inv->hosts, &inv->nhosts, sizeof(*h))) == NULL)
		return lab_err_oom(c->err);
	h->loc = loc_of(c, n);
	if (want_name(c, n, "name", "a host", 0, &h->name) == -1)
		return -1;
	cat3(what, sizeof(what), "host '", h->name, "'");
	if (want_model(c, n, what, LAB_MODEL_SERVER, &h->model) == -1 ||
	    want_str(c, n, "role", what, 1, &h->role) == -1)
		return -1;
	if ((v = get(n, "groups")) != NULL && !lab_yaml_is_null(v) &&
	    load_groups_of(c, v, h) == -1)
		return -1;
	if ((v = get(n, "bmc")) != NULL && !lab_yaml_is_null(v) &&
	    load_bmc(c, v, h) == -1)
		return -1;
	if ((v = get(n, "ssh")) != NULL && !lab_yaml_is_null(v) &&
	    load_ssh(c, v, h) == -1)
		return -1;
	if ((v = get(n, "network")) != NULL && !lab_yaml_is_null(v) &&
	    load_network(c, v, h) == -1)
		return -1;
	if ((v = get(n, "nics")) != NULL && !lab_yaml_is_null(v) &&
	    load_nics(c, v, h) == -1)
		return -1;
	if ((v = get(n, "disks")) != NULL && !lab_yaml_is_null(v) &&
	    load_disks(c, v, h) == -1)
		return -1;
	return lab_load_shares(c->file, c->pool, n, h, c->err);
}

static int
load_snmp(struct ctx *c, const struct ynode *n, struct lab_switch *s)
{
	char		 what[96];
	int		 timeout = 0;

	cat3(what, sizeof(what), "the snmp of switch '", s->name, "'");
	if (want_kind(c, n, YNODE_MAP, what) == -1 ||
	    check_keys(c, n, snmp_keys, "snmp") == -1)
		return -1;
	if (want_word(c, n, "version", what, snmp_versions, 0,
	    &s->snmp.version) == -1 ||
	    want_name(c, n, "credential", what, 0, &s->snmp.credential) == -1 ||
	    want_str(c, n, "context", what, 1, &s->snmp.context) == -1 ||
	    want_int(c, n, "timeout", what, 1, 600, &timeout) == -1 ||
	    want_int(c, n, "retries", what, 0, 10, &s->snmp.retries) == -1)
		return -1;
	s->snmp.timeout_ms = timeout * 1000;
	return 0;
}

static int
load_switch(struct ctx *c, const struct ynode *n)
{
	struct lab_inventory	*inv = c->inv;
	const struct ynode	*v;
	struct lab_switch	*s;
	char			 what[96];

	if (want_kind(c, n, YNODE_MAP, "a switch") == -1 ||
	    check_keys(c, n, switch_keys, "switch") == -1)
		return -1;
	if ((s = lab_push(&inv->switches, &inv->nswitches, sizeof(*s))) == NULL)
		return lab_err_oom(c->err);
	s->port = 161;
	s->snmp.retries = -1;
	s->loc = loc_of(c, n);
	if (want_name(c, n, "name", "a switch", 0, &s->name) == -1)
		return -1;
	cat3(what, sizeof(what), "switch '", s->name, "'");
	if (want_model(c, n, what, LAB_MODEL_SWITCH, &s->model) == -1 ||
	    want_address(c, n, what, &s->address) == -1 ||
	    want_int(c, n, "port", what, 1, 65535, &s->port) == -1)
		return -1;
	if ((v = get(n, "snmp")) != NULL && !lab_yaml_is_null(v) &&
	    load_snmp(c, v, s) == -1)
		return -1;
	return lab_load_switch_vlans(c->file, c->pool, n, s, what, c->err);
}

static int
load_group(struct ctx *c, const struct ynode *n)
{
	struct lab_inventory	*inv = c->inv;
	struct lab_group	*g;

	if (want_kind(c, n, YNODE_MAP, "a group") == -1 ||
	    check_keys(c, n, group_keys, "group") == -1)
		return -1;
	if ((g = lab_push(&inv->groups, &inv->ngroups, sizeof(*g))) == NULL)
		return lab_err_oom(c->err);
	g->loc = loc_of(c, n);
	if (want_name(c, n, "name", "a group", 0, &g->name) == -1 ||
	    want_str(c, n, "description", "a group", 1, &g->description) == -1)
		return -1;
	return 0;
}

static int
load_list(struct ctx *c, const struct ynode *root, const char *key,
    int (*fn)(struct ctx *, const struct ynode *))
{
	const struct ynode	*seq = get(root, key);
	char			 what[32];
	size_t			 i;

	if (seq == NULL || lab_yaml_is_null(seq))
		return 0;
	snprintf(what, sizeof(what), "'%s'", key);
	if (want_kind(c, seq, YNODE_SEQ, what) == -1)
		return -1;
	for (i = 0; i < seq->n; i++)
		if (fn(c, seq->items[i]) == -1)
			return -1;
	return 0;
}

/* One known issue (lib/inventory/known-issues.c), into inv->known. */
static int
load_known(struct ctx *c, const struct ynode *n)
{
	struct lab_inventory	*inv = c->inv;

	if (inv->known == NULL) {
		if ((inv->known = malloc(sizeof(*inv->known))) == NULL)
			return lab_err_oom(c->err);
		lab_known_issues_init(inv->known);
	}
	return lab_known_issue_load_item(inv->known, c->file, n, c->err);
}

/* Checks and loads a file's tree: hosts, switches, groups, known issues. */
static int
load_root(struct ctx *c, const struct ynode *root)
{
	if (root == NULL || lab_yaml_is_null(root))
		return 0;
	if (root->kind != YNODE_MAP)
		return fail(c, root, "an inventory file is a mapping with hosts, "
		    "switches and groups, not %s", kind_name(root));
	if (check_keys(c, root, top_keys, "the inventory") == -1 ||
	    load_list(c, root, "groups", load_group) == -1 ||
	    load_list(c, root, "hosts", load_host) == -1 ||
	    load_list(c, root, "switches", load_switch) == -1 ||
	    load_list(c, root, "known_issues", load_known) == -1)
		return -1;
	return 0;
}

/* One item of a top-level list, as the loader reads it. */
static int
load_item(void *arg, const char *key, const struct ynode *n)
{
	struct ctx	*c = arg;

	if (strcmp(key, "hosts") == 0)
		return load_host(c, n);
	if (strcmp(key, "switches") == 0)
		return load_switch(c, n);
	if (strcmp(key, "groups") == 0)
		return load_group(c, n);
	if (strcmp(key, "known_issues") == 0)
		return load_known(c, n);
	return 0;	/* an unknown key: load_root refuses it */
}

/*
 * Loads YAML from memory, as if read from a file called name. Each host,
 * switch and group is checked as soon as it is read, and the memory of
 * its tree used again for the next (a 10,000-host file is a million
 * nodes). On any error the file is read again the plain way, the whole
 * tree and then the checks in their order, so that the error reported
 * is the one that comes first in that order.
 */
int
lab_inventory_load_buf(struct lab_inventory *inv, const char *name,
    const char *buf, size_t len, struct lab_err *err)
{
	struct ynode	*root = NULL;
	struct ctx	 c = { inv, NULL, err, &inv->pool };
	size_t		 nh = inv->nhosts, ns = inv->nswitches;
	size_t		 ng = inv->ngroups, nw = inv->nwarnings;
	size_t		 nk = inv->known != NULL ? inv->known->n : 0;
	int		 rc;

	if (lab_strv_add(&inv->files, name) == -1)
		return lab_err_oom(err);
	c.file = inv->files.v[inv->files.n - 1];
	if (lab_yaml_tree_stream(c.file, buf, len, load_item, &c, &root,
	    err) == 0) {
		rc = load_root(&c, root);
		lab_yaml_tree_free(root);
		if (rc == 0)
			return 0;
	}
	lab_inventory_truncate(inv, nh, ns, ng, nw);
	if (inv->known != NULL)
		inv->known->n = nk;
	lab_err_init(err);
	root = NULL;
	if (lab_yaml_tree_load(c.file, buf, len, &root, err) == -1)
		return -1;
	rc = load_root(&c, root);
	lab_yaml_tree_free(root);
	return rc;
}

/* One buffer for the text of every file read: its memory is touched once. */
struct text {
	char	*buf;
	size_t	 cap;
};

static int
load_file(struct lab_inventory *inv, const char *path, struct text *t,
    struct lab_err *err)
{
	size_t	len = 0;
	int	fd;

	if ((fd = lab_file_open_read(path, LAB_EXIT_INPUT, err)) == -2)
		return -1;
	if (fd == -1)
		return lab_err_set(err, LAB_EXIT_ENV, "%s: %s", path,
		    strerror(errno));
	if (lab_yaml_file_reread(fd, path, YAML_MAX_FILE, &t->buf, &t->cap, &len,
	    err) == -1)
		return -1;
	return lab_inventory_load_buf(inv, path, t->buf, len, err);
}

static int
load_dir(struct lab_inventory *inv, const char *dir, struct text *t,
    struct lab_err *err)
{
	struct lab_strv	 names;
	struct dirent	*de;
	DIR		*d;
	const char	*dot;
	char		*p;
	size_t		 i;
	int		 rc = -1;

	if ((d = opendir(dir)) == NULL)
		return lab_err_set(err, LAB_EXIT_ENV, "%s: %s", dir,
		    strerror(errno));
	lab_strv_init(&names);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    (dot = strrchr(de->d_name, '.')) == NULL ||
		    (strcmp(dot, ".yaml") != 0 && strcmp(dot, ".yml") != 0))
			continue;
		p = lab_asprintf("%s%s%s", dir,
		    dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		if (lab_strv_take(&names, p) == -1) {
			lab_err_oom(err);
			goto out;
		}
	}
	if (names.n == 0) {
		lab_err_set(err, LAB_EXIT_INPUT, "%s: no *.yaml files in this "
		    "folder", dir);
		goto out;
	}
	lab_strv_sort(&names);
	for (i = 0; i < names.n; i++)
		if (load_file(inv, names.v[i], t, err) == -1)
			goto out;
	rc = 0;
out:
	closedir(d);
	lab_strv_release(&names);
	return rc;
}

/* Loads files and folders, then checks what must be unique across them. */
int
lab_inventory_load(struct lab_inventory *inv, char *const *paths,
    size_t npaths, struct lab_err *err)
{
	struct stat	st;
	struct text	t = { NULL, 0 };
	size_t		i;
	int		rc = 0;

	for (i = 0; i < npaths && rc == 0; i++) {
		if (stat(paths[i], &st) == -1)
			rc = lab_err_set(err, LAB_EXIT_ENV, "%s: %s",
			    paths[i], strerror(errno));
		else if (S_ISDIR(st.st_mode) ?
		    load_dir(inv, paths[i], &t, err) == -1 :
		    load_file(inv, paths[i], &t, err) == -1)
			rc = -1;
	}
	free(t.buf);
	if (rc == -1)
		return -1;
	if (lab_inventory_check_unique(inv, err) == -1)
		return -1;
	return lab_inventory_check_shares(inv, err);
}
