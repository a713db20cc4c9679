/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/json.h"
#include "lab/render.h"
#include "lab/vlan.h"
#include "history-switch.h"

/*
 * lab history --switch SWITCH. Text: one line an apply (time, status,
 * saved or not, who, what failed), then its changes indented, "gi7
 * pvid: 1 -> 20 (done)", the state saying what is left changed. CSV: one row a change. JSON: the applies with
 * their changes.
 */

/* "unsaved" for an ok apply that was not saved, else its status. */
static const char *
flag(const struct lab_switch_apply_row *a)
{
	if (strcmp(a->status, "ok") == 0 && !a->saved)
		return "ok, NOT saved";
	if (strcmp(a->status, "ok") == 0)
		return "ok, saved";
	return a->status;
}

static const char *
none(const char *s)
{
	return s == NULL || *s == '\0' ? "-" : s;
}

static int
print_json(const struct lab_switch_apply_rows *rs, struct lab_err *err)
{
	struct lab_buf	 b;
	struct lab_json	 j;
	char		 when[32];
	size_t		 i, k;
	int		 rc;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	for (i = 0; i < rs->n; i++) {
		const struct lab_switch_apply_row *a = &rs->v[i];

		lab_json_obj_begin(&j);
		lab_json_kint(&j, "id", a->id);
		lab_json_kstr(&j, "switch", a->switch_name);
		lab_format_time(a->at, when, sizeof(when));
		lab_json_kstr(&j, "at", when);
		lab_json_kstr(&j, "user", a->user);
		lab_json_kstr(&j, "status", a->status);
		lab_json_key(&j, "saved");
		lab_json_bool(&j, a->saved);
		lab_json_kstr(&j, "message", a->message);
		lab_json_key(&j, "changes");
		lab_json_arr_begin(&j);
		for (k = 0; k < a->nchanges; k++) {
			const struct lab_port_change *c = &a->changes[k];

			lab_json_obj_begin(&j);
			lab_json_kstr(&j, "port", c->port);
			lab_json_kint(&j, "ifindex", (int64_t)c->ifindex);
			lab_json_kstr(&j, "what", c->what);
			lab_json_kstr(&j, "from", c->from);
			lab_json_kstr(&j, "to", c->to);
			lab_json_kstr(&j, "state", a->states[k]);
			lab_json_obj_end(&j);
		}
		lab_json_arr_end(&j);
		lab_json_obj_end(&j);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc;
}

static void
print_csv(const struct lab_switch_apply_rows *rs)
{
	struct table	t;
	char		id[24], when[32];
	size_t		i, k;

	table_init(&t, 11, "APPLY", "TIME", "SWITCH", "STATUS", "SAVED",
	    "USER", "PORT", "WHAT", "BEFORE", "AFTER", "STATE");
	for (i = 0; i < rs->n; i++) {
		const struct lab_switch_apply_row *a = &rs->v[i];

		snprintf(id, sizeof(id), "%lld", (long long)a->id);
		lab_format_time(a->at, when, sizeof(when));
		for (k = 0; k < a->nchanges; k++) {
			const struct lab_port_change *c = &a->changes[k];

			table_row(&t, id, when, a->switch_name, a->status,
			    a->saved ? "yes" : "no", none(a->user), c->port,
			    c->what, c->from, c->to, a->states[k]);
		}
		if (a->nchanges == 0)
			table_row(&t, id, when, a->switch_name, a->status,
			    a->saved ? "yes" : "no", none(a->user), "", "",
			    "", "", "");
	}
	table_print(&t, stdout);
	table_release(&t);
}

static void
print_text(const struct lab_switch_apply_rows *rs)
{
	char	when[32];
	size_t	i, k;

	for (i = 0; i < rs->n; i++) {
		const struct lab_switch_apply_row *a = &rs->v[i];

		lab_format_time(a->at, when, sizeof(when));
		printf("%sapply %lld  %s  %s  %s", i > 0 ? "\n" : "",
		    (long long)a->id, when, flag(a), none(a->user));
		if (a->nchanges == 0)
			printf("  (no change)");
		printf("\n");
		if (a->message != NULL)
			printf("  %s\n", cmd_vis(a->message));
		for (k = 0; k < a->nchanges; k++) {
			const struct lab_port_change *c = &a->changes[k];

			printf("  %s %s: %s -> %s (%s)\n", cmd_vis(c->port),
			    c->what, none(c->from), none(c->to), a->states[k]);
		}
	}
}

int
cmd_history_switch(struct lab_call *call, const char *sw, int known,
    int64_t since, struct lab_err *err)
{
	struct lab_switch_apply_rows	rs;
	int				rc = 0;

	if (lab_db_switch_applies(call->db, sw, since, 0, 0, &rs, err) == -1)
		return err->code;
	if (!known && rs.n == 0 && since == 0) {
		lab_switch_apply_rows_release(&rs);
		return lab_err_set(err, LAB_EXIT_INPUT, "'%s' is not a switch",
		    sw), LAB_EXIT_INPUT;
	}
	if (call->json)
		rc = print_json(&rs, err);
	else if (call->csv)
		print_csv(&rs);
	else
		print_text(&rs);
	if (rs.n == 0 && !call->json && !call->csv)
		fprintf(stderr, "lab: no VLAN applies to %s%s (lab switch "
		    "apply records them)\n", cmd_vis(sw), since ?
		    " in that window" : "");
	lab_switch_apply_rows_release(&rs);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}
