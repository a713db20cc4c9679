/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/fanout.h"
#include "lab/json.h"
#include "lab/media.h"
#include "lab/parse.h"
#include "lab/render.h"
#include "lab/target.h"
#include "lab.h"
#include "stream.h"

/* lab media insert|eject|status: an iLO 2's virtual CD-ROM, by URL. */

static int
parse(struct lab_call *call, struct lab_media_req *req, struct lab_err *err)
{
	const char	*s;
	long		 v;

	if ((s = cmd_opt(call, "timeout")) != NULL ||
	    (s = cmd_setting(LAB_CONFIG_TIMEOUT)) != NULL) {
		if (lab_parse_int(s, 1, 3600, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--timeout "
			    "takes seconds from 1 to 3600, not '%s'", s);
		req->timeout_ms = (int)v * 1000;
	}
	if ((s = cmd_opt(call, "fanout")) != NULL ||
	    (s = cmd_setting(LAB_CONFIG_FANOUT)) != NULL) {
		if (lab_parse_int(s, 1, LAB_FANOUT_MAX, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--fanout "
			    "takes a number from 1 to %d, not '%s'",
			    LAB_FANOUT_MAX, s);
		req->fanout = (size_t)v;
	}
	req->accept_new = cmd_opt(call, "accept-new") != NULL;
	req->boot_once = cmd_opt(call, "boot-once") != NULL;
	req->dry_run = call->dry_run;
	req->home = getenv("HOME");
	return 0;
}

static void
json_row(struct lab_json *j, const struct lab_inventory *inv,
    const struct lab_media_result *r)
{
	const struct lab_media_state	*st = &r->state;
	const struct lab_host		*h;
	size_t				 k;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "host", r->host);
	lab_json_kstr(j, "bmc", r->bmc);
	lab_json_key(j, "ok");
	lab_json_bool(j, r->ok);
	lab_json_kstr(j, "error", r->ok ? NULL : r->err.msg);
	lab_json_kstr(j, "reason", r->reason);
	lab_json_key(j, "supported");
	lab_json_bool(j, !r->unsupported);
	lab_json_kstr(j, "image", st->known ? st->image : NULL);
	lab_json_key(j, "connected");
	if (st->known)
		lab_json_bool(j, st->connected);
	else
		lab_json_null(j);
	lab_json_kstr(j, "boot", st->known ? lab_media_boot_name(st->boot) :
	    NULL);
	lab_json_key(j, "applet");
	if (st->known)
		lab_json_bool(j, st->applet);
	else
		lab_json_null(j);
	lab_json_key(j, "changed");
	lab_json_bool(j, r->acted);
	lab_json_key(j, "sent");
	lab_json_arr_begin(j);
	for (k = 0; k < r->sent.n; k++)
		lab_json_str(j, r->sent.v[k]);
	lab_json_arr_end(j);
	lab_json_kstr(j, "note", r->note);
	lab_json_kint(j, "elapsed_ms", r->elapsed_ms);
	/* the members the BMC fan-out rows share (cmd/bmc-json.c) */
	h = lab_inventory_host(inv, r->host);
	lab_json_key(j, "skipped");
	lab_json_bool(j, r->ok && r->unsupported);
	lab_json_key(j, "bmc_info");
	lab_render_bmc_json(j, h != NULL ? h->bmc : NULL);
	lab_json_obj_end(j);
}

/* Prints the results; failures on stderr, host first. The exit code. */
static int
report(struct lab_call *call, const struct lab_inventory *inv,
    struct lab_media_result *res, size_t n, struct lab_err *err)
{
	struct lab_fail	*f;
	struct lab_buf	b;
	struct lab_json	j;
	struct table	t;
	size_t		i, shown = 0, nf = 0;
	int		rc = 0;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	/* --csv: the full message of a failure too, ERROR */
	if (call->csv)
		table_init(&t, 6, "HOST", "IMAGE", "CONNECTED", "BOOT",
		    "RESULT", "ERROR");
	else
		table_init(&t, 5, "HOST", "IMAGE", "CONNECTED", "BOOT",
		    "RESULT");
	table_paint(&t, 4);
	table_text(&t, 1);
	table_text(&t, 4);
	for (i = 0; i < n; i++) {
		const struct lab_media_result	*r = &res[i];
		const struct lab_media_state	*st = &r->state;

		json_row(&j, inv, r);
		/* a refused insert or eject is its one line on stderr */
		if (!r->ok && call->verb->flags & LAB_VERB_MUTATES)
			continue;
		shown++;
		table_row(&t, r->host, st->known ? st->image : NULL,
		    st->known ? (st->connected ? "yes" : "no") : NULL,
		    st->known ? lab_media_boot_name(st->boot) : NULL,
		    r->ok ? (r->note != NULL ? r->note : "ok") : r->reason,
		    r->ok ? NULL : r->err.msg);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (call->json)
		rc = cmd_write(&b, err);
	else if (shown > 0)
		table_print(&t, stdout);
	lab_buf_release(&b);
	table_release(&t);
	if (rc == -1)
		return LAB_EXIT_ENV;
	if ((f = calloc(n + 1, sizeof(*f))) == NULL)
		return lab_err_oom(err), LAB_EXIT_ENV;
	for (i = 0; i < n; i++)
		if (!res[i].ok) {
			f[nf].host = res[i].host;
			f[nf].addr = res[i].bmc;
			f[nf].local = res[i].err.local;
			f[nf++].msg = res[i].err.msg;
			/* this machine's trouble (no fd) wins over a BMC's */
			if (rc != LAB_EXIT_ENV)
				rc = res[i].err.local ?
				    LAB_EXIT_ENV : LAB_EXIT_PARTIAL;
		}
	/* one line per distinct failure, hosts folded (lab(1), OUTPUT) */
	cmd_failures(call, f, nf, n, cmd_opt(call, "verbose") != NULL);
	free(f);
	return rc;
}

static int
media_run(struct lab_call *call, enum lab_media_verb verb,
    struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	struct lab_media_result	*res = NULL;
	struct lab_media_req	 req;
	struct lab_strv		 hosts = { 0 };
	struct lab_ctx		 ctx;
	struct cmd_stream	 st;
	size_t			 i, nwords = (size_t)call->argc;
	int			 rc = -1, need_creds = 0;

	memset(&req, 0, sizeof(req));
	req.verb = verb;
	if (verb == LAB_MEDIA_INSERT) {
		req.url = call->argv[1];
		nwords = 1;
	}
	if (parse(call, &req, err) == -1 ||
	    (verb == LAB_MEDIA_INSERT && lab_media_url_check(req.url,
	    err) == -1) ||
	    cmd_inventory(call, &inv, err) == -1 ||
	    lab_target_resolve(inv, call->argv, nwords, call->all, &hosts,
	    err) == -1)
		goto out;
	if (verb != LAB_MEDIA_STATUS && hosts.n != 1) {
		lab_err_set(err, LAB_EXIT_INPUT, "one host at a time: '%s' "
		    "names %zu", call->argv[0], hosts.n);
		goto out;
	}
	/* a dry run reads the credentials too, to fail where the run would */
	for (i = 0; i < hosts.n; i++) {
		const struct lab_host	*h;

		h = lab_inventory_host(inv, hosts.v[i]);

		if (h->bmc != NULL && strcmp(h->bmc->type, "ilo2") == 0)
			need_creds = 1;
	}
	if (need_creds && lab_creds_load(call->cred_path, &creds, err) == -1)
		goto out;
	lab_ctx_init(&ctx);
	/* the progress line only: the table comes at the end */
	memset(&st, 0, sizeof(st));
	st.label = call->label;
	st.names = &hosts;
	st.deadline_ms = req.timeout_ms > 0 ? req.timeout_ms : 30000;
	st.fanout = req.fanout > 0 ? req.fanout : LAB_FANOUT_DEFAULT;
	cmd_stream_start(&st, &ctx);
	rc = lab_media_run(&ctx, inv, &hosts, creds, &req, &res, err);
	cmd_stream_stop(&st);
	if (rc == -1)
		goto out;
	rc = report(call, inv, res, hosts.n, err);
	lab_media_results_free(res, hosts.n);
out:
	lab_strv_release(&hosts);
	return rc == -1 ? (int)err->code : rc;
}

static int
media_insert(struct lab_call *call, struct lab_err *err)
{
	return media_run(call, LAB_MEDIA_INSERT, err);
}

static int
media_eject(struct lab_call *call, struct lab_err *err)
{
	return media_run(call, LAB_MEDIA_EJECT, err);
}

static int
media_status(struct lab_call *call, struct lab_err *err)
{
	return media_run(call, LAB_MEDIA_STATUS, err);
}

static const struct lab_opt insert_opts[] = {
	{ "boot-once", NULL, "boot from the image at the next boot only "
	  "(without it the iLO boots from it at every boot until eject)" },
	{ "accept-new", NULL, "trust the iLO's host key when known_hosts "
	  "has none for it (it is added)" },
	{ "timeout", "S", "per-host deadline in seconds (default 30)" },
	{ NULL, NULL, NULL },
};

static const struct lab_opt eject_opts[] = {
	{ "accept-new", NULL, "trust the iLO's host key when known_hosts "
	  "has none for it (it is added)" },
	{ "timeout", "S", "per-host deadline in seconds (default 30)" },
	{ NULL, NULL, NULL },
};

static const struct lab_opt status_opts[] = {
	{ "accept-new", NULL, "trust the iLO's host key when known_hosts "
	  "has none for it (it is added)" },
	{ "timeout", "S", "per-host deadline in seconds (default 30)" },
	{ "fanout", "N", "hosts worked at once (default 64)" },
	{ "verbose", NULL, "one line a failed host on stderr instead of the "
	  "folded summary" },
	{ NULL, NULL, NULL },
};

#define ACT	(LAB_VERB_JSON | LAB_VERB_DRYRUN | LAB_VERB_MUTATES)

static const struct lab_verb media_verbs[] = {
	{ .name = "insert", .args = "HOST URL", .min = 2, .max = 2,
	  .flags = ACT, .run = media_insert, .opts = insert_opts,
	  .summary = "put the ISO image at URL in the host's virtual CD-ROM "
		"(iLO 2)" },
	{ .name = "eject", .args = "HOST", .min = 1, .max = 1, .flags = ACT,
	  .run = media_eject, .opts = eject_opts,
	  .summary = "take the image out of the host's virtual CD-ROM (iLO "
		"2)" },
	{ .name = "status", .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_TARGETS,
	  .run = media_status, .opts = status_opts,
	  .summary = "show what each host's virtual CD-ROM holds" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_media = {
	.name = "media",
	.summary = "virtual media: an ISO image by URL in a host's CD-ROM "
	    "(iLO 2)",
	.verbs = media_verbs,
};
