/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts-priv.h"

/*
 * lsblk -J -O -b (whole disks: the top level of "blockdevices", type disk
 * or loop; partitions, holders and optical drives are not disks), the
 * by-id links ("KERNELNAME LINK" lines) and smartctl -i -j of one disk.
 */

static int
one_disk(struct lab_host_facts *f, struct json_object *o, struct lab_err *err)
{
	struct lab_fact_disk	*d;
	const char		*type = lab_facts_jstr(o, "type");
	const char		*name = lab_facts_jstr(o, "kname");
	const char		*sub;

	if (name == NULL)
		name = lab_facts_jstr(o, "name");
	if (name == NULL || type == NULL || (strcmp(type, "disk") != 0 &&
	    strcmp(type, "loop") != 0) || strchr(name, '/') != NULL ||
	    lab_facts_disk(f, name) != NULL)
		return 0;
	if ((d = lab_facts_disk_add(f, name)) == NULL)
		return lab_err_oom(err);
	d->size_bytes = lab_facts_jint(o, "size");
	d->rotational = lab_facts_jbool(o, "rota");
	sub = lab_facts_jstr(o, "subsystems");
	if (lab_facts_fill(&d->serial, lab_facts_jstr(o, "serial")) == -1 ||
	    lab_facts_fill(&d->model, lab_facts_jstr(o, "model")) == -1 ||
	    lab_facts_fill(&d->transport, lab_facts_jstr(o, "tran")) == -1 ||
	    (d->transport == NULL && sub != NULL &&
	    strstr(sub, "virtio") != NULL && (d->transport =
	    strdup("virtio")) == NULL))
		return lab_err_oom(err);
	return 0;
}

int
lab_facts_parse_lsblk(struct lab_host_facts *f, const char *json,
    struct lab_err *err)
{
	struct json_object	*o, *devs;
	size_t			 i, n;
	int			 rc = 0;

	if ((o = lab_facts_json_parse(f, json, "lsblk -J -O", err)) == NULL)
		return -1;
	if (!json_object_object_get_ex(o, "blockdevices", &devs) ||
	    !json_object_is_type(devs, json_type_array)) {
		json_object_put(o);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: lsblk -J -O "
		    "printed no \"blockdevices\" list", f->host != NULL ?
		    f->host : "-");
	}
	n = json_object_array_length(devs);
	for (i = 0; i < n && rc == 0; i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);

		if (json_object_is_type(d, json_type_object))
			rc = one_disk(f, d, err);
	}
	json_object_put(o);
	return rc;
}

/*
 * How stable a /dev/disk/by-id link is: the ones naming the drive's own
 * model and serial first; WWNs and EUIs (a controller may make them up)
 * last; partitions not at all.
 */
static int
link_rank(const char *l)
{
	static const char *const pre[] = { "ata-", "nvme-", "scsi-S", "scsi-0",
	    "scsi-1", "usb-", "virtio-", "scsi-", "mmc-", "memstick-" };
	size_t	i;

	if (strstr(l, "-part") != NULL || strncmp(l, "nvme-eui.", 9) == 0 ||
	    strncmp(l, "nvme-nvme.", 10) == 0)
		return -1;
	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (strncmp(l, pre[i], strlen(pre[i])) == 0)
			return (int)i;
	return -1;	/* wwn-, dm-, md-, lvm-: not a drive's name */
}

int
lab_facts_parse_byid(struct lab_host_facts *f, const char *body,
    struct lab_err *err)
{
	const char	*p, *nl, *sp;
	size_t		 i;
	int		*best;

	if (f->ndisks == 0)
		return 0;
	if ((best = malloc(f->ndisks * sizeof(*best))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < f->ndisks; i++)
		best[i] = f->disks[i].path != NULL ? -2 : 99;
	for (p = body; p != NULL && *p != '\0'; p = nl != NULL ? nl + 1 : NULL) {
		char	 name[256], link[512];
		size_t	 nlen, llen;
		int	 r;

		nl = strchr(p, '\n');
		llen = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if ((sp = memchr(p, ' ', llen)) == NULL)
			continue;
		nlen = (size_t)(sp - p);
		llen -= nlen + 1;
		if (nlen == 0 || nlen >= sizeof(name) || llen == 0 ||
		    llen >= sizeof(link))
			continue;
		memcpy(name, p, nlen);
		name[nlen] = '\0';
		memcpy(link, sp + 1, llen);
		link[llen] = '\0';
		if (strchr(link, '/') != NULL || (r = link_rank(link)) < 0)
			continue;
		for (i = 0; i < f->ndisks; i++) {
			if (strcmp(f->disks[i].name, name) != 0 ||
			    best[i] == -2)
				continue;
			/* the same rank: the first in sort order */
			if (r < best[i] || (r == best[i] &&
			    strcmp(link, f->disks[i].path +
			    strlen("/dev/disk/by-id/")) < 0)) {
				char *s = lab_asprintf("/dev/disk/by-id/%s",
				    link);

				if (s == NULL) {
					free(best);
					return lab_err_oom(err);
				}
				free(f->disks[i].path);
				f->disks[i].path = s;
				best[i] = r;
			}
		}
	}
	free(best);
	return 0;
}

/* smartctl's messages: drive-database warnings are findings; errors,
 * with nothing read, a note. */
static int
smart_messages(struct lab_host_facts *f, const char *disk,
    struct json_object *o, int read, struct lab_err *err)
{
	struct json_object	*sc, *msgs;
	char			 subject[300];
	size_t			 i, n;

	if (!json_object_object_get_ex(o, "smartctl", &sc) ||
	    !json_object_object_get_ex(sc, "messages", &msgs) ||
	    !json_object_is_type(msgs, json_type_array))
		return 0;
	snprintf(subject, sizeof(subject), "%s disk %s", f->host != NULL ?
	    f->host : "-", disk);
	n = json_object_array_length(msgs);
	for (i = 0; i < n; i++) {
		struct json_object	*m = json_object_array_get_idx(msgs, i);
		const char		*s = lab_facts_jstr(m, "string");
		const char		*sev = lab_facts_jstr(m, "severity");
		char			*t;
		int			 rc = 0;

		if (s == NULL || sev == NULL || (t = lab_facts_tidy(s)) == NULL)
			continue;
		if (strcmp(sev, "warning") == 0)
			rc = lab_fact_findings_add(&f->findings, "warning",
			    "smart-warning", subject, "smartctl: %s", t);
		else if (strcmp(sev, "error") == 0 && !read)
			rc = lab_facts_note(f, "smartctl could not read %s: %s",
			    disk, t);
		free(t);
		if (rc == -1)
			return lab_err_oom(err);
	}
	return 0;
}

int
lab_facts_parse_smartctl(struct lab_host_facts *f, const char *disk,
    const char *json, struct lab_err *err)
{
	struct lab_fact_disk	*d;
	struct json_object	*o, *cap, *dev;
	const char		*model, *fw, *proto = NULL;
	int64_t			 rate;
	int			 read, rc = 0;

	if ((o = lab_facts_json_parse(f, json, "smartctl -i -j", err)) == NULL)
		return -1;
	model = lab_facts_jstr(o, "model_name");
	if (model == NULL)
		model = lab_facts_jstr(o, "scsi_model_name");
	fw = lab_facts_jstr(o, "firmware_version");
	if (fw == NULL)
		fw = lab_facts_jstr(o, "scsi_revision");
	read = model != NULL || lab_facts_jstr(o, "serial_number") != NULL;
	if ((d = lab_facts_disk(f, disk)) == NULL && read &&
	    (d = lab_facts_disk_add(f, disk)) == NULL)
		rc = lab_err_oom(err);
	if (rc == 0 && d != NULL) {
		if (json_object_object_get_ex(o, "device", &dev))
			proto = lab_facts_jstr(dev, "protocol");
		if (d->size_bytes < 0 &&
		    json_object_object_get_ex(o, "user_capacity", &cap))
			d->size_bytes = lab_facts_jint(cap, "bytes");
		rate = lab_facts_jint(o, "rotation_rate");
		if (d->rotational < 0 && rate >= 0)
			d->rotational = rate > 0;
		if (lab_facts_fill(&d->model, model) == -1 ||
		    lab_facts_fill(&d->serial, lab_facts_jstr(o,
		    "serial_number")) == -1 ||
		    lab_facts_fill(&d->firmware, fw) == -1 ||
		    (proto != NULL && strcmp(proto, "NVMe") == 0 &&
		    lab_facts_fill(&d->transport, "nvme") == -1))
			rc = lab_err_oom(err);
	}
	if (rc == 0)
		rc = smart_messages(f, disk, o, read, err);
	json_object_put(o);
	return rc;
}
