/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CMD_HISTORY_SWITCH_H
#define LAB_CMD_HISTORY_SWITCH_H

#include <stdint.h>

#include "lab.h"

/*
 * lab history --switch SWITCH [--since WHEN]: the switch's VLAN applies
 * newest first, with status, saved and per port before -> after.
 * known: the switch is in the inventory; one that left it keeps its
 * applies.
 */
int	cmd_history_switch(struct lab_call *, const char *sw, int known,
	    int64_t since, struct lab_err *);

#endif
