/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch apply and probe: plan, refuse, encode, exec, save, record. */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"

int
lab_switch_vlan_apply(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_vlan_req *req,
    const char *user, struct lab_switch_result **ret, struct lab_err *err)
{
	(void)ctx; (void)db; (void)inv; (void)names; (void)creds; (void)req;
	(void)user;
	*ret = NULL;
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

int
lab_switch_vlan_probe(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_switch *sw, const struct lab_creds *creds,
    const struct lab_vlan_req *req, struct lab_vlan_probe *ret,
    struct lab_err *err)
{
	(void)ctx; (void)db; (void)sw; (void)creds; (void)req;
	memset(ret, 0, sizeof(*ret));
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
