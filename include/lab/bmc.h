/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BMC_H
#define LAB_BMC_H

#include <stddef.h>
#include <stdint.h>

#include "lab/cred.h"
#include "lab/ctx.h"
#include "lab/db.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/ipmi.h"
#include "lab/str.h"

/*
 * Power, boot device, sensors and SEL across many hosts at once: each host
 * is resolved to its BMC and credential, worked through the fan-out with
 * its own deadline, and given its own result. A host without a BMC gets
 * a result saying so, never a failure of the whole run.
 */

/*
 * The BMC operations, behind a table so the fan-out bookkeeping can be
 * unit-tested against an in-process fake (libvirt's test driver idea).
 * lab_bmc_ipmi_ops is the real one, on lib/ipmi.c.
 */
struct lab_bmc_ops {
	int	(*open)(const struct lab_ipmi_target *, void **ret,
		    struct lab_err *);
	void	(*close)(void *);
	int	(*power_get)(void *, enum lab_power *, struct lab_err *);
	int	(*power_set)(void *, enum lab_power_action, struct lab_err *);
	int	(*boot_get)(void *, enum lab_boot_dev *, int *persistent,
		    int *efi, struct lab_err *);
	int	(*boot_set)(void *, enum lab_boot_dev, int persistent, int efi,
		    struct lab_err *);
	int	(*sensors)(void *, struct lab_sensor **, size_t *,
		    struct lab_err *);
	int	(*sel)(void *, struct lab_sel_entry **, size_t *,
		    struct lab_err *);
	/*
	 * Power status of many hosts in one loop (lab_ipmi_status_many);
	 * NULL: each host through open and power_get.
	 */
	int	(*status_many)(struct lab_ipmi_many *, size_t n,
		    size_t max_parallel, int64_t (*clock_ms)(void),
		    void (*each)(void *, size_t), void *arg, struct lab_err *);
	/* Sleeps between state polls; a fake may return at once. */
	void	(*sleep_ms)(int);
};

extern const struct lab_bmc_ops lab_bmc_ipmi_ops;

enum lab_bmc_verb {
	LAB_BMC_STATUS,
	LAB_BMC_ON,
	LAB_BMC_OFF,
	LAB_BMC_CYCLE,
	LAB_BMC_RESET,
	LAB_BMC_SOFT,
	LAB_BMC_BOOT_GET,
	LAB_BMC_BOOT_SET,
	LAB_BMC_SENSORS,
	LAB_BMC_SEL,
};

/* What to do to every host of a run. */
struct lab_bmc_req {
	enum lab_bmc_verb	 verb;
	int			 wait;		/* re-read until the state matches */
	int			 timeout_ms;	/* per-host deadline; 0: 10 s */
	int			 poll_ms;	/* between re-reads; 0: 200 ms */
	int			 dry_run;	/* contact nothing, say what */
	size_t			 fanout;	/* 0: LAB_FANOUT_DEFAULT */
	/* per-run overrides of the inventory's BMC settings; 0 = keep */
	int			 privilege;	/* enum lab_ipmi_priv */
	int			 retransmit_ms;
	/* for LAB_BMC_BOOT_SET */
	enum lab_boot_dev	 boot;
	int			 persistent;
	int			 efi;
	const struct lab_bmc_ops *ops;		/* NULL: lab_bmc_ipmi_ops */
	/* the command recorded with each power event ("report --collect");
	 * NULL: the verb's own ("power on", "sensors") */
	const char		*source;
	/*
	 * The hosts named on the command line (lab_target_named: sorted). A host
	 * without a BMC that is not among them was reached through a group,
	 * a range or --all: it is skipped (ok, skipped), not a failure.
	 * NULL: every host counts as named.
	 */
	const struct lab_strv	*named;
};

/* One host's outcome. Strings are owned by the result. */
struct lab_bmc_result {
	char			*host;
	char			*bmc;		/* "192.0.2.21:623", or NULL */
	int			 ok;		/* reached what was asked */
	int			 no_bmc;	/* none recorded: nothing sent */
	int			 skipped;	/* no BMC, not named: ok, nothing done */
	int			 reachable;	/* the BMC answered */
	int			 acted;		/* a command was sent */
	enum lab_power		 before;
	enum lab_power		 state;		/* the end state read back */
	char			*note;		/* "already on", "would send ..." */
	enum lab_boot_dev	 boot;		/* boot get/set */
	int			 persistent;
	int			 efi;
	struct lab_sensor	*sensors;
	size_t			 nsensors;
	struct lab_sel_entry	*sel;
	size_t			 nsel;
	int64_t			 elapsed_ms;
	struct lab_err		 err;		/* why not ok */
	const char		*reason;	/* not ok: a word of
						   lab/reason.h; else NULL */
};

/*
 * Runs req over the named hosts of inv (names as lab_target_resolve gives
 * them). creds may be NULL only for a dry run or when no host has a BMC;
 * a dry run given creds checks each host's credential is in them, as the
 * run would (the host fails the same way), and contacts nothing.
 * *ret (n results, in the order of hosts) is caller-owned
 * (lab_bmc_results_free). Returns -1 only when the run could not start
 * at all; per-host failures are in the results.
 */
int	lab_bmc_run(const struct lab_ctx *, const struct lab_inventory *inv,
	    const struct lab_strv *hosts, const struct lab_creds *creds,
	    const struct lab_bmc_req *req, struct lab_bmc_result **ret,
	    struct lab_err *err);
void	lab_bmc_results_free(struct lab_bmc_result *, size_t n);

/* The verb's name as stored and printed: "on", "status", "boot" ... */
const char *lab_bmc_verb_name(enum lab_bmc_verb);

/*
 * Records a run: one power_events row per host and each host's last known
 * power state, in one transaction.
 */
int	lab_db_bmc_record(struct lab_db *, enum lab_bmc_verb,
	    const struct lab_bmc_result *, size_t n, int64_t now,
	    const char *source, struct lab_err *err);
/* The command a verb's events are recorded under: "power on", "boot set". */
const char *lab_bmc_verb_source(enum lab_bmc_verb);

/*
 * Runs req over hosts (lab_bmc_run) and, unless it is a dry run, records
 * the outcome (lab_db_bmc_record) at now: the one power workflow of
 * lab power, boot, sensors, sel and report --collect. *ret (hosts->n
 * results) is caller-owned. Returns -1 (*ret NULL) when the run could not
 * start or its record failed; per-host failures are in the results.
 */
int	lab_bmc_run_record(const struct lab_ctx *, struct lab_db *,
	    const struct lab_inventory *inv, const struct lab_strv *hosts,
	    const struct lab_creds *creds, const struct lab_bmc_req *req,
	    int64_t now, struct lab_bmc_result **ret, struct lab_err *err);

/* The last known power state of a host (from power status or actions). */
struct lab_power_seen {
	enum lab_power	 state;
	int64_t		 seen_at;	/* when the BMC last answered; 0 never */
	int64_t		 checked_at;	/* when lab last asked; 0 never */
	int		 reachable;
	char		*error;		/* the last error, or NULL */
};

/* Reads it; a host never checked gives checked_at 0. */
int	lab_db_power_seen(struct lab_db *, const char *host,
	    struct lab_power_seen *ret, struct lab_err *err);
void	lab_power_seen_release(struct lab_power_seen *);

#endif
