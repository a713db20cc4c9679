/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The inventory loader: a good file's fields, every kind of bad input
 * (file:line:col and the reason), model warnings, uniqueness across files
 * and the YAML round trip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/json.h"
#include "lab/render.h"
#include "lab/str.h"
#include "inventory/inventory-priv.h"
#include "core/yaml-priv.h"

#include "tests.h"

#define TIB	(1ULL << 40)

static const char good_yaml[] =
	"# a comment\n"
	"groups:\n"
	"  - {name: nas, description: \"storage: ZFS\"}\n"
	"  - name: bare\n"
	"hosts:\n"
	"  - name: microserver1\n"
	"    model: hp-microserver-n40l\n"
	"    role: san\n"
	"    groups: [microservers, nas]\n"
	"    bmc:\n"
	"      type: rac\n"
	"      address: 192.0.2.21\n"
	"      credential: rac-default\n"
	"    nics:\n"
	"      - {name: eth0, mac: \"00:26:55:D1:0A:01\"}\n"
	"      - {name: eth1, mac: 0026.55d1.0a02}\n"
	"      - {name: eth2, mac: 00-26-55-D1-0A-03}\n"
	"    disks:\n"
	"      - {slot: 1, kind: sata, size: 1TB, controller: onboard}\n"
	"      - {slot: 2, kind: sas, size: 1.5TiB}\n"
	"      - {slot: 3, kind: sata, size: 500GB, controller: ~}\n"
	"  - name: neo\n"
	"    model: hp-dl320-g5p\n"
	"    role: null\n"
	"    bmc: {type: ilo2, address: neo-ilo.lab.example, port: 6230,\n"
	"          credential: ilo-neo, cipher_suite: 17}\n"
	"    disks: []\n"
	"  - name: plain\n"
	"    model: generic-server\n"
	"    groups: ~\n"
	"switches:\n"
	"  - name: sg200\n"
	"    model: cisco-sg200-26\n"
	"    address: 192.0.2.2\n"
	"    snmp: {version: 2c, credential: sg200-ro, timeout: 5,\n"
	"           retries: 0}\n"
	"  - name: sw2\n"
	"    model: generic-switch\n"
	"    address: \"2001:db8::2\"\n"
	"    port: 1161\n"
	"    snmp: {version: \"3\", credential: sw2-v3, context: vlan10}\n";

static struct lab_inventory *
load(const char *name, const char *yaml, struct lab_err *err)
{
	struct lab_inventory	*inv;

	lab_err_init(err);
	if ((inv = lab_inventory_new()) == NULL)
		return NULL;
	if (lab_inventory_load_buf(inv, name, yaml, strlen(yaml), err) != 0) {
		lab_inventory_free(inv);
		return NULL;
	}
	return inv;
}

static void
test_good(void)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;
	struct lab_strv		 names;
	const struct lab_host	*h;
	const struct lab_switch	*s;

	if ((inv = load("good.yaml", good_yaml, &err)) == NULL) {
		fprintf(stderr, "good.yaml: %s\n", err.msg);
		tests_failed++;
		return;
	}
	CHECK(err.code == LAB_EXIT_OK);
	CHECK(inv->nwarnings == 0);
	CHECK(inv->files.n == 1);
	CHECK(inv->ngroups == 2 && inv->nhosts == 3 && inv->nswitches == 2);
	if (inv->ngroups != 2 || inv->nhosts != 3 || inv->nswitches != 2) {
		lab_inventory_free(inv);
		return;
	}
	CHECK_STR(inv->groups[0].name, "nas");
	CHECK_STR(inv->groups[0].description, "storage: ZFS");
	CHECK_STR(inv->groups[1].name, "bare");
	CHECK(inv->groups[1].description == NULL);
	CHECK(inv->groups[1].loc.line == 4 && inv->groups[1].loc.col == 5);

	h = &inv->hosts[0];
	CHECK_STR(h->name, "microserver1");
	CHECK_STR(h->model, "hp-microserver-n40l");
	CHECK_STR(h->role, "san");
	CHECK_STR(h->loc.file, "good.yaml");
	CHECK(h->loc.line == 6 && h->loc.col == 5);
	CHECK(h->groups.n == 2);
	CHECK_STR(h->groups.v[0], "microservers");
	CHECK_STR(h->groups.v[1], "nas");
	CHECK(h->bmc != NULL);
	if (h->bmc != NULL) {
		CHECK_STR(h->bmc->type, "rac");
		CHECK_STR(h->bmc->address, "192.0.2.21");
		CHECK(h->bmc->port == 623);
		CHECK(h->bmc->cipher_suite == 3);
		CHECK_STR(h->bmc->credential, "rac-default");
		CHECK(h->bmc->loc.line == 11 && h->bmc->loc.col == 7);
	}
	CHECK(h->nnics == 3);
	if (h->nnics == 3) {
		CHECK_STR(h->nics[0].name, "eth0");
		CHECK_STR(h->nics[0].mac, "00:26:55:d1:0a:01");
		CHECK_STR(h->nics[1].name, "eth1");
		CHECK_STR(h->nics[1].mac, "00:26:55:d1:0a:02");
		CHECK_STR(h->nics[2].mac, "00:26:55:d1:0a:03");
		CHECK(h->nics[1].loc.line == 16 && h->nics[1].loc.col == 9);
	}
	CHECK(h->ndisks == 3);
	if (h->ndisks == 3) {
		CHECK_STR(h->disks[0].slot, "1");
		CHECK_STR(h->disks[0].kind, "sata");
		CHECK(h->disks[0].size_bytes == 1000000000000ULL);
		CHECK_STR(h->disks[0].controller, "onboard");
		CHECK_STR(h->disks[1].kind, "sas");
		CHECK(h->disks[1].size_bytes == TIB + TIB / 2);
		CHECK(h->disks[1].controller == NULL);
		CHECK(h->disks[2].size_bytes == 500000000000ULL);
		CHECK(h->disks[2].controller == NULL);
	}

	h = &inv->hosts[1];
	CHECK_STR(h->name, "neo");
	CHECK(h->role == NULL);
	CHECK(h->groups.n == 0);
	CHECK(h->nnics == 0 && h->ndisks == 0);
	CHECK(h->bmc != NULL);
	if (h->bmc != NULL) {
		CHECK_STR(h->bmc->type, "ilo2");
		CHECK_STR(h->bmc->address, "neo-ilo.lab.example");
		CHECK(h->bmc->port == 6230);
		CHECK(h->bmc->cipher_suite == 17);
	}
	h = &inv->hosts[2];
	CHECK(h->bmc == NULL && h->role == NULL && h->groups.n == 0);

	s = &inv->switches[0];
	CHECK_STR(s->name, "sg200");
	CHECK_STR(s->model, "cisco-sg200-26");
	CHECK_STR(s->address, "192.0.2.2");
	CHECK(s->port == 161);
	CHECK_STR(s->snmp.version, "2c");
	CHECK_STR(s->snmp.credential, "sg200-ro");
	CHECK(s->snmp.context == NULL);
	CHECK(s->snmp.timeout_ms == 5000);
	CHECK(s->snmp.retries == 0);
	s = &inv->switches[1];
	CHECK_STR(s->address, "2001:db8::2");
	CHECK(s->port == 1161);
	CHECK_STR(s->snmp.version, "3");
	CHECK_STR(s->snmp.context, "vlan10");
	CHECK(s->snmp.timeout_ms == 0);
	CHECK(s->snmp.retries == -1);

	CHECK(lab_inventory_host(inv, "neo") == &inv->hosts[1]);
	CHECK(lab_inventory_host(inv, "sg200") == NULL);
	CHECK(lab_inventory_switch(inv, "sw2") == &inv->switches[1]);
	CHECK(lab_inventory_switch(inv, "neo") == NULL);
	CHECK(lab_inventory_group_names(inv, &names, &err) == 0);
	CHECK(names.n == 3);
	if (names.n == 3) {
		CHECK_STR(names.v[0], "bare");
		CHECK_STR(names.v[1], "microservers");
		CHECK_STR(names.v[2], "nas");
		CHECK(names.v[3] == NULL);
	}
	lab_strv_release(&names);

	lab_inventory_sort(inv);
	CHECK_STR(inv->hosts[0].name, "microserver1");
	CHECK_STR(inv->hosts[1].name, "neo");
	CHECK_STR(inv->hosts[2].name, "plain");
	CHECK_STR(inv->groups[0].name, "bare");
	CHECK_STR(inv->switches[0].name, "sg200");
	CHECK(inv->hosts[0].nnics == 3);
	lab_inventory_free(inv);
}

/* Empty documents and explicit nulls are empty inventories. */
static void
test_empty(void)
{
	static const char *const empty[] = { "", "# only a comment\n", "~\n",
		"---\n", "hosts:\nswitches: ~\ngroups: []\n" };
	struct lab_inventory	*inv;
	struct lab_err		 err;
	size_t			 i;

	for (i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		inv = load("empty.yaml", empty[i], &err);
		CHECK(inv != NULL);
		if (inv == NULL) {
			fprintf(stderr, "case %zu: %s\n", i, err.msg);
			continue;
		}
		CHECK(inv->nhosts == 0 && inv->nswitches == 0 &&
		    inv->ngroups == 0);
		lab_inventory_free(inv);
	}
}

#define HOST	"hosts:\n  - name: a\n    model: generic-server\n"

struct bad {
	const char	*yaml;
	const char	*where;		/* "bad.yaml:L:C: " */
	const char	*what;
	const char	*what2;		/* or NULL */
};

static const struct bad bad_cases[] = {
	/* a control character in any value, however written (issue 16) */
	{ HOST "    role: \"ok\\r\\e[2Kfine\"\n", "bad.yaml:4:11: ",
	  "the value of 'role' holds a control character (U+000D at byte 3)",
	  NULL },
	{ HOST "    role: \"a\\tb\"\n", "bad.yaml:4:11: ",
	  "the value of 'role' holds a control character (U+0009", NULL },
	{ HOST "    role: |\n      two\n      lines\n", "bad.yaml:4:11: ",
	  "the value of 'role' holds a control character (U+000A", NULL },
	{ HOST "    role: \"x\\x7f\"\n", "bad.yaml:4:11: ",
	  "(U+007F", NULL },
	{ HOST "    role: \"x\\x9b\"\n", "bad.yaml:4:11: ",
	  "(U+009B", NULL },
	{ HOST "    groups: [ok, \"b\\ad\"]\n", "bad.yaml:4:18: ",
	  "the value of 'groups' holds a control character (U+0007", NULL },
	{ HOST "    \"ro\\ele\": x\n", "bad.yaml:4:5: ",
	  "a key or list item holds a control character (U+001B", NULL },
	/* unknown keys, with and without a suggestion */
	{ "hostz: []\n", "bad.yaml:1:1: ",
	  "unknown key 'hostz' in the inventory; did you mean 'hosts'?",
	  NULL },
	{ "hosts: []\ncolour: red\n", "bad.yaml:2:1: ",
	  "unknown key 'colour' in the inventory",
	  "(known keys: hosts, switches, groups, known_issues)" },
	{ HOST "    rol: x\n", "bad.yaml:4:5: ",
	  "unknown key 'rol' in host; did you mean 'role'?", NULL },
	{ HOST "    bmc: {type: rac, adress: 192.0.2.1, credential: c}\n",
	  "bad.yaml:4:22: ",
	  "unknown key 'adress' in bmc; did you mean 'address'?", NULL },
	{ HOST "    disks:\n      - {slot: 1, kind: sata, size: 1TB, "
	  "controler: x}\n", "bad.yaml:5:42: ",
	  "unknown key 'controler' in disk; did you mean 'controller'?",
	  NULL },
	{ "groups:\n  - {name: g, descripton: x}\n", "bad.yaml:2:15: ",
	  "did you mean 'description'?", NULL },
	{ "switches:\n  - {name: s, model: generic-switch, address: s1,\n"
	  "     snmp: {version: 2c, credential: c, retry: 2}}\n",
	  "bad.yaml:3:41: ", "unknown key 'retry' in snmp", NULL },
	/* wrong types */
	{ HOST "    bmc: [rac]\n", "bad.yaml:4:10: ",
	  "the bmc of host 'a' must be a mapping, not a list", NULL },
	{ HOST "    role: {x: y}\n", "bad.yaml:4:11: ",
	  "'role' of host 'a' must be a value, not a mapping", NULL },
	{ HOST "    role: [x]\n", "bad.yaml:4:11: ",
	  "'role' of host 'a' must be a value, not a list", NULL },
	{ "hosts: {a: b}\n", "bad.yaml:1:8: ",
	  "'hosts' must be a list, not a mapping", NULL },
	{ HOST "    nics: eth0\n", "bad.yaml:4:11: ",
	  "'nics' of host 'a' must be a list, not a value", NULL },
	{ HOST "    nics: [eth0]\n", "bad.yaml:4:12: ",
	  "a nic of host 'a' must be a mapping, not a value", NULL },
	{ HOST "    groups: {a: b}\n", "bad.yaml:4:13: ",
	  "'groups' of host 'a' must be a list, not a mapping", NULL },
	{ HOST "    groups: [[a]]\n", "bad.yaml:4:14: ",
	  "a group must be a value, not a list", NULL },
	{ "hosts:\n  - microserver1\n", "bad.yaml:2:5: ",
	  "a host must be a mapping, not a value", NULL },
	{ "- a\n", "bad.yaml:1:1: ",
	  "an inventory file is a mapping with hosts, switches and groups, "
	  "not a list", NULL },
	{ "just text\n", "bad.yaml:1:1: ",
	  "an inventory file is a mapping", "not a value" },
	{ "hosts:\n  - name: ~\n    model: generic-server\n",
	  "bad.yaml:2:11: ", "'name' of a host must be a value, not nothing",
	  NULL },
	{ "hosts:\n  - name: \"\"\n    model: generic-server\n",
	  "bad.yaml:2:11: ", "'name' of a host cannot be empty", NULL },
	{ "hosts:\n  - model: generic-server\n", "bad.yaml:2:5: ",
	  "a host has no 'name'", NULL },
	{ "hosts:\n  - name: a\n    role: x\n", "bad.yaml:2:5: ",
	  "host 'a' has no 'model'", NULL },
	{ HOST "    bmc: {type: rac, address: 192.0.2.1}\n", "bad.yaml:4:10: ",
	  "the bmc of host 'a' has no 'credential'", NULL },
	{ HOST "    nics:\n      - {name: eth0}\n", "bad.yaml:5:9: ",
	  "a nic of host 'a' has no 'mac'", NULL },
	/* names */
	{ "hosts:\n  - name: a[1]\n    model: generic-server\n",
	  "bad.yaml:2:11: ", "bad name 'a[1]' in a host",
	  "only letters, digits" },
	{ "hosts:\n  - name: micro server\n    model: generic-server\n",
	  "bad.yaml:2:11: ", "bad name 'micro server' in a host", NULL },
	{ HOST "    groups: [\"@nas\"]\n", "bad.yaml:4:14: ",
	  "bad group name '@nas'", NULL },
	{ HOST "    groups: [nas, vmware, nas]\n", "bad.yaml:4:27: ",
	  "host 'a' lists group 'nas' twice", NULL },
	/* duplicates within one host */
	{ HOST "    disks:\n      - {slot: 1, kind: sata, size: 1TB}\n"
	  "      - {slot: 1, kind: sas, size: 72GB}\n", "bad.yaml:6:16: ",
	  "host 'a' has two disks in slot 1 (first at line 5)", NULL },
	{ HOST "    nics:\n      - {name: eth0, mac: 00:26:55:d1:0a:01}\n"
	  "      - {name: eth0, mac: 00:26:55:d1:0a:02}\n", "bad.yaml:6:16: ",
	  "host 'a' has nic 'eth0' twice (first at line 5)", NULL },
	/* bmc values */
	{ HOST "    bmc: {type: ipmi, address: 192.0.2.1, credential: c, "
	  "cipher_suite: 0}\n", "bad.yaml:4:72: ",
	  "cipher suite 0 in the bmc of host 'a' sends the password without "
	  "authentication: refused", NULL },
	{ HOST "    bmc: {type: ipmi, address: 192.0.2.1, credential: c, "
	  "cipher_suite: 18}\n", "bad.yaml:4:72: ",
	  "'cipher_suite' of the bmc of host 'a' must be a whole number from "
	  "0 to 17", NULL },
	{ HOST "    bmc: {type: ipmi, address: 192.0.2.1, credential: c, "
	  "port: 70000}\n", "bad.yaml:4:64: ",
	  "'port' of the bmc of host 'a' must be a whole number from 1 to "
	  "65535", NULL },
	{ HOST "    bmc: {type: ipmi, address: 192.0.2.1, credential: c, "
	  "port: \"623\"}\n", "bad.yaml:4:64: ",
	  "'port' of the bmc of host 'a' ", NULL },
	{ HOST "    bmc: {type: ipmi, address: 192.0.2.1, credential: c, "
	  "port: abc}\n", "bad.yaml:4:64: ",
	  "must be a whole number from 1 to 65535", NULL },
	{ HOST "    bmc: {type: ipmi2, address: 192.0.2.1, credential: c}\n",
	  "bad.yaml:4:17: ",
	  "unknown type 'ipmi2' in the bmc of host 'a'; did you mean 'ipmi'?",
	  "(one of: rac, ilo2, ipmi)" },
	/* models */
	{ "hosts:\n  - name: a\n    model: hp-microserver-n50l\n",
	  "bad.yaml:3:12: ",
	  "unknown model 'hp-microserver-n50l' in host 'a'; did you mean "
	  "'hp-microserver-n40l'?",
	  "(known: hp-microserver-n36l, hp-microserver-n40l, "
	  "hp-microserver-n54l, hp-ml110-g5, hp-ml115-g5, hp-dl320-g5p, "
	  "generic-server)" },
	{ "hosts:\n  - name: a\n    model: quasar\n", "bad.yaml:3:12: ",
	  "unknown model 'quasar' in host 'a' (known: hp-microserver-n36l, ",
	  "generic-server)" },
	{ "hosts:\n  - name: a\n    model: cisco-sg200-26\n",
	  "bad.yaml:3:12: ", "model 'cisco-sg200-26' of host 'a' is not a "
	  "server", NULL },
	{ "switches:\n  - {name: s, model: hp-ml110-g5, address: s1}\n",
	  "bad.yaml:2:22: ", "model 'hp-ml110-g5' of switch 's' is not a "
	  "switch (known: cisco-sg200-26, generic-switch)", NULL },
	/* addresses */
	{ HOST "    bmc: {type: rac, address: 999.1.1.1, credential: c}\n",
	  "bad.yaml:4:31: ", "bad address '999.1.1.1' in the bmc of host 'a'",
	  "IPv4" },
	{ "switches:\n  - {name: s, model: generic-switch, address: "
	  "\"2001:db8::g\"}\n", "bad.yaml:2:47: ",
	  "bad address '2001:db8::g' in switch 's'", "IPv6" },
	{ "switches:\n  - {name: s, model: generic-switch, address: a..b}\n",
	  "bad.yaml:2:47: ", "bad address 'a..b' in switch 's'", NULL },
	/* MACs */
	{ HOST "    nics:\n      - {name: eth0, mac: 00:26:55:d1:0a}\n",
	  "bad.yaml:5:27: ",
	  "bad mac '00:26:55:d1:0a' of nic 'eth0' of host 'a'",
	  "six hex bytes" },
	{ HOST "    nics:\n      - {name: eth0, mac: 01:00:5e:00:00:01}\n",
	  "bad.yaml:5:27: ", "bad mac '01:00:5e:00:00:01'", "multicast" },
	/* disks */
	{ HOST "    disks:\n      - {slot: 1, kind: sata, size: 1.5}\n",
	  "bad.yaml:5:37: ",
	  "bad size '1.5' of disk in slot 1 of host 'a'",
	  "not a whole number of bytes" },
	{ HOST "    disks:\n      - {slot: 1, kind: sata, size: 12XB}\n",
	  "bad.yaml:5:37: ", "bad size '12XB'", "unknown unit" },
	{ HOST "    disks:\n      - {slot: 1, kind: sata, size: 0GB}\n",
	  "bad.yaml:5:37: ", "disk in slot 1 of host 'a' has size 0", NULL },
	{ HOST "    disks:\n      - {slot: 1, kind: ssdd, size: 1TB}\n",
	  "bad.yaml:5:25: ", "unknown kind 'ssdd' in a disk of host 'a'; "
	  "did you mean 'ssd'?", "(one of: sata, sas, ssd, nvme)" },
	/* snmp */
	{ "switches:\n  - {name: s, model: generic-switch, address: s1,\n"
	  "     snmp: {version: 2, credential: c}}\n", "bad.yaml:3:22: ",
	  "unknown version '2' in the snmp of switch 's'", NULL },
	{ "switches:\n  - {name: s, model: generic-switch, address: s1,\n"
	  "     snmp: {version: 1, credential: c, timeout: 0}}\n",
	  "bad.yaml:3:49: ", "'timeout' of the snmp of switch 's' must be a "
	  "whole number from 1 to 600", NULL },
	/* YAML features refused */
	{ "hosts: &h []\n", "bad.yaml:1:8: ",
	  "YAML anchors (&name) are not supported", NULL },
	{ "hosts:\n  - &h {name: a, model: generic-server}\n",
	  "bad.yaml:2:5: ", "YAML anchors (&name) are not supported", NULL },
	{ "hosts: *h\n", "bad.yaml:1:8: ",
	  "YAML aliases (*name) are not supported", NULL },
	{ "hosts: !foo []\n", "bad.yaml:1:8: ",
	  "custom YAML tags are not supported", NULL },
	{ HOST "    role: !secret x\n", "bad.yaml:4:11: ",
	  "custom YAML tags are not supported", NULL },
	{ "hosts:\n\t- name: a\n", "bad.yaml:2:1: ",
	  "a tab character where YAML allows only spaces", NULL },
	{ "hosts:\n  - name: a\n\tmodel: generic-server\n", "bad.yaml:3:1: ",
	  "a tab character", NULL },
	{ "hosts: []\nhosts: []\n", "bad.yaml:2:1: ",
	  "duplicate key 'hosts' (first at line 1)", NULL },
	{ "hosts:\n  - name: a\n    model: generic-server\n    name: b\n",
	  "bad.yaml:4:5: ", "duplicate key 'name' (first at line 2)", NULL },
	{ "? [a]\n: b\n", "bad.yaml:1:3: ",
	  "a mapping key must be a plain string", NULL },
	{ "hosts:\n  - name: caf\xe9\n", "bad.yaml:2:14: ",
	  "(the file must be UTF-8 text)", NULL },
	{ "\xff\xfeh\0o\0", "bad.yaml:1:1: ", "UTF-8", NULL },
	{ HOST "    role: \"a\\0b\"\n", "bad.yaml:4:11: ",
	  "a value cannot hold a NUL character", NULL },
	{ "hosts: []\n---\nhosts: []\n", "bad.yaml:2:1: ",
	  "only one YAML document per file", NULL },
	{ "hosts:\n  - name: \"a\n", "bad.yaml:", "quoted scalar", NULL },
	{ "hosts: [a\n", "bad.yaml:", "flow sequence", NULL },
	/*
	 * Hosts are checked as they are read; on an error the file is read
	 * again the plain way: what comes first in that order is reported.
	 */
	{ "hosts:\n  - {name: a, model: nope}\nbogus: 1\n",
	  "bad.yaml:3:1: ", "unknown key 'bogus' in the inventory", NULL },
	{ "hosts:\n  - {name: a, model: nope}\nhosts: []\n",
	  "bad.yaml:3:1: ", "duplicate key 'hosts' (first at line 1)", NULL },
	{ "hosts:\n  - {name: a, model: nope}\ngroups: [{nme: g}]\n",
	  "bad.yaml:3:11: ", "unknown key 'nme' in group", NULL },
	{ "hosts:\n  - {name: a, model: nope}\n  - {name: \"b\n",
	  "bad.yaml:", "quoted scalar", NULL },
	{ "hosts:\n  - {name: a, model: generic-server}\n"
	  "  - {name: b, model: nope}\nswitches: []\n---\n",
	  "bad.yaml:5:1: ", "only one YAML document per file", NULL },
};

/* yaml fails to load with LAB_EXIT_INPUT, at where, saying what. */
static void
check_bad(const char *yaml, size_t len, const char *where, const char *what,
    const char *what2)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;

	lab_err_init(&err);
	if ((inv = lab_inventory_new()) == NULL) {
		tests_failed++;
		return;
	}
	if (lab_inventory_load_buf(inv, "bad.yaml", yaml, len, &err) != -1) {
		fprintf(stderr, "loaded, want '%s':\n%s\n", what, yaml);
		tests_failed++;
		lab_inventory_free(inv);
		return;
	}
	lab_inventory_free(inv);
	if (err.code != LAB_EXIT_INPUT ||
	    strncmp(err.msg, where, strlen(where)) != 0 ||
	    strstr(err.msg, what) == NULL ||
	    (what2 != NULL && strstr(err.msg, what2) == NULL)) {
		fprintf(stderr, "got (exit %d) '%s'\nwant (exit 2) '%s%s' "
		    "and '%s'\n", (int)err.code, err.msg, where, what,
		    what2 ? what2 : "");
		tests_failed++;
	}
}

static void
test_bad(void)
{
	const struct bad	*b;
	size_t			 i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		b = &bad_cases[i];
		/* the UTF-16 case holds NUL bytes */
		check_bad(b->yaml, b->yaml[0] == '\xff' ? 6 : strlen(b->yaml),
		    b->where, b->what, b->what2);
	}
}

/* Limits: scalar length and nesting depth, each just in and just out. */
static void
test_limits(void)
{
	struct lab_buf	 b;
	struct ynode	*root;
	struct lab_err	 err;
	int		 i;

	/* 4097 bytes are too long (test_longest_value loads 4096) */
	lab_buf_init(&b);
	lab_buf_adds(&b, HOST "    role: ");
	for (i = 0; i < YAML_MAX_SCALAR + 1; i++)
		lab_buf_addc(&b, (char)('a' + i % 26));
	lab_buf_addc(&b, '\n');
	check_bad(b.s, b.len, "bad.yaml:4:11: ",
	    "value is too long (4097 bytes, at most 4096)", NULL);
	lab_buf_release(&b);

	/* nesting deeper than 32 (the root is depth 0) */
	lab_buf_init(&b);
	lab_buf_adds(&b, "hosts: ");
	for (i = 0; i < 40; i++)
		lab_buf_addc(&b, '[');
	for (i = 0; i < 40; i++)
		lab_buf_addc(&b, ']');
	lab_buf_addc(&b, '\n');
	check_bad(b.s, b.len, "bad.yaml:1:40: ", "nesting is too deep", NULL);
	lab_buf_release(&b);

	for (i = YAML_MAX_DEPTH; i <= YAML_MAX_DEPTH + 1; i++) {
		int	k;

		lab_buf_init(&b);
		for (k = 0; k <= i; k++)
			lab_buf_addc(&b, '[');
		for (k = 0; k <= i; k++)
			lab_buf_addc(&b, ']');
		lab_err_init(&err);
		root = NULL;
		if (i == YAML_MAX_DEPTH) {
			CHECK(lab_yaml_tree_load("deep.yaml", b.s, b.len, &root,
			    &err) == 0);
			CHECK(root != NULL && root->kind == YNODE_SEQ);
		} else {
			CHECK(lab_yaml_tree_load("deep.yaml", b.s, b.len, &root,
			    &err) == -1);
			CHECK(err.code == LAB_EXIT_INPUT);
			CHECK_HAS(err.msg,
			    "deep.yaml:1:34: nesting is too deep");
		}
		lab_yaml_tree_free(root);
		lab_buf_release(&b);
	}
}

/* The longest value allowed loads. */
static void
test_longest_value(void)
{
	struct lab_inventory	*inv;
	struct lab_buf		 b;
	struct lab_err		 err;
	int			 i;

	lab_buf_init(&b);
	lab_buf_adds(&b, HOST "    role: ");
	for (i = 0; i < YAML_MAX_SCALAR; i++)
		lab_buf_addc(&b, (char)('a' + i % 26));
	lab_buf_addc(&b, '\n');
	inv = load("long.yaml", b.s, &err);
	CHECK(inv != NULL);
	if (inv != NULL) {
		CHECK(inv->nhosts == 1 &&
		    strlen(inv->hosts[0].role) == YAML_MAX_SCALAR);
		lab_inventory_free(inv);
	} else
		fprintf(stderr, "long.yaml: %s\n", err.msg);
	lab_buf_release(&b);
}

static const char warn_yaml[] =
	"hosts:\n"
	"  - name: ml115\n"
	"    model: hp-ml115-g5\n"
	"    bmc: {type: ipmi, address: 192.0.2.40, credential: x}\n"
	"  - name: neo\n"
	"    model: hp-dl320-g5p\n"
	"    bmc: {type: rac, address: 192.0.2.41, credential: x}\n"
	"  - name: ms1\n"
	"    model: hp-microserver-n40l\n"
	"    bmc: {type: rac, address: 192.0.2.42, credential: x}\n"
	"    disks:\n"
	"      - {slot: 5, kind: sata, size: 1TB}\n"
	"      - {slot: odd, kind: ssd, size: 60GB}\n"
	"      - {slot: esata, kind: sata, size: 1TB}\n"
	"      - {slot: tray, kind: sata, size: 1TB}\n"
	"      - {slot: 4, kind: ssd, size: 1TB}\n"
	"  - name: gen\n"
	"    model: generic-server\n"
	"    bmc: {type: ilo2, address: 192.0.2.43, credential: x}\n"
	"    disks:\n"
	"      - {slot: 9, kind: ssd, size: 1TB}\n";

static void
test_warnings(void)
{
	static const struct {
		int		 line, col;
		const char	*msg;
	} want[] = {
		{ 4, 10, "host 'ml115': model hp-ml115-g5 cannot carry a BMC, "
		  "yet one is declared" },
		{ 7, 10, "host 'neo': model hp-dl320-g5p carries ilo2, ipmi, "
		  "not rac" },
		{ 12, 9, "host 'ms1': disk in slot 5, but model "
		  "hp-microserver-n40l has 4 bays" },
		{ 13, 9, "host 'ms1': the ssd in slot 'odd' is on an "
		  "IDE-emulation port" },
		{ 15, 9, "host 'ms1': model hp-microserver-n40l has no slot "
		  "'tray'" },
	};
	struct lab_inventory	*inv;
	struct lab_err		 err;
	size_t			 i;

	if ((inv = load("warn.yaml", warn_yaml, &err)) == NULL) {
		fprintf(stderr, "warn.yaml: %s\n", err.msg);
		tests_failed++;
		return;
	}
	CHECK(inv->nwarnings == sizeof(want) / sizeof(want[0]));
	for (i = 0; i < inv->nwarnings && i < sizeof(want) / sizeof(want[0]);
	    i++) {
		CHECK_HAS(inv->warnings[i].msg, want[i].msg);
		CHECK_STR(inv->warnings[i].loc.file, "warn.yaml");
		if (inv->warnings[i].loc.line != want[i].line ||
		    inv->warnings[i].loc.col != want[i].col) {
			fprintf(stderr, "warning %zu at %d:%d, want %d:%d\n",
			    i, inv->warnings[i].loc.line,
			    inv->warnings[i].loc.col, want[i].line,
			    want[i].col);
			tests_failed++;
		}
	}
	lab_inventory_free(inv);
}

/* Writes a file in dir; returns its path (caller frees) or NULL. */
static char *
write_file(const char *dir, const char *name, const char *text)
{
	char	*path;
	FILE	*f;

	if ((path = lab_asprintf("%s/%s", dir, name)) == NULL)
		return NULL;
	if ((f = fopen(path, "w")) == NULL) {
		free(path);
		return NULL;
	}
	fputs(text, f);
	fclose(f);
	return path;
}

/* Loads paths into a fresh inventory; returns 0 or -1 with err set. */
static int
load_paths(char *const *paths, size_t n, struct lab_err *err,
    size_t *nhosts)
{
	struct lab_inventory	*inv;
	int			 rc;

	lab_err_init(err);
	if ((inv = lab_inventory_new()) == NULL)
		return -1;
	rc = lab_inventory_load(inv, paths, n, err);
	*nhosts = inv->nhosts;
	lab_inventory_free(inv);
	return rc;
}

static void
test_unique(void)
{
	static const char a_yaml[] =
	    "groups:\n"
	    "  - {name: nas}\n"
	    "hosts:\n"
	    "  - name: a\n"
	    "    model: generic-server\n"
	    "    nics: [{name: eth0, mac: \"00:26:55:d1:0a:01\"}]\n";
	static const char b_dup_host[] =
	    "\n"
	    "hosts:\n"
	    "  - {name: b, model: generic-server}\n"
	    "  - {name: a, model: generic-server}\n";
	static const char b_dup_switch[] =
	    "switches:\n"
	    "  - {name: a, model: generic-switch, address: s1}\n";
	static const char b_dup_group[] =
	    "groups:\n"
	    "  - {name: x}\n"
	    "  - {name: nas}\n";
	static const char b_dup_mac[] =
	    "hosts:\n"
	    "  - name: b\n"
	    "    model: generic-server\n"
	    "    nics: [{name: eth9, mac: 0026.55D1.0A01}]\n";
	static const char b_ok[] =
	    "hosts:\n"
	    "  - name: b\n"
	    "    model: generic-server\n"
	    "    nics: [{name: eth0, mac: \"00:26:55:d1:0a:02\"}]\n";
	struct lab_inventory	*inv;
	struct lab_err		 err;
	char			 tmpl[] = "/tmp/lab-test-inventory.XXXXXX";
	char			*dir, *a = NULL, *b = NULL, *paths[2], *want;
	char			*sub = NULL, *c = NULL;
	size_t			 n = 0;

	/* two buffers: only the explicit check finds the duplicate */
	lab_err_init(&err);
	if ((inv = lab_inventory_new()) == NULL) {
		tests_failed++;
		return;
	}
	CHECK(lab_inventory_load_buf(inv, "one.yaml", a_yaml, strlen(a_yaml),
	    &err) == 0);
	CHECK(lab_inventory_load_buf(inv, "two.yaml", b_dup_host,
	    strlen(b_dup_host), &err) == 0);
	CHECK(inv->nhosts == 3);
	CHECK(lab_inventory_check_unique(inv, &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_STR(err.msg, "two.yaml:4:5: duplicate name 'a' (first declared "
	    "at one.yaml:4:5)");
	lab_inventory_free(inv);

	if ((dir = mkdtemp(tmpl)) == NULL) {
		perror("mkdtemp");
		tests_failed++;
		return;
	}
	a = write_file(dir, "a.yaml", a_yaml);
	CHECK(a != NULL);
	paths[0] = a;

	b = write_file(dir, "b.yaml", b_dup_host);
	paths[1] = b;
	CHECK(load_paths(paths, 2, &err, &n) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	want = lab_asprintf("%s:4:5: duplicate name 'a' (first declared at "
	    "%s:4:5)", b, a);
	CHECK_STR(err.msg, want);
	free(want);
	/* the other order: the later file is named first */
	paths[0] = b;
	paths[1] = a;
	CHECK(load_paths(paths, 2, &err, &n) == -1);
	want = lab_asprintf("%s:4:5: duplicate name 'a' (first declared at "
	    "%s:4:5)", a, b);
	CHECK_STR(err.msg, want);
	free(want);
	paths[0] = a;
	unlink(b);
	free(b);

	/* hosts and switches share one namespace */
	b = write_file(dir, "b.yaml", b_dup_switch);
	paths[1] = b;
	CHECK(load_paths(paths, 2, &err, &n) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	want = lab_asprintf("%s:2:5: duplicate name 'a'", b);
	CHECK_HAS(err.msg, want);
	free(want);
	unlink(b);
	free(b);

	b = write_file(dir, "b.yaml", b_dup_group);
	paths[1] = b;
	CHECK(load_paths(paths, 2, &err, &n) == -1);
	want = lab_asprintf("%s:3:5: duplicate group 'nas' (first declared "
	    "at %s:2:5)", b, a);
	CHECK_STR(err.msg, want);
	free(want);
	unlink(b);
	free(b);

	/* the same MAC in another notation */
	b = write_file(dir, "b.yaml", b_dup_mac);
	paths[1] = b;
	CHECK(load_paths(paths, 2, &err, &n) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	want = lab_asprintf("%s:4:12: duplicate mac 00:26:55:d1:0a:01 on "
	    "host 'b' (also on host 'a' at %s:6:12)", b, a);
	CHECK_STR(err.msg, want);
	free(want);
	unlink(b);
	free(b);

	/* no duplicates: both load, also as a folder */
	b = write_file(dir, "b.yaml", b_ok);
	paths[1] = b;
	CHECK(load_paths(paths, 2, &err, &n) == 0 && n == 2);
	CHECK(err.code == LAB_EXIT_OK);
	c = write_file(dir, "notes.txt", "not: yaml: at: all: [\n");
	paths[0] = dir;
	CHECK(load_paths(paths, 1, &err, &n) == 0 && n == 2);
	if (err.code != LAB_EXIT_OK)
		fprintf(stderr, "folder: %s\n", err.msg);

	/* a missing file is an environment error naming it */
	sub = lab_asprintf("%s/missing.yaml", dir);
	paths[0] = sub;
	CHECK(load_paths(paths, 1, &err, &n) == -1);
	CHECK(err.code == LAB_EXIT_ENV);
	CHECK_HAS(err.msg, sub);

	if (c != NULL)
		unlink(c);
	unlink(b);
	unlink(a);
	CHECK(rmdir(dir) == 0);
	free(a);
	free(b);
	free(c);
	free(sub);
}

/* YAML with values that need care when written back. */
static const char awkward_yaml[] =
	"groups:\n"
	"  - {name: nas, description: \"storage: ZFS \\u2014 \\u00abNFS\\u00bb "
	"\\u30b9\\u30c8\\u30ec\\u30fc\\u30b8\"}\n"
	"  - {name: plain}\n"
	"  - {name: quoted, description: \"null\"}\n"
	"hosts:\n"
	"  - name: h01\n"
	"    model: hp-microserver-n40l\n"
	"    role: \"null\"\n"
	"    groups: [nas, implicit]\n"
	"    bmc: {type: rac, address: 192.0.2.21, port: 6230,\n"
	"          credential: rac-default, cipher_suite: 17}\n"
	"    nics:\n"
	"      - {name: eth0, mac: \"00:26:55:D1:0A:01\"}\n"
	"      - {name: eth1, mac: 0026.55d1.0a02}\n"
	"    disks:\n"
	"      - {slot: 1, kind: sata, size: 1.5TiB, controller: onboard}\n"
	"      - {slot: odd, kind: ssd, size: 60GB}\n"
	"      - {slot: \"2\", kind: sas, size: 4096}\n"
	"      - {slot: 3, kind: nvme, size: 1500}\n"
	"  - {name: h02, model: generic-server, role: \"a: b # no comment\"}\n"
	"  - {name: h03, model: generic-server, role: \"~\"}\n"
	"  - {name: h04, model: generic-server,\n"
	"     role: \"- dash, [brackets] {braces} & *star !bang %pct @at\"}\n"
	"  - {name: h05, model: generic-server, role: \"  two leading, "
	"trailing  \"}\n"
	"  - {name: h06, model: generic-server,\n"
	"     role: \"line one, two \\\"quoted\\\" "
	"back\\\\slash\"}\n"
	"  - {name: h07, model: generic-server, role: \"123\"}\n"
	"  - {name: h08, model: generic-server, role: \"yes\"}\n"
	"  - {name: h09, model: generic-server,\n"
	"     role: \"\\u00dcn\\u00efc\\u00f8d\\u00e9 \\u2713 \\U0001F642\"}\n"
	"  - {name: h10, model: generic-server, role: \"NULL\"}\n"
	"  - {name: h11, model: generic-server, role: \"'single' quotes\"}\n"
	"  - {name: h12, model: generic-server, role: \"#hash\"}\n"
	"  - {name: h13, model: generic-server, role: Null}\n"
	"  - {name: h14, model: generic-server, role: \"\\u00a0nbsp\"}\n"
	"switches:\n"
	"  - name: sg200\n"
	"    model: cisco-sg200-26\n"
	"    address: 192.0.2.2\n"
	"    snmp: {version: \"3\", credential: sg200-v3,\n"
	"           context: \"ctx: one\",\n"
	"           timeout: 5, retries: 0}\n"
	"  - name: sw2\n"
	"    model: generic-switch\n"
	"    address: \"2001:db8::2\"\n"
	"    port: 1161\n";

static char *
to_json(const struct lab_inventory *inv)
{
	struct lab_buf	b;
	struct lab_json	j;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_render_inventory_json(&j, inv);
	lab_json_end(&j);
	return lab_buf_steal(&b);
}

/* Loads yaml, writes it, loads that, writes again: all must agree. */
static void
round_trip(const char *name, const char *yaml, int sort)
{
	struct lab_inventory	*inv1, *inv2 = NULL;
	struct lab_err		 err;
	char			*y1 = NULL, *y2 = NULL, *j1 = NULL, *j2 = NULL;

	if ((inv1 = load(name, yaml, &err)) == NULL) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		tests_failed++;
		return;
	}
	if (sort)
		lab_inventory_sort(inv1);
	CHECK(lab_inventory_to_yaml(inv1, &y1, &err) == 0);
	if (y1 == NULL)
		goto out;
	if ((inv2 = load("emitted.yaml", y1, &err)) == NULL) {
		fprintf(stderr, "emitted YAML does not load: %s\n%s", err.msg,
		    y1);
		tests_failed++;
		goto out;
	}
	CHECK(lab_inventory_to_yaml(inv2, &y2, &err) == 0);
	CHECK_STR(y2, y1);
	j1 = to_json(inv1);
	j2 = to_json(inv2);
	CHECK_STR(j2, j1);
	CHECK(inv2->nwarnings == inv1->nwarnings);
out:
	free(y1);
	free(y2);
	free(j1);
	free(j2);
	lab_inventory_free(inv1);
	lab_inventory_free(inv2);
}

static void
test_round_trip(void)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;
	struct lab_buf		 b;
	char			*y = NULL, *j;
	int			 i;

	round_trip("awkward.yaml", awkward_yaml, 0);
	round_trip("awkward.yaml", awkward_yaml, 1);
	round_trip("good.yaml", good_yaml, 0);
	round_trip("warn.yaml", warn_yaml, 0);
	round_trip("empty.yaml", "", 0);

	/* a long value with spaces, which an emitter may fold */
	lab_buf_init(&b);
	lab_buf_adds(&b, HOST "    role: \"");
	for (i = 0; i < 300; i++)
		lab_buf_adds(&b, i % 7 ? "word " : "two  spaces ");
	lab_buf_adds(&b, "end\"\n");
	round_trip("long.yaml", b.s, 0);
	lab_buf_release(&b);

	/* what the loaded values are, and that JSON tells null from "null" */
	if ((inv = load("awkward.yaml", awkward_yaml, &err)) == NULL) {
		tests_failed++;
		return;
	}
	CHECK(inv->nhosts == 14);
	if (inv->nhosts == 14) {
		CHECK_STR(inv->hosts[0].role, "null");
		CHECK_STR(inv->hosts[1].role, "a: b # no comment");
		CHECK_STR(inv->hosts[2].role, "~");
		CHECK_STR(inv->hosts[4].role, "  two leading, trailing  ");
		CHECK_STR(inv->hosts[5].role,
		    "line one, two \"quoted\" back\\slash");
		CHECK_STR(inv->hosts[8].role, "\xc3\x9cn\xc3\xaf" "c\xc3\xb8"
		    "d\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x99\x82");
		CHECK(inv->hosts[12].role == NULL);
	}
	CHECK_STR(inv->groups[0].description, "storage: ZFS \xe2\x80\x94 "
	    "\xc2\xabNFS\xc2\xbb \xe3\x82\xb9\xe3\x83\x88\xe3\x83\xac\xe3\x83"
	    "\xbc\xe3\x82\xb8");
	CHECK_STR(inv->switches[0].snmp.context, "ctx: one");
	j = to_json(inv);
	CHECK_HAS(j, "\"name\": \"h01\",\n      \"model\": "
	    "\"hp-microserver-n40l\",\n      \"role\": \"null\",");
	CHECK_HAS(j, "\"name\": \"h13\",\n      \"model\": \"generic-server\","
	    "\n      \"role\": null,");
	CHECK_HAS(j, "\"name\": \"quoted\",\n      \"description\": \"null\"");
	CHECK_HAS(j, "\"name\": \"plain\",\n      \"description\": null");
	CHECK_HAS(j, "\"role\": \"line one, two \\\"quoted\\\" "
	    "back\\\\slash\"");
	CHECK_HAS(j, "\"size_bytes\": 1649267441664");
	free(j);
	/* the unicode is written as UTF-8, not escaped */
	CHECK(lab_inventory_to_yaml(inv, &y, &err) == 0);
	CHECK_HAS(y, "\xe3\x82\xb9\xe3\x83\x88");
	CHECK_HAS(y, "1.5TiB");
	CHECK_HAS(y, "00:26:55:d1:0a:01");
	free(y);
	lab_inventory_free(inv);
}

int
main(void)
{
	test_good();
	test_empty();
	test_bad();
	test_limits();
	test_longest_value();
	test_warnings();
	test_unique();
	test_round_trip();
	TESTS_DONE();
}
