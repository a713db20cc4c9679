/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>

#include "lab/facts.h"

/* STUB of the issue-20 skeleton: replaced by its owner. */
#define NOT_BUILT(err) lab_err_set(err, LAB_EXIT_ENV, "%s: not built yet", __func__)

int
lab_facts_parse_lsblk(struct lab_host_facts *f, const char *json,
    struct lab_err *err)
{
	(void)f; (void)json;
	return NOT_BUILT(err);
}

int
lab_facts_parse_smartctl(struct lab_host_facts *f, const char *disk,
    const char *json, struct lab_err *err)
{
	(void)f; (void)disk; (void)json;
	return NOT_BUILT(err);
}

int
lab_facts_parse_ip_addr(struct lab_host_facts *f, const char *json,
    struct lab_err *err)
{
	(void)f; (void)json;
	return NOT_BUILT(err);
}

int
lab_facts_parse_script(struct lab_host_facts *f, const char *out,
    struct lab_err *err)
{
	(void)f; (void)out;
	return NOT_BUILT(err);
}

int
lab_host_facts_flatten(const struct lab_host_facts *f,
    struct lab_fact_kv **ret, size_t *n, struct lab_err *err)
{
	(void)f;
	*ret = NULL;
	*n = 0;
	return NOT_BUILT(err);
}
