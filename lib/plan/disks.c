/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/model.h"
#include "plan-priv.h"

static void
slot_list(const struct lab_host *h, char *buf, size_t len)
{
	size_t	i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < h->ndisks && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i ? ", " : "", h->disks[i].slot);
}

/* The disk in slot, refused when missing or the boot disk. */
const struct lab_disk *
lab_disk_find(const struct lab_host *h, const char *slot, const char *role,
    struct lab_err *err)
{
	const char	*cands[64], *near;
	char		 slots[256];
	size_t		 i, n = 0;

	for (i = 0; i < h->ndisks; i++) {
		if (strcmp(h->disks[i].slot, slot) != 0)
			continue;
		if (h->disks[i].boot) {
			lab_err_set(err, LAB_EXIT_INPUT, "the disk in slot %s "
			    "of host '%s' holds the running system (boot: "
			    "true): it cannot be a %s", slot, h->name, role);
			return NULL;
		}
		return &h->disks[i];
	}
	for (i = 0; i < h->ndisks && n < LAB_ARRAY_SIZE(cands); i++)
		cands[n++] = h->disks[i].slot;
	near = lab_suggest(slot, cands, n);
	if (h->ndisks == 0)
		lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disks in "
		    "the inventory", h->name);
	else if (near != NULL)
		lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disk in "
		    "slot '%s'; did you mean '%s'?", h->name, slot, near);
	else {
		slot_list(h, slots, sizeof(slots));
		lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no disk in "
		    "slot '%s' (its slots: %s)", h->name, slot, slots);
	}
	return NULL;
}

/* The device of d, or a placeholder. */
char *
lab_disk_dev(struct lab_plan *p, const struct lab_disk *d)
{
	if (d->device != NULL)
		return strdup(d->device);
	p->placeholders = 1;
	return lab_asprintf("<device of slot %s>", d->slot);
}

/* Partition n of the disk at dev. */
char *
lab_part_dev(const char *dev, int n)
{
	size_t	len = strlen(dev);

	if (dev[0] == '<' && strncmp(dev, "<device of ", 11) == 0)
		return lab_asprintf("<partition %d of %s", n, dev + 11);
	if (strncmp(dev, "/dev/disk/by-", 13) == 0)
		return lab_asprintf("%s-part%d", dev, n);
	if (len > 0 && isdigit((unsigned char)dev[len - 1]))
		return lab_asprintf("%sp%d", dev, n);
	return lab_asprintf("%s%d", dev, n);
}

/* Frees picked disks. */
void
lab_disks_free(struct pdisk *v, size_t n)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++)
		free(v[i].dev);
	free(v);
}

/* The disks named by slots, or the default ones. */
int
lab_disks_pick(struct lab_plan *p, const struct lab_host *h,
    const char *const *slots, size_t nslots, struct pdisk **ret, size_t *n,
    struct lab_err *err)
{
	const struct lab_disk	*d;
	struct pdisk		*v;
	size_t			 i, j, k = 0;

	if ((v = calloc(h->ndisks + nslots + 1, sizeof(*v))) == NULL)
		return lab_err_oom(err);
	if (slots != NULL) {
		for (i = 0; i < nslots; i++) {
			if ((d = lab_disk_find(h, slots[i], "layout disk",
			    err)) == NULL)
				goto fail;
			for (j = 0; j < k; j++)
				if (v[j].d == d) {
					lab_err_set(err, LAB_EXIT_INPUT,
					    "slot %s is named twice",
					    slots[i]);
					goto fail;
				}
			v[k].d = d;
			if ((v[k++].dev = lab_disk_dev(p, d)) == NULL)
				goto oom;
		}
	} else {
		for (i = 0; i < h->ndisks; i++) {
			d = &h->disks[i];
			if (d->boot || strcmp(d->kind, "ssd") == 0)
				continue;
			v[k].d = d;
			if ((v[k++].dev = lab_disk_dev(p, d)) == NULL)
				goto oom;
		}
	}
	*ret = v;
	*n = k;
	return 0;
oom:
	lab_err_oom(err);
fail:
	lab_disks_free(v, k);
	return -1;
}

/* The CHECK step that every disk is free. */
int
lab_disk_checks(struct lab_plan *p, const struct pdisk *v, size_t n, int force,
    struct lab_err *err)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = NULL;
	struct lab_tvars	*d;
	char			 comment[128];
	size_t			 i;

	if ((t = lab_tvars_new()) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < n; i++) {
		if ((d = lab_tvars_add(t, "disks")) == NULL)
			return lab_err_oom(err);
		lab_tvars_set(d, "dev", v[i].dev);
		lab_tvars_set(d, "slot", v[i].d->slot);
	}
	lab_tvars_setb(t, "force", force);
	snprintf(comment, sizeof(comment), "the %zu disk%s %s free (not "
	    "mounted, in no pool, array or volume group%s)", n,
	    n == 1 ? "" : "s", n == 1 ? "is" : "are",
	    force ? "" : ", no partition table");
	if (lab_plan_script(p, LAB_STEP_CHECK, "check-disks.sh", t, comment,
	    err) == NULL)
		return -1;
	return 0;
}

static int
ide_controller(const char *c)
{
	size_t	len;

	if (c == NULL)
		return 0;
	len = strlen(c);
	return strcmp(c, "ide") == 0 ||
	    (len > 4 && strcmp(c + len - 4, "-ide") == 0);
}

/* Warns about a cache or log device on an IDE-emulation port. */
int
lab_disk_ide_warn(struct lab_plan *p, const struct lab_host *h,
    const struct lab_disk *d, const char *role, struct lab_err *err)
{
	const struct lab_model	*m = lab_model_find(h->model);
	size_t			 i;
	int			 ide = ide_controller(d->controller);

	for (i = 0; m != NULL && m->ide_slots[i] != NULL; i++)
		if (strcmp(m->ide_slots[i], d->slot) == 0)
			ide = 1;
	if (ide && lab_plan_warn(p, err, "the %s device in slot %s is on an "
	    "IDE-emulation port (about 132 MB/s, no NCQ): the slowest port "
	    "for a %s device", role, d->slot, role) == -1)
		return -1;
	if (strcmp(d->kind, "ssd") != 0 && strcmp(d->kind, "nvme") != 0 &&
	    lab_plan_warn(p, err, "the %s device in slot %s is a %s disk, not "
	    "an SSD", role, d->slot, d->kind) == -1)
		return -1;
	return 0;
}
