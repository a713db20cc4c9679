/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/json.h"
#include "lab/parse.h"
#include "lab/plan.h"
#include "lab/provision.h"
#include "lab/ssh.h"
#include "lab/target.h"
#include "lab/text.h"
#include "lab.h"
#include "provision-shares.h"

#define LAYOUT_MAX	((size_t)256 * 1024)

static const char *const zfs_layouts[] = { "raid10", "raidz1", "raidz2",
	"mirror", "stripe", NULL };

/* Is the layout a file rather than a name? */
static int
is_layout_file(const char *l)
{
	size_t	n = strlen(l);

	return strchr(l, '/') != NULL || (n > 5 &&
	    strcmp(l + n - 5, ".yaml") == 0) || (n > 4 &&
	    strcmp(l + n - 4, ".yml") == 0);
}

static int
is_zfs(const char *l)
{
	size_t	i;

	for (i = 0; zfs_layouts[i] != NULL; i++)
		if (strcmp(l, zfs_layouts[i]) == 0)
			return 1;
	return 0;
}

/* Splits "1,2,3" into v (pointers into a copy owned by v). */
static int
split_list(const char *s, struct lab_strv *v, struct lab_err *err)
{
	char	*copy, *p, *tok, *save = NULL;

	if (s == NULL)
		return 0;
	if ((copy = lab_strdup(s)) == NULL)
		return lab_err_oom(err);
	for (p = copy; (tok = strtok_r(p, ", ", &save)) != NULL; p = NULL)
		if (lab_strv_add(v, tok) == -1) {
			free(copy);
			return lab_err_oom(err);
		}
	free(copy);
	return 0;
}

struct prov {
	struct lab_call		*call;
	const struct lab_host	*host;
	struct lab_strv		 disks, nics;
	char			*layout_text;
	struct lab_storage_req	 sreq;
	struct lab_bond_req	 breq;
	struct lab_bond_nics	 seen;
	struct lab_plan		*plan;
	struct lab_ssh_opts	 ssh;
	struct lab_ctx		 ctx;	/* the clocks and home, for ssh too */
	char			*identity, *known_hosts;
	int			 shown;	/* the plan is on stdout already */
};

static void
prov_release(struct prov *p)
{
	lab_strv_release(&p->disks);
	lab_strv_release(&p->nics);
	free(p->layout_text);
	lab_bond_nics_release(&p->seen);
	lab_plan_free(p->plan);
	free(p->identity);
	free(p->known_hosts);
}

static int
make_plan(struct prov *p, struct lab_err *err)
{
	lab_plan_free(p->plan);
	p->plan = NULL;
	if ((p->sreq.layout != NULL || p->sreq.layout_text != NULL ?
	    lab_plan_storage(p->host, &p->sreq, &p->plan, err) :
	    lab_plan_bond(p->host, &p->breq, &p->plan, err)) == -1)
		return -1;
	if (p->plan == NULL)	/* the planners make one or fail */
		return lab_err_set(err, LAB_EXIT_ENV, "no plan was made");
	return 0;
}

static int
storage_req(struct prov *p, const char *layout, struct lab_err *err)
{
	struct lab_call	*call = p->call;
	size_t		 len;

	memset(&p->sreq, 0, sizeof(p->sreq));
	if (is_layout_file(layout)) {
		if (lab_file_read(layout, LAYOUT_MAX, &p->layout_text, &len,
		    err) == -1)
			return -1;
		p->sreq.layout_name = layout;
		p->sreq.layout_text = p->layout_text;
	} else
		p->sreq.layout = layout;
	if (split_list(cmd_opt(call, "disks"), &p->disks, err) == -1)
		return -1;
	if (p->disks.n > 0) {
		p->sreq.disks = (const char *const *)p->disks.v;
		p->sreq.ndisks = p->disks.n;
	}
	p->sreq.cache = cmd_opt(call, "cache");
	p->sreq.log = cmd_opt(call, "log");
	p->sreq.pool = cmd_opt(call, "pool");
	p->sreq.force = cmd_opt(call, "force") != NULL;
	p->sreq.facts.zfs_lz4 = -1;
	return 0;
}

static int
bond_req(struct prov *p, const char *mode, struct lab_err *err)
{
	struct lab_call	*call = p->call;

	memset(&p->breq, 0, sizeof(p->breq));
	p->breq.mode = mode;
	p->breq.vlans_only = cmd_opt(call, "vlans") != NULL;
	if (split_list(cmd_opt(call, "nics"), &p->nics, err) == -1)
		return -1;
	if (p->nics.n > 0) {
		p->breq.nics = (const char *const *)p->nics.v;
		p->breq.nnics = p->nics.n;
	}
	p->breq.bridge = cmd_opt(call, "bridge");
	p->breq.renderer = cmd_opt(call, "renderer");
	if (lab_db_bond_nics(call->db, p->host, &p->seen, err) == -1)
		return -1;
	p->breq.seen = p->seen.v;
	p->breq.nseen = p->seen.n;
	return 0;
}

static int
print_plan(struct prov *p, const struct lab_provision *a, struct lab_err *err)
{
	struct lab_buf	 b;
	struct lab_json	 j;
	size_t		 i;
	int		 rc;

	lab_buf_init(&b);
	if (!p->call->json) {
		if (lab_plan_text(p->plan, &b, err) == -1) {
			lab_buf_release(&b);
			return -1;
		}
		/* what is reviewed before --yes shows every byte it runs */
		rc = cmd_write_text(&b, err);
		lab_buf_release(&b);
		return rc;
	}
	lab_json_init(&j, &b);
	if (a == NULL)
		lab_plan_json(&j, p->plan);
	else {
		/* {plan, run: {id, status, failed_step, message, steps}} */
		lab_json_obj_begin(&j);
		lab_json_key(&j, "plan");
		lab_plan_json(&j, p->plan);
		lab_json_key(&j, "run");
		lab_json_obj_begin(&j);
		lab_json_kint(&j, "id", a->run_id);
		lab_json_kstr(&j, "status", lab_run_status_name(a->status));
		lab_json_key(&j, "failed_step");
		if (a->status == LAB_RUN_DONE)
			lab_json_null(&j);
		else
			lab_json_int(&j, (int64_t)a->failed_step);
		lab_json_kstr(&j, "message", a->message[0] ? a->message : NULL);
		lab_json_key(&j, "steps");
		lab_json_arr_begin(&j);
		for (i = 0; i < a->nresults && a->results[i].ran; i++) {
			lab_json_obj_begin(&j);
			lab_json_key(&j, "exit_status");
			if (a->results[i].exit_status < 0)
				lab_json_null(&j);
			else
				lab_json_int(&j, a->results[i].exit_status);
			lab_json_kstr(&j, "output", a->results[i].output);
			lab_json_kint(&j, "output_bytes",
			    a->results[i].output_bytes);
			lab_json_kint(&j, "elapsed_ms", a->results[i].elapsed_ms);
			lab_json_obj_end(&j);
		}
		lab_json_arr_end(&j);
		lab_json_obj_end(&j);
		lab_json_obj_end(&j);
	}
	lab_json_end(&j);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc;
}

static const char *const kind_words[] = { "check", "run", "write" };

/* The progress of a run on stderr: its hooks (arg: the plan). */
void
cmd_provision_step_begin(void *arg, size_t i, const struct lab_step *st)
{
	const struct lab_plan	*plan = arg;
	const char		*nl = strchr(st->text, '\n');
	size_t			 n = lab_utf8_cut(st->text, nl ?
				    (size_t)(nl - st->text) : 72);
	char			*line = strndup(st->text, n);

	/* its first line, cut at a character, shown as cmd_eputs does */
	fprintf(stderr, "[%zu/%zu] %s ", i + 1, plan->nsteps,
	    kind_words[st->kind]);
	cmd_puts_text(stderr, line != NULL ? line : "");
	free(line);
	fprintf(stderr, "%s ... ", nl || strlen(st->text) > 72 ? "…" : "");
	fflush(stderr);
}

void
cmd_provision_step_end(void *arg, size_t i, const struct lab_step *st,
    const struct lab_step_result *r)
{
	(void)arg;
	(void)i;
	(void)st;
	if (r->exit_status == 0 || (r->exit_status < 0 && r->note[0] &&
	    strstr(r->note, "(expected)") != NULL)) {
		fprintf(stderr, "ok (%.1f s)%s", (double)r->elapsed_ms / 1000.0,
		    r->exit_status < 0 ? ": " : "");
		cmd_puts_text(stderr, r->exit_status < 0 ? r->note : "");
		fputc('\n', stderr);
	} else {
		fprintf(stderr, "failed (%.1f s): ", (double)r->elapsed_ms / 1000.0);
		cmd_puts_text(stderr, r->note);
		fputc('\n', stderr);
		/* the host's output: shown, never obeyed by the terminal */
		if (r->output != NULL && *r->output != '\0') {
			cmd_puts_text(stderr, r->output);
			if (r->output[strlen(r->output) - 1] != '\n')
				fputc('\n', stderr);
		}
	}
}

static int
ssh_opts(struct prov *p, struct lab_err *err)
{
	const struct lab_ssh_cfg	*c = p->host->ssh;

	if (c == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no ssh: "
		    "block in the inventory (address, port, user, identity, "
		    "known_hosts): lab cannot reach it", p->host->name);
	p->identity = lab_path_home(c->identity, getenv("HOME"));
	p->known_hosts = lab_path_home(c->known_hosts, getenv("HOME"));
	lab_ctx_init(&p->ctx);
	lab_ssh_opts_set(&p->ssh, p->host->name, c, p->identity,
	    p->known_hosts);
	p->ssh.ctx = &p->ctx;
	p->ssh.accept_new = cmd_opt(p->call, "accept-new") != NULL;
	return 0;
}

/* Reads what the plan depends on off the target, and plans again. */
static int
read_facts(struct prov *p, struct lab_ssh *s, struct lab_err *err)
{
	if (p->sreq.layout == NULL || !is_zfs(p->sreq.layout))
		return 0;
	if (lab_provision_facts(s, p->host->name, &p->sreq.facts, err) == -1)
		return -1;
	return make_plan(p, err);
}

static int
apply(struct prov *p, struct lab_err *err)
{
	struct lab_call		*call = p->call;
	struct lab_ssh_hostkey	 key;
	struct lab_provision_hooks hooks;
	struct lab_provision	 a;
	int			 rc;

	if (p->plan->placeholders)
		return lab_err_set(err, LAB_EXIT_INPUT, "cannot apply: some "
		    "disks of %s have no 'device' in the inventory (the plan "
		    "shows them as placeholders)", p->host->name);
	if (ssh_opts(p, err) == -1)
		return -1;
	memset(&a, 0, sizeof(a));
	memset(&key, 0, sizeof(key));
	a.target_lock = getenv("LAB_TARGET_LOCK");
	if (a.target_lock != NULL && *a.target_lock == '\0')
		a.target_lock = NULL;
	if (a.target_lock != NULL && (a.target_lock[0] != '/' ||
	    a.target_lock[strspn(a.target_lock, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-")] != '\0')) {
		return lab_err_set(err, LAB_EXIT_INPUT, "LAB_TARGET_LOCK "
		    "'%.64s' is not an absolute path of [A-Za-z0-9_./-]",
		    a.target_lock);
	}
	if (lab_ssh_connect(&p->ssh, &a.conn, &key, err) == -1)
		return -1;
	if (key.added) {
		fprintf(stderr, "lab: added %s's %s host key %s to %s\n",
		    p->host->name, key.type, key.fingerprint,
		    p->known_hosts ? p->known_hosts : "~/.ssh/known_hosts");
		snprintf(call->audit_msg, sizeof(call->audit_msg), "accepted "
		    "new host key %s %s", key.type, key.fingerprint);
	}
	if (read_facts(p, a.conn, err) == -1) {
		lab_provision_release(&a);
		return -1;
	}
	if (!call->json && !p->shown && print_plan(p, NULL, err) == -1) {
		lab_provision_release(&a);
		return -1;
	}
	hooks.begin = cmd_provision_step_begin;
	hooks.end = cmd_provision_step_end;
	hooks.arg = p->plan;
	a.ssh = &p->ssh;
	a.hooks = &hooks;
	if (lab_provision_apply(&p->ctx, call->db, p->plan, &a, err) == -1) {
		lab_provision_release(&a);
		return -1;
	}
	if (call->json && print_plan(p, &a, err) == -1) {
		lab_provision_release(&a);
		return -1;
	}
	if (a.status == LAB_RUN_DONE) {
		fprintf(stderr, "lab: %s: %s %s applied (run %lld)\n",
		    p->host->name, p->plan->kind, p->plan->layout,
		    (long long)a.run_id);
		rc = 0;
	} else {
		rc = lab_err_set(err, LAB_EXIT_PARTIAL, "%s: run %lld %s: %s",
		    p->host->name, (long long)a.run_id,
		    lab_run_status_name(a.status), a.message);
	}
	lab_provision_release(&a);
	return rc;
}

static int
provision_run(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	const char	*layout = cmd_opt(call, "layout");
	const char	*bond = cmd_opt(call, "bond");
	int		 vlans = cmd_opt(call, "vlans") != NULL;
	struct cmd_shares_opts so = { cmd_opt(call, "mounts") != NULL,
			    cmd_opt(call, "prune") != NULL,
			    cmd_opt(call, "accept-new") != NULL };
	int		 shares = cmd_opt(call, "shares") != NULL;
	struct lab_strv	 none;
	struct prov	 p;
	char		 q[160], what[160];
	int		 rc;

	if ((layout != NULL) + (bond != NULL) + vlans + shares + so.mounts != 1)
		return lab_err_set(err, LAB_EXIT_INPUT, "say what to provision: "
		    "--layout LAYOUT (storage), --bond MODE or --vlans "
		    "(network), --shares or --mounts, one at a time"),
		    LAB_EXIT_INPUT;
	if (so.prune && !shares)
		return lab_err_set(err, LAB_EXIT_INPUT, "--prune goes with "
		    "--shares"), LAB_EXIT_INPUT;
	call->no_audit = !call->yes;	/* a plan only, until confirmed */
	if (cmd_inventory(call, &inv, err) == -1)
		return err->code;
	memset(&p, 0, sizeof(p));
	p.call = call;
	if ((p.host = lab_inventory_host(inv, call->argv[0])) == NULL) {
		if (lab_target_resolve(inv, call->argv, 1, 0, &none, err) == 0) {
			lab_strv_release(&none);
			lab_err_set(err, LAB_EXIT_INPUT, "'%s' is not a host",
			    call->argv[0]);
		}
		return LAB_EXIT_INPUT;
	}
	if (shares || so.mounts)
		return cmd_provision_shares(call, inv, p.host, &so, err) == 0 ?
		    LAB_EXIT_OK : (int)err->code;
	rc = layout != NULL ? storage_req(&p, layout, err) :
	    bond_req(&p, bond, err);
	if (rc == 0)
		rc = make_plan(&p, err);
	/* the safety rule (lab(1), SAFETY): the plan, then --yes or "y" */
	if (rc == 0 && !call->yes) {
		rc = print_plan(&p, NULL, err);
		p.shown = 1;
	}
	if (rc == 0 && call->dry_run && !call->json) {
		fflush(stdout);	/* the plan first, then the note */
		fprintf(stderr, "lab: %s: nothing was changed; 'lab provision "
		    "%s ... --yes' applies this plan%s\n", p.host->name,
		    p.host->name, p.plan->placeholders ? " once every disk "
		    "has its 'device'" : "");
	}
	if (rc == 0 && !call->dry_run) {
		snprintf(q, sizeof(q), "Apply this %s plan to %s?",
		    p.plan->kind, p.host->name);
		snprintf(what, sizeof(what), "this changes the %s of %s",
		    p.plan->kind, p.host->name);
		/* a plan with placeholders cannot be applied: no question */
		if (p.plan->placeholders || cmd_confirm(call, q, what,
		    err) == 1) {
			call->no_audit = 0;
			rc = apply(&p, err);
		} else
			rc = -1;
	}
	prov_release(&p);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}

static const struct lab_opt provision_opts[] = {
	{ "layout", "LAYOUT", "storage: raid10 raidz1 raidz2 mirror stripe "
	  "md-raid1 md-raid10 md-raid5, or a layout FILE.yaml",
	  lab_layout_words, 1 },
	{ "disks", "SLOTS", "the disks by slot, comma-separated (default: "
	  "every non-boot, non-SSD disk)" },
	{ "cache", "SLOT", "an SSD as L2ARC cache" },
	{ "log", "SLOT", "an SSD as separate intent log" },
	{ "pool", "NAME", "the pool (ZFS) or volume group (md) name" },
	{ "force", NULL, "use disks that hold a partition table, and mount a "
	  "layout file's filesystems over folders that hold files" },
	{ "bond", "MODE", "network: active-backup, 802.3ad or balance-alb",
	  lab_bond_mode_words, 0 },
	{ "nics", "NICS", "the NICs to bond, comma-separated (default: all)" },
	{ "bridge", "NAME", "a bridge over the bond, holding the host's "
	  "address" },
	{ "renderer", "R", "ifupdown (default), networkd or netplan",
	  lab_bond_renderer_words, 0 },
	{ "vlans", NULL, "network without a bond: only the VLAN interfaces "
	  "of the NICs with tagged: true" },
	{ "accept-new", NULL, "trust and record an unknown SSH host key" },
	{ "shares", NULL, "the NFS exports and iSCSI LUNs of the host's "
	  "shares: in the inventory" },
	{ "mounts", NULL, "the host's mounts: (fstab lines, iSCSI logins)" },
	{ "prune", NULL, "with --shares: stop serving the shares no longer in "
	  "the inventory (refused while a client holds one)" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb provision_verbs[] = {
	{ .name = NULL, .args = "HOST", .min = 1, .max = 1,
	  .flags = LAB_VERB_JSON | LAB_VERB_DRYRUN | LAB_VERB_MUTATES |
		LAB_VERB_CONFIRMS,
	  .run = provision_run, .opts = provision_opts,
	  .summary = "plan a storage layout or NIC bond, and with --yes "
		"apply it over SSH" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_provision = {
	.name = "provision",
	.summary = "plan and apply storage layouts, NIC bonds and shares over "
		"SSH",
	.verbs = provision_verbs,
};
