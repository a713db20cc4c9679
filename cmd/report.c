/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab/file.h"
#include "lab/history.h"
#include "lab/json.h"
#include "lab/parse.h"
#include "lab/render.h"
#include "lab/report.h"
#include "lab/switch.h"
#include "lab.h"
#include "since.h"

/* What a collect could not reach: findings added to the report. */
struct missed {
	struct lab_strv	 subject;
	struct lab_strv	 message;
};

static void
missed_add(struct missed *m, const char *subject, const char *fmt,
    const char *what)
{
	char	msg[640];

	snprintf(msg, sizeof(msg), fmt, what);
	if (lab_strv_add(&m->subject, subject) == -1 ||
	    lab_strv_add(&m->message, msg) == -1)
		abort();
}

/* lab report --runs: the recorded runs, the baselines --since picks. */
static int
list_runs(struct lab_call *call, int json, struct lab_err *err)
{
	struct lab_report_run	*v = NULL;
	struct lab_buf		 b;
	struct lab_json		 j;
	struct table		 t;
	char			 id[24], when[32], facts[24];
	size_t			 n = 0, i;
	int			 rc = LAB_EXIT_OK;

	if (cmd_db(call, LAB_DB_READONLY, err) == -1 ||
	    lab_report_runs(call->db, &v, &n, err) == -1)
		return err->code ? (int)err->code : LAB_EXIT_ENV;
	if (json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_arr_begin(&j);
		for (i = 0; i < n; i++) {
			lab_json_obj_begin(&j);
			lab_json_kint(&j, "id", v[i].id);
			lab_json_ktime(&j, "time", v[i].time);
			lab_json_kint(&j, "facts", (int64_t)v[i].facts);
			lab_json_obj_end(&j);
		}
		lab_json_arr_end(&j);
		lab_json_end(&j);
		if (cmd_write(&b, err) == -1)
			rc = LAB_EXIT_ENV;
		lab_buf_release(&b);
	} else {
		table_init(&t, 3, "RUN", "TIME", "FACTS");
		for (i = 0; i < n; i++) {
			snprintf(id, sizeof(id), "%lld", (long long)v[i].id);
			lab_format_time(v[i].time, when, sizeof(when));
			snprintf(facts, sizeof(facts), "%zu", v[i].facts);
			table_row(&t, id, when, facts);
		}
		table_print(&t, stdout);
		table_release(&t);
	}
	free(v);
	return rc;
}

static void
collect_power(struct lab_call *call, const struct lab_inventory *inv,
    const struct lab_creds *creds, int timeout_ms, struct missed *m,
    struct lab_strv *answered)
{
	struct lab_bmc_result	*res = NULL;
	struct lab_bmc_req	 req;
	struct lab_strv		 hosts;
	struct lab_ctx		 ctx;
	struct lab_err		 e;
	size_t			 i;

	memset(&e, 0, sizeof(e));
	lab_strv_init(&hosts);
	for (i = 0; i < inv->nhosts; i++)
		if (inv->hosts[i].bmc != NULL &&
		    lab_strv_add(&hosts, inv->hosts[i].name) == -1)
			abort();
	if (hosts.n == 0)
		goto out;
	memset(&req, 0, sizeof(req));
	req.verb = LAB_BMC_STATUS;
	req.timeout_ms = timeout_ms;
	req.source = "report --collect";
	lab_ctx_init(&ctx);
	/* an unreachable BMC is recorded, and derived as a finding */
	if (lab_bmc_run_record(&ctx, call->db, inv, &hosts, creds, &req,
	    call->now, &res, &e) == -1)
		missed_add(m, "power", "power status not collected: %s",
		    e.msg);
	for (i = 0; res != NULL && i < hosts.n; i++)
		if (res[i].reachable &&
		    lab_strv_add(answered, res[i].host) == -1)
			abort();
out:
	lab_bmc_results_free(res, res ? hosts.n : 0);
	lab_strv_release(&hosts);
}

/*
 * Reads and records every BMC's sensors (the history and the report's
 * temperatures). A BMC that does not answer is already a finding of the
 * power collect: only the BMCs that answered it are asked.
 */
static void
collect_sensors(struct lab_call *call, const struct lab_inventory *inv,
    const struct lab_creds *creds, int timeout_ms, struct missed *m,
    const struct lab_strv *hosts)
{
	struct lab_bmc_result	*res = NULL;
	struct lab_bmc_req	 req;
	struct lab_ctx		 ctx;
	struct lab_err		 e;
	int64_t			 run;

	memset(&e, 0, sizeof(e));
	if (hosts->n == 0)
		return;
	memset(&req, 0, sizeof(req));
	req.verb = LAB_BMC_SENSORS;
	req.timeout_ms = timeout_ms;
	req.source = "report --collect";
	lab_ctx_init(&ctx);
	if (lab_bmc_run_record(&ctx, call->db, inv, hosts, creds, &req,
	    call->now, &res, &e) == -1 ||
	    lab_db_sensors_record(call->db, res, hosts->n, call->now,
	    "report --collect", &run, &e) == -1)
		missed_add(m, "sensors", "sensors not collected: %s", e.msg);
	lab_bmc_results_free(res, res ? hosts->n : 0);
}

static void
collect_switches(struct lab_call *call, const struct lab_inventory *inv,
    const struct lab_creds *creds, int timeout_ms, int deadline_s,
    struct missed *m)
{
	struct lab_switch_collected	 c;
	struct lab_switch_req		 req;
	struct lab_strv			 names;
	struct lab_ctx			 ctx;
	struct lab_err			 e;
	size_t				 i;

	memset(&e, 0, sizeof(e));
	lab_strv_init(&names);
	for (i = 0; i < inv->nswitches; i++)
		if (lab_strv_add(&names, inv->switches[i].name) == -1)
			abort();
	if (names.n == 0)
		goto out;
	memset(&req, 0, sizeof(req));
	req.timeout_ms = timeout_ms;
	req.retries = 0;
	req.deadline_s = deadline_s;
	lab_ctx_init(&ctx);
	if (lab_switch_collect(&ctx, call->db, inv, &names, creds, &req,
	    call->now, &c, &e) == -1) {
		missed_add(m, "switches", "switch discovery not collected: %s",
		    e.msg);
		goto out;
	}
	for (i = 0; i < c.n; i++)
		if (!c.views[i].ok)
			missed_add(m, c.views[i].name, "switch did not answer "
			    "discovery: %s", c.views[i].err.msg);
	lab_switch_collected_release(&c);
out:
	lab_strv_release(&names);
}

/* Refreshes power and switch data; what does not answer is a finding. */
static int
collect(struct lab_call *call, int timeout_ms, int deadline_s,
    struct missed *m, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	struct lab_strv	answered;
	struct lab_err	e;

	if (cmd_inventory(call, &inv, err) == -1)
		return -1;
	if (inv->nhosts + inv->nswitches == 0)
		return 0;
	memset(&e, 0, sizeof(e));
	if (lab_creds_load(call->cred_path, &creds, &e) == -1) {
		missed_add(m, "collect", "power status and switch discovery "
		    "skipped: %s", e.msg);
		return 0;
	}
	lab_strv_init(&answered);
	collect_power(call, inv, creds, timeout_ms, m, &answered);
	collect_sensors(call, inv, creds, timeout_ms, m, &answered);
	lab_strv_release(&answered);
	collect_switches(call, inv, creds, timeout_ms, deadline_s, m);
	return 0;
}

/* What --format takes. */
static const char *const formats[] = { "text", "markdown", "html", "json",
	"prometheus", NULL };

static int
report_run(struct lab_call *call, struct lab_err *err)
{
	const char		*fmt = cmd_opt(call, "format");
	const char		*out = cmd_opt(call, "out");
	const char		*s;
	struct lab_report	*r = NULL;
	struct missed		 m;
	struct lab_buf		 b;
	int64_t			 since_run = 0, since_time = 0, id;
	long			 t = 10;
	int			 deadline_s, rc = LAB_EXIT_OK;
	int			 html_file;
	struct lab_err		 e;
	size_t			 k;
	int			 collecting = cmd_opt(call, "collect") != NULL;
	/* only the nightly run records a baseline; reading changes nothing */
	int			 record = collecting ||
				    cmd_opt(call, "record") != NULL;

	if (fmt == NULL)
		fmt = call->json ? "json" : "text";
	for (k = 0; formats[k] != NULL && strcmp(fmt, formats[k]) != 0; k++)
		;
	if (formats[k] == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown format '%s' "
		    "(text, markdown, html, json or prometheus)", fmt),
		    LAB_EXIT_INPUT;
	if (cmd_opt(call, "runs") != NULL) {
		if (record || out != NULL || cmd_opt(call, "since") != NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "--runs lists "
			    "the report runs: it takes no --record, --collect, "
			    "--since or --out"), LAB_EXIT_INPUT;
		return list_runs(call, strcmp(fmt, "json") == 0, err);
	}
	if ((s = cmd_opt(call, "since")) != NULL &&
	    cmd_parse_since(s, call->now, &since_run, &since_time) == -1)
		return lab_err_set(err, LAB_EXIT_INPUT, "--since takes a "
		    "report run id ('12', see --runs), a time "
		    "('2026-11-30T18:00:00Z', '2026-11-30') or hours or days "
		    "back ('24h', '7d'), not '%s'", s), LAB_EXIT_INPUT;
	if ((s = cmd_opt(call, "timeout")) != NULL &&
	    lab_parse_int(s, 1, 600, &t) == -1)
		return lab_err_set(err, LAB_EXIT_INPUT, "--timeout takes "
		    "seconds from 1 to 600, not '%s'", s), LAB_EXIT_INPUT;
	if (cmd_switch_deadline(cmd_opt(call, "deadline"), &deadline_s,
	    err) == -1)
		return LAB_EXIT_INPUT;
	lab_strv_init(&m.subject);
	lab_strv_init(&m.message);
	lab_buf_init(&b);
	if (cmd_db(call, record ? 0 : LAB_DB_READONLY, err) == -1 ||
	    (collecting && collect(call, (int)t * 1000, deadline_s, &m,
	    err) == -1) ||
	    lab_report_build(call->db, call->now, since_run, since_time, &r,
	    err) == -1)
		goto fail;
	if (lab_report_add_findings(r, "warning", m.subject.v, m.message.v,
	    m.subject.n, err) == -1)
		goto fail;
	if (record && lab_report_record(call->db, r, &id, err) == -1)
		goto fail;
	memset(&e, 0, sizeof(e));
	/* a page written into a folder of reports links its neighbours */
	html_file = out != NULL && strcmp(fmt, "html") == 0;
	if (html_file) {
		if (lab_report_pages_find(out, &r->page_prev, &r->page_next,
		    err) == -1)
			goto fail;
		r->paged = 1;
	}
	if (strcmp(fmt, "markdown") == 0)
		lab_report_markdown(r, &b);
	else if (strcmp(fmt, "html") == 0)
		lab_report_html(r, &b);
	else if (strcmp(fmt, "json") == 0)
		lab_report_json(r, &b);
	else if (strcmp(fmt, "prometheus") == 0)
		lab_report_prometheus(r, &b);
	else
		lab_report_text(r, &b);
	if (out != NULL) {
		if (b.oom) {
			lab_err_oom(err);
			goto fail;
		}
		if (lab_file_write_out(out, b.s, b.len, err) == -1)
			goto fail;
		/* the page before it: its "next" link now points here */
		if (html_file && r->page_prev != NULL &&
		    lab_report_pages_link_next(out, r->page_prev, &e) == -1)
			fprintf(stderr, "lab: warning: the previous report's "
			    "next link is not updated: %s\n", e.msg);
		printf("%s\n", out);
	} else if (cmd_write(&b, err) == -1)
		goto fail;
	goto done;
fail:
	rc = err->code ? (int)err->code : LAB_EXIT_ENV;
done:
	lab_buf_release(&b);
	lab_report_free(r);
	lab_strv_release(&m.subject);
	lab_strv_release(&m.message);
	return rc;
}

static const struct lab_opt report_opts[] = {
	{ "format", "FORMAT", "text (default), markdown, html, json or "
	  "prometheus (a node_exporter textfile)",
	  formats, 0 },
	{ "out", "FILE", "write the report to FILE (atomically, keeping its "
	  "mode; a device or FIFO is written to; a symlink is followed) and "
	  "print its path; an HTML FILE links the previous and next lab "
	  "reports of its folder, and the previous one's next link is "
	  "updated to it" },
	{ "since", "WHEN", "changes since report run WHEN ('12', see --runs), "
	  "else since the last run at or before WHEN: "
	  "'2026-11-30T18:00:00Z', '2026-11-30', '24h' or '7d' (default: "
	  "the last run)" },
	{ "record", NULL, "record this report run: the baseline the next "
	  "reports compare with (without it the database is only read)" },
	{ "runs", NULL, "list the recorded report runs (id, time, facts)" },
	{ "collect", NULL, "first read every BMC's power state and sensors "
	  "(recorded for lab history) and discover every switch (implies "
	  "--record)" },
	{ "timeout", "S", "deadline per BMC and per SNMP request of "
	  "--collect (default 10)" },
	{ "deadline", "S", "seconds for the whole discovery of each switch "
	  "by --collect (default: config switch_deadline, else 120)" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb report_verbs[] = {
	{ .name = NULL, .args = "", .min = 0, .max = 0, .flags = LAB_VERB_JSON,
	  .run = report_run, .opts = report_opts,
	  .summary = "the inventory report: hosts, power, disks, switch "
		"ports, changes since the last report, findings and the "
		"audit log" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_report = {
	.name = "report",
	.summary = "the nightly inventory report (text, markdown, html, json)",
	.verbs = report_verbs,
};
