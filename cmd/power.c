/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/json.h"
#include "lab.h"
#include "stream.h"

static const char *
state_word(const struct lab_bmc_result *r)
{
	if (r->no_bmc)
		return "-";
	return r->state == LAB_POWER_UNKNOWN ? "?" : lab_power_name(r->state);
}

/* A host's row: HOST, STATE, RESULT (the reason when it failed), ERROR. */
static void
row(const void *res, const char **cells)
{
	const struct lab_bmc_result	*r = res;

	cells[0] = r->host;
	cells[1] = state_word(r);
	cells[2] = r->ok || r->no_bmc ? (r->note ? r->note : "ok") : r->reason;
	cells[3] = r->ok ? NULL : r->err.msg;
}

/* The table's header; --csv adds the full error, ERROR. */
static void
head(struct table *t, int csv)
{
	if (csv)
		table_init(t, 4, "HOST", "STATE", "RESULT", "ERROR");
	else
		table_init(t, 3, "HOST", "STATE", "RESULT");
	table_paint(t, 1);
	table_paint(t, 2);
	table_text(t, 2);
	table_text(t, 3);
}

/* STATE holds on, off, ? or -: as wide as its header. */
static const size_t	widths[] = { 0, 5, 0, 0 };

/* Prints the results as a table (stdout) or JSON; failures on stderr. */
static int
report(struct lab_call *call, struct cmd_bmc_run *run, struct lab_err *err)
{
	const struct lab_bmc_result	*r;
	struct lab_buf			 b;
	struct lab_json			 j;
	struct table			 t;
	const char			*cells[4];
	size_t				 i;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	head(&t, call->csv);
	for (i = 0; i < run->n; i++) {
		r = &run->res[i];
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "host", r->host);
		lab_json_kstr(&j, "state", r->state == LAB_POWER_UNKNOWN ? NULL :
		    lab_power_name(r->state));
		lab_json_key(&j, "ok");
		lab_json_bool(&j, r->ok);
		lab_json_kstr(&j, "error", r->ok ? NULL : r->err.msg);
		lab_json_kstr(&j, "reason", r->reason);
		lab_json_kstr(&j, "bmc", r->bmc);
		lab_json_key(&j, "changed");
		lab_json_bool(&j, r->acted);
		lab_json_kstr(&j, "note", r->note);
		lab_json_kint(&j, "elapsed_ms", r->elapsed_ms);
		cmd_bmc_json_row(&j, run->inv, r);
		lab_json_obj_end(&j);
		row(r, cells);
		table_row(&t, cells[0], cells[1], cells[2], cells[3]);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	return cmd_bmc_finish(call, run, &t, &b, err);
}

/*
 * off, cycle, reset and soft of --all are the safety rule's (lab(1),
 * SAFETY): the dry run's table is the plan, then --yes or a "y" on a
 * terminal. Hosts named (b1, @nas, node*) never ask. Returns 1 to go on,
 * 0 when the plan was all (--dry-run), -1 (err) when refused.
 */
static int
all_confirm(struct lab_call *call, struct lab_bmc_req *req,
    struct lab_err *err)
{
	struct lab_bmc_req	plan = *req;
	struct cmd_bmc_run	run;
	struct table		t;
	char			q[160], what[160];
	size_t			n;
	int			rc;

	if (!call->all || call->yes || call->dry_run)
		return 1;
	call->dry_run = 1;	/* the plan: nothing contacted, nothing stored */
	head(&t, call->csv);
	rc = cmd_bmc_run_rows(call, &plan, &run, &t, widths, row, err);
	table_release(&t);
	call->dry_run = 0;
	if (rc == -1)
		return -1;
	n = run.n;
	if (report(call, &run, err) == LAB_EXIT_ENV)
		return -1;
	snprintf(q, sizeof(q), "Apply power %s to these %zu hosts?",
	    lab_bmc_verb_name(req->verb), n);
	snprintf(what, sizeof(what), "this sends power %s to every host "
	    "(--all)", lab_bmc_verb_name(req->verb));
	if ((rc = cmd_confirm(call, q, what, err)) == 1 && !call->json)
		printf("\n");	/* the plan above, the outcome below */
	return rc;
}

static int
power_run(struct lab_call *call, enum lab_bmc_verb verb, int wait,
    struct lab_err *err)
{
	struct lab_bmc_req	req;
	struct cmd_bmc_run	run;
	struct table		t;
	int			rc;

	memset(&req, 0, sizeof(req));
	req.verb = verb;
	req.wait = wait;
	if (cmd_opt(call, "wait") != NULL)
		req.wait = 1;
	if (cmd_opt(call, "no-wait") != NULL)
		req.wait = 0;
	if ((call->verb->flags & LAB_VERB_CONFIRMS) &&
	    (rc = all_confirm(call, &req, err)) != 1) {
		call->no_audit = 1;	/* nothing was sent */
		return rc == 0 ? LAB_EXIT_OK : (int)err->code;
	}
	head(&t, call->csv);
	rc = cmd_bmc_run_rows(call, &req, &run, &t, widths, row, err);
	table_release(&t);
	if (rc == -1)
		return err->code;
	return report(call, &run, err);
}

static int
power_status(struct lab_call *call, struct lab_err *err)
{
	return power_run(call, LAB_BMC_STATUS, 0, err);
}

static int
power_on(struct lab_call *call, struct lab_err *err)
{
	return power_run(call, LAB_BMC_ON, 1, err);
}

static int
power_off(struct lab_call *call, struct lab_err *err)
{
	return power_run(call, LAB_BMC_OFF, 1, err);
}

static int
power_cycle(struct lab_call *call, struct lab_err *err)
{
	return power_run(call, LAB_BMC_CYCLE, 0, err);
}

static int
power_reset(struct lab_call *call, struct lab_err *err)
{
	return power_run(call, LAB_BMC_RESET, 0, err);
}

static int
power_soft(struct lab_call *call, struct lab_err *err)
{
	return power_run(call, LAB_BMC_SOFT, 0, err);
}

static const struct lab_opt wait_opts[] = {
	{ "wait", NULL, "re-read the state until it matches (default for "
	  "on and off)" },
	{ "no-wait", NULL, "report the state read right after the command" },
	{ NULL, NULL, NULL },
};

#define ACT	(LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_DRYRUN | LAB_VERB_TARGETS | \
		 LAB_VERB_MUTATES)
/* what cannot be undone when it is --all (lab(1), SAFETY) */
#define HARD	(ACT | LAB_VERB_CONFIRMS)

static const struct lab_verb power_verbs[] = {
	{ .name = "on", .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = ACT, .run = power_on, .opts = wait_opts,
	  .shared_opts = cmd_bmc_opts,
	  .summary = "power on (a host already on is left alone)" },
	{ .name = "off", .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = HARD, .run = power_off, .opts = wait_opts,
	  .shared_opts = cmd_bmc_opts,
	  .summary = "hard power off" },
	{ .name = "cycle", .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = HARD, .run = power_cycle, .opts = wait_opts,
	  .shared_opts = cmd_bmc_opts,
	  .summary = "power off then on (a host that is off is powered on)" },
	{ .name = "reset", .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = HARD, .run = power_reset, .opts = wait_opts,
	  .shared_opts = cmd_bmc_opts,
	  .summary = "hard reset of a running host" },
	{ .name = "soft", .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = HARD, .run = power_soft, .opts = wait_opts,
	  .shared_opts = cmd_bmc_opts,
	  .summary = "ask the OS to shut down (ACPI)" },
	{ .name = "status", .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_DRYRUN |
		LAB_VERB_TARGETS,
	  .run = power_status, .shared_opts = cmd_bmc_opts,
	  .summary = "read the chassis power state" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_power = {
	.name = "power",
	.summary = "query or change chassis power over IPMI",
	.verbs = power_verbs,
};
