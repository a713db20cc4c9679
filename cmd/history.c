/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/json.h"
#include "lab/parse.h"
#include "lab/provision.h"
#include "lab/render.h"
#include "lab/target.h"
#include "lab.h"

static void
run_json(struct lab_json *j, const struct lab_run *r)
{
	const struct lab_run_step	*s;
	size_t				 i;

	lab_json_obj_begin(j);
	lab_json_kint(j, "id", r->id);
	lab_json_kstr(j, "host", r->host);
	lab_json_kstr(j, "kind", r->kind);
	lab_json_kstr(j, "layout", r->layout);
	lab_json_ktime(j, "started_at", r->started_at);
	lab_json_ktime(j, "finished_at", r->finished_at);
	lab_json_kstr(j, "status", r->status);
	lab_json_key(j, "failed_step");
	if (r->failed_step < 0)
		lab_json_null(j);
	else
		lab_json_int(j, r->failed_step);
	lab_json_kstr(j, "message", r->message);
	lab_json_key(j, "steps");
	lab_json_arr_begin(j);
	for (i = 0; i < r->nsteps; i++) {
		s = &r->steps[i];
		lab_json_obj_begin(j);
		lab_json_kint(j, "position", s->position);
		lab_json_kstr(j, "kind", s->kind);
		lab_json_kstr(j, "text", s->text);
		lab_json_ktime(j, "started_at", s->started_at);
		lab_json_ktime(j, "finished_at", s->finished_at);
		lab_json_key(j, "exit_status");
		if (s->has_status)
			lab_json_int(j, s->exit_status);
		else
			lab_json_null(j);
		lab_json_kstr(j, "output", s->output);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}

/* How far a run got: "3/7". */
static void
progress(const struct lab_run *r, char *buf, size_t len)
{
	size_t	i, done = 0;

	for (i = 0; i < r->nsteps; i++)
		if (r->steps[i].has_status && r->steps[i].exit_status == 0)
			done++;
	snprintf(buf, len, "%zu/%zu", done, r->nsteps);
}

static void
print_steps(const struct lab_run *r)
{
	const struct lab_run_step	*s;
	char				 t[32];
	size_t				 i;

	lab_format_time(r->started_at, t, sizeof(t));
	/* what the database and the host said: shown, never obeyed */
	printf("run %lld on %s: %s %s, started %s, %s\n", (long long)r->id,
	    cmd_vis(r->host), r->kind, cmd_vis(r->layout), t, r->status);
	if (r->message != NULL)
		printf("  %s\n", cmd_vis(r->message));
	for (i = 0; i < r->nsteps; i++) {
		s = &r->steps[i];
		printf("\n[%d] %s: ", s->position + 1, s->kind);
		cmd_puts_text(stdout, s->text);
		putchar('\n');
		if (s->started_at == 0)
			printf("    not run\n");
		else if (!s->has_status)
			printf("    no exit status (the link died or it timed "
			    "out)\n");
		else
			printf("    exit status %d\n", s->exit_status);
		if (s->output != NULL && *s->output != '\0') {
			fputs("    ", stdout);
			cmd_puts_text(stdout, s->output);
			if (s->output[strlen(s->output) - 1] != '\n')
				putchar('\n');
		}
	}
}

static int
history_run(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	const char	*id_s = cmd_opt(call, "run");
	const char	*host = call->argc > 0 ? call->argv[0] : NULL;
	struct lab_runs	 runs;
	struct lab_strv	 none;
	struct lab_buf	 b;
	struct lab_json	 j;
	struct table	 t;
	char		 when[32], id[24], steps[24];
	long		 v;
	size_t		 i;
	int		 rc;

	if (id_s != NULL && lab_parse_int(id_s, 1, 0x7fffffffL, &v) == -1)
		return lab_err_set(err, LAB_EXIT_INPUT, "--run takes a run "
		    "number, not '%s'", id_s), LAB_EXIT_INPUT;
	if (cmd_inventory(call, &inv, err) == -1)
		return err->code;
	/* a host that left the inventory keeps its history */
	if (host != NULL && lab_inventory_host(inv, host) == NULL) {
		if (lab_db_runs(call->db, host, 1, 0, &runs, err) == -1)
			return err->code;
		i = runs.n;
		lab_runs_release(&runs);
		if (i == 0) {
			if (lab_target_resolve(inv, call->argv, 1, 0, &none,
			    err) == 0) {
				lab_strv_release(&none);
				lab_err_set(err, LAB_EXIT_INPUT, "'%s' is not "
				    "a host", host);
			}
			return LAB_EXIT_INPUT;
		}
	}
	if (id_s != NULL)
		rc = lab_db_run(call->db, v, &runs, err);
	else
		rc = lab_db_runs(call->db, host, 0, 1, &runs, err);
	if (rc == -1)
		return err->code;
	lab_buf_init(&b);
	if (call->json) {
		lab_json_init(&j, &b);
		lab_json_arr_begin(&j);
		for (i = 0; i < runs.n; i++)
			run_json(&j, &runs.v[i]);
		lab_json_arr_end(&j);
		lab_json_end(&j);
		rc = cmd_write(&b, err);
	} else if (id_s != NULL) {
		print_steps(&runs.v[0]);
		rc = 0;
	} else {
		table_init(&t, 7, "RUN", "STARTED", "HOST", "KIND", "LAYOUT",
		    "STATUS", "STEPS");
		table_paint(&t, 5);
		table_key(&t, 2);
		for (i = 0; i < runs.n; i++) {
			snprintf(id, sizeof(id), "%lld", (long long)runs.v[i].id);
			lab_format_time(runs.v[i].started_at, when, sizeof(when));
			progress(&runs.v[i], steps, sizeof(steps));
			table_row(&t, id, when, runs.v[i].host, runs.v[i].kind,
			    runs.v[i].layout, runs.v[i].status, steps);
		}
		table_print(&t, stdout);
		table_release(&t);
		if (runs.n == 0 && !call->csv)
			fprintf(stderr, "lab: no provisioning runs%s%s\n",
			    host ? " of " : "", host ? host : "");
		rc = 0;
	}
	lab_buf_release(&b);
	lab_runs_release(&runs);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}

static const struct lab_opt history_opts[] = {
	{ "run", "N", "one run with every step, its exit status and output" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb history_verbs[] = {
	{ .name = NULL, .args = "[HOST]", .min = 0, .max = 1,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV, .run = history_run,
	  .opts = history_opts,
	  .summary = "list provisioning runs, newest first" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_history = {
	.name = "history",
	.summary = "the provisioning runs of a host",
	.verbs = history_verbs,
};
