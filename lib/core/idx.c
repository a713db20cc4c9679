/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/str.h"
#include "idx.h"

/* Adds id at position i. */
int
lab_idx_add(struct lab_idx *x, int64_t id, size_t i)
{
	if (lab_grow(&x->v, x->n, sizeof(*x->v)) == -1)
		return -1;
	x->v[x->n].id = id;
	x->v[x->n++].i = i;
	return 0;
}

static int
cmp_idx(const void *a, const void *b)
{
	const struct lab_idx_ent	*x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Sorts the index by id. */
void
lab_idx_sort(struct lab_idx *x)
{
	if (x->n > 1)
		qsort(x->v, x->n, sizeof(*x->v), cmp_idx);
}

/* The position of id, or -1. */
long
lab_idx_find(const struct lab_idx *x, int64_t id)
{
	size_t	lo = 0, hi = x->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->v[mid].id == id)
			return (long)x->v[mid].i;
		if (x->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Frees the index. */
void
lab_idx_release(struct lab_idx *x)
{
	free(x->v);
	memset(x, 0, sizeof(*x));
}
