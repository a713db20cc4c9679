/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch plan: the VLAN diff of each switch, text or JSON. */
#include <stdio.h>

#include "switch.h"

void
cmd_switch_plan_print(const struct lab_switch_plan *p)
{
	(void)p;
}

int
cmd_switch_plan_json(struct lab_json *j, const struct lab_switch_plan *p)
{
	(void)j; (void)p;
	return 0;
}

int
cmd_switch_plan(struct lab_call *call, struct lab_err *err)
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
