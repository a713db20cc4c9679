/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench-remote.h"
#include "lab/str.h"
#include "lab/template.h"

int
lab_bench_connect(const struct lab_ctx *ctx, const struct lab_host *h,
    int accept_new, struct lab_ssh **ret, struct lab_ssh_hostkey *key,
    struct lab_err *err)
{
	const struct lab_ssh_cfg	*c = h->ssh;
	struct lab_ssh_opts		 o;
	char				*identity, *known;
	int				 rc;

	if (ctx == NULL)
		ctx = lab_ctx_default();
	if (c == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no ssh: "
		    "block in the inventory (address, port, user, identity, "
		    "known_hosts): lab cannot reach it", h->name);
	identity = lab_path_home(c->identity, ctx->home);
	known = lab_path_home(c->known_hosts, ctx->home);
	if ((c->identity != NULL && identity == NULL) ||
	    (c->known_hosts != NULL && known == NULL)) {
		free(identity);
		free(known);
		return lab_err_oom(err);
	}
	lab_ssh_opts_set(&o, h->name, c, identity, known);
	o.ctx = ctx;
	o.accept_new = accept_new;
	rc = lab_ssh_connect(&o, ret, key, err);
	free(identity);
	free(known);
	return rc;
}

void
lab_bench_output_free(struct lab_bench_output *o)
{
	if (o == NULL)
		return;
	free(o->signal);
	free(o->out);
	free(o->err_tail);
	memset(o, 0, sizeof(*o));
}

/* The last lines of stderr: at most LAB_BENCH_ERR_TAIL bytes, whole lines
 * when it was cut. */
static char *
err_tail(const char *p, size_t len)
{
	const char	*s = p, *nl;

	if (p == NULL || len == 0)
		return NULL;
	if (len > LAB_BENCH_ERR_TAIL) {
		s = p + len - LAB_BENCH_ERR_TAIL;
		if ((nl = memchr(s, '\n', LAB_BENCH_ERR_TAIL - 1)) != NULL)
			s = nl + 1;
	}
	return strndup(s, (size_t)(p + len - s));
}

int
lab_bench_run(struct lab_ssh *s, const char *host, const char *cmd,
    int timeout_ms, const struct lab_ctx *ctx, struct lab_bench_output *out,
    struct lab_err *err)
{
	struct lab_ssh_result	r;
	int64_t			t0;

	if (ctx == NULL)
		ctx = lab_ctx_default();
	memset(out, 0, sizeof(*out));
	out->exit_status = -1;
	memset(&r, 0, sizeof(r));
	t0 = ctx->monotonic_ms();
	if (lab_ssh_exec(s, cmd, NULL, 0, timeout_ms > 0 ? timeout_ms :
	    LAB_BENCH_TIMEOUT_MS, &r, err) == -1) {
		/* what came before the link died is no result */
		lab_ssh_result_free(&r);
		out->elapsed_ms = ctx->monotonic_ms() - t0;
		if (host != NULL && strstr(err->msg, host) == NULL)
			lab_err_prefix(err, "%s", host);
		return -1;
	}
	out->elapsed_ms = ctx->monotonic_ms() - t0;
	out->exit_status = r.exit_status;
	out->signal = r.signal;
	r.signal = NULL;
	out->out = r.out != NULL ? r.out : strdup("");
	r.out = NULL;
	out->outlen = r.outlen;
	out->outbytes = r.outbytes;
	out->err_tail = err_tail(r.err, r.errlen);
	if (out->out == NULL || (r.errlen > 0 && out->err_tail == NULL)) {
		lab_ssh_result_free(&r);
		lab_bench_output_free(out);
		out->exit_status = -1;
		return lab_err_oom(err);
	}
	lab_ssh_result_free(&r);
	return 0;
}

const char *
lab_disk_use_name(enum lab_disk_use u)
{
	static const char *const names[] = {
		[LAB_DISK_FREE] = "free",
		[LAB_DISK_MOUNTED] = "mounted",
		[LAB_DISK_ARRAY] = "md",
		[LAB_DISK_POOL] = "zfs",
		[LAB_DISK_VG] = "lvm",
		[LAB_DISK_SIGNATURES] = "signatures",
		[LAB_DISK_MISSING] = "missing",
		[LAB_DISK_OTHER] = "other",
	};

	if ((size_t)u >= sizeof(names) / sizeof(names[0]))
		return "other";
	return names[u];
}

/*
 * The check's words after "lab: slot SLOT: DEV: " on its first line, and
 * what kind of use they say.
 */
static void
parse_check(const char *text, const char *slot, const char *dev,
    struct lab_disk_state *st)
{
	static const struct {
		const char		*words;
		enum lab_disk_use	 use;
	} kinds[] = {
		{ "is mounted on ", LAB_DISK_MOUNTED },
		{ "is in an md array", LAB_DISK_ARRAY },
		{ "is in a ZFS pool", LAB_DISK_POOL },
		{ "is an LVM physical volume", LAB_DISK_VG },
		{ "holds a partition table or signatures", LAB_DISK_SIGNATURES },
		{ "no such block device", LAB_DISK_MISSING },
	};
	char		 prefix[512];
	const char	*p = text != NULL ? text : "", *m;
	size_t		 i, n, plen;

	st->use = LAB_DISK_OTHER;
	plen = (size_t)snprintf(prefix, sizeof(prefix), "lab: slot %s: %s: ",
	    slot, dev);
	/* its line, wherever the remote shell put it among others */
	if (plen < sizeof(prefix) && (m = strstr(p, prefix)) != NULL &&
	    (m == p || m[-1] == '\n'))
		p = m + plen;
	n = strcspn(p, "\n");
	snprintf(st->reason, sizeof(st->reason), "%.*s", (int)n, p);
	if (st->reason[0] == '\0')
		snprintf(st->reason, sizeof(st->reason), "the free-disk check "
		    "failed and said nothing");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if ((m = strstr(st->reason, kinds[i].words)) == NULL)
			continue;
		st->use = kinds[i].use;
		if (st->use == LAB_DISK_MOUNTED)
			snprintf(st->mount, sizeof(st->mount), "%s",
			    m + strlen(kinds[i].words));
		break;
	}
}

int
lab_bench_disk_check(struct lab_ssh *s, const char *host, const char *slot,
    const char *dev, struct lab_disk_state *st, struct lab_err *err)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = NULL;
	struct lab_bench_output	 o;
	struct lab_tvars	*d;
	char			*script = NULL;
	int			 rc;

	memset(st, 0, sizeof(*st));
	if ((t = lab_tvars_new()) == NULL ||
	    (d = lab_tvars_add(t, "disks")) == NULL)
		return lab_err_oom(err);
	lab_tvars_set(d, "slot", slot);
	lab_tvars_set(d, "dev", dev);
	/* provisioning's check as it is, without force: signatures count */
	if (lab_template_render_builtin("check-disks.sh", t, &script,
	    err) == -1)
		return -1;
	rc = lab_bench_run(s, host, script, 120000, NULL, &o, err);
	free(script);
	if (rc == -1)
		return -1;
	if (o.exit_status == 0) {
		st->use = LAB_DISK_FREE;
		lab_bench_output_free(&o);
		return 0;
	}
	parse_check(o.err_tail, slot, dev, st);
	if (o.exit_status != 1 && st->use == LAB_DISK_OTHER)
		snprintf(st->reason, sizeof(st->reason), "the free-disk check "
		    "exited with status %d%s%s", o.exit_status,
		    o.signal ? ", signal " : "", o.signal ? o.signal : "");
	lab_bench_output_free(&o);
	return 0;
}
