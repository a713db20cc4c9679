/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>

#include "lab/report.h"
#include "db/report-rows.h"

/* The recorded report runs (the baselines --since picks from). */

struct runs {
	struct lab_report_run	*v;
	size_t			 n;
};

static int
add_run(void *arg, const struct lab_db_report_run *row)
{
	struct runs		*l = arg;
	struct lab_report_run	*r;

	if ((r = lab_push(&l->v, &l->n, sizeof(*r))) == NULL)
		return -1;
	r->id = row->id;
	r->time = row->time;
	r->facts = row->facts > 0 ? (size_t)row->facts : 0;
	return 0;
}

/* The report runs, oldest first. */
int
lab_report_runs(struct lab_db *db, struct lab_report_run **ret, size_t *n,
    struct lab_err *err)
{
	struct runs	l = { NULL, 0 };

	if (lab_db_report_runs(db, add_run, &l, err) == -1) {
		free(l.v);
		return -1;
	}
	*ret = l.v;
	*n = l.n;
	return 0;
}
