/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Stores two facts runs of the lab of inventory/ (sh drift.sh imports it
 * first) with a report run between them, through lib/db/facts.c and the
 * drift of lib/facts/drift.c as `lab facts` will: drift-seed DB.
 *
 *   BASE         microserver1: RAC firmware 1.20
 *                nas: its five declared disks, eth0
 *   BASE + 1h    a report run (the baseline)
 *   BASE + 1d    microserver1: RAC firmware 1.30 (upgraded)
 *                nas: slot 2's disk swapped (sdb: another serial, and its
 *                by-id path not the declared one), an extra USB disk,
 *                eth0 at 100 Mb/s half duplex on a gigabit port that
 *                says 1000 full, NetworkManager managing eth0 (nas
 *                declares network:), kernel gone
 *                ml110: its first facts (not changes: new since the
 *                baseline), a MAC that differs
 *
 * Times are fixed (BASE, 2025-11-30 00:00 UTC) so the output is too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/facts.h"
#include "lab/report.h"

#define BASE	INT64_C(1764460800)
#define DAY	INT64_C(86400)
#define S(x)	((char *)(x))

static void
die(const char *what, const struct lab_err *err)
{
	fprintf(stderr, "drift-seed: %s: %s\n", what, err->msg);
	exit(1);
}

static const struct lab_host *
host(const struct lab_inventory *inv, const char *name)
{
	const struct lab_host	*h = lab_inventory_host(inv, name);

	if (h == NULL) {
		fprintf(stderr, "drift-seed: no host %s: import inventory/ "
		    "first\n", name);
		exit(1);
	}
	return h;
}

/* Drift of f against h (with the stored facts as prev), then the put. */
static void
run(struct lab_db *db, const struct lab_host *h, struct lab_host_facts *f,
    const struct lab_port_view *ports, size_t nports, struct lab_fact_kv *kv,
    size_t n, int64_t now)
{
	struct lab_fact_findings	 fs = { NULL, 0 };
	struct lab_fact_kv		*prev;
	struct lab_err			 err;
	size_t				 nprev;

	lab_err_init(&err);
	if (lab_db_facts_get(db, "host", h->name, &prev, &nprev, &err) == -1)
		die("facts get", &err);
	if (lab_facts_drift_prev(h, f, ports, nports, prev, nprev, &fs,
	    &err) == -1)
		die("drift", &err);
	if (lab_db_facts_put(db, "host", h->name, kv, n, &fs, now, &err) == -1)
		die("facts put", &err);
	lab_fact_kvs_free(prev, nprev);
	lab_fact_findings_release(&fs);
}

#define NAS_DISK(n_, m_, s_, sz_) { .name = S(n_), \
	.path = S("/dev/disk/by-id/ata-" m_ "_" s_), .serial = S(s_), \
	.model = S(m_), .transport = S("sata"), .size_bytes = (sz_), \
	.rotational = 1 }
#define TB2	INT64_C(2000398934016)
#define GB250	INT64_C(250059350016)

int
main(int argc, char **argv)
{
	struct lab_db		*db = NULL;
	struct lab_inventory	*inv = NULL;
	struct lab_report	*r = NULL;
	struct lab_err		 err;
	int64_t			 id;
	const struct lab_host	*nas, *ms1, *ml110;
	struct lab_fact_disk	 disks[] = {
		NAS_DISK("sda", "WDC_WD20EARS-00MVWB0", "WD-WCAZA0000001", TB2),
		NAS_DISK("sdb", "WDC_WD20EARS-00MVWB0", "WD-WCAZA0000002", TB2),
		NAS_DISK("sdc", "WDC_WD20EARS-00MVWB0", "WD-WCAZA0000003", TB2),
		NAS_DISK("sdd", "WDC_WD20EARS-00MVWB0", "WD-WCAZA0000004", TB2),
		NAS_DISK("sde", "ST3250318AS", "9VY00001", GB250),
		{ .name = S("sdf"), .serial = S("USB-0042"),
		  .transport = S("usb"), .size_bytes = INT64_C(16008609792),
		  .rotational = 1 },
	};
	struct lab_fact_nic	 nics[] = {
		{ .name = S("eth0"), .mac = S("00:26:55:d1:0c:01"),
		  .driver = S("tg3"), .duplex = S("full"), .speed_mbps = 1000,
		  .carrier = 1 },
	};
	char			*managed[] = { S("eth0") };
	struct lab_port_view	 port = { .nic = S("eth0"),
		.switch_name = S("sg200"), .port = S("gi1/0/3"),
		.speed_mbps = 1000, .duplex = S("full"), .max_mbps = 1000 };
	struct lab_host_facts	 f = { .host = S("nas"), .ok = 1,
		.disks = disks, .ndisks = 5, .nics = nics, .nnics = 1 };
	struct lab_fact_kv	 nas1[] = {
		{ S("disk.sda.serial"), S("WD-WCAZA0000001") },
		{ S("disk.sdb.serial"), S("WD-WCAZA0000002") },
		{ S("disk.sdc.serial"), S("WD-WCAZA0000003") },
		{ S("disk.sdd.serial"), S("WD-WCAZA0000004") },
		{ S("disk.sde.serial"), S("9VY00001") },
		{ S("kernel"), S("6.1.0-40-amd64") },
		{ S("nic.eth0.mac"), S("00:26:55:d1:0c:01") },
	};
	struct lab_fact_kv	 nas2[] = {
		{ S("disk.sda.serial"), S("WD-WCAZA0000001") },
		{ S("disk.sdb.serial"), S("WD-WCAZA0000009") },
		{ S("disk.sdc.serial"), S("WD-WCAZA0000003") },
		{ S("disk.sdd.serial"), S("WD-WCAZA0000004") },
		{ S("disk.sde.serial"), S("9VY00001") },
		{ S("disk.sdf.serial"), S("USB-0042") },
		{ S("nic.eth0.mac"), S("00:26:55:d1:0c:01") },
	};
	struct lab_fact_kv	 ms1a[] = { { S("bmc.firmware"), S("1.20") } };
	struct lab_fact_kv	 ms1b[] = { { S("bmc.firmware"), S("1.30") } };
	struct lab_fact_kv	 ml[] = {
		{ S("dmi.product_name"), S("ProLiant ML110 G5") },
		{ S("nic.eth0.mac"), S("00:1e:0b:5a:11:99") },
	};
	struct lab_fact_nic	 mlnic = { .name = S("eth0"),
		.mac = S("00:1e:0b:5a:11:99"), .speed_mbps = -1,
		.carrier = 0 };
	struct lab_host_facts	 mlf = { .host = S("ml110"), .ok = 1,
		.nics = &mlnic, .nnics = 1 };
	struct lab_host_facts	 ms1f = { .host = S("microserver1"), .ok = 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: drift-seed DB\n");
		return 2;
	}
	lab_err_init(&err);
	if (lab_db_open(argv[1], 0, &db, &err) == -1)
		die(argv[1], &err);
	if (lab_db_inventory_load(db, &inv, &err) == -1)
		die("inventory", &err);
	nas = host(inv, "nas");
	ms1 = host(inv, "microserver1");
	ml110 = host(inv, "ml110");
	mlf.dmi.product_name = S("ProLiant ML110 G5");

	run(db, ms1, &ms1f, NULL, 0, ms1a, 1, BASE);
	run(db, nas, &f, NULL, 0, nas1, 7, BASE);

	if (lab_report_build(db, BASE + 3600, 0, 0, &r, &err) == -1 ||
	    lab_report_record(db, r, &id, &err) == -1)
		die("report run", &err);
	lab_report_free(r);

	run(db, ms1, &ms1f, NULL, 0, ms1b, 1, BASE + DAY);
	disks[1].serial = S("WD-WCAZA0000009");
	disks[1].path = S("/dev/disk/by-id/ata-WDC_WD20EARS-00MVWB0_"
	    "WD-WCAZA0000009");
	f.ndisks = 6;
	nics[0].speed_mbps = 100;
	nics[0].duplex = S("half");
	f.nm.running = 1;
	f.nm.managed.v = managed;
	f.nm.managed.n = 1;
	run(db, nas, &f, &port, 1, nas2, 7, BASE + DAY);
	run(db, ml110, &mlf, NULL, 0, ml, 2, BASE + DAY);

	lab_inventory_free(inv);
	lab_db_free(db);
	return 0;
}
