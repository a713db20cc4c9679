/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "plan-priv.h"

/*
 * ZFS pools: striped mirrors (disks paired by size), raidz1, raidz2, one
 * mirror, or a plain stripe; ashift=12 always, lz4 where the target has
 * it, sync=standard, an optional L2ARC cache and SLOG device.
 */

struct zlayout {
	const char	*name;
	const char	*vdev;		/* the vdev word; NULL: stripe */
	size_t		 min;
	int		 even;
	int		 parity;
};

static const struct zlayout zlayouts[] = {
	{ "raid10", "mirror", 4, 1, 0 },
	{ "raidz1", "raidz1", 3, 0, 1 },
	{ "raidz2", "raidz2", 4, 0, 2 },
	{ "mirror", "mirror", 2, 0, 0 },
	{ "stripe", NULL, 1, 0, 0 },
};

/* Refuses names zpool refuses. */
static int
check_pool(const char *name, struct lab_err *err)
{
	static const char *const reserved[] = { "mirror", "raidz", "draid",
		"spare", "log", "cache" };
	const char	*why;
	size_t		 i;

	if (lab_check_name(name, &why) == -1)
		return lab_err_set(err, LAB_EXIT_INPUT, "bad pool name '%s': "
		    "%s", name, why);
	if (!((name[0] >= 'a' && name[0] <= 'z') ||
	    (name[0] >= 'A' && name[0] <= 'Z')))
		return lab_err_set(err, LAB_EXIT_INPUT, "bad pool name '%s': "
		    "it must start with a letter", name);
	for (i = 0; i < LAB_ARRAY_SIZE(reserved); i++)
		if (strncmp(name, reserved[i], strlen(reserved[i])) == 0)
			return lab_err_set(err, LAB_EXIT_INPUT, "bad pool name "
			    "'%s': names starting with '%s' are reserved by "
			    "ZFS", name, reserved[i]);
	return 0;
}

static int
by_size(const void *a, const void *b)
{
	const struct pdisk	*x = a, *y = b;

	if (x->d->size_bytes != y->d->size_bytes)
		return x->d->size_bytes < y->d->size_bytes ? 1 : -1;
	/* stable: keep the inventory's order between equal sizes */
	return x->d < y->d ? -1 : x->d > y->d;
}

static void
slots_of(const struct pdisk *v, size_t n, char *buf, size_t len)
{
	size_t	i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i ? ", " : "", v[i].d->slot);
}

/* Warns about the capacity lost to the smallest disk of a vdev. */
static int
warn_unequal(struct lab_plan *p, const char *what, const struct pdisk *v,
    size_t n, uint64_t min, int *unequal, struct lab_err *err)
{
	char	a[32], b[32], ms[32];
	size_t	i;

	lab_size_human(min, ms);
	for (i = 0; i < n; i++) {
		if (v[i].d->size_bytes == min)
			continue;
		*unequal = 1;
		lab_size_human(v[i].d->size_bytes - min, a);
		lab_size_human(v[i].d->size_bytes, b);
		if (lab_plan_warn(p, err, "%s uses %s of the disk in slot %s (%s): "
		    "%s of it is lost", what, ms, v[i].d->slot, b, a) == -1)
			return -1;
	}
	return 0;
}

static int
vdev(struct lab_tvars *t, const char *type, const struct pdisk *v, size_t n)
{
	struct lab_tvars	*vd, *d;
	size_t			 i;

	if ((vd = lab_tvars_add(t, "vdevs")) == NULL)
		return -1;
	if (type != NULL)
		lab_tvars_set(vd, "type", type);
	for (i = 0; i < n; i++) {
		if ((d = lab_tvars_add(vd, "devs")) == NULL)
			return -1;
		lab_tvars_set(d, "dev", v[i].dev);
		lab_tvars_setb(d, "sp", i > 0);
	}
	return 0;
}

static uint64_t
smallest(const struct pdisk *v, size_t n)
{
	uint64_t	m = UINT64_MAX;
	size_t		i;

	for (i = 0; i < n; i++)
		if (v[i].d->size_bytes < m)
			m = v[i].d->size_bytes;
	return m;
}

/* Plans the vdevs; fills t, what and the usable bytes. */
static int
vdevs(struct lab_plan *p, const struct zlayout *z, struct pdisk *v, size_t n,
    struct lab_tvars *t, struct lab_buf *what, uint64_t *usable,
    int *unequal, struct lab_err *err)
{
	char		 slots[256], label[64];
	uint64_t	 m;
	size_t		 i;

	slots_of(v, n, slots, sizeof(slots));
	if (n < z->min || (z->even && n % 2 != 0))
		return lab_err_set(err, LAB_EXIT_INPUT, z->even ? "%s needs an "
		    "even number of disks, %zu or more; got %zu (%s%s)" :
		    "%s needs %zu disks or more; got %zu (%s%s)", z->name,
		    z->min, n, n ? "slots " : "none", slots);
	lab_buf_addf(what, "zfs %s:", z->name);
	if (strcmp(z->name, "raid10") == 0) {
		qsort(v, n, sizeof(*v), by_size);
		*usable = 0;
		for (i = 0; i < n; i += 2) {
			m = smallest(v + i, 2);
			*usable += m;
			snprintf(label, sizeof(label), "the mirror of slots "
			    "%s and %s", v[i].d->slot, v[i + 1].d->slot);
			if (warn_unequal(p, label, v + i, 2, m, unequal,
			    err) == -1 || vdev(t, "mirror", v + i, 2) == -1)
				return -1;
			lab_buf_addf(what, "%s mirror(slot %s, slot %s)",
			    i ? " +" : "", v[i].d->slot, v[i + 1].d->slot);
		}
		return 0;
	}
	m = smallest(v, n);
	if (z->vdev != NULL) {
		*usable = (n - (size_t)z->parity) * m;
		if (strcmp(z->name, "mirror") == 0)
			*usable = m;
		snprintf(label, sizeof(label), "%s", z->name);
		if (warn_unequal(p, label, v, n, m, unequal, err) == -1 ||
		    vdev(t, z->vdev, v, n) == -1)
			return -1;
		lab_buf_addf(what, " %s(slots %s)", z->vdev, slots);
		return 0;
	}
	*usable = 0;
	for (i = 0; i < n; i++) {
		*usable += v[i].d->size_bytes;
		if (vdev(t, NULL, v + i, 1) == -1)
			return -1;
	}
	lab_buf_addf(what, " stripe(slots %s)", slots);
	if (n > 1 && lab_plan_warn(p, err, "a stripe has no redundancy: one "
	    "failed disk loses the whole pool") == -1)
		return -1;
	return 0;
}

/* Where each disk goes, as zpool status names its vdev. */
static int
members(struct lab_plan *p, const struct zlayout *z, const char *pool,
    const struct pdisk *v, size_t n, const struct pdisk *cache,
    const struct pdisk *log, struct lab_err *err)
{
	char	name[128];
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(z->name, "raid10") == 0)
			snprintf(name, sizeof(name), "%s/mirror-%zu", pool,
			    i / 2);
		else if (z->vdev != NULL)
			snprintf(name, sizeof(name), "%s/%s-0", pool, z->vdev);
		else
			snprintf(name, sizeof(name), "%s", pool);
		if (lab_plan_add_member(p, v[i].d->slot, name, err) == -1)
			return -1;
	}
	snprintf(name, sizeof(name), "%s/cache", pool);
	if (cache->d != NULL &&
	    lab_plan_add_member(p, cache->d->slot, name, err) == -1)
		return -1;
	snprintf(name, sizeof(name), "%s/log", pool);
	if (log->d != NULL && lab_plan_add_member(p, log->d->slot, name, err) == -1)
		return -1;
	return 0;
}

/* An L2ARC or SLOG device. */
static int
extra(struct lab_plan *p, const struct lab_host *h, const char *slot,
    const char *role, const struct pdisk *v, size_t n, struct pdisk *ret,
    struct lab_err *err)
{
	size_t	i;

	if (slot == NULL)
		return 0;
	if ((ret->d = lab_disk_find(h, slot, role, err)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (v[i].d == ret->d)
			return lab_err_set(err, LAB_EXIT_INPUT, "slot %s is "
			    "both a data disk and the %s device", slot, role);
	if ((ret->dev = lab_disk_dev(p, ret->d)) == NULL)
		return lab_err_oom(err);
	return lab_disk_ide_warn(p, h, ret->d, role, err);
}

/* Plans a ZFS pool. */
int
lab_plan_zfs(const struct lab_host *h, const struct lab_storage_req *req,
    struct lab_plan **ret, struct lab_err *err)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = NULL;
	const struct zlayout	*z = NULL;
	struct lab_plan		*p;
	struct pdisk		*v = NULL, *all = NULL, cache = { 0 },
				 log = { 0 };
	struct lab_buf		 what;
	const char		*pool = req->pool ? req->pool : "tank";
	const char		*compression = "lz4";
	char			 comment[128];
	uint64_t		 usable = 0;
	size_t			 n = 0, i, na = 0;
	int			 unequal = 0, rc = -1;

	for (i = 0; i < LAB_ARRAY_SIZE(zlayouts); i++)
		if (strcmp(zlayouts[i].name, req->layout) == 0)
			z = &zlayouts[i];
	lab_buf_init(&what);
	if (check_pool(pool, err) == -1)
		return -1;
	if ((p = lab_plan_new(h, "storage", req->layout)) == NULL ||
	    (t = lab_tvars_new()) == NULL) {
		lab_plan_free(p);
		return lab_err_oom(err);
	}
	if (lab_disks_pick(p, h, req->disks, req->ndisks, &v, &n, err) == -1)
		goto out;
	if (req->cache != NULL && req->log != NULL &&
	    strcmp(req->cache, req->log) == 0) {
		lab_err_set(err, LAB_EXIT_INPUT, "slot %s cannot be both the "
		    "cache and the log device", req->cache);
		goto out;
	}
	if (extra(p, h, req->cache, "cache", v, n, &cache, err) == -1 ||
	    extra(p, h, req->log, "log", v, n, &log, err) == -1 ||
	    vdevs(p, z, v, n, t, &what, &usable, &unequal, err) == -1)
		goto out;
	if (members(p, z, pool, v, n, &cache, &log, err) == -1)
		goto out;
	if (req->facts.zfs_lz4 == 0) {
		compression = "on";
		if (lab_plan_warn(p, err, "the target's ZFS has no lz4 (an older "
		    "pool version, such as zfs-fuse's 23): compression=on "
		    "(lzjb) instead, and no sync property either (its writes "
		    "behave as sync=standard)") == -1)
			goto out;
	} else if (req->facts.zfs_lz4 < 0 && lab_plan_warn(p, err, "whether the "
	    "target's ZFS has lz4 is not known: a check before apply "
	    "refuses it if not") == -1)
		goto out;
	if (cache.d != NULL) {
		lab_tvars_set(t, "cache", cache.dev);
		lab_buf_addf(&what, " + cache(slot %s)", cache.d->slot);
	}
	if (log.d != NULL) {
		lab_tvars_set(t, "log", log.dev);
		lab_buf_addf(&what, " + log(slot %s)", log.d->slot);
	}
	lab_tvars_set(t, "pool", pool);
	lab_tvars_set(t, "compression", compression);
	lab_tvars_setb(t, "check_lz4", req->facts.zfs_lz4 < 0);
	/* zfs-fuse (pool version 23) refuses the sync property */
	lab_tvars_setb(t, "sync", req->facts.zfs_lz4 != 0);
	lab_tvars_setb(t, "force", req->force || unequal);
	snprintf(comment, sizeof(comment), "ZFS is installed and pool %s "
	    "is new", pool);
	if (lab_plan_script(p, LAB_STEP_CHECK, "check-zfs.sh", t, comment,
	    err) == NULL)
		goto out;
	if ((all = calloc(n + 2, sizeof(*all))) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < n; i++)
		all[na++] = v[i];
	if (cache.d != NULL)
		all[na++] = cache;
	if (log.d != NULL)
		all[na++] = log;
	if (lab_disk_checks(p, all, na, req->force, err) == -1)
		goto out;
	snprintf(comment, sizeof(comment), "create pool %s (%s over %zu "
	    "disks)", pool, z->name, n);
	if (lab_plan_script(p, LAB_STEP_RUN, "zfs-create.sh", t, comment,
	    err) == NULL)
		goto out;
	if (what.oom) {
		lab_err_oom(err);
		goto out;
	}
	if (lab_plan_add_volume(p, pool, what.s, usable, err) == -1)
		goto out;
	*ret = p;
	p = NULL;
	rc = 0;
out:
	lab_buf_release(&what);
	free(all);
	free(cache.dev);
	free(log.dev);
	lab_disks_free(v, n);
	lab_plan_free(p);
	return rc;
}
