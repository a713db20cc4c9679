/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench-remote.h"
#include "lab/cred.h"
#include "lab/facts.h"
#include "lab/fanout.h"
#include "lab/ipmi.h"
#include "lab/template.h"

#include "facts/facts-priv.h"

/*
 * lab facts (issue 20): for each host at once (the fan-out), the facts
 * script (templates/facts.sh) over its ssh: block and Get Device ID over
 * its BMC; then, one host after the other (the database has one writer),
 * drift against the inventory, the last discovery and the facts stored
 * before (a disk whose serial changed is swapped), the known issues of
 * its BMC's and BIOS's firmware, and the facts stored. Nothing on a host
 * is changed. A host fails (ok 0) only when its SSH part does; the BMC,
 * the drift and the known issues each say what went wrong in the facts
 * themselves (bmc.error, notes).
 */
#define FACTS_TIMEOUT_MS	60000
#define BMC_TIMEOUT_MS		10000

struct job {
	const struct lab_facts_opts	 *o;
	const struct lab_ctx		 *ctx;
	const struct lab_host		**hosts;
	struct lab_host_facts		 *res;
	const char			 *script;
};

static void
fail(struct lab_host_facts *f, const char *msg)
{
	f->ok = 0;
	free(f->error);
	f->error = strdup(msg);
}

/* The last non-empty line of s, for a script that failed. */
static void
last_line(const char *s, char *buf, size_t size)
{
	size_t		 n = s != NULL ? strlen(s) : 0;
	const char	*b;

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	for (b = s + n; s != NULL && b > s && b[-1] != '\n'; b--)
		;
	snprintf(buf, size, "%.*s", s != NULL ? (int)(s + n - b) : 0,
	    s != NULL ? b : "");
}

static void
ssh_part(struct job *j, const struct lab_host *h, struct lab_host_facts *f)
{
	struct lab_bench_output	 out;
	struct lab_ssh_hostkey	 key;
	struct lab_ssh		*s = NULL;
	struct lab_err		 err;
	char			 line[300], msg[700];
	int			 rc;

	lab_err_init(&err);
	memset(&key, 0, sizeof(key));
	if (h->ssh == NULL) {
		fail(f, "no ssh: block in the inventory (address, port, user, "
		    "identity, known_hosts): lab cannot reach it");
		return;
	}
	if (lab_bench_connect(j->ctx, h, j->o->accept_new_hostkey, &s, &key,
	    &err) == -1) {
		fail(f, err.msg);
		return;
	}
	if (key.added && lab_facts_note(f, "host key %s %s added to "
	    "known_hosts", key.type, key.fingerprint) == -1) {
		lab_ssh_close(s);
		fail(f, "out of memory");
		return;
	}
	rc = lab_bench_run(s, h->name, j->script, j->o->timeout_ms > 0 ?
	    j->o->timeout_ms : FACTS_TIMEOUT_MS, j->ctx, &out, &err);
	lab_ssh_close(s);
	if (rc == -1) {
		fail(f, err.msg);
		return;
	}
	if (out.exit_status != 0 || out.outbytes > out.outlen) {
		last_line(out.err_tail, line, sizeof(line));
		if (out.outbytes > out.outlen)
			snprintf(msg, sizeof(msg), "the facts script printed "
			    "more than lab reads (%llu bytes)",
			    (unsigned long long)out.outbytes);
		else
			snprintf(msg, sizeof(msg), "the facts script exited "
			    "with status %d%s%s%s%s", out.exit_status,
			    out.signal != NULL ? ", signal " : "",
			    out.signal != NULL ? out.signal : "",
			    line[0] != '\0' ? ": " : "", line);
		lab_bench_output_free(&out);
		fail(f, msg);
		return;
	}
	if (lab_facts_parse_script(f, out.out != NULL ? out.out : "",
	    &err) == -1) {
		lab_bench_output_free(&out);
		fail(f, err.msg);
		return;
	}
	lab_bench_output_free(&out);
	lab_facts_keep_disks(f, h);
	f->ok = 1;
}

static int
bmc_priv(const char *s)
{
	int	v = s != NULL ? lab_ipmi_priv_parse(s) : -1;

	/* Get Device ID is a user's command: ask no more unless told */
	return v == -1 ? LAB_IPMI_PRIV_USER : v;
}

static void
bmc_part(struct job *j, const struct lab_host *h, struct lab_host_facts *f)
{
	const struct lab_cred	*cred;
	struct lab_ipmi_target	 t;
	struct lab_ipmi		*s = NULL;
	struct lab_fact_bmc	*b = &f->bmc;
	struct lab_err		 err;
	size_t			 k;
	int			 timeout;

	if (h->bmc == NULL)
		return;
	cred = lab_creds_find(j->o->creds, h->bmc->credential);
	if (cred == NULL || cred->username == NULL || cred->password == NULL) {
		b->error = lab_asprintf("credential '%s' %s in the credentials "
		    "file", h->bmc->credential, cred == NULL ? "is not" :
		    "has no username and password");
		return;
	}
	timeout = j->o->timeout_ms > 0 && j->o->timeout_ms < BMC_TIMEOUT_MS ?
	    j->o->timeout_ms : BMC_TIMEOUT_MS;
	memset(&t, 0, sizeof(t));
	t.address = h->bmc->address;
	t.port = h->bmc->port;
	t.username = cred->username;
	t.password = cred->password;
	t.cipher_suite = h->bmc->cipher_suite;
	for (k = 0; k < h->bmc->workarounds.n; k++)
		lab_ipmi_workaround_parse(h->bmc->workarounds.v[k],
		    &t.workarounds);
	t.privilege = bmc_priv(h->bmc->privilege);
	t.timeout_ms = h->bmc->timeout_ms > 0 && h->bmc->timeout_ms < timeout ?
	    h->bmc->timeout_ms : timeout;
	t.retransmit_ms = h->bmc->retransmit_ms;
	lab_err_init(&err);
	if (lab_ipmi_open(&t, &s, &err) == -1 ||
	    lab_ipmi_device_id(s, b, &err) == -1) {
		lab_fact_bmc_release(b);
		b->ok = 0;
		b->error = strdup(err.msg);
	} else
		b->ok = 1;
	lab_ipmi_free(s);
}

static void
work(size_t i, void *arg)
{
	struct job		*j = arg;
	const struct lab_host	*h = j->hosts[i];
	struct lab_host_facts	*f = &j->res[i];

	f->seen_at = j->ctx->wall();
	ssh_part(j, h, f);
	bmc_part(j, h, f);
}

/* A part that failed on the way (drift, known issues): a note. */
static int
soft(struct lab_host_facts *f, const char *what, struct lab_err *e,
    struct lab_err *err)
{
	if (lab_facts_note(f, "%s: %s", what, e->msg) == -1)
		return lab_err_oom(err);
	lab_err_init(e);
	return 0;
}

static int
known(const struct lab_facts_opts *o, const struct lab_host *h,
    struct lab_host_facts *f, struct lab_err *err)
{
	struct lab_component	 c;
	struct lab_err		 e;
	char			 subject[300];

	if (o->known == NULL)
		return 0;
	lab_err_init(&e);
	memset(&c, 0, sizeof(c));
	c.model = h->model;
	c.bmc = h->bmc != NULL ? h->bmc->type : NULL;
	if (f->bmc.ok && f->bmc.firmware != NULL) {
		c.component = "bmc";
		c.product = f->bmc.fru_product;
		c.firmware = f->bmc.firmware;
		snprintf(subject, sizeof(subject), "%s BMC", h->name);
		if (lab_known_issues_check(o->known, &c, subject, &f->findings,
		    &e) == -1 && soft(f, "known issues", &e, err) == -1)
			return -1;
	}
	if (f->ok && f->dmi.bios_version != NULL) {
		c.component = "bios";
		c.product = f->dmi.product_name;
		c.firmware = f->dmi.bios_version;
		snprintf(subject, sizeof(subject), "%s BIOS", h->name);
		if (lab_known_issues_check(o->known, &c, subject, &f->findings,
		    &e) == -1 && soft(f, "known issues", &e, err) == -1)
			return -1;
	}
	return 0;
}

/* Drift, known issues, storage: one host, in the caller's thread. */
static int
after(const struct lab_facts_opts *o, const struct lab_host *h,
    struct lab_host_facts *f, struct lab_err *err)
{
	struct lab_port_view	*ports = NULL;
	struct lab_fact_kv	*kv = NULL, *prev = NULL;
	struct lab_err		 e;
	size_t			 nports = 0, nkv = 0, nprev = 0;
	int			 rc = 0;

	lab_err_init(&e);
	if (f->ok) {
		if (o->db != NULL && lab_db_port_views(o->db, h->name, &ports,
		    &nports, &e) == -1) {
			if (soft(f, "the switch ports of the last discovery "
			    "not read", &e, err) == -1)
				return -1;
			ports = NULL;
			nports = 0;
		}
		/* the facts stored before: a disk's serial that changed */
		if (o->db != NULL && lab_db_facts_get(o->db, "host", h->name,
		    &prev, &nprev, &e) == -1) {
			if (soft(f, "the facts of the last run not read", &e,
			    err) == -1) {
				lab_port_views_free(ports, nports);
				return -1;
			}
			prev = NULL;
			nprev = 0;
		}
		if (lab_facts_drift_prev(h, f, ports, nports, prev, nprev,
		    &f->findings, &e) == -1 && soft(f, "no drift check", &e,
		    err) == -1)
			rc = -1;
		lab_port_views_free(ports, nports);
		lab_fact_kvs_free(prev, nprev);
		if (rc == -1)
			return -1;
	}
	if (known(o, h, f, err) == -1)
		return -1;
	lab_fact_findings_sort(&f->findings);
	/* a host not reached has nothing new to store */
	if (o->no_record || o->db == NULL || (!f->ok && !f->bmc.ok))
		return 0;
	if (lab_host_facts_flatten(f, &kv, &nkv, err) == -1)
		return -1;
	rc = lab_db_facts_put(o->db, "host", h->name, kv, nkv, &f->findings,
	    f->seen_at, err);
	lab_fact_kvs_free(kv, nkv);
	if (rc == -1)
		lab_err_prefix(err, "%s: facts not recorded", h->name);
	return rc;
}

int
lab_facts_run(const struct lab_facts_opts *o, const struct lab_host **hosts,
    size_t n, struct lab_host_facts *res, struct lab_err *err)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = NULL;
	struct job	 j;
	char		*script = NULL;
	size_t		 i;
	int		 rc = 0;

	memset(res, 0, n * sizeof(*res));
	for (i = 0; i < n; i++) {
		res[i].nm.running = -1;
		if ((res[i].host = strdup(hosts[i]->name)) == NULL)
			return lab_err_oom(err);
	}
	if ((t = lab_tvars_new()) == NULL)
		return lab_err_oom(err);
	if (lab_template_render_builtin("facts.sh", t, &script, err) == -1)
		return -1;
	memset(&j, 0, sizeof(j));
	j.o = o;
	j.ctx = o->ctx != NULL ? o->ctx : lab_ctx_default();
	j.hosts = hosts;
	j.res = res;
	j.script = script;
	if (lab_fanout_run(n, o->fanout > 0 ? o->fanout : LAB_FANOUT_DEFAULT,
	    work, NULL, &j, err) == -1)
		rc = -1;
	free(script);
	for (i = 0; rc == 0 && i < n; i++)
		rc = after(o, hosts[i], &res[i], err);
	return rc;
}
