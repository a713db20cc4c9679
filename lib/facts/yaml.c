/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"

/*
 * lab facts --yaml: the disks and NICs a host showed, as a hosts: entry
 * that lab import takes. Bays are not visible from the host: the slots
 * are numbered in the kernel's order, to be corrected by hand; the kind
 * is guessed (nvme, ssd when not rotational, sas, else sata). Virtual
 * NICs (loopback, bond, bridge, VLAN) are left out: a bond's members
 * carry their own MACs.
 */

/* s as a double-quoted YAML string. */
static void
quoted(struct lab_buf *b, const char *s)
{
	lab_buf_addc(b, '"');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			lab_buf_addf(b, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			lab_buf_addf(b, "\\x%02x", c);
		else
			lab_buf_addc(b, (char)c);
	}
	lab_buf_addc(b, '"');
}

/* A comment of peer text: printable ASCII only, on one line. */
static void
comment(struct lab_buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		lab_buf_addc(b, c >= 0x20 && c < 0x7f ? (char)c : '?');
	}
}

static const char *
disk_kind(const struct lab_fact_disk *d)
{
	if (d->transport != NULL && strcmp(d->transport, "nvme") == 0)
		return "nvme";
	if (d->rotational == 0)
		return "ssd";
	if (d->transport != NULL && strcmp(d->transport, "sas") == 0)
		return "sas";
	return "sata";
}

static void
disk(struct lab_buf *b, const struct lab_fact_disk *d, size_t slot)
{
	lab_buf_addf(b, "      - {slot: %zu, kind: %s, size: %" PRId64
	    ", device: ", slot, disk_kind(d), d->size_bytes);
	if (d->path != NULL)
		quoted(b, d->path);
	else {
		lab_buf_adds(b, "\"/dev/");
		lab_buf_adds(b, d->name);
		lab_buf_addc(b, '"');
	}
	lab_buf_addf(b, "}  # %.1f GB", (double)d->size_bytes / 1e9);
	if (d->model != NULL) {
		lab_buf_adds(b, ", ");
		comment(b, d->model);
	}
	if (d->serial != NULL) {
		lab_buf_adds(b, ", serial ");
		comment(b, d->serial);
	}
	lab_buf_addc(b, '\n');
}

static int
physical(const struct lab_fact_nic *n)
{
	return n->kind == NULL && n->mac != NULL &&
	    strcmp(n->mac, "00:00:00:00:00:00") != 0;
}

int
lab_facts_to_yaml(const struct lab_host_facts *f, const struct lab_host *h,
    char **ret, struct lab_err *err)
{
	struct lab_buf	 b;
	size_t		 i, k;

	*ret = NULL;
	if (!f->ok)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: no facts to "
		    "write: %s", f->host, f->error != NULL ? f->error :
		    "not read");
	lab_buf_init(&b);
	lab_buf_adds(&b, "# lab facts ");
	comment(&b, f->host);
	lab_buf_adds(&b, ": what the host showed; the slots are in the "
	    "kernel's order\n# and the kinds guessed: check them against "
	    "the bays\nhosts:\n  - name: ");
	quoted(&b, f->host);
	lab_buf_adds(&b, "\n    model: ");
	lab_buf_adds(&b, h != NULL && h->model != NULL ? h->model :
	    "generic-server");
	lab_buf_addc(&b, '\n');
	if (f->dmi.sys_vendor != NULL || f->dmi.product_name != NULL) {
		lab_buf_adds(&b, "    # DMI: ");
		comment(&b, f->dmi.sys_vendor != NULL ? f->dmi.sys_vendor : "");
		lab_buf_addc(&b, ' ');
		comment(&b, f->dmi.product_name != NULL ?
		    f->dmi.product_name : "");
		lab_buf_addc(&b, '\n');
	}
	for (i = k = 0; i < f->nnics; i++)
		k += physical(&f->nics[i]);
	if (k > 0)
		lab_buf_adds(&b, "    nics:\n");
	for (i = 0; i < f->nnics; i++) {
		const struct lab_fact_nic *n = &f->nics[i];

		if (!physical(n))
			continue;
		lab_buf_adds(&b, "      - {name: ");
		quoted(&b, n->name);
		lab_buf_adds(&b, ", mac: ");
		quoted(&b, n->mac);
		lab_buf_adds(&b, "}");
		if (n->driver != NULL) {
			lab_buf_adds(&b, "  # ");
			comment(&b, n->driver);
		}
		lab_buf_addc(&b, '\n');
	}
	for (i = k = 0; i < f->ndisks; i++)
		k += f->disks[i].size_bytes > 0;
	if (k > 0)
		lab_buf_adds(&b, "    disks:\n");
	for (i = k = 0; i < f->ndisks; i++)
		if (f->disks[i].size_bytes > 0)
			disk(&b, &f->disks[i], ++k);
	if (b.oom) {
		lab_buf_release(&b);
		return lab_err_oom(err);
	}
	*ret = lab_buf_steal(&b);
	return 0;
}
