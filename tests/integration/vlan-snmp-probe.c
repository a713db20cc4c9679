/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A test driver for lib/snmp's VLAN side: one session, one verb, plain
 * output.
 *
 *	vlan-snmp-probe ADDRESS PORT set OID i|u|s|x VALUE ...
 *	vlan-snmp-probe ADDRESS PORT get OID ...
 *	vlan-snmp-probe ADDRESS PORT probe|save|read
 *
 * The community comes from $LAB_TEST_COMMUNITY (never argv). set sends
 * every OID in one PDU (x: hex octets) and prints "sets: N varbinds: M";
 * get prints "OID = TYPE: VALUE" (x for octets, in hex); probe prints
 * "qbridge N ciscosb N copy N writable N" then "why: ..."; read prints
 * "list_len N qbridge N ciscosb N", a line "vlan ID NAME egress
 * IFINDEX,... untagged IFINDEX,..." a VLAN and "port IFINDEX BRIDGEPORT
 * NAME mode MODE pvid N access N native N lag N is_lag N" a port. Errors go to stderr as
 * "vlan-snmp-probe: MESSAGE" ("failed: I" first for a refused set) and
 * the exit status is the struct lab_err code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"

static int
parse_oid(const char *text, struct lab_oid *o)
{
	char	*end;

	o->len = 0;
	while (*text != '\0' && o->len < LAB_MIB_MAX_OID) {
		o->v[o->len++] = strtoul(text, &end, 10);
		if (end == text || (*end != '.' && *end != '\0'))
			return -1;
		text = *end == '.' ? end + 1 : end;
	}
	return o->len > 0 ? 0 : -1;
}

static void
print_oid(const struct lab_oid *o)
{
	size_t	i;

	for (i = 0; i < o->len; i++)
		printf("%s%lu", i ? "." : "", o->v[i]);
}

static int
parse_value(const char *type, const char *text, struct lab_snmp_value *v)
{
	size_t	i, n;

	switch (type[0]) {
	case 'i':
		v->type = LAB_SNMP_INTEGER;
		v->i = strtoll(text, NULL, 10);
		return 0;
	case 'u':
		v->type = LAB_SNMP_GAUGE32;
		v->u = strtoull(text, NULL, 10);
		return 0;
	case 's':
		v->type = LAB_SNMP_OCTETS;
		if ((v->len = strlen(text)) > sizeof(v->str))
			return -1;
		memcpy(v->str, text, v->len);
		return 0;
	case 'x':
		v->type = LAB_SNMP_OCTETS;
		n = strlen(text) / 2;
		if (n > sizeof(v->str))
			return -1;
		for (i = 0; i < n; i++) {
			char	 byte[3] = { text[2 * i], text[2 * i + 1], '\0' };
			char	*end;

			v->str[i] = (unsigned char)strtoul(byte, &end, 16);
			if (*end != '\0')
				return -1;
		}
		v->len = n;
		return 0;
	default:
		return -1;
	}
}

static void
print_value(const struct lab_snmp_value *v)
{
	size_t	i;

	print_oid(&v->oid);
	if (v->absent) {
		printf(" = absent\n");
		return;
	}
	switch (v->type) {
	case LAB_SNMP_INTEGER:
		printf(" = i: %lld\n", (long long)v->i);
		break;
	case LAB_SNMP_OCTETS:
		printf(" = x: ");
		for (i = 0; i < v->len; i++)
			printf("%02x", v->str[i]);
		printf("\n");
		break;
	default:
		printf(" = u: %llu\n", (unsigned long long)v->u);
		break;
	}
}

static void
print_ifset(const char *what, const struct lab_snmp_ifset *set)
{
	size_t	i;

	printf(" %s ", what);
	for (i = 0; i < set->n; i++)
		printf("%s%lu", i ? "," : "", set->v[i]);
	if (set->n == 0)
		printf("-");
}

static int
read_state(struct lab_snmp *s, struct lab_err *err)
{
	struct lab_vlan_state	 st;
	size_t			 i;

	if (lab_vlan_read(s, &st, err) == -1)
		return -1;
	printf("list_len %zu qbridge %d ciscosb %d address %s requests %lu\n",
	    st.list_len, st.has_qbridge, st.has_ciscosb, st.mgmt_address,
	    st.stats.requests);
	for (i = 0; i < st.vlans.n; i++) {
		printf("vlan %lu %s", st.vlans.v[i].id, st.vlans.v[i].name);
		print_ifset("egress", &st.vlans.v[i].egress);
		print_ifset("untagged", &st.vlans.v[i].untagged);
		printf("\n");
	}
	for (i = 0; i < st.nports; i++) {
		const struct lab_vlan_port	*p = &st.ports[i];

		printf("port %lu %lu %s mode %s pvid %lu access %lu native %lu "
		    "lag %lu is_lag %d\n", p->ifindex, p->bridge_port,
		    p->name, lab_port_mode_name(p->mode), p->pvid,
		    p->access_vlan, p->trunk_native, p->lag, p->is_lag);
	}
	lab_vlan_state_release(&st);
	return 0;
}

static int
verb(struct lab_snmp *s, int argc, char **argv, struct lab_err *err)
{
	struct lab_snmp_value	*v;
	struct lab_snmp_stats	 st;
	struct lab_vlan_probe	 p;
	size_t			 n, i, failed;
	int			 rc;

	if (strcmp(argv[0], "set") == 0 || strcmp(argv[0], "get") == 0) {
		int	set = argv[0][0] == 's';
		int	step = set ? 3 : 1;

		n = (size_t)(argc - 1) / (size_t)step;
		if (n == 0 || (size_t)(argc - 1) % (size_t)step != 0 ||
		    (v = calloc(n, sizeof(*v))) == NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "bad arguments");
		for (i = 0; i < n; i++) {
			if (parse_oid(argv[1 + i * step], &v[i].oid) == -1 ||
			    (set && parse_value(argv[2 + i * step],
			    argv[3 + i * step], &v[i]) == -1)) {
				free(v);
				return lab_err_set(err, LAB_EXIT_INPUT,
				    "bad value %zu", i);
			}
		}
		if (set) {
			rc = lab_snmp_set(s, v, n, &failed, err);
			if (rc == -1)
				fprintf(stderr, "failed: %zu\n", failed);
			lab_snmp_get_stats(s, &st);
			printf("sets: %lu varbinds: %lu\n", st.sets,
			    st.set_varbinds);
		} else if ((rc = lab_snmp_get_values(s, v, n, err)) == 0) {
			for (i = 0; i < n; i++)
				print_value(&v[i]);
		}
		free(v);
		return rc;
	}
	if (strcmp(argv[0], "probe") == 0) {
		if (lab_vlan_probe(s, &p, err) == -1)
			return -1;
		printf("qbridge %d ciscosb %d copy %d writable %d\n",
		    p.qbridge, p.ciscosb, p.copy, p.writable);
		if (p.why != NULL)
			printf("why: %s\n", p.why);
		lab_vlan_probe_release(&p);
		return 0;
	}
	if (strcmp(argv[0], "save") == 0) {
		if (lab_vlan_save(s, 5000, err) == -1)
			return -1;
		printf("saved\n");
		return 0;
	}
	if (strcmp(argv[0], "read") == 0)
		return read_state(s, err);
	return lab_err_set(err, LAB_EXIT_INPUT, "unknown verb %s", argv[0]);
}

int
main(int argc, char **argv)
{
	struct lab_snmp_target	 t;
	struct lab_snmp		*s;
	struct lab_err		 err;
	int			 rc;

	if (argc < 4) {
		fprintf(stderr, "usage: vlan-snmp-probe ADDRESS PORT "
		    "set|get|probe|save|read ...\n");
		return 2;
	}
	lab_err_init(&err);
	memset(&t, 0, sizeof(t));
	t.address = argv[1];
	t.port = (int)strtol(argv[2], NULL, 10);
	t.version = "2c";
	t.community = getenv("LAB_TEST_COMMUNITY");
	t.timeout_ms = 1000;
	t.retries = 1;
	if (lab_snmp_open(&t, &s, &err) == -1) {
		fprintf(stderr, "vlan-snmp-probe: %s\n", err.msg);
		return (int)err.code;
	}
	rc = verb(s, argc - 3, argv + 3, &err);
	lab_snmp_free(s);
	if (rc == -1) {
		fprintf(stderr, "vlan-snmp-probe: %s\n", err.msg);
		return (int)err.code;
	}
	return 0;
}
