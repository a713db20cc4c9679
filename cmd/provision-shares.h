/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CMD_PROVISION_SHARES_H
#define LAB_CMD_PROVISION_SHARES_H

#include "lab/inventory.h"
#include "lab/plan.h"
#include "lab/provision.h"
#include "lab.h"

/* The options of lab provision that --shares and --mounts use. */
struct cmd_shares_opts {
	int	mounts;		/* --mounts, else --shares */
	int	prune;		/* --prune */
	int	accept_new;	/* --accept-new */
};

/* A run's progress on stderr, as lab_provision_hooks (arg: the plan);
   cmd/provision.c. */
void	cmd_provision_step_begin(void *arg, size_t i, const struct lab_step *);
void	cmd_provision_step_end(void *arg, size_t i, const struct lab_step *,
	    const struct lab_step_result *);

/* lab provision HOST --shares|--mounts (cmd/provision-shares.c). */
int	cmd_provision_shares(struct lab_call *, const struct lab_inventory *,
	    const struct lab_host *, const struct cmd_shares_opts *,
	    struct lab_err *);

#endif
