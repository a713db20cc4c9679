/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The MIB decoders against real captures (../shared/fixtures/snmp, read
 * from .snmprec files here, no network), checked against LibreNMS's own
 * decoding of each capture: tests/unit/mib/NAME.expect, made by hand with
 * tools/mib-expect.py. Accepted differences are in NAME.accept ("+ line":
 * lab prints it, LibreNMS does not; "- line": the reverse) and explained
 * in tests/unit/mib/DIFFERENCES.md. Then hostile input.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/mib.h"
#include "lab/str.h"

#include "tests.h"

/*
 * The captures: $LAB_SHARED/fixtures/snmp (LAB_SHARED is the shared/
 * folder, as for scripts/demo.sh), by default ../shared beside the source
 * tree. Missing: a skip (77), or a failure with LAB_TEST_REQUIRE_SIM=1.
 */
#define FIXTURES_DEFAULT	LAB_SRCDIR "/../shared"
#define EXPECT		LAB_SRCDIR "/tests/unit/mib"

static char	fixtures[4096];
static const char *const captures[] = {
	"ciscosb_sg350x-24p", "ciscosb_sg350-10", "ios_2960x",
};

struct vblist {
	struct lab_varbind	*v;
	size_t			 n;
	size_t			 cap;
};

static int
parse_oid(const char *s, unsigned long **ret, size_t *ret_len)
{
	unsigned long	 arcs[LAB_MIB_MAX_OID], v;
	size_t		 n = 0;
	char		*end;

	if (*s == '.')
		s++;
	while (*s != '\0') {
		if (!isdigit((unsigned char)*s) || n == LAB_MIB_MAX_OID)
			return -1;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno != 0)
			return -1;
		arcs[n++] = v;
		s = end;
		if (*s == '.')
			s++;
		else if (*s != '\0')
			return -1;
	}
	if (n == 0 || (*ret = malloc(n * sizeof(**ret))) == NULL)
		return -1;
	memcpy(*ret, arcs, n * sizeof(**ret));
	*ret_len = n;
	return 0;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One snmprec line into vb; -1 to skip it. */
static int
parse_line(char *line, struct lab_varbind *vb)
{
	char		*type, *val, *end;
	unsigned	 a, b, c, d;
	size_t		 i, len;
	long		 t;
	int		 hex;

	memset(vb, 0, sizeof(*vb));
	if ((type = strchr(line, '|')) == NULL)
		return -1;
	*type++ = '\0';
	if ((val = strchr(type, '|')) == NULL)
		return -1;
	*val++ = '\0';
	t = strtol(type, &end, 10);
	hex = *end == 'x';
	if (end == type || (*end != '\0' && !(hex && end[1] == '\0')))
		return -1;	/* variation modules and the like */
	if (parse_oid(line, &vb->oid, &vb->oid_len) == -1)
		return -1;
	errno = 0;
	switch (t) {
	case 2:
		vb->type = LAB_SNMP_INTEGER;
		vb->i = strtoll(val, &end, 10);
		break;
	case 65:
	case 66:
	case 67:
	case 70:
		vb->type = t == 65 ? LAB_SNMP_COUNTER32 : t == 66 ?
		    LAB_SNMP_GAUGE32 : t == 67 ? LAB_SNMP_TIMETICKS :
		    LAB_SNMP_COUNTER64;
		vb->u = strtoull(val, &end, 10);
		break;
	case 4:
		vb->type = LAB_SNMP_OCTETS;
		len = strlen(val);
		if (hex && len % 2 != 0)
			goto bad;
		if ((vb->str = malloc(len + 1)) == NULL)
			goto bad;
		if (hex) {
			for (i = 0; i < len / 2; i++) {
				if (hexval(val[2 * i]) < 0 ||
				    hexval(val[2 * i + 1]) < 0)
					goto bad;
				vb->str[i] = (unsigned char)(hexval(val[2 * i])
				    * 16 + hexval(val[2 * i + 1]));
			}
			vb->str_len = len / 2;
		} else {
			memcpy(vb->str, val, len);
			vb->str_len = len;
		}
		return 0;
	case 5:
		vb->type = LAB_SNMP_NULL;
		return 0;
	case 6:
		vb->type = LAB_SNMP_OID;
		if (parse_oid(val, &vb->oidv, &vb->oidv_len) == -1)
			goto bad;
		return 0;
	case 64:
		vb->type = LAB_SNMP_IPADDRESS;
		if (sscanf(val, "%u.%u.%u.%u", &a, &b, &c, &d) != 4 ||
		    a > 255 || b > 255 || c > 255 || d > 255)
			goto bad;
		vb->ip[0] = (unsigned char)a;
		vb->ip[1] = (unsigned char)b;
		vb->ip[2] = (unsigned char)c;
		vb->ip[3] = (unsigned char)d;
		return 0;
	default:
		goto bad;
	}
	if (errno == 0 && end != val && *end == '\0')
		return 0;
bad:
	free(vb->oid);
	free(vb->str);
	free(vb->oidv);
	memset(vb, 0, sizeof(*vb));
	return -1;
}

/* Reads an snmprec file; exits the test (failure) if it is missing. */
static void
read_snmprec(const char *path, struct vblist *l)
{
	FILE			*f;
	char			*line = NULL;
	size_t			 cap = 0;
	ssize_t			 len;
	struct lab_varbind	 vb, *p;

	memset(l, 0, sizeof(*l));
	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "%s: %s (the fixtures live in ../shared "
		    "beside the clone, or $LAB_SHARED)\n", path,
		    strerror(errno));
		exit(1);
	}
	while ((len = getline(&line, &cap, f)) != -1) {
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (parse_line(line, &vb) == -1)
			continue;
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 1024;
			if ((p = realloc(l->v, l->cap * sizeof(*p))) == NULL)
				abort();
			l->v = p;
		}
		l->v[l->n++] = vb;
	}
	free(line);
	fclose(f);
}

static const struct lab_snmp_port *
port_find(const struct lab_snmp_ports *ps, unsigned long ifindex)
{
	size_t	i;

	for (i = 0; i < ps->n; i++)
		if (ps->v[i].ifindex == ifindex)
			return &ps->v[i];
	return NULL;
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the lines of a file, without '#' comments; 0 if missing. */
static int
read_lines(const char *path, struct lab_strv *sv)
{
	FILE	*f;
	char	*line = NULL;
	size_t	 cap = 0;
	ssize_t	 len;

	lab_strv_init(sv);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while ((len = getline(&line, &cap, f)) != -1) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if (lab_strv_add(sv, line) == -1)
			abort();
	}
	free(line);
	fclose(f);
	return 1;
}

/* The decoders' view of a capture, in the .expect format. */
struct decoded {
	struct lab_snmp_system		sys;
	struct lab_snmp_ports		ports;
	struct lab_snmp_fdb		fdb;
	struct lab_snmp_bridge		bridge;
	struct lab_snmp_vlans		vlans;
	struct lab_snmp_lags		lags;
	struct lab_snmp_neighbors	nbrs;
};

static void
decode(const struct vblist *l, struct decoded *d)
{
	struct lab_err	err;

	lab_err_init(&err);
	memset(d, 0, sizeof(*d));
	CHECK(lab_mib_system(l->v, l->n, &d->sys, &err) == 0);
	CHECK(lab_mib_ifaces(l->v, l->n, &d->ports, &err) == 0);
	CHECK(lab_mib_duplex(l->v, l->n, &d->ports, &err) == 0);
	CHECK(lab_mib_bridge(l->v, l->n, &d->bridge, &err) == 0);
	CHECK(lab_mib_fdb(l->v, l->n, &d->fdb, &err) == 0);
	CHECK(lab_mib_vlan(l->v, l->n, &d->vlans, &err) == 0);
	CHECK(lab_mib_lag(l->v, l->n, &d->lags, &err) == 0);
	CHECK(lab_mib_cdp(l->v, l->n, &d->nbrs, &err) == 0);
	CHECK(lab_mib_lldp(l->v, l->n, &d->nbrs, &err) == 0);
	if (err.code != LAB_EXIT_OK)
		fprintf(stderr, "decode: %s\n", err.msg);
}

static void
decoded_release(struct decoded *d)
{
	lab_snmp_system_release(&d->sys);
	lab_snmp_ports_release(&d->ports);
	lab_snmp_fdb_release(&d->fdb);
	lab_snmp_bridge_release(&d->bridge);
	lab_snmp_vlans_release(&d->vlans);
	lab_snmp_lags_release(&d->lags);
	lab_snmp_neighbors_release(&d->nbrs);
}

/* Speed in bit/s as LibreNMS shows it: ifHighSpeed * 1e6 when non-zero,
 * else ifSpeed, else "-". */
static void
speed(const struct lab_snmp_port *p, char *buf, size_t len)
{
	if ((p->flags & LAB_PORT_HAS_HIGHSPEED) && p->high_speed > 0)
		snprintf(buf, len, "%llu",
		    (unsigned long long)p->high_speed * 1000000ULL);
	else if (p->flags & LAB_PORT_HAS_SPEED)
		snprintf(buf, len, "%lu", (unsigned long)p->if_speed);
	else
		snprintf(buf, len, "-");
}

static void
render(const struct decoded *d, const struct lab_strv *want,
    struct lab_strv *got)
{
	const struct lab_snmp_port	*p;
	const struct lab_snmp_neighbor	*nb;
	char				 key[64], sp[32];
	size_t				 i, j;
	int				 listed;

	lab_strv_init(got);
	lab_strv_take(got, lab_asprintf("sys %s|%s|%s",
	    d->sys.object_id ? d->sys.object_id : "",
	    d->sys.name ? d->sys.name : "", d->sys.descr ? d->sys.descr : ""));
	for (i = 0; i < d->ports.n; i++) {
		p = &d->ports.v[i];
		/* Only the ports LibreNMS kept (see DIFFERENCES.md). */
		snprintf(key, sizeof(key), "port %lu ", p->ifindex);
		listed = 0;
		for (j = 0; j < want->n && !listed; j++)
			listed = strncmp(want->v[j], key, strlen(key)) == 0;
		if (!listed)
			continue;
		speed(p, sp, sizeof(sp));
		/* LibreNMS shows an empty ifAlias as ifDescr. */
		lab_strv_take(got, lab_asprintf("port %lu %s|%s|%s|%s|%s|%s",
		    p->ifindex, p->name, p->alias[0] ? p->alias : p->descr,
		    sp, lab_snmp_status_name(p->oper_status),
		    lab_snmp_status_name(p->admin_status),
		    lab_snmp_duplex_name(p->duplex)));
	}
	for (i = 0; i < d->vlans.n; i++)
		lab_strv_take(got, lab_asprintf("vlan %lu %s",
		    d->vlans.v[i].id, d->vlans.v[i].name));
	for (i = 0; i < d->nbrs.n; i++) {
		nb = &d->nbrs.v[i];
		p = port_find(&d->ports, nb->port);
		lab_strv_take(got, lab_asprintf("nbr %s %s %s|%s|%s",
		    p ? p->name : "?",
		    nb->protocol == LAB_NBR_CDP ? "cdp" : "lldp",
		    nb->remote_device, nb->remote_port, nb->platform));
	}
	if (got->n > 0)
		qsort(got->v, got->n, sizeof(*got->v), strpcmp);
}

/* Compares lab's lines with LibreNMS's, allowing the accepted ones. */
static void
compare(const char *name, const struct decoded *d)
{
	struct lab_strv	 want, got, accept;
	char		 path[512], *line;
	size_t		 i;

	snprintf(path, sizeof(path), "%s/%s.expect", EXPECT, name);
	if (!read_lines(path, &want)) {
		fprintf(stderr, "%s: missing\n", path);
		tests_failed++;
		return;
	}
	snprintf(path, sizeof(path), "%s/%s.accept", EXPECT, name);
	read_lines(path, &accept);
	render(d, &want, &got);
	for (i = 0; i < want.n; i++) {
		if (lab_strv_find(&got, want.v[i]) >= 0)
			continue;
		line = lab_asprintf("- %s", want.v[i]);
		if (lab_strv_find(&accept, line) < 0) {
			fprintf(stderr, "%s: LibreNMS has, lab lacks: %s\n",
			    name, want.v[i]);
			tests_failed++;
		}
		free(line);
	}
	for (i = 0; i < got.n; i++) {
		if (lab_strv_find(&want, got.v[i]) >= 0)
			continue;
		line = lab_asprintf("+ %s", got.v[i]);
		if (lab_strv_find(&accept, line) < 0) {
			fprintf(stderr, "%s: lab has, LibreNMS lacks: %s\n",
			    name, got.v[i]);
			tests_failed++;
		}
		free(line);
	}
	/* Every accepted difference must still be one. */
	for (i = 0; i < accept.n; i++) {
		line = accept.v[i] + 2;
		if (strlen(accept.v[i]) < 2 ||
		    (accept.v[i][0] == '+' && (lab_strv_find(&got, line) < 0 ||
		    lab_strv_find(&want, line) >= 0)) ||
		    (accept.v[i][0] == '-' && (lab_strv_find(&want, line) < 0 ||
		    lab_strv_find(&got, line) >= 0))) {
			fprintf(stderr, "%s: stale accept line: %s\n", name,
			    accept.v[i]);
			tests_failed++;
		}
	}
	lab_strv_release(&want);
	lab_strv_release(&got);
	lab_strv_release(&accept);
}

static const struct lab_snmp_fdb_entry *
fdb_find(const struct lab_snmp_fdb *f, const char *mac, unsigned long vlan)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].mac, mac) == 0 && f->v[i].vlan == vlan)
			return &f->v[i];
	return NULL;
}

static const struct lab_snmp_vlan *
vlan_find(const struct lab_snmp_vlans *vl, unsigned long id)
{
	size_t	i;

	for (i = 0; i < vl->n; i++)
		if (vl->v[i].id == id)
			return &vl->v[i];
	return NULL;
}

static const struct lab_snmp_neighbor *
nbr_find(const struct lab_snmp_neighbors *nb, unsigned long port, int proto)
{
	size_t	i;

	for (i = 0; i < nb->n; i++)
		if (nb->v[i].port == port && (int)nb->v[i].protocol == proto)
			return &nb->v[i];
	return NULL;
}

static void
load(const char *name, struct vblist *l, struct decoded *d)
{
	char	path[4200];

	snprintf(path, sizeof(path), "%s/%s.snmprec", fixtures, name);
	read_snmprec(path, l);
	CHECK(l->n > 100);
	decode(l, d);
	compare(name, d);
}

/* SG350X-24P: Q-BRIDGE FDB, VLANs with mangled lists, CDP and LLDP. */
static void
test_sg350x(void)
{
	struct vblist				 l;
	struct decoded				 d;
	const struct lab_snmp_fdb_entry		*e;
	const struct lab_snmp_vlan		*v;
	const struct lab_snmp_neighbor		*nb;
	const struct lab_snmp_port		*p;

	load("ciscosb_sg350x-24p", &l, &d);
	CHECK(d.ports.n == 233);
	CHECK(d.sys.has_uptime);
	CHECK(d.bridge.n == 216);
	CHECK(lab_snmp_bridge_ifindex(&d.bridge, 49) == 49);
	CHECK(d.fdb.qbridge == 1);
	CHECK(d.fdb.n == 282);
	/* 1.3.6.1.2.1.17.7.1.2.2.1.2.1.0.12.21.3.107.113 = 14 */
	e = fdb_find(&d.fdb, "00:0c:15:03:6b:71", 1);
	CHECK(e != NULL && e->port == 14);
	CHECK(d.vlans.n == 12);
	v = vlan_find(&d.vlans, 1);
	/* Current egress of VLAN 1: 9C FF*15 then "\nFF FF ..." text. */
	CHECK(v != NULL && v->lists_mangled);
	CHECK(v != NULL && v->egress.n == 4 + 15 * 8);
	CHECK(v != NULL && v->egress.n > 0 && v->egress.v[0] == 1);
	v = vlan_find(&d.vlans, 2);
	/* FFFFFF000000F0: ports 1-24 and 49-52. */
	CHECK(v != NULL && v->egress.n == 28 && v->egress.v[24] == 49);
	CHECK(d.vlans.npvid == 216);
	CHECK(d.lags.n == 8);
	CHECK(d.lags.n == 0 || d.lags.v[0].members.n == 0);
	nb = nbr_find(&d.nbrs, 14, LAB_NBR_CDP);
	CHECK(nb != NULL);
	if (nb != NULL) {
		CHECK_STR(nb->address, "192.168.177.27");
		CHECK_STR(nb->remote_port, "gi10");
		CHECK_HAS(nb->platform, "SG300-10PP");
	}
	nb = nbr_find(&d.nbrs, 17, LAB_NBR_LLDP);
	CHECK(nb != NULL);
	if (nb != NULL) {
		CHECK_STR(nb->remote_device, "InforaumPC");
		CHECK_STR(nb->address, "192.168.177.194");
		CHECK_HAS(nb->version, "USW-Flex");
	}
	p = port_find(&d.ports, 49);
	CHECK(p != NULL && p->speed_mbps == 10000 &&
	    !(p->flags & LAB_PORT_SPEED_SUSPECT));
	decoded_release(&d);
	lab_varbinds_free(l.v, l.n);
}

/* SG350-10: ifSpeed in Mb/s by mistake, aliases, PVIDs, no bridge. */
static void
test_sg350_10(void)
{
	struct vblist			 l;
	struct decoded			 d;
	const struct lab_snmp_port	*p;

	load("ciscosb_sg350-10", &l, &d);
	CHECK(d.ports.n == 23);
	p = port_find(&d.ports, 4);
	CHECK(p != NULL && p->if_speed == 10 &&
	    (p->flags & LAB_PORT_SPEED_SUSPECT) && p->speed_mbps == 0);
	p = port_find(&d.ports, 1);
	CHECK(p != NULL && (p->flags & LAB_PORT_SPEED_SUSPECT));
	CHECK(p != NULL && p->duplex == LAB_DUPLEX_FULL);
	CHECK_STR(p ? p->alias : NULL, "Device A");
	p = port_find(&d.ports, 7000);
	CHECK(p != NULL && p->speed_mbps == 100 &&
	    !(p->flags & LAB_PORT_SPEED_SUSPECT));
	CHECK(d.bridge.n == 0);
	CHECK(d.fdb.n == 0);
	CHECK(d.vlans.n == 0);
	CHECK(d.vlans.npvid == 18);
	CHECK(d.lags.n == 8);
	CHECK(d.nbrs.n == 0);
	decoded_release(&d);
	lab_varbinds_free(l.v, l.n);
}

/* 2960-X: BRIDGE-MIB FDB with bridge port != ifIndex, CDP. */
static void
test_2960x(void)
{
	struct vblist				 l;
	struct decoded				 d;
	const struct lab_snmp_fdb_entry		*e;
	const struct lab_snmp_neighbor		*nb;

	load("ios_2960x", &l, &d);
	CHECK(d.ports.n == 146);
	CHECK(d.bridge.n == 17);
	CHECK(d.fdb.qbridge == 0);
	CHECK(d.fdb.n == 29);
	/* 1.3.6.1.2.1.17.4.3.1.2.100.246.157.177.219.12 = 5 -> 10105 */
	e = fdb_find(&d.fdb, "64:f6:9d:b1:db:0c", 0);
	CHECK(e != NULL && e->bridge_port == 5 && e->port == 10105);
	e = fdb_find(&d.fdb, "04:62:73:20:de:14", 0);
	CHECK(e != NULL && e->bridge_port == 456 && e->port == 5001);
	CHECK(d.vlans.n == 0);
	CHECK(d.lags.n == 0);
	nb = nbr_find(&d.nbrs, 10103, LAB_NBR_CDP);
	CHECK(nb != NULL);
	CHECK(d.nbrs.n == 7);
	decoded_release(&d);
	lab_varbinds_free(l.v, l.n);
}

/* A heap varbind with the OID given as text. */
static struct lab_varbind
vb_new(const char *oid, enum lab_snmp_type type)
{
	struct lab_varbind	vb;
	char			buf[512];

	memset(&vb, 0, sizeof(vb));
	snprintf(buf, sizeof(buf), "%s", oid);
	if (parse_oid(buf, &vb.oid, &vb.oid_len) == -1)
		abort();
	vb.type = type;
	return vb;
}

static struct lab_varbind
vb_str(const char *oid, const void *p, size_t len)
{
	struct lab_varbind	vb = vb_new(oid, LAB_SNMP_OCTETS);

	if ((vb.str = malloc(len ? len : 1)) == NULL)
		abort();
	if (len > 0)
		memcpy(vb.str, p, len);
	vb.str_len = len;
	return vb;
}

static struct lab_varbind
vb_int(const char *oid, enum lab_snmp_type type, long long v)
{
	struct lab_varbind	vb = vb_new(oid, type);

	if (type == LAB_SNMP_INTEGER)
		vb.i = v;
	else
		vb.u = (uint64_t)v;
	return vb;
}

static void
test_hostile(void)
{
	struct lab_varbind	 vbs[16], *big;
	struct decoded		 d;
	struct vblist		 l;
	unsigned char		 pl[4000];
	size_t			 n, i;

	/* Nothing at all. */
	memset(&l, 0, sizeof(l));
	decode(&l, &d);
	CHECK(d.ports.n == 0 && d.fdb.n == 0 && d.vlans.n == 0 &&
	    d.lags.n == 0 && d.nbrs.n == 0 && d.sys.descr == NULL);
	decoded_release(&d);

	/* Wrong types, short and long indexes, a 5-byte MAC, duplicates. */
	n = 0;
	vbs[n++] = vb_int("1.3.6.1.2.1.1.1.0", LAB_SNMP_INTEGER, 5);
	vbs[n++] = vb_str("1.3.6.1.2.1.1.2.0", "x", 1);
	vbs[n++] = vb_str("1.3.6.1.2.1.2.2.1.2", "noindex", 7);
	vbs[n++] = vb_str("1.3.6.1.2.1.2.2.1.2.0", "zero", 4);
	vbs[n++] = vb_str("1.3.6.1.2.1.2.2.1.2.7.7", "twoarcs", 7);
	vbs[n++] = vb_int("1.3.6.1.2.1.2.2.1.8.3", LAB_SNMP_INTEGER, 99);
	vbs[n++] = vb_str("1.3.6.1.2.1.2.2.1.5.3", "fast", 4);
	vbs[n++] = vb_str("1.3.6.1.2.1.31.1.1.1.1.3", "gi\0x", 4);
	vbs[n++] = vb_str("1.3.6.1.2.1.31.1.1.1.1.3", "gi3", 3);
	vbs[n++] = vb_int("1.3.6.1.2.1.17.7.1.2.2.1.2.1.0.1.2.3.4",
	    LAB_SNMP_INTEGER, 3);
	vbs[n++] = vb_int("1.3.6.1.2.1.17.4.3.1.2.0.1.2.3.4.999",
	    LAB_SNMP_INTEGER, 3);
	vbs[n++] = vb_str("1.3.6.1.4.1.9.9.23.1.2.1.1.6.3", "short", 5);
	vbs[n++] = vb_int("1.0.8802.1.1.2.1.4.1.1.9.0.3", LAB_SNMP_INTEGER, 1);
	decode(&(struct vblist){ vbs, n, n }, &d);
	CHECK(d.sys.descr == NULL && d.sys.object_id == NULL);
	CHECK(d.ports.n == 1);
	if (d.ports.n == 1) {
		CHECK(d.ports.v[0].ifindex == 3);
		CHECK_STR(d.ports.v[0].name, "gi3");
		CHECK(d.ports.v[0].oper_status == 0);
		CHECK(!(d.ports.v[0].flags & LAB_PORT_HAS_SPEED));
	}
	CHECK(d.fdb.n == 0);
	CHECK(d.nbrs.n == 0);
	decoded_release(&d);
	for (i = 0; i < n; i++) {
		free(vbs[i].oid);
		free(vbs[i].str);
	}

	/* A 4000-byte PortList, all ports set, no bridge map. */
	memset(pl, 0xff, sizeof(pl));
	n = 0;
	vbs[n++] = vb_str("1.3.6.1.2.1.17.7.1.4.3.1.2.5", pl, sizeof(pl));
	vbs[n++] = vb_str("1.3.6.1.2.1.17.7.1.4.3.1.4.5", pl, 3);
	vbs[n++] = vb_str("1.3.6.1.2.1.17.7.1.4.3.1.1.5", "five", 4);
	vbs[n++] = vb_str("1.3.6.1.2.1.17.7.1.4.3.1.1.4095", "big", 3);
	vbs[n++] = vb_int("1.3.6.1.2.1.17.7.1.4.5.1.1.1", LAB_SNMP_GAUGE32,
	    70000);
	decode(&(struct vblist){ vbs, n, n }, &d);
	CHECK(d.vlans.n == 1);
	if (d.vlans.n == 1) {
		CHECK(d.vlans.v[0].egress.n == LAB_MIB_MAX_PORTLIST * 8);
		CHECK(d.vlans.v[0].untagged.n == 24);
		CHECK_STR(d.vlans.v[0].name, "five");
	}
	CHECK(d.vlans.npvid == 0);
	decoded_release(&d);
	for (i = 0; i < n; i++) {
		free(vbs[i].oid);
		free(vbs[i].str);
	}

	/* Too many rows is an input error, not a crash. */
	n = LAB_MIB_MAX_ROWS + 1;
	if ((big = calloc(n, sizeof(*big))) == NULL)
		abort();
	for (i = 0; i < n; i++) {
		char	oid[64];

		snprintf(oid, sizeof(oid), "1.3.6.1.2.1.2.2.1.3.%zu", i + 1);
		big[i] = vb_int(oid, LAB_SNMP_INTEGER, 6);
	}
	{
		struct lab_snmp_ports	ps;
		struct lab_err		err;

		lab_err_init(&err);
		CHECK(lab_mib_ifaces(big, n, &ps, &err) == -1);
		CHECK(err.code == LAB_EXIT_INPUT);
		CHECK(ps.n == 0 && ps.v == NULL);
		lab_err_init(&err);
		CHECK(lab_mib_ifaces(big, n - 1, &ps, &err) == 0);
		CHECK(ps.n == LAB_MIB_MAX_ROWS);
		lab_snmp_ports_release(&ps);
	}
	lab_varbinds_free(big, n);
}

/*
 * Sets fixtures; exits 77 (skip) when a capture is missing, or 1 when
 * LAB_TEST_REQUIRE_SIM=1 says they must be there.
 */
static void
find_fixtures(void)
{
	const char	*shared = getenv("LAB_SHARED");
	const char	*req = getenv("LAB_TEST_REQUIRE_SIM");
	char		 path[4200];
	size_t		 i;
	int		 require = req != NULL && strcmp(req, "1") == 0;

	if (shared == NULL || *shared == '\0')
		shared = FIXTURES_DEFAULT;
	if ((size_t)snprintf(fixtures, sizeof(fixtures), "%s/fixtures/snmp",
	    shared) >= sizeof(fixtures)) {
		fprintf(stderr, "test-mib: LAB_SHARED is too long\n");
		exit(1);
	}
	for (i = 0; i < sizeof(captures) / sizeof(captures[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.snmprec", fixtures,
		    captures[i]);
		if (access(path, R_OK) == 0)
			continue;
		fprintf(stderr, "test-mib: %s: %s: the SNMP captures are "
		    "missing (they live in shared/fixtures/snmp: ../shared "
		    "beside the source tree, or the folder LAB_SHARED "
		    "names); %s\n", path, strerror(errno), require ?
		    "LAB_TEST_REQUIRE_SIM=1 makes this a failure" :
		    "skipping");
		exit(require ? 1 : 77);
	}
}

int
main(void)
{
	find_fixtures();
	test_sg350x();
	test_sg350_10();
	test_2960x();
	test_hostile();
	TESTS_DONE();
}
