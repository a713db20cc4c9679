/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>

#include "lab/facts.h"

/* STUB of the issue-20 skeleton: replaced by its owner. */
#define NOT_BUILT(err) lab_err_set(err, LAB_EXIT_ENV, "%s: not built yet", __func__)

int
lab_facts_drift(const struct lab_host *h, const struct lab_host_facts *f,
    const struct lab_port_view *ports, size_t nports,
    struct lab_fact_findings *out, struct lab_err *err)
{
	(void)h; (void)f; (void)ports; (void)nports; (void)out;
	return NOT_BUILT(err);
}
