/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Virtual media across hosts: the order of the iLO 2's CLP commands, and
 * the one line for BMCs that have none. See include/lab/media.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/fanout.h"
#include "lab/media.h"
#include "lab/reason.h"
#include "lab/text.h"

#define DEFAULT_TIMEOUT_MS	30000
#define URL_MAX			1024

/* One run: shared by every worker; each writes only its own result. */
struct run {
	const struct lab_ctx		*ctx;
	const struct lab_media_req	*req;
	const struct lab_clp_ops	*ops;
	const struct lab_creds		*creds;
	struct lab_fanout_job		 job;
};

/* One host's session with its iLO. */
struct conv {
	const struct lab_clp_ops	*ops;
	void				*conn;
	struct lab_media_result		*r;
	const char			*peer;
};

/* Checks an image URL. */
int
lab_media_url_check(const char *url, struct lab_err *err)
{
	const char	*rest, *p;

	char		*shown;

	if (url == NULL || (strncmp(url, "http://", 7) != 0 &&
	    strncmp(url, "https://", 8) != 0)) {
		shown = lab_url_redact(url != NULL ? url : "");
		lab_err_set(err, LAB_EXIT_INPUT, "the image URL must "
		    "start with http:// or https:// (the iLO fetches it), not "
		    "'%.64s'", shown != NULL ? shown : "");
		free(shown);
		return -1;
	}
	rest = strstr(url, "://") + 3;
	if (*rest == '\0' || *rest == '/') {
		shown = lab_url_redact(url);
		lab_err_set(err, LAB_EXIT_INPUT, "the image URL '%.64s' "
		    "names no server", shown != NULL ? shown : "");
		free(shown);
		return -1;
	}
	if (strlen(url) > URL_MAX)
		return lab_err_set(err, LAB_EXIT_INPUT, "the image URL is "
		    "longer than %d characters", URL_MAX);
	/* it travels inside a CLP command line: no spaces, no quoting */
	for (p = url; *p != '\0'; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '"' || *p == '\'' ||
		    *p == '\\' || *p == '`' || *p == '<' || *p == '>')
			return lab_err_set(err, LAB_EXIT_INPUT, "the image "
			    "URL has a character the iLO's command line cannot "
			    "take (0x%02x at %zu): percent-encode it",
			    (unsigned char)*p, (size_t)(p - url) + 1);
	return 0;
}

static void
set_note(struct lab_media_result *r, const char *note)
{
	free(r->note);
	r->note = lab_strdup(note);
}

/* The one line for a BMC without scriptable virtual media. */
static void
unsupported(const struct lab_host *h, const struct lab_media_req *req,
    struct lab_media_result *r)
{
	const char	*type = h->bmc != NULL ? h->bmc->type : NULL;

	r->unsupported = 1;
	set_note(r, h->bmc == NULL ? "no BMC recorded" :
	    "no scriptable virtual media");
	/* reading nothing from nothing is fine; changing it is not */
	r->ok = req->verb == LAB_MEDIA_STATUS;
	if (r->ok)
		return;
	if (h->bmc == NULL)
		lab_err_set(&r->err, LAB_EXIT_PARTIAL, "no BMC recorded: no "
		    "virtual media (boot it from a disc or PXE by hand)");
	else
		lab_err_set(&r->err, LAB_EXIT_PARTIAL, "%s has no scriptable "
		    "virtual media%s: use 'lab boot %s pxe', or 'lab boot %s "
		    "cdrom' with a physical or USB disc",
		    type != NULL && strcmp(type, "rac") == 0 ?
		    "the Remote Access Card" : "a plain IPMI BMC",
		    type != NULL && strcmp(type, "rac") == 0 ?
		    " (only its Java applet)" : "", h->name, h->name);
}

/*
 * Runs one CLP command; anything but status=0 fails, quoting the iLO.
 * rep is filled on success (release it).
 */
static int
clp(struct conv *cv, const char *cmd, struct lab_clp_reply *rep,
    struct lab_err *err)
{
	struct lab_media_result	*r = cv->r;
	LAB_CLEANUP(lab_freep) char *shown = lab_url_redact(cmd);
	LAB_CLEANUP(lab_freep) char *said = NULL;
	char			*out = NULL, done[256];
	size_t			 len = 0, i;
	int			 rc;

	/* what was already changed, for the message if this one fails */
	done[0] = '\0';
	for (i = 0; i < r->sent.n; i++)
		if (strcmp(r->sent.v[i], "vm cdrom get") != 0)
			snprintf(done + strlen(done), sizeof(done) -
			    strlen(done), "%s%s", done[0] ? ", " : "",
			    r->sent.v[i]);
	/* what lab keeps and shows has the URL's password hidden */
	if (shown == NULL || lab_strv_add(&r->sent, shown) == -1)
		return lab_err_oom(err);
	if (strcmp(cmd, "vm cdrom get") != 0)
		r->acted = 1;
	if (cv->ops->run(cv->conn, cmd, &out, &len, err) == -1)
		return -1;
	rc = lab_clp_parse(out, len, rep, err);
	free(out);
	if (rc == -1)
		return -1;
	if (rep->status == 0)
		return 0;
	/* the iLO may quote the URL back */
	said = lab_url_redact(rep->status < 0 ? (rep->lines.n > 0 ?
	    rep->lines.v[0] : "") : rep->message != NULL ? rep->message : "");
	if (said == NULL)
		lab_err_oom(err);
	else if (rep->status < 0)
		lab_err_set(err, LAB_EXIT_PARTIAL, "iLO %s answered '%s' "
		    "without a status line%s%s", cv->peer, shown,
		    *said != '\0' ? ": " : "", said);
	else
		lab_err_set(err, LAB_EXIT_PARTIAL, "iLO %s answered '%s' with "
		    "status=%d %s%s%s%s%s%s", cv->peer, shown, rep->status,
		    rep->status_tag != NULL ? rep->status_tag : "",
		    rep->error_tag != NULL ? " (" : "",
		    rep->error_tag != NULL ? rep->error_tag : "",
		    rep->error_tag != NULL ? ")" : "",
		    rep->message != NULL ? ": " : "", said);
	if (done[0] != '\0')
		lab_err_prefix(err, "after %s", done);
	lab_clp_reply_release(rep);
	return -1;
}

/* "vm cdrom get" into r->state. */
static int
get(struct conv *cv, struct lab_err *err)
{
	struct lab_clp_reply	rep;
	int			rc;

	lab_media_state_release(&cv->r->state);
	if (clp(cv, "vm cdrom get", &rep, err) == -1)
		return -1;
	rc = lab_media_state_parse(&rep, &cv->r->state, err);
	if (rc == -1)
		lab_err_prefix(err, "iLO %s", cv->peer);
	lab_clp_reply_release(&rep);
	return rc;
}

static int
send_cmd(struct conv *cv, const char *cmd, struct lab_err *err)
{
	struct lab_clp_reply	rep;

	if (clp(cv, cmd, &rep, err) == -1)
		return -1;
	lab_clp_reply_release(&rep);
	return 0;
}

static int
applet_holds(struct conv *cv, struct lab_err *err)
{
	if (!cv->r->state.applet)
		return 0;
	return lab_err_set(err, LAB_EXIT_PARTIAL, "iLO %s: the Virtual Media "
	    "applet holds the CD-ROM (a remote console has it connected): "
	    "nothing changed", cv->peer);
}

static int
is_boot(const struct lab_media_state *st, const char *b)
{
	return st->boot != NULL && strcmp(st->boot, b) == 0;
}

static int
insert(struct conv *cv, const struct lab_media_req *req, struct lab_err *err)
{
	struct lab_media_state	*st = &cv->r->state;
	char			*cmd, *old = NULL;
	int			 same, rc;

	if (get(cv, err) == -1 || applet_holds(cv, err) == -1)
		return -1;
	same = st->image != NULL && strcmp(st->image, req->url) == 0;
	if (same && st->connected && (!req->boot_once ||
	    is_boot(st, "BOOT_ONCE"))) {
		set_note(cv->r, "already inserted");
		return 0;
	}
	if (st->image != NULL && !same) {
		if ((old = lab_strdup(st->image)) == NULL)
			return lab_err_oom(err);
		if (send_cmd(cv, "vm cdrom eject", err) == -1) {
			free(old);
			return -1;
		}
	}
	/* HP's order: the image, then connect, then the boot option */
	if (!same) {
		cmd = lab_asprintf("vm cdrom insert %s", req->url);
		if (cmd == NULL) {
			free(old);
			return lab_err_oom(err);
		}
		rc = send_cmd(cv, cmd, err);
		free(cmd);
		if (rc == -1) {
			free(old);
			return -1;
		}
	}
	if ((!same || !st->connected) &&
	    send_cmd(cv, "vm cdrom set connect", err) == -1) {
		free(old);
		return -1;
	}
	if (req->boot_once &&
	    send_cmd(cv, "vm cdrom set boot_once", err) == -1) {
		free(old);
		return -1;
	}
	rc = get(cv, err);
	if (rc == 0 && (st->image == NULL || strcmp(st->image, req->url) != 0 ||
	    !st->connected || (req->boot_once && !is_boot(st, "BOOT_ONCE")))) {
		char	*img = lab_url_redact(st->image != NULL ? st->image :
			    "(none)");

		rc = lab_err_set(err, LAB_EXIT_PARTIAL, "iLO %s accepted every "
		    "command but now reports image '%s', %s, boot option %s",
		    cv->peer, img != NULL ? img : "?",
		    st->connected ? "connected" : "not connected",
		    st->boot != NULL ? st->boot : "(none)");
		free(img);
	}
	if (rc == 0 && old != NULL) {
		char	*note = lab_asprintf("inserted (ejected %s)", old);

		set_note(cv->r, note != NULL ? note : "inserted");
		free(note);
	} else if (rc == 0)
		set_note(cv->r, same ? "connected" : "inserted");
	free(old);
	return rc;
}

static int
eject(struct conv *cv, struct lab_err *err)
{
	if (get(cv, err) == -1 || applet_holds(cv, err) == -1)
		return -1;
	if (cv->r->state.image == NULL && !cv->r->state.connected) {
		set_note(cv->r, "nothing inserted");
		return 0;
	}
	if (send_cmd(cv, "vm cdrom eject", err) == -1 || get(cv, err) == -1)
		return -1;
	if (cv->r->state.image != NULL) {
		char	*img = lab_url_redact(cv->r->state.image);

		lab_err_set(err, LAB_EXIT_PARTIAL, "iLO %s accepted "
		    "'vm cdrom eject' but still reports image '%s'", cv->peer,
		    img != NULL ? img : "?");
		free(img);
		return -1;
	}
	set_note(cv->r, "ejected");
	return 0;
}

static void
dry_note(struct lab_media_result *r, const struct lab_media_req *req)
{
	char	*n;

	if (req->verb == LAB_MEDIA_INSERT)
		n = lab_asprintf("would send: vm cdrom get, [vm cdrom eject], "
		    "vm cdrom insert %s, vm cdrom set connect%s, vm cdrom get",
		    req->url, req->boot_once ? ", vm cdrom set boot_once" : "");
	else if (req->verb == LAB_MEDIA_EJECT)
		n = lab_asprintf("would send: vm cdrom get, vm cdrom eject, "
		    "vm cdrom get");
	else
		n = lab_asprintf("would send: vm cdrom get");
	free(r->note);
	r->note = n;
}

/* Replaces *s by a copy with its URLs' passwords hidden. */
static void
redact(char **s)
{
	char	*r;

	if (*s == NULL || (r = lab_url_redact(*s)) == NULL)
		return;
	free(*s);
	*s = r;
}

/*
 * What the run keeps about the host, its URLs' passwords hidden: the
 * commands sent, the iLO's image URL, the note and the error (which quote
 * both). Only the command sent to the iLO had the real URL.
 */
static void
scrub(struct lab_media_result *r)
{
	char	*m;
	size_t	 i;

	for (i = 0; i < r->sent.n; i++)
		redact(&r->sent.v[i]);
	redact(&r->state.image);
	redact(&r->note);
	if (r->err.code != LAB_EXIT_OK &&
	    (m = lab_url_redact(r->err.msg)) != NULL) {
		snprintf(r->err.msg, sizeof(r->err.msg), "%s", m);
		lab_utf8_trim(r->err.msg);
		free(m);
	}
}

/* Works one host from start to end. */
static void
work_host(void *arg, const void *item, void *res)
{
	struct run			*run = arg;
	const struct lab_media_req	*req = run->req;
	const struct lab_host		*h = item;
	struct lab_media_result		*r = res;
	const struct lab_cred		*cred;
	struct lab_clp_target		 t;
	struct conv			 cv;
	char				*known = NULL;
	int64_t				 start;
	int				 rc;

	start = run->ctx->monotonic_ms();
	if (h->bmc == NULL || h->bmc->type == NULL ||
	    strcmp(h->bmc->type, "ilo2") != 0) {
		unsupported(h, req, r);
		return;
	}
	r->bmc = lab_asprintf("%s:%d", h->bmc->address, 22);
	/* a dry run given the credentials checks the name as the run does */
	cred = lab_creds_find(run->creds, h->bmc->credential);
	if ((!req->dry_run || run->creds != NULL) && (cred == NULL ||
	    cred->username == NULL || cred->password == NULL)) {
		lab_err_why(&r->err, LAB_REASON_NO_CRED, LAB_EXIT_PARTIAL,
		    "credential '%s' %s in "
		    "the credentials file", h->bmc->credential, cred == NULL ?
		    "is not" : "has no username and password");
		return;
	}
	if (req->dry_run) {
		dry_note(r, req);
		r->ok = 1;
		return;
	}
	memset(&t, 0, sizeof(t));
	t.label = h->name;
	t.address = h->bmc->address;
	t.port = 22;
	t.user = cred->username;
	t.password = cred->password;
	t.ctx = run->ctx;
	if (h->ssh != NULL) {
		/* the host's SSH settings say how old its iLO is, too */
		known = lab_path_home(h->ssh->known_hosts, req->home);
		t.known_hosts = known;
		t.legacy_crypto = h->ssh->legacy_crypto;
	}
	t.accept_new = req->accept_new;
	t.timeout_ms = req->timeout_ms > 0 ? req->timeout_ms :
	    DEFAULT_TIMEOUT_MS;
	memset(&cv, 0, sizeof(cv));
	cv.ops = run->ops;
	cv.r = r;
	cv.peer = r->bmc != NULL ? r->bmc : h->bmc->address;
	rc = run->ops->open(&t, &cv.conn, &r->err);
	free(known);
	if (rc == 0) {
		if (req->verb == LAB_MEDIA_INSERT)
			rc = insert(&cv, req, &r->err);
		else if (req->verb == LAB_MEDIA_EJECT)
			rc = eject(&cv, &r->err);
		else
			rc = get(&cv, &r->err);
		run->ops->close(cv.conn);
	}
	r->ok = rc == 0;
	r->elapsed_ms = run->ctx->monotonic_ms() - start;
}

static void
work(void *arg, const void *item, void *res)
{
	struct lab_media_result	*r = res;

	work_host(arg, item, res);
	scrub(res);
	/* the short word of lab/reason.h, for RESULT, CSV and JSON */
	r->reason = r->ok ? NULL : lab_err_reason(&r->err);
	if (!r->ok && r->reason == NULL)
		r->reason = LAB_REASON_FAILED;
}

/* Runs req over the hosts. */
int
lab_media_run(const struct lab_ctx *ctx, const struct lab_inventory *inv,
    const struct lab_strv *hosts, const struct lab_creds *creds,
    const struct lab_media_req *req, struct lab_media_result **ret,
    struct lab_err *err)
{
	struct run	run = { .ctx = ctx, .req = req, .creds = creds,
			    .job = LAB_FANOUT_JOB(ctx, struct lab_media_result,
			    host, work, &run) };

	if (req->verb == LAB_MEDIA_INSERT &&
	    lab_media_url_check(req->url, err) == -1)
		return -1;
	run.ops = req->ops != NULL ? req->ops : &lab_clp_ssh_ops;
	if (lab_fanout_job_run(&run.job, hosts, lab_inventory_find_host, inv,
	    req->fanout, err) == -1)
		return -1;
	*ret = run.job.res;
	return 0;
}

/* Frees results. */
void
lab_media_results_free(struct lab_media_result *res, size_t n)
{
	size_t	i;

	if (res == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(res[i].host);
		free(res[i].bmc);
		free(res[i].note);
		lab_media_state_release(&res[i].state);
		lab_strv_release(&res[i].sent);
	}
	free(res);
}
