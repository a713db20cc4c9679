/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The parsers of lab facts (lib/facts/parse*.c) and what is made of
 * their result (flatten, JSON, YAML), without a peer: real outputs of
 * this project's build machine (tests/fixtures/facts: lsblk-vm.json, ip-vm.json, smartctl-
 * vda.json: a virtio disk smartctl cannot read) and hand-written ones of
 * a SATA box with a bond, an NVMe and a SAS disk, an old lsblk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/json.h"

#include "tests.h"

static char *
slurp(const char *rel)
{
	char	 path[4096];
	FILE	*f;
	char	*s;
	long	 n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/facts/%s", LAB_SRCDIR,
	    rel);
	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "%s: cannot open\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc((size_t)n + 1);
	if (s == NULL || fread(s, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	s[n] = '\0';
	fclose(f);
	return s;
}

static void
facts_init(struct lab_host_facts *f, const char *host)
{
	memset(f, 0, sizeof(*f));
	f->host = strdup(host);
	f->nm.running = -1;
}

static const struct lab_fact_disk *
disk(const struct lab_host_facts *f, const char *name)
{
	size_t	i;

	for (i = 0; i < f->ndisks; i++)
		if (strcmp(f->disks[i].name, name) == 0)
			return &f->disks[i];
	return NULL;
}

static const struct lab_fact_nic *
nic(const struct lab_host_facts *f, const char *name)
{
	size_t	i;

	for (i = 0; i < f->nnics; i++)
		if (strcmp(f->nics[i].name, name) == 0)
			return &f->nics[i];
	return NULL;
}

static int
has_note(const struct lab_host_facts *f, const char *part)
{
	size_t	i;

	for (i = 0; i < f->notes.n; i++)
		if (strstr(f->notes.v[i], part) != NULL)
			return 1;
	return 0;
}

/* This machine: a virtio disk, zram (left out), eth0, two ifb, lo. */
static void
test_vm(void)
{
	struct lab_host_facts	 f;
	struct lab_err		 e;
	const struct lab_fact_disk *d;
	char			*lsblk = slurp("lsblk-vm.json");
	char			*smart = slurp("smartctl-vda.json");
	char			*ip = slurp("ip-vm.json");
	size_t			 i, v4 = 0;

	facts_init(&f, "vm");
	lab_err_init(&e);
	CHECK(lab_facts_parse_lsblk(&f, lsblk, &e) == 0);
	CHECK(f.ndisks == 2);	/* vda, zram0: until keep_disks */
	CHECK(lab_facts_parse_smartctl(&f, "vda", smart, &e) == 0);
	CHECK(has_note(&f, "smartctl could not read vda: /dev/vda: Unable "
	    "to detect device type"));
	lab_facts_keep_disks(&f, NULL);
	CHECK(f.ndisks == 1);
	d = disk(&f, "vda");
	CHECK(d != NULL);
	if (d != NULL) {
		CHECK(d->size_bytes == 274877906944LL);
		CHECK(d->rotational == 1);
		CHECK_STR(d->transport, "virtio");
		CHECK(d->serial == NULL && d->model == NULL);
		CHECK(d->firmware == NULL);
	}
	CHECK(lab_facts_parse_ip_addr(&f, ip, &e) == 0);
	for (i = 0; i < f.naddrs; i++)
		if (strcmp(f.addrs[i].family, "inet") == 0 &&
		    strcmp(f.addrs[i].ifname, "lo") == 0) {
			CHECK_STR(f.addrs[i].address, "127.0.0.1");
			CHECK(f.addrs[i].prefixlen == 8);
			v4++;
		}
	CHECK(v4 == 1);
	CHECK(f.naddrs >= 2);
	lab_host_facts_release(&f);
	free(lsblk);
	free(smart);
	free(ip);
}

/* SATA with partitions, an SSD, an optical drive, a loop, an NVMe. */
static void
test_sata(void)
{
	struct lab_host_facts	 f;
	struct lab_err		 e;
	const struct lab_fact_disk *d;
	struct lab_host		 h;
	struct lab_disk		 hd;
	char			*lsblk = slurp("lsblk-sata.json");
	char			*byid = slurp("byid-sata.txt");
	char			*sda = slurp("smartctl-sda.json");
	char			*nvme = slurp("smartctl-nvme.json");
	char			*script;

	facts_init(&f, "ms1");
	lab_err_init(&e);
	CHECK(lab_facts_parse_lsblk(&f, lsblk, &e) == 0);
	/* sda, sdb, loop0, nvme0n1: no partition, no sr0 */
	CHECK(f.ndisks == 4);
	CHECK(disk(&f, "sda1") == NULL && disk(&f, "sr0") == NULL);
	d = disk(&f, "sda");
	CHECK(d != NULL && d->size_bytes == 1000204886016LL);
	CHECK(d != NULL && d->rotational == 1);
	CHECK_STR(d != NULL ? d->model : NULL, "WDC WD10EARS-00Y5B1");
	CHECK_STR(d != NULL ? d->serial : NULL, "WD-WCAV51234567");
	CHECK_STR(d != NULL ? d->transport : NULL, "sata");
	d = disk(&f, "sdb");
	CHECK(d != NULL && d->rotational == 0);

	/* the by-id links: ata- over scsi- and wwn-, no eui, no -part */
	script = malloc(strlen(byid) + 64);
	snprintf(script, strlen(byid) + 64, "== kernel ==\nx\n== byid ==\n%s",
	    byid);
	{
		/* byid through the script's sections, as lab reads it */
		struct lab_host_facts g;

		facts_init(&g, "ms1");
		CHECK(lab_facts_parse_lsblk(&g, lsblk, &e) == 0);
		CHECK(lab_facts_parse_script(&g, script, &e) == 0);
		CHECK_STR(disk(&g, "sda")->path, "/dev/disk/by-id/"
		    "ata-WDC_WD10EARS-00Y5B1_WD-WCAV51234567");
		CHECK_STR(disk(&g, "sdb")->path, "/dev/disk/by-id/"
		    "ata-OCZ-VERTEX2_OCZ-0123456789AB");
		CHECK_STR(disk(&g, "nvme0n1")->path, "/dev/disk/by-id/"
		    "nvme-Samsung_SSD_970_EVO_Plus_500GB_S4EWNX0R123456");
		CHECK(disk(&g, "loop0")->path == NULL);
		lab_host_facts_release(&g);
	}
	free(script);

	/* smartctl: firmware, a drive-database warning as a finding */
	CHECK(lab_facts_parse_smartctl(&f, "sda", sda, &e) == 0);
	d = disk(&f, "sda");
	CHECK_STR(d != NULL ? d->firmware : NULL, "80.00A80");
	CHECK(f.findings.n == 1);
	if (f.findings.n == 1) {
		CHECK_STR(f.findings.v[0].kind, "smart-warning");
		CHECK_STR(f.findings.v[0].severity, "warning");
		CHECK_STR(f.findings.v[0].subject, "ms1 disk sda");
		CHECK_HAS(f.findings.v[0].message, "may hang after 1 year");
	}
	CHECK(lab_facts_parse_smartctl(&f, "nvme0n1", nvme, &e) == 0);
	d = disk(&f, "nvme0n1");
	CHECK_STR(d != NULL ? d->firmware : NULL, "2B2QEXM7");
	CHECK_STR(d != NULL ? d->transport : NULL, "nvme");
	CHECK(f.notes.n == 0);

	/* a loop device stays only when the host declares it */
	memset(&h, 0, sizeof(h));
	memset(&hd, 0, sizeof(hd));
	hd.slot = "1";
	hd.device = "/dev/loop0";
	h.name = "ms1";
	h.disks = &hd;
	h.ndisks = 1;
	lab_facts_keep_disks(&f, &h);
	CHECK(f.ndisks == 4);
	lab_facts_keep_disks(&f, NULL);
	CHECK(f.ndisks == 3 && disk(&f, "loop0") == NULL);
	lab_host_facts_release(&f);
	free(lsblk);
	free(byid);
	free(sda);
	free(nvme);
}

/* SAS through smartctl alone (no lsblk), an old lsblk's strings. */
static void
test_sas_old(void)
{
	struct lab_host_facts	 f;
	struct lab_err		 e;
	const struct lab_fact_disk *d;
	char			*sas = slurp("smartctl-sas.json");
	char			*old = slurp("lsblk-old.json");

	facts_init(&f, "dl320");
	lab_err_init(&e);
	CHECK(lab_facts_parse_smartctl(&f, "sdc", sas, &e) == 0);
	d = disk(&f, "sdc");
	CHECK(d != NULL);
	CHECK_STR(d != NULL ? d->model : NULL, "HP DG0146FAMWL");
	CHECK_STR(d != NULL ? d->firmware : NULL, "HPDE");
	CHECK_STR(d != NULL ? d->serial : NULL, "3SD12345");
	CHECK(d != NULL && d->size_bytes == 146815737856LL);
	CHECK(d != NULL && d->rotational == 1);
	CHECK(lab_facts_parse_lsblk(&f, old, &e) == 0);
	d = disk(&f, "sda");
	CHECK(d != NULL && d->size_bytes == 250059350016LL);
	CHECK(d != NULL && d->rotational == 1);
	CHECK_STR(d != NULL ? d->model : NULL, "ST3250310AS");
	lab_host_facts_release(&f);
	free(sas);
	free(old);
}

/* Bad input: an error naming the host, never a crash. */
static void
test_bad(void)
{
	struct lab_host_facts	 f;
	struct lab_err		 e;

	facts_init(&f, "h1");
	lab_err_init(&e);
	CHECK(lab_facts_parse_lsblk(&f, "lsblk: unknown column", &e) == -1);
	CHECK(e.code == LAB_EXIT_PARTIAL);
	CHECK_HAS(e.msg, "h1: lsblk -J -O printed what is not JSON");
	lab_err_init(&e);
	CHECK(lab_facts_parse_lsblk(&f, "{\"x\": 1}", &e) == -1);
	CHECK_HAS(e.msg, "no \"blockdevices\" list");
	lab_err_init(&e);
	CHECK(lab_facts_parse_ip_addr(&f, "{}", &e) == -1);
	CHECK_HAS(e.msg, "h1: ip -j addr printed no list");
	lab_err_init(&e);
	CHECK(lab_facts_parse_smartctl(&f, "sda", "", &e) == -1);
	CHECK_HAS(e.msg, "printed nothing");
	lab_err_init(&e);
	CHECK(lab_facts_parse_script(&f, "Welcome to the host!\n", &e) == -1);
	CHECK_HAS(e.msg, "h1: the facts script printed no '== kernel =='");
	/* a section lab cannot read is a note; the rest still counts */
	lab_err_init(&e);
	CHECK(lab_facts_parse_script(&f, "== kernel ==\n6.1\n== lsblk ==\n"
	    "garbage\n== nic eth0 ==\nmac 00:11:22:33:44:55\n", &e) == 0);
	CHECK(has_note(&f, "lsblk -J -O printed what is not JSON"));
	CHECK(!has_note(&f, "h1:"));
	CHECK(f.nnics == 1 && strcmp(f.nics[0].mac, "00:11:22:33:44:55") == 0);
	CHECK_STR(f.kernel, "6.1");
	lab_host_facts_release(&f);
}

/* The whole script's output of a box with a bond in a bridge. */
static void
test_script(void)
{
	struct lab_host_facts	 f;
	struct lab_err		 e;
	const struct lab_fact_nic *n;
	char			*out = slurp("script-bond.txt");

	facts_init(&f, "ms1");
	lab_err_init(&e);
	CHECK(lab_facts_parse_script(&f, out, &e) == 0);
	CHECK_STR(f.kernel, "6.1.0-18-amd64");
	CHECK(f.ndisks == 2);
	CHECK_STR(disk(&f, "sda")->path,
	    "/dev/disk/by-id/ata-WDC_WD10EARS-00Y5B1_WD-WCAV51234567");
	CHECK_STR(disk(&f, "sda")->firmware, "80.00A80");
	/* smartctl of loop3 printed nothing: a note */
	CHECK(has_note(&f, "smartctl -i -j printed nothing"));
	CHECK(has_note(&f, "ip not found on the target (no addresses): "
	    "apt-get install iproute2"));
	CHECK(f.nnics == 7);
	n = nic(&f, "eth0");
	CHECK(n != NULL);
	if (n != NULL) {
		CHECK_STR(n->mac, "00:26:55:d1:0a:01");
		CHECK_STR(n->driver, "tg3");
		CHECK_STR(n->master, "bond0");
		CHECK(n->kind == NULL);
		CHECK(n->speed_mbps == 1000 && n->carrier == 1);
		CHECK_STR(n->duplex, "full");
		CHECK_STR(n->product, "0x14e4:0x165b");
	}
	/* a bond's member: its own address, not the bond's */
	n = nic(&f, "eth1");
	CHECK_STR(n != NULL ? n->mac : NULL, "00:26:55:d1:0a:02");
	n = nic(&f, "bond0");
	CHECK(n != NULL && strcmp(n->kind, "bond") == 0);
	CHECK_STR(n != NULL ? n->master : NULL, "br0");
	CHECK(n != NULL && n->driver == NULL && n->speed_mbps == 2000);
	n = nic(&f, "br0");
	CHECK_STR(n != NULL ? n->kind : NULL, "bridge");
	CHECK(n != NULL && n->speed_mbps == -1 && n->duplex == NULL);
	n = nic(&f, "eth2");
	CHECK(n != NULL && n->speed_mbps == 100);
	CHECK_STR(n != NULL ? n->duplex : NULL, "half");
	n = nic(&f, "eth3");
	CHECK(n != NULL && n->carrier == 0 && n->speed_mbps == -1);
	n = nic(&f, "lo");
	CHECK_STR(n != NULL ? n->kind : NULL, "loopback");
	CHECK_STR(f.dmi.sys_vendor, "HP");
	CHECK_STR(f.dmi.product_name, "ProLiant MicroServer");
	CHECK_STR(f.dmi.product_serial, "CN7012345X");
	CHECK_STR(f.dmi.bios_version, "O41");
	CHECK_STR(f.dmi.bios_date, "07/29/2011");
	/* NetworkManager: "unmanaged" is not managed; "\:" unescaped */
	CHECK(f.nm.running == 1);
	CHECK(f.nm.managed.n == 4);
	CHECK(lab_strv_find(&f.nm.managed, "eth2") >= 0);
	CHECK(lab_strv_find(&f.nm.managed, "eth3") >= 0);
	CHECK(lab_strv_find(&f.nm.managed, "br0") >= 0);
	CHECK(lab_strv_find(&f.nm.managed, "we:ird") >= 0);
	CHECK(lab_strv_find(&f.nm.managed, "eth0") < 0);
	CHECK(f.findings.n == 1);
	lab_host_facts_release(&f);
	free(out);
}

static const char *
kv(const struct lab_fact_kv *v, size_t n, const char *key)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].key, key) == 0)
			return v[i].value;
	return NULL;
}

/* flatten (sorted keys), the JSON and the YAML of the bond box. */
static void
test_outputs(void)
{
	struct lab_host_facts	 f;
	struct lab_fact_kv	*v;
	struct lab_err		 e;
	struct lab_json		 j;
	struct lab_buf		 b;
	size_t			 n, i;
	char			*out = slurp("script-bond.txt"), *y;

	facts_init(&f, "ms1");
	lab_err_init(&e);
	CHECK(lab_facts_parse_script(&f, out, &e) == 0);
	lab_facts_keep_disks(&f, NULL);
	f.ok = 1;
	f.bmc.ok = 1;
	f.bmc.firmware = strdup("1.30");
	f.bmc.manufacturer_id = 11;
	f.bmc.product_id = -1;
	f.bmc.device_id = 32;
	f.addrs = calloc(2, sizeof(*f.addrs));
	f.naddrs = 2;
	f.addrs[0].ifname = strdup("br0");
	f.addrs[0].family = strdup("inet");
	f.addrs[0].address = strdup("192.0.2.30");
	f.addrs[0].prefixlen = 24;
	f.addrs[1].ifname = strdup("br0");
	f.addrs[1].family = strdup("inet");
	f.addrs[1].address = strdup("192.0.2.3");
	f.addrs[1].prefixlen = 24;
	CHECK(lab_host_facts_flatten(&f, &v, &n, &e) == 0);
	for (i = 1; i < n; i++)
		CHECK(strcmp(v[i - 1].key, v[i].key) < 0);
	CHECK_STR(kv(v, n, "disk.sda.serial"), "WD-WCAV51234567");
	CHECK_STR(kv(v, n, "disk.sda.firmware"), "80.00A80");
	CHECK_STR(kv(v, n, "disk.sda.size_bytes"), "1000204886016");
	CHECK(kv(v, n, "disk.loop3.size_bytes") == NULL);
	CHECK_STR(kv(v, n, "nic.eth1.mac"), "00:26:55:d1:0a:02");
	CHECK_STR(kv(v, n, "nic.bond0.kind"), "bond");
	CHECK_STR(kv(v, n, "nic.eth2.speed_mbps"), "100");
	CHECK(kv(v, n, "nic.eth3.speed_mbps") == NULL);
	CHECK_STR(kv(v, n, "addr.br0.inet"), "192.0.2.3/24,192.0.2.30/24");
	CHECK_STR(kv(v, n, "bmc.firmware"), "1.30");
	CHECK_STR(kv(v, n, "bmc.manufacturer_id"), "11");
	CHECK(kv(v, n, "bmc.product_id") == NULL);
	CHECK_STR(kv(v, n, "dmi.bios_version"), "O41");
	CHECK_STR(kv(v, n, "kernel"), "6.1.0-18-amd64");
	CHECK_STR(kv(v, n, "nm.running"), "1");
	CHECK_STR(kv(v, n, "nm.managed"), "eth2,eth3,br0,we:ird");
	lab_fact_kvs_free(v, n);

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_facts_json(&j, &f);
	lab_json_end(&j);
	CHECK_HAS(b.s, "\"host\": \"ms1\"");
	CHECK_HAS(b.s, "\"ok\": true");
	CHECK_HAS(b.s, "\"name\": \"sda\",\n      \"path\": \"/dev/disk/"
	    "by-id/ata-WDC_WD10EARS-00Y5B1_WD-WCAV51234567\"");
	CHECK_HAS(b.s, "\"size_bytes\": 1000204886016");
	CHECK_HAS(b.s, "\"speed_mbps\": 100,\n      \"duplex\": \"half\"");
	CHECK_HAS(b.s, "\"network_manager\": {\n    \"running\": true");
	CHECK_HAS(b.s, "\"bios_version\": \"O41\"");
	CHECK_HAS(b.s, "\"kind\": \"smart-warning\"");
	lab_buf_release(&b);

	CHECK(lab_facts_to_yaml(&f, NULL, &y, &e) == 0);
	CHECK_HAS(y, "hosts:\n  - name: \"ms1\"\n    model: generic-server\n");
	CHECK_HAS(y, "      - {name: \"eth0\", mac: \"00:26:55:d1:0a:01\"}");
	CHECK_HAS(y, "      - {name: \"eth1\", mac: \"00:26:55:d1:0a:02\"}");
	CHECK(strstr(y, "bond0") == NULL && strstr(y, "\"lo\"") == NULL);
	CHECK_HAS(y, "      - {slot: 1, kind: sata, size: 1000204886016, "
	    "device: \"/dev/disk/by-id/ata-WDC_WD10EARS-00Y5B1_"
	    "WD-WCAV51234567\"}  # 1000.2 GB, WDC WD10EARS-00Y5B1, serial "
	    "WD-WCAV51234567\n");
	free(y);
	lab_host_facts_release(&f);
	free(out);
}

int
main(void)
{
	test_vm();
	test_sata();
	test_sas_old();
	test_bad();
	test_script();
	test_outputs();
	TESTS_DONE();
}
