/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/fanout.h"
#include "lab/bmc.h"
#include "lab/target.h"
#include "lab/reason.h"

#define DEFAULT_TIMEOUT_MS	10000
#define DEFAULT_POLL_MS		200
#define DEFAULT_RETRANSMIT_MS	500
/* how long a run waits for the Close Sessions still going when it ends */
#define CLOSE_WAIT_MS		100
/* at most this many at once: each holds a socket */
#define CLOSE_MAX		256

/*
 * Sessions being closed in the background: a host's result is known
 * before its Close Session, and FreeIPMI's close waits for the reply
 * (one retransmission timeout when it is lost: bench/README.md), which
 * changes nothing. So once every host of the run has been started (no
 * new session will open: sessions open at once stay within the fan-out),
 * a session that did its work closes in a thread of its own and its host
 * is done; lab_bmc_run waits up to CLOSE_WAIT_MS at its end for those
 * still going. Close Session is sent at once, so the BMC ends the
 * session even when the process exits before its reply. At most
 * CLOSE_MAX at once; beyond, the worker
 * closes as before. Process-wide: a closer may outlive its run.
 */
static struct {
	pthread_mutex_t	lock;
	size_t		pending;
} closers = { PTHREAD_MUTEX_INITIALIZER, 0 };

struct closer {
	const struct lab_bmc_ops	*ops;
	void				*s;
};

/* One run: shared by every worker; each writes only its own result. */
struct run {
	const struct lab_ctx		*ctx;
	const struct lab_bmc_req	*req;
	const struct lab_bmc_ops	*ops;
	const struct lab_creds		*creds;
	struct lab_fanout_job		 job;
	pthread_mutex_t			 lock;
	size_t				 n, started;	/* hosts */
};

static int
priv_parse(const char *s)
{
	int	v = lab_ipmi_priv_parse(s);

	return s == NULL ? 0 : v == -1 ? LAB_IPMI_PRIV_OPERATOR : v;
}

/* What the verb wants the power state to end as, or UNKNOWN for none. */
static enum lab_power
wanted(enum lab_bmc_verb v)
{
	switch (v) {
	case LAB_BMC_ON:
	case LAB_BMC_CYCLE:
	case LAB_BMC_RESET:
		return LAB_POWER_ON;
	case LAB_BMC_OFF:
	case LAB_BMC_SOFT:
		return LAB_POWER_OFF;
	default:
		return LAB_POWER_UNKNOWN;
	}
}

static void
set_note(struct lab_bmc_result *r, const char *note)
{
	free(r->note);
	r->note = strdup(note);
}

/*
 * Re-reads the state until it is want or the deadline passes; the last
 * reading stays in r->state.
 */
static int
wait_for(struct run *run, void *s, struct lab_bmc_result *r,
    enum lab_power want, int64_t deadline)
{
	int	poll = run->req->poll_ms > 0 ? run->req->poll_ms :
		    DEFAULT_POLL_MS;

	for (;;) {
		if (run->ops->power_get(s, &r->state, &r->err) == -1)
			return -1;
		if (r->state == want || !run->req->wait)
			return 0;
		if (run->ctx->monotonic_ms() + poll > deadline)
			return lab_err_why(&r->err, LAB_REASON_TIMEOUT,
			    LAB_EXIT_PARTIAL, "still %s "
			    "after %d s: gave up waiting for %s",
			    lab_power_name(r->state),
			    (int)((run->req->timeout_ms > 0 ?
			    run->req->timeout_ms : DEFAULT_TIMEOUT_MS) / 1000),
			    lab_power_name(want));
		run->ops->sleep_ms(poll);
	}
}

/* The power verbs, once a session is open. */
static int
do_power(struct run *run, void *s, struct lab_bmc_result *r,
    int64_t deadline)
{
	enum lab_bmc_verb	 v = run->req->verb;
	enum lab_power		 want = wanted(v);
	enum lab_power_action	 act;

	if (run->ops->power_get(s, &r->before, &r->err) == -1)
		return -1;
	r->state = r->before;
	switch (v) {
	case LAB_BMC_STATUS:
		return 0;
	case LAB_BMC_ON:
	case LAB_BMC_OFF:
	case LAB_BMC_SOFT:
		if (r->before == want) {
			/* never cycle or re-send to a host already there */
			set_note(r, want == LAB_POWER_ON ? "already on" :
			    "already off");
			return 0;
		}
		act = v == LAB_BMC_ON ? LAB_POWER_ACT_ON :
		    v == LAB_BMC_OFF ? LAB_POWER_ACT_OFF :
		    LAB_POWER_ACT_SOFT;
		break;
	case LAB_BMC_CYCLE:
		/* a cycle of a host that is off is a power on */
		act = r->before == LAB_POWER_OFF ? LAB_POWER_ACT_ON :
		    LAB_POWER_ACT_CYCLE;
		break;
	case LAB_BMC_RESET:
		if (r->before == LAB_POWER_OFF)
			return lab_err_set(&r->err, LAB_EXIT_PARTIAL, "host is "
			    "off: a reset does nothing (use 'lab power on')");
		act = LAB_POWER_ACT_RESET;
		break;
	default:
		return lab_err_set(&r->err, LAB_EXIT_ENV, "not a power verb");
	}
	if (run->ops->power_set(s, act, &r->err) == -1)
		return -1;
	r->acted = 1;
	set_note(r, v == LAB_BMC_CYCLE && act == LAB_POWER_ACT_ON ?
	    "was off: powered on" : v == LAB_BMC_ON ? "powered on" :
	    v == LAB_BMC_OFF ? "powered off" : v == LAB_BMC_SOFT ?
	    "soft shutdown requested" : v == LAB_BMC_CYCLE ?
	    "power cycled" : "reset");
	return wait_for(run, s, r, want, deadline);
}

static int
do_boot(struct run *run, void *s, struct lab_bmc_result *r)
{
	const struct lab_bmc_req	*req = run->req;

	if (req->verb == LAB_BMC_BOOT_SET) {
		if (run->ops->boot_set(s, req->boot, req->persistent, req->efi,
		    &r->err) == -1)
			return -1;
		r->acted = 1;
	}
	if (run->ops->boot_get(s, &r->boot, &r->persistent, &r->efi,
	    &r->err) == -1)
		return -1;
	if (req->verb == LAB_BMC_BOOT_SET && r->boot != req->boot)
		return lab_err_set(&r->err, LAB_EXIT_PARTIAL, "boot device "
		    "set to %s but reads back as %s", lab_boot_name(req->boot),
		    lab_boot_name(r->boot));
	if (req->verb == LAB_BMC_BOOT_SET &&
	    (r->persistent != req->persistent || r->efi != req->efi))
		set_note(r, "device confirmed; the BMC does not read back the "
		    "persistent/EFI flags as set");
	return 0;
}

static void
dry_note(struct lab_bmc_result *r, const struct lab_bmc_req *req)
{
	char	buf[160];

	switch (req->verb) {
	case LAB_BMC_BOOT_SET:
		snprintf(buf, sizeof(buf), "would set boot device %s%s%s on "
		    "BMC %s", lab_boot_name(req->boot),
		    req->persistent ? " (persistent)" : "",
		    req->efi ? " (EFI)" : "", r->bmc);
		break;
	case LAB_BMC_STATUS:
	case LAB_BMC_BOOT_GET:
	case LAB_BMC_SENSORS:
	case LAB_BMC_SEL:
		snprintf(buf, sizeof(buf), "would read %s from BMC %s",
		    lab_bmc_verb_name(req->verb), r->bmc);
		break;
	default:
		snprintf(buf, sizeof(buf), "would send power %s to BMC %s "
		    "(unless already %s)", lab_bmc_verb_name(req->verb),
		    r->bmc, lab_power_name(wanted(req->verb)));
	}
	set_note(r, buf);
}

static void *
closer_main(void *p)
{
	struct closer	*c = p;

	c->ops->close(c->s);
	free(c);
	pthread_mutex_lock(&closers.lock);
	closers.pending--;
	pthread_mutex_unlock(&closers.lock);
	return NULL;
}

/* Closes s in a thread of its own, or here when none can be had. */
static void
close_later(const struct lab_bmc_ops *ops, void *s)
{
	pthread_attr_t	 attr;
	pthread_t	 tid;
	struct closer	*c;
	int		 ok = 0;

	pthread_mutex_lock(&closers.lock);
	if (closers.pending < CLOSE_MAX &&
	    (c = malloc(sizeof(*c))) != NULL) {
		c->ops = ops;
		c->s = s;
		closers.pending++;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_attr_setstacksize(&attr, (size_t)256 * 1024);
		ok = pthread_create(&tid, &attr, closer_main, c) == 0;
		pthread_attr_destroy(&attr);
		if (!ok) {
			closers.pending--;
			free(c);
		}
	}
	pthread_mutex_unlock(&closers.lock);
	if (!ok)
		ops->close(s);
}

/* Whether every host of the run has been started. */
static int
all_started(struct run *run)
{
	int	all;

	pthread_mutex_lock(&run->lock);
	all = run->started == run->n;
	pthread_mutex_unlock(&run->lock);
	return all;
}

/* Waits up to CLOSE_WAIT_MS for the background closes to end. */
static void
close_wait(const struct run *run)
{
	int64_t	until = run->ctx->monotonic_ms() + CLOSE_WAIT_MS;
	size_t	n;

	for (;;) {
		pthread_mutex_lock(&closers.lock);
		n = closers.pending;
		pthread_mutex_unlock(&closers.lock);
		if (n == 0 || run->ctx->monotonic_ms() >= until)
			return;
		run->ops->sleep_ms(2);
	}
}

/* One session: open, do the verb, close (in the background). */
static int
run_session(struct run *run, const struct lab_ipmi_target *t,
    struct lab_bmc_result *r, int64_t deadline)
{
	void	*s = NULL;
	int	 rc;

	if (run->ops->open(t, &s, &r->err) == -1)
		return -1;
	r->reachable = 1;
	switch (run->req->verb) {
	case LAB_BMC_BOOT_GET:
	case LAB_BMC_BOOT_SET:
		rc = do_boot(run, s, r);
		break;
	case LAB_BMC_SENSORS:
		rc = run->ops->sensors(s, &r->sensors, &r->nsensors, &r->err);
		break;
	case LAB_BMC_SEL:
		rc = run->ops->sel(s, &r->sel, &r->nsel, &r->err);
		break;
	default:
		rc = do_power(run, s, r, deadline);
	}
	if (rc == 0 && all_started(run))
		close_later(run->ops, s);
	else
		run->ops->close(s);
	return rc;
}

/*
 * What a host needs before a session: its BMC, its credentials. Returns
 * 1 with t filled (the session timeout is the whole deadline) when a
 * session is to be opened; 0 when r is already final (no BMC, no
 * credentials, a dry run).
 */
static int
prepare(struct run *run, const struct lab_host *h, struct lab_bmc_result *r,
    struct lab_ipmi_target *t, int timeout)
{
	const struct lab_bmc_req	*req = run->req;
	const struct lab_cred		*cred;
	size_t				 k;

	r->before = r->state = LAB_POWER_UNKNOWN;
	if (h->bmc == NULL) {
		r->no_bmc = 1;
		/*
		 * Reading the status of nothing is not a failure, nor is a
		 * host without a BMC that a group or --all brought in (it is
		 * skipped); any other verb on a host named explicitly is. A
		 * dry run says what the run would.
		 */
		r->skipped = req->named != NULL &&
		    !lab_target_is_named(req->named, h->name);
		r->ok = req->verb == LAB_BMC_STATUS || r->skipped;
		set_note(r, "no BMC recorded");
		/* only a power verb can be done by hand instead */
		if (!r->ok && req->verb >= LAB_BMC_ON &&
		    req->verb <= LAB_BMC_SOFT)
			lab_err_why(&r->err, LAB_REASON_NO_BMC,
			    LAB_EXIT_PARTIAL, "no BMC recorded: power it by "
			    "hand");
		else if (!r->ok)
			lab_err_why(&r->err, LAB_REASON_NO_BMC,
			    LAB_EXIT_PARTIAL, "no BMC in the inventory");
		return 0;
	}
	/* an IPv6 address is bracketed, as in lib/ipmi.c */
	r->bmc = lab_asprintf(strchr(h->bmc->address, ':') != NULL ?
	    "[%s]:%d" : "%s:%d", h->bmc->address, h->bmc->port);
	/* a dry run given the credentials checks the name as the run does
	   (only that it is there: nothing of it is printed) */
	cred = lab_creds_find(run->creds, h->bmc->credential);
	if ((!req->dry_run || run->creds != NULL) && (cred == NULL ||
	    cred->username == NULL || cred->password == NULL)) {
		lab_err_why(&r->err, LAB_REASON_NO_CRED, LAB_EXIT_PARTIAL,
		    "credential '%s' %s in "
		    "the credentials file", h->bmc->credential, cred == NULL ?
		    "is not" : "has no username and password");
		return 0;
	}
	if (req->dry_run) {
		dry_note(r, req);
		r->ok = 1;
		return 0;
	}
	memset(t, 0, sizeof(*t));
	t->address = h->bmc->address;
	t->port = h->bmc->port;
	t->username = cred->username;
	t->password = cred->password;
	t->cipher_suite = h->bmc->cipher_suite;
	for (k = 0; k < h->bmc->workarounds.n; k++)
		lab_ipmi_workaround_parse(h->bmc->workarounds.v[k],
		    &t->workarounds);
	t->privilege = req->privilege ? req->privilege :
	    priv_parse(h->bmc->privilege);
	t->timeout_ms = timeout;
	t->retransmit_ms = req->retransmit_ms ? req->retransmit_ms :
	    h->bmc->retransmit_ms ? h->bmc->retransmit_ms :
	    DEFAULT_RETRANSMIT_MS;
	return 1;
}

static int
req_timeout(const struct lab_bmc_req *req)
{
	return req->timeout_ms > 0 ? req->timeout_ms : DEFAULT_TIMEOUT_MS;
}

/* Works one host from start to end, within its deadline. */
static void
work_host(void *arg, const void *item, void *res)
{
	struct run			*run = arg;
	const struct lab_bmc_req	*req = run->req;
	struct lab_bmc_result		*r = res;
	struct lab_ipmi_target		 t;
	int64_t				 start, deadline;
	int				 timeout, attempt, rc = -1;

	start = run->ctx->monotonic_ms();
	timeout = req_timeout(req);
	deadline = start + timeout;
	if (!prepare(run, item, r, &t, timeout))
		return;
	/*
	 * The session timeout bounds each request. A lost datagram in the
	 * middle of the handshake can leave a BMC that never answers the
	 * retransmission (ipmi_sim answers a repeated RAKP 3 inside the new
	 * session, which the client cannot read), and a fresh session costs
	 * a few round trips. So a read's first try allows one retransmission
	 * and little more, an action's half the deadline (its state polls
	 * after the command use the same session timeout); when the first
	 * try times out before anything was sent to the chassis, a second
	 * gets the rest of the deadline: a dead BMC still costs one deadline.
	 */
	for (attempt = 0;; attempt++) {
		int64_t	left = deadline - run->ctx->monotonic_ms();

		t.timeout_ms = (int)left;
		if (attempt == 0 && timeout >= 2000)
			t.timeout_ms = wanted(req->verb) != LAB_POWER_UNKNOWN ||
			    req->verb == LAB_BMC_BOOT_SET ? timeout / 2 :
			    t.retransmit_ms + t.retransmit_ms / 5 + 50;
		if (t.retransmit_ms >= t.timeout_ms)
			t.retransmit_ms = t.timeout_ms / 2;
		rc = run_session(run, &t, r, deadline);
		if (rc == 0 || attempt > 0 || r->acted ||
		    strstr(r->err.msg, "session timeout") == NULL ||
		    deadline - run->ctx->monotonic_ms() < 200)
			break;
		lab_err_init(&r->err);
		r->reachable = 0;
		r->before = r->state = LAB_POWER_UNKNOWN;
	}
	r->ok = rc == 0;
	r->elapsed_ms = run->ctx->monotonic_ms() - start;
}

/* The short reason of a failure (lab/reason.h). */
static void
set_reason(struct lab_bmc_result *r)
{
	r->reason = r->ok ? NULL : lab_err_reason(&r->err);
	if (!r->ok && r->reason == NULL)
		r->reason = LAB_REASON_FAILED;
}

/* work_host, and the short reason of a failure. */
static void
work(void *arg, const void *item, void *res)
{
	struct lab_bmc_result	*r = res;
	struct run		*run = arg;

	pthread_mutex_lock(&run->lock);
	run->started++;
	pthread_mutex_unlock(&run->lock);
	work_host(arg, item, res);
	set_reason(r);
}

/* The one loop's run: power status of every host at once. */
struct batch {
	struct run		*run;
	struct lab_fanout_job	*job;
	struct lab_ipmi_many	*v;
};

/* A host the loop ended: its result, as work() would have made it. */
static void
batch_each(void *arg, size_t i)
{
	struct batch		*b = arg;
	struct lab_ipmi_many	*m = &b->v[i];
	struct lab_bmc_result	*r = lab_fanout_job_res(b->job, i);

	r->reachable = m->reachable;
	r->elapsed_ms = m->elapsed_ms;
	if (m->state == LAB_IPMI_MANY_OK) {
		r->ok = 1;
		r->before = r->state = m->power;
	} else
		r->err = m->err;
	set_reason(r);
	lab_fanout_job_done(b->job, i);
}

/*
 * lab power status: every host's session in one loop on this thread
 * (lab_ipmi_status_many); what it leaves (a refusal to name, a
 * workaround it does not do) goes to the threads as before.
 */
static void
batch(void *arg, struct lab_fanout_job *job, size_t max_parallel)
{
	struct run		*run = arg;
	struct lab_ipmi_target	*t;
	struct batch		 b = { run, job, NULL };
	struct lab_err		 err;
	size_t			 i, n = job->n;

	t = calloc(n, sizeof(*t));
	b.v = calloc(n, sizeof(*b.v));
	if (t == NULL || b.v == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		struct lab_bmc_result	*r = lab_fanout_job_res(job, i);

		if (!prepare(run, lab_fanout_job_item(job, i), r, &t[i],
		    req_timeout(run->req))) {
			set_reason(r);
			lab_fanout_job_done(job, i);
			continue;
		}
		b.v[i].t = &t[i];
		b.v[i].peer = r->bmc;
	}
	lab_err_init(&err);
	/* when the loop cannot start, the threads do every host */
	(void)run->ops->status_many(b.v, n, max_parallel,
	    run->ctx->monotonic_ms, batch_each, &b, &err);
	for (i = 0; i < n; i++) {
		struct lab_bmc_result	*r = lab_fanout_job_res(job, i);

		if (b.v[i].t == NULL || b.v[i].state != LAB_IPMI_MANY_LEFT)
			continue;
		/* work() begins again from nothing */
		free(r->bmc);
		r->bmc = NULL;
	}
out:
	pthread_mutex_lock(&run->lock);
	for (i = 0; i < n; i++)
		run->started += job->done[i];
	pthread_mutex_unlock(&run->lock);
	free(b.v);
	free(t);
}

/* Runs req over the hosts. */
int
lab_bmc_run(const struct lab_ctx *ctx, const struct lab_inventory *inv,
    const struct lab_strv *hosts, const struct lab_creds *creds,
    const struct lab_bmc_req *req, struct lab_bmc_result **ret,
    struct lab_err *err)
{
	struct run	run = { .ctx = ctx, .req = req, .creds = creds,
			    .job = LAB_FANOUT_JOB(ctx, struct lab_bmc_result,
			    host, work, &run) };
	int		rc;

	run.ops = req->ops != NULL ? req->ops : &lab_bmc_ipmi_ops;
	run.n = hosts->n;
	if (req->verb == LAB_BMC_STATUS && !req->dry_run &&
	    run.ops->status_many != NULL)
		run.job.batch = batch;
	pthread_mutex_init(&run.lock, NULL);
	rc = lab_fanout_job_run(&run.job, hosts, lab_inventory_find_host, inv,
	    req->fanout, err);
	close_wait(&run);
	pthread_mutex_destroy(&run.lock);
	if (rc == -1)
		return -1;
	*ret = run.job.res;
	return 0;
}

/* Frees results. */
void
lab_bmc_results_free(struct lab_bmc_result *r, size_t n)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(r[i].host);
		free(r[i].bmc);
		free(r[i].note);
		if (r[i].sensors != NULL)
			lab_sensors_free(r[i].sensors, r[i].nsensors);
		if (r[i].sel != NULL)
			lab_sel_free(r[i].sel, r[i].nsel);
	}
	free(r);
}
