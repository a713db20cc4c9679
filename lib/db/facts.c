/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>

#include "lab/facts.h"

/* STUB of the issue-20 skeleton: replaced by its owner. */
#define NOT_BUILT(err) lab_err_set(err, LAB_EXIT_ENV, "%s: not built yet", __func__)

int
lab_db_facts_put(struct lab_db *db, const char *kind, const char *subject,
    const struct lab_fact_kv *kv, size_t n,
    const struct lab_fact_findings *findings, int64_t now,
    struct lab_err *err)
{
	(void)db; (void)kind; (void)subject; (void)kv; (void)n;
	(void)findings; (void)now;
	return NOT_BUILT(err);
}

int
lab_db_facts_get(struct lab_db *db, const char *kind, const char *subject,
    struct lab_fact_kv **ret, size_t *n, struct lab_err *err)
{
	(void)db; (void)kind; (void)subject;
	*ret = NULL;
	*n = 0;
	return NOT_BUILT(err);
}

int
lab_db_fact_events(struct lab_db *db, int64_t since,
    struct lab_fact_event **ret, size_t *n, struct lab_err *err)
{
	(void)db; (void)since;
	*ret = NULL;
	*n = 0;
	return NOT_BUILT(err);
}

int
lab_db_fact_findings(struct lab_db *db, const char *subject,
    struct lab_stored_finding **ret, size_t *n, struct lab_err *err)
{
	(void)db; (void)subject;
	*ret = NULL;
	*n = 0;
	return NOT_BUILT(err);
}

int
lab_db_port_views(struct lab_db *db, const char *host,
    struct lab_port_view **ret, size_t *n, struct lab_err *err)
{
	(void)db; (void)host;
	*ret = NULL;
	*n = 0;
	return NOT_BUILT(err);
}
