/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/cred.h"
#include "lab/facts.h"
#include "lab/fanout.h"
#include "lab/json.h"
#include "lab/parse.h"
#include "lab/target.h"
#include "lab.h"

/*
 * lab facts TARGET... [--json | --yaml]: what each host really is (lib/
 * facts.c), read over SSH and IPMI, compared with the inventory, recorded
 * unless --no-record. Changes nothing on a host. Exit 0 when every host
 * was read, 1 when some could not be (no ssh: block, unreachable, refused).
 */

struct facts {
	struct lab_inventory	 *inv;
	struct lab_strv		  names;
	const struct lab_host	**hosts;
	struct lab_host_facts	 *res;
	size_t			  n;
	struct lab_creds	 *creds;
	struct lab_known_issues	  known;
};

static void
facts_release(struct facts *f)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		lab_host_facts_release(&f->res[i]);
	free(f->res);
	free(f->hosts);
	lab_strv_release(&f->names);
	lab_creds_free(f->creds);
	lab_known_issues_release(&f->known);
	lab_inventory_free(f->inv);
}

static int
parse_opts(struct lab_call *call, struct lab_facts_opts *o,
    struct lab_err *err)
{
	const char	*s;
	long		 v;

	if (cmd_opt(call, "yaml") != NULL && call->json)
		return lab_err_set(err, LAB_EXIT_INPUT, "--yaml and --json "
		    "cannot go together");
	if ((s = cmd_opt(call, "timeout")) != NULL) {
		if (lab_parse_int(s, 1, 3600, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--timeout takes "
			    "seconds from 1 to 3600, not '%s'", s);
		o->timeout_ms = (int)v * 1000;
	}
	if ((s = cmd_opt(call, "fanout")) != NULL ||
	    (s = cmd_setting(LAB_CONFIG_FANOUT)) != NULL) {
		if (lab_parse_int(s, 1, LAB_FANOUT_MAX, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--fanout takes "
			    "a number from 1 to %d, not '%s'", LAB_FANOUT_MAX,
			    s);
		o->fanout = (size_t)v;
	}
	o->no_record = cmd_opt(call, "no-record") != NULL;
	o->accept_new_hostkey = cmd_opt(call, "accept-new") != NULL;
	return 0;
}

/* The credentials, when a host has a BMC; a file that cannot be read
   costs the BMC part only (said on stderr), never the SSH part. */
static void
load_creds(struct lab_call *call, struct facts *f)
{
	struct lab_err	e;
	size_t		i;

	for (i = 0; i < f->n; i++)
		if (f->hosts[i]->bmc != NULL)
			break;
	if (i == f->n)
		return;
	lab_err_init(&e);
	if (lab_creds_load(call->cred_path, &f->creds, &e) == -1) {
		fprintf(stderr, "lab: facts: no BMC read: %s\n", cmd_vis(e.msg));
		f->creds = NULL;
	}
}

static int
print_json(const struct facts *f, struct lab_err *err)
{
	struct lab_buf	 b;
	struct lab_json	 j;
	size_t		 i;
	int		 rc;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	for (i = 0; i < f->n; i++)
		lab_facts_json(&j, &f->res[i]);
	lab_json_arr_end(&j);
	lab_json_end(&j);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc;
}

static int
print_yaml(const struct facts *f, struct lab_err *err)
{
	struct lab_buf	 b;
	size_t		 i;
	char		*y;
	int		 rc, first = 1;

	lab_buf_init(&b);
	for (i = 0; i < f->n; i++) {
		struct lab_err e;

		if (!f->res[i].ok)
			continue;
		lab_err_init(&e);
		if (lab_facts_to_yaml(&f->res[i], f->hosts[i], &y, &e) == -1) {
			lab_buf_release(&b);
			return lab_err_set(err, e.code, "%s", e.msg);
		}
		/* one hosts: list for all of them */
		if (!first && strncmp(y, "#", 1) == 0) {
			const char *h = strstr(y, "hosts:\n");

			lab_buf_adds(&b, h != NULL ? h + 7 : y);
		} else
			lab_buf_adds(&b, y);
		first = 0;
		free(y);
	}
	rc = cmd_write_text(&b, err);
	lab_buf_release(&b);
	return rc;
}

static const char *
num(char *buf, size_t size, int64_t v, const char *unit)
{
	if (v < 0)
		return NULL;
	snprintf(buf, size, "%" PRId64 "%s", v, unit);
	return buf;
}

static void
print_disks(const struct lab_host_facts *h)
{
	struct table	t;
	char		size[32];
	size_t		i;

	if (h->ndisks == 0)
		return;
	table_init(&t, 8, "DISK", "SIZE", "TRANSPORT", "ROT", "MODEL",
	    "SERIAL", "FIRMWARE", "PATH");
	table_text(&t, 7);
	for (i = 0; i < h->ndisks; i++) {
		const struct lab_fact_disk *d = &h->disks[i];

		if (d->size_bytes >= 0)
			lab_format_size_human((uint64_t)d->size_bytes, size,
			    sizeof(size));
		table_row(&t, d->name, d->size_bytes >= 0 ? size : NULL,
		    d->transport, d->rotational < 0 ? NULL : d->rotational ?
		    "yes" : "no", d->model, d->serial, d->firmware, d->path);
	}
	table_print(&t, stdout);
	table_release(&t);
}

static void
print_nics(const struct lab_host_facts *h)
{
	struct table	t;
	char		speed[32], addrs[512];
	size_t		i, k, len;

	if (h->nnics == 0)
		return;
	table_init(&t, 8, "NIC", "MAC", "DRIVER", "SPEED", "DUPLEX", "LINK",
	    "KIND", "ADDRESSES");
	table_paint(&t, 5);
	table_text(&t, 7);
	for (i = 0; i < h->nnics; i++) {
		const struct lab_fact_nic *n = &h->nics[i];
		char kind[160];

		addrs[0] = '\0';
		for (k = len = 0; k < h->naddrs; k++) {
			const struct lab_fact_addr *a = &h->addrs[k];
			int w;

			if (strcmp(a->ifname, n->name) != 0 ||
			    len >= sizeof(addrs))
				continue;
			w = snprintf(addrs + len, sizeof(addrs) - len,
			    "%s%s/%d", len ? " " : "", a->address, a->prefixlen);
			len += w > 0 ? (size_t)w : 0;
		}
		snprintf(kind, sizeof(kind), "%s%s%s", n->kind != NULL ?
		    n->kind : "", n->master != NULL ? (n->kind != NULL ?
		    ", in " : "in ") : "", n->master != NULL ? n->master : "");
		table_row(&t, n->name, n->mac, n->driver, num(speed,
		    sizeof(speed), n->speed_mbps, " Mb/s"), n->duplex,
		    n->carrier < 0 ? NULL : n->carrier ? "up" : "down", kind,
		    addrs);
	}
	table_print(&t, stdout);
	table_release(&t);
}

static void
print_rest(const struct lab_host_facts *h)
{
	const struct lab_fact_dmi	*d = &h->dmi;
	const struct lab_fact_bmc	*b = &h->bmc;
	size_t				 i;

	if (d->sys_vendor != NULL || d->product_name != NULL)
		printf("system: %s %s%s%s\n", d->sys_vendor ? cmd_vis(
		    d->sys_vendor) : "", d->product_name ? cmd_vis(
		    d->product_name) : "", d->product_serial ? ", serial " :
		    "", d->product_serial ? cmd_vis(d->product_serial) : "");
	if (d->bios_version != NULL)
		printf("BIOS: %s %s%s%s\n", d->bios_vendor ? cmd_vis(
		    d->bios_vendor) : "", cmd_vis(d->bios_version),
		    d->bios_date ? " of " : "", d->bios_date ?
		    cmd_vis(d->bios_date) : "");
	if (b->ok)
		printf("BMC: firmware %s, IPMI %s, %s (manufacturer %ld, "
		    "product %ld)%s%s\n", cmd_vis(b->firmware),
		    cmd_vis(b->ipmi_version), b->manufacturer ?
		    cmd_vis(b->manufacturer) : "unknown manufacturer",
		    b->manufacturer_id, b->product_id, b->fru_product ?
		    ", FRU " : "", b->fru_product ? cmd_vis(b->fru_product) :
		    "");
	else if (b->error != NULL)
		printf("BMC: not read: %s\n", cmd_vis(b->error));
	if (h->kernel != NULL)
		printf("kernel: %s\n", cmd_vis(h->kernel));
	if (h->nm.running == 1) {
		printf("NetworkManager: running, manages ");
		for (i = 0; i < h->nm.managed.n; i++)
			printf("%s%s", i ? ", " : "",
			    cmd_vis(h->nm.managed.v[i]));
		printf("%s\n", h->nm.managed.n == 0 ? "nothing" : "");
	} else if (h->nm.running == 0)
		printf("NetworkManager: not running\n");
	for (i = 0; i < h->notes.n; i++)
		printf("note: %s\n", cmd_vis(h->notes.v[i]));
	for (i = 0; i < h->findings.n; i++) {
		const struct lab_fact_finding *x = &h->findings.v[i];

		table_word(stdout, x->severity);
		printf(" %s %s: %s\n", cmd_vis(x->kind), cmd_vis(x->subject),
		    cmd_vis(x->message));
	}
}

static void
print_text(const struct facts *f)
{
	size_t	i, shown = 0;

	for (i = 0; i < f->n; i++) {
		const struct lab_host_facts *h = &f->res[i];

		if (!h->ok && !h->bmc.ok)
			continue;	/* said on stderr */
		printf("%s== %s ==\n", shown++ ? "\n" : "", cmd_vis(h->host));
		if (h->ok) {
			print_disks(h);
			print_nics(h);
		}
		print_rest(h);
	}
}

static int
facts_run(struct lab_call *call, struct lab_err *err)
{
	struct lab_facts_opts	 o;
	struct lab_ctx		 ctx;
	struct facts		 f;
	size_t			 i;
	int			 rc = -1, yaml = cmd_opt(call, "yaml") != NULL;

	memset(&f, 0, sizeof(f));
	lab_known_issues_init(&f.known);
	memset(&o, 0, sizeof(o));
	lab_ctx_init(&ctx);
	o.ctx = &ctx;
	if (parse_opts(call, &o, err) == -1)
		return err->code;
	if (cmd_inventory(call, &f.inv, err) == -1)
		return err->code;
	if (lab_target_resolve(f.inv, call->argv, (size_t)call->argc,
	    call->all, &f.names, err) == -1)
		goto out;
	if (f.names.n == 0) {
		lab_err_set(err, LAB_EXIT_INPUT, "no host to read");
		goto out;
	}
	f.hosts = calloc(f.names.n, sizeof(*f.hosts));
	f.res = calloc(f.names.n, sizeof(*f.res));
	if (f.hosts == NULL || f.res == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < f.names.n; i++)
		f.hosts[i] = lab_inventory_host(f.inv, f.names.v[i]);
	f.n = f.names.n;
	load_creds(call, &f);
	o.db = call->db;
	o.inv = f.inv;
	o.creds = f.creds;
	/* the shipped known issues and the inventory's own */
	if (lab_known_issues_effective(call->db, &f.known, err) == -1)
		goto out;
	o.known = &f.known;
	if (lab_facts_run(&o, f.hosts, f.n, f.res, err) == -1)
		goto out;
	if (call->json)
		rc = print_json(&f, err);
	else if (yaml)
		rc = print_yaml(&f, err);
	else {
		print_text(&f);
		rc = 0;
	}
	if (rc == 0) {
		fflush(stdout);
		for (i = 0; i < f.n; i++)
			if (!f.res[i].ok)
				cmd_host_failed(call, f.res[i].host,
				    f.res[i].error != NULL ? f.res[i].error :
				    "not read");
		rc = call->failed > 0 ? LAB_EXIT_PARTIAL : LAB_EXIT_OK;
		facts_release(&f);
		return rc;
	}
out:
	facts_release(&f);
	return err->code != LAB_EXIT_OK ? (int)err->code : LAB_EXIT_ENV;
}

static const struct lab_opt facts_opts[] = {
	{ "yaml", NULL, "the disks and NICs seen, as inventory YAML that "
	  "lab import takes" },
	{ "timeout", "S", "seconds the facts of one host may take (default "
	  "60)" },
	{ "fanout", "N", "hosts read at once (default 64)" },
	{ "no-record", NULL, "store nothing: show only" },
	{ "accept-new", NULL, "trust and record an unknown SSH host key" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb facts_verbs[] = {
	{ .name = NULL, .args = "TARGET...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_TARGETS,
	  .run = facts_run, .opts = facts_opts,
	  .summary = "read what hosts really are (disks, NICs, DMI, BMC, "
		"NetworkManager) and how they differ from the inventory" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_facts = {
	.name = "facts",
	.summary = "what hosts really are: disks, NICs, firmware, drift",
	.verbs = facts_verbs,
};
