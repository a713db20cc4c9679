/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "layout-priv.h"
#include "core/schema.h"
#include "core/yaml-priv.h"

/*
 * Layout files: partitions per disk, md arrays over partitions or whole
 * disks, LVM volume groups and their logical volumes, filesystems and
 * mount points (README, "Layout files"). Each partition, disk or array
 * says what it goes into with 'use'; arrays and volume groups are named.
 */

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

static int LAB_PRINTF(3, 4)
fail(struct layout *l, const struct ynode *n, const char *fmt, ...)
{
	va_list	ap;
	int	rc;

	va_start(ap, fmt);
	rc = lab_schema_vfail(l->err, l->file, n, fmt, ap);
	va_end(ap);
	return rc;
}

static int
want_map(struct layout *l, const struct ynode *n, const char *const *keys,
    const char *what)
{
	if (n->kind != YNODE_MAP)
		return fail(l, n, "%s must be a mapping", what);
	return lab_schema_keys(l->file, n, keys, what, l->err);
}

static const struct ynode *
get(const struct ynode *map, const char *key)
{
	return lab_schema_get(map, key);
}

/* A string under key: *ret is NULL when absent and opt. */
static int
want_str(struct layout *l, const struct ynode *map, const char *key,
    const char *what, int opt, const char **ret)
{
	const struct ynode	*n = get(map, key);

	*ret = NULL;
	if (n == NULL || lab_yaml_is_null(n)) {
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
	if (want_str(l, map, key, what, 1, ret) == -1 || *ret == NULL)
		return l->err->code ? -1 : 0;
	return lab_schema_word(l->file, get(map, key), key, *ret, what, w,
	    l->err);
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
	if (*ret < MIB)
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

/*
 * Folders a filesystem of a layout is never mounted on: the system's
 * own. Mounting there hides what the running system holds (and fstab
 * does it again at every boot). The kernel's (/dev, /proc, /run, /sys)
 * are refused below them too. /home is not among them: it is a usual
 * filesystem of its own on a new server, and the target's check refuses
 * a folder that is not empty.
 */
static const char *const system_dirs[] = { "/bin", "/boot", "/dev", "/etc",
	"/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc", "/root",
	"/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var", NULL };
static const char *const kernel_dirs[] = { "/dev/", "/proc/", "/run/",
	"/sys/", NULL };

/*
 * The mount point at node m, normalised into *mount (owned by l): "//",
 * "/./" and a trailing "/" collapse; a relative path, "..", and the
 * system's folders are refused.
 */
static int
mount_point(struct layout *l, const struct ynode *m, const char *what,
    const char **mount)
{
	const char	*s = *mount, *e;
	char		*out, *o;
	size_t		 i, n;

	if (s[0] != '/' || !plain_path(s))
		return fail(l, m, "bad mount point '%.64s' of %s: an absolute "
		    "path of [A-Za-z0-9_./-]", s, what);
	if ((out = malloc(strlen(s) + 2)) == NULL)
		return lab_err_oom(l->err);
	o = out;
	while (*s != '\0') {
		while (*s == '/')
			s++;
		e = s + strcspn(s, "/");
		n = (size_t)(e - s);
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			free(out);
			return fail(l, m, "bad mount point '%.64s' of %s: no "
			    "'..' in a mount point", *mount, what);
		}
		if (n > 0 && !(n == 1 && s[0] == '.')) {
			*o++ = '/';
			memcpy(o, s, n);
			o += n;
		}
		s = e;
	}
	if (o == out)
		*o++ = '/';
	*o = '\0';
	for (i = 0; system_dirs[i] != NULL; i++)
		if (strcmp(out, system_dirs[i]) == 0)
			break;
	for (n = 0; system_dirs[i] == NULL && kernel_dirs[n] != NULL; n++)
		if (strncmp(out, kernel_dirs[n], strlen(kernel_dirs[n])) == 0)
			break;
	if (strcmp(out, "/") == 0 || system_dirs[i] != NULL ||
	    kernel_dirs[n] != NULL) {
		fail(l, m, "mount point %s of %s is a system folder: "
		    "mounting there would hide what the running system holds "
		    "(a folder of its own, such as /srv/data, is fine)", out,
		    what);
		free(out);
		return -1;
	}
	if (lab_strv_take(&l->own, out) == -1)
		return lab_err_oom(l->err);
	*mount = out;
	return 0;
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
	if (v->mount != NULL && mount_point(l, m, what, &v->mount) == -1)
		return -1;
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
		if ((p->dev = own(l, lab_part_dev(d->dev, (int)i + 1))) == NULL)
			return -1;
	}
	if (fixed + ALIGN > d->d->size_bytes) {
		lab_size_human(fixed, a);
		lab_size_human(d->d->size_bytes, b);
		return fail(l, seq, "the partitions of slot %s need %s; the "
		    "disk holds %s", d->d->slot, a, b);
	}
	p = &d->p[d->np - 1];
	if (p->rest)
		p->bytes = d->d->size_bytes - fixed - ALIGN;
	if (p->rest && p->bytes < MIB)
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
		if ((d->d = lab_disk_find(l->h, slot, "layout disk", l->err)) ==
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
		if ((d->dev = own(l, lab_disk_dev(l->p, d->d))) == NULL ||
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
		if (l->a[i].name != NULL && name != NULL &&
		    strcmp(l->a[i].name, name) == 0)
			return fail(l, n, "the name '%s' is taken (line %d)",
			    name, l->a[i].v.node->line);
	for (i = 0; i < l->ng; i++)
		if (l->g[i].name != NULL && name != NULL &&
		    strcmp(l->g[i].name, name) == 0)
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
		if (lab_check_md_name(name, "array", l->err) == -1) {
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
		a->l = lab_md_level_find(level);
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

	if (seq == NULL || lab_yaml_is_null(seq))
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
		    want_str(l, n, "name", what, 0, &v->name) == -1 ||
		    v->name == NULL)	/* never: the name is not optional */
			return -1;
		if (lab_check_md_name(v->name, "logical volume", l->err) == -1) {
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
		if (lab_check_md_name(name, "volume group", l->err) == -1) {
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
	return lab_plan_warn(l->p, l->err, "%s is left unused (no 'use' or "
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
		lab_size_human(min, ms);
		for (j = 0; j < a->nm; j++) {
			if (a->m[j].bytes == min)
				continue;
			lab_size_human(a->m[j].bytes - min, b1);
			lab_size_human(a->m[j].bytes, b2);
			if (lab_plan_warn(l->p, l->err, "array %s uses %s of %s "
			    "(%s): %s of it is lost", a->name, ms,
			    a->m[j].label, b2, b1) == -1)
				return -1;
		}
		a->bytes = lab_md_usable(a->l, a->nm, min);
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
			lab_size_human(fixed, b1);
			lab_size_human(g->bytes, b2);
			return fail(l, g->node, "the logical volumes of %s "
			    "need %s; it holds about %s", g->name, b1, b2);
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

/* Plans a layout file. */
int
lab_plan_layout(const struct lab_host *h, const struct lab_storage_req *req,
    struct lab_plan **ret, struct lab_err *err)
{
	struct ynode	*root = NULL;
	struct layout	*l;
	const char	*name, *base;
	int		 rc = -1;

	if (req->disks != NULL || req->cache != NULL || req->log != NULL ||
	    req->pool != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "a layout file names "
		    "its own disks and volumes: no disks, cache, log or pool "
		    "with it");
	name = req->layout_name ? req->layout_name : "layout";
	base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	if ((l = calloc(1, sizeof(*l))) == NULL)
		return lab_err_oom(err);
	l->file = name;
	l->h = h;
	l->req = req;
	l->err = err;
	if ((l->p = lab_plan_new(h, "storage", base)) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	if (lab_yaml_tree_load(name, req->layout_text, strlen(req->layout_text),
	    &root, err) == -1 || load(l, root) == -1 ||
	    lab_layout_steps(l) == -1)
		goto out;
	*ret = l->p;
	l->p = NULL;
	rc = 0;
out:
	lab_yaml_tree_free(root);
	lab_plan_free(l->p);
	lab_strv_release(&l->own);
	free(l);
	return rc;
}
