/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab switch plan: the VLAN diff of each switch, text or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "lab/text.h"
#include "switch.h"

/* The columns s takes on a terminal once made visible (lab/text.h). */
static size_t
cols(const char *s)
{
	char	*v;
	size_t	 n;

	if (!lab_visible_needed(s))
		return lab_text_width(s);
	v = lab_visible(s);
	n = v != NULL ? lab_text_width(v) : 0;
	free(v);
	return n;
}

/*
 * Prints s made visible (a port name, a VLAN name or a description the
 * switch gave), then spaces up to w columns; w 0: no padding.
 */
static void
put(const char *s, size_t w)
{
	char	*v = NULL;
	size_t	 n;

	if (lab_visible_needed(s))
		s = (v = lab_visible(s)) != NULL ? v : "";
	fputs(s, stdout);
	for (n = lab_text_width(s); n < w; n++)
		putchar(' ');
	free(v);
}

/* "VLAN 20" in buf, the first column of a VLAN's line. */
static const char *
vlan_label(char *buf, size_t len, unsigned long id)
{
	(void)snprintf(buf, len, "VLAN %lu", id);
	return buf;
}

/*
 * The plan's lines are one table with no header: the first column is
 * "VLAN 20" or the port, the second the action or what changes, then the
 * name or "from -> to" with the arrows under each other; every column
 * as wide as its widest cell, two spaces apart.
 */
static void
print_changes(const struct lab_switch_plan *p)
{
	char	 label[32];
	size_t	 i, w1 = 0, w2 = 0, w3 = 0, n;

	for (i = 0; i < p->nvlans; i++) {
		n = strlen(vlan_label(label, sizeof(label), p->vlans[i].id));
		w1 = n > w1 ? n : w1;
		n = strlen(p->vlans[i].action);
		w2 = n > w2 ? n : w2;
	}
	for (i = 0; i < p->nchanges; i++) {
		const struct lab_port_change *c = &p->changes[i];

		n = cols(c->port);
		w1 = n > w1 ? n : w1;
		n = strlen(c->what);
		w2 = n > w2 ? n : w2;
		n = *c->from != '\0' ? cols(c->from) : 1;
		w3 = n > w3 ? n : w3;
	}
	for (i = 0; i < p->nvlans; i++) {
		const struct lab_vlan_action *a = &p->vlans[i];
		int	 named = a->name != NULL ||
			    strcmp(a->action, "rename") == 0;

		fputs("  ", stdout);
		put(vlan_label(label, sizeof(label), a->id), w1 + 2);
		put(a->action, named ? w2 + 2 : 0);
		if (strcmp(a->action, "rename") == 0) {
			putchar('\'');
			put(a->from != NULL ? a->from : "", 0);
			fputs("' -> '", stdout);
			put(a->name != NULL ? a->name : "", 0);
			putchar('\'');
		} else if (a->name != NULL)
			put(a->name, 0);
		putchar('\n');
	}
	for (i = 0; i < p->nchanges; i++) {
		const struct lab_port_change *c = &p->changes[i];

		fputs("  ", stdout);
		put(c->port, w1 + 2);
		put(c->what, w2 + 2);
		put(*c->from != '\0' ? c->from : "-", w3);
		fputs(" -> ", stdout);
		put(*c->to != '\0' ? c->to : "-", 0);
		putchar('\n');
	}
}

void
cmd_switch_plan_print(const struct lab_switch_plan *p)
{
	size_t	i;

	if (!p->ok) {
		printf("%s: %s\n", p->switch_name, p->err.msg);
		return;
	}
	if (p->nvlans == 0 && p->nchanges == 0 && p->refused.n == 0) {
		printf("%s: matches the inventory\n", p->switch_name);
		for (i = 0; i < p->notes.n; i++)
			printf("  note: %s\n", p->notes.v[i]);
		return;
	}
	printf("%s:\n", p->switch_name);
	print_changes(p);
	if (p->nuntouched > 0) {
		printf("  untouched: %zu port%s (", p->nuntouched,
		    p->nuntouched == 1 ? "" : "s");
		for (i = 0; i < p->nuntouched; i++) {
			size_t	k;

			for (k = 0; k < i && strcmp(p->untouched[k].why,
			    p->untouched[i].why) != 0; k++)
				;
			if (k == i)
				printf("%s%s", i ? "; " : "",
				    p->untouched[i].why);
		}
		printf(")\n");
	}
	for (i = 0; i < p->refused.n; i++)
		printf("  REFUSED (apply needs --force): %s\n",
		    p->refused.v[i]);
	for (i = 0; i < p->notes.n; i++)
		printf("  note: %s\n", p->notes.v[i]);
}

int
cmd_switch_plan_json(struct lab_json *j, const struct lab_switch_plan *p)
{
	size_t	i;

	lab_json_kstr(j, "switch", p->switch_name);
	lab_json_key(j, "ok");
	lab_json_bool(j, p->ok);
	lab_json_kstr(j, "error", p->ok ? NULL : p->err.msg);
	lab_json_key(j, "vlans");
	lab_json_arr_begin(j);
	for (i = 0; i < p->nvlans; i++) {
		lab_json_obj_begin(j);
		lab_json_kint(j, "id", (int64_t)p->vlans[i].id);
		lab_json_kstr(j, "name", p->vlans[i].name);
		lab_json_kstr(j, "action", p->vlans[i].action);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "changes");
	lab_json_arr_begin(j);
	for (i = 0; i < p->nchanges; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "port", p->changes[i].port);
		lab_json_kint(j, "ifindex", (int64_t)p->changes[i].ifindex);
		lab_json_kstr(j, "what", p->changes[i].what);
		lab_json_kstr(j, "from", p->changes[i].from);
		lab_json_kstr(j, "to", p->changes[i].to);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "untouched");
	lab_json_arr_begin(j);
	for (i = 0; i < p->nuntouched; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "port", p->untouched[i].port);
		lab_json_kint(j, "ifindex", (int64_t)p->untouched[i].ifindex);
		lab_json_kstr(j, "why", p->untouched[i].why);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "notes");
	lab_json_arr_begin(j);
	for (i = 0; i < p->notes.n; i++)
		lab_json_str(j, p->notes.v[i]);
	if (p->mgmt_unknown != NULL)	/* --json only: in every loopback plan */
		lab_json_str(j, p->mgmt_unknown);
	lab_json_arr_end(j);
	lab_json_key(j, "refused");
	lab_json_arr_begin(j);
	for (i = 0; i < p->refused.n; i++)
		lab_json_str(j, p->refused.v[i]);
	lab_json_arr_end(j);
	lab_json_kint(j, "mgmt_vlan", (int64_t)p->mgmt_vlan);
	lab_json_key(j, "mgmt_port");
	if (p->mgmt_port != NULL)
		lab_json_str(j, p->mgmt_port);
	else
		lab_json_null(j);
	/* what the plan read: every port, or the changed ones only */
	lab_json_key(j, "read");
	lab_json_obj_begin(j);
	lab_json_key(j, "whole");
	lab_json_bool(j, p->read_whole);
	lab_json_kint(j, "requests", (int64_t)p->read_stats.requests);
	lab_json_kint(j, "varbinds", (int64_t)p->read_stats.varbinds);
	lab_json_obj_end(j);
	return 0;
}

static int
plan_req(struct lab_call *call, struct lab_vlan_req *req, struct lab_err *err)
{
	const char	*s;
	long		 t;

	memset(req, 0, sizeof(*req));
	req->sw.retries = -1;
	req->prune = cmd_opt(call, "prune") != NULL;
	if ((s = cmd_opt(call, "timeout")) != NULL) {
		if (lab_parse_int(s, 1, 600, &t) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--timeout takes "
			    "seconds from 1 to 600, not '%s'", s);
		req->sw.timeout_ms = (int)t * 1000;
	}
	if ((s = cmd_opt(call, "retries")) != NULL) {
		if (lab_parse_int(s, 0, 10, &t) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--retries takes "
			    "a number from 0 to 10, not '%s'", s);
		req->sw.retries = (int)t;
	}
	return 0;
}

int
cmd_switch_plan(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	struct lab_switch_plan	*p = NULL;
	struct lab_vlan_req	 req;
	struct lab_strv		 names;
	struct lab_ctx		 ctx;
	struct lab_buf		 b;
	struct lab_json		 j;
	size_t			 i;
	int			 rc = LAB_EXIT_OK;

	if (plan_req(call, &req, err) == -1)
		return err->code;
	lab_strv_init(&names);
	lab_ctx_init(&ctx);
	if (cmd_inventory(call, &inv, err) == -1 ||
	    cmd_switch_names(call, inv, &names, err) == -1 ||
	    lab_creds_load(call->cred_path, &creds, err) == -1 ||
	    lab_switch_vlan_plan(&ctx, call->db, inv, &names, creds, &req,
	    &p, err) == -1) {
		lab_strv_release(&names);
		return err->code;
	}
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	for (i = 0; i < names.n; i++) {
		if (!p[i].ok) {
			fprintf(stderr, "lab: switch %s: %s\n",
			    p[i].switch_name, p[i].err.msg);
			if (rc != LAB_EXIT_ENV)
				rc = p[i].err.local ? LAB_EXIT_ENV :
				    LAB_EXIT_PARTIAL;
		} else if (!call->json)
			cmd_switch_plan_print(&p[i]);
		lab_json_obj_begin(&j);
		(void)cmd_switch_plan_json(&j, &p[i]);
		lab_json_obj_end(&j);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (call->json && cmd_write(&b, err) == -1)
		rc = LAB_EXIT_ENV;
	lab_buf_release(&b);
	for (i = 0; i < names.n; i++)
		lab_switch_plan_release(&p[i]);
	free(p);
	lab_strv_release(&names);
	return rc;
}
