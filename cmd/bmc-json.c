/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/json.h"
#include "lab/render.h"
#include "lab.h"

/*
 * The members every BMC fan-out row (power, boot, sensors, sel) has beside
 * its own (lab(1), JSON): "skipped", true for a host without a BMC that a
 * group, a range or --all brought in (ok, nothing done), and "bmc_info",
 * the BMC in its one shape (null: none).
 */
void
cmd_bmc_json_row(struct lab_json *j, const struct lab_inventory *inv,
    const struct lab_bmc_result *r)
{
	const struct lab_host	*h = lab_inventory_host(inv, r->host);

	lab_json_key(j, "skipped");
	lab_json_bool(j, r->skipped);
	lab_json_key(j, "bmc_info");
	lab_render_bmc_json(j, h != NULL ? h->bmc : NULL);
}
