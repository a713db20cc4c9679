/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Prints lab_report_html of a report built by hand: hosts on, off and never
 * checked, a MicroServer whose BMC does not answer, an SG200-26 with hosts
 * on some ports (one at 100 Mb/s, one half duplex), a generic 40-port
 * switch, awkward names (<, &, quotes, UTF-8, a script tag), findings and
 * changes. With the argument "empty", an empty report: no hosts, no
 * switches, nothing found. tests/report/html.sh checks the pages.
 */
#include <stdio.h>
#include <string.h>

#include "lab/report.h"

#define NOW	INT64_C(1796025600)	/* 2026-11-30 08:00 UTC */
#define TB	UINT64_C(1000000000000)
#define GB	UINT64_C(1000000000)

static struct lab_report_nic nas_nics[] = {
	{ "eth0", "00:11:22:33:44:01", "sg200", "gi1/0/1", NOW - 600 },
	{ "eth1", "00:11:22:33:44:02", NULL, NULL, 0 },
};

static struct lab_report_disk nas_disks[] = {
	{ "bay1", "hdd", 4 * TB, "ahci0", "tank/mirror-0" },
	{ "bay2", "hdd", 4 * TB, "ahci0", "tank/mirror-0" },
	{ "bay3", "hdd", 2 * TB, "ahci0", "tank/mirror-1" },
	{ "bay4", "hdd", 3 * TB, "ahci0", "tank/mirror-1" },
	{ "odd", "ssd", 250 * GB, "ide-emul", "tank/cache" },
	{ "usb", "ssd", 32 * GB, "usb", "md0" },
};

static struct lab_report_nic ms_nics[] = {
	{ "eth0", "00:11:22:33:44:11", "sg200", "gi1/0/22", NOW - 86400 },
};

static struct lab_report_disk ms_disks[] = {
	{ "bay1", "hdd", 1 * TB, "sata0", NULL },
	{ "bay2", "hdd", 500 * GB, "sata0", NULL },
	{ "bay3", "ssd", 256 * GB, NULL, NULL },
};

static struct lab_report_nic weird_nics[] = {
	{ "eth<0>", "00:11:22:33:44:21", "sg200", "gi3", NOW - 60 },
};

static struct lab_report_disk weird_disks[] = {
	{ "slot \"A\" & <B>", "nvme", 2 * TB, "ctl 'x'", "vg<data>/r&aid1" },
	{ "slot 'C'", "nvme", 2 * TB, "ctl 'x'", "vg<data>/r&aid1" },
};

static struct lab_report_disk off_disks[] = {
	{ "sda", "hdd", 0, NULL, NULL },
};

static char *groups_nas[] = { "storage", "zfs & nfs", NULL };
static char *groups_weird[] = { "<script>alert(1)</script>", NULL };

static struct lab_report_host hosts[] = {
	{
		.name = "nas", .model = "n54l",
		.model_name = "HP ProLiant MicroServer N54L",
		.role = "storage", .groups = { groups_nas, 2, 2 },
		.bmc = "ipmi 192.0.2.10:623", .power = "on",
		.power_seen = NOW - 300, .power_checked = NOW - 300,
		.bmc_reachable = 1,
		.nics = nas_nics, .nnics = 2, .disks = nas_disks, .ndisks = 6,
		.last_run = "run 42: install debian-12, 2026-11-28, ok",
	},
	{
		.name = "microserver1", .model = "n40l",
		.model_name = "HP ProLiant MicroServer N40L",
		.role = "build", .bmc = "rac 192.0.2.21:623",
		.power = NULL, .power_seen = NOW - 3 * 86400,
		.power_checked = NOW - 120, .bmc_reachable = 0,
		.nics = ms_nics, .nnics = 1, .disks = ms_disks, .ndisks = 3,
	},
	{
		.name = "r&d <lab> \"α\" 'ü' Zürich", .model = "custom",
		.role = "o'brien & <co>", .groups = { groups_weird, 1, 1 },
		.bmc = "ipmi 192.0.2.30:623", .power = "off",
		.power_seen = NOW - 7200, .power_checked = NOW - 7200,
		.bmc_reachable = 1,
		.nics = weird_nics, .nnics = 1, .disks = weird_disks,
		.ndisks = 2,
	},
	{
		.name = "never", .model = "pc",
		.bmc = "ipmi 192.0.2.40:623",
		.disks = off_disks, .ndisks = 1,
	},
	{ .name = "nobmc" },
};

static char sg_names[28][16];
static struct lab_report_port sg_ports[28];
static char gen_names[40][16];
static struct lab_report_port gen_ports[40];

static struct lab_report_switch switches[] = {
	{
		.name = "sg200", .model = "sg200-26",
		.model_name = "Cisco SG200-26", .model_ports = 26,
		.descr = "SG200-26 26-Port Gigabit Smart Switch",
		.discovered_at = NOW - 900, .ports = sg_ports, .nports = 28,
	},
	{
		.name = "core <&> \"big\"", .model = "generic",
		.descr = "Generic 40-port switch", .discovered_at = NOW - 1800,
		.ports = gen_ports, .nports = 40,
	},
	{ .name = "spare", .model = "sg200-26", .model_ports = 26 },
};

static struct lab_report_change changes[] = {
	{ "power", "r&d <lab> \"α\" 'ü' Zürich", "on -> off" },
	{ "nic-moved", "microserver1 eth0", "sg200 gi1/0/20 -> gi1/0/22" },
	{ "port-speed", "sg200 gi1/0/22", "1000 -> 100 Mb/s" },
	{ "unknown-mac", "sg200 gi1/0/5", "new MAC 00:de:ad:be:ef:00" },
	{ "disk-added", "nas usb", "32 GB ssd" },
};

static struct lab_report_finding findings[] = {
	{ "critical", "microserver1",
	    "RAC unreachable: a MicroServer RAC has no battery, so mains may "
	    "be off" },
	{ "warning", "sg200 gi1/0/22",
	    "port at 100 Mb/s with host microserver1 on it" },
	{ "warning", "sg200 gi3",
	    "half duplex with host r&d <lab> \"α\" 'ü' Zürich on it" },
	{ "warning", "nas", "mirror-1 of unequal disks (2 TB and 3 TB)" },
	{ "info", "nas eth1", "inventory NIC never seen on a switch" },
	{ "odd<sev>", "x", "<script>alert(\"x\")</script>" },
};

static struct lab_report_audit audit[] = {
	{ NOW - 7200, "root", "lab power off 'r&d <lab>'", 0, NULL },
	{ NOW - 120, "alice", "lab power status", 1,
	    "microserver1: BMC 192.0.2.21:623: session timeout" },
};

static void
fill_ports(void)
{
	size_t	i;

	for (i = 0; i < 26; i++) {
		struct lab_report_port	*p = &sg_ports[i];

		snprintf(sg_names[i], sizeof(sg_names[i]), "gi1/0/%zu", i + 1);
		p->ifindex = 49 + i;
		p->name = sg_names[i];
		p->oper_status = i % 3 == 0 ? "up" : "down";
		p->speed_mbps = i % 3 == 0 ? 1000 : 0;
		p->duplex = i % 3 == 0 ? "full" : NULL;
		p->vlan = "1";
	}
	sg_ports[0].host = "nas";
	sg_ports[0].nic = "eth0";
	/* port 22: the MicroServer, at 100 Mb/s */
	sg_ports[21].oper_status = "up";
	sg_ports[21].speed_mbps = 100;
	sg_ports[21].duplex = "full";
	sg_ports[21].host = "microserver1";
	sg_ports[21].nic = "eth0";
	/* port 3: half duplex, awkward host */
	sg_ports[2].oper_status = "up";
	sg_ports[2].speed_mbps = 1000;
	sg_ports[2].duplex = "half";
	sg_ports[2].host = "r&d <lab> \"α\" 'ü' Zürich";
	sg_ports[2].nic = "eth<0>";
	sg_ports[4].oper_status = "up";
	sg_ports[4].speed_mbps = 10;
	sg_ports[4].speed_suspect = 1;
	sg_ports[24].neighbor = "cdp: core <&> \"big\" te1/1";
	sg_ports[24].lag = "Po1";
	sg_ports[25].oper_status = "notPresent";
	/* logical interfaces must not take the place of ports 1 and 2 */
	snprintf(sg_names[26], sizeof(sg_names[26]), "Po1");
	sg_ports[26].ifindex = 1000;
	sg_ports[26].name = sg_names[26];
	sg_ports[26].oper_status = "up";
	sg_ports[26].speed_mbps = 1000;
	snprintf(sg_names[27], sizeof(sg_names[27]), "vlan2");
	sg_ports[27].ifindex = 100000;
	sg_ports[27].name = sg_names[27];
	sg_ports[27].oper_status = "down";
	for (i = 0; i < 40; i++) {
		struct lab_report_port	*p = &gen_ports[i];

		snprintf(gen_names[i], sizeof(gen_names[i]), "ge-0/0/%zu", i);
		p->ifindex = 500 + i;
		p->name = gen_names[i];
		p->oper_status = i % 4 == 1 ? "down" : "up";
		p->speed_mbps = i % 7 == 3 ? 100 : 10000;
		p->duplex = i == 9 ? "half" : "full";
		p->vlan = i < 20 ? "10" : "20,30";
	}
	gen_ports[6].host = "a-very-long-host-name-indeed";
	gen_ports[6].nic = "eno1";
}

int
main(int argc, char **argv)
{
	struct lab_report	r = { 0 };
	struct lab_buf		b;

	r.generated_at = NOW;
	if (argc > 1 && strcmp(argv[1], "empty") == 0)
		goto print;
	fill_ports();
	r.previous_run = NOW - 86400;
	r.hosts = hosts;
	r.nhosts = sizeof(hosts) / sizeof(hosts[0]);
	r.switches = switches;
	r.nswitches = sizeof(switches) / sizeof(switches[0]);
	r.changes = changes;
	r.nchanges = sizeof(changes) / sizeof(changes[0]);
	r.findings = findings;
	r.nfindings = sizeof(findings) / sizeof(findings[0]);
	r.audit = audit;
	r.naudit = sizeof(audit) / sizeof(audit[0]);
print:
	lab_buf_init(&b);
	lab_report_html(&r, &b);
	if (b.oom || b.s == NULL) {
		fprintf(stderr, "html-sample: out of memory\n");
		return 1;
	}
	fwrite(b.s, 1, b.len, stdout);
	lab_buf_release(&b);
	return 0;
}
