/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Targets: lab_range_expand and lab_target_resolve. */
#include <stdio.h>
#include <string.h>

#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/str.h"
#include "lab/target.h"

#include "tests.h"

/* The names joined with ',', for one comparison; caller frees. */
static char *
join(const struct lab_strv *sv)
{
	struct lab_buf	b;
	size_t		i;

	lab_buf_init(&b);
	for (i = 0; i < sv->n; i++) {
		if (i > 0)
			lab_buf_addc(&b, ',');
		lab_buf_adds(&b, sv->v[i]);
	}
	return lab_buf_steal(&b);
}

/* pattern expands to want (names joined with ','). */
static void
expand_ok(const char *pattern, const char *want)
{
	struct lab_strv	 sv;
	struct lab_err	 err;
	char		*got;

	lab_err_init(&err);
	lab_strv_init(&sv);
	if (lab_range_expand(pattern, &sv, &err) != 0) {
		fprintf(stderr, "lab_range_expand(\"%s\") failed: %s\n",
		    pattern, err.msg);
		tests_failed++;
		return;
	}
	CHECK(err.code == LAB_EXIT_OK);
	CHECK(sv.v != NULL && sv.v[sv.n] == NULL);
	got = join(&sv);
	CHECK_STR(got, want);
	free(got);
	lab_strv_release(&sv);
}

/* pattern is refused with LAB_EXIT_INPUT and a message holding want. */
static void
expand_bad(const char *pattern, const char *want)
{
	struct lab_strv	sv;
	struct lab_err	err;

	lab_err_init(&err);
	lab_strv_init(&sv);
	if (lab_range_expand(pattern, &sv, &err) != -1) {
		fprintf(stderr, "lab_range_expand(\"%s\") accepted (%zu "
		    "names)\n", pattern, sv.n);
		tests_failed++;
		lab_strv_release(&sv);
		return;
	}
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, want);
	CHECK_HAS(err.msg, pattern);
	CHECK(sv.n == 0 && sv.v == NULL);
}

static void
test_expand(void)
{
	struct lab_strv	 sv;
	struct lab_err	 err;
	char		 name[32];
	size_t		 i;

	expand_ok("microserver1", "microserver1");
	expand_ok("microserver[1-3]", "microserver1,microserver2,microserver3");
	expand_ok("ml11[0,5]", "ml110,ml115");
	expand_ok("node[01-10]", "node01,node02,node03,node04,node05,node06,"
	    "node07,node08,node09,node10");
	expand_ok("node[1-10]", "node1,node2,node3,node4,node5,node6,node7,"
	    "node8,node9,node10");
	expand_ok("n[001-3]", "n001,n002,n003");
	expand_ok("n[08-11]", "n08,n09,n10,n11");
	expand_ok("n[0-2]", "n0,n1,n2");
	expand_ok("a[1-2]b[1-2]", "a1b1,a1b2,a2b1,a2b2");
	expand_ok("[1-3]", "1,2,3");
	expand_ok("x[1-2,5,07-08]y", "x1y,x2y,x5y,x07y,x08y");
	expand_ok("h[5-5]", "h5");
	expand_ok("h[3,1,2]", "h3,h1,h2");
	/* steps, as ClusterShell's nodeset(1) and pdsh write them */
	expand_ok("node[0-6/2]", "node0,node2,node4,node6");
	expand_ok("n[1-10/2]", "n1,n3,n5,n7,n9");
	expand_ok("n[01-10/3]", "n01,n04,n07,n10");
	expand_ok("node[000-012/4]", "node000,node004,node008,node012");
	expand_ok("n[1-10/20]", "n1");
	expand_ok("n[1-2/1,7-9/2]", "n1,n2,n7,n9");
	expand_ok("a[1-3/2]b[0-4/4]", "a1b0,a1b4,a3b0,a3b4");
	expand_ok("n[5-5/3]", "n5");

	expand_bad("n[3-1]", "runs backwards");
	expand_bad("[3-1]", "runs backwards");
	expand_bad("a[[1-2]]", "cannot nest");
	expand_bad("a[1[2]]", "cannot nest");
	expand_bad("a[1-2", "never closed");
	expand_bad("a[", "never closed");
	expand_bad("a1-2]", "']' without '['");
	expand_bad("a]1[", "']' without '['");
	expand_bad("a[1]]", "']' without '['");
	expand_bad("a[]", "is written [1-3]");
	expand_bad("a[1-]", "is written [1-3]");
	expand_bad("a[-1]", "is written [1-3]");
	expand_bad("a[x]", "is written [1-3]");
	expand_bad("a[1,]", "is written [1-3]");
	expand_bad("a[1-2-3]", "is written [1-3]");
	expand_bad("a[ 1]", "is written [1-3]");
	expand_bad("a[1234567890]", "is written [1-3]");
	expand_bad("r[1-2]-[a0,b0]", "is written [1-3]");
	expand_bad("n[0-100000]", "more than 100000 names");
	expand_bad("n[1-999999999]", "more than 100000 names");
	expand_bad("n[1-60000,1-60000]", "more than 100000 names");
	expand_bad("a[1-1000]b[1-1000]", "more than 100000 names");
	/* ClusterShell's tests/NodeSetErrorTest.py testBadRangeUsages */
	expand_bad("nova[3/2]", "a step needs a range");
	expand_bad("nova[3-/2]", "is written [1-3]");
	expand_bad("nova[-3/2]", "is written [1-3]");
	expand_bad("nova[-/2]", "is written [1-3]");
	expand_bad("nova[2-5/a]", "a step is a number");
	expand_bad("nova[4-3/2]", "runs backwards");
	expand_bad("nova[4-5/-2]", "a step is a number");
	expand_bad("nova[4-2/-2]", "runs backwards");
	expand_bad("nova[004-002]", "runs backwards");
	expand_bad("nova[3-59/2,102a]", "is written [1-3]");
	expand_bad("nova[3-59/2,,102]", "is written [1-3]");
	expand_bad("nova[1-5/0]", "a step is a number");
	expand_bad("nova[1-5/]", "a step is a number");
	expand_bad("nova[1-5/2/2]", "is written [1-3]");
	/* a step counts what it expands to, not the span */
	lab_err_init(&err);
	lab_strv_init(&sv);
	CHECK(lab_range_expand("n[1-999999/10]", &sv, &err) == 0);
	CHECK(sv.n == 100000);
	lab_strv_release(&sv);
	expand_bad("n[1-1000001/10]", "more than 100000 names");

	/* exactly LAB_RANGE_MAX is allowed */
	lab_err_init(&err);
	lab_strv_init(&sv);
	CHECK(lab_range_expand("n[1-100000]", &sv, &err) == 0);
	CHECK(sv.n == LAB_RANGE_MAX);
	for (i = 0; i < sv.n; i += 9999) {
		snprintf(name, sizeof(name), "n%zu", i + 1);
		CHECK_STR(sv.v[i], name);
	}
	lab_strv_release(&sv);
	lab_err_init(&err);
	CHECK(lab_range_expand("a[1-100]b[1-1000]", &sv, &err) == 0);
	CHECK(sv.n == 100000);
	if (sv.n == 100000) {
		CHECK_STR(sv.v[0], "a1b1");
		CHECK_STR(sv.v[1000], "a2b1");
		CHECK_STR(sv.v[99999], "a100b1000");
	}
	lab_strv_release(&sv);
}

/*
 * Declared out of order on purpose: lab_inventory_sort puts it in the
 * database's order. Groups: microservers and vmware are only named by
 * hosts; nas is declared too; empty is declared and has no host.
 */
static const char inventory_yaml[] =
	"groups:\n"
	"  - {name: nas, description: storage}\n"
	"  - {name: empty}\n"
	"hosts:\n"
	"  - {name: neo, model: hp-dl320-g5p, groups: [xen]}\n"
	"  - {name: microserver2, model: hp-microserver-n40l,\n"
	"     groups: [microservers]}\n"
	"  - {name: ml115, model: hp-ml115-g5, groups: [vmware]}\n"
	"  - {name: microserver1, model: hp-microserver-n40l,\n"
	"     groups: [microservers, nas]}\n"
	"  - {name: nas, model: hp-microserver-n40l, groups: [nas]}\n"
	"  - {name: ml110, model: hp-ml110-g5, groups: [vmware]}\n"
	"  - {name: microserver3, model: hp-microserver-n40l,\n"
	"     groups: [microservers, vmware]}\n"
	"switches:\n"
	"  - {name: sg200, model: cisco-sg200-26, address: 192.0.2.2}\n";

static struct lab_inventory *
load_inventory(void)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;

	lab_err_init(&err);
	if ((inv = lab_inventory_new()) == NULL)
		return NULL;
	if (lab_inventory_load_buf(inv, "targets.yaml", inventory_yaml,
	    strlen(inventory_yaml), &err) != 0) {
		fprintf(stderr, "cannot load the test inventory: %s\n",
		    err.msg);
		lab_inventory_free(inv);
		return NULL;
	}
	lab_inventory_sort(inv);
	return inv;
}

/* words (split at spaces, for brevity) resolve to want (joined with ','). */
static void
resolve_ok(const struct lab_inventory *inv, const char *words, int all,
    const char *want)
{
	struct lab_strv	 wv, sv;
	struct lab_err	 err;
	char		*copy, *w, *save = NULL, *got;

	lab_err_init(&err);
	lab_strv_init(&wv);
	copy = strdup(words);
	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		lab_strv_add(&wv, w);
	free(copy);
	lab_strv_init(&sv);
	if (lab_target_resolve(inv, wv.v, wv.n, all, &sv, &err) != 0) {
		fprintf(stderr, "resolving '%s'%s failed: %s\n", words,
		    all ? " with --all" : "", err.msg);
		tests_failed++;
		lab_strv_release(&wv);
		return;
	}
	CHECK(err.code == LAB_EXIT_OK);
	got = join(&sv);
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "resolving '%s'%s: got '%s', want '%s'\n",
		    words, all ? " with --all" : "", got, want);
		tests_failed++;
	}
	free(got);
	lab_strv_release(&sv);
	lab_strv_release(&wv);
}

/* words are refused with LAB_EXIT_INPUT and a message holding each want. */
static void
resolve_bad(const struct lab_inventory *inv, const char *words, int all,
    const char *want, const char *want2)
{
	struct lab_strv	 wv, sv;
	struct lab_err	 err;
	char		*copy, *w, *save = NULL;

	lab_err_init(&err);
	lab_strv_init(&wv);
	copy = strdup(words);
	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		lab_strv_add(&wv, w);
	free(copy);
	lab_strv_init(&sv);
	if (lab_target_resolve(inv, wv.v, wv.n, all, &sv, &err) != -1) {
		fprintf(stderr, "resolving '%s' succeeded, want an error "
		    "with '%s'\n", words, want);
		tests_failed++;
		lab_strv_release(&sv);
	} else {
		CHECK(err.code == LAB_EXIT_INPUT);
		CHECK_HAS(err.msg, want);
		if (want2 != NULL)
			CHECK_HAS(err.msg, want2);
		CHECK(sv.n == 0 && sv.v == NULL);
	}
	lab_strv_release(&wv);
}

static void
test_resolve(void)
{
	struct lab_inventory	*inv;

	if ((inv = load_inventory()) == NULL) {
		tests_failed++;
		return;
	}
	CHECK(inv->nhosts == 7);
	CHECK(inv->nhosts == 7 && strcmp(inv->hosts[0].name,
	    "microserver1") == 0 && strcmp(inv->hosts[6].name, "neo") == 0);

	/* single names and ranges */
	resolve_ok(inv, "ml110", 0, "ml110");
	resolve_ok(inv, "neo ml110", 0, "ml110,neo");
	resolve_ok(inv, "microserver[1-3]", 0,
	    "microserver1,microserver2,microserver3");
	resolve_ok(inv, "microserver[3,1]", 0, "microserver1,microserver3");
	resolve_ok(inv, "ml11[0,5]", 0, "ml110,ml115");
	/* groups: declared, implicit, declared and empty */
	resolve_ok(inv, "@nas", 0, "microserver1,nas");
	resolve_ok(inv, "@microservers", 0,
	    "microserver1,microserver2,microserver3");
	resolve_ok(inv, "@vmware", 0, "microserver3,ml110,ml115");
	resolve_ok(inv, "@empty", 0, "");
	/* --all and exclusions */
	resolve_ok(inv, "", 1, "microserver1,microserver2,microserver3,"
	    "ml110,ml115,nas,neo");
	resolve_ok(inv, "!neo", 1, "microserver1,microserver2,microserver3,"
	    "ml110,ml115,nas");
	resolve_ok(inv, "!@microservers", 1, "ml110,ml115,nas,neo");
	resolve_ok(inv, "!@microservers !ml11[0,5]", 1, "nas,neo");
	resolve_ok(inv, "!microserver[1-3],!nas", 1, "ml110,ml115,neo");
	resolve_ok(inv, "@vmware !ml115", 0, "microserver3,ml110");
	resolve_ok(inv, "@microservers !@nas", 0, "microserver2,microserver3");
	resolve_ok(inv, "@vmware,!@microservers", 0, "ml110,ml115");
	/* an exclusion wins over any inclusion, before or after it */
	resolve_ok(inv, "!neo neo", 1, "microserver1,microserver2,"
	    "microserver3,ml110,ml115,nas");
	resolve_ok(inv, "neo ml110 !neo", 0, "ml110");
	resolve_ok(inv, "!@nas @nas microserver1 ml110", 0, "ml110");
	/* commas outside brackets split, inside they list */
	resolve_ok(inv, "ml110,neo", 0, "ml110,neo");
	resolve_ok(inv, "ml11[0,5],neo", 0, "ml110,ml115,neo");
	resolve_ok(inv, "neo,microserver[1,2],@nas", 0,
	    "microserver1,microserver2,nas,neo");
	/* inventory order, each once */
	resolve_ok(inv, "neo microserver1 neo", 0, "microserver1,neo");
	resolve_ok(inv, "@microservers microserver2 microserver[1-2]", 0,
	    "microserver1,microserver2,microserver3");
	resolve_ok(inv, "nas @nas nas,nas", 0, "microserver1,nas");

	/* errors */
	resolve_bad(inv, "ml111", 0, "unknown host 'ml111'", "did you mean");
	resolve_bad(inv, "microservr1", 0, "unknown host 'microservr1'",
	    "did you mean 'microserver1'?");
	resolve_bad(inv, "microserver[1-4]", 0, "unknown host 'microserver4'",
	    "did you mean");
	resolve_bad(inv, "quasarbox", 0, "unknown host 'quasarbox'",
	    "7 hosts known");
	resolve_bad(inv, "!ml111", 1, "unknown host 'ml111'", "did you mean");
	resolve_bad(inv, "ml110 neo,bogus", 0, "unknown host 'bogus'", NULL);
	resolve_bad(inv, "@nass", 0, "unknown group '@nass'",
	    "did you mean '@nas'?");
	resolve_bad(inv, "@vmwear", 0, "unknown group '@vmwear'",
	    "did you mean '@vmware'?");
	resolve_bad(inv, "@quasars", 0, "unknown group '@quasars'",
	    "lab ls groups");
	resolve_bad(inv, "!@quasars", 1, "unknown group '@quasars'", NULL);
	resolve_bad(inv, "@", 0, "unknown group", NULL);
	resolve_bad(inv, "!neo", 0, "only exclusions", "--all");
	resolve_bad(inv, "!neo !@nas", 0, "only exclusions", NULL);
	resolve_bad(inv, "", 0, "no target given", NULL);
	resolve_bad(inv, "sg200", 0, "'sg200' is a switch", NULL);
	resolve_bad(inv, "ml110,", 0, "empty target", NULL);
	resolve_bad(inv, "ml110,,neo", 0, "empty target", NULL);
	resolve_bad(inv, "!", 1, "empty target", NULL);
	resolve_bad(inv, "ml11[0-", 0, "never closed", NULL);
	resolve_bad(inv, "neo[3-1]", 0, "runs backwards", NULL);
	lab_inventory_free(inv);
}

/*
 * The cases lab checked against ClusterShell (nodeset(1) "Arithmetic
 * operations" and "Stepping", tests/NodeSetErrorTest.py) and pdsh (-x),
 * as data: the words, --all, and the hosts wanted (joined with ','), or
 * NULL and a piece of the error. The inventory is cluster_yaml below; a
 * case CS resolves without an inventory holds here because every host
 * it names is in it. Hosts come back in inventory (name) order, so
 * node10 sorts before node2. "from" says where each case comes from; "lab" marks
 * where lab deliberately differs (the reason beside it).
 */
static const char cluster_yaml[] =
	"groups:\n"
	"  - {name: empty}\n"
	"hosts:\n"
	"  - {name: node1, model: generic-server, groups: [rack1, chassis1]}\n"
	"  - {name: node2, model: generic-server, groups: [rack1, chassis1]}\n"
	"  - {name: node3, model: generic-server, groups: [rack1, chassis2]}\n"
	"  - {name: node4, model: generic-server,\n"
	"     groups: [rack1, gpu, chassis2]}\n"
	"  - {name: node5, model: generic-server,\n"
	"     groups: [rack1, gpu, chassis3]}\n"
	"  - {name: node6, model: generic-server, groups: [gpu, chassis3]}\n"
	"  - {name: node7, model: generic-server, groups: [gpu]}\n"
	"  - {name: node8, model: generic-server, groups: [gpu]}\n"
	"  - {name: node9, model: generic-server}\n"
	"  - {name: node10, model: generic-server}\n"
	"  - {name: node11, model: generic-server}\n"
	"  - {name: node12, model: generic-server}\n";

static const struct target_case {
	const char	*words;
	int		 all;
	const char	*want;		/* NULL: an error holding err */
	const char	*err;
	const char	*from;
} cluster_cases[] = {
	/* nodeset(1), Stepping: node[0-6/2] is 0,2,4,6 */
	{ "node[2-8/2]", 0, "node2,node4,node6,node8", NULL, "cs step" },
	{ "node[1-10/3]", 0, "node1,node10,node4,node7", NULL, "cs step" },
	/* nodeset(1), Extended patterns */
	{ "node[1-4],node[5-9]", 0, "node1,node2,node3,node4,node5,node6,"
	    "node7,node8,node9", NULL, "cs ," },
	{ "node[1-9]!node6", 0, "node1,node2,node3,node4,node5,node7,node8,"
	    "node9", NULL, "cs !" },
	{ "node[1-9]&node[6-12]", 0, "node6,node7,node8,node9", NULL,
	    "cs &" },
	{ "node[1-9]^node[6-11]", 0, "node1,node10,node11,node2,node3,node4,"
	    "node5", NULL, "cs ^" },
	/* nodeset -f node[1-9] -x node6 -i node[6-12], in one word */
	{ "node[1-9]!node6&node[6-12]", 0, "node7,node8,node9", NULL,
	    "cs left to right" },
	{ "node[1-3],node[2-5]!node3", 0, "node1,node2,node4,node5", NULL,
	    "cs left to right" },
	{ "node[1-10]!node[2-9],node5", 0, "node1,node10,node5", NULL,
	    "cs left to right" },
	/* groups inside one word */
	{ "@rack1&@gpu", 0, "node4,node5", NULL, "cs & on groups" },
	{ "@rack1!@gpu", 0, "node1,node2,node3", NULL, "cs ! on groups" },
	{ "@rack1^@gpu", 0, "node1,node2,node3,node6,node7,node8", NULL,
	    "cs ^ on groups" },
	{ "@gpu&node[1-12/2]", 0, "node5,node7", NULL, "cs & with a step" },
	{ "@chassis[1-3]", 0, "node1,node2,node3,node4,node5,node6", NULL,
	    "group range" },
	{ "@chassis[1,3]&@gpu", 0, "node5,node6", NULL, "group range" },
	{ "@empty", 0, "", NULL, "empty group" },
	/* pdsh -x, nodeset -x, xCAT: exclusion wins, whatever the order */
	{ "node[1-10] !node4 node4", 0, "node1,node10,node2,node3,node5,"
	    "node6,node7,node8,node9", NULL, "pdsh -x" },
	{ "!node4 node[1-5]", 0, "node1,node2,node3,node5", NULL, "pdsh -x" },
	{ "node[1-5],!node4,node4", 0, "node1,node2,node3,node5", NULL,
	    "lab: ,! excludes (cs: empty operand)" },
	{ "!@gpu @rack1 node6", 0, "node1,node2,node3", NULL, "pdsh -x" },
	{ "!node[1-12/2]", 1, "node10,node12,node2,node4,node6,node8", NULL,
	    "lab: leading ! with --all (cs: empty operand)" },
	{ "!@rack1&@gpu", 1, "node1,node10,node11,node12,node2,node3,node6,"
	    "node7,node8,node9", NULL, "lab: the exclusion runs to ','" },
	/* a word's own difference is a value, not an exclusion */
	{ "node[1-5]!node4 node4", 0, "node1,node2,node3,node4,node5", NULL,
	    "cs ! is set difference" },
	/* tests/NodeSetErrorTest.py test_empty_operand */
	{ "node1!", 0, NULL, "empty target after '!'", "cs" },
	{ "node1,", 0, NULL, "empty target after ','", "cs" },
	{ "node1&", 0, NULL, "empty target after '&'", "cs" },
	{ "node1^", 0, NULL, "empty target after '^'", "cs" },
	{ ",node1", 0, NULL, "no target before ','", "cs" },
	{ "&node1", 0, NULL, "no target before '&'", "cs" },
	{ "^node1", 0, NULL, "no target before '^'", "cs" },
	{ "!", 1, NULL, "empty target", "cs" },
	{ ",", 0, NULL, "no target before ','", "cs" },
	{ "&", 0, NULL, "no target before '&'", "cs" },
	{ "^", 0, NULL, "no target before '^'", "cs" },
	{ ",,,", 0, NULL, "no target before ','", "cs" },
	{ "node1,,node2", 0, NULL, "character 7: empty target before ','",
	    "cs" },
	{ "!node1", 0, NULL, "only exclusions", "lab: needs --all" },
	/* '!' after an operator: neither a difference nor an exclusion */
	{ "node1!!node8", 0, NULL, "character 7: '!' only starts an item",
	    "cs" },
	{ "node1&!node8", 0, NULL, "'!' only starts an item", "cs" },
	{ "!!node1", 1, NULL, "character 2: '!' only starts an item", "cs" },
	/* errors echo the word as typed and the operand's place */
	{ "node0!node8", 0, NULL, "target 'node0!node8', character 1: "
	    "unknown host 'node0'", "lab" },
	{ "node[1-3]&node13", 0, NULL, "target 'node[1-3]&node13', character "
	    "11: unknown host 'node13'", "lab: every name must be a host" },
	{ "node[1-9]&node[6-13]", 0, NULL, "unknown host 'node13'",
	    "lab: every name must be a host" },
	{ "@rack1&@gpus", 0, NULL, "character 8: unknown group '@gpus'; did "
	    "you mean '@gpu'?", "lab" },
	{ "@chassis[1-4]", 0, NULL, "target '@chassis[1-4]', character 1: "
	    "unknown group '@chassis4'", "lab" },
	{ "node[1-3]!node[3-1]", 0, NULL, "runs backwards", "cs" },
	{ "node[1-3/2]!node[3/2]", 0, NULL, "a step needs a range", "cs" },
};

static void
test_cluster_cases(void)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;
	size_t			 i;

	lab_err_init(&err);
	if ((inv = lab_inventory_new()) == NULL ||
	    lab_inventory_load_buf(inv, "cluster.yaml", cluster_yaml,
	    strlen(cluster_yaml), &err) != 0) {
		fprintf(stderr, "cannot load the cluster inventory: %s\n",
		    err.msg);
		tests_failed++;
		lab_inventory_free(inv);
		return;
	}
	lab_inventory_sort(inv);
	for (i = 0; i < sizeof(cluster_cases) / sizeof(cluster_cases[0]);
	    i++) {
		const struct target_case *c = &cluster_cases[i];

		if (c->want != NULL)
			resolve_ok(inv, c->words, c->all, c->want);
		else
			resolve_bad(inv, c->words, c->all, c->err, NULL);
	}
	lab_inventory_free(inv);
}

/* An inventory that was never sorted still resolves, in its own order. */
static void
test_resolve_unsorted(void)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;
	static const char	 yaml[] =
	    "hosts:\n"
	    "  - {name: zeta, model: generic-server}\n"
	    "  - {name: alpha, model: generic-server}\n"
	    "  - {name: mid, model: generic-server}\n";

	lab_err_init(&err);
	if ((inv = lab_inventory_new()) == NULL ||
	    lab_inventory_load_buf(inv, "u.yaml", yaml, strlen(yaml),
	    &err) != 0) {
		fprintf(stderr, "cannot load: %s\n", err.msg);
		tests_failed++;
		lab_inventory_free(inv);
		return;
	}
	resolve_ok(inv, "mid alpha zeta", 0, "zeta,alpha,mid");
	resolve_ok(inv, "alpha", 0, "alpha");
	resolve_ok(inv, "!zeta", 1, "alpha,mid");
	resolve_bad(inv, "alpah", 0, "did you mean 'alpha'?", NULL);
	lab_inventory_sort(inv);
	resolve_ok(inv, "mid alpha zeta", 0, "alpha,mid,zeta");
	lab_inventory_free(inv);
}

/* words (split at spaces) name want one by one (sorted, joined by ','). */
static void
named_ok(const struct lab_inventory *inv, const char *words, const char *want)
{
	struct lab_strv	 wv, sv;
	struct lab_err	 err;
	char		 got[256] = "", *copy, *w, *save = NULL;
	size_t		 i;

	lab_err_init(&err);
	lab_strv_init(&wv);
	copy = strdup(words);
	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		lab_strv_add(&wv, w);
	free(copy);
	CHECK(lab_target_named(inv, wv.v, wv.n, &sv, &err) == 0);
	for (i = 0; i < sv.n; i++) {
		if (i > 0)
			strncat(got, ",", sizeof(got) - strlen(got) - 1);
		strncat(got, sv.v[i], sizeof(got) - strlen(got) - 1);
	}
	CHECK_STR(got, want);
	lab_strv_release(&sv);
	lab_strv_release(&wv);
}

/* what a command line names explicitly: only exact host names */
static void
test_named(void)
{
	struct lab_inventory	*inv = load_inventory();
	struct lab_strv		 sv;
	struct lab_err		 err;

	CHECK(inv != NULL);
	if (inv == NULL)
		return;
	named_ok(inv, "nas", "nas");
	named_ok(inv, "@nas", "");
	named_ok(inv, "ml110 @vmware nas", "ml110,nas");
	named_ok(inv, "microserver[1-2] micro*", "");
	named_ok(inv, "neo,@nas,ml115", "ml115,neo");
	named_ok(inv, "@vmware,!ml110 !nas", "");
	named_ok(inv, "@vmware&ml110 neo!ml110", "");
	named_ok(inv, "nas nas,nas", "nas,nas,nas");
	named_ok(inv, "sg200 nosuch", "");
	lab_err_init(&err);
	{
		char	*w[] = { (char *)"neo", (char *)"ml110" };

		CHECK(lab_target_named(inv, w, 2, &sv, &err) == 0);
		CHECK(lab_target_is_named(&sv, "neo"));
		CHECK(lab_target_is_named(&sv, "ml110"));
		CHECK(!lab_target_is_named(&sv, "nas"));
		lab_strv_release(&sv);
	}
	lab_inventory_free(inv);
}

int
main(void)
{
	test_named();
	test_expand();
	test_resolve();
	test_resolve_unsorted();
	test_cluster_cases();
	TESTS_DONE();
}
