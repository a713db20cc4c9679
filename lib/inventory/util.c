/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/inventory.h"
#include "inventory-priv.h"

/* An empty inventory. */
struct lab_inventory *
lab_inventory_new(void)
{
	return calloc(1, sizeof(struct lab_inventory));
}

/*
 * Drops what was added after the counts given (their strings stay in the
 * pool until the inventory is freed).
 */
void
lab_inventory_truncate(struct lab_inventory *inv, size_t nhosts,
    size_t nswitches, size_t ngroups, size_t nwarnings)
{
	if (inv->nhosts > nhosts)
		inv->nhosts = nhosts;
	if (inv->nswitches > nswitches)
		inv->nswitches = nswitches;
	if (inv->ngroups > ngroups)
		inv->ngroups = ngroups;
	for (; inv->nwarnings > nwarnings; inv->nwarnings--)
		free(inv->warnings[inv->nwarnings - 1].msg);
}

/* Frees an inventory; NULL is a no-op. */
void
lab_inventory_free(struct lab_inventory *inv)
{
	if (inv == NULL)
		return;
	lab_inventory_truncate(inv, 0, 0, 0, 0);
	free(inv->hosts);
	free(inv->switches);
	free(inv->groups);
	free(inv->warnings);
	lab_strv_release(&inv->files);
	lab_pool_release(&inv->pool);
	if (inv->known != NULL)
		lab_known_issues_release(inv->known);
	free(inv->known);
	free(inv);
}

/* For LAB_CLEANUP. */
void
lab_inventory_freep(struct lab_inventory **p)
{
	lab_inventory_free(*p);
}

static int
cmp_host(const void *a, const void *b)
{
	return strcmp(((const struct lab_host *)a)->name,
	    ((const struct lab_host *)b)->name);
}

static int
cmp_switch(const void *a, const void *b)
{
	return strcmp(((const struct lab_switch *)a)->name,
	    ((const struct lab_switch *)b)->name);
}

static int
cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct lab_group *)a)->name,
	    ((const struct lab_group *)b)->name);
}

/* Sorts hosts, switches and groups by name. */
void
lab_inventory_sort(struct lab_inventory *inv)
{
	if (inv->nhosts > 1)
		qsort(inv->hosts, inv->nhosts, sizeof(*inv->hosts), cmp_host);
	if (inv->nswitches > 1)
		qsort(inv->switches, inv->nswitches, sizeof(*inv->switches),
		    cmp_switch);
	if (inv->ngroups > 1)
		qsort(inv->groups, inv->ngroups, sizeof(*inv->groups),
		    cmp_group);
}

/*
 * The host named name, or NULL. Inventories from the database are sorted
 * by name: a binary search finds the host, and when the probe shows the
 * array is not sorted (a freshly loaded YAML), a plain scan does.
 */
struct lab_host *
lab_inventory_host(const struct lab_inventory *inv, const char *name)
{
	size_t	lo = 0, hi = inv->nhosts, mid, i;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name, inv->hosts[mid].name);
		if (c == 0)
			return &inv->hosts[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (i = 0; i < inv->nhosts; i++)
		if (strcmp(inv->hosts[i].name, name) == 0)
			return &inv->hosts[i];
	return NULL;
}

/* The switch named name, or NULL. */
struct lab_switch *
lab_inventory_switch(const struct lab_inventory *inv, const char *name)
{
	size_t	i;

	for (i = 0; i < inv->nswitches; i++)
		if (strcmp(inv->switches[i].name, name) == 0)
			return &inv->switches[i];
	return NULL;
}

/* The host named name, or NULL and "unknown host": a lab_fanout_find_fn. */
const void *
lab_inventory_find_host(const void *inv, const char *name, struct lab_err *err)
{
	const struct lab_host	*h = lab_inventory_host(inv, name);

	if (h == NULL)
		lab_err_set(err, LAB_EXIT_INPUT, "unknown host '%s'", name);
	return h;
}

/* The switch named name, or NULL and "unknown switch": a lab_fanout_find_fn. */
const void *
lab_inventory_find_switch(const void *inv, const char *name,
    struct lab_err *err)
{
	const struct lab_switch	*sw = lab_inventory_switch(inv, name);

	if (sw == NULL)
		lab_err_set(err, LAB_EXIT_INPUT, "unknown switch '%s' (see "
		    "'lab ls switches')", name);
	return sw;
}

/* Every group name, sorted and unique. */
int
lab_inventory_group_names(const struct lab_inventory *inv,
    struct lab_strv *ret, struct lab_err *err)
{
	struct lab_strv	all;
	size_t		i, j, k;

	lab_strv_init(&all);
	for (i = 0; i < inv->ngroups; i++)
		if (lab_strv_add(&all, inv->groups[i].name) == -1)
			goto oom;
	for (i = 0; i < inv->nhosts; i++)
		for (j = 0; j < inv->hosts[i].groups.n; j++)
			if (lab_strv_add(&all, inv->hosts[i].groups.v[j]) == -1)
				goto oom;
	lab_strv_sort(&all);
	for (i = 0, k = 0; i < all.n; i++) {
		if (k > 0 && strcmp(all.v[k - 1], all.v[i]) == 0) {
			free(all.v[i]);
			continue;
		}
		all.v[k++] = all.v[i];
	}
	all.n = k;
	if (all.v != NULL)
		all.v[k] = NULL;
	*ret = all;
	return 0;
oom:
	lab_strv_release(&all);
	return lab_err_oom(err);
}

/* One named thing for the uniqueness checks. */
struct item {
	const char		*key;
	const struct lab_loc	*loc;
	long			 file;	/* index in files: declaration order */
	const char		*owner;	/* host of a MAC, for the message */
};


static int
cmp_item(const void *a, const void *b)
{
	const struct item	*x = a, *y = b;
	int			 c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->loc->line != y->loc->line)
		return x->loc->line < y->loc->line ? -1 : 1;
	return x->loc->col - y->loc->col;
}

static long
file_index(const struct lab_inventory *inv, const char *file)
{
	size_t	i;

	for (i = 0; i < inv->files.n; i++)
		if (inv->files.v[i] == file)
			return (long)i;
	return -1;
}

/* Sorts items and fails on the first duplicate key (the later place). */
static int
find_dup(struct item *it, size_t n, const char *what, struct lab_err *err)
{
	size_t	i;

	if (n < 2)
		return 0;
	qsort(it, n, sizeof(*it), cmp_item);
	for (i = 1; i < n; i++) {
		if (strcmp(it[i - 1].key, it[i].key) != 0)
			continue;
		if (it[i].owner != NULL)
			return lab_err_set(err, LAB_EXIT_INPUT,
			    "%s:%d:%d: duplicate %s %s on host '%s' (also on "
			    "host '%s' at %s:%d:%d)", it[i].loc->file,
			    it[i].loc->line, it[i].loc->col, what, it[i].key,
			    it[i].owner, it[i - 1].owner, it[i - 1].loc->file,
			    it[i - 1].loc->line, it[i - 1].loc->col);
		return lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: duplicate "
		    "%s '%s' (first declared at %s:%d:%d)", it[i].loc->file,
		    it[i].loc->line, it[i].loc->col, what, it[i].key,
		    it[i - 1].loc->file, it[i - 1].loc->line,
		    it[i - 1].loc->col);
	}
	return 0;
}

/* Checks host, switch and group names and MACs across all files. */
int
lab_inventory_check_unique(struct lab_inventory *inv, struct lab_err *err)
{
	struct item	*it;
	size_t		 i, j, n = 0, max;
	int		 rc = -1;

	max = inv->nhosts + inv->nswitches + inv->ngroups;
	for (i = 0; i < inv->nhosts; i++)
		max += inv->hosts[i].nnics;
	if ((it = calloc(max ? max : 1, sizeof(*it))) == NULL)
		return lab_err_oom(err);
	/* hosts and switches share one namespace: targets name either */
	for (i = 0; i < inv->nhosts; i++)
		it[n++] = (struct item){ inv->hosts[i].name, &inv->hosts[i].loc,
		    file_index(inv, inv->hosts[i].loc.file), NULL };
	for (i = 0; i < inv->nswitches; i++)
		it[n++] = (struct item){ inv->switches[i].name,
		    &inv->switches[i].loc,
		    file_index(inv, inv->switches[i].loc.file), NULL };
	if (find_dup(it, n, "name", err) == -1)
		goto out;
	n = 0;
	for (i = 0; i < inv->ngroups; i++)
		it[n++] = (struct item){ inv->groups[i].name,
		    &inv->groups[i].loc,
		    file_index(inv, inv->groups[i].loc.file), NULL };
	if (find_dup(it, n, "group", err) == -1)
		goto out;
	n = 0;
	for (i = 0; i < inv->nhosts; i++)
		for (j = 0; j < inv->hosts[i].nnics; j++)
			it[n++] = (struct item){ inv->hosts[i].nics[j].mac,
			    &inv->hosts[i].nics[j].loc,
			    file_index(inv, inv->hosts[i].nics[j].loc.file),
			    inv->hosts[i].name };
	if (find_dup(it, n, "mac", err) == -1)
		goto out;
	rc = 0;
out:
	free(it);
	return rc;
}
