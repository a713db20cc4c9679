/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/fanout.h"
#include "lab/ipmi.h"
#include "lab/parse.h"
#include "lab/target.h"
#include "lab.h"

/* What the power, boot, sensors and sel commands share. */

static void
progress(void *arg, const char *host, size_t done, size_t total)
{
	const char	*label = arg;

	fprintf(stderr, "\r\033[K%s: %zu/%zu %s", label, done, total, host);
	if (done == total)
		fprintf(stderr, "\r\033[K");
}

static int	bmc_run(struct lab_call *, struct lab_bmc_req *,
		    struct cmd_bmc_run *, struct lab_err *);

/* Options the BMC verbs share, defined once. */
const struct lab_opt cmd_bmc_opts[] = {
	{ "timeout", "S", "per-host deadline in seconds (default 10)" },
	{ "fanout", "N", "hosts worked at once (default 64)" },
	{ "privilege", "LEVEL", "user, operator or admin (default: the "
	  "inventory's, else operator)", lab_ipmi_priv_words, 0 },
	{ "retransmit", "MS", "IPMI retransmission timeout (default 500)" },
	{ NULL, NULL, NULL },
};

/* Parses the shared options into req. */
int
cmd_bmc_opts_parse(struct lab_call *call, struct lab_bmc_req *req,
    struct lab_err *err)
{
	const char	*s;
	long		 v;

	if ((s = cmd_opt(call, "timeout")) != NULL ||
	    (s = cmd_setting(LAB_CONFIG_TIMEOUT)) != NULL) {
		if (lab_parse_int(s, 1, 3600, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--timeout takes "
			    "seconds from 1 to 3600, not '%s'", s);
		req->timeout_ms = (int)v * 1000;
	}
	if ((s = cmd_opt(call, "fanout")) != NULL ||
	    (s = cmd_setting(LAB_CONFIG_FANOUT)) != NULL) {
		if (lab_parse_int(s, 1, LAB_FANOUT_MAX, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--fanout takes "
			    "a number from 1 to %d, not '%s'", LAB_FANOUT_MAX,
			    s);
		req->fanout = (size_t)v;
	}
	if ((s = cmd_opt(call, "privilege")) != NULL) {
		if ((req->privilege = lab_ipmi_priv_parse(s)) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--privilege is "
			    "user, operator or admin, not '%s'", s);
	}
	if ((s = cmd_opt(call, "retransmit")) != NULL) {
		if (lab_parse_int(s, 10, 60000, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--retransmit "
			    "takes milliseconds from 10 to 60000, not '%s'", s);
		req->retransmit_ms = (int)v;
	}
	req->dry_run = call->dry_run;
	return 0;
}

/*
 * Parses the shared options, resolves the call's targets, loads the
 * credentials when a BMC will be contacted, runs req and records the
 * outcome. Returns -1 (err set, out released) when the run could not be.
 */
int
cmd_bmc_run(struct lab_call *call, struct lab_bmc_req *req,
    struct cmd_bmc_run *out, struct lab_err *err)
{
	memset(out, 0, sizeof(*out));
	if (cmd_bmc_opts_parse(call, req, err) == -1 ||
	    bmc_run(call, req, out, err) == -1) {
		cmd_bmc_release(out);
		return -1;
	}
	return 0;
}

static int
bmc_run(struct lab_call *call, struct lab_bmc_req *req,
    struct cmd_bmc_run *out, struct lab_err *err)
{
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	struct lab_strv	named;
	struct lab_ctx	ctx;
	size_t		i;
	int		need_creds = 0, rc;

	/* BMCs and groups: NICs and disks of 10,000 hosts are not needed */
	if (cmd_db(call, 0, err) == -1 ||
	    lab_db_inventory_load_parts(call->db, LAB_LOAD_HOSTS |
	    LAB_LOAD_BMCS | LAB_LOAD_MEMBERSHIPS, NULL, &out->inv, err) == -1 ||
	    lab_target_resolve(out->inv, call->argv, (size_t)call->argc,
	    call->all, &out->hosts, err) == -1)
		return -1;
	/* a dry run reads the credentials too, to fail where the run would
	   (a missing file, a name not in it); it never prints them */
	for (i = 0; i < out->hosts.n; i++)
		if (lab_inventory_host(out->inv, out->hosts.v[i])->bmc != NULL)
			need_creds = 1;
	if (need_creds && lab_creds_load(call->cred_path, &creds, err) == -1)
		return -1;
	if (lab_target_named(out->inv, call->argv, (size_t)call->argc,
	    &named, err) == -1)
		return -1;
	req->named = &named;
	lab_ctx_init(&ctx);
	if (isatty(STDERR_FILENO) && out->hosts.n > 1) {
		ctx.progress = progress;
		ctx.progress_arg = call->label;
	}
	rc = lab_bmc_run_record(&ctx, call->db, out->inv, &out->hosts, creds,
	    req, call->now, &out->res, err);
	req->named = NULL;
	lab_strv_release(&named);
	if (rc == -1)
		return -1;
	out->n = out->hosts.n;
	return 0;
}

/*
 * Prints each failure on stderr, host first; returns the exit code: 3 when
 * some host failed for want of a local resource (this machine's trouble
 * wins over the BMCs'), else 1 when some failed.
 */
int
cmd_bmc_failures(struct lab_call *call, const struct cmd_bmc_run *run)
{
	char	first[sizeof(call->audit_msg)];
	size_t	i;
	int	local = 0;

	for (i = 0; i < run->n; i++)
		if (!run->res[i].ok) {
			cmd_host_failed(call, run->res[i].host,
			    run->res[i].err.msg);
			local |= run->res[i].err.local;
		}
	if (call->failed == 0)
		return LAB_EXIT_OK;
	/* the audit log keeps the count and the first reason */
	memcpy(first, call->audit_msg, sizeof(first));
	snprintf(call->audit_msg, sizeof(call->audit_msg), "%zu of %zu hosts "
	    "failed; first %s", call->failed, run->n, first);
	return local ? LAB_EXIT_ENV : LAB_EXIT_PARTIAL;
}

/*
 * Prints the table (or, with --json, the JSON), then each host's failure on
 * stderr; frees the run, the table and the buffer. Returns the exit code.
 */
int
cmd_bmc_finish(struct lab_call *call, struct cmd_bmc_run *run,
    struct table *t, struct lab_buf *json, struct lab_err *err)
{
	int	rc = 0;

	if (call->json)
		rc = cmd_write(json, err);
	else
		table_print(t, stdout);
	lab_buf_release(json);
	table_release(t);
	rc = rc == -1 ? LAB_EXIT_ENV : cmd_bmc_failures(call, run);
	cmd_bmc_release(run);
	return rc;
}

/* Frees what cmd_bmc_run filled. */
void
cmd_bmc_release(struct cmd_bmc_run *run)
{
	lab_bmc_results_free(run->res, run->n);
	lab_strv_release(&run->hosts);
	lab_inventory_free(run->inv);
	memset(run, 0, sizeof(*run));
}
