/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CMD_SWITCH_H
#define LAB_CMD_SWITCH_H

#include "lab/json.h"
#include "lab/vlan.h"
#include "lab.h"

/*
 * lab switch (cmd/switch.c): discover, ports and sync there; the VLAN
 * verbs plan (cmd/switch-plan.c), apply and probe (cmd/switch-apply.c).
 */
int	cmd_switch_plan(struct lab_call *, struct lab_err *);
int	cmd_switch_apply(struct lab_call *, struct lab_err *);
int	cmd_switch_probe(struct lab_call *, struct lab_err *);
/* The switches named on the command line, or every one. */
int	cmd_switch_names(struct lab_call *, const struct lab_inventory *,
	    struct lab_strv *ret, struct lab_err *err);
/* Prints one plan as text (apply without --yes prints it too). */
void	cmd_switch_plan_print(const struct lab_switch_plan *);
/* Writes one plan's JSON members (switch, ok, error, vlans, changes,
 * untouched, notes, refused, mgmt_vlan) into an open object. */
int	cmd_switch_plan_json(struct lab_json *, const struct lab_switch_plan *);
/* Prints a switch's version, chassis and stack, and its known issues. */
struct lab_switch_facts;
void	cmd_switch_facts_print(const struct lab_switch_facts *,
	    const char *indent);

#endif
