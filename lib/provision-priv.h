/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_PROVISION_PRIV_H
#define LAB_PROVISION_PRIV_H

#include "lab/provision.h"

int64_t	lab_prov_monotonic_ms(void);
/* Stores the run as running, with every step not yet run. */
int	lab_prov_db_begin(struct lab_db *, const struct lab_plan *, int64_t now,
	    int64_t *run_id, struct lab_err *);
int	lab_prov_db_step_begin(struct lab_db *, int64_t run_id, size_t i,
	    struct lab_err *);
int	lab_prov_db_step_end(struct lab_db *, int64_t run_id, size_t i,
	    const struct lab_step_result *, struct lab_err *);
/* Stores how the run ended (a->status, failed_step, message). */
int	lab_prov_db_end(struct lab_db *, const struct lab_plan *,
	    const struct lab_apply *, struct lab_err *);

#endif
