/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shares (issue 21): IQNs, NFS options, the default target IQN, clients
 * resolved to addresses, the checks across hosts, and the shares stored
 * and read back from the database the same.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/inventory.h"
#include "tests.h"

static const char yaml[] =
	"groups: [{name: esx}]\n"
	"hosts:\n"
	"  - name: Nas_1\n"
	"    model: generic-server\n"
	"    ssh: {address: 192.0.2.40}\n"
	"    shares:\n"
	"      - name: vm\n"
	"        pool: tank\n"
	"        protocol: nfs\n"
	"        path: /tank/vm\n"
	"        clients: ['@esx', esx2, 192.0.2.0/28, 198.51.100.7]\n"
	"        properties: {recordsize: 1M, quota: none}\n"
	"      - {name: lun, vg: vg0, protocol: iscsi, size: 10G,\n"
	"         initiators: [esx1, 'iqn.2026-12.lab.local:ci']}\n"
	"  - name: esx1\n"
	"    model: generic-server\n"
	"    groups: [esx]\n"
	"    network: {address: 192.0.2.11/24}\n"
	"    ssh: {address: 192.0.2.99}\n"
	"    iscsi_initiator: iqn.1998-01.com.vmware:esx1\n"
	"    mounts: [{share: 'Nas_1:vm', path: /mnt/vm}, {share: 'Nas_1:lun'}]\n"
	"  - name: esx2\n"
	"    model: generic-server\n"
	"    ssh: {address: 192.0.2.12}\n";

static struct lab_inventory *
load(const char *text, struct lab_err *err)
{
	struct lab_inventory	*inv;

	lab_err_init(err);
	if ((inv = lab_inventory_new()) == NULL)
		return NULL;
	if (lab_inventory_load_buf(inv, "s.yaml", text, strlen(text),
	    err) != 0) {
		lab_inventory_free(inv);
		return NULL;
	}
	return inv;
}

static void
test_iqn(void)
{
	static const char *const good[] = { "iqn.2026-12.lab.local:nas",
		"iqn.1993-08.org.debian:01:abcdef", "iqn.1998-01.com.vmware",
		"eui.0123456789abcdef", "naa.0123456789ABCDEF", NULL };
	static const char *const bad[] = { "iqn.26-12.lab:nas",
		"iqn.2026-13.lab:nas", "iqn.2026-00.lab", "iqn.2026-12.Lab:x",
		"iqn.2026-12.lab.local:A", "iqn.2026-12.lab.local:a b", "iqn.2026-12",
		"nas", "eui.0123", "", NULL };
	const char	*why;
	size_t		 i;

	for (i = 0; good[i] != NULL; i++)
		CHECK(lab_check_iqn(good[i], &why) == 0);
	for (i = 0; bad[i] != NULL; i++) {
		why = NULL;
		CHECK(lab_check_iqn(bad[i], &why) == -1);
		CHECK(why != NULL);
	}
}

static void
test_nfs_options(void)
{
	CHECK(lab_nfs_option_known("rw"));
	CHECK(lab_nfs_option_known("no_subtree_check"));
	CHECK(lab_nfs_option_known("anonuid=1000"));
	CHECK(lab_nfs_option_known("sec=krb5p"));
	CHECK(!lab_nfs_option_known("no_subtree_chek"));
	CHECK(!lab_nfs_option_known("anonuid="));
	CHECK(!lab_nfs_option_known("sec=sys)(rw"));
	CHECK(!lab_nfs_option_known("rsize=65536"));
}

static void
test_resolve(const struct lab_inventory *inv)
{
	const struct lab_host	*h = lab_inventory_host(inv, "Nas_1"), *srv;
	const struct lab_share	*s;
	struct lab_strv		 cl;
	struct lab_err		 err;
	char			 iqn[256];

	CHECK(h != NULL);
	if (h == NULL)
		return;
	CHECK(h->nshares == 2);
	lab_err_init(&err);
	lab_strv_init(&cl);
	CHECK(lab_share_clients(inv, &h->shares[0], &cl, &err) == 0);
	/* @esx: esx1's network address, not its ssh one; esx2: its ssh */
	CHECK(cl.n == 4);
	if (cl.n == 4) {
		CHECK_STR(cl.v[0], "192.0.2.11");
		CHECK_STR(cl.v[1], "192.0.2.12");
		CHECK_STR(cl.v[2], "192.0.2.0/28");
		CHECK_STR(cl.v[3], "198.51.100.7");
	}
	lab_strv_release(&cl);
	lab_share_iqn(h, &h->shares[1], iqn, sizeof(iqn));
	CHECK_STR(iqn, "iqn.2026-12.lab.local:nas-1");
	s = lab_inventory_share(inv, "Nas_1:lun", &srv);
	CHECK(s == &h->shares[1] && srv == h);
	CHECK(lab_inventory_share(inv, "Nas_1:nothing", NULL) == NULL);
	CHECK(lab_inventory_share(inv, "nothing", NULL) == NULL);
	CHECK_STR(h->shares[0].properties.v[0], "recordsize=1M");
	CHECK_STR(h->shares[0].properties.v[1], "quota=none");
	CHECK(h->shares[1].size_bytes == 10000000000ULL);
	CHECK(h->shares[1].size_loc.line == 13);
}

/* The checks across hosts run once every file is read. */
static void
test_cross(void)
{
	struct lab_inventory	*inv;
	struct lab_strv		 cl;
	struct lab_err		 err;

	lab_err_init(&err);
	lab_strv_init(&cl);
	inv = load("hosts:\n  - name: a\n    model: generic-server\n"
	    "    shares: [{name: x, pool: p, protocol: nfs, path: /x, "
	    "clients: ['@nobody']}]\n", &err);
	CHECK(inv != NULL);
	if (inv != NULL) {
		CHECK(lab_share_clients(inv, &inv->hosts[0].shares[0], &cl,
		    &err) == -1);
		lab_strv_release(&cl);
		CHECK_HAS(err.msg, "s.yaml:4:14: client '@nobody' of share 'x' "
		    "is a group no host is in");
		lab_inventory_free(inv);
	}
}

static void
test_db(const struct lab_inventory *inv)
{
	struct lab_inventory	*back = NULL, *other;
	struct lab_changes	 ch;
	struct lab_db		*db = NULL;
	struct lab_err		 err;
	char			*a = NULL, *b = NULL;
	size_t			 i;
	int			 modified = 0;

	lab_err_init(&err);
	CHECK(lab_db_open(":memory:", LAB_DB_CREATE, &db, &err) == 0);
	if (db == NULL)
		return;
	memset(&ch, 0, sizeof(ch));
	CHECK(lab_db_inventory_apply(db, inv, 0, 1, &ch, &err) == 0);
	lab_changes_release(&ch);
	CHECK(lab_db_inventory_load(db, &back, &err) == 0);
	CHECK(back != NULL && lab_inventory_to_yaml(inv, &a, &err) == 0 &&
	    lab_inventory_to_yaml(back, &b, &err) == 0);
	CHECK_STR(b, a);
	if (back != NULL) {
		CHECK(back->hosts[0].shares != NULL &&
		    back->hosts[0].shares[1].size_loc.line == 13);
		CHECK_STR(back->hosts[1].initiator,
		    "iqn.1998-01.com.vmware:esx1");
	}
	/* the same again: no change; a share changed: host modified */
	memset(&ch, 0, sizeof(ch));
	CHECK(lab_db_inventory_apply(db, inv, 0, 2, &ch, &err) == 0);
	for (i = 0; i < ch.n; i++)
		modified += ch.v[i].op == LAB_CHANGE_MODIFY;
	CHECK(modified == 0);
	lab_changes_release(&ch);
	other = load(yaml, &err);
	if (other != NULL) {
		lab_inventory_sort(other);
		other->hosts[0].shares[0].options.n = 0;
		other->hosts[0].shares[1].size_bytes = 20;
		memset(&ch, 0, sizeof(ch));
		CHECK(lab_db_inventory_apply(db, other, 0, 3, &ch, &err) == 0);
		for (i = 0; i < ch.n; i++)
			if (ch.v[i].op == LAB_CHANGE_MODIFY) {
				modified++;
				CHECK_HAS(ch.v[i].detail, "shares");
			}
		CHECK(modified == 1);
		lab_changes_release(&ch);
		lab_inventory_free(other);
	}
	free(a);
	free(b);
	lab_inventory_free(back);
	lab_db_free(db);
}

int
main(void)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;

	test_iqn();
	test_nfs_options();
	inv = load(yaml, &err);
	CHECK(inv != NULL);
	if (inv == NULL) {
		fprintf(stderr, "%s\n", err.msg);
		TESTS_DONE();
	}
	lab_inventory_sort(inv);
	test_resolve(inv);
	test_cross();
	test_db(inv);
	lab_inventory_free(inv);
	TESTS_DONE();
}
