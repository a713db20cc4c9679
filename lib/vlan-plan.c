/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch plan: read each switch live, want, diff. */
#include <stdlib.h>

#include "lab/vlan.h"

int
lab_switch_vlan_plan(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    struct lab_switch_plan **ret, struct lab_err *err)
{
	(void)ctx; (void)db; (void)inv; (void)names; (void)creds; (void)req;
	*ret = NULL;
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
