/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the YAML inventory loader: the input is one
 * inventory file. What loads must also survive the checks the commands
 * run next (uniqueness, sorting, group names) and write back as YAML
 * that loads again to the same YAML (lab_inventory_to_yaml's promise):
 * a difference aborts, so the fuzzer reports it as a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/inventory.h"
#include "inventory/inventory-priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct lab_inventory *
load(const char *buf, size_t len)
{
	struct lab_inventory	*inv;
	struct lab_err		 err;

	lab_err_init(&err);
	if ((inv = lab_inventory_new()) == NULL)
		abort();
	if (lab_inventory_load_buf(inv, "fuzz.yaml", buf, len, &err) == -1) {
		/* every failure says why, and where */
		if (err.code == 0 || err.msg[0] == '\0')
			abort();
		lab_inventory_free(inv);
		return NULL;
	}
	return inv;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_inventory	*inv, *again;
	struct lab_strv		 groups;
	struct lab_err		 err;
	char			*y1 = NULL, *y2 = NULL;

	if ((inv = load((const char *)data, size)) == NULL)
		return 0;
	lab_err_init(&err);
	(void)lab_inventory_check_unique(inv, &err);
	lab_inventory_sort(inv);
	if (lab_inventory_group_names(inv, &groups, &err) == 0)
		lab_strv_release(&groups);
	if (inv->nhosts > 0 &&
	    lab_inventory_host(inv, inv->hosts[0].name) == NULL)
		abort();
	if (lab_inventory_to_yaml(inv, &y1, &err) == -1)
		abort();
	if ((again = load(y1, strlen(y1))) == NULL) {
		fprintf(stderr, "written YAML does not load back:\n%s\n", y1);
		abort();
	}
	lab_inventory_sort(again);
	if (lab_inventory_to_yaml(again, &y2, &err) == -1 ||
	    strcmp(y1, y2) != 0) {
		fprintf(stderr, "round trip differs:\n%s\n---\n%s\n", y1,
		    y2 ? y2 : "(none)");
		abort();
	}
	free(y1);
	free(y2);
	lab_inventory_free(again);
	lab_inventory_free(inv);
	return 0;
}
