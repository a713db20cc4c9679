/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A test driver for lib/ipmi/devid.c and the known-issue match: one
 * session (cipher suite 3, as admin), Get Device ID and FRU 0, printed
 * one "key value" line each; then, given a known-issues file, the host's
 * model and BMC type, a "finding SEVERITY KIND: MESSAGE" line for each
 * known issue the BMC's firmware matches.
 *
 *	devid-probe ADDRESS PORT USER WORKAROUNDS [KNOWN.yaml MODEL BMC]
 *
 * The password comes from $LAB_TEST_PASSWORD. WORKAROUNDS is a comma list
 * of FreeIPMI words, or "-". Errors go to stderr as "devid-probe: MESSAGE"
 * and the exit status is the struct lab_err code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/ipmi.h"

static int
workarounds(const char *list, unsigned *bits)
{
	char	*copy, *w, *save = NULL;
	int	 rv = 0;

	if (strcmp(list, "-") == 0)
		return 0;
	if ((copy = strdup(list)) == NULL)
		return -1;
	for (w = strtok_r(copy, ",", &save); w != NULL;
	    w = strtok_r(NULL, ",", &save))
		if (lab_ipmi_workaround_parse(w, bits) < 0)
			rv = -1;
	free(copy);
	return rv;
}

static void
show(const char *key, const char *v)
{
	printf("%s %s\n", key, v != NULL ? v : "(none)");
}

static int
known(const struct lab_fact_bmc *b, char **argv, struct lab_err *err)
{
	struct lab_known_issues		 k;
	struct lab_fact_findings	 out = { NULL, 0 };
	struct lab_component		 c = { argv[1], argv[2], "bmc", NULL,
		b->firmware };
	size_t				 i;
	int				 rv;

	lab_known_issues_init(&k);
	rv = lab_known_issues_load(&k, argv[0], err);
	if (rv == 0)
		rv = lab_known_issues_check(&k, &c, "bmc", &out, err);
	for (i = 0; i < out.n; i++)
		printf("finding %s %s: %s\n", out.v[i].severity,
		    out.v[i].kind, out.v[i].message);
	lab_fact_findings_release(&out);
	lab_known_issues_release(&k);
	return rv;
}

int
main(int argc, char **argv)
{
	struct lab_ipmi_target	 t;
	struct lab_ipmi		*ip = NULL;
	struct lab_fact_bmc	 b;
	struct lab_err		 err;
	int			 rv;

	if (argc != 5 && argc != 8) {
		fputs("usage: devid-probe ADDRESS PORT USER WORKAROUNDS "
		    "[KNOWN.yaml MODEL BMC]\n", stderr);
		return LAB_EXIT_INPUT;
	}
	memset(&t, 0, sizeof(t));
	memset(&b, 0, sizeof(b));
	memset(&err, 0, sizeof(err));
	t.address = argv[1];
	t.port = atoi(argv[2]);
	t.username = argv[3];
	t.password = getenv("LAB_TEST_PASSWORD");
	t.cipher_suite = 3;
	t.privilege = LAB_IPMI_PRIV_ADMIN;
	if (workarounds(argv[4], &t.workarounds) < 0) {
		fputs("devid-probe: bad workarounds\n", stderr);
		return LAB_EXIT_INPUT;
	}
	rv = lab_ipmi_open(&t, &ip, &err);
	if (rv == 0)
		rv = lab_ipmi_device_id(ip, &b, &err);
	lab_ipmi_free(ip);
	if (rv == 0) {
		printf("ok %d\n", b.ok);
		show("firmware", b.firmware);
		show("ipmi_version", b.ipmi_version);
		printf("manufacturer_id %ld\n", b.manufacturer_id);
		show("manufacturer", b.manufacturer);
		printf("product_id %ld\n", b.product_id);
		printf("device_id %ld\n", b.device_id);
		show("fru_product", b.fru_product);
		show("fru_serial", b.fru_serial);
		if (argc == 8)
			rv = known(&b, argv + 5, &err);
	}
	lab_fact_bmc_release(&b);
	if (rv < 0) {
		fprintf(stderr, "devid-probe: %s\n", err.msg);
		return err.code;
	}
	return 0;
}
