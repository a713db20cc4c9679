/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/burnin.h"
#include "lab/json.h"
#include "lab/target.h"
#include "lab.h"

/*
 * lab burnin TARGET... [SLOT...] --yes: the plan from the inventory (no
 * host is touched before --yes), then lib/burnin.c, a line per disk as
 * it starts and ends on stderr, a table (or JSON) of every disk, the
 * findings. Exit 0 only when every disk planned was burned in clean.
 */

/* A duration: N, Ns, Nm, Nh or Nd, 1 s to 596 h (an int of ms). */
static int
parse_duration(const char *s, int *ms, struct lab_err *err)
{
	char		*end;
	long long	 v, unit = 1;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end != s && end[0] != '\0' && end[1] == '\0') {
		switch (end[0]) {
		case 's': unit = 1; end++; break;
		case 'm': unit = 60; end++; break;
		case 'h': unit = 3600; end++; break;
		case 'd': unit = 86400; end++; break;
		default: break;
		}
	}
	if (errno != 0 || end == s || *end != '\0' || v < 1 ||
	    v > 2147483LL / unit)
		return lab_err_set(err, LAB_EXIT_INPUT, "--timeout '%s' is not "
		    "a duration of 1 s to 596 h (N, Ns, Nm, Nh or Nd)", s);
	*ms = (int)(v * unit * 1000);
	return 0;
}

/*
 * Splits the words: targets first, then slots. A word after the first
 * that names no host or group starts the slots.
 */
static int
split_args(struct lab_call *call, const struct lab_inventory *inv,
    struct lab_strv *hosts, struct lab_strv *slots, struct lab_err *err)
{
	struct lab_strv	 one;
	struct lab_err	 e;
	int		 n = 1, i;

	for (; n < call->argc; n++) {
		memset(&one, 0, sizeof(one));
		memset(&e, 0, sizeof(e));
		if (lab_target_resolve(inv, &call->argv[n], 1, 0, &one,
		    &e) == -1)
			break;
		lab_strv_release(&one);
	}
	if (lab_target_resolve(inv, call->argv, (size_t)n, call->all, hosts,
	    err) == -1)
		return -1;
	for (i = n; i < call->argc; i++)
		if (lab_strv_add(slots, call->argv[i]) == -1)
			return lab_err_oom(err);
	if (hosts->n == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "no host to burn in");
	return 0;
}

static const char *
result_word(const struct lab_burnin_disk *d)
{
	return lab_burnin_result_name(d->result);
}

/* What the NOTE column says of a disk. */
static const char *
note(const struct lab_burnin_disk *d)
{
	switch (d->result) {
	case LAB_BURNIN_REFUSED:
		return d->d.skipped;
	case LAB_BURNIN_FAILED:
		return d->message;
	case LAB_BURNIN_CLEAN:
	case LAB_BURNIN_ERRORS:
		return d->d.burnin.detail;
	case LAB_BURNIN_PLANNED:
	default:
		return "checked free first, then written whole";
	}
}

static void
disk_begin(void *arg, const struct lab_burnin_host *h,
    const struct lab_burnin_disk *d)
{
	(void)arg;
	fprintf(stderr, "lab: %s: slot %s %s: burn-in started (%s)\n",
	    cmd_vis(h->host), cmd_vis(d->d.slot), cmd_vis(d->d.device),
	    LAB_BURNIN_METHOD);
	fflush(stderr);
}

static void
disk_end(void *arg, const struct lab_burnin_host *h,
    const struct lab_burnin_disk *d)
{
	const char	*n = note(d);

	(void)arg;
	fprintf(stderr, "lab: %s: slot %s %s: %s", cmd_vis(h->host),
	    cmd_vis(d->d.slot), cmd_vis(d->d.device), result_word(d));
	if (d->result != LAB_BURNIN_REFUSED)
		fprintf(stderr, " (%.1f s)", (double)d->elapsed_ms / 1000.0);
	if (n != NULL)
		fprintf(stderr, ": %s", cmd_vis(n));
	fputc('\n', stderr);
	fflush(stderr);
}

static void
count_json(struct lab_json *j, const char *key, int64_t v)
{
	lab_json_key(j, key);
	if (v < 0)
		lab_json_null(j);
	else
		lab_json_int(j, v);
}

static void
smart_json(struct lab_json *j, const char *key, const struct lab_smart *s,
    int known)
{
	lab_json_key(j, key);
	if (!known) {
		lab_json_null(j);
		return;
	}
	lab_json_obj_begin(j);
	lab_json_kstr(j, "health", lab_smart_health_name(s->health));
	lab_json_kstr(j, "model", s->model);
	lab_json_kstr(j, "serial", s->serial);
	lab_json_kstr(j, "firmware", s->firmware);
	count_json(j, "reallocated", s->reallocated);
	count_json(j, "pending", s->pending);
	count_json(j, "offline_uncorrectable", s->offline_uncorrectable);
	count_json(j, "power_on_hours", s->power_on_hours);
	count_json(j, "temperature_c", s->temperature_c);
	lab_json_kstr(j, "message", s->message);
	lab_json_obj_end(j);
}

static void
disk_json(struct lab_json *j, const struct lab_burnin_disk *bd, int ran)
{
	const struct lab_bench_disk	*d = &bd->d;
	int				 burned = bd->result == LAB_BURNIN_CLEAN ||
					    bd->result == LAB_BURNIN_ERRORS;
	int				 read = ran && bd->result !=
					    LAB_BURNIN_REFUSED;
	char				 num[32];

	lab_json_obj_begin(j);
	lab_json_kstr(j, "slot", d->slot);
	lab_json_kstr(j, "device", d->device);
	lab_json_kstr(j, "serial", d->serial);
	lab_json_kstr(j, "model", d->model);
	lab_json_kstr(j, "kind", d->kind);
	lab_json_kstr(j, "controller", d->controller);
	lab_json_kstr(j, "result", result_word(bd));
	lab_json_key(j, "burnin");
	if (!burned && bd->result != LAB_BURNIN_FAILED)
		lab_json_null(j);
	else {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "method", LAB_BURNIN_METHOD);
		count_json(j, "errors", burned ? d->burnin.errors : -1);
		lab_json_kstr(j, "detail", burned ? d->burnin.detail : NULL);
		snprintf(num, sizeof(num), "%.1f",
		    (double)bd->elapsed_ms / 1000.0);
		lab_json_key(j, "seconds");
		lab_json_raw(j, num);
		lab_json_obj_end(j);
	}
	smart_json(j, "smart_before", &bd->before, read);
	smart_json(j, "smart", &d->smart, read);
	lab_json_kstr(j, "refused", bd->result == LAB_BURNIN_REFUSED ?
	    d->skipped : NULL);
	lab_json_kstr(j, "message", bd->result == LAB_BURNIN_FAILED ?
	    bd->message : NULL);
	lab_json_obj_end(j);
}

static void
host_json(struct lab_json *j, const struct lab_burnin_host *h, int ran)
{
	size_t	i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "host", h->host);
	lab_json_key(j, "run");
	if (h->run_id > 0)
		lab_json_int(j, h->run_id);
	else
		lab_json_null(j);
	lab_json_kstr(j, "status", ran ? lab_bench_status_name(h->status) :
	    "planned");
	lab_json_kstr(j, "message", h->status == LAB_BENCH_FAILED ?
	    h->err.msg : NULL);
	lab_json_key(j, "disks");
	lab_json_arr_begin(j);
	/* a failed run keeps no result: its disks are not shown as done */
	for (i = 0; i < h->ndisks && h->status != LAB_BENCH_FAILED; i++)
		disk_json(j, &h->disks[i], ran);
	lab_json_arr_end(j);
	lab_json_key(j, "findings");
	lab_json_arr_begin(j);
	for (i = 0; i < h->findings.n; i++) {
		const struct lab_bench_finding *f = &h->findings.v[i];

		lab_json_obj_begin(j);
		lab_json_kstr(j, "severity", f->severity);
		lab_json_kstr(j, "kind", f->kind);
		lab_json_kstr(j, "subject", f->subject);
		lab_json_kstr(j, "message", f->message);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}

static int
print_json(const struct lab_burnin_host *hosts, size_t n, int ran,
    struct lab_err *err)
{
	struct lab_buf	 b;
	struct lab_json	 j;
	size_t		 i;
	int		 rc;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	for (i = 0; i < n; i++)
		host_json(&j, &hosts[i], ran);
	lab_json_arr_end(&j);
	lab_json_end(&j);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc;
}

static void
print_table(const struct lab_burnin_host *hosts, size_t n, int ran)
{
	struct table	 t;
	char		 errs[32], secs[32];
	size_t		 i, k;

	table_init(&t, 9, "HOST", "SLOT", "DEVICE", "SERIAL", "METHOD",
	    "ERRORS", "RESULT", "TIME", "NOTE");
	table_paint(&t, 6);
	table_text(&t, 8);
	for (i = 0; i < n; i++) {
		if (hosts[i].status == LAB_BENCH_FAILED)
			continue;	/* said on stderr; no partial result */
		for (k = 0; k < hosts[i].ndisks; k++) {
			const struct lab_burnin_disk *d = &hosts[i].disks[k];
			int burned = d->result == LAB_BURNIN_CLEAN ||
			    d->result == LAB_BURNIN_ERRORS;

			snprintf(errs, sizeof(errs), "%" PRId64,
			    d->d.burnin.errors);
			snprintf(secs, sizeof(secs), "%.1f s",
			    (double)d->elapsed_ms / 1000.0);
			table_row(&t, hosts[i].host, d->d.slot, d->d.device,
			    d->d.serial, d->result == LAB_BURNIN_REFUSED ?
			    NULL : LAB_BURNIN_METHOD, burned ? errs : NULL,
			    result_word(d), ran && d->result !=
			    LAB_BURNIN_REFUSED ? secs : NULL, note(d));
		}
	}
	table_print(&t, stdout);
	table_release(&t);
	for (i = 0; i < n; i++)
		for (k = 0; k < hosts[i].findings.n; k++) {
			const struct lab_bench_finding *f =
			    &hosts[i].findings.v[k];

			printf("%s %s %s: %s\n", f->severity, f->kind,
			    cmd_vis(f->subject), cmd_vis(f->message));
		}
}

struct burnin {
	struct lab_inventory	*inv;
	struct lab_strv		 hosts, slots;
	struct lab_burnin_host	*plan;
	size_t			 n;
};

static void
burnin_release(struct burnin *b)
{
	size_t	i;

	for (i = 0; i < b->n; i++)
		lab_burnin_host_release(&b->plan[i]);
	free(b->plan);
	lab_strv_release(&b->hosts);
	lab_strv_release(&b->slots);
	lab_inventory_free(b->inv);
}

/* The exit code: 0 when every disk planned was burned in clean. */
static int
outcome(struct lab_call *call, struct burnin *b)
{
	size_t	i, k, bad = 0;
	char	why[600];

	for (i = 0; i < b->n; i++) {
		const struct lab_burnin_host *h = &b->plan[i];

		if (h->status == LAB_BENCH_FAILED) {
			snprintf(why, sizeof(why), "run %" PRId64 " failed, no "
			    "result kept: %s", h->run_id, h->err.msg);
			cmd_host_failed(call, h->host, why);
			continue;
		}
		for (k = 0; k < h->ndisks; k++)
			bad += h->disks[k].result != LAB_BURNIN_CLEAN;
	}
	if (bad > 0) {
		fprintf(stderr, "lab: burnin: %zu %s not burned in clean "
		    "(refused, failed or with errors)\n", bad, bad == 1 ?
		    "disk was" : "disks were");
		if (call->audit_msg[0] == '\0')
			snprintf(call->audit_msg, sizeof(call->audit_msg),
			    "%zu disks not burned in clean", bad);
	}
	return call->failed > 0 || bad > 0 ? LAB_EXIT_PARTIAL : LAB_EXIT_OK;
}

static int
burnin_run(struct lab_call *call, struct lab_err *err)
{
	const char		*to = cmd_opt(call, "timeout");
	struct lab_burnin_hooks	 hooks = { disk_begin, disk_end, NULL };
	struct lab_burnin_req	 req;
	struct lab_ctx		 ctx;
	struct burnin		 b;
	char			 q[200], what[200];
	size_t			 i, k, ndisks = 0;
	int			 rc = -1, c;

	memset(&b, 0, sizeof(b));
	memset(&req, 0, sizeof(req));
	lab_ctx_init(&ctx);
	req.ctx = &ctx;
	req.accept_new = cmd_opt(call, "accept-new") != NULL;
	req.hooks = &hooks;	/* stderr: the JSON is on stdout */
	call->no_audit = !call->yes;	/* a plan only, until confirmed */
	if (to != NULL && parse_duration(to, &req.timeout_ms, err) == -1)
		return LAB_EXIT_INPUT;
	if (cmd_inventory(call, &b.inv, err) == -1)
		return err->code;
	if (split_args(call, b.inv, &b.hosts, &b.slots, err) == -1)
		goto out;
	req.slots = (const char *const *)b.slots.v;
	req.nslots = b.slots.n;
	if ((b.plan = calloc(b.hosts.n, sizeof(*b.plan))) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < b.hosts.n; i++) {
		b.n++;
		if (lab_burnin_plan(lab_inventory_host(b.inv, b.hosts.v[i]),
		    &req, &b.plan[i], err) == -1)
			goto out;
		for (k = 0; k < b.plan[i].ndisks; k++)
			ndisks += b.plan[i].disks[k].result ==
			    LAB_BURNIN_PLANNED;
	}
	/* the safety rule (lab(1), SAFETY): the plan, then --yes or "y";
	   a plan with nothing to run is shown to say why */
	if (!call->yes || ndisks == 0) {
		if (call->json)
			rc = print_json(b.plan, b.n, 0, err);
		else {
			print_table(b.plan, b.n, 0);
			rc = 0;
		}
		if (rc == -1)
			goto out;
		rc = -1;
	}
	if (call->dry_run && ndisks > 0) {
		fflush(stdout);
		if (!call->json)
			fprintf(stderr, "lab: burnin: nothing was run; each disk "
			    "is checked free over SSH before it is written, "
			    "and refused if it is not\n");
		rc = 0;
		goto out;
	}
	if (ndisks == 0) {
		fflush(stdout);
		rc = lab_err_set(err, LAB_EXIT_INPUT, "no disk to burn in: "
		    "every one is refused (the NOTE column says why)");
		goto out;
	}
	snprintf(q, sizeof(q), "Erase and burn in %zu %s of %s%s?", ndisks,
	    ndisks == 1 ? "disk" : "disks", b.plan[0].host, b.n > 1 ?
	    " and others" : "");
	snprintf(what, sizeof(what), "this erases every byte of %zu %s",
	    ndisks, ndisks == 1 ? "disk" : "disks");
	if ((c = cmd_confirm(call, q, what, err)) != 1) {
		rc = c == 0 ? 0 : -1;
		goto out;
	}
	call->no_audit = 0;
	if (lab_burnin_run(call->db, b.inv, &req, b.plan, b.n, err) == -1)
		goto out;
	if (call->json)
		rc = print_json(b.plan, b.n, 1, err);
	else {
		print_table(b.plan, b.n, 1);
		rc = 0;
	}
	if (rc == 0) {
		fflush(stdout);
		rc = outcome(call, &b);
		burnin_release(&b);
		return rc;
	}
out:
	burnin_release(&b);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}

static const struct lab_opt burnin_opts[] = {
	{ "timeout", "DURATION", "the deadline of one disk's burn-in: N "
	  "seconds, or Nm, Nh, Nd (default 48h)" },
	{ "accept-new", NULL, "trust and record an unknown SSH host key" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb burnin_verbs[] = {
	{ .name = NULL, .args = "TARGET... [SLOT...]", .min = 1,
	  .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_DRYRUN | LAB_VERB_TARGETS |
		LAB_VERB_MUTATES | LAB_VERB_CONFIRMS,
	  .run = burnin_run, .opts = burnin_opts,
	  .summary = "write and read back the whole surface of free disks, "
		"SMART before and after; refuses any disk in use" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_burnin = {
	.name = "burnin",
	.summary = "destructive full-surface test of free disks",
	.verbs = burnin_verbs,
};
