/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>

#include "lab/facts.h"

/* STUB of the issue-20 skeleton: replaced by its owner. */
#define NOT_BUILT(err) lab_err_set(err, LAB_EXIT_ENV, "%s: not built yet", __func__)

void
lab_known_issues_init(struct lab_known_issues *k)
{
	lab_pool_init(&k->pool);
	k->v = NULL;
	k->n = 0;
	lab_strv_init(&k->files);
}

void
lab_known_issues_release(struct lab_known_issues *k)
{
	free(k->v);
	k->v = NULL;
	k->n = 0;
	lab_pool_release(&k->pool);
	lab_strv_release(&k->files);
}

int
lab_known_issues_load(struct lab_known_issues *k, const char *path,
    struct lab_err *err)
{
	(void)k; (void)path;
	return NOT_BUILT(err);
}

int
lab_known_issues_load_buf(struct lab_known_issues *k, const char *name,
    const char *buf, size_t len, struct lab_err *err)
{
	(void)k; (void)name; (void)buf; (void)len;
	return NOT_BUILT(err);
}
