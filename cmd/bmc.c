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
#include "stream.h"

/* What the power, boot, sensors and sel commands share. */

static int	bmc_run(struct lab_call *, struct lab_bmc_req *,
		    struct cmd_bmc_run *, struct cmd_stream *,
		    struct lab_err *);

/* Options the BMC verbs share, defined once. */
const struct lab_opt cmd_bmc_opts[] = {
	{ "timeout", "S", "per-host deadline in seconds (default 10)" },
	{ "fanout", "N", "hosts worked at once (default 64)" },
	{ "privilege", "LEVEL", "user, operator or admin (default: the "
	  "inventory's, else operator)", lab_ipmi_priv_words, 0 },
	{ "retransmit", "MS", "IPMI retransmission timeout (default 500)" },
	{ "verbose", NULL, "one line a failed host on stderr instead of the "
	  "folded summary" },
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
	return cmd_bmc_run_rows(call, req, out, NULL, NULL, NULL, err);
}

/* cmd_bmc_run, its rows streamed on a terminal (stream.h). */
int
cmd_bmc_run_rows(struct lab_call *call, struct lab_bmc_req *req,
    struct cmd_bmc_run *out, const struct table *t, const size_t *widths,
    cmd_row_fn row, struct lab_err *err)
{
	struct cmd_stream	st;

	memset(out, 0, sizeof(*out));
	memset(&st, 0, sizeof(st));
	st.label = call->label;
	st.t = t;
	st.widths = widths;
	st.row = row;
	st.json = call->json;
	if (cmd_bmc_opts_parse(call, req, err) == -1 ||
	    bmc_run(call, req, out, &st, err) == -1) {
		cmd_bmc_release(out);
		return -1;
	}
	return 0;
}

static int
bmc_run(struct lab_call *call, struct lab_bmc_req *req,
    struct cmd_bmc_run *out, struct cmd_stream *st, struct lab_err *err)
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
	st->names = &out->hosts;
	/* lib/bmc.c's defaults: 10 s a host, 64 at once */
	st->deadline_ms = req->timeout_ms > 0 ? req->timeout_ms : 10000;
	st->fanout = req->fanout > 0 ? req->fanout : LAB_FANOUT_DEFAULT;
	cmd_stream_start(st, &ctx);
	rc = lab_bmc_run_record(&ctx, call->db, out->inv, &out->hosts, creds,
	    req, call->now, &out->res, err);
	cmd_stream_stop(st);
	out->streamed = st->rows;
	req->named = NULL;
	lab_strv_release(&named);
	if (rc == -1)
		return -1;
	out->n = out->hosts.n;
	return 0;
}

/*
 * Prints the failures on stderr: one line per distinct failure, hosts
 * folded (--verbose: one a host, host first); returns the exit code: 3
 * when some host failed for want of a local resource (this machine's
 * trouble wins over the BMCs'), else 1 when some failed.
 */
int
cmd_bmc_failures(struct lab_call *call, const struct cmd_bmc_run *run)
{
	char		 first[sizeof(call->audit_msg)];
	struct lab_fail	*f;
	size_t		 i, nf = 0;
	int		 local = 0;

	if ((f = calloc(run->n + 1, sizeof(*f))) == NULL) {
		fprintf(stderr, "lab: %s: out of memory\n", call->label);
		return LAB_EXIT_ENV;
	}
	for (i = 0; i < run->n; i++)
		if (!run->res[i].ok) {
			f[nf].host = run->res[i].host;
			f[nf].addr = run->res[i].bmc;
			f[nf].local = run->res[i].err.local;
			f[nf++].msg = run->res[i].err.msg;
			local |= run->res[i].err.local;
		}
	cmd_failures(call, f, nf, run->n, cmd_opt(call, "verbose") != NULL);
	free(f);
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
	else if (!run->streamed)
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
