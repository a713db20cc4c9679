/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lab/facts.h"
#include "lab/parse.h"
#include "inventory/words.h"

/*
 * Drift: what a host is (its facts) against what the inventory declares,
 * and what the switch sees of its links. Pure: no peer, no SQL.
 *
 * Nothing is judged when the SSH part did not run (f->ok == 0); the
 * disks are not judged when the host listed none (lsblk missing), the
 * NICs not when it listed none.
 *
 * Disks: the host's disks are its whole block devices, not loop, ram,
 * zram, sr, fd, md, dm-, nbd devices nor partitions, but for a device of
 * those the inventory declares (device: /dev/loop3, a disk of a test rig
 * or a file-backed one). A declared disk
 * with device: is the disk of that path (its by-id path, /dev/NAME or
 * NAME); not there, it is missing. The other declared disks, in declared
 * order, take the first disk not yet taken of their size (within 2%:
 * a "250GB" disk is 250,059,350,016 bytes) and kind; then, for those
 * left, the first of their size alone (the kind differs); the rest are
 * missing, and the disks nobody took are extra. The kind seen: nvme by
 * transport, ssd when not rotational, sas or sata by transport (virtio
 * tells none: a virtual machine's disk fits a declared sata or sas).
 *
 * A disk is swapped when its kernel name had another serial in the
 * previous facts ("disk.NAME.serial") and that serial is on none of the
 * host's disks now (a disk renamed across a boot is not swapped): that
 * finding only, not also an extra disk; a declared disk whose device:
 * names the old serial is not missing either (the finding says what to
 * write there).
 *
 * NICs: a declared NIC is the host's NIC of that name; absent, it is
 * missing (naming the NIC that has its MAC, if any); present, its MAC
 * must match. The model: the catalogue's DMI product name (below) must
 * begin the host's DMI product_name.
 *
 * Links: the host's speed and duplex against the switch's port (both
 * known and different: link-mismatch), else the speed either end sees
 * below what the switch port can do (link-slow; what the host's NIC can
 * do is not known, so it does not limit).
 *
 * NetworkManager: lab's interfaces are the host's bonds and bridges and
 * the NICs in one (master set), and, when the host declares network:
 * (provisioning moves its address to a bond or bridge), its declared
 * NICs. NetworkManager running and managing one of them is a finding
 * with the fix.
 */

#define SIZE_TOLERANCE	50	/* 1/50: 2% */

/* The catalogue's models as DMI names them (/sys/class/dmi/id). */
static const struct {
	const char	*model;
	const char	*dmi;
} dmi_names[] = {
	{ "hp-microserver-n36l", "ProLiant MicroServer" },
	{ "hp-microserver-n40l", "ProLiant MicroServer" },
	{ "hp-microserver-n54l", "ProLiant MicroServer" },
	{ "hp-ml110-g5", "ProLiant ML110 G5" },
	{ "hp-ml115-g5", "ProLiant ML115 G5" },
	{ "hp-dl320-g5p", "ProLiant DL320 G5p" },
};

struct drift {
	const struct lab_host		*h;
	const struct lab_host_facts	*f;
	const struct lab_fact_kv	*prev;
	size_t				 nprev;
	struct lab_fact_findings	*out;
	int				 oom;
	int				*taken;	/* observed disk -> declared + 1 */
	int				*cand;	/* observed disk is a disk */
	const char			**was;	/* its serial before a swap */
	int				*covers; /* declared + 1 whose device:
						    names the old serial */
};

static void
add(struct drift *d, const char *severity, const char *kind,
    const char *subject, const char *msg)
{
	if (lab_fact_findings_add(d->out, severity, kind, subject, "%s",
	    msg) == -1)
		d->oom = 1;
}

static int
prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* NAME + digits, "p" + digits after a digit: a partition of a disk. */
static int
partition(const char *name)
{
	size_t	n = strlen(name);
	const char *p;

	if (n == 0 || name[n - 1] < '0' || name[n - 1] > '9')
		return 0;
	if (prefix(name, "sd") || prefix(name, "hd") || prefix(name, "vd") ||
	    prefix(name, "xvd"))
		return 1;
	/* nvme0n1p1, mmcblk0p1 */
	while (n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	p = name + n;
	return n >= 2 && name[n - 1] == 'p' && name[n - 2] >= '0' &&
	    name[n - 2] <= '9' && *p != '\0';
}

static int
whole_disk(const struct lab_fact_disk *x)
{
	static const char *const skip[] = { "loop", "ram", "zram", "sr",
		"fd", "md", "dm-", "nbd", "drbd", NULL };
	size_t	i;

	if (x->name == NULL)
		return 0;
	for (i = 0; skip[i] != NULL; i++)
		if (prefix(x->name, skip[i]))
			return 0;
	return !partition(x->name);
}

/*
 * The transport as far as it tells the disk's kind: a virtio disk (a
 * virtual machine's, virtio-blk or virtio-scsi) tells none, as no
 * transport is known.
 */
static const char *
transport(const struct lab_fact_disk *x)
{
	if (x->transport != NULL && strcmp(x->transport, "virtio") == 0)
		return NULL;
	if (x->transport != NULL)
		return x->transport;
	if (x->name != NULL && prefix(x->name, "nvme"))
		return "nvme";
	return NULL;
}

/* The kind the host's view gives, or NULL when it does not tell. */
static const char *
seen_kind(const struct lab_fact_disk *x)
{
	const char	*t = transport(x);

	if (t != NULL && strcmp(t, "nvme") == 0)
		return "nvme";
	if (x->rotational == 0)
		return "ssd";
	if (t != NULL && strcmp(t, "sas") == 0)
		return "sas";
	if (t != NULL && (strcmp(t, "sata") == 0 || strcmp(t, "ata") == 0))
		return "sata";
	return t;
}

static int
is(const char *a, const char *b)
{
	return a != NULL && strcmp(a, b) == 0;
}

/* 1 when what the host sees of x can be a disk of the declared kind. */
static int
kind_fits(const char *kind, const struct lab_fact_disk *x)
{
	const char	*t = transport(x);

	if (kind == NULL)
		return 1;
	if (strcmp(kind, "nvme") == 0)
		return t != NULL ? is(t, "nvme") : x->rotational != 1;
	if (strcmp(kind, "ssd") == 0)
		return x->rotational != 1 && !is(t, "nvme");
	if (strcmp(kind, "sas") == 0)
		return t == NULL || is(t, "sas");
	if (strcmp(kind, "sata") == 0)
		return (t == NULL || is(t, "sata") || is(t, "ata")) &&
		    x->rotational != 0;
	return 1;
}

static int
size_near(uint64_t want, int64_t got)
{
	uint64_t	g, diff;

	if (want == 0 || got < 0)
		return 1;
	g = (uint64_t)got;
	diff = g > want ? g - want : want - g;
	return diff <= want / SIZE_TOLERANCE;
}

static void
human(int64_t bytes, char *buf, size_t len)
{
	if (bytes < 0)
		snprintf(buf, len, "unknown size");
	else
		lab_format_size_human((uint64_t)bytes, buf, len);
}

/* "ssd (transport sata, not rotational)" */
static void
describe_kind(const struct lab_fact_disk *x, char *buf, size_t len)
{
	const char	*k = seen_kind(x);

	snprintf(buf, len, "%s (transport %s, %s)",
	    k != NULL ? k : "kind unknown",
	    x->transport != NULL ? x->transport : "unknown",
	    x->rotational == 0 ? "not rotational" : x->rotational == 1 ?
	    "rotational" : "rotation unknown");
}

static void
disk_subject(const struct drift *d, const struct lab_disk *dd,
    const struct lab_fact_disk *x, char *buf, size_t len)
{
	if (dd != NULL && x != NULL)
		snprintf(buf, len, "%s disk %s (%s)", d->h->name, dd->slot,
		    x->name);
	else if (dd != NULL)
		snprintf(buf, len, "%s disk %s", d->h->name, dd->slot);
	else if (x != NULL)
		snprintf(buf, len, "%s disk %s", d->h->name, x->name);
	else
		snprintf(buf, len, "%s disk", d->h->name);
}

static int
device_is(const char *dev, const struct lab_fact_disk *x)
{
	if (x->path != NULL && strcmp(dev, x->path) == 0)
		return 1;
	if (prefix(dev, "/dev/") && strcmp(dev + 5, x->name) == 0)
		return 1;
	return strcmp(dev, x->name) == 0;
}

/* 1 when a declared disk's device: is x (not a partition). */
static int
declared(const struct drift *d, const struct lab_fact_disk *x)
{
	size_t	i;

	if (x->name == NULL || partition(x->name))
		return 0;
	for (i = 0; i < d->h->ndisks; i++)
		if (d->h->disks[i].device != NULL &&
		    device_is(d->h->disks[i].device, x))
			return 1;
	return 0;
}

/* The observed disk a declared disk is, in the pass given; -1: none. */
static long
find_disk(struct drift *d, const struct lab_disk *dd, int pass)
{
	const struct lab_host_facts	*f = d->f;
	size_t				 i;

	for (i = 0; i < f->ndisks; i++) {
		const struct lab_fact_disk *x = &f->disks[i];

		if (!d->cand[i] || d->taken[i])
			continue;
		if (pass == 0 && device_is(dd->device, x))
			return (long)i;
		if (pass == 1 && size_near(dd->size_bytes, x->size_bytes) &&
		    kind_fits(dd->kind, x))
			return (long)i;
		if (pass == 2 && size_near(dd->size_bytes, x->size_bytes))
			return (long)i;
	}
	return -1;
}

static void
check_disk(struct drift *d, const struct lab_disk *dd,
    const struct lab_fact_disk *x)
{
	char	subj[256], msg[512], want[32], got[32], kind[96];

	disk_subject(d, dd, x, subj, sizeof(subj));
	if (!size_near(dd->size_bytes, x->size_bytes)) {
		human((int64_t)dd->size_bytes, want, sizeof(want));
		human(x->size_bytes, got, sizeof(got));
		snprintf(msg, sizeof(msg), "%s: the inventory says %s, the host "
		    "sees %s (%lld bytes) on %s", subj, want, got,
		    (long long)x->size_bytes, x->name);
		add(d, "warning", LAB_FINDING_DISK_SIZE, subj, msg);
	}
	if (!kind_fits(dd->kind, x)) {
		describe_kind(x, kind, sizeof(kind));
		snprintf(msg, sizeof(msg), "%s: the inventory says %s, the host "
		    "sees %s on %s", subj, dd->kind, kind, x->name);
		add(d, "warning", LAB_FINDING_DISK_KIND, subj, msg);
	}
}

/* The disks the host has that nobody took: "sdc 500 GB sata, ..." */
static void
untaken(const struct drift *d, struct lab_buf *b)
{
	size_t	i;
	char	sz[32];
	int	first = 1;

	for (i = 0; i < d->f->ndisks; i++) {
		const struct lab_fact_disk *x = &d->f->disks[i];

		if (!d->cand[i] || d->taken[i])
			continue;
		human(x->size_bytes, sz, sizeof(sz));
		lab_buf_addf(b, "%s%s %s %s", first ? "" : ", ", x->name, sz,
		    seen_kind(x) != NULL ? seen_kind(x) : "unknown");
		first = 0;
	}
}

static void
missing_disk(struct drift *d, const struct lab_disk *dd)
{
	struct lab_buf	b;
	char		subj[256], sz[32], *msg;

	disk_subject(d, dd, NULL, subj, sizeof(subj));
	human((int64_t)dd->size_bytes, sz, sizeof(sz));
	lab_buf_init(&b);
	if (dd->device != NULL)
		lab_buf_addf(&b, "%s: declared at %s (%s %s), the host has no "
		    "such disk", subj, dd->device, sz, dd->kind);
	else
		lab_buf_addf(&b, "%s: declared %s %s, the host has no such "
		    "disk", subj, sz, dd->kind);
	lab_buf_adds(&b, " (its disks not declared: ");
	{
		size_t before = b.len;

		untaken(d, &b);
		if (b.len == before)
			lab_buf_adds(&b, "none");
	}
	lab_buf_adds(&b, ")");
	if (b.oom) {
		d->oom = 1;
		lab_buf_release(&b);
		return;
	}
	msg = lab_buf_steal(&b);
	add(d, "critical", LAB_FINDING_DISK_MISSING, subj, msg);
	free(msg);
}

static const char *
prev_value(const struct drift *d, const char *key)
{
	size_t	i;

	for (i = 0; i < d->nprev; i++)
		if (d->prev[i].key != NULL && strcmp(d->prev[i].key, key) == 0)
			return d->prev[i].value;
	return NULL;
}

static int
serial_now(const struct drift *d, const char *serial)
{
	size_t	i;

	for (i = 0; i < d->f->ndisks; i++)
		if (is(d->f->disks[i].serial, serial))
			return 1;
	return 0;
}

/* Which disks were swapped: their name had another serial, now on none. */
static void
find_swaps(struct drift *d)
{
	const struct lab_host_facts	*f = d->f;
	const char			*was;
	char				 key[128];
	size_t				 i;

	for (i = 0; i < f->ndisks; i++) {
		const struct lab_fact_disk *x = &f->disks[i];

		if (!d->cand[i] || x->serial == NULL)
			continue;
		snprintf(key, sizeof(key), "disk.%s.serial", x->name);
		was = prev_value(d, key);
		if (was == NULL || strcmp(was, x->serial) == 0 ||
		    serial_now(d, was))
			continue;
		d->was[i] = was;
	}
}

/* 1 when the declared disk's device: names a swapped disk's old serial. */
static int
covered(struct drift *d, size_t decl)
{
	const char	*dev = d->h->disks[decl].device;
	size_t		 i;

	for (i = 0; dev != NULL && i < d->f->ndisks; i++)
		if (d->was[i] != NULL && !d->covers[i] &&
		    strstr(dev, d->was[i]) != NULL) {
			d->covers[i] = (int)decl + 1;
			return 1;
		}
	return 0;
}

static void
swapped(struct drift *d, size_t i)
{
	const struct lab_fact_disk	*x = &d->f->disks[i];
	const struct lab_disk		*dd = NULL;
	struct lab_buf			 b;
	char				 subj[256], *msg;

	if (d->taken[i])
		dd = &d->h->disks[d->taken[i] - 1];
	else if (d->covers[i])
		dd = &d->h->disks[d->covers[i] - 1];
	disk_subject(d, dd, x, subj, sizeof(subj));
	lab_buf_init(&b);
	lab_buf_addf(&b, "%s: serial was %s, now %s (%s%s%s): the disk was "
	    "swapped", subj, d->was[i], x->serial,
	    x->model != NULL ? x->model : "model unknown",
	    x->path != NULL ? ", " : "", x->path != NULL ? x->path : "");
	if (d->covers[i])
		lab_buf_addf(&b, "; the inventory's device: %s names the old "
		    "disk: write %s", dd->device, x->path != NULL ? x->path :
		    x->name);
	if (b.oom) {
		d->oom = 1;
		lab_buf_release(&b);
		return;
	}
	msg = lab_buf_steal(&b);
	add(d, "warning", LAB_FINDING_DISK_SWAPPED, subj, msg);
	free(msg);
}

static void
extra(struct drift *d, size_t i)
{
	const struct lab_fact_disk	*x = &d->f->disks[i];
	char				 subj[256], msg[512], sz[32], kind[96];

	disk_subject(d, NULL, x, subj, sizeof(subj));
	human(x->size_bytes, sz, sizeof(sz));
	describe_kind(x, kind, sizeof(kind));
	snprintf(msg, sizeof(msg), "%s: %s %s, serial %s, is not in the "
	    "inventory (declared: %zu disks); `lab facts %s --yaml` writes "
	    "its entry", subj, sz, kind, x->serial != NULL ? x->serial :
	    "unknown", d->h->ndisks, d->h->name);
	add(d, "info", LAB_FINDING_DISK_EXTRA, subj, msg);
}

static void
check_disks(struct drift *d)
{
	const struct lab_host		*h = d->h;
	const struct lab_host_facts	*f = d->f;
	long				*match;
	size_t				 i;
	int				 pass;

	if ((match = calloc(h->ndisks + 1, sizeof(*match))) == NULL) {
		d->oom = 1;
		return;
	}
	for (i = 0; i < h->ndisks; i++)
		match[i] = -1;
	for (i = 0; i < f->ndisks; i++)
		d->cand[i] = whole_disk(&f->disks[i]) ||
		    declared(d, &f->disks[i]);
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < h->ndisks; i++) {
			const struct lab_disk *dd = &h->disks[i];

			if (match[i] != -1 || (pass == 0) != (dd->device != NULL))
				continue;
			match[i] = find_disk(d, dd, pass);
			if (match[i] != -1)
				d->taken[match[i]] = (int)i + 1;
		}
	find_swaps(d);
	for (i = 0; i < h->ndisks; i++)
		if (match[i] != -1)
			check_disk(d, &h->disks[i], &f->disks[match[i]]);
		else if (!covered(d, i))
			missing_disk(d, &h->disks[i]);
	/* a swapped disk is that finding, not also an extra one */
	for (i = 0; i < f->ndisks; i++)
		if (d->was[i] != NULL)
			swapped(d, i);
		else if (d->cand[i] && !d->taken[i])
			extra(d, i);
	free(match);
}

static const struct lab_fact_nic *
nic_named(const struct lab_host_facts *f, const char *name)
{
	size_t	i;

	for (i = 0; i < f->nnics; i++)
		if (is(f->nics[i].name, name))
			return &f->nics[i];
	return NULL;
}

static const struct lab_fact_nic *
nic_with_mac(const struct lab_host_facts *f, const char *mac)
{
	size_t	i;

	for (i = 0; i < f->nnics; i++)
		if (f->nics[i].mac != NULL &&
		    strcasecmp(f->nics[i].mac, mac) == 0 &&
		    f->nics[i].kind == NULL)
			return &f->nics[i];
	return NULL;
}

static void
check_nics(struct drift *d)
{
	const struct lab_host		*h = d->h;
	const struct lab_fact_nic	*x, *other;
	char				 subj[256], msg[512];
	size_t				 i;

	for (i = 0; i < h->nnics; i++) {
		const struct lab_nic *n = &h->nics[i];

		snprintf(subj, sizeof(subj), "%s NIC %s", h->name, n->name);
		if ((x = nic_named(d->f, n->name)) == NULL) {
			other = n->mac != NULL ? nic_with_mac(d->f, n->mac) :
			    NULL;
			snprintf(msg, sizeof(msg), "%s: declared (MAC %s), the "
			    "host has no %s%s%s%s", subj,
			    n->mac != NULL ? n->mac : "not given", n->name,
			    other != NULL ? "; that MAC is on " : "",
			    other != NULL ? other->name : "",
			    other != NULL ? " (rename it in the inventory)" :
			    "");
			add(d, "warning", LAB_FINDING_NIC_MISSING, subj, msg);
			continue;
		}
		/* a bonded NIC shows the bond's MAC: not judged */
		if (n->mac == NULL || x->mac == NULL || x->master != NULL ||
		    strcasecmp(n->mac, x->mac) == 0)
			continue;
		snprintf(msg, sizeof(msg), "%s: the inventory says MAC %s, the "
		    "host sees %s", subj, n->mac, x->mac);
		add(d, "warning", LAB_FINDING_NIC_MAC, subj, msg);
	}
}

static void
check_model(struct drift *d)
{
	const char	*want = NULL, *got = d->f->dmi.product_name;
	char		 msg[512];
	size_t		 i;

	if (d->h->model == NULL || got == NULL || *got == '\0')
		return;
	for (i = 0; i < sizeof(dmi_names) / sizeof(dmi_names[0]); i++)
		if (strcmp(dmi_names[i].model, d->h->model) == 0)
			want = dmi_names[i].dmi;
	if (want == NULL || strncasecmp(got, want, strlen(want)) == 0)
		return;
	snprintf(msg, sizeof(msg), "%s: the inventory says model %s (DMI "
	    "product '%s'), DMI says '%s%s%s'", d->h->name, d->h->model, want,
	    d->f->dmi.sys_vendor != NULL ? d->f->dmi.sys_vendor : "",
	    d->f->dmi.sys_vendor != NULL ? " " : "", got);
	add(d, "warning", LAB_FINDING_MODEL, d->h->name, msg);
}

static void
speed(long mbps, const char *duplex, char *buf, size_t len)
{
	if (mbps > 0)
		snprintf(buf, len, "%ld Mb/s %s duplex", mbps,
		    duplex != NULL ? duplex : "unknown");
	else
		snprintf(buf, len, "no speed (%s duplex)",
		    duplex != NULL ? duplex : "unknown");
}

static void
check_link(struct drift *d, const struct lab_port_view *p)
{
	const struct lab_fact_nic	*x = nic_named(d->f, p->nic);
	char				 subj[256], msg[640], hs[64], ss[64];
	long				 s;

	if (x == NULL || x->carrier == 0)
		return;
	snprintf(subj, sizeof(subj), "%s %s link", d->h->name, p->nic);
	speed(x->speed_mbps, x->duplex, hs, sizeof(hs));
	speed(p->speed_mbps, p->duplex, ss, sizeof(ss));
	if ((x->speed_mbps > 0 && p->speed_mbps > 0 &&
	    x->speed_mbps != p->speed_mbps) || (x->duplex != NULL &&
	    p->duplex != NULL && strcmp(x->duplex, p->duplex) != 0)) {
		snprintf(msg, sizeof(msg), "%s: the host sees %s on %s, %s "
		    "port %s says %s: one end is forced (set both to "
		    "autonegotiate: `ethtool -s %s autoneg on`, and the "
		    "port's speed to auto) or the cable is bad", subj, hs,
		    p->nic, p->switch_name, p->port, ss, p->nic);
		add(d, "critical", LAB_FINDING_LINK_MISMATCH, subj, msg);
		return;
	}
	s = x->speed_mbps > 0 ? x->speed_mbps : p->speed_mbps;
	if (s <= 0 || p->max_mbps <= 0 || s >= p->max_mbps)
		return;
	snprintf(msg, sizeof(msg), "%s: %s runs at %s (the host) and %s "
	    "(%s port %s), both ends can do %ld Mb/s: check the cable (gigabit "
	    "needs all four pairs) and renegotiate (`ethtool -r %s`)", subj,
	    p->nic, hs, ss, p->switch_name, p->port, p->max_mbps, p->nic);
	add(d, "warning", LAB_FINDING_LINK_SLOW, subj, msg);
}

/* 1 when lab bonds or bridges the interface (see the top). */
static int
ours(const struct drift *d, const char *name)
{
	const struct lab_fact_nic	*x = nic_named(d->f, name);
	size_t				 i;

	if (x != NULL && (is(x->kind, "bond") || is(x->kind, "bridge") ||
	    x->master != NULL))
		return 1;
	if (d->h->network == NULL)
		return 0;
	for (i = 0; i < d->h->nnics; i++)
		if (is(d->h->nics[i].name, name))
			return 1;
	return 0;
}

static void
check_nm(struct drift *d)
{
	const struct lab_strv	*m = &d->f->nm.managed;
	const struct lab_fact_nic *x;
	struct lab_buf		 conf, msg;
	char			 subj[256], what[160];
	size_t			 i;

	if (d->f->nm.running != 1)
		return;
	lab_buf_init(&conf);
	for (i = 0; i < m->n; i++)
		if (ours(d, m->v[i]))
			lab_buf_addf(&conf, "%sinterface-name:%s",
			    conf.len ? ";" : "", m->v[i]);
	for (i = 0; i < m->n && !conf.oom; i++) {
		if (!ours(d, m->v[i]))
			continue;
		x = nic_named(d->f, m->v[i]);
		if (x != NULL && (is(x->kind, "bond") || is(x->kind, "bridge")))
			snprintf(what, sizeof(what), "a %s lab made", x->kind);
		else if (x != NULL && x->master != NULL)
			snprintf(what, sizeof(what), "in %s, which lab made",
			    x->master);
		else
			snprintf(what, sizeof(what), "a NIC lab bonds (the "
			    "inventory declares network:)");
		snprintf(subj, sizeof(subj), "%s %s", d->h->name, m->v[i]);
		lab_buf_init(&msg);
		lab_buf_addf(&msg, "%s: NetworkManager manages %s, %s: "
		    "NetworkManager should leave it unmanaged; put "
		    "\"unmanaged-devices=%s\" under [keyfile] in "
		    "/etc/NetworkManager/conf.d/99-lab-unmanaged.conf and "
		    "`systemctl reload NetworkManager`, or for now "
		    "`nmcli device set %s managed no`", subj, m->v[i], what,
		    conf.s, m->v[i]);
		if (msg.oom)
			d->oom = 1;
		else
			add(d, "warning", LAB_FINDING_NETWORKMANAGER, subj,
			    msg.s);
		lab_buf_release(&msg);
	}
	if (conf.oom)
		d->oom = 1;
	lab_buf_release(&conf);
}

static void
drift_free(struct drift *d)
{
	free(d->taken);
	free(d->cand);
	free(d->was);
	free(d->covers);
}

int
lab_facts_drift_prev(const struct lab_host *h, const struct lab_host_facts *f,
    const struct lab_port_view *ports, size_t nports,
    const struct lab_fact_kv *prev, size_t nprev,
    struct lab_fact_findings *out, struct lab_err *err)
{
	struct drift	d;
	size_t		i;

	if (h == NULL || f == NULL || !f->ok)
		return 0;
	memset(&d, 0, sizeof(d));
	d.h = h;
	d.f = f;
	d.prev = prev;
	d.nprev = nprev;
	d.out = out;
	d.taken = calloc(f->ndisks + 1, sizeof(*d.taken));
	d.cand = calloc(f->ndisks + 1, sizeof(*d.cand));
	d.was = calloc(f->ndisks + 1, sizeof(*d.was));
	d.covers = calloc(f->ndisks + 1, sizeof(*d.covers));
	if (d.taken == NULL || d.cand == NULL || d.was == NULL ||
	    d.covers == NULL) {
		drift_free(&d);
		return lab_err_oom(err);
	}
	if (f->ndisks > 0)
		check_disks(&d);
	if (f->nnics > 0)
		check_nics(&d);
	check_model(&d);
	for (i = 0; i < nports; i++)
		if (ports[i].nic != NULL)
			check_link(&d, &ports[i]);
	check_nm(&d);
	drift_free(&d);
	if (d.oom)
		return lab_err_oom(err);
	lab_fact_findings_sort(out);
	return 0;
}

int
lab_facts_drift(const struct lab_host *h, const struct lab_host_facts *f,
    const struct lab_port_view *ports, size_t nports,
    struct lab_fact_findings *out, struct lab_err *err)
{
	return lab_facts_drift_prev(h, f, ports, nports, NULL, 0, out, err);
}
