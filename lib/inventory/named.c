/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/target.h"

/*
 * The hosts a command line names one by one: an item (a word, or a part
 * of one between commas outside brackets) that is exactly a host's name.
 * Groups, ranges, set operations and --all name no host this way: a host
 * they bring in that has no BMC is skipped, where a host named explicitly
 * fails (lib/bmc.c).
 */
static int
item(const struct lab_inventory *inv, const char *s, size_t len,
    struct lab_strv *ret)
{
	char	name[256];

	if (len == 0 || len >= sizeof(name) ||
	    strcspn(s, "@![]&^*?") < len)
		return 0;
	memcpy(name, s, len);
	name[len] = '\0';
	if (lab_inventory_host(inv, name) == NULL)
		return 0;
	return lab_strv_add(ret, name);
}

/* Whether name is in v, sorted as lab_target_named leaves it. */
int
lab_target_is_named(const struct lab_strv *v, const char *name)
{
	return lab_strv_sorted_find(v, name) >= 0;
}

int
lab_target_named(const struct lab_inventory *inv, char *const *words,
    size_t nwords, struct lab_strv *ret, struct lab_err *err)
{
	const char	*w, *start;
	size_t		 i;
	int		 depth;

	lab_strv_init(ret);
	for (i = 0; i < nwords; i++) {
		depth = 0;
		for (start = w = words[i];; w++) {
			if (*w == '[')
				depth++;
			else if (*w == ']' && depth > 0)
				depth--;
			if ((*w != ',' || depth > 0) && *w != '\0')
				continue;
			if (item(inv, start, (size_t)(w - start), ret) == -1) {
				lab_strv_release(ret);
				return lab_err_oom(err);
			}
			if (*w == '\0')
				break;
			start = w + 1;
		}
	}
	/* sorted, for lab_target_is_named: 10,000 names cost no n^2 */
	lab_strv_sort(ret);
	return 0;
}
