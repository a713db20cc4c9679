/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "plan-priv.h"

/*
 * md RAID with an LVM volume group on top: mdadm --create, pvcreate,
 * vgcreate, the array recorded in mdadm.conf and the initramfs rebuilt.
 */

static const struct md_level levels[] = {
	{ "raid1", "1", 2 },
	{ "raid10", "10", 4 },
	{ "raid5", "5", 3 },
};

/* The md level called name ("raid1"), or NULL. */
const struct md_level *
lab_md_level_find(const char *name)
{
	size_t	i;

	for (i = 0; i < LAB_ARRAY_SIZE(levels); i++)
		if (strcmp(levels[i].name, name) == 0)
			return &levels[i];
	return NULL;
}

/* The capacity of an array. */
uint64_t
lab_md_usable(const struct md_level *l, size_t n, uint64_t min)
{
	if (strcmp(l->name, "raid1") == 0)
		return min;
	if (strcmp(l->name, "raid10") == 0)
		return n * min / 2;
	return (n - 1) * min;
}

/* Refuses names mdadm or LVM would refuse. */
int
lab_check_md_name(const char *name, const char *what, struct lab_err *err)
{
	const char	*why;

	if (lab_check_name(name, &why) == -1)
		return lab_err_set(err, LAB_EXIT_INPUT, "bad %s name '%s': %s",
		    what, name, why);
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    strncmp(name, "snapshot", 8) == 0 ||
	    strncmp(name, "pvmove", 6) == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "bad %s name '%s': "
		    "reserved by LVM", what, name);
	return 0;
}

/* Plans md RAID with a volume group on it. */
int
lab_plan_md(const struct lab_host *h, const struct lab_storage_req *req,
    struct lab_plan **ret, struct lab_err *err)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = NULL;
	const struct md_level	*l = lab_md_level_find(req->layout + 3);
	struct lab_tvars	*a, *d;
	struct lab_step		*s;
	struct lab_plan		*p;
	struct pdisk		*v = NULL;
	const char		*vg = req->pool ? req->pool : "vg0";
	char			 md[96], what[320], slots[256];
	char			 comment[160];
	char			 a1[32], a2[32], ms[32];
	uint64_t		 min = UINT64_MAX;
	size_t			 n = 0, i, off = 0;
	int			 rc = -1;

	if (req->cache != NULL || req->log != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "a cache or log "
		    "device is for ZFS layouts only, not %s", req->layout);
	if (lab_check_md_name(vg, "volume group", err) == -1)
		return -1;
	if ((p = lab_plan_new(h, "storage", req->layout)) == NULL ||
	    (t = lab_tvars_new()) == NULL) {
		lab_plan_free(p);
		return lab_err_oom(err);
	}
	if (lab_disks_pick(p, h, req->disks, req->ndisks, &v, &n, err) == -1)
		goto out;
	slots[0] = '\0';
	for (i = 0; i < n; i++) {
		off += (size_t)snprintf(slots + off, sizeof(slots) - off,
		    "%s%s", i ? ", " : "", v[i].d->slot);
		if (off >= sizeof(slots))
			off = sizeof(slots) - 1;
		if (v[i].d->size_bytes < min)
			min = v[i].d->size_bytes;
	}
	if (n < l->min) {
		lab_err_set(err, LAB_EXIT_INPUT, "%s needs %zu disks or more; "
		    "got %zu (%s%s)", req->layout, l->min, n,
		    n ? "slots " : "none", slots);
		goto out;
	}
	lab_size_human(min, ms);
	for (i = 0; i < n; i++) {
		if (v[i].d->size_bytes == min)
			continue;
		lab_size_human(v[i].d->size_bytes - min, a1);
		lab_size_human(v[i].d->size_bytes, a2);
		if (lab_plan_warn(p, err, "%s uses %s of the disk in slot %s (%s): "
		    "%s of it is lost", req->layout, ms, v[i].d->slot, a2,
		    a1) == -1)
			goto out;
	}
	snprintf(md, sizeof(md), "/dev/md/%s", vg);
	lab_tvars_set(t, "dev", md);
	lab_tvars_set(t, "level", l->mdadm);
	lab_tvars_setf(t, "count", "%zu", n);
	lab_tvars_set(t, "vg", vg);
	lab_tvars_setb(t, "need_mdadm", 1);
	lab_tvars_setb(t, "need_lvm", 1);
	for (i = 0; i < n; i++)
		if ((d = lab_tvars_add(t, "devs")) == NULL ||
		    lab_tvars_set(d, "dev", v[i].dev) == -1) {
			lab_err_oom(err);
			goto out;
		}
	if ((a = lab_tvars_add(t, "arrays")) == NULL ||
	    lab_tvars_set(a, "dev", md) == -1 ||
	    (d = lab_tvars_add(t, "vgs")) == NULL ||
	    lab_tvars_set(d, "vg", vg) == -1 ||
	    (d = lab_tvars_add(t, "pvs")) == NULL ||
	    lab_tvars_set(d, "dev", md) == -1) {
		lab_err_oom(err);
		goto out;
	}
	if (lab_plan_script(p, LAB_STEP_CHECK, "check-md.sh", t, "mdadm and LVM "
	    "are installed; the array and the volume group are new",
	    err) == NULL || lab_disk_checks(p, v, n, req->force, err) == -1)
		goto out;
	snprintf(comment, sizeof(comment), "create md %s array %s over %zu "
	    "disks", l->name, md, n);
	if (lab_plan_script(p, LAB_STEP_RUN, "md-create.sh", t, comment,
	    err) == NULL)
		goto out;
	snprintf(comment, sizeof(comment), "make %s an LVM physical volume "
	    "and create volume group %s on it", md, vg);
	if (lab_plan_script(p, LAB_STEP_RUN, "lvm-vg.sh", t, comment,
	    err) == NULL)
		goto out;
	if ((s = lab_plan_script(p, LAB_STEP_RUN, "md-conf.sh", t, "record the "
	    "array in mdadm.conf and rebuild the initramfs", err)) == NULL)
		goto out;
	s->timeout_s = SLOW_S;
	snprintf(what, sizeof(what), "lvm volume group on md %s (slots %s)",
	    l->name, slots);
	if (lab_plan_add_volume(p, vg, what, lab_md_usable(l, n, min), err) == -1)
		goto out;
	snprintf(what, sizeof(what), "%s (vg %s)", md, vg);
	for (i = 0; i < n; i++)
		if (lab_plan_add_member(p, v[i].d->slot, what, err) == -1)
			goto out;
	*ret = p;
	p = NULL;
	rc = 0;
out:
	lab_disks_free(v, n);
	lab_plan_free(p);
	return rc;
}
