/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts-priv.h"

/*
 * A host's facts as the sorted keys lib/db/facts.c stores: "kernel",
 * "disk.sda.serial", "nic.eth0.mac", "addr.eth0.inet" (its addresses,
 * sorted, joined by ","), "dmi.bios_version", "bmc.firmware",
 * "nm.running", "nm.managed". What is not known is left out.
 */

struct kvs {
	struct lab_fact_kv	*v;
	size_t			 n;
	int			 oom;
};

static void
put(struct kvs *k, const char *key, const char *value)
{
	struct lab_fact_kv	*kv;

	if (value == NULL || k->oom)
		return;
	if ((kv = lab_push(&k->v, &k->n, sizeof(*kv))) == NULL) {
		k->oom = 1;
		return;
	}
	kv->key = strdup(key);
	kv->value = strdup(value);
	if (kv->key == NULL || kv->value == NULL)
		k->oom = 1;
}

static void
putf(struct kvs *k, const char *value, const char *fmt, const char *a,
    const char *b)
{
	char	key[512];

	snprintf(key, sizeof(key), fmt, a, b);
	put(k, key, value);
}

static void
putn(struct kvs *k, int64_t v, const char *fmt, const char *a,
    const char *b)
{
	char	num[32];

	if (v < 0)
		return;
	snprintf(num, sizeof(num), "%" PRId64, v);
	putf(k, num, fmt, a, b);
}

static int
by_key(const void *a, const void *b)
{
	return strcmp(((const struct lab_fact_kv *)a)->key,
	    ((const struct lab_fact_kv *)b)->key);
}

static void
buf_reset(struct lab_buf *b)
{
	b->len = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

/* Every address of ifname of family, sorted, joined by ",". */
static void
addrs(struct kvs *k, const struct lab_host_facts *f, size_t first)
{
	const struct lab_fact_addr	*a = &f->addrs[first];
	struct lab_strv			 v;
	struct lab_buf			 b;
	size_t				 i;

	/* each (ifname, family) once: at its first address */
	for (i = 0; i < first; i++)
		if (strcmp(f->addrs[i].ifname, a->ifname) == 0 &&
		    strcmp(f->addrs[i].family, a->family) == 0)
			return;
	memset(&v, 0, sizeof(v));
	lab_buf_init(&b);
	for (i = first; i < f->naddrs; i++) {
		const struct lab_fact_addr *o = &f->addrs[i];

		if (strcmp(o->ifname, a->ifname) != 0 ||
		    strcmp(o->family, a->family) != 0)
			continue;
		buf_reset(&b);
		lab_buf_addf(&b, "%s/%d", o->address, o->prefixlen);
		if (b.oom || lab_strv_add(&v, b.s) == -1)
			k->oom = 1;
	}
	lab_strv_sort(&v);
	buf_reset(&b);
	for (i = 0; i < v.n; i++)
		lab_buf_addf(&b, "%s%s", i ? "," : "", v.v[i]);
	if (b.oom)
		k->oom = 1;
	else
		putf(k, b.s, "addr.%s.%s", a->ifname, a->family);
	lab_buf_release(&b);
	lab_strv_release(&v);
}

static void
disks(struct kvs *k, const struct lab_host_facts *f)
{
	size_t	i;

	for (i = 0; i < f->ndisks; i++) {
		const struct lab_fact_disk *d = &f->disks[i];

		putf(k, d->path, "disk.%s.%s", d->name, "path");
		putf(k, d->serial, "disk.%s.%s", d->name, "serial");
		putf(k, d->model, "disk.%s.%s", d->name, "model");
		putf(k, d->firmware, "disk.%s.%s", d->name, "firmware");
		putf(k, d->transport, "disk.%s.%s", d->name, "transport");
		putn(k, d->size_bytes, "disk.%s.%s", d->name, "size_bytes");
		putn(k, d->rotational, "disk.%s.%s", d->name, "rotational");
	}
}

static void
nics(struct kvs *k, const struct lab_host_facts *f)
{
	size_t	i;

	for (i = 0; i < f->nnics; i++) {
		const struct lab_fact_nic *n = &f->nics[i];

		putf(k, n->mac, "nic.%s.%s", n->name, "mac");
		putf(k, n->driver, "nic.%s.%s", n->name, "driver");
		putf(k, n->kind, "nic.%s.%s", n->name, "kind");
		putf(k, n->master, "nic.%s.%s", n->name, "master");
		putf(k, n->duplex, "nic.%s.%s", n->name, "duplex");
		putf(k, n->product, "nic.%s.%s", n->name, "product");
		putn(k, n->speed_mbps, "nic.%s.%s", n->name, "speed_mbps");
		putn(k, n->carrier, "nic.%s.%s", n->name, "carrier");
	}
	for (i = 0; i < f->naddrs; i++)
		addrs(k, f, i);
}

static void
rest(struct kvs *k, const struct lab_host_facts *f)
{
	const struct lab_fact_bmc	*b = &f->bmc;
	struct lab_buf			 m;
	size_t				 i;

	put(k, "kernel", f->kernel);
	put(k, "dmi.sys_vendor", f->dmi.sys_vendor);
	put(k, "dmi.product_name", f->dmi.product_name);
	put(k, "dmi.product_serial", f->dmi.product_serial);
	put(k, "dmi.bios_vendor", f->dmi.bios_vendor);
	put(k, "dmi.bios_version", f->dmi.bios_version);
	put(k, "dmi.bios_date", f->dmi.bios_date);
	if (b->ok) {
		put(k, "bmc.firmware", b->firmware);
		put(k, "bmc.ipmi_version", b->ipmi_version);
		put(k, "bmc.manufacturer", b->manufacturer);
		putn(k, b->manufacturer_id, "bmc.%s%s", "manufacturer_id", "");
		putn(k, b->product_id, "bmc.%s%s", "product_id", "");
		putn(k, b->device_id, "bmc.%s%s", "device_id", "");
		put(k, "bmc.fru_product", b->fru_product);
		put(k, "bmc.fru_serial", b->fru_serial);
	}
	if (f->nm.running >= 0) {
		put(k, "nm.running", f->nm.running ? "1" : "0");
		lab_buf_init(&m);
		for (i = 0; i < f->nm.managed.n; i++)
			lab_buf_addf(&m, "%s%s", i ? "," : "",
			    f->nm.managed.v[i]);
		if (m.oom)
			k->oom = 1;
		else if (f->nm.running)
			put(k, "nm.managed", m.s != NULL ? m.s : "");
		lab_buf_release(&m);
	}
}

int
lab_host_facts_flatten(const struct lab_host_facts *f,
    struct lab_fact_kv **ret, size_t *n, struct lab_err *err)
{
	struct kvs	k;

	memset(&k, 0, sizeof(k));
	*ret = NULL;
	*n = 0;
	if (f->ok) {
		disks(&k, f);
		nics(&k, f);
	}
	rest(&k, f);
	if (k.oom) {
		lab_fact_kvs_free(k.v, k.n);
		return lab_err_oom(err);
	}
	if (k.n > 0)
		qsort(k.v, k.n, sizeof(*k.v), by_key);
	*ret = k.v;
	*n = k.n;
	return 0;
}
