/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "report-priv.h"

/*
 * Grows an array by one zeroed element; returns it, or NULL. The arrays
 * it grows start empty and double at 4, 8, 16, ... elements, so that
 * 40,000 disks are not 40,000 reallocs.
 */
void *
lab_report_push(void *vp, size_t *n, size_t sz)
{
	void	**v = vp;
	char	 *p = *v;
	size_t	  cap;

	if (*n == 0 || (*n >= 4 && (*n & (*n - 1)) == 0)) {
		cap = *n < 4 ? 4 : *n * 2;
		if ((p = realloc(*v, cap * sz)) == NULL)
			return NULL;
		*v = p;
	}
	if (p == NULL)	/* cannot be: grown above when *n was 0 */
		return NULL;
	memset(p + *n * sz, 0, sz);
	return p + (*n)++ * sz;
}
