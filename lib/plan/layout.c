/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "plan-priv.h"
#include "yaml-priv.h"

/*
 * Layout files: partitions per disk, md arrays over partitions or whole
 * disks, LVM volume groups and their logical volumes, filesystems and
 * mount points (README, "Layout files"). Each partition, disk or array
 * says what it goes into with 'use'; arrays and volume groups are named.
 */

#define MAXD	32	/* disks */
#define MAXP	16	/* partitions per disk */
#define MAXA	32	/* arrays */
#define MAXV	32	/* volume groups */
#define MAXL	32	/* logical volumes per group */
#define MAXM	32	/* members of an array or group */
#define ALIGN	(2u * 1024 * 1024)	/* lost to alignment and GPT */

static const char *const top_keys[] = { "description", "disks", "arrays",
	"vgs", NULL };
static const char *const disk_keys[] = { "slot", "table", "partitions",
	"use", "fs", "mount", NULL };
static const char *const part_keys[] = { "size", "use", "fs", "mount",
	NULL };
static const char *const array_keys[] = { "name", "level", "use", "fs",
	"mount", NULL };
static const char *const vg_keys[] = { "name", "lvs", NULL };
static const char *const lv_keys[] = { "name", "size", "fs", "mount", NULL };
static const char *const tables[] = { "gpt", "msdos", NULL };
static const char *const levels[] = { "raid1", "raid10", "raid5", NULL };
static const char *const fses[] = { "ext4", "ext3", "ext2", "xfs", "swap",
	NULL };

/* What a disk, partition or array holds. */
struct vol {
	const struct ynode	*node;
	const struct ynode	*use_node;
	const char		*use;
	const char		*fs;
	const char		*mount;
	int			 used;	/* a member of something */
};

struct member {
	const char	*dev;
	uint64_t	 bytes;
	char		 label[64];
};

struct lpart {
	struct vol	 v;
	uint64_t	 bytes;
	int		 rest;
	const char	*dev;
};

struct ldisk {
	struct vol		 v;
	const struct lab_disk	*d;
	const char		*table;
	struct lpart		 p[MAXP];
	size_t			 np;
	const char		*dev;
};

struct larray {
	struct vol		 v;
	const char		*name;
	const struct md_level	*l;
	struct member		 m[MAXM];
	size_t			 nm;
	const char		*dev;
	uint64_t		 bytes;
};

struct llv {
	const struct ynode	*node;
	const char		*name;
	uint64_t		 bytes;
	int			 rest;
	const char		*fs;
	const char		*mount;
	const char		*dev;
};

struct lvg {
	const struct ynode	*node;
	const char		*name;
	struct llv		 lv[MAXL];
	size_t			 nlv;
	struct member		 m[MAXM];
	size_t			 nm;
	uint64_t		 bytes;
};

struct layout {
	const char		*file;
	const struct lab_host	*h;
	const struct lab_storage_req *req;
	struct lab_plan		*p;
	struct lab_err		*err;
	struct ldisk		 d[MAXD];
	size_t			 nd;
	struct larray		 a[MAXA];
	size_t			 na;
	struct lvg		 g[MAXV];
	size_t			 ng;
	struct lab_strv		 own;	/* device names */
};

static int LAB_PRINTF(3, 4)
fail(struct layout *l, const struct ynode *n, const char *fmt, ...)
{
	char	msg[400];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lab_err_set(l->err, LAB_EXIT_INPUT, "%s:%d:%d: %s", l->file,
	    n->line, n->col, msg);
}

static size_t
count(const char *const *w)
{
	size_t	n = 0;

	while (w[n] != NULL)
		n++;
	return n;
}

static void
words(const char *const *w, char *buf, size_t len)
{
	size_t	i, off = 0;

	buf[0] = '\0';
	for (i = 0; w[i] != NULL && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i ? ", " : "", w[i]);
}

static int
want_map(struct layout *l, const struct ynode *n, const char *const *keys,
    const char *what)
{
	const char	*near;
	char		 known[200];
	size_t		 i, k;

	if (n->kind != YNODE_MAP)
		return fail(l, n, "%s must be a mapping", what);
	for (i = 0; i < n->n; i += 2) {
		for (k = 0; keys[k] != NULL; k++)
			if (strcmp(n->items[i]->value, keys[k]) == 0)
				break;
		if (keys[k] != NULL)
			continue;
		near = lab_suggest(n->items[i]->value, keys, count(keys));
		if (near != NULL)
			return fail(l, n->items[i], "unknown key '%.64s' in %s; "
			    "did you mean '%s'?", n->items[i]->value, what,
			    near);
		words(keys, known, sizeof(known));
		return fail(l, n->items[i], "unknown key '%.64s' in %s (known "
		    "keys: %s)", n->items[i]->value, what, known);
	}
	return 0;
}

static const struct ynode *
get(const struct ynode *map, const char *key)
{
	size_t	i;

	for (i = 0; i + 1 < map->n; i += 2)
		if (strcmp(map->items[i]->value, key) == 0)
			return map->items[i + 1];
	return NULL;
}

/* A string under key: *ret is NULL when absent and opt. */
static int
want_str(struct layout *l, const struct ynode *map, const char *key,
    const char *what, int opt, const char **ret)
{
	const struct ynode	*n = get(map, key);

	*ret = NULL;
	if (n == NULL || yaml_is_null(n)) {
		if (opt)
			return 0;
		return fail(l, map, "%s has no '%s'", what, key);
	}
	if (n->kind != YNODE_SCALAR || n->len == 0)
		return fail(l, n, "'%s' of %s must be a value", key, what);
	*ret = n->value;
	return 0;
}

static int
want_word(struct layout *l, const struct ynode *map, const char *key,
    const char *what, const char *const *w, const char **ret)
{
	const char	*near;
	char		 known[128];
	size_t		 i;

	if (want_str(l, map, key, what, 1, ret) == -1 || *ret == NULL)
		return l->err->code ? -1 : 0;
	for (i = 0; w[i] != NULL; i++)
		if (strcmp(*ret, w[i]) == 0)
			return 0;
	words(w, known, sizeof(known));
	if ((near = lab_suggest(*ret, w, count(w))) != NULL)
		return fail(l, get(map, key), "unknown %s '%.64s' in %s; did "
		    "you mean '%s'? (one of: %s)", key, *ret, what, near,
		    known);
	return fail(l, get(map, key), "unknown %s '%.64s' in %s (one of: %s)",
	    key, *ret, what, known);
}

/* A size or "rest". */
static int
want_size(struct layout *l, const struct ynode *map, const char *what,
    uint64_t *ret, int *rest)
{
	const struct ynode	*n;
	const char		*s, *why;

	if (want_str(l, map, "size", what, 0, &s) == -1)
		return -1;
	n = get(map, "size");
	if (strcmp(s, "rest") == 0) {
		*rest = 1;
		return 0;
	}
	if (lab_parse_size(s, ret, &why) == -1)
		return fail(l, n, "bad size '%.64s' of %s: %s (or 'rest')", s,
		    what, why);
	if (*ret < 1024 * 1024)
		return fail(l, n, "%s is smaller than 1 MiB", what);
	return 0;
}

static int
plain_path(const char *s)
{
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("_./-", *s)))
			return 0;
	return 1;
}

/* use, fs and mount of a disk, partition or array. */
static int
want_vol(struct layout *l, const struct ynode *map, const char *what,
    struct vol *v)
{
	const struct ynode	*m;

	v->node = map;
	v->use_node = get(map, "use");
	if (want_str(l, map, "use", what, 1, &v->use) == -1 ||
	    want_word(l, map, "fs", what, fses, &v->fs) == -1 ||
	    want_str(l, map, "mount", what, 1, &v->mount) == -1)
		return -1;
	m = get(map, "mount");
	if (v->use != NULL && v->fs != NULL)
		return fail(l, v->use_node, "%s has both 'use' and 'fs': it "
		    "goes into an array or volume group, or holds a "
		    "filesystem", what);
	if (v->mount != NULL && v->fs == NULL)
		return fail(l, m, "%s has a mount point but no 'fs'", what);
	if (v->mount != NULL && strcmp(v->fs, "swap") == 0)
		return fail(l, m, "swap on %s has no mount point", what);
	if (v->mount != NULL && (v->mount[0] != '/' || strlen(v->mount) < 2 ||
	    !plain_path(v->mount) || strstr(v->mount, "/../") != NULL ||
	    strstr(v->mount, "//") != NULL))
		return fail(l, m, "bad mount point '%.64s' of %s: an absolute "
		    "path other than / of [A-Za-z0-9_./-]", v->mount, what);
	return 0;
}

static const char *
own(struct layout *l, char *s)
{
	if (s == NULL || lab_strv_take(&l->own, s) == -1) {
		lab_err_oom(l->err);
		return NULL;
	}
	return s;
}

static int
load_parts(struct layout *l, struct ldisk *d, const struct ynode *seq)
{
	struct lpart	*p;
	const char	*why;
	char		 what[96], a[32], b[32];
	uint64_t	 fixed = 0;
	size_t		 i;

	if (seq->kind != YNODE_SEQ || seq->n == 0)
		return fail(l, seq, "'partitions' of slot %s must be a list of "
		    "partitions", d->d->slot);
	if (seq->n > MAXP || (strcmp(d->table, "msdos") == 0 && seq->n > 4))
		return fail(l, seq, "slot %s has too many partitions (%s "
		    "holds at most %d)", d->d->slot, d->table,
		    strcmp(d->table, "msdos") == 0 ? 4 : MAXP);
	for (i = 0; i < seq->n; i++) {
		p = &d->p[d->np++];
		snprintf(what, sizeof(what), "partition %zu of slot %s", i + 1,
		    d->d->slot);
		if (want_map(l, seq->items[i], part_keys, "a partition") ==
		    -1 || want_size(l, seq->items[i], what, &p->bytes,
		    &p->rest) == -1 || want_vol(l, seq->items[i], what,
		    &p->v) == -1)
			return -1;
		if (p->rest && i + 1 != seq->n)
			return fail(l, get(seq->items[i], "size"), "only the "
			    "last partition of slot %s can take the rest",
			    d->d->slot);
		fixed += p->bytes;
		if ((p->dev = own(l, part_dev(d->dev, (int)i + 1))) == NULL)
			return -1;
	}
	if (fixed + ALIGN > d->d->size_bytes) {
		size_human(fixed, a);
		size_human(d->d->size_bytes, b);
		return fail(l, seq, "the partitions of slot %s need %s; the "
		    "disk holds %s", d->d->slot, a, b);
	}
	p = &d->p[d->np - 1];
	if (p->rest)
		p->bytes = d->d->size_bytes - fixed - ALIGN;
	if (p->rest && p->bytes < 1024 * 1024)
		return fail(l, seq, "no room is left for the last partition "
		    "of slot %s", d->d->slot);
	(void)why;
	return 0;
}

static int
load_disks(struct layout *l, const struct ynode *seq)
{
	const struct ynode	*n, *parts;
	struct ldisk		*d;
	const char		*slot;
	char			 what[64];
	size_t			 i, j;

	if (seq == NULL)
		return lab_err_set(l->err, LAB_EXIT_INPUT, "%s:1:1: a layout "
		    "needs 'disks'", l->file);
	if (seq->kind != YNODE_SEQ || seq->n == 0)
		return fail(l, seq, "'disks' must be a list of disks");
	if (seq->n > MAXD)
		return fail(l, seq, "at most %d disks", MAXD);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (want_map(l, n, disk_keys, "a disk") == -1 ||
		    want_str(l, n, "slot", "a disk", 0, &slot) == -1)
			return -1;
		d = &l->d[l->nd++];
		if ((d->d = disk_find(l->h, slot, "layout disk", l->err)) ==
		    NULL) {
			n = get(n, "slot");
			lab_err_prefix(l->err, "%s:%d:%d", l->file, n->line,
			    n->col);
			return -1;
		}
		for (j = 0; j + 1 < l->nd; j++)
			if (l->d[j].d == d->d)
				return fail(l, get(n, "slot"), "slot %s is in "
				    "the layout twice (first at line %d)", slot,
				    l->d[j].v.node->line);
		snprintf(what, sizeof(what), "the disk in slot %s", slot);
		if ((d->dev = own(l, disk_dev(l->p, d->d))) == NULL ||
		    want_word(l, n, "table", what, tables, &d->table) == -1)
			return -1;
		parts = get(n, "partitions");
		if (d->table != NULL && parts == NULL)
			return fail(l, get(n, "table"), "a partition table "
			    "on slot %s needs 'partitions'", slot);
		if (d->table == NULL)
			d->table = "gpt";
		if (want_vol(l, n, what, &d->v) == -1)
			return -1;
		if (parts != NULL && (d->v.use || d->v.fs))
			return fail(l, parts, "slot %s has partitions: 'use' "
			    "and 'fs' go on them, not on the disk", slot);
		if (parts != NULL && load_parts(l, d, parts) == -1)
			return -1;
	}
	return 0;
}

static int
name_taken(struct layout *l, const struct ynode *n, const char *name)
{
	size_t	i;

	for (i = 0; i < l->na; i++)
		if (l->a[i].name != NULL && strcmp(l->a[i].name, name) == 0)
			return fail(l, n, "the name '%s' is taken (line %d)",
			    name, l->a[i].v.node->line);
	for (i = 0; i < l->ng; i++)
		if (l->g[i].name != NULL && strcmp(l->g[i].name, name) == 0)
			return fail(l, n, "the name '%s' is taken (line %d)",
			    name, l->g[i].node->line);
	return 0;
}

static int
load_arrays(struct layout *l, const struct ynode *seq)
{
	const struct ynode	*n;
	struct larray		*a;
	const char		*name, *level;
	char			 what[64];
	size_t			 i;

	if (seq == NULL)
		return 0;
	if (seq->kind != YNODE_SEQ)
		return fail(l, seq, "'arrays' must be a list of md arrays");
	if (seq->n > MAXA)
		return fail(l, seq, "at most %d arrays", MAXA);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (want_map(l, n, array_keys, "an array") == -1 ||
		    want_str(l, n, "name", "an array", 0, &name) == -1)
			return -1;
		snprintf(what, sizeof(what), "array %.32s", name);
		if (check_md_name(name, "array", l->err) == -1) {
			lab_err_prefix(l->err, "%s:%d:%d", l->file,
			    get(n, "name")->line, get(n, "name")->col);
			return -1;
		}
		if (name_taken(l, get(n, "name"), name) == -1 ||
		    want_str(l, n, "level", what, 0, &level) == -1 ||
		    want_word(l, n, "level", what, levels, &level) == -1)
			return -1;
		a = &l->a[l->na++];
		a->name = name;
		a->l = md_level_find(level);
		if (want_vol(l, n, what, &a->v) == -1 ||
		    (a->dev = own(l, lab_asprintf("/dev/md/%s", name))) == NULL)
			return -1;
	}
	return 0;
}

static int
load_lvs(struct layout *l, struct lvg *g, const struct ynode *seq)
{
	const struct ynode	*n;
	struct llv		*v;
	struct vol		 vol;
	char			 what[96];
	size_t			 i, j;

	if (seq == NULL || yaml_is_null(seq))
		return 0;
	if (seq->kind != YNODE_SEQ)
		return fail(l, seq, "'lvs' of volume group %s must be a list",
		    g->name);
	if (seq->n > MAXL)
		return fail(l, seq, "at most %d logical volumes", MAXL);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		v = &g->lv[g->nlv++];
		v->node = n;
		snprintf(what, sizeof(what), "a logical volume of %s", g->name);
		if (want_map(l, n, lv_keys, what) == -1 ||
		    want_str(l, n, "name", what, 0, &v->name) == -1)
			return -1;
		if (check_md_name(v->name, "logical volume", l->err) == -1) {
			lab_err_prefix(l->err, "%s:%d:%d", l->file,
			    get(n, "name")->line, get(n, "name")->col);
			return -1;
		}
		for (j = 0; j + 1 < g->nlv; j++)
			if (strcmp(g->lv[j].name, v->name) == 0)
				return fail(l, get(n, "name"), "volume group "
				    "%s has two logical volumes '%s'", g->name,
				    v->name);
		snprintf(what, sizeof(what), "logical volume %s/%s", g->name,
		    v->name);
		memset(&vol, 0, sizeof(vol));
		if (want_size(l, n, what, &v->bytes, &v->rest) == -1 ||
		    want_vol(l, n, what, &vol) == -1)
			return -1;
		if (v->rest && i + 1 != seq->n)
			return fail(l, get(n, "size"), "only the last logical "
			    "volume of %s can take the rest", g->name);
		v->fs = vol.fs;
		v->mount = vol.mount;
		if ((v->dev = own(l, lab_asprintf("/dev/%s/%s", g->name,
		    v->name))) == NULL)
			return -1;
	}
	return 0;
}

static int
load_vgs(struct layout *l, const struct ynode *seq)
{
	const struct ynode	*n;
	struct lvg		*g;
	const char		*name;
	size_t			 i;

	if (seq == NULL)
		return 0;
	if (seq->kind != YNODE_SEQ)
		return fail(l, seq, "'vgs' must be a list of volume groups");
	if (seq->n > MAXV)
		return fail(l, seq, "at most %d volume groups", MAXV);
	for (i = 0; i < seq->n; i++) {
		n = seq->items[i];
		if (want_map(l, n, vg_keys, "a volume group") == -1 ||
		    want_str(l, n, "name", "a volume group", 0, &name) == -1)
			return -1;
		if (check_md_name(name, "volume group", l->err) == -1) {
			lab_err_prefix(l->err, "%s:%d:%d", l->file,
			    get(n, "name")->line, get(n, "name")->col);
			return -1;
		}
		if (name_taken(l, get(n, "name"), name) == -1)
			return -1;
		g = &l->g[l->ng++];
		g->node = n;
		g->name = name;
		if (load_lvs(l, g, get(n, "lvs")) == -1)
			return -1;
	}
	return 0;
}

static int
add_member(struct layout *l, const struct ynode *at, struct member *m,
    size_t *nm, const char *into, const char *dev, uint64_t bytes,
    const char *label)
{
	if (*nm == MAXM)
		return fail(l, at, "%s has more than %d members", into, MAXM);
	m[*nm].dev = dev;
	m[*nm].bytes = bytes;
	snprintf(m[*nm].label, sizeof(m[*nm].label), "%s", label);
	(*nm)++;
	return 0;
}

/* Puts what v holds into the array or volume group it names. */
static int
resolve(struct layout *l, struct vol *v, const char *dev, uint64_t bytes,
    const char *label, int arrays_ok)
{
	const char	*cands[MAXA + MAXV], *near;
	size_t		 i, n = 0;

	if (v->use == NULL)
		return 0;
	v->used = 1;
	for (i = 0; arrays_ok && i < l->na; i++)
		if (strcmp(l->a[i].name, v->use) == 0)
			return add_member(l, v->use_node, l->a[i].m,
			    &l->a[i].nm, l->a[i].name, dev, bytes, label);
	for (i = 0; i < l->ng; i++)
		if (strcmp(l->g[i].name, v->use) == 0)
			return add_member(l, v->use_node, l->g[i].m,
			    &l->g[i].nm, l->g[i].name, dev, bytes, label);
	for (i = 0; i < l->na; i++)
		if (!arrays_ok && strcmp(l->a[i].name, v->use) == 0)
			return fail(l, v->use_node, "an array goes into a "
			    "volume group, not into array '%s'", v->use);
	for (i = 0; arrays_ok && i < l->na; i++)
		cands[n++] = l->a[i].name;
	for (i = 0; i < l->ng; i++)
		cands[n++] = l->g[i].name;
	if ((near = lab_suggest(v->use, cands, n)) != NULL)
		return fail(l, v->use_node, "no array or volume group '%.64s'; "
		    "did you mean '%s'?", v->use, near);
	return fail(l, v->use_node, "no array or volume group '%.64s' in "
	    "this layout", v->use);
}

static int
unused(struct layout *l, const struct vol *v, const char *what)
{
	if (v->used || v->fs != NULL)
		return 0;
	return plan_warn(l->p, l->err, "%s is left unused (no 'use' or "
	    "'fs')", what);
}

/* Links everything up and sizes it. */
static int
resolve_all(struct layout *l)
{
	struct ldisk	*d;
	struct larray	*a;
	struct lvg	*g;
	char		 label[64], ms[32], b1[32], b2[32];
	uint64_t	 min, fixed;
	size_t		 i, j;

	for (i = 0; i < l->nd; i++) {
		d = &l->d[i];
		if (d->np == 0) {
			snprintf(label, sizeof(label), "slot %s", d->d->slot);
			if (resolve(l, &d->v, d->dev, d->d->size_bytes, label,
			    1) == -1 || unused(l, &d->v, label) == -1)
				return -1;
		}
		for (j = 0; j < d->np; j++) {
			snprintf(label, sizeof(label), "slot %s partition %zu",
			    d->d->slot, j + 1);
			if (resolve(l, &d->p[j].v, d->p[j].dev, d->p[j].bytes,
			    label, 1) == -1 ||
			    unused(l, &d->p[j].v, label) == -1)
				return -1;
		}
	}
	for (i = 0; i < l->na; i++) {
		a = &l->a[i];
		if (a->nm < a->l->min)
			return fail(l, a->v.node, "array %s (%s) has %zu "
			    "member%s, it needs %zu or more (members are what "
			    "says 'use: %s')", a->name, a->l->name, a->nm,
			    a->nm == 1 ? "" : "s", a->l->min, a->name);
		min = UINT64_MAX;
		for (j = 0; j < a->nm; j++)
			if (a->m[j].bytes < min)
				min = a->m[j].bytes;
		size_human(min, ms);
		for (j = 0; j < a->nm; j++) {
			if (a->m[j].bytes == min)
				continue;
			size_human(a->m[j].bytes - min, b1);
			size_human(a->m[j].bytes, b2);
			if (plan_warn(l->p, l->err, "array %s uses %s of %s "
			    "(%s): %s of it is lost", a->name, ms,
			    a->m[j].label, b2, b1) == -1)
				return -1;
		}
		a->bytes = md_usable(a->l, a->nm, min);
		if (resolve(l, &a->v, a->dev, a->bytes, a->name, 0) == -1 ||
		    unused(l, &a->v, a->name) == -1)
			return -1;
	}
	for (i = 0; i < l->ng; i++) {
		g = &l->g[i];
		if (g->nm == 0)
			return fail(l, g->node, "volume group %s has no "
			    "physical volume (nothing says 'use: %s')",
			    g->name, g->name);
		fixed = 0;
		for (j = 0; j < g->nm; j++)
			g->bytes += g->m[j].bytes;
		for (j = 0; j < g->nlv; j++)
			fixed += g->lv[j].bytes;
		if (fixed > g->bytes) {
			size_human(fixed, b1);
			size_human(g->bytes, b2);
			return fail(l, g->node, "the logical volumes of %s need "
			    "%s; it holds about %s", g->name, b1, b2);
		}
	}
	return 0;
}

static int
check_mounts(struct layout *l)
{
	const char	*m[MAXD * MAXP + MAXA + MAXV * MAXL];
	const struct ynode *at[LAB_ARRAY_SIZE(m)];
	size_t		 n = 0, i, j, k;

	for (i = 0; i < l->nd; i++) {
		if (l->d[i].v.mount)
			at[n] = l->d[i].v.node, m[n++] = l->d[i].v.mount;
		for (j = 0; j < l->d[i].np; j++)
			if (l->d[i].p[j].v.mount)
				at[n] = l->d[i].p[j].v.node,
				m[n++] = l->d[i].p[j].v.mount;
	}
	for (i = 0; i < l->na; i++)
		if (l->a[i].v.mount)
			at[n] = l->a[i].v.node, m[n++] = l->a[i].v.mount;
	for (i = 0; i < l->ng; i++)
		for (j = 0; j < l->g[i].nlv; j++)
			if (l->g[i].lv[j].mount)
				at[n] = l->g[i].lv[j].node,
				m[n++] = l->g[i].lv[j].mount;
	for (i = 0; i < n; i++)
		for (k = 0; k < i; k++)
			if (strcmp(m[i], m[k]) == 0)
				return fail(l, at[i], "mount point %s is used "
				    "twice (first at line %d)", m[i],
				    at[k]->line);
	return 0;
}

/* Parses and checks a layout file. */
static int
load(struct layout *l, const struct ynode *root)
{
	if (root == NULL || root->kind != YNODE_MAP)
		return lab_err_set(l->err, LAB_EXIT_INPUT, "%s:1:1: a layout "
		    "is a mapping with 'disks' (and 'arrays', 'vgs')",
		    l->file);
	if (want_map(l, root, top_keys, "a layout") == -1 ||
	    load_arrays(l, get(root, "arrays")) == -1 ||
	    load_vgs(l, get(root, "vgs")) == -1 ||
	    load_disks(l, get(root, "disks")) == -1 ||
	    resolve_all(l) == -1 || check_mounts(l) == -1)
		return -1;
	return 0;
}

static int
add_dev(struct lab_tvars *t, const char *list, const char *key,
    const char *val)
{
	struct lab_tvars	*r;

	if ((r = lab_tvars_add(t, list)) == NULL)
		return -1;
	return lab_tvars_set(r, key, val);
}

/* The CHECK steps: tools, names and mount points, then the disks. */
static int
checks(struct layout *l)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = lab_tvars_new();
	struct pdisk	*v;
	size_t		 i, j;
	int		 rc, parts = 0, fs = 0;

	if (t == NULL)
		return lab_err_oom(l->err);
	for (i = 0; i < l->nd; i++) {
		parts |= l->d[i].np > 0;
		fs |= l->d[i].v.fs != NULL;
		for (j = 0; j < l->d[i].np; j++) {
			fs |= l->d[i].p[j].v.fs != NULL;
			if (l->d[i].p[j].v.mount != NULL && add_dev(t, "mounts",
			    "mount", l->d[i].p[j].v.mount) == -1)
				return lab_err_oom(l->err);
		}
		if (l->d[i].v.mount != NULL && add_dev(t, "mounts", "mount",
		    l->d[i].v.mount) == -1)
			return lab_err_oom(l->err);
	}
	for (i = 0; i < l->na; i++) {
		fs |= l->a[i].v.fs != NULL;
		if (add_dev(t, "arrays", "dev", l->a[i].dev) == -1 ||
		    (l->a[i].v.mount != NULL && add_dev(t, "mounts", "mount",
		    l->a[i].v.mount) == -1))
			return lab_err_oom(l->err);
	}
	for (i = 0; i < l->ng; i++) {
		if (add_dev(t, "vgs", "vg", l->g[i].name) == -1)
			return lab_err_oom(l->err);
		for (j = 0; j < l->g[i].nlv; j++) {
			fs |= l->g[i].lv[j].fs != NULL;
			if (l->g[i].lv[j].mount != NULL && add_dev(t, "mounts",
			    "mount", l->g[i].lv[j].mount) == -1)
				return lab_err_oom(l->err);
		}
	}
	lab_tvars_setb(t, "need_mdadm", l->na > 0);
	lab_tvars_setb(t, "need_lvm", l->ng > 0);
	lab_tvars_setb(t, "need_sfdisk", parts);
	lab_tvars_setb(t, "need_mkfs", fs);
	if (plan_script(l->p, LAB_STEP_CHECK, "check-md.sh", t, "the tools "
	    "are installed; the arrays and volume groups are new; the mount "
	    "points are free", l->err) == NULL)
		return -1;
	if ((v = calloc(l->nd, sizeof(*v))) == NULL)
		return lab_err_oom(l->err);
	for (i = 0; i < l->nd; i++) {
		v[i].d = l->d[i].d;
		v[i].dev = (char *)l->d[i].dev;
	}
	rc = disk_checks(l->p, v, l->nd, l->req->force, l->err);
	free(v);
	return rc;
}

static int
run(struct layout *l, const char *tmpl, struct lab_tvars *t,
    const char *fmt, ...) LAB_PRINTF(4, 5);

static int
run(struct layout *l, const char *tmpl, struct lab_tvars *t,
    const char *fmt, ...)
{
	char	comment[256];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(comment, sizeof(comment), fmt, ap);
	va_end(ap);
	return plan_script(l->p, LAB_STEP_RUN, tmpl, t, comment, l->err) ?
	    0 : -1;
}

static char
part_type(const struct vol *v, const struct layout *l)
{
	size_t	i;

	for (i = 0; v->use != NULL && i < l->na; i++)
		if (strcmp(l->a[i].name, v->use) == 0)
			return 'R';
	if (v->use != NULL)
		return 'V';
	if (v->fs != NULL && strcmp(v->fs, "swap") == 0)
		return 'S';
	return 'L';
}

static int
partition(struct layout *l, const struct ldisk *d)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = lab_tvars_new();
	const struct lpart	*p;
	char			 line[96];
	size_t			 i;

	if (t == NULL)
		return lab_err_oom(l->err);
	lab_tvars_set(t, "dev", d->dev);
	snprintf(line, sizeof(line), "label: %s",
	    strcmp(d->table, "msdos") == 0 ? "dos" : "gpt");
	if (add_dev(t, "lines", "line", line) == -1)
		return lab_err_oom(l->err);
	for (i = 0; i < d->np; i++) {
		p = &d->p[i];
		if (p->rest)
			snprintf(line, sizeof(line), "type=%c",
			    part_type(&p->v, l));
		else
			snprintf(line, sizeof(line), "size=%lluKiB, type=%c",
			    (unsigned long long)((p->bytes + 1023) / 1024),
			    part_type(&p->v, l));
		if (add_dev(t, "lines", "line", line) == -1)
			return lab_err_oom(l->err);
	}
	return run(l, "part.sh", t, "partition slot %s (%s, %zu "
	    "partition%s)", d->d->slot, d->table, d->np, d->np == 1 ? "" :
	    "s");
}

static int
mkfs(struct layout *l, const char *dev, const char *fs, const char *mount,
    const char *what)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = lab_tvars_new();

	if (fs == NULL)
		return 0;
	if (t == NULL)
		return lab_err_oom(l->err);
	lab_tvars_set(t, "dev", dev);
	lab_tvars_set(t, "fs", fs);
	lab_tvars_setb(t, "swap", strcmp(fs, "swap") == 0);
	lab_tvars_set(t, "pass", strncmp(fs, "ext", 3) == 0 ? "2" : "0");
	if (mount != NULL)
		lab_tvars_set(t, "mount", mount);
	if (strcmp(fs, "swap") == 0)
		return run(l, "mkfs.sh", t, "make swap on %s and turn it on",
		    what);
	if (mount != NULL)
		return run(l, "mkfs.sh", t, "make %s on %s, mount it on %s "
		    "(and in /etc/fstab)", fs, what, mount);
	return run(l, "mkfs.sh", t, "make %s on %s", fs, what);
}

static void
members(struct lab_buf *b, const struct member *m, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		lab_buf_addf(b, "%s%s", i ? ", " : "", m[i].label);
}

/* Records what holds data. */
static int
volumes(struct layout *l)
{
	struct lab_buf	 b;
	const struct ldisk *d;
	const struct lvg *g;
	char		 hs[32], label[64];
	size_t		 i, j;
	int		 rc = 0;

	lab_buf_init(&b);
	for (i = 0; i < l->nd && rc == 0; i++) {
		d = &l->d[i];
		if (d->np == 0 && d->v.fs != NULL) {
			snprintf(label, sizeof(label), "slot %s", d->d->slot);
			lab_buf_addf(&b, "%s%s%s", d->v.fs, d->v.mount ?
			    " on " : "", d->v.mount ? d->v.mount : "");
			rc = plan_volume(l->p, label, b.s ? b.s : "", d->d->size_bytes,
			    l->err);
			b.len = 0;
		}
		for (j = 0; j < d->np && rc == 0; j++) {
			if (d->p[j].v.fs == NULL)
				continue;
			snprintf(label, sizeof(label), "slot %s partition %zu",
			    d->d->slot, j + 1);
			lab_buf_addf(&b, "%s%s%s", d->p[j].v.fs,
			    d->p[j].v.mount ? " on " : "",
			    d->p[j].v.mount ? d->p[j].v.mount : "");
			rc = plan_volume(l->p, label, b.s ? b.s : "", d->p[j].bytes,
			    l->err);
			b.len = 0;
		}
	}
	for (i = 0; i < l->na && rc == 0; i++) {
		if (l->a[i].v.fs == NULL)
			continue;
		lab_buf_addf(&b, "md %s over ", l->a[i].l->name);
		members(&b, l->a[i].m, l->a[i].nm);
		lab_buf_addf(&b, ": %s%s%s", l->a[i].v.fs, l->a[i].v.mount ?
		    " on " : "", l->a[i].v.mount ? l->a[i].v.mount : "");
		rc = plan_volume(l->p, l->a[i].name, b.s ? b.s : "", l->a[i].bytes,
		    l->err);
		b.len = 0;
	}
	for (i = 0; i < l->ng && rc == 0; i++) {
		g = &l->g[i];
		lab_buf_adds(&b, "lvm volume group on ");
		members(&b, g->m, g->nm);
		for (j = 0; j < g->nlv; j++) {
			size_human(g->lv[j].bytes, hs);
			lab_buf_addf(&b, "%s%s %s", j ? ", " : "; volumes ",
			    g->lv[j].name, g->lv[j].rest ? "(the rest)" : hs);
		}
		rc = plan_volume(l->p, g->name, b.s ? b.s : "", g->bytes, l->err);
		b.len = 0;
	}
	if (b.oom)
		rc = lab_err_oom(l->err);
	lab_buf_release(&b);
	return rc;
}

/* The steps of a layout, in the order they must run. */
static int
layout_steps(struct layout *l)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = NULL;
	struct lab_tvars	*r;
	struct larray		*a;
	struct lvg		*g;
	struct llv		*v;
	char			 label[64];
	size_t			 i, j, nwipe = 0;

	if (checks(l) == -1)
		return -1;
	if ((t = lab_tvars_new()) == NULL)
		return lab_err_oom(l->err);
	for (i = 0; l->req->force && i < l->nd; i++)
		if (l->d[i].np == 0) {
			nwipe++;
			if (add_dev(t, "devs", "dev", l->d[i].dev) == -1)
				return lab_err_oom(l->err);
		}
	if (nwipe > 0 && run(l, "wipe.sh", t, "wipe old signatures off the "
	    "whole disks used as they are (--force)") == -1)
		return -1;
	for (i = 0; i < l->nd; i++)
		if (l->d[i].np > 0 && partition(l, &l->d[i]) == -1)
			return -1;
	lab_tvars_free(t);
	if ((t = lab_tvars_new()) == NULL)
		return lab_err_oom(l->err);
	for (i = 0; i < l->na; i++) {
		LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *m =
		    lab_tvars_new();

		a = &l->a[i];
		if (m == NULL || add_dev(t, "arrays", "dev", a->dev) == -1)
			return lab_err_oom(l->err);
		lab_tvars_set(m, "dev", a->dev);
		lab_tvars_set(m, "level", a->l->mdadm);
		lab_tvars_setf(m, "count", "%zu", a->nm);
		for (j = 0; j < a->nm; j++)
			if (add_dev(m, "devs", "dev", a->m[j].dev) == -1)
				return lab_err_oom(l->err);
		if (run(l, "md-create.sh", m, "create md %s array %s over "
		    "%zu devices", a->l->name, a->dev, a->nm) == -1)
			return -1;
	}
	if (l->na > 0 && run(l, "md-conf.sh", t, "record the arrays in "
	    "mdadm.conf and rebuild the initramfs") == -1)
		return -1;
	for (i = 0; i < l->ng; i++) {
		LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *m =
		    lab_tvars_new();

		g = &l->g[i];
		if (m == NULL)
			return lab_err_oom(l->err);
		lab_tvars_set(m, "vg", g->name);
		for (j = 0; j < g->nm; j++)
			if (add_dev(m, "pvs", "dev", g->m[j].dev) == -1)
				return lab_err_oom(l->err);
		if (run(l, "lvm-vg.sh", m, "make volume group %s", g->name) ==
		    -1)
			return -1;
		for (j = 0; j < g->nlv; j++) {
			v = &g->lv[j];
			if ((r = lab_tvars_new()) == NULL)
				return lab_err_oom(l->err);
			lab_tvars_set(r, "vg", g->name);
			lab_tvars_set(r, "lv", v->name);
			lab_tvars_setb(r, "rest", v->rest);
			lab_tvars_setf(r, "bytes", "%llu",
			    (unsigned long long)v->bytes);
			if (run(l, "lvm-lv.sh", r, "make logical volume %s/%s",
			    g->name, v->name) == -1) {
				lab_tvars_free(r);
				return -1;
			}
			lab_tvars_free(r);
		}
	}
	for (i = 0; i < l->nd; i++) {
		snprintf(label, sizeof(label), "slot %s", l->d[i].d->slot);
		if (l->d[i].np == 0 && mkfs(l, l->d[i].dev, l->d[i].v.fs,
		    l->d[i].v.mount, label) == -1)
			return -1;
		for (j = 0; j < l->d[i].np; j++) {
			snprintf(label, sizeof(label), "slot %s partition %zu",
			    l->d[i].d->slot, j + 1);
			if (mkfs(l, l->d[i].p[j].dev, l->d[i].p[j].v.fs,
			    l->d[i].p[j].v.mount, label) == -1)
				return -1;
		}
	}
	for (i = 0; i < l->na; i++)
		if (mkfs(l, l->a[i].dev, l->a[i].v.fs, l->a[i].v.mount,
		    l->a[i].dev) == -1)
			return -1;
	for (i = 0; i < l->ng; i++)
		for (j = 0; j < l->g[i].nlv; j++)
			if (mkfs(l, l->g[i].lv[j].dev, l->g[i].lv[j].fs,
			    l->g[i].lv[j].mount, l->g[i].lv[j].dev) == -1)
				return -1;
	return volumes(l);
}

/* Plans a layout file. */
int
plan_layout(const struct lab_host *h, const struct lab_storage_req *req,
    struct lab_plan **ret, struct lab_err *err)
{
	struct ynode	*root = NULL;
	struct layout	*l;
	const char	*name = req->layout_name ? req->layout_name : "layout";
	const char	*base;
	int		 rc = -1;

	if (req->disks != NULL || req->cache != NULL || req->log != NULL ||
	    req->pool != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "a layout file names "
		    "its own disks and volumes: no disks, cache, log or pool "
		    "with it");
	base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	if ((l = calloc(1, sizeof(*l))) == NULL)
		return lab_err_oom(err);
	l->file = name;
	l->h = h;
	l->req = req;
	l->err = err;
	if ((l->p = plan_new(h, "storage", base)) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	if (yaml_tree_load(name, req->layout_text, strlen(req->layout_text),
	    &root, err) == -1 || load(l, root) == -1 ||
	    layout_steps(l) == -1)
		goto out;
	*ret = l->p;
	l->p = NULL;
	rc = 0;
out:
	yaml_tree_free(root);
	lab_plan_free(l->p);
	lab_strv_release(&l->own);
	free(l);
	return rc;
}
