/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch apply and probe. */
#include <stdio.h>

#include "switch.h"

int
cmd_switch_apply(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	struct lab_strv	names;

	if (cmd_inventory(call, &inv, err) == -1)
		return err->code;
	if (cmd_switch_names(call, inv, &names, err) == -1) {
		lab_strv_release(&names);
		return err->code;
	}
	lab_strv_release(&names);
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

int
cmd_switch_probe(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	struct lab_strv	names;

	if (cmd_inventory(call, &inv, err) == -1)
		return err->code;
	if (cmd_switch_names(call, inv, &names, err) == -1) {
		lab_strv_release(&names);
		return err->code;
	}
	lab_strv_release(&names);
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
