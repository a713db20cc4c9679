/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CORE_IDX_H
#define LAB_CORE_IDX_H

#include <stddef.h>
#include <stdint.h>

/*
 * An index from database ids to array positions, for joining the rows of
 * several queries in memory instead of a query per row: add every id,
 * sort once, then find. The (id, position) pairs are sorted themselves,
 * so no comparison needs state beside them.
 */
struct lab_idx {
	struct lab_idx_ent {
		int64_t	 id;
		size_t	 i;
	}	*v;
	size_t	 n;
};

/* Adds id at position i; -1 when out of memory. */
int	lab_idx_add(struct lab_idx *, int64_t id, size_t i);
/* Sorts the index by id, after the last add. */
void	lab_idx_sort(struct lab_idx *);
/* The position of id, or -1. */
long	lab_idx_find(const struct lab_idx *, int64_t id);
/* Frees the index and zeroes it. */
void	lab_idx_release(struct lab_idx *);

#endif
