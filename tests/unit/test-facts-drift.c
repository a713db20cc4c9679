/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Drift (lib/facts/drift.c): a host whose facts agree with the inventory
 * gives no finding; each way of differing gives its finding, naming the
 * host, the device and both values, and nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/err.h"
#include "lab/facts.h"

#include "tests.h"

#define S(x)	((char *)(x))

static struct lab_disk decl_disks[2];
static struct lab_nic decl_nics[2];
static struct lab_netcfg netcfg;
static struct lab_host host;

static struct lab_fact_disk disks[6];
static struct lab_fact_nic nics[4];
static char *managed[4];
static struct lab_host_facts facts;
static struct lab_port_view ports[1];

/* A MicroServer with two disks and two NICs, and facts that agree. */
static void
reset(void)
{
	memset(decl_disks, 0, sizeof(decl_disks));
	decl_disks[0] = (struct lab_disk){ .slot = S("1"), .kind = S("sata"),
	    .size_bytes = 250000000000ULL,
	    .device = S("/dev/disk/by-id/ata-WDC_WD2500-1") };
	decl_disks[1] = (struct lab_disk){ .slot = S("odd"), .kind = S("ssd"),
	    .size_bytes = 120000000000ULL };
	decl_nics[0] = (struct lab_nic){ .name = S("eth0"),
	    .mac = S("00:26:55:D1:0A:01") };
	decl_nics[1] = (struct lab_nic){ .name = S("eth1"),
	    .mac = S("00:26:55:d1:0a:02") };
	host = (struct lab_host){ .name = S("nas"),
	    .model = S("hp-microserver-n54l"), .nics = decl_nics, .nnics = 2,
	    .disks = decl_disks, .ndisks = 2 };

	memset(disks, 0, sizeof(disks));
	disks[0] = (struct lab_fact_disk){ .name = S("sda"),
	    .path = S("/dev/disk/by-id/ata-WDC_WD2500-1"), .serial = S("WD-1"),
	    .transport = S("sata"), .size_bytes = 250059350016LL,
	    .rotational = 1 };
	disks[1] = (struct lab_fact_disk){ .name = S("sdb"),
	    .serial = S("SSD-9"), .transport = S("sata"),
	    .size_bytes = 120034123776LL, .rotational = 0 };
	/* not disks: a partition, a loop device, the ODD drive, zram */
	disks[2] = (struct lab_fact_disk){ .name = S("sda1"),
	    .size_bytes = 1000000, .rotational = 1 };
	disks[3] = (struct lab_fact_disk){ .name = S("loop0"),
	    .size_bytes = 1000, .rotational = 0 };
	disks[4] = (struct lab_fact_disk){ .name = S("sr0"),
	    .size_bytes = 0, .rotational = 1 };
	disks[5] = (struct lab_fact_disk){ .name = S("zram0"),
	    .size_bytes = 1000, .rotational = 0 };
	memset(nics, 0, sizeof(nics));
	nics[0] = (struct lab_fact_nic){ .name = S("eth0"),
	    .mac = S("00:26:55:d1:0a:01"), .driver = S("tg3"),
	    .duplex = S("full"), .speed_mbps = 1000, .carrier = 1 };
	nics[1] = (struct lab_fact_nic){ .name = S("eth1"),
	    .mac = S("00:26:55:d1:0a:02"), .driver = S("e1000e"),
	    .duplex = NULL, .speed_mbps = -1, .carrier = 0 };
	nics[2] = (struct lab_fact_nic){ .name = S("lo"),
	    .mac = S("00:00:00:00:00:00"), .kind = S("loopback"),
	    .speed_mbps = -1, .carrier = 1 };
	managed[0] = S("wlan0");
	facts = (struct lab_host_facts){ .host = S("nas"), .ok = 1,
	    .disks = disks, .ndisks = 6, .nics = nics, .nnics = 3 };
	facts.dmi.sys_vendor = S("HP");
	facts.dmi.product_name = S("ProLiant MicroServer");
	facts.nm.running = 1;
	facts.nm.managed.v = managed;
	facts.nm.managed.n = 1;
	ports[0] = (struct lab_port_view){ .nic = S("eth0"),
	    .switch_name = S("sw1"), .port = S("gi7"), .speed_mbps = 1000,
	    .duplex = S("full"), .max_mbps = 1000 };
}

/* The findings of the current host and facts, with prev. */
static struct lab_fact_findings
drift_prev(const struct lab_fact_kv *prev, size_t nprev)
{
	struct lab_fact_findings	fs = { NULL, 0 };
	struct lab_err			err = { 0 };

	CHECK(lab_facts_drift_prev(&host, &facts, ports, 1, prev, nprev, &fs,
	    &err) == 0);
	return fs;
}

static struct lab_fact_findings
drift(void)
{
	struct lab_fact_findings	fs = { NULL, 0 };
	struct lab_err			err = { 0 };

	CHECK(lab_facts_drift(&host, &facts, ports, 1, &fs, &err) == 0);
	return fs;
}

static void
dump(const struct lab_fact_findings *fs)
{
	size_t	i;

	for (i = 0; i < fs->n; i++)
		fprintf(stderr, "  %s %s [%s] %s\n", fs->v[i].severity,
		    fs->v[i].kind, fs->v[i].subject, fs->v[i].message);
}

/* Exactly one finding, of kind, whose message holds each of want. */
#define ONE(fs, k, sev, ...) one(__LINE__, fs, k, sev, \
	(const char *const []){ __VA_ARGS__, NULL })

static void
one(int line, struct lab_fact_findings *fs, const char *kind,
    const char *severity, const char *const *want)
{
	size_t	i;

	if (getenv("FACTS_DRIFT_DUMP") != NULL)
		dump(fs);
	if (fs->n != 1 || strcmp(fs->v[0].kind, kind) != 0) {
		fprintf(stderr, "line %d: want one %s, got %zu:\n", line, kind,
		    fs->n);
		dump(fs);
		tests_failed++;
	} else {
		CHECK_STR(fs->v[0].severity, severity);
		for (i = 0; want[i] != NULL; i++)
			if (strstr(fs->v[0].message, want[i]) == NULL) {
				fprintf(stderr, "line %d: '%s' lacks '%s'\n",
				    line, fs->v[0].message, want[i]);
				tests_failed++;
			}
	}
	lab_fact_findings_release(fs);
}

static void
none(int line, struct lab_fact_findings *fs)
{
	if (fs->n != 0) {
		fprintf(stderr, "line %d: want no finding, got %zu:\n", line,
		    fs->n);
		dump(fs);
		tests_failed++;
	}
	lab_fact_findings_release(fs);
}
#define NONE(fs)	none(__LINE__, fs)

static void
test_clean(void)
{
	struct lab_fact_findings fs;

	reset();
	fs = drift();
	NONE(&fs);
	/* the SSH part did not run: nothing judged */
	facts.ok = 0;
	facts.ndisks = 0;
	fs = drift();
	NONE(&fs);
	/* no disks, no NICs listed (the tools missing): not judged either */
	reset();
	facts.ndisks = 0;
	facts.nnics = 0;
	fs = drift();
	NONE(&fs);
}

static void
test_disks(void)
{
	struct lab_fact_findings fs;

	/* the device: path gone; by-id of another disk */
	reset();
	disks[0].path = S("/dev/disk/by-id/ata-OTHER");
	fs = drift();
	CHECK(fs.n == 2);	/* missing, and sda is now extra */
	if (fs.n == 2) {
		CHECK_STR(fs.v[0].kind, "disk-missing");
		CHECK_STR(fs.v[0].severity, "critical");
		CHECK_STR(fs.v[0].subject, "nas disk 1");
		CHECK_HAS(fs.v[0].message, "/dev/disk/by-id/ata-WDC_WD2500-1");
		CHECK_HAS(fs.v[0].message, "sda 250 GB sata");
		CHECK_STR(fs.v[1].kind, "disk-extra");
		CHECK_HAS(fs.v[1].message, "nas disk sda");
		CHECK_HAS(fs.v[1].message, "WD-1");
	}
	lab_fact_findings_release(&fs);

	/* device: as /dev/NAME matches too */
	reset();
	decl_disks[0].device = S("/dev/sda");
	fs = drift();
	NONE(&fs);

	/* the SSD gone: missing, declared size and kind named */
	reset();
	facts.ndisks = 1;
	fs = drift();
	ONE(&fs, "disk-missing", "critical", "nas disk odd", "120 GB ssd",
	    "not declared: none");

	/* an extra disk; partitions of it are not */
	reset();
	disks[2] = (struct lab_fact_disk){ .name = S("sdc"),
	    .serial = S("Z1"), .transport = S("usb"),
	    .size_bytes = 16000000000LL, .rotational = 1 };
	fs = drift();
	ONE(&fs, "disk-extra", "info", "nas disk sdc", "16 GB", "Z1",
	    "lab facts nas --yaml");

	/* NVMe partitions are not disks */
	reset();
	disks[2] = (struct lab_fact_disk){ .name = S("nvme0n1p1"),
	    .size_bytes = 1000, .rotational = 0 };
	fs = drift();
	NONE(&fs);

	/* the size of a disk matched by device: */
	reset();
	disks[0].size_bytes = 500107862016LL;
	fs = drift();
	ONE(&fs, "disk-size", "warning", "nas disk 1 (sda)", "250 GB",
	    "500 GB", "500107862016");

	/* within 2%: no finding */
	reset();
	disks[0].size_bytes = 254000000000LL;
	fs = drift();
	NONE(&fs);

	/* the kind: the odd disk is spinning, matched by size alone */
	reset();
	disks[1].rotational = 1;
	fs = drift();
	ONE(&fs, "disk-kind", "warning", "nas disk odd (sdb)", "says ssd",
	    "sata (transport sata, rotational)");

	/* the kind of a device: disk: sas seen */
	reset();
	disks[0].transport = S("sas");
	fs = drift();
	ONE(&fs, "disk-kind", "warning", "nas disk 1 (sda)", "says sata",
	    "sas");

	/* a virtual machine's disk (virtio) tells no kind: it fits sata */
	reset();
	disks[0].transport = S("virtio");
	fs = drift();
	NONE(&fs);

	/* a loop device is no disk, but for one the inventory declares */
	reset();
	decl_disks[0].device = S("/dev/loop0");
	decl_disks[0].size_bytes = 1000;
	decl_disks[0].kind = S("ssd");
	fs = drift();
	ONE(&fs, "disk-extra", "info", "nas disk sda", "WD-1");

	/* nvme declared, nvme seen: fits */
	reset();
	decl_disks[1].kind = S("nvme");
	disks[1].name = S("nvme0n1");
	disks[1].transport = S("nvme");
	fs = drift();
	NONE(&fs);
}

static void
test_swapped(void)
{
	struct lab_fact_findings	fs;
	struct lab_fact_kv		prev[] = {
		{ S("disk.sda.serial"), S("WD-1") },
		{ S("disk.sdb.serial"), S("SSD-OLD") },
	};
	struct lab_fact_kv		renamed[] = {
		{ S("disk.sda.serial"), S("SSD-9") },
		{ S("disk.sdb.serial"), S("WD-1") },
	};

	reset();
	fs = drift_prev(prev, 2);
	ONE(&fs, "disk-swapped", "warning", "nas disk odd (sdb)",
	    "was SSD-OLD, now SSD-9");
	/* declared by a by-id path naming the old serial: the swap alone,
	   saying what to write, not also missing and extra */
	reset();
	decl_disks[1].device = S("/dev/disk/by-id/ata-SSD_SSD-OLD");
	disks[1].path = S("/dev/disk/by-id/ata-SSD_SSD-9");
	fs = drift_prev(prev, 2);
	ONE(&fs, "disk-swapped", "warning", "nas disk odd (sdb)",
	    "was SSD-OLD, now SSD-9", "device: /dev/disk/by-id/ata-SSD_SSD-OLD "
	    "names the old disk: write /dev/disk/by-id/ata-SSD_SSD-9");
	/* without the previous facts: missing and extra */
	fs = drift_prev(NULL, 0);
	CHECK(fs.n == 2);
	lab_fact_findings_release(&fs);
	reset();
	/* the same serials under other names: not swapped */
	fs = drift_prev(renamed, 2);
	NONE(&fs);
	/* the same serials: not swapped */
	prev[1].value = S("SSD-9");
	fs = drift_prev(prev, 2);
	NONE(&fs);
	/* no previous facts: cannot tell */
	fs = drift_prev(NULL, 0);
	NONE(&fs);
}

static void
test_nics(void)
{
	struct lab_fact_findings fs;

	/* eth1 renamed enp3s0: missing, and where its MAC is */
	reset();
	nics[1].name = S("enp3s0");
	fs = drift();
	ONE(&fs, "nic-missing", "warning", "nas NIC eth1", "00:26:55:d1:0a:02",
	    "has no eth1", "that MAC is on enp3s0");

	/* the MAC differs; case does not matter */
	reset();
	nics[0].mac = S("00:26:55:d1:0a:99");
	fs = drift();
	ONE(&fs, "nic-mac", "warning", "nas NIC eth0",
	    "says MAC 00:26:55:D1:0A:01", "sees 00:26:55:d1:0a:99");

	/* in a bond, a NIC shows the bond's MAC: not judged */
	reset();
	nics[0].mac = S("00:26:55:d1:0a:99");
	nics[0].master = S("bond0");
	facts.nm.running = 0;
	fs = drift();
	NONE(&fs);
}

static void
test_model(void)
{
	struct lab_fact_findings fs;

	reset();
	facts.dmi.product_name = S("ProLiant ML110 G5");
	fs = drift();
	ONE(&fs, "model", "warning", "nas:", "hp-microserver-n54l",
	    "'ProLiant MicroServer'", "'HP ProLiant ML110 G5'");

	/* a generic model is not judged; nor is DMI unknown */
	reset();
	host.model = S("generic-server");
	facts.dmi.product_name = S("Whatever");
	fs = drift();
	NONE(&fs);
	reset();
	facts.dmi.product_name = NULL;
	fs = drift();
	NONE(&fs);
}

static void
test_links(void)
{
	struct lab_fact_findings fs;

	/* the seeds' slow install: the host 100 half, the switch 1000 full */
	reset();
	nics[0].speed_mbps = 100;
	nics[0].duplex = S("half");
	fs = drift();
	ONE(&fs, "link-mismatch", "critical", "nas eth0",
	    "100 Mb/s half duplex", "sw1 port gi7 says 1000 Mb/s full duplex");

	/* duplex alone */
	reset();
	ports[0].duplex = S("half");
	fs = drift();
	ONE(&fs, "link-mismatch", "critical", "full duplex", "half duplex");

	/* both at 100 on a gigabit port: slow */
	reset();
	nics[0].speed_mbps = 100;
	ports[0].speed_mbps = 100;
	fs = drift();
	ONE(&fs, "link-slow", "warning", "nas eth0", "100 Mb/s",
	    "can do 1000 Mb/s", "sw1 port gi7");

	/* 100 on a Fast Ethernet port: fine; port speed unknown: fine */
	reset();
	nics[0].speed_mbps = 100;
	ports[0].speed_mbps = 100;
	ports[0].max_mbps = 100;
	fs = drift();
	NONE(&fs);
	reset();
	ports[0].speed_mbps = -1;
	ports[0].duplex = NULL;
	ports[0].max_mbps = -1;
	fs = drift();
	NONE(&fs);
	/* no carrier on the host: not judged */
	reset();
	nics[0].carrier = 0;
	nics[0].speed_mbps = 10;
	fs = drift();
	NONE(&fs);
}

static void
test_nm(void)
{
	struct lab_fact_findings fs;

	/* NetworkManager took the NICs of lab's bond */
	reset();
	nics[0].master = S("bond0");
	nics[0].mac = S("00:26:55:d1:0a:01");
	nics[3] = (struct lab_fact_nic){ .name = S("bond0"),
	    .mac = S("00:26:55:d1:0a:01"), .kind = S("bond"),
	    .speed_mbps = 1000, .duplex = S("full"), .carrier = 1 };
	facts.nnics = 4;
	managed[0] = S("eth0");
	fs = drift();
	ONE(&fs, "networkmanager", "warning", "nas eth0",
	    "NetworkManager manages eth0", "in bond0",
	    "unmanaged-devices=interface-name:eth0",
	    "/etc/NetworkManager/conf.d/",
	    "nmcli device set eth0 managed no");

	/* it manages the bond and eth0: two findings, one conf line */
	managed[1] = S("bond0");
	facts.nm.managed.n = 2;
	fs = drift();
	CHECK(fs.n == 2);
	if (fs.n == 2) {
		CHECK_HAS(fs.v[1].message, "a bond lab made");
		CHECK_HAS(fs.v[1].message, "interface-name:eth0;"
		    "interface-name:bond0");
	}
	lab_fact_findings_release(&fs);

	/* NetworkManager not running: nothing */
	facts.nm.running = 0;
	fs = drift();
	NONE(&fs);

	/* network: declared: lab will bond the declared NICs */
	reset();
	managed[0] = S("eth1");
	host.network = &netcfg;
	fs = drift();
	ONE(&fs, "networkmanager", "warning", "nas eth1",
	    "declares network:", "nmcli device set eth1 managed no");
	/* without network:, an unbonded NIC NetworkManager manages is fine */
	host.network = NULL;
	fs = drift();
	NONE(&fs);
}

int
main(void)
{
	test_clean();
	test_disks();
	test_swapped();
	test_nics();
	test_model();
	test_links();
	test_nm();
	TESTS_DONE();
}
