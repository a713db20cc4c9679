/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The shipped known issues: inventory/known-issues.yaml, embedded at
 * build time by tools/embed-text.py, so that lab facts always has them.
 */
#include <stddef.h>

#include "lab/facts.h"
#include "known-issues.h"

int
lab_known_issues_shipped(struct lab_known_issues *k, struct lab_err *err)
{
	return lab_known_issues_load_buf(k, "known-issues.yaml (shipped)",
	    shipped_known_issues, shipped_known_issues_len, err);
}
