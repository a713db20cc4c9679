/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>

#include "lab/facts.h"
#include "lab/json.h"
#include "lab/render.h"

/*
 * The --json object of one host's facts (issue 20's contract): host, ok,
 * error, disks, nics, addresses, dmi, bmc, network_manager, findings;
 * besides them skipped (always false: a fan-out row), kernel, seen_at (ISO
 * 8601 UTC) and notes. Unknown numbers are null.
 */

static void
num(struct lab_json *j, const char *key, int64_t v)
{
	lab_json_key(j, key);
	if (v < 0)
		lab_json_null(j);
	else
		lab_json_int(j, v);
}

static void
tri(struct lab_json *j, const char *key, int v)
{
	lab_json_key(j, key);
	if (v < 0)
		lab_json_null(j);
	else
		lab_json_bool(j, v);
}

static void
disks(struct lab_json *j, const struct lab_host_facts *f)
{
	size_t	i;

	lab_json_key(j, "disks");
	lab_json_arr_begin(j);
	for (i = 0; i < f->ndisks; i++) {
		const struct lab_fact_disk *d = &f->disks[i];

		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", d->name);
		lab_json_kstr(j, "path", d->path);
		lab_json_kstr(j, "serial", d->serial);
		lab_json_kstr(j, "model", d->model);
		lab_json_kstr(j, "firmware", d->firmware);
		num(j, "size_bytes", d->size_bytes);
		tri(j, "rotational", d->rotational);
		lab_json_kstr(j, "transport", d->transport);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}

static void
nics(struct lab_json *j, const struct lab_host_facts *f)
{
	size_t	i;

	lab_json_key(j, "nics");
	lab_json_arr_begin(j);
	for (i = 0; i < f->nnics; i++) {
		const struct lab_fact_nic *n = &f->nics[i];

		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", n->name);
		lab_json_kstr(j, "mac", n->mac);
		lab_json_kstr(j, "driver", n->driver);
		num(j, "speed_mbps", n->speed_mbps);
		lab_json_kstr(j, "duplex", n->duplex);
		tri(j, "carrier", n->carrier);
		lab_json_kstr(j, "kind", n->kind);
		lab_json_kstr(j, "master", n->master);
		lab_json_kstr(j, "product", n->product);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "addresses");
	lab_json_arr_begin(j);
	for (i = 0; i < f->naddrs; i++) {
		const struct lab_fact_addr *a = &f->addrs[i];

		lab_json_obj_begin(j);
		lab_json_kstr(j, "ifname", a->ifname);
		lab_json_kstr(j, "family", a->family);
		lab_json_kstr(j, "address", a->address);
		num(j, "prefixlen", a->prefixlen);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}

static void
dmi_bmc(struct lab_json *j, const struct lab_host_facts *f)
{
	const struct lab_fact_bmc	*b = &f->bmc;

	lab_json_key(j, "dmi");
	lab_json_obj_begin(j);
	lab_json_kstr(j, "sys_vendor", f->dmi.sys_vendor);
	lab_json_kstr(j, "product_name", f->dmi.product_name);
	lab_json_kstr(j, "product_serial", f->dmi.product_serial);
	lab_json_kstr(j, "bios_vendor", f->dmi.bios_vendor);
	lab_json_kstr(j, "bios_version", f->dmi.bios_version);
	lab_json_kstr(j, "bios_date", f->dmi.bios_date);
	lab_json_obj_end(j);
	lab_json_key(j, "bmc");
	lab_json_obj_begin(j);
	lab_json_key(j, "ok");
	lab_json_bool(j, b->ok);
	lab_json_kstr(j, "error", b->error);
	lab_json_kstr(j, "firmware", b->firmware);
	lab_json_kstr(j, "ipmi_version", b->ipmi_version);
	num(j, "manufacturer_id", b->ok ? b->manufacturer_id : -1);
	lab_json_kstr(j, "manufacturer", b->manufacturer);
	num(j, "product_id", b->ok ? b->product_id : -1);
	num(j, "device_id", b->ok ? b->device_id : -1);
	lab_json_kstr(j, "fru_product", b->fru_product);
	lab_json_kstr(j, "fru_serial", b->fru_serial);
	lab_json_obj_end(j);
}

void
lab_facts_json(struct lab_json *j, const struct lab_host_facts *f)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "host", f->host);
	lab_json_key(j, "ok");
	lab_json_bool(j, f->ok);
	/* a fan-out row (lab(1), JSON): no host is skipped by lab facts */
	lab_json_key(j, "skipped");
	lab_json_bool(j, 0);
	lab_json_kstr(j, "error", f->error);
	lab_json_ktime(j, "seen_at", f->seen_at);
	lab_json_kstr(j, "kernel", f->kernel);
	disks(j, f);
	nics(j, f);
	dmi_bmc(j, f);
	lab_json_key(j, "network_manager");
	lab_json_obj_begin(j);
	tri(j, "running", f->nm.running);
	lab_json_key(j, "managed");
	lab_json_arr_begin(j);
	for (i = 0; i < f->nm.managed.n; i++)
		lab_json_str(j, f->nm.managed.v[i]);
	lab_json_arr_end(j);
	lab_json_obj_end(j);
	lab_json_key(j, "notes");
	lab_json_arr_begin(j);
	for (i = 0; i < f->notes.n; i++)
		lab_json_str(j, f->notes.v[i]);
	lab_json_arr_end(j);
	lab_json_key(j, "findings");
	lab_json_arr_begin(j);
	for (i = 0; i < f->findings.n; i++) {
		const struct lab_fact_finding *x = &f->findings.v[i];

		lab_json_obj_begin(j);
		lab_json_kstr(j, "severity", x->severity);
		lab_json_kstr(j, "kind", x->kind);
		lab_json_kstr(j, "subject", x->subject);
		lab_json_kstr(j, "message", x->message);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}
