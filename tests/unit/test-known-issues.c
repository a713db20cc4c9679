/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Known issues: lab_version_cmp, lab_known_issue_match and _check, the
 * YAML loader's errors (file:line:col) and the shipped list.
 */
#include <stdio.h>
#include <string.h>

#include "lab/db.h"
#include "lab/facts.h"
#include "lab/inventory.h"

#include "tests.h"

static int
sign(int v)
{
	return v < 0 ? -1 : v > 0;
}

static void
test_cmp(void)
{
	CHECK(sign(lab_version_cmp("1.20", "1.30")) == -1);
	CHECK(sign(lab_version_cmp("1.30", "1.20")) == 1);
	CHECK(lab_version_cmp("1.30", "1.30") == 0);
	CHECK(sign(lab_version_cmp("1.9", "1.10")) == -1);
	CHECK(sign(lab_version_cmp("1.10", "1.9")) == 1);
	CHECK(sign(lab_version_cmp("1.1.2.0", "1.1.10")) == -1);
	CHECK(sign(lab_version_cmp("1.0.3.5", "1.1.2.0")) == -1);
	CHECK(sign(lab_version_cmp("1.1.2.0", "1.1.2.0")) == 0);
	CHECK(lab_version_cmp("1.1.2", "1.1.2.0") == 0);
	CHECK(sign(lab_version_cmp("1.1.2.1", "1.1.2")) == 1);
	CHECK(lab_version_cmp("01.02", "1.2") == 0);
	CHECK(sign(lab_version_cmp("2.0", "10.0")) == -1);
	CHECK(sign(lab_version_cmp("1.0-rc1", "1.0-rc2")) == -1);
	CHECK(sign(lab_version_cmp("1.0a", "1.0b")) == -1);
	CHECK(lab_version_cmp("1.0A", "1.0a") == 0);
	CHECK(sign(lab_version_cmp("99999999999999999999.1",
	    "99999999999999999999.2")) == -1);
	CHECK(sign(lab_version_cmp("100000000000000000000", "99999999999999999999"))
	    == 1);
	CHECK(lab_version_cmp("", "") == 0);
	CHECK(lab_version_cmp("", "0") == 0);
	CHECK(sign(lab_version_cmp("", "1")) == -1);
}

static void
test_match(void)
{
	struct lab_known_issue	rac = { .model = "hp-microserver-*",
		.bmc = "rac", .component = "bmc", .below = "1.30",
		.severity = "warning", .message = "stops answering",
		.source = "seed" };
	struct lab_known_issue	rac1 = rac;	/* the vendor's "1.3" */
	struct lab_known_issue	sw = { .model = "cisco-sg200-*",
		.component = "switch", .below = "1.1.2.0" };
	struct lab_known_issue	eq = { .component = "disk",
		.product = "ST3000DM001*", .equal = "CC4B" };
	struct lab_known_issue	glob = { .component = "bios",
		.matching = "O41*" };
	struct lab_component	c = { "hp-microserver-n40l", "rac", "bmc",
		NULL, "1.20" };

	rac1.below = "1.3";
	CHECK(lab_known_issue_match(&rac, &c) == 1);
	CHECK(lab_known_issue_match(&rac1, &c) == 1);
	c.firmware = "1.30";
	CHECK(lab_known_issue_match(&rac, &c) == 0);
	CHECK(lab_known_issue_match(&rac1, &c) == 0);
	c.firmware = "1.3";	/* read as 1.30 for a BMC */
	CHECK(lab_known_issue_match(&rac, &c) == 0);
	c.firmware = "1.2";	/* 1.20 */
	CHECK(lab_known_issue_match(&rac, &c) == 1);
	c.firmware = "1.09";
	CHECK(lab_known_issue_match(&rac, &c) == 1);
	c.firmware = "2.00";
	CHECK(lab_known_issue_match(&rac, &c) == 0);
	c.firmware = NULL;	/* not known: no match */
	CHECK(lab_known_issue_match(&rac, &c) == 0);
	c.firmware = "1.20";
	c.bmc = "ilo2";
	CHECK(lab_known_issue_match(&rac, &c) == 0);
	c.bmc = NULL;
	CHECK(lab_known_issue_match(&rac, &c) == 0);
	c.bmc = "rac";
	c.model = "hp-dl320-g5p";
	CHECK(lab_known_issue_match(&rac, &c) == 0);
	c.model = NULL;
	CHECK(lab_known_issue_match(&rac, &c) == 0);
	c.model = "hp-microserver-n54l";
	c.component = "bios";
	CHECK(lab_known_issue_match(&rac, &c) == 0);

	/* a switch: four parts, no BMC rewriting */
	c = (struct lab_component){ "cisco-sg200-26", NULL, "switch", NULL,
	    "1.0.3.5" };
	CHECK(lab_known_issue_match(&sw, &c) == 1);
	c.firmware = "1.1.2.0";
	CHECK(lab_known_issue_match(&sw, &c) == 0);
	c.firmware = "1.1.10";
	CHECK(lab_known_issue_match(&sw, &c) == 0);
	c.firmware = "1.1";	/* 1.1.0.0 < 1.1.2.0 */
	CHECK(lab_known_issue_match(&sw, &c) == 1);

	/* equal, product glob (case ignored) */
	c = (struct lab_component){ "hp-microserver-n40l", NULL, "disk",
	    "st3000dm001-1ch166", "CC4B" };
	CHECK(lab_known_issue_match(&eq, &c) == 1);
	c.firmware = "CC4C";
	CHECK(lab_known_issue_match(&eq, &c) == 0);
	c.firmware = "CC4B";
	c.product = "WDC WD30EFRX";
	CHECK(lab_known_issue_match(&eq, &c) == 0);
	c.product = NULL;
	CHECK(lab_known_issue_match(&eq, &c) == 0);

	c = (struct lab_component){ "hp-microserver-n40l", NULL, "bios",
	    NULL, "O41" };
	CHECK(lab_known_issue_match(&glob, &c) == 1);
	c.firmware = "P41";
	CHECK(lab_known_issue_match(&glob, &c) == 0);
}

static void
test_check(void)
{
	struct lab_known_issue	v[2] = {
		{ .model = "hp-microserver-*", .bmc = "rac", .component = "bmc",
		  .below = "1.30", .severity = "warning",
		  .message = "stops answering", .source = "seed" },
		{ .component = "bmc", .equal = "1.20", .severity = "info",
		  .message = "exactly that", .source = "http://example.org/" },
	};
	struct lab_known_issues	kis = { .v = v, .n = 2 };
	struct lab_component	c = { "hp-microserver-n40l", "rac", "bmc",
		NULL, "1.20" };
	struct lab_fact_findings out = { NULL, 0 };
	struct lab_err		err;

	memset(&err, 0, sizeof(err));
	CHECK(lab_known_issues_check(&kis, &c, "ms1 bmc", &out, &err) == 0);
	CHECK(out.n == 2);
	if (out.n == 2) {
		CHECK_STR(out.v[0].kind, "known-issue");
		CHECK_STR(out.v[0].severity, "warning");
		CHECK_STR(out.v[0].subject, "ms1 bmc");
		CHECK_HAS(out.v[0].message, "bmc firmware 1.20 is below 1.30");
		CHECK_HAS(out.v[0].message, "stops answering");
		CHECK_HAS(out.v[0].message, "source: seed");
		CHECK_STR(out.v[1].severity, "info");
	}
	lab_fact_findings_release(&out);
	c.firmware = "1.30";
	CHECK(lab_known_issues_check(&kis, &c, "ms1 bmc", &out, &err) == 0);
	CHECK(out.n == 0);
	lab_fact_findings_release(&out);
}

/* Loads text; returns the error message ("" when it loaded). */
static const char *
load(const char *text, size_t *n)
{
	static struct lab_err	err;
	struct lab_known_issues	k;
	int			rc;

	memset(&err, 0, sizeof(err));
	lab_known_issues_init(&k);
	rc = lab_known_issues_load_buf(&k, "ki.yaml", text, strlen(text),
	    &err);
	*n = k.n;
	lab_known_issues_release(&k);
	if (rc == 0)
		return "";
	CHECK(err.code == LAB_EXIT_INPUT);
	return err.msg;
}

#define ITEM	"  - match: {component: bmc, below: \"1.30\"}\n"
#define HEAD	"known_issues:\n" ITEM

static void
test_load(void)
{
	struct lab_known_issues	k;
	struct lab_err		err;
	size_t			n;
	const char		*ok = "known_issues:\n"
	    "  - match:\n"
	    "      model: hp-microserver-*\n"
	    "      bmc: rac\n"
	    "      component: bmc\n"
	    "      below: \"1.30\"\n"
	    "    severity: warning\n"
	    "    message: stops answering\n"
	    "    source: seed\n";

	CHECK_STR(load(ok, &n), "");
	CHECK(n == 1);
	memset(&err, 0, sizeof(err));
	lab_known_issues_init(&k);
	CHECK(lab_known_issues_load_buf(&k, "ki.yaml", ok, strlen(ok),
	    &err) == 0);
	if (k.n == 1) {
		CHECK_STR(k.v[0].model, "hp-microserver-*");
		CHECK_STR(k.v[0].below, "1.30");
		CHECK_STR(k.v[0].loc.file, "ki.yaml");
		CHECK(k.v[0].loc.line == 2 && k.v[0].loc.col == 5);
	}
	lab_known_issues_release(&k);
	CHECK_STR(load("", &n), "");
	CHECK_STR(load("known_issues:\n", &n), "");

	CHECK_HAS(load(HEAD "    severity: warning\n    mesage: x\n"
	    "    source: y\n", &n),
	    "ki.yaml:4:5: unknown key 'mesage' in a known issue; did you "
	    "mean 'message'?");
	CHECK_HAS(load("known_issues:\n  - match: {component: bmc, belwo: "
	    "\"1.30\"}\n    severity: info\n    message: x\n    source: y\n",
	    &n), "ki.yaml:2:29: unknown key 'belwo' in the match of a known issue; did you mean 'below'?");
	CHECK_HAS(load("known_issues:\n  - match: {component: bmc, below: "
	    "\"1.30\", equal: \"1.20\"}\n    severity: info\n    message: x\n"
	    "    source: y\n", &n), "ki.yaml:2:12: the match of a known issue "
	    "needs exactly one of 'below', 'equal' and 'matching'");
	CHECK_HAS(load("known_issues:\n  - match: {component: bmc}\n"
	    "    severity: info\n    message: x\n    source: y\n", &n),
	    "needs exactly one of");
	CHECK_HAS(load("known_issues:\n  - match: {below: \"1.30\"}\n"
	    "    severity: info\n    message: x\n    source: y\n", &n),
	    "ki.yaml:2:12: the match of a known issue needs 'component'");
	CHECK_HAS(load(HEAD "    severity: serious\n    message: x\n"
	    "    source: y\n", &n), "ki.yaml:3:15: unknown severity "
	    "'serious'");
	CHECK_HAS(load(HEAD "    severity: info\n    message: x\n", &n),
	    "ki.yaml:2:5: a known issue needs 'source'");
	CHECK_HAS(load(HEAD "    severity: info\n    source: x\n", &n),
	    "ki.yaml:2:5: a known issue needs 'message'");
	CHECK_HAS(load(HEAD "    message: x\n    source: x\n", &n),
	    "a known issue needs 'severity'");
	CHECK_HAS(load("known_issues:\n  - match: {component: nic, below: "
	    "\"1\"}\n    severity: info\n    message: x\n    source: y\n",
	    &n), "ki.yaml:2:24: unknown component 'nic'");
	CHECK_HAS(load("known_issues:\n  - match: {component: bmc, bmc: ilo, "
	    "below: \"1\"}\n    severity: info\n    message: x\n"
	    "    source: y\n", &n), "unknown bmc 'ilo'");
	CHECK_HAS(load("known_issues:\n  - match: {component: bmc, model: "
	    "hp-microserver-n40, below: \"1\"}\n    severity: info\n"
	    "    message: x\n    source: y\n", &n), "unknown model "
	    "'hp-microserver-n40'");
	CHECK_HAS(load("known_issues:\n  - severity: info\n    message: x\n"
	    "    source: y\n", &n), "ki.yaml:2:5: a known issue needs "
	    "'match'");
	CHECK_HAS(load("known_issues: {a: 1}\n", &n),
	    "ki.yaml:1:15: 'known_issues' must be a list");
	CHECK_HAS(load("known_issues:\n  - just text\n", &n),
	    "ki.yaml:2:5: a known issue must be a mapping");
	CHECK_HAS(load("hosts: []\n", &n), "ki.yaml:1:1: unknown key 'hosts'");
	CHECK_HAS(load("- a\n", &n), "ki.yaml:1:1: a known-issues file is a "
	    "mapping");
	CHECK_HAS(load(HEAD "    severity: [info]\n    message: x\n"
	    "    source: y\n", &n), "'severity' of a known issue must be "
	    "text");
	/* the second entry fails: nothing of the file is kept */
	CHECK_HAS(load(HEAD "    severity: info\n    message: x\n"
	    "    source: y\n" ITEM "    severity: info\n", &n),
	    "ki.yaml:6:5: a known issue needs 'message'");
	CHECK(n == 0);
}

static void
test_shipped(void)
{
	struct lab_known_issues	k;
	struct lab_err		err;
	struct lab_fact_findings out = { NULL, 0 };
	struct lab_component	rac = { "hp-microserver-n40l", "rac", "bmc",
		NULL, "1.20" };
	struct lab_component	sw = { "cisco-sg200-26", NULL, "switch",
		NULL, "1.0.3.5" };
	size_t			i;

	memset(&err, 0, sizeof(err));
	lab_known_issues_init(&k);
	CHECK(lab_known_issues_shipped(&k, &err) == 0);
	if (err.code != 0)
		fprintf(stderr, "shipped: %s\n", err.msg);
	CHECK(k.n >= 3);
	for (i = 0; i < k.n; i++) {
		CHECK(k.v[i].source != NULL && k.v[i].message != NULL);
		CHECK_STR(k.v[i].loc.file, "known-issues.yaml (shipped)");
	}
	CHECK(lab_known_issues_check(&k, &rac, "ms1", &out, &err) == 0);
	CHECK(out.n == 1);
	rac.firmware = "1.30";
	CHECK(lab_known_issues_check(&k, &rac, "ms1", &out, &err) == 0);
	CHECK(out.n == 1);
	CHECK(lab_known_issues_check(&k, &sw, "sg200", &out, &err) == 0);
	CHECK(out.n == 2);
	if (out.n == 2)
		CHECK_HAS(out.v[1].message, "1.1.2.0");
	sw.firmware = "1.1.2.0";
	CHECK(lab_known_issues_check(&k, &sw, "sg200", &out, &err) == 0);
	CHECK(out.n == 2);
	lab_fact_findings_release(&out);
	lab_known_issues_release(&k);
}

/* Imports text into db: the changes as "OP NAME[: DETAIL]" lines. */
static int
import(struct lab_db *db, const char *text, int flags, char *out, size_t len)
{
	static const char	 ops[] = "+~-=";
	struct lab_inventory	*inv = lab_inventory_new();
	struct lab_changes	 ch = { NULL, 0 };
	struct lab_err		 err;
	size_t			 i, at = 0;
	int			 rc;

	memset(&err, 0, sizeof(err));
	out[0] = '\0';
	rc = lab_inventory_load_buf(inv, "mine.yaml", text, strlen(text), &err);
	if (rc == 0)
		rc = lab_db_inventory_apply(db, inv, flags, 1000, &ch, &err);
	if (rc != 0)
		snprintf(out, len, "error: %s", err.msg);
	for (i = 0; rc == 0 && i < ch.n && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%c %s %s%s%s\n",
		    ops[ch.v[i].op], ch.v[i].what, ch.v[i].name,
		    ch.v[i].detail ? ": " : "",
		    ch.v[i].detail ? ch.v[i].detail : "");
	lab_changes_release(&ch);
	lab_inventory_free(inv);
	return rc;
}

#define MINE(sev, msg) "known_issues:\n" \
	"  - match: {component: bmc, bmc: ilo2, below: \"1.80\"}\n" \
	"    severity: " sev "\n    message: " msg "\n    source: me\n"

static void
test_db(void)
{
	struct lab_db		*db = NULL;
	struct lab_inventory	*inv = NULL;
	struct lab_known_issues	 k;
	struct lab_err		 err;
	char			 out[2000], *yaml = NULL;
	size_t			 nship, i;
	const char		*rac = "known_issues:\n"
	    "  - match: {model: hp-microserver-*, bmc: rac, component: bmc, "
	    "below: \"1.30\"}\n    severity: critical\n    message: mine\n"
	    "    source: me\n";

	memset(&err, 0, sizeof(err));
	if (lab_db_open(":memory:", LAB_DB_CREATE, &db, &err) != 0) {
		fprintf(stderr, "db: %s\n", err.msg);
		tests_failed++;
		return;
	}
	lab_known_issues_init(&k);
	CHECK(lab_known_issues_effective(db, &k, &err) == 0);
	nship = k.n;
	CHECK(nship >= 3);
	lab_known_issues_release(&k);

	CHECK(import(db, MINE("info", "old"), 0, out, sizeof(out)) == 0);
	CHECK_STR(out, "+ known-issue bmc below 1.80 bmc=ilo2\n");
	CHECK(import(db, MINE("info", "old"), 0, out, sizeof(out)) == 0);
	CHECK_STR(out, "");
	CHECK(import(db, MINE("warning", "new"), 0, out, sizeof(out)) == 0);
	CHECK_STR(out, "~ known-issue bmc below 1.80 bmc=ilo2: severity info "
	    "-> warning, message\n");

	/* effective: shipped + mine */
	lab_known_issues_init(&k);
	CHECK(lab_known_issues_effective(db, &k, &err) == 0);
	CHECK(k.n == nship + 1);
	if (k.n == nship + 1) {
		CHECK_STR(k.v[nship].message, "new");
		CHECK_STR(k.v[nship].loc.file, "mine.yaml");
		CHECK(k.v[nship].loc.line == 2);
	}
	lab_known_issues_release(&k);

	/* mine replaces the shipped one of the same match */
	CHECK(import(db, rac, 0, out, sizeof(out)) == 0);
	CHECK_HAS(out, "+ known-issue bmc below 1.30 model=hp-microserver-* "
	    "bmc=rac\n");
	CHECK_HAS(out, "= known-issue bmc below 1.80 bmc=ilo2\n");
	lab_known_issues_init(&k);
	CHECK(lab_known_issues_effective(db, &k, &err) == 0);
	CHECK(k.n == nship + 1);
	for (i = 0; i < k.n; i++)
		if (k.v[i].bmc != NULL && strcmp(k.v[i].bmc, "rac") == 0)
			CHECK_STR(k.v[i].severity, "critical");
	lab_known_issues_release(&k);

	/* export writes them back */
	CHECK(lab_db_inventory_load(db, &inv, &err) == 0);
	CHECK(inv != NULL && inv->known != NULL && inv->known->n == 2);
	if (inv != NULL)
		CHECK(lab_inventory_to_yaml(inv, &yaml, &err) == 0);
	CHECK_HAS(yaml, "known_issues:\n- match: {bmc: ilo2, component: bmc, "
	    "below: 1.80}\n  severity: warning\n  message: new\n"
	    "  source: me\n");
	free(yaml);
	lab_inventory_free(inv);

	/* prune removes what the YAML does not name */
	CHECK(import(db, rac, LAB_APPLY_PRUNE, out, sizeof(out)) == 0);
	CHECK_STR(out, "- known-issue bmc below 1.80 bmc=ilo2\n");
	/* a dry run changes nothing */
	CHECK(import(db, "hosts: []\n", LAB_APPLY_PRUNE | LAB_APPLY_DRY_RUN,
	    out, sizeof(out)) == 0);
	CHECK_STR(out, "- known-issue bmc below 1.30 model=hp-microserver-* "
	    "bmc=rac\n");
	lab_known_issues_init(&k);
	CHECK(lab_db_known_issues_load(db, &k, &err) == 0);
	CHECK(k.n == 1);
	lab_known_issues_release(&k);
	lab_db_free(db);
}

int
main(void)
{
	test_cmp();
	test_match();
	test_check();
	test_load();
	test_shipped();
	test_db();
	TESTS_DONE();
}
