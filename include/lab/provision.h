/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_PROVISION_H
#define LAB_PROVISION_H

#include <stddef.h>
#include <stdint.h>

#include "lab/ctx.h"
#include "lab/db.h"
#include "lab/err.h"
#include "lab/plan.h"
#include "lab/ssh.h"

/*
 * Applying a plan over SSH, and the record of every run. A run is stored
 * before its first step and updated after each, so a run that dies half
 * way is found as failed at the step it reached, never as done.
 */

enum lab_run_status {
	LAB_RUN_RUNNING,
	LAB_RUN_DONE,
	LAB_RUN_FAILED,
	LAB_RUN_ROLLED_BACK,
	LAB_RUN_ABANDONED,	/* its lab process died while it ran */
};

/* How one step went. */
struct lab_step_result {
	int		 ran;		/* started */
	int		 exit_status;	/* -1: the link died or it timed out */
	char		*output;	/* stdout then stderr: the last
					   LAB_SSH_OUTPUT_CAP bytes, after
					   "[output cut: ...]" when cut */
	int64_t		 output_bytes;	/* their whole size */
	int64_t		 started_ms;	/* monotonic */
	int64_t		 elapsed_ms;
	char		 note[200];	/* why it failed, when it did */
};

/* Called around each step (from the applying thread). */
struct lab_provision_hooks {
	void	(*begin)(void *arg, size_t i, const struct lab_step *);
	void	(*end)(void *arg, size_t i, const struct lab_step *,
		    const struct lab_step_result *);
	void	*arg;
};

/*
 * Reads over s what a plan depends on that only the target knows (today
 * whether its ZFS has lz4) into facts, for planning again before --yes.
 * host names the target in errors. -1 with err set when the target has
 * no zpool or it fails (then it says nothing of lz4).
 */
int	lab_provision_facts(struct lab_ssh *s, const char *host,
	    struct lab_target_facts *facts, struct lab_err *err);

/*
 * Reads over s what a shares or mounts plan starts from (the output of
 * lab_shares_state_cmd, include/lab/plan.h) into *ret (caller-owned).
 */
int	lab_provision_shares_state(struct lab_ssh *s, const char *host,
	    char **ret, struct lab_err *err);

/*
 * The lock file on the target: a run takes it (flock) before its first
 * step and holds it to its end, so two labs (two databases) cannot apply
 * to one host at once. The host's database record is the other lock: a
 * run of the host in progress refuses another (lab_provision_apply).
 */
#define LAB_TARGET_LOCK	"/var/lib/lab/provision.lock"

/* A run: what lab_provision_apply() is given, and what it did. */
struct lab_provision {
	const struct lab_ssh_opts	*ssh;	/* for reconnect steps */
	struct lab_ssh			*conn;	/* open; the applier owns it */
	int				 step_timeout_ms; /* 0: 600 s */
	const struct lab_provision_hooks *hooks;
	const char			*target_lock; /* NULL: LAB_TARGET_LOCK;
						   an absolute path of
						   [A-Za-z0-9_./-] */
	/* results */
	int64_t				 run_id;
	enum lab_run_status		 status;
	size_t				 failed_step;	/* when failed */
	struct lab_step_result		*results;	/* one per step */
	size_t				 nresults;
	char				 message[400];
};

/*
 * Records a run of plan on db and applies it: the steps in order, stopping
 * at the first that fails. A network plan whose reconnect step cannot
 * reach the host within its rollback window waits for the target's timer
 * to restore the previous config, then checks the host is back, and is
 * recorded as rolled back. Returns -1 only when the run could not be
 * recorded (a failing step is a->status, not an error), or when a run of
 * the same host is in progress (LAB_EXIT_PARTIAL, nothing recorded or
 * done). A run whose target lock (LAB_TARGET_LOCK) is held is recorded
 * as failed before its first step.
 *
 * ctx (NULL: lab_ctx_default()) gives the clocks: the monotonic one for
 * the step timings and the rollback window, the wall one for the times
 * stored; reconnect steps connect with it when a->ssh has no ctx.
 */
int	lab_provision_apply(const struct lab_ctx *, struct lab_db *,
	    const struct lab_plan *, struct lab_provision *a,
	    struct lab_err *err);
/* Frees the results and closes the connection. */
void	lab_provision_release(struct lab_provision *);

/* One stored run, with its steps when asked. */
struct lab_run_step {
	int		 position;
	char		*kind;		/* "check", "run", "write" */
	char		*text;
	int64_t		 started_at;	/* 0: not run */
	int64_t		 finished_at;
	int		 has_status;
	int		 exit_status;
	char		*output;
};

struct lab_run {
	int64_t			 id;
	char			*host;
	char			*kind;
	char			*layout;
	int64_t			 started_at;
	int64_t			 finished_at;	/* 0: never finished */
	char			*status;	/* running done failed rolled-back
						   abandoned */
	int			 failed_step;	/* -1: none */
	char			*message;
	char			*plan;		/* JSON */
	struct lab_run_step	*steps;
	size_t			 nsteps;
};

struct lab_runs {
	struct lab_run	*v;
	size_t		 n;
};

/* The runs of host, newest first (all hosts when host is NULL); limit <= 0:
 * all. Steps are read when with_steps. */
int	lab_db_runs(struct lab_db *, const char *host, int limit,
	    int with_steps, struct lab_runs *ret, struct lab_err *err);
/* One run by id, with its steps; LAB_EXIT_INPUT when there is none. */
int	lab_db_run(struct lab_db *, int64_t id, struct lab_runs *ret,
	    struct lab_err *err);
void	lab_runs_release(struct lab_runs *);
const char *lab_run_status_name(enum lab_run_status);

/*
 * What switch discovery knows of a host's NICs, for bonding: each NIC's
 * switch, port and the LAG its MAC was seen on. *ret has one row per NIC
 * of h, strings owned by the rows (lab_bond_nics_release).
 */
struct lab_bond_nics {
	struct lab_bond_nic	*v;
	size_t			 n;
};
int	lab_db_bond_nics(struct lab_db *, const struct lab_host *h,
	    struct lab_bond_nics *ret, struct lab_err *err);
void	lab_bond_nics_release(struct lab_bond_nics *);

#endif
