/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench-pool.h"

/* The pool bench's results own their strings (include/lab/bench-pool.h). */
void
lab_pool_run_release(struct lab_pool_run *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->ncombos; i++) {
		free(r->combos[i].set);
		free(r->combos[i].dataset);
	}
	free(r->combos);
	free(r->host);
	free(r->pool);
	free(r->props);
	free(r->message);
	free(r->left);
	memset(r, 0, sizeof(*r));
}
