/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The VLAN declarations of issue 19: loaded from YAML with where each was
 * written, stored and read back from the database the same (locs too),
 * the locs following a re-import where only they moved, compared, joined
 * and shown.
 */
#include <stdlib.h>
#include <string.h>

#include "lab/db.h"
#include "lab/inventory.h"
#include "tests.h"

static const char yaml[] =
	"hosts:\n"
	"  - name: vnas\n"
	"    model: hp-microserver-n40l\n"
	"    nics:\n"
	"      - {name: eth0, mac: \"00:26:55:d1:0e:01\"}\n"
	"      - {name: eth1, mac: \"00:26:55:d1:0e:02\", vlan: 20}\n"
	"      - name: eth2\n"
	"        mac: \"00:26:55:d1:0e:03\"\n"
	"        vlans: [20, 30]\n"
	"        native: 30\n"
	"        tagged: true\n"
	"switches:\n"
	"  - name: vsw\n"
	"    model: cisco-sg200-26\n"
	"    address: 192.0.2.3\n"
	"    vlans: [{id: 1, name: default}, {id: 20}]\n"
	"    ports:\n"
	"      - {port: gi7, vlan: 20, description: backup}\n"
	"      - {port: gi8, vlans: [10, 20]}\n"
	"    management_vlan: 20\n"
	"    uplinks: [gi25]\n";

static struct lab_inventory *
load(const char *text, struct lab_err *err)
{
	struct lab_inventory	*inv;

	lab_err_init(err);
	if ((inv = lab_inventory_new()) == NULL)
		return NULL;
	if (lab_inventory_load_buf(inv, "v.yaml", text, strlen(text),
	    err) != 0) {
		lab_inventory_free(inv);
		return NULL;
	}
	return inv;
}

static void
check_loaded(const struct lab_inventory *inv, int from_db)
{
	const struct lab_host	*h;
	const struct lab_switch	*s;
	struct lab_buf		 b;
	char			*t;

	CHECK(inv->nhosts == 1 && inv->nswitches == 1);
	if (inv->nhosts != 1 || inv->nswitches != 1)
		return;
	h = &inv->hosts[0];
	CHECK(h->nnics == 3);
	if (h->nnics != 3)
		return;
	CHECK(!h->nics[0].vlan.set);
	CHECK(h->nics[1].vlan.set && h->nics[1].vlan.access == 20 &&
	    h->nics[1].vlan.ntrunk == 0);
	CHECK(h->nics[1].vlan.loc.line == 6 && h->nics[1].vlan.loc.col == 54);
	CHECK_STR(h->nics[1].vlan.loc.file, "v.yaml");
	CHECK(h->nics[2].vlan.ntrunk == 2 && h->nics[2].vlan.trunk[1] == 30);
	CHECK(h->nics[2].vlan.native == 30 && h->nics[2].vlan.tagged);
	CHECK(h->nics[2].vlan.loc.line == 9 && h->nics[2].vlan.loc.col == 16);
	CHECK(h->nics[2].vlan.native_loc.line == 10 &&
	    h->nics[2].vlan.native_loc.col == 17);
	t = lab_vlan_want_text(&h->nics[2].vlan);
	CHECK_STR(t, "vlans 20,30 native 30 (tagged by the host)");
	free(t);
	t = lab_vlan_want_text(&h->nics[1].vlan);
	CHECK_STR(t, "vlan 20");
	free(t);
	/* as a cell of lab ls nics and the report */
	lab_buf_init(&b);
	lab_buf_adds(&b, "");
	lab_vlan_want_cell(&h->nics[0].vlan, &b);
	CHECK_STR(b.s, "");
	lab_vlan_want_cell(&h->nics[1].vlan, &b);
	CHECK_STR(b.s, "20");
	b.len = 0;
	lab_vlan_want_cell(&h->nics[2].vlan, &b);
	CHECK_STR(b.s, "20,30 native 30 tagged");
	lab_buf_release(&b);
	s = &inv->switches[0];
	CHECK(s->nvlans == 2 && s->nports == 2 && s->uplinks.n == 1);
	if (s->nvlans != 2 || s->nports != 2 || s->uplinks.n != 1)
		return;
	CHECK(s->vlans[0].id == 1);
	CHECK_STR(s->vlans[0].name, "default");
	CHECK(s->vlans[1].id == 20 && s->vlans[1].name == NULL);
	CHECK(s->vlans[1].loc.line == 16);
	CHECK_STR(s->ports[0].port, "gi7");
	CHECK_STR(s->ports[0].description, "backup");
	CHECK(s->ports[0].vlan.access == 20);
	CHECK(s->ports[0].loc.line == 18 && s->ports[0].vlan.loc.line == 18 &&
	    s->ports[0].vlan.loc.col == 27);
	CHECK(s->ports[1].vlan.ntrunk == 2 && s->ports[1].vlan.native == 0);
	CHECK(s->management_vlan == 20);
	CHECK_STR(s->uplinks.v[0], "gi25");
	(void)from_db;
}

static void
test_load_store(void)
{
	struct lab_inventory	*inv, *back = NULL, *other;
	struct lab_changes	 ch = { NULL, 0 };
	struct lab_db		*db = NULL;
	struct lab_err		 err;
	char			*changed;

	if ((inv = load(yaml, &err)) == NULL) {
		fprintf(stderr, "load: %s\n", err.msg);
		tests_failed++;
		return;
	}
	check_loaded(inv, 0);
	CHECK(lab_db_open(":memory:", LAB_DB_CREATE, &db, &err) == 0);
	CHECK(db != NULL &&
	    lab_db_inventory_apply(db, inv, 0, 1, &ch, &err) == 0);
	lab_changes_release(&ch);
	CHECK(db != NULL && lab_db_inventory_load(db, &back, &err) == 0);
	if (back != NULL) {
		check_loaded(back, 1);
		CHECK(lab_switch_vlans_eq(&inv->switches[0],
		    &back->switches[0]));
	}
	/* the same again: no change */
	CHECK(db != NULL &&
	    lab_db_inventory_apply(db, inv, 0, 2, &ch, &err) == 0);
	CHECK(ch.n == 0);
	lab_changes_release(&ch);
	/* another VLAN on eth1: a change of the host */
	changed = strdup(yaml);
	if (changed != NULL)
		strstr(changed, "vlan: 20}")[7] = '1';
	if (changed != NULL && (other = load(changed, &err)) != NULL) {
		CHECK(!lab_vlan_want_eq(&inv->hosts[0].nics[1].vlan,
		    &other->hosts[0].nics[1].vlan));
		CHECK(lab_db_inventory_apply(db, other, 0, 3, &ch, &err) == 0);
		CHECK(ch.n == 1);
		lab_changes_release(&ch);
		lab_inventory_free(other);
	} else
		tests_failed++;
	free(changed);
	lab_inventory_free(back);
	lab_inventory_free(inv);
	lab_db_free(db);
}

/* yaml with a comment line inserted before each line that has needle */
static char *
insert_comments(const char *text, const char *const *needles, size_t n)
{
	char	*out, *o;
	size_t	 i, len = strlen(text);
	const char *p;

	if ((out = malloc(len + n * 16 + 1)) == NULL)
		return NULL;
	o = out;
	for (p = text; *p != '\0';) {
		const char	*eol = strchr(p, '\n');
		size_t		 l = eol != NULL ? (size_t)(eol - p) + 1 :
				    strlen(p);

		for (i = 0; i < n; i++)
			if (memmem(p, l, needles[i], strlen(needles[i])) !=
			    NULL) {
				memcpy(o, "# moved\n", 8);
				o += 8;
				break;
			}
		memcpy(o, p, l);
		o += l;
		p += l;
	}
	*o = '\0';
	return out;
}

/*
 * Only the places moved (a comment line above each wish, another file
 * name): no change of the declarations, yet what the database gives back
 * names the lines and the file the wishes are at now.
 */
static void
test_moved(void)
{
	static const char *const needles[] = { "vlan: 20}", "vlans: [20, 30]",
		"vlans: [{id: 1", "{port: gi7", "{port: gi8" };
	struct lab_inventory	*inv, *moved = NULL, *back = NULL;
	struct lab_changes	 ch = { NULL, 0 };
	struct lab_db		*db = NULL;
	struct lab_err		 err;
	const struct lab_host	*h;
	const struct lab_switch	*s;
	char			*text;

	if ((inv = load(yaml, &err)) == NULL ||
	    (text = insert_comments(yaml, needles, 5)) == NULL) {
		tests_failed++;
		lab_inventory_free(inv);
		return;
	}
	lab_err_init(&err);
	if ((moved = lab_inventory_new()) == NULL ||
	    lab_inventory_load_buf(moved, "w.yaml", text, strlen(text),
	    &err) != 0) {
		fprintf(stderr, "load moved: %s\n", err.msg);
		tests_failed++;
		goto out;
	}
	CHECK(lab_db_open(":memory:", LAB_DB_CREATE, &db, &err) == 0);
	CHECK(db != NULL &&
	    lab_db_inventory_apply(db, inv, 0, 1, &ch, &err) == 0);
	lab_changes_release(&ch);
	CHECK(db != NULL &&
	    lab_db_inventory_apply(db, moved, 0, 2, &ch, &err) == 0);
	CHECK(ch.n == 0);	/* nothing declared differs */
	lab_changes_release(&ch);
	CHECK(db != NULL && lab_db_inventory_load(db, &back, &err) == 0);
	if (back == NULL || back->nhosts != 1 || back->nswitches != 1 ||
	    back->hosts[0].nnics != 3 || back->switches[0].nports != 2 ||
	    back->switches[0].nvlans != 2) {
		tests_failed++;
		goto out;
	}
	h = &back->hosts[0];
	CHECK(h->nics[1].vlan.loc.line == 7 && h->nics[1].vlan.loc.col == 54);
	CHECK_STR(h->nics[1].vlan.loc.file, "w.yaml");
	CHECK(h->nics[2].vlan.loc.line == 11 &&
	    h->nics[2].vlan.native_loc.line == 12);
	CHECK_STR(h->nics[2].vlan.loc.file, "w.yaml");
	s = &back->switches[0];
	CHECK(s->vlans[1].loc.line == 19);
	CHECK_STR(s->vlans[1].loc.file, "w.yaml");
	CHECK(s->ports[0].loc.line == 22 && s->ports[0].vlan.loc.line == 22 &&
	    s->ports[0].vlan.loc.col == 27);
	CHECK_STR(s->ports[0].loc.file, "w.yaml");
	CHECK(s->ports[1].loc.line == 24 && s->ports[1].vlan.loc.line == 24);
	/* and the same again writes nothing: no change, the places kept */
	CHECK(lab_db_inventory_apply(db, moved, 0, 3, &ch, &err) == 0);
	CHECK(ch.n == 0);
	lab_changes_release(&ch);
out:
	free(text);
	lab_inventory_free(back);
	lab_inventory_free(moved);
	lab_inventory_free(inv);
	lab_db_free(db);
}

static void
test_list(void)
{
	struct lab_vlan_want	 w;
	char			*s;

	memset(&w, 0, sizeof(w));
	CHECK(lab_vlan_list_parse_alloc("10 20,4095 0 30", &w) == 0);
	CHECK(w.ntrunk == 3 && w.trunk[0] == 10 && w.trunk[2] == 30);
	s = lab_vlan_list_join(&w, ",");
	CHECK_STR(s, "10,20,30");
	free(s);
	free(w.trunk);
	CHECK(lab_vlan_list_parse_alloc(NULL, &w) == 0 && w.ntrunk == 0);
}

int
main(void)
{
	test_load_store();
	test_moved();
	test_list();
	TESTS_DONE();
}
