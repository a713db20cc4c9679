/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for target words (include/lab/target.h): the input is
 * up to 16 words, one per line; the first byte's low bit is --all. Each
 * word is expanded as a range, then all are resolved against a small
 * fixed inventory. Names returned must be hosts, each once. The words
 * again with "!ml110" after them must resolve too, to the same hosts
 * less ml110: an exclusion wins wherever it stands.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/inventory.h"
#include "lab/target.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char inventory[] =
    "groups:\n"
    "  - {name: nas}\n"
    "  - {name: empty}\n"
    "hosts:\n"
    "  - {name: microserver1, model: generic-server,\n"
    "     groups: [nas, ms, r1]}\n"
    "  - {name: microserver2, model: generic-server, groups: [ms, r1]}\n"
    "  - {name: microserver3, model: generic-server, groups: [ms, r2]}\n"
    "  - {name: ml110, model: generic-server, groups: [r2]}\n"
    "  - {name: ml115, model: generic-server, groups: [nas, r3]}\n"
    "  - {name: n01, model: generic-server}\n"
    "  - {name: n02, model: generic-server}\n"
    "  - {name: n10, model: generic-server}\n"
    "switches:\n"
    "  - {name: sw1, model: generic-switch, address: 127.0.0.1}\n";

static struct lab_inventory *inv;

static void
setup(void)
{
	struct lab_err	err;

	lab_err_init(&err);
	if ((inv = lab_inventory_new()) == NULL ||
	    lab_inventory_load_buf(inv, "targets.yaml", inventory,
	    sizeof(inventory) - 1, &err) == -1)
		abort();
	lab_inventory_sort(inv);
}

/* words plus "!ml110" give names less ml110, or the same error code. */
static void
check_exclusion_wins(char **words, size_t n, int all, int rc,
    const struct lab_strv *names, enum lab_exit code)
{
	static char	 excl[] = "!ml110";
	struct lab_strv	 more;
	struct lab_err	 err;
	size_t		 i, want = 0;

	words[n] = excl;
	lab_err_init(&err);
	if (lab_target_resolve(inv, words, n + 1, all, &more, &err) == -1) {
		/* only the error the words had (or out of memory) */
		if (rc == 0 && err.code != LAB_EXIT_ENV)
			abort();
		if (rc == -1 && err.code != code)
			abort();
		return;
	}
	if (rc == -1)
		abort();
	for (i = 0; i < names->n; i++)
		if (strcmp(names->v[i], "ml110") != 0)
			want++;
	if (more.n != want)
		abort();
	for (i = 0; i < more.n; i++)
		if (strcmp(more.v[i], "ml110") == 0 ||
		    lab_strv_find(names, more.v[i]) < 0)
			abort();
	lab_strv_release(&more);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_strv	 names;
	struct lab_err	 err;
	char		*buf, *words[17], *p, *nl;
	size_t		 n = 0, i, j;
	int		 all;

	if (inv == NULL)
		setup();
	if (size == 0)
		return 0;
	all = data[0] & 1;
	if ((buf = malloc(size)) == NULL)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	for (p = buf; n < 16; p = nl + 1) {
		words[n++] = p;
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl = '\0';
	}
	for (i = 0; i < n; i++) {
		lab_err_init(&err);
		if (lab_range_expand(words[i], &names, &err) == -1) {
			if (err.code != LAB_EXIT_INPUT && err.code != LAB_EXIT_ENV)
				abort();
			continue;
		}
		if (names.n > LAB_RANGE_MAX)
			abort();
		lab_strv_release(&names);
	}
	lab_err_init(&err);
	if (lab_target_resolve(inv, words, n, all, &names, &err) == 0) {
		for (i = 0; i < names.n; i++) {
			if (lab_inventory_host(inv, names.v[i]) == NULL)
				abort();
			for (j = 0; j < i; j++)
				if (strcmp(names.v[i], names.v[j]) == 0)
					abort();
		}
		check_exclusion_wins(words, n, all, 0, &names, err.code);
		lab_strv_release(&names);
	} else if (err.code != LAB_EXIT_INPUT && err.code != LAB_EXIT_ENV)
		abort();
	else {
		lab_strv_init(&names);
		check_exclusion_wins(words, n, all, -1, &names, err.code);
	}
	free(buf);
	return 0;
}
