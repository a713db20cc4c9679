/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stddef.h>

#include "lab/bmc.h"

/*
 * The workflow of every BMC command and of a report's collect: run req
 * over the hosts, then record each host's outcome (a dry run contacts
 * nothing and records nothing).
 */
int
lab_bmc_run_record(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *hosts,
    const struct lab_creds *creds, const struct lab_bmc_req *req,
    int64_t now, struct lab_bmc_result **ret, struct lab_err *err)
{
	struct lab_bmc_result	*res = NULL;

	*ret = NULL;
	if (lab_bmc_run(ctx, inv, hosts, creds, req, &res, err) == -1)
		return -1;
	if (!req->dry_run && lab_db_bmc_record(db, req->verb, res,
	    hosts->n, now, req->source != NULL ? req->source :
	    lab_bmc_verb_source(req->verb), err) == -1) {
		lab_bmc_results_free(res, hosts->n);
		return -1;
	}
	*ret = res;
	return 0;
}
