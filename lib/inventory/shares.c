/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The shares: and mounts: of a host (issue 21): NFS exports and iSCSI
 * LUNs it serves, the shares it uses. What one host's entries can say
 * is checked as they are read; what names other hosts (clients,
 * initiators, a mount's share) once every file is read
 * (lab_inventory_check_shares).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/inventory.h"
#include "lab/parse.h"
#include "lab/str.h"
#include "inventory-priv.h"
#include "core/schema.h"
#include "core/yaml-priv.h"

static const char *const share_keys[] = { "name", "pool", "vg", "protocol",
	"path", "clients", "options", "properties", "size", "iqn",
	"initiators", "sparse", NULL };
static const char *const mount_keys[] = { "share", "path", "options", NULL };

const char *const lab_share_protocols[] = { "nfs", "iscsi", NULL };
const char *const lab_share_properties[] = { "recordsize", "compression",
	"quota", NULL };
/* the NAS seed's server options (96/105 MB/s over NFS) */
const char *const lab_share_nfs_default[] = { "rw", "async",
	"no_subtree_check", "wdelay", NULL };
/* and its client options */
const char *const lab_mount_nfs_default[] = { "rsize=65536", "wsize=65536",
	"tcp", "noatime", NULL };

/* exports(5): the flags, and the options that take a value */
static const char *const nfs_flags[] = { "rw", "ro", "sync", "async",
	"wdelay", "no_wdelay", "subtree_check", "no_subtree_check",
	"root_squash", "no_root_squash", "all_squash", "no_all_squash",
	"secure", "insecure", "hide", "nohide", "crossmnt", "no_acl",
	"insecure_locks", "no_auth_nlm", "secure_locks", "mp", NULL };
static const char *const nfs_valued[] = { "sec=", "anonuid=", "anongid=",
	"fsid=", "mountpoint=", "mp=", "refer=", "replicas=", NULL };

static const char *const compressions[] = { "on", "off", "lz4", "gzip",
	"zle", "lzjb", "zstd", NULL };

int
lab_nfs_option_known(const char *s)
{
	size_t	i;

	for (i = 0; nfs_flags[i] != NULL; i++)
		if (strcmp(s, nfs_flags[i]) == 0)
			return 1;
	for (i = 0; nfs_valued[i] != NULL; i++)
		if (strncmp(s, nfs_valued[i], strlen(nfs_valued[i])) == 0 &&
		    s[strlen(nfs_valued[i])] != '\0' &&
		    strpbrk(s, " \t(),'\"\\") == NULL)
			return 1;
	return 0;
}

static int
all_of(const char *s, const char *set)
{
	return *s != '\0' && s[strspn(s, set)] == '\0';
}

#define LOWER	"abcdefghijklmnopqrstuvwxyz"
#define DIGITS	"0123456789"
#define HEX	"0123456789abcdefABCDEF"

int
lab_check_iqn(const char *s, const char **why)
{
	const char	*p, *colon;
	char		 auth[224];
	size_t		 n = strlen(s);

	*why = NULL;
	if (n > 223)
		*why = "longer than 223 bytes";
	else if (strncmp(s, "eui.", 4) == 0) {
		if (n != 20 || !all_of(s + 4, HEX))
			*why = "an eui. name is 'eui.' and 16 hex digits";
	} else if (strncmp(s, "naa.", 4) == 0) {
		if ((n != 20 && n != 36) || !all_of(s + 4, HEX))
			*why = "a naa. name is 'naa.' and 16 or 32 hex digits";
	} else if (strncmp(s, "iqn.", 4) != 0)
		*why = "an iSCSI name starts with iqn., eui. or naa.";
	else if (strlen(s) < 12 || strspn(s + 4, DIGITS) != 4 ||
	    s[8] != '-' || strspn(s + 9, DIGITS) != 2 || s[11] != '.' ||
	    s[9] > '1' || (s[9] == '1' && s[10] > '2') ||
	    (s[9] == '0' && s[10] == '0'))
		*why = "an iqn. name goes on with the date YYYY-MM and a dot "
		    "(iqn.2026-12.lab.local:nas)";
	else {
		p = s + 12;
		colon = strchr(p, ':');
		n = colon != NULL ? (size_t)(colon - p) : strlen(p);
		memcpy(auth, p, n);
		auth[n] = '\0';
		if (!all_of(auth, LOWER DIGITS ".-") || auth[0] == '.' ||
		    auth[0] == '-' || strchr(auth, '.') == NULL)
			*why = "the naming authority after the date is a "
			    "reversed domain with a dot (lab.local), of "
			    "lower-case letters, digits, dots and hyphens";
		else if (colon != NULL && !all_of(colon + 1,
		    LOWER DIGITS ".:-"))
			*why = "after ':' an iqn. name holds lower-case "
			    "letters, digits, '.', '-' and ':'";
	}
	return *why != NULL ? -1 : 0;
}

void
lab_share_iqn(const struct lab_host *h, const struct lab_share *s, char *buf,
    size_t len)
{
	char	name[64];
	size_t	i;

	if (s->iqn != NULL) {
		snprintf(buf, len, "%s", s->iqn);
		return;
	}
	/* host names may hold capitals and '_': iqn. names may not */
	snprintf(name, sizeof(name), "%s", h->name);
	for (i = 0; name[i] != '\0'; i++)
		if (name[i] >= 'A' && name[i] <= 'Z')
			name[i] = (char)(name[i] - 'A' + 'a');
		else if (name[i] == '_')
			name[i] = '-';
	snprintf(buf, len, "iqn.2026-12.lab.local:%s", name);
}

const struct lab_share *
lab_inventory_share(const struct lab_inventory *inv, const char *ref,
    const struct lab_host **server)
{
	const struct lab_host	*h;
	const char		*colon = strchr(ref, ':');
	char			 host[64];
	size_t			 i;

	if (colon == NULL || (size_t)(colon - ref) >= sizeof(host))
		return NULL;
	memcpy(host, ref, (size_t)(colon - ref));
	host[colon - ref] = '\0';
	if ((h = lab_inventory_host(inv, host)) == NULL)
		return NULL;
	for (i = 0; i < h->nshares; i++)
		if (strcmp(h->shares[i].name, colon + 1) == 0) {
			if (server != NULL)
				*server = h;
			return &h->shares[i];
		}
	return NULL;
}

/* --- reading one host's entries --- */

static int LAB_PRINTF(3, 4)
fail_at(struct lab_err *err, const struct lab_loc *l, const char *fmt, ...)
{
	char	msg[400];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: %s",
	    l->file != NULL ? l->file : "-", l->line, l->col, msg);
}


struct sctx {
	const char	*file;
	struct lab_pool	*pool;
	struct lab_err	*err;
	char		 what[128];
};

static struct lab_loc
loc(const struct sctx *c, const struct ynode *n)
{
	struct lab_loc	l = { c->file, n->line, n->col };

	return l;
}

/* An optional non-empty scalar under key. */
static int
scalar(struct sctx *c, const struct ynode *map, const char *key, int req,
    char **ret)
{
	const struct ynode	*n = lab_schema_get(map, key);

	*ret = NULL;
	if (n == NULL || lab_yaml_is_null(n)) {
		if (!req)
			return 0;
		return lab_schema_fail(c->err, c->file, map, "%s has no '%s'",
		    c->what, key);
	}
	if (n->kind != YNODE_SCALAR || n->len == 0)
		return lab_schema_fail(c->err, c->file, n, "'%s' of %s must be "
		    "a value", key, c->what);
	if ((*ret = lab_pool_strndup(c->pool, n->value, n->len)) == NULL)
		return lab_err_oom(c->err);
	return 0;
}

/* An optional list of non-empty values under key, each once. */
static int
list(struct sctx *c, const struct ynode *map, const char *key,
    struct lab_strv *sv)
{
	const struct ynode	*seq = lab_schema_get(map, key), *n;
	char			*p;
	size_t			 i;

	if (seq == NULL || lab_yaml_is_null(seq))
		return 0;
	if (seq->kind != YNODE_SEQ)
		return lab_schema_fail(c->err, c->file, seq, "'%s' of %s must "
		    "be a list", key, c->what);
	if (lab_strv_pool(sv, c->pool, seq->n) == -1)
		return lab_err_oom(c->err);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (n->kind != YNODE_SCALAR || n->len == 0 ||
		    lab_yaml_is_null(n))
			return lab_schema_fail(c->err, c->file, n, "an item of "
			    "'%s' of %s must be a value", key, c->what);
		if (strpbrk(n->value, " \t'\"\\()") != NULL)
			return lab_schema_fail(c->err, c->file, n, "'%.64s' in "
			    "'%s' of %s holds a space, a quote, a backslash or "
			    "a parenthesis", n->value, key, c->what);
		if (lab_strv_find(sv, n->value) >= 0)
			return lab_schema_fail(c->err, c->file, n, "'%s' of %s "
			    "lists '%.64s' twice", key, c->what, n->value);
		if ((p = lab_pool_strdup(c->pool, n->value)) == NULL)
			return lab_err_oom(c->err);
		lab_strv_put(sv, p);
	}
	return 0;
}

/* The node of key, for an error that names it. */
static const struct ynode *
at(const struct ynode *map, const char *key)
{
	const struct ynode	*n = lab_schema_get(map, key);

	return n != NULL ? n : map;
}

/* A ZFS size: digits and an optional binary unit (128K, 1T, 1.5T no). */
static int
zfs_size(const char *s, uint64_t *ret)
{
	static const char units[] = "KMGTP";
	const char	*u;
	uint64_t	 v = 0;
	int		 shift = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > UINT64_MAX / 10 / 1024 / 1024)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (*s != '\0') {
		if ((u = strchr(units, *s & ~0x20)) == NULL)
			return -1;
		shift = 10 * (int)(u - units + 1);
		s++;
		if ((*s & ~0x20) == 'B')
			s++;
	}
	if (*s != '\0' || (shift > 0 && v > (UINT64_MAX >> shift)))
		return -1;
	*ret = v << shift;
	return 0;
}

static int
load_properties(struct sctx *c, const struct ynode *map, struct lab_share *s)
{
	const struct ynode	*m = lab_schema_get(map, "properties"), *k, *v;
	uint64_t		 bytes = 0;
	char			*p;
	size_t			 i;

	if (m == NULL || lab_yaml_is_null(m))
		return 0;
	if (m->kind != YNODE_MAP)
		return lab_schema_fail(c->err, c->file, m, "'properties' of %s "
		    "must be a mapping (recordsize, compression, quota)",
		    c->what);
	if (s->pool == NULL)
		return lab_schema_fail(c->err, c->file, m, "%s has properties, "
		    "which are ZFS's: it is on a vg, not a pool", c->what);
	if (lab_schema_keys(c->file, m, lab_share_properties, "properties",
	    c->err) == -1)
		return -1;
	if (lab_strv_pool(&s->properties, c->pool, m->n / 2) == -1)
		return lab_err_oom(c->err);
	for (i = 0; i + 1 < m->n; i += 2) {
		k = m->items[i];
		v = m->items[i + 1];
		if (v->kind != YNODE_SCALAR || v->len == 0 ||
		    lab_yaml_is_null(v))
			return lab_schema_fail(c->err, c->file, v, "'%s' of %s "
			    "must be a value", k->value, c->what);
		if (strcmp(k->value, "compression") == 0) {
			if (lab_schema_word(c->file, v, "compression",
			    v->value, c->what, compressions, c->err) == -1)
				return -1;
		} else if (zfs_size(v->value, &bytes) == -1 &&
		    !(strcmp(k->value, "quota") == 0 &&
		    strcmp(v->value, "none") == 0))
			return lab_schema_fail(c->err, c->file, v, "bad %s "
			    "'%.64s' of %s: a ZFS size is a whole number and "
			    "K, M, G, T or P (powers of 1024)", k->value,
			    v->value, c->what);
		else if (strcmp(k->value, "recordsize") == 0 &&
		    (bytes < 512 || bytes > 16777216 ||
		    (bytes & (bytes - 1)) != 0))
			return lab_schema_fail(c->err, c->file, v, "recordsize "
			    "'%.64s' of %s is not a power of two from 512 to "
			    "16M", v->value, c->what);
		if ((p = lab_pool_alloc(c->pool, k->len + v->len +
		    2)) == NULL)
			return lab_err_oom(c->err);
		snprintf(p, k->len + v->len + 2, "%s=%s", k->value, v->value);
		lab_strv_put(&s->properties, p);
	}
	return 0;
}

static int
load_nfs(struct sctx *c, const struct ynode *n, struct lab_share *s)
{
	size_t	i;

	if (s->path == NULL)
		return lab_schema_fail(c->err, c->file, n, "%s has no 'path' "
		    "(the folder it exports)", c->what);
	if (s->clients.n == 0)
		return lab_schema_fail(c->err, c->file, at(n, "clients"), "%s "
		    "has no 'clients' (CIDRs, host names, @groups)", c->what);
	for (i = 0; i < s->options.n; i++)
		if (!lab_nfs_option_known(s->options.v[i]))
			return lab_schema_fail(c->err, c->file,
			    lab_schema_get(n, "options")->items[i], "unknown "
			    "NFS option '%.64s' in %s (exports(5): rw, ro, "
			    "sync, async, no_subtree_check, wdelay, "
			    "no_root_squash, insecure, sec=, anonuid=, ...)",
			    s->options.v[i], c->what);
	if (s->vg != NULL && s->size_bytes == 0)
		return lab_schema_fail(c->err, c->file, n, "%s is on vg '%s': "
		    "it needs a 'size' (the LV it makes)", c->what, s->vg);
	if (lab_schema_get(n, "iqn") != NULL ||
	    lab_schema_get(n, "initiators") != NULL ||
	    lab_schema_get(n, "sparse") != NULL)
		return lab_schema_fail(c->err, c->file, n, "%s is an NFS "
		    "share: iqn, initiators and sparse are iSCSI's", c->what);
	return load_properties(c, n, s);
}

static int
load_iscsi(struct sctx *c, const struct ynode *n, struct lab_share *s)
{
	const struct ynode	*v;
	const char		*why;
	size_t			 i;

	if (s->size_bytes == 0)
		return lab_schema_fail(c->err, c->file, n, "%s has no 'size' "
		    "(the LUN's)", c->what);
	if (s->path != NULL || s->clients.n > 0 || s->options.n > 0 ||
	    lab_schema_get(n, "properties") != NULL)
		return lab_schema_fail(c->err, c->file, n, "%s is an iSCSI "
		    "share: path, clients, options and properties are NFS's",
		    c->what);
	if (s->iqn != NULL && lab_check_iqn(s->iqn, &why) == -1)
		return lab_schema_fail(c->err, c->file, at(n, "iqn"), "bad iqn "
		    "'%.64s' of %s: %s", s->iqn, c->what, why);
	if (s->initiators.n == 0)
		return lab_schema_fail(c->err, c->file, at(n, "initiators"),
		    "%s has no 'initiators' (IQNs, or hosts with an "
		    "iscsi_initiator)", c->what);
	for (i = 0; i < s->initiators.n; i++) {
		v = lab_schema_get(n, "initiators")->items[i];
		if (strncmp(v->value, "iqn.", 4) == 0 ||
		    strncmp(v->value, "eui.", 4) == 0 ||
		    strncmp(v->value, "naa.", 4) == 0 ||
		    strchr(v->value, ':') != NULL) {
			if (lab_check_iqn(v->value, &why) == -1)
				return lab_schema_fail(c->err, c->file, v,
				    "bad initiator '%.64s' of %s: %s",
				    v->value, c->what, why);
		} else if (lab_check_name(v->value, &why) == -1)
			return lab_schema_fail(c->err, c->file, v, "initiator "
			    "'%.64s' of %s is neither an IQN nor a host name",
			    v->value, c->what);
	}
	return 0;
}

static int
load_share(struct sctx *c, const struct ynode *n, struct lab_host *h,
    struct lab_share *s)
{
	const struct ynode	*v;
	const char		*why;
	char			*size = NULL;
	size_t			 j;

	if (n->kind != YNODE_MAP)
		return lab_schema_fail(c->err, c->file, n, "a share of host "
		    "'%s' must be a mapping", h->name);
	if (lab_schema_keys(c->file, n, share_keys, "a share", c->err) == -1)
		return -1;
	s->loc = loc(c, n);
	snprintf(c->what, sizeof(c->what), "a share of host '%s'", h->name);
	if (scalar(c, n, "name", 1, &s->name) == -1)
		return -1;
	if (lab_check_name(s->name, &why) == -1)
		return lab_schema_fail(c->err, c->file, at(n, "name"), "bad "
		    "name '%.64s' of %s: %s", s->name, c->what, why);
	snprintf(c->what, sizeof(c->what), "share '%.40s' of host '%.40s'",
	    s->name, h->name);
	if (scalar(c, n, "protocol", 1, &s->protocol) == -1 ||
	    lab_schema_word(c->file, at(n, "protocol"), "protocol",
	    s->protocol, c->what, lab_share_protocols, c->err) == -1 ||
	    scalar(c, n, "pool", 0, &s->pool) == -1 ||
	    scalar(c, n, "vg", 0, &s->vg) == -1 ||
	    scalar(c, n, "path", 0, &s->path) == -1 ||
	    scalar(c, n, "size", 0, &size) == -1 ||
	    scalar(c, n, "iqn", 0, &s->iqn) == -1 ||
	    list(c, n, "clients", &s->clients) == -1 ||
	    list(c, n, "options", &s->options) == -1 ||
	    list(c, n, "initiators", &s->initiators) == -1)
		return -1;
	if ((s->pool == NULL) == (s->vg == NULL))
		return lab_schema_fail(c->err, c->file, n, "%s needs one of "
		    "'pool' (ZFS) and 'vg' (LVM)", c->what);
	if ((s->pool != NULL && lab_check_name(s->pool, &why) == -1) ||
	    (s->vg != NULL && lab_check_name(s->vg, &why) == -1))
		return lab_schema_fail(c->err, c->file, at(n, s->pool ? "pool" :
		    "vg"), "bad %s '%.64s' of %s: %s", s->pool ? "pool" : "vg",
		    s->pool ? s->pool : s->vg, c->what, why);
	if (s->path != NULL && (s->path[0] != '/' || s->path[1] == '\0' ||
	    strpbrk(s->path, " \t'\"\\()#") != NULL || strstr(s->path,
	    "/../") != NULL))
		return lab_schema_fail(c->err, c->file, at(n, "path"), "'path' "
		    "of %s must be an absolute folder other than / without "
		    "spaces, quotes, parentheses, '#' or '..'", c->what);
	if (size != NULL) {
		v = lab_schema_get(n, "size");
		s->size_loc = loc(c, v);
		if (lab_parse_size(size, &s->size_bytes, &why) == -1)
			return lab_schema_fail(c->err, c->file, v, "bad size "
			    "'%.64s' of %s: %s", size, c->what, why);
		if (s->size_bytes == 0)
			return lab_schema_fail(c->err, c->file, v, "%s has "
			    "size 0", c->what);
	}
	if ((v = lab_schema_get(n, "sparse")) != NULL &&
	    !lab_yaml_is_null(v)) {
		if (v->kind != YNODE_SCALAR || (strcmp(v->value, "true") != 0 &&
		    strcmp(v->value, "false") != 0))
			return lab_schema_fail(c->err, c->file, v, "'sparse' of "
			    "%s must be true or false", c->what);
		s->sparse = strcmp(v->value, "true") == 0;
		if (s->sparse && s->pool == NULL)
			return lab_schema_fail(c->err, c->file, v, "%s is on a "
			    "vg: only a zvol can be sparse", c->what);
	}
	if ((strcmp(s->protocol, "nfs") == 0 ? load_nfs(c, n, s) :
	    load_iscsi(c, n, s)) == -1)
		return -1;
	for (j = 0; j < (size_t)(s - h->shares); j++) {
		if (strcmp(h->shares[j].name, s->name) == 0)
			return lab_schema_fail(c->err, c->file, at(n, "name"),
			    "host '%s' has share '%s' twice (first at line "
			    "%d)", h->name, s->name, h->shares[j].loc.line);
		if (s->path != NULL && h->shares[j].path != NULL &&
		    strcmp(h->shares[j].path, s->path) == 0)
			return lab_schema_fail(c->err, c->file, at(n, "path"),
			    "shares '%s' and '%s' of host '%s' are both on "
			    "path %s (first at line %d)", h->shares[j].name,
			    s->name, h->name, s->path, h->shares[j].loc.line);
	}
	return 0;
}

static int
same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The bytes of the host's disks a pool or VG can be made of. */
static uint64_t
raw_bytes(const struct lab_host *h)
{
	uint64_t	sum = 0;
	size_t		i;

	for (i = 0; i < h->ndisks; i++)
		if (!h->disks[i].boot)
			sum += h->disks[i].size_bytes;
	return sum;
}

/*
 * What the shares of one pool or VG take cannot exceed the disks it can
 * be made of (the plan's capacity is checked again by lab provision,
 * against the storage run that made it).
 */
static int
check_room(struct sctx *c, const struct lab_host *h)
{
	const struct lab_share	*s, *t;
	uint64_t		 raw = raw_bytes(h), sum;
	char			 a[32], b[32];
	size_t			 i, j;

	if (h->ndisks == 0)
		return 0;
	for (i = 0; i < h->nshares; i++) {
		s = &h->shares[i];
		if (s->size_bytes == 0)
			continue;
		sum = 0;
		for (j = 0; j <= i; j++) {
			t = &h->shares[j];
			if (same(t->pool, s->pool) && same(t->vg, s->vg))
				sum += t->size_bytes;
		}
		if (sum <= raw)
			continue;
		lab_format_size_human(sum, a, sizeof(a));
		lab_format_size_human(raw, b, sizeof(b));
		return fail_at(c->err, &s->size_loc, "share '%s' of host '%s' "
		    "does not fit: the shares of %s '%s' take %s up to it, "
		    "more than the %s of its disks (not counting the boot "
		    "disk)", s->name, h->name, s->pool ? "pool" : "vg",
		    s->pool ? s->pool : s->vg, a, b);
	}
	return 0;
}

static int
load_mount(struct sctx *c, const struct ynode *n, struct lab_host *h,
    struct lab_mount *m)
{
	const char	*colon;
	size_t		 j;

	if (n->kind != YNODE_MAP)
		return lab_schema_fail(c->err, c->file, n, "a mount of host "
		    "'%s' must be a mapping", h->name);
	if (lab_schema_keys(c->file, n, mount_keys, "a mount", c->err) == -1)
		return -1;
	m->loc = loc(c, n);
	snprintf(c->what, sizeof(c->what), "a mount of host '%s'", h->name);
	if (scalar(c, n, "share", 1, &m->share) == -1 ||
	    scalar(c, n, "path", 0, &m->path) == -1 ||
	    list(c, n, "options", &m->options) == -1)
		return -1;
	colon = m->share != NULL ? strchr(m->share, ':') : NULL;
	if (colon == NULL || colon == m->share || colon[1] == '\0')
		return lab_schema_fail(c->err, c->file, at(n, "share"), "'share' "
		    "of %s is HOST:NAME (nas:vmstore), not '%.64s'", c->what,
		    m->share);
	if (m->path != NULL && (m->path[0] != '/' || m->path[1] == '\0' ||
	    strpbrk(m->path, " \t'\"\\#") != NULL))
		return lab_schema_fail(c->err, c->file, at(n, "path"), "'path' "
		    "of %s must be an absolute folder other than / without "
		    "spaces, quotes or '#'", c->what);
	for (j = 0; j < m->options.n; j++)
		if (strchr(m->options.v[j], ',') != NULL)
			return lab_schema_fail(c->err, c->file,
			    lab_schema_get(n, "options")->items[j], "mount "
			    "option '%.64s' of %s holds a comma: one option an "
			    "item", m->options.v[j], c->what);
	for (j = 0; j < (size_t)(m - h->mounts); j++)
		if (strcmp(h->mounts[j].share, m->share) == 0 ||
		    (m->path != NULL && h->mounts[j].path != NULL &&
		    strcmp(h->mounts[j].path, m->path) == 0))
			return lab_schema_fail(c->err, c->file, n, "host '%s' "
			    "mounts %s or on %s twice (first at line %d)",
			    h->name, m->share, m->path ? m->path : "-",
			    h->mounts[j].loc.line);
	return 0;
}

int
lab_load_shares(const char *file, struct lab_pool *pool,
    const struct ynode *map, struct lab_host *h, struct lab_err *err)
{
	struct sctx		 c = { file, pool, err, "" };
	const struct ynode	*seq;
	const char		*why;
	size_t			 i;

	if (scalar(&c, map, "iscsi_initiator", 0, &h->initiator) == -1)
		return -1;
	if (h->initiator != NULL && lab_check_iqn(h->initiator, &why) == -1)
		return lab_schema_fail(err, file, at(map, "iscsi_initiator"),
		    "bad iscsi_initiator '%.64s' of host '%s': %s",
		    h->initiator, h->name, why);
	if ((seq = lab_schema_get(map, "shares")) != NULL &&
	    !lab_yaml_is_null(seq)) {
		if (seq->kind != YNODE_SEQ)
			return lab_schema_fail(err, file, seq, "'shares' of "
			    "host '%s' must be a list", h->name);
		if ((h->shares = lab_pool_alloc(pool, (seq->n ? seq->n : 1) *
		    sizeof(*h->shares))) == NULL)
			return lab_err_oom(err);
		memset(h->shares, 0, (seq->n ? seq->n : 1) *
		    sizeof(*h->shares));
		for (i = 0; i < seq->n; i++) {
			if (load_share(&c, seq->items[i], h,
			    &h->shares[h->nshares]) == -1)
				return -1;
			h->nshares++;
		}
		if (check_room(&c, h) == -1)
			return -1;
	}
	if ((seq = lab_schema_get(map, "mounts")) != NULL &&
	    !lab_yaml_is_null(seq)) {
		if (seq->kind != YNODE_SEQ)
			return lab_schema_fail(err, file, seq, "'mounts' of "
			    "host '%s' must be a list", h->name);
		if ((h->mounts = lab_pool_alloc(pool, (seq->n ? seq->n : 1) *
		    sizeof(*h->mounts))) == NULL)
			return lab_err_oom(err);
		memset(h->mounts, 0, (seq->n ? seq->n : 1) *
		    sizeof(*h->mounts));
		for (i = 0; i < seq->n; i++) {
			if (load_mount(&c, seq->items[i], h,
			    &h->mounts[h->nmounts]) == -1)
				return -1;
			h->nmounts++;
		}
	}
	return 0;
}

/* --- what names other hosts --- */

/* A host's own address, without a prefix, or NULL. */
static const char *
host_address(const struct lab_host *h, char *buf, size_t len)
{
	char	*slash;

	if (h->network != NULL && h->network->address != NULL) {
		snprintf(buf, len, "%s", h->network->address);
		if ((slash = strchr(buf, '/')) != NULL)
			*slash = '\0';
		return buf;
	}
	if (h->ssh != NULL && h->ssh->address != NULL)
		return h->ssh->address;
	return NULL;
}

static int
in_group(const struct lab_host *h, const char *g)
{
	return lab_strv_find(&h->groups, g) >= 0;
}

int
lab_share_clients(const struct lab_inventory *inv, const struct lab_share *s,
    struct lab_strv *out, struct lab_err *err)
{
	const struct lab_host	*h;
	const char		*c, *why, *a;
	char			 buf[80];
	size_t			 i, j, found;

	for (i = 0; i < s->clients.n; i++) {
		c = s->clients.v[i];
		if (lab_check_cidr(c, &why) == 0 || lab_check_ip(c, &why) == 0) {
			if (lab_strv_find(out, c) < 0 &&
			    lab_strv_add(out, c) == -1)
				return lab_err_oom(err);
			continue;
		}
		if (c[0] == '@') {
			for (found = 0, j = 0; j < inv->nhosts; j++) {
				h = &inv->hosts[j];
				if (!in_group(h, c + 1))
					continue;
				found++;
				if ((a = host_address(h, buf, sizeof(buf))) ==
				    NULL)
					return fail_at(err, &s->loc, "host '%s' "
					    "of group %s, a client of share "
					    "'%s', has no address (network: or "
					    "ssh:)", h->name, c, s->name);
				if (lab_strv_find(out, a) < 0 &&
				    lab_strv_add(out, a) == -1)
					return lab_err_oom(err);
			}
			if (found == 0)
				return fail_at(err, &s->loc, "client '%s' of "
				    "share '%s' is a group no host is in",
				    c, s->name);
			continue;
		}
		if ((h = lab_inventory_host(inv, c)) == NULL)
			return fail_at(err, &s->loc, "client '%.64s' of share "
			    "'%s' is not a host of the inventory, a @group, an "
			    "IP address or a CIDR (192.0.2.0/24)", c, s->name);
		if ((a = host_address(h, buf, sizeof(buf))) == NULL)
			return fail_at(err, &s->loc, "host '%s', a client of "
			    "share '%s', has no address (network: or ssh:)",
			    h->name, s->name);
		if (lab_strv_find(out, a) < 0 && lab_strv_add(out, a) == -1)
			return lab_err_oom(err);
	}
	return 0;
}

int
lab_inventory_check_shares(const struct lab_inventory *inv,
    struct lab_err *err)
{
	const struct lab_host	*h, *o;
	const struct lab_share	*s;
	const struct lab_mount	*m;
	struct lab_strv		 tmp;
	size_t			 i, j, k;
	int			 rc;

	for (i = 0; i < inv->nhosts; i++) {
		h = &inv->hosts[i];
		for (j = 0; j < h->nshares; j++) {
			s = &h->shares[j];
			lab_strv_init(&tmp);
			rc = lab_share_clients(inv, s, &tmp, err);
			lab_strv_release(&tmp);
			if (rc == -1)
				return -1;
			for (k = 0; k < s->initiators.n; k++) {
				if (strchr(s->initiators.v[k], '.') != NULL &&
				    strchr(s->initiators.v[k], ':') != NULL)
					continue;
				if (strncmp(s->initiators.v[k], "eui.", 4) == 0 ||
				    strncmp(s->initiators.v[k], "naa.", 4) == 0)
					continue;
				if ((o = lab_inventory_host(inv,
				    s->initiators.v[k])) == NULL)
					return fail_at(err, &s->loc, "initiator "
					    "'%.64s' of share '%s' is neither "
					    "an IQN nor a host of the "
					    "inventory", s->initiators.v[k],
					    s->name);
				if (o->initiator == NULL)
					return fail_at(err, &s->loc, "host "
					    "'%s', an initiator of share '%s', "
					    "has no iscsi_initiator (its IQN, "
					    "/etc/iscsi/initiatorname.iscsi)",
					    o->name, s->name);
			}
		}
		for (j = 0; j < h->nmounts; j++) {
			m = &h->mounts[j];
			if ((s = lab_inventory_share(inv, m->share, &o)) ==
			    NULL)
				return fail_at(err, &m->loc, "host '%s' mounts "
				    "'%s', which no host of the inventory "
				    "shares", h->name, m->share);
			if (strcmp(s->protocol, "nfs") == 0 && m->path == NULL)
				return fail_at(err, &m->loc, "host '%s' mounts "
				    "NFS share '%s' without a 'path'", h->name,
				    m->share);
			if (strcmp(s->protocol, "iscsi") == 0 &&
			    h->initiator == NULL)
				return fail_at(err, &m->loc, "host '%s' logs "
				    "in to iSCSI share '%s' but has no "
				    "iscsi_initiator", h->name, m->share);
		}
	}
	return 0;
}
