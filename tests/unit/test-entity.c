/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The ENTITY-MIB decoder and the sysDescr version against the real
 * captures (../shared/fixtures/snmp, or $LAB_SHARED/fixtures/snmp; read
 * here, no network): the serials and revisions are the captures' own
 * rows. Then the switch facts as stored keys and back, and the known
 * issues they match.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/facts.h"
#include "lab/mib.h"
#include "lab/switch.h"

#include "tests.h"

#define FIXTURES_DEFAULT	LAB_SRCDIR "/../shared"

static char	fixtures[4096];

struct vblist {
	struct lab_varbind	*v;
	size_t			 n, cap;
};

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* OID text into vb->oid; -1 when not dotted numbers. */
static int
oid(const char *s, struct lab_varbind *vb)
{
	unsigned long	arcs[LAB_MIB_MAX_OID];
	char		*end;

	vb->oid_len = 0;
	while (*s != '\0') {
		if (!isdigit((unsigned char)*s) ||
		    vb->oid_len == LAB_MIB_MAX_OID)
			return -1;
		arcs[vb->oid_len++] = strtoul(s, &end, 10);
		s = *end == '.' ? end + 1 : end;
		if (*end != '.' && *end != '\0')
			return -1;
	}
	if ((vb->oid = malloc(vb->oid_len * sizeof(*vb->oid) + 1)) == NULL)
		abort();
	memcpy(vb->oid, arcs, vb->oid_len * sizeof(*vb->oid));
	return 0;
}

/* The INTEGER (2) and OCTET STRING (4, 4x) rows of a capture. */
static void
load(const char *name, struct vblist *l)
{
	struct lab_varbind	 vb, *p;
	char			 path[4200], *line = NULL, *type, *val;
	size_t			 cap = 0, len, i;
	ssize_t			 r;
	FILE			*f;

	memset(l, 0, sizeof(*l));
	snprintf(path, sizeof(path), "%s/%s.snmprec", fixtures, name);
	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		exit(1);
	}
	while ((r = getline(&line, &cap, f)) != -1) {
		while (r > 0 && (line[r - 1] == '\n' || line[r - 1] == '\r'))
			line[--r] = '\0';
		memset(&vb, 0, sizeof(vb));
		if ((type = strchr(line, '|')) == NULL ||
		    (val = strchr(type + 1, '|')) == NULL)
			continue;
		*type++ = '\0';
		*val++ = '\0';
		if (strcmp(type, "2") == 0) {
			vb.type = LAB_SNMP_INTEGER;
			vb.i = strtoll(val, NULL, 10);
		} else if (strcmp(type, "4") == 0 || strcmp(type, "4x") == 0) {
			vb.type = LAB_SNMP_OCTETS;
			len = strlen(val);
			if ((vb.str = malloc(len + 1)) == NULL)
				abort();
			if (type[1] == 'x') {
				for (i = 0; i + 1 < len; i += 2)
					vb.str[i / 2] = (unsigned char)(
					    hexval(val[i]) * 16 +
					    hexval(val[i + 1]));
				vb.str_len = len / 2;
			} else {
				memcpy(vb.str, val, len);
				vb.str_len = len;
			}
		} else
			continue;
		if (oid(line, &vb) == -1) {
			free(vb.str);
			continue;
		}
		/* doubling: one realloc a row is quadratic (minutes
		   under AddressSanitizer, which moves every block) */
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 1024;
			if ((p = realloc(l->v, l->cap * sizeof(*p))) == NULL)
				abort();
			l->v = p;
		}
		l->v[l->n++] = vb;
	}
	free(line);
	fclose(f);
}

static const struct lab_entity *
ent(const struct lab_switch_facts *sf, long index)
{
	size_t	i;

	for (i = 0; i < sf->nents; i++)
		if (sf->ents[i].index == index)
			return &sf->ents[i];
	return NULL;
}

static void
check_ent(const struct lab_switch_facts *sf, long index, const char *class,
    const char *model, const char *serial, const char *hw, const char *fw,
    const char *sw)
{
	const struct lab_entity	*e = ent(sf, index);

	CHECK(e != NULL);
	if (e == NULL) {
		fprintf(stderr, "  entity %ld missing\n", index);
		return;
	}
	CHECK_STR(e->class_name, class);
	CHECK_STR(e->model, model);
	CHECK_STR(e->serial, serial);
	CHECK_STR(e->hardware_rev, hw);
	CHECK_STR(e->firmware_rev, fw);
	CHECK_STR(e->software_rev, sw);
}

/* A known-issues list from YAML text. */
static void
issues(struct lab_known_issues *k, const char *yaml)
{
	struct lab_err	err;

	memset(&err, 0, sizeof(err));
	lab_known_issues_init(k);
	if (lab_known_issues_load_buf(k, "ki.yaml", yaml, strlen(yaml),
	    &err) == -1) {
		fprintf(stderr, "ki.yaml: %s\n", err.msg);
		tests_failed++;
	}
}

#define KI(match) "known_issues:\n  - match: " match "\n" \
	"    severity: warning\n    message: upgrade\n    source: test\n"

/* SG350X-24P: sysDescr names no version: the chassis's software rev. */
static void
test_sg350x(void)
{
	struct lab_switch_facts	 sf;
	struct lab_known_issues	 k;
	struct lab_switch	 sw = { .name = "sg", .model = "generic-switch" };
	struct lab_err		 err;
	struct vblist		 l;
	const struct lab_entity	*e;

	memset(&err, 0, sizeof(err));
	load("ciscosb_sg350x-24p", &l);
	CHECK(lab_mib_entity(l.v, l.n, &sf, &err) == 0);
	/* the stack, unit 1 and its motherboard; units 2-4 are empty slots */
	CHECK(sf.nents == 3);
	check_ent(&sf, 67109120, "chassis", "SG350X-24P-K9", "DNI232304PG",
	    "V04", "3.5.7.13", "2.5.9.13");
	check_ent(&sf, 128, "stack", NULL, NULL, NULL, NULL, NULL);
	check_ent(&sf, 68421120, "module", NULL, NULL, NULL, NULL, NULL);
	if ((e = ent(&sf, 67109120)) != NULL) {
		CHECK_STR(e->name, "SG350X-24P Stack Unit 1");
		CHECK_STR(e->descr, "SG350X-24P 24-Port Gigabit PoE Stackable "
		    "Managed Switch");
	}
	CHECK(ent(&sf, 134217984) == NULL);
	CHECK_STR(sf.version, "2.5.9.13");
	CHECK(sf.ents[0].index == 128);

	/* a known issue of its firmware fires; another version does not */
	issues(&k, KI("{component: switch, product: \"SG350X-*\", "
	    "below: \"2.5.9.14\"}"));
	CHECK(lab_switch_facts_check(&sw, &k, &sf, &err) == 0);
	CHECK(sf.findings.n == 1);
	if (sf.findings.n == 1) {
		CHECK_STR(sf.findings.v[0].kind, "known-issue");
		CHECK_HAS(sf.findings.v[0].subject, "sg");
	}
	lab_known_issues_release(&k);
	lab_fact_findings_release(&sf.findings);
	issues(&k, KI("{component: switch, equal: \"2.5.9.12\"}"));
	CHECK(lab_switch_facts_check(&sw, &k, &sf, &err) == 0);
	CHECK(sf.findings.n == 0);
	lab_known_issues_release(&k);
	lab_switch_facts_release(&sf);
	lab_varbinds_free(l.v, l.n);
}

/* The IOS 2960-X stack of three: the version is sysDescr's. */
static void
test_2960x(void)
{
	struct lab_switch_facts	 sf, back;
	struct lab_known_issues	 k;
	struct lab_switch	 sw = { .name = "c2960", .model = "generic-switch" };
	struct lab_fact_kv	*kv = NULL;
	struct lab_err		 err;
	struct vblist		 l;
	unsigned long		 idx[16];
	size_t			 n = 0, i;

	memset(&err, 0, sizeof(err));
	load("ios_2960x", &l);
	/* the rows discovery GETs: all 7, or the lowest 3 */
	CHECK(lab_mib_entity_indexes(l.v, l.n, idx, 16) == 7);
	CHECK(idx[0] == 1 && idx[1] == 1001 && idx[2] == 1002 &&
	    idx[5] == 3001 && idx[6] == 3002);
	CHECK(lab_mib_entity_indexes(l.v, l.n, idx, 3) == 3);
	CHECK(idx[0] == 1 && idx[1] == 1001 && idx[2] == 1002);
	CHECK(lab_mib_entity(l.v, l.n, &sf, &err) == 0);
	CHECK(sf.nents == 7);
	CHECK_STR(sf.version, "15.0(2a)EX5");
	check_ent(&sf, 1001, "chassis", "WS-C2960X-48FPS-L", "FCW1929B68S",
	    "V02", "15.0(2a)EX5", "15.0(2a)EX5");
	check_ent(&sf, 2001, "chassis", "WS-C2960X-24PS-L", "FCW1931A06Z",
	    "V02", "15.0(2a)EX5", "15.0(2a)EX5");
	check_ent(&sf, 3001, "chassis", "WS-C2960X-48FPS-L", "FCW1929B6BP",
	    "V02", "15.0(2a)EX5", "15.0(2a)EX5");
	check_ent(&sf, 1, "stack", NULL, NULL, NULL, NULL, NULL);
	check_ent(&sf, 2002, "module", NULL, NULL, NULL, NULL, NULL);
	if (ent(&sf, 1) != NULL)
		CHECK_STR(ent(&sf, 1)->name, "C29xx Stacking");

	/* as facts: sorted keys, and back */
	CHECK(lab_switch_facts_flatten(&sf, &kv, &n, &err) == 0);
	for (i = 1; i < n; i++)
		CHECK(strcmp(kv[i - 1].key, kv[i].key) < 0);
	for (i = 0; i < n; i++)
		if (strcmp(kv[i].key, "entity.2001.serial") == 0)
			break;
	CHECK(i < n);
	if (i < n)
		CHECK_STR(kv[i].value, "FCW1931A06Z");
	CHECK_STR(n > 0 ? kv[n - 1].key : NULL, "version");
	CHECK(lab_switch_facts_unflatten(kv, n, &back, &err) == 0);
	CHECK(back.nents == 7);
	CHECK_STR(back.version, "15.0(2a)EX5");
	check_ent(&back, 3001, "chassis", "WS-C2960X-48FPS-L", "FCW1929B6BP",
	    "V02", "15.0(2a)EX5", "15.0(2a)EX5");
	CHECK(back.nents == 7 && back.ents[0].index == 1 &&
	    back.ents[6].index == 3002);
	lab_switch_facts_release(&back);
	lab_fact_kvs_free(kv, n);

	/* one finding a distinct model and version: two of the three */
	issues(&k, KI("{component: switch, product: \"WS-C2960X-*\", "
	    "below: \"15.2\"}"));
	CHECK(lab_switch_facts_check(&sw, &k, &sf, &err) == 0);
	CHECK(sf.findings.n == 2);
	lab_known_issues_release(&k);
	lab_switch_facts_release(&sf);
	lab_varbinds_free(l.v, l.n);
}

/* SG350-10: no ENTITY-MIB, no version: nothing, not an error. */
static void
test_sg350_10(void)
{
	struct lab_switch_facts	 sf;
	struct lab_err		 err;
	struct vblist		 l;

	memset(&err, 0, sizeof(err));
	load("ciscosb_sg350-10", &l);
	CHECK(lab_mib_entity(l.v, l.n, &sf, &err) == 0);
	CHECK(sf.nents == 0);
	CHECK(sf.version == NULL);
	lab_switch_facts_release(&sf);
	lab_varbinds_free(l.v, l.n);
}

static void
test_sysdescr(void)
{
	char	buf[32];

	CHECK(lab_mib_sysdescr_version("Cisco IOS Software, C2960X Software "
	    "(C2960X-UNIVERSALK9-M), Version 15.2(2)E7, RELEASE SOFTWARE "
	    "(fc3)", buf, sizeof(buf)) == 1);
	CHECK_STR(buf, "15.2(2)E7");
	CHECK(lab_mib_sysdescr_version("SG350X-24P 24-Port Gigabit PoE "
	    "Stackable Managed Switch", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "");
	CHECK(lab_mib_sysdescr_version("Version 1.2.3", buf, sizeof(buf)) == 1);
	CHECK_STR(buf, "1.2.3");
	CHECK(lab_mib_sysdescr_version("Firmware version: 2.0.1 build 5", buf,
	    sizeof(buf)) == 1);
	CHECK_STR(buf, "2.0.1");
	/* not a version: a word that ends in it, a word after it */
	CHECK(lab_mib_sysdescr_version("Subversion 1.0", buf,
	    sizeof(buf)) == 0);
	CHECK(lab_mib_sysdescr_version("Version unknown", buf,
	    sizeof(buf)) == 0);
	CHECK(lab_mib_sysdescr_version("Version 1.2", buf, 3) == 0);
	CHECK(lab_mib_sysdescr_version(NULL, buf, sizeof(buf)) == 0);
}

static struct lab_varbind
vb_int(unsigned long col, unsigned long index, long long v)
{
	static unsigned long	oids[16][13];
	static size_t		next;
	struct lab_varbind	b;
	unsigned long		*o = oids[next++ % 16];
	const unsigned long	 pre[] = { 1, 3, 6, 1, 2, 1, 47, 1, 1, 1, 1 };

	memcpy(o, pre, sizeof(pre));
	o[11] = col;
	o[12] = index;
	memset(&b, 0, sizeof(b));
	b.oid = o;
	b.oid_len = 13;
	b.type = LAB_SNMP_INTEGER;
	b.i = v;
	return b;
}

/* Rows with a wrong type, a zero index or no class are skipped. */
static void
test_hostile(void)
{
	struct lab_switch_facts	 sf;
	struct lab_varbind	 v[6];
	struct lab_err		 err;
	unsigned char		 s[] = "X1";

	memset(&err, 0, sizeof(err));
	v[0] = vb_int(5, 0, 3);		/* index 0 */
	v[1] = vb_int(5, 7, 3);		/* a chassis */
	v[2] = vb_int(11, 7, 0);	/* its serial as an INTEGER: skipped */
	v[3] = vb_int(11, 7, 0);
	v[3].type = LAB_SNMP_OCTETS;
	v[3].str = s;
	v[3].str_len = 2;
	v[4] = vb_int(11, 8, 0);	/* a serial of a row with no class */
	v[4].type = LAB_SNMP_OCTETS;
	v[4].str = s;
	v[4].str_len = 2;
	v[5] = vb_int(5, 9, 10);	/* a port: not kept */
	CHECK(lab_mib_entity(v, 6, &sf, &err) == 0);
	CHECK(sf.nents == 1);
	if (sf.nents == 1) {
		CHECK(sf.ents[0].index == 7);
		CHECK_STR(sf.ents[0].serial, "X1");
	}
	CHECK(sf.version == NULL);
	lab_switch_facts_release(&sf);
	CHECK(lab_mib_entity(NULL, 0, &sf, &err) == 0);
	CHECK(sf.nents == 0 && sf.ents == NULL);
}

static void
find_fixtures(void)
{
	const char	*shared = getenv("LAB_SHARED");
	const char	*req = getenv("LAB_TEST_REQUIRE_SIM");
	char		 path[4200];

	if (shared == NULL || *shared == '\0')
		shared = FIXTURES_DEFAULT;
	snprintf(fixtures, sizeof(fixtures), "%s/fixtures/snmp", shared);
	snprintf(path, sizeof(path), "%s/ios_2960x.snmprec", fixtures);
	if (access(path, R_OK) == 0)
		return;
	fprintf(stderr, "test-entity: %s: %s: the SNMP captures are missing; "
	    "%s\n", path, strerror(errno), req != NULL && strcmp(req, "1") ==
	    0 ? "LAB_TEST_REQUIRE_SIM=1 makes this a failure" : "skipping");
	exit(req != NULL && strcmp(req, "1") == 0 ? 1 : 77);
}

int
main(void)
{
	test_sysdescr();
	test_hostile();
	find_fixtures();
	test_sg350x();
	test_2960x();
	test_sg350_10();
	TESTS_DONE();
}
