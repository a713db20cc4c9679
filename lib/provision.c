/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab/json.h"
#include "lab/owner.h"
#include "lab/plan.h"
#include "lab/provision.h"
#include "lab/str.h"
#include "lab/tail.h"
#include "db/runs.h"

#define STEP_TIMEOUT_MS	(600 * 1000)
#define RECONNECT_TRY_MS 5000		/* one connection attempt */

static void
sleep_ms(int64_t ms)
{
	struct timespec	ts;

	if (ms <= 0)
		return;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	while (nanosleep(&ts, &ts) == -1)
		;
}

/*
 * stdout then stderr as one string: their last LAB_SSH_OUTPUT_CAP bytes
 * at most, after a note of the cut when there was one; *bytes gets their
 * whole size.
 */
static char *
join_output(const struct lab_ssh_result *r, int64_t *bytes)
{
	struct lab_tail	 t;
	char		*p, *text;
	size_t		 len;

	*bytes = (int64_t)(r->outbytes + r->errbytes);
	lab_tail_init(&t, LAB_SSH_OUTPUT_CAP);
	if (r->out != NULL)
		lab_tail_add(&t, r->out, r->outlen);
	if (r->err != NULL)
		lab_tail_add(&t, r->err, r->errlen);
	if ((p = lab_tail_steal(&t, &len)) == NULL) {
		lab_tail_release(&t);
		return NULL;
	}
	lab_tail_release(&t);
	text = lab_tail_text(p, len, r->outbytes + r->errbytes);
	free(p);
	return text;
}

/* A new connection, tried until deadline (monotonic ms). */
static struct lab_ssh *
reconnect(const struct lab_ctx *ctx, const struct lab_ssh_opts *o,
    int64_t deadline, struct lab_err *err)
{
	struct lab_ssh_opts	 opts = *o;
	struct lab_ssh		*s = NULL;
	int64_t			 left, t0;

	opts.accept_new = 0;	/* the key was checked moments ago */
	if (opts.ctx == NULL)
		opts.ctx = ctx;
	for (;;) {
		left = deadline - ctx->monotonic_ms();
		if (left <= 0)
			return NULL;
		opts.connect_timeout_ms = (int)(left < RECONNECT_TRY_MS ?
		    left : RECONNECT_TRY_MS);
		lab_err_init(err);
		t0 = ctx->monotonic_ms();
		if (lab_ssh_connect(&opts, &s, NULL, err) == 0)
			return s;
		/* refused at once (no route yet): do not spin */
		sleep_ms(1000 - (ctx->monotonic_ms() - t0));
	}
}

static int
run_step(struct lab_ssh *s, const struct lab_step *st, int timeout_ms,
    struct lab_step_result *r)
{
	struct lab_ssh_result	res;
	struct lab_err		e;

	lab_err_init(&e);
	memset(&res, 0, sizeof(res));
	if (st->kind == LAB_STEP_WRITE) {
		if (lab_ssh_upload(s, st->text, st->content,
		    strlen(st->content), st->mode ? st->mode : 0644,
		    &e) == -1) {
			r->exit_status = -1;
			snprintf(r->note, sizeof(r->note), "%s", e.msg);
			return -1;
		}
		r->exit_status = 0;
		return 0;
	}
	if (lab_ssh_exec(s, st->text, NULL, 0, timeout_ms, &res, &e) == -1) {
		r->exit_status = -1;
		r->output = join_output(&res, &r->output_bytes);
		snprintf(r->note, sizeof(r->note), "%s", e.msg);
		lab_ssh_result_free(&res);
		return -1;
	}
	r->exit_status = res.exit_status;
	r->output = join_output(&res, &r->output_bytes);
	if (res.exit_status != 0)
		snprintf(r->note, sizeof(r->note), "exited with status %d%s%s",
		    res.exit_status, res.signal ? ", signal " : "",
		    res.signal ? res.signal : "");
	lab_ssh_result_free(&res);
	return r->exit_status == 0 ? 0 : -1;
}

/* Waits out the target's rollback timer, then checks the host is back. */
static void
await_rollback(const struct lab_ctx *ctx, struct lab_provision *a,
    const struct lab_plan *p, int64_t armed_ms)
{
	struct lab_ssh	*s;
	struct lab_err	 e;
	int64_t		 back;

	lab_err_init(&e);
	back = armed_ms + (int64_t)p->rollback_s * 1000 + 5000;
	sleep_ms(back - ctx->monotonic_ms());
	s = reconnect(ctx, a->ssh, ctx->monotonic_ms() + 60000, &e);
	if (s != NULL) {
		lab_ssh_close(s);
		a->status = LAB_RUN_ROLLED_BACK;
		snprintf(a->message, sizeof(a->message), "%s was not reachable "
		    "over a new SSH connection within %d s; its timer restored "
		    "the previous network config and it answers again",
		    p->host, p->rollback_s);
		return;
	}
	snprintf(a->message, sizeof(a->message), "%s was not reachable over a "
	    "new SSH connection within %d s, and still is not after its "
	    "rollback timer: %s", p->host, p->rollback_s, e.msg);
}

/*
 * The target's lock: flock on LAB_TARGET_LOCK, held by a process left on
 * the target that lives as long as the sshd process of this connection
 * (found up the parent chain: "sshd", or "sshd-session" from OpenSSH
 * 9.8 on), so a lab that dies (or whose connection
 * does) lets go of it within a second; lab_provision_apply ends it when
 * the run ends. A lock still held after 5 s (the holder of a lab that
 * died just now lets go within a second) is another run's. Prints that
 * process's pid; exit 75: the lock is held,
 * 127: no flock, 126: the lock file cannot be opened. Its sleeps do not
 * hold the lock (9>&-): killing the holder lets go at once.
 */
static const char lock_cmd[] =
    "command -v flock >/dev/null 2>&1 || exit 127; "
    "d=${0%/*}; mkdir -p \"$d\" 2>/dev/null; "
    "exec 9>>\"$0\" || exit 126; flock -w 5 9 || exit 75; p=$PPID; "
    "while [ \"$p\" -gt 1 ]; do "
    "case $(cat /proc/$p/comm 2>/dev/null) in sshd|sshd-session) break ;; "
    "esac; set -- $(cat /proc/$p/stat 2>/dev/null) 0 0 0 0; p=$4; "
    "case $p in *[!0-9]*|\"\") p=1 ;; esac; done; "
    "[ \"$p\" -gt 1 ] || p=$PPID; "
    "(while [ -e /proc/$p ]; do sleep 1 9>&-; done) "
    "</dev/null >/dev/null 2>&1 & echo $!";

/* Takes the target's lock; *holder: the pid that holds it there. */
static int
target_lock(struct lab_ssh *s, const char *host, const char *lock,
    long *holder, char *msg, size_t len)
{
	struct lab_ssh_result	 r;
	struct lab_err		 e;
	char			*cmd;
	int			 rc = -1;

	lab_err_init(&e);
	memset(&r, 0, sizeof(r));
	*holder = 0;
	if (lock[0] != '/' || lock[strspn(lock, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-")] != '\0') {
		snprintf(msg, len, "%s: the target's lock file '%.64s' is not "
		    "an absolute path of [A-Za-z0-9_./-]", host, lock);
		return -1;
	}
	/* sh -c CMD FILE: the file is $0, the command holds no path */
	if ((cmd = lab_asprintf("sh -c '%s' %s", lock_cmd, lock)) == NULL) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	if (lab_ssh_exec(s, cmd, NULL, 0, 60000, &r, &e) == -1)
		snprintf(msg, len, "%s: cannot take the lock %s: %s", host,
		    lock, e.msg);
	else if (r.exit_status == 75)
		snprintf(msg, len, "%s: another provisioning run holds the "
		    "lock %s on the target (from another lab database, or "
		    "by hand); nothing was changed", host, lock);
	else if (r.exit_status == 127)
		snprintf(msg, len, "%s: the target has no flock command "
		    "(util-linux), which lab locks %s with; nothing was "
		    "changed", host, lock);
	else if (r.exit_status != 0 || r.out == NULL ||
	    (*holder = strtol(r.out, NULL, 10)) <= 0)
		snprintf(msg, len, "%s: cannot take the lock %s on the "
		    "target (exit %d)%s%.200s; nothing was changed", host,
		    lock, r.exit_status, r.err && *r.err ? ": " :
		    "", r.err ? r.err : "");
	else
		rc = 0;
	free(cmd);
	lab_ssh_result_free(&r);
	return rc;
}

/* Ends the process holding the target's lock (if the link still works). */
static void
target_unlock(struct lab_ssh *s, long holder)
{
	struct lab_ssh_result	 r;
	struct lab_err		 e;
	char			 cmd[64];

	if (holder <= 0)
		return;
	lab_err_init(&e);
	memset(&r, 0, sizeof(r));
	snprintf(cmd, sizeof(cmd), "kill %ld 2>/dev/null; :", holder);
	(void)lab_ssh_exec(s, cmd, NULL, 0, 10000, &r, &e);
	lab_ssh_result_free(&r);
}

/* The plan as JSON, as the run stores it. */
static char *
plan_json(const struct lab_plan *p)
{
	struct lab_buf	b;
	struct lab_json	j;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_plan_json(&j, p);
	lab_json_end(&j);
	return lab_buf_steal(&b);
}

int
lab_provision_apply(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_plan *p, struct lab_provision *a, struct lab_err *err)
{
	struct lab_step_result	*r;
	struct lab_owner	 self;
	struct lab_ssh		*fresh;
	const struct lab_step	*st;
	char			*json;
	int64_t			 armed = 0;
	long			 holder = 0;
	int			 timeout, rc;
	size_t			 i;

	if (ctx == NULL)
		ctx = lab_ctx_default();
	a->status = LAB_RUN_FAILED;
	a->failed_step = 0;
	a->message[0] = '\0';
	if ((a->results = calloc(p->nsteps ? p->nsteps : 1,
	    sizeof(*a->results))) == NULL)
		return lab_err_oom(err);
	a->nresults = p->nsteps;
	json = plan_json(p);
	lab_owner_self(&self);
	rc = lab_db_run_begin(db, p, json, &self, ctx->wall(), &a->run_id, err);
	free(json);
	if (rc == -1)
		return -1;
	if (target_lock(a->conn, p->host, a->target_lock != NULL ?
	    a->target_lock : LAB_TARGET_LOCK, &holder, a->message,
	    sizeof(a->message)) == -1)
		return lab_db_run_end(db, p, a->run_id, a->status, 0,
		    a->message, ctx->wall(), err);
	for (i = 0; i < p->nsteps; i++) {
		st = &p->steps[i];
		r = &a->results[i];
		timeout = st->timeout_s > 0 ? st->timeout_s * 1000 :
		    a->step_timeout_ms > 0 ? a->step_timeout_ms :
		    STEP_TIMEOUT_MS;
		if (a->hooks != NULL && a->hooks->begin != NULL)
			a->hooks->begin(a->hooks->arg, i, st);
		r->ran = 1;
		r->started_ms = ctx->monotonic_ms();
		if (lab_db_run_step_begin(db, a->run_id, i, ctx->wall(),
		    err) == -1)
			return -1;
		if (st->reconnect) {
			fresh = reconnect(ctx, a->ssh, (armed ? armed :
			    r->started_ms) + (int64_t)(p->rollback_s > 0 ?
			    p->rollback_s - 10 : 60) * 1000, err);
			if (fresh == NULL) {
				r->exit_status = -1;
				snprintf(r->note, sizeof(r->note), "no new SSH "
				    "connection: %s", err->msg);
				lab_err_init(err);
				rc = -1;
			} else {
				rc = run_step(fresh, st, timeout, r);
				lab_ssh_close(fresh);
			}
		} else
			rc = run_step(a->conn, st, timeout, r);
		r->elapsed_ms = ctx->monotonic_ms() - r->started_ms;
		/* the step before a reconnect restarts the network: its link
		   may die with the old address, and that is expected */
		if (rc == -1 && r->exit_status == -1 && !st->reconnect &&
		    i + 1 < p->nsteps && p->steps[i + 1].reconnect) {
			snprintf(r->note, sizeof(r->note), "the link closed as "
			    "the network restarted (expected)");
			rc = 0;
		}
		/* the rollback is armed by the last step before the first
		   reconnect: its window counts from there */
		if (armed == 0 && i + 1 < p->nsteps &&
		    p->steps[i + 1].reconnect)
			armed = r->started_ms;
		if (lab_db_run_step_end(db, a->run_id, i, r, ctx->wall(),
		    err) == -1)
			return -1;
		if (a->hooks != NULL && a->hooks->end != NULL)
			a->hooks->end(a->hooks->arg, i, st, r);
		if (rc == -1) {
			a->failed_step = i;
			snprintf(a->message, sizeof(a->message), "step %zu of "
			    "%zu failed: %s", i + 1, p->nsteps, r->note);
			if (st->reconnect && p->rollback_s > 0)
				await_rollback(ctx, a, p, armed);
			break;
		}
	}
	if (i == p->nsteps)
		a->status = LAB_RUN_DONE;
	target_unlock(a->conn, holder);
	return lab_db_run_end(db, p, a->run_id, a->status, a->failed_step,
	    a->message, ctx->wall(), err);
}

void
lab_provision_release(struct lab_provision *a)
{
	size_t	i;

	for (i = 0; i < a->nresults; i++)
		free(a->results[i].output);
	free(a->results);
	a->results = NULL;
	lab_ssh_close(a->conn);
	a->conn = NULL;
}
