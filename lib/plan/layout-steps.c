/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout-priv.h"

/*
 * The steps of a layout file: checks, partitions, arrays, volume groups,
 * logical volumes and filesystems, in the order they must be made.
 */

#define BUFS(b)	((b)->s != NULL ? (b)->s : "")

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
	lab_tvars_setb(t, "force", l->req->force);
	lab_tvars_set(t, "host", l->h->name);
	if (lab_plan_script(l->p, LAB_STEP_CHECK, "check-md.sh", t, "the tools "
	    "are installed; the arrays and volume groups are new; the mount "
	    "points are free", l->err) == NULL)
		return -1;
	if ((v = calloc(l->nd + 1, sizeof(*v))) == NULL)	/* never 0 bytes */
		return lab_err_oom(l->err);
	for (i = 0; i < l->nd; i++) {
		v[i].d = l->d[i].d;
		v[i].dev = (char *)l->d[i].dev;
	}
	rc = lab_disk_checks(l->p, v, l->nd, l->req->force, l->err);
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
	return lab_plan_script(l->p, LAB_STEP_RUN, tmpl, t, comment, l->err) ?
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
	int	rc;

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
		rc = run(l, "mkfs.sh", t, "make swap on %s and turn it on",
		    what);
	else if (mount != NULL)
		rc = run(l, "mkfs.sh", t, "make %s on %s, mount it on %s "
		    "(and in /etc/fstab)", fs, what, mount);
	else
		rc = run(l, "mkfs.sh", t, "make %s on %s", fs, what);
	if (rc == 0)
		l->p->steps[l->p->nsteps - 1].timeout_s = SLOW_S;
	return rc;
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
			rc = lab_plan_add_volume(l->p, label, BUFS(&b), d->d->size_bytes,
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
			rc = lab_plan_add_volume(l->p, label, BUFS(&b), d->p[j].bytes,
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
		rc = lab_plan_add_volume(l->p, l->a[i].name, BUFS(&b), l->a[i].bytes,
		    l->err);
		b.len = 0;
	}
	for (i = 0; i < l->ng && rc == 0; i++) {
		g = &l->g[i];
		lab_buf_adds(&b, "lvm volume group on ");
		members(&b, g->m, g->nm);
		for (j = 0; j < g->nlv; j++) {
			lab_size_human(g->lv[j].bytes, hs);
			lab_buf_addf(&b, "%s%s %s", j ? ", " : "; volumes ",
			    g->lv[j].name, g->lv[j].rest ? "(the rest)" : hs);
		}
		rc = lab_plan_add_volume(l->p, g->name, BUFS(&b), g->bytes, l->err);
		b.len = 0;
	}
	if (b.oom)
		rc = lab_err_oom(l->err);
	lab_buf_release(&b);
	return rc;
}

/* The steps of a layout, in the order they must run. */
int
lab_layout_steps(struct layout *l)
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
	if (l->na > 0) {
		if (run(l, "md-conf.sh", t, "record the arrays in mdadm.conf "
		    "and rebuild the initramfs") == -1)
			return -1;
		l->p->steps[l->p->nsteps - 1].timeout_s = SLOW_S;
	}
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

