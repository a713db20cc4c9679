/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab/parse.h"
#include "plan-priv.h"

/*
 * The storage planner's entry: a layout name or a layout file to the
 * planner that makes it (lib/plan/zfs.c, md.c, layout.c), each of which
 * builds on the plan of lib/plan/plan.c.
 */

static const char *const zfs_layouts[] = { "raid10", "raidz1", "raidz2",
	"mirror", "stripe", NULL };
static const char *const md_layouts[] = { "md-raid1", "md-raid10",
	"md-raid5", NULL };
const char *const lab_layout_words[] = { "raid10", "raidz1", "raidz2",
	"mirror", "stripe", "md-raid1", "md-raid10", "md-raid5", NULL };

static int
among(const char *s, const char *const *w)
{
	for (; *w != NULL; w++)
		if (strcmp(s, *w) == 0)
			return 1;
	return 0;
}

/* Plans a storage layout. */
int
lab_plan_storage(const struct lab_host *h, const struct lab_storage_req *req,
    struct lab_plan **ret, struct lab_err *err)
{
	const char	*near;

	if (req->layout_text != NULL) {
		if (req->layout != NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "give a layout "
			    "name or a layout file, not both");
		return lab_plan_layout(h, req, ret, err);
	}
	if (req->layout == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "no layout given "
		    "(raid10, raidz1, raidz2, mirror, stripe, md-raid1, "
		    "md-raid10, md-raid5, or a layout file)");
	if (among(req->layout, zfs_layouts))
		return lab_plan_zfs(h, req, ret, err);
	if (among(req->layout, md_layouts))
		return lab_plan_md(h, req, ret, err);
	near = lab_suggest(req->layout, lab_layout_words,
	    LAB_ARRAY_SIZE(lab_layout_words) - 1);
	if (near != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown layout '%s'; "
		    "did you mean '%s'?", req->layout, near);
	return lab_err_set(err, LAB_EXIT_INPUT, "unknown layout '%s' "
	    "(raid10, raidz1, raidz2, mirror, stripe, md-raid1, md-raid10, "
	    "md-raid5, or a layout file)", req->layout);
}
