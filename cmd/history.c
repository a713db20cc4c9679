/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/history.h"
#include "lab/json.h"
#include "lab/parse.h"
#include "lab/provision.h"
#include "lab/render.h"
#include "lab/target.h"
#include "lab.h"
#include "history-bench.h"
#include "history-switch.h"
#include "since.h"

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

/* A reading as lab sensors --json prints it: two decimals. */
static void
json_value(struct lab_json *j, const char *key, int has, double v)
{
	char	num[32];

	lab_json_key(j, key);
	if (!has) {
		lab_json_null(j);
		return;
	}
	snprintf(num, sizeof(num), "%.2f", v);
	lab_json_raw(j, num);
}

static void
fmt_value(char *buf, size_t len, int has, double v, const char *unit)
{
	if (has)
		snprintf(buf, len, "%.2f%s%s", v, unit ? " " : "",
		    unit ? unit : "");
	else
		snprintf(buf, len, "-");
}

/* lab history HOST --power: the power events, newest first. */
static int
history_power(struct lab_call *call, const char *host, int64_t since,
    struct lab_err *err)
{
	struct lab_power_event	*v;
	struct lab_buf		 b;
	struct lab_json		 j;
	struct table		 t;
	char			 when[32];
	size_t			 n, i;
	int			 rc = 0;

	if (lab_db_power_events(call->db, host, since, &v, &n, err) == -1)
		return err->code;
	if (call->json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_arr_begin(&j);
		for (i = 0; i < n; i++) {
			lab_json_obj_begin(&j);
			lab_json_kstr(&j, "host", host);
			lab_json_ktime(&j, "time", v[i].time);
			lab_json_kstr(&j, "action", v[i].action);
			lab_json_kstr(&j, "state", v[i].state);
			lab_json_key(&j, "ok");
			lab_json_bool(&j, v[i].ok);
			lab_json_kstr(&j, "error", v[i].error);
			lab_json_kstr(&j, "source", v[i].source);
			lab_json_obj_end(&j);
		}
		lab_json_arr_end(&j);
		lab_json_end(&j);
		rc = cmd_write(&b, err);
		lab_buf_release(&b);
	} else {
		table_init(&t, 5, "TIME", "ACTION", "STATE", "RESULT",
		    "SOURCE");
		table_key(&t, 0);
		table_paint(&t, 2);
		table_paint(&t, 3);
		table_text(&t, 3);
		for (i = 0; i < n; i++) {
			lab_format_time(v[i].time, when, sizeof(when));
			table_row(&t, when, v[i].action, v[i].state ?
			    v[i].state : "unknown", v[i].ok ? "ok" :
			    v[i].error ? v[i].error : "failed", v[i].source);
		}
		table_print(&t, stdout);
		table_release(&t);
		if (n == 0 && !call->csv)
			fprintf(stderr, "lab: no power events of %s%s\n",
			    cmd_vis(host), since ? " in that window" : "");
	}
	lab_power_events_free(v, n);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}

/* lab history HOST --sensors --sensor NAME: one sensor's readings. */
static int
history_series(struct lab_call *call, const char *host, const char *name,
    int64_t since, struct lab_err *err)
{
	struct lab_sensor_point	*v;
	struct lab_buf		 b;
	struct lab_json		 j;
	struct table		 t;
	char			 when[32], value[48], run[24];
	size_t			 n, i;
	int			 rc = 0;

	if (lab_db_sensor_series(call->db, host, name, since, &v, &n,
	    err) == -1)
		return err->code;
	if (call->json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_arr_begin(&j);
		for (i = 0; i < n; i++) {
			lab_json_obj_begin(&j);
			lab_json_kstr(&j, "host", host);
			lab_json_kstr(&j, "sensor", name);
			lab_json_ktime(&j, "time", v[i].time);
			json_value(&j, "value", v[i].has_value, v[i].value);
			lab_json_kstr(&j, "state", v[i].state);
			lab_json_kint(&j, "run", v[i].run);
			lab_json_obj_end(&j);
		}
		lab_json_arr_end(&j);
		lab_json_end(&j);
		rc = cmd_write(&b, err);
		lab_buf_release(&b);
	} else {
		table_init(&t, 4, "TIME", "VALUE", "STATE", "RUN");
		table_key(&t, 0);
		table_paint(&t, 2);
		for (i = 0; i < n; i++) {
			lab_format_time(v[i].time, when, sizeof(when));
			fmt_value(value, sizeof(value), v[i].has_value,
			    v[i].value, NULL);
			snprintf(run, sizeof(run), "%lld", (long long)v[i].run);
			table_row(&t, when, value, v[i].state, run);
		}
		table_print(&t, stdout);
		table_release(&t);
		if (n == 0 && !call->csv)
			fprintf(stderr, "lab: no readings of sensor '%s' of "
			    "%s%s\n", cmd_vis(name), cmd_vis(host), since ?
			    " in that window" : "");
	}
	lab_sensor_points_free(v, n);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}

/* lab history HOST --sensors: per sensor, latest, min, max, count. */
static int
history_sensors(struct lab_call *call, const char *host, int64_t since,
    struct lab_err *err)
{
	struct lab_sensor_summary	*v;
	struct lab_buf			 b;
	struct lab_json			 j;
	struct table			 t;
	char				 when[32], last[48], lo[48], hi[48];
	char				 count[24];
	size_t				 n, i;
	int				 rc = 0;

	if (lab_db_sensor_summary(call->db, host, since, &v, &n, err) == -1)
		return err->code;
	if (call->json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_arr_begin(&j);
		for (i = 0; i < n; i++) {
			lab_json_obj_begin(&j);
			lab_json_kstr(&j, "host", host);
			lab_json_kstr(&j, "sensor", v[i].name);
			lab_json_kstr(&j, "type", v[i].type);
			lab_json_kstr(&j, "unit", v[i].unit);
			lab_json_ktime(&j, "time", v[i].last_time);
			json_value(&j, "value", v[i].has_last, v[i].last);
			lab_json_kstr(&j, "state", v[i].state);
			json_value(&j, "min", v[i].has_range, v[i].min);
			json_value(&j, "max", v[i].has_range, v[i].max);
			lab_json_kint(&j, "count", (int64_t)v[i].count);
			lab_json_obj_end(&j);
		}
		lab_json_arr_end(&j);
		lab_json_end(&j);
		rc = cmd_write(&b, err);
		lab_buf_release(&b);
	} else {
		table_init(&t, 7, "SENSOR", "LATEST", "MIN", "MAX", "COUNT",
		    "STATE", "TIME");
		table_paint(&t, 5);
		for (i = 0; i < n; i++) {
			fmt_value(last, sizeof(last), v[i].has_last,
			    v[i].last, v[i].unit);
			fmt_value(lo, sizeof(lo), v[i].has_range, v[i].min,
			    NULL);
			fmt_value(hi, sizeof(hi), v[i].has_range, v[i].max,
			    NULL);
			snprintf(count, sizeof(count), "%zu", v[i].count);
			lab_format_time(v[i].last_time, when, sizeof(when));
			table_row(&t, v[i].name, last, lo, hi, count,
			    v[i].state, when);
		}
		table_print(&t, stdout);
		table_release(&t);
		if (n == 0 && !call->csv)
			fprintf(stderr, "lab: no sensor readings of %s%s "
			    "(lab sensors %s --record stores them)\n",
			    cmd_vis(host), since ? " in that window" : "",
			    cmd_vis(host));
	}
	lab_sensor_summary_free(v, n);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}

/* lab history HOST --sel: the SEL entries kept, newest first. */
static int
history_sel(struct lab_call *call, const char *host, int64_t since,
    struct lab_err *err)
{
	struct lab_sel_kept	*v;
	struct lab_buf		 b;
	struct lab_json		 j;
	struct table		 t;
	char			 when[32], seen[32], id[16];
	size_t			 n, i;
	int			 rc = 0;

	if (lab_db_sel_kept(call->db, host, since, &v, &n, err) == -1)
		return err->code;
	if (call->json) {
		lab_buf_init(&b);
		lab_json_init(&j, &b);
		lab_json_arr_begin(&j);
		for (i = 0; i < n; i++) {
			lab_json_obj_begin(&j);
			lab_json_kstr(&j, "host", host);
			lab_json_kint(&j, "id", v[i].id);
			lab_json_ktime(&j, "time", v[i].time);
			lab_json_kstr(&j, "sensor", v[i].sensor);
			lab_json_kstr(&j, "event", v[i].event);
			lab_json_ktime(&j, "first_seen", v[i].first_seen);
			lab_json_obj_end(&j);
		}
		lab_json_arr_end(&j);
		lab_json_end(&j);
		rc = cmd_write(&b, err);
		lab_buf_release(&b);
	} else {
		table_init(&t, 5, "TIME", "ID", "SENSOR", "EVENT",
		    "FIRST SEEN");
		table_key(&t, 0);
		table_text(&t, 3);
		for (i = 0; i < n; i++) {
			if (v[i].time > 0)
				lab_format_time(v[i].time, when, sizeof(when));
			lab_format_time(v[i].first_seen, seen, sizeof(seen));
			snprintf(id, sizeof(id), "%u", v[i].id);
			table_row(&t, v[i].time > 0 ? when : NULL, id,
			    v[i].sensor, v[i].event, seen);
		}
		table_print(&t, stdout);
		table_release(&t);
		if (n == 0 && !call->csv)
			fprintf(stderr, "lab: no SEL entries kept of %s%s "
			    "(lab sel %s --record keeps them)\n", cmd_vis(host),
			    since ? " in that window" : "", cmd_vis(host));
	}
	lab_sel_kept_free(v, n);
	return rc == 0 ? LAB_EXIT_OK : (int)err->code;
}

/* --power, --sensors [--sensor NAME], --sel: what the database kept of a
 * host. */
static int
history_kept(struct lab_call *call, const char *host, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	const char	*sensor = cmd_opt(call, "sensor");
	struct lab_strv	 none;
	int64_t		 since;
	int		 known;

	int		 bench = cmd_opt(call, "bench") != NULL;
	int		 kinds = (cmd_opt(call, "power") != NULL) +
			    (sensor != NULL || cmd_opt(call, "sensors") != NULL) +
			    (cmd_opt(call, "sel") != NULL) + bench;

	if (host == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "--%s needs a HOST",
		    cmd_opt(call, "power") ? "power" : cmd_opt(call, "sel") ?
		    "sel" : bench ? "bench" : sensor ? "sensor" : "sensors"),
		    LAB_EXIT_INPUT;
	if (kinds > 1)
		return lab_err_set(err, LAB_EXIT_INPUT, "--power, --sensors, "
		    "--sel and --bench are four histories: give one"),
		    LAB_EXIT_INPUT;
	if (cmd_inventory(call, &inv, err) == -1 ||
	    lab_db_host_known(call->db, host, &known, err) == -1)
		return err->code;
	/* a host that left the inventory keeps its bench runs */
	if (bench) {
		if (cmd_since_time(call, cmd_opt(call, "since"), &since,
		    err) == -1)
			return err->code;
		return cmd_history_bench(call, host, known, since, err);
	}
	if (!known) {
		if (lab_target_resolve(inv, call->argv, 1, 0, &none,
		    err) == 0) {
			lab_strv_release(&none);
			lab_err_set(err, LAB_EXIT_INPUT, "'%s' is not a host",
			    host);
		}
		return LAB_EXIT_INPUT;
	}
	if (cmd_since_time(call, cmd_opt(call, "since"), &since, err) == -1)
		return err->code;
	if (cmd_opt(call, "power") != NULL)
		return history_power(call, host, since, err);
	if (cmd_opt(call, "sel") != NULL)
		return history_sel(call, host, since, err);
	if (sensor != NULL)
		return history_series(call, host, sensor, since, err);
	return history_sensors(call, host, since, err);
}

/* --switch SWITCH [--since WHEN]: the VLAN applies to a switch; one
 * that left the inventory keeps them. */
static int
history_switch(struct lab_call *call, const char *sw, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	int64_t				 since;

	if (call->argc > 0 || cmd_opt(call, "run") != NULL ||
	    cmd_opt(call, "power") != NULL || cmd_opt(call, "sensors") !=
	    NULL || cmd_opt(call, "sensor") != NULL ||
	    cmd_opt(call, "sel") != NULL || cmd_opt(call, "bench") != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "--switch is the "
		    "history of a switch: it takes no HOST, --run, --power, "
		    "--sensors, --sel or --bench"), LAB_EXIT_INPUT;
	if (cmd_inventory(call, &inv, err) == -1)
		return err->code;
	if (cmd_since_time(call, cmd_opt(call, "since"), &since, err) == -1)
		return err->code;
	return cmd_history_switch(call, sw, lab_inventory_switch(inv, sw) !=
	    NULL, since, err);
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

	if (cmd_opt(call, "switch") != NULL)
		return history_switch(call, cmd_opt(call, "switch"), err);
	if (cmd_opt(call, "power") != NULL || cmd_opt(call, "sensors") !=
	    NULL || cmd_opt(call, "sensor") != NULL ||
	    cmd_opt(call, "sel") != NULL || cmd_opt(call, "bench") != NULL) {
		if (id_s != NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "--run is one "
			    "provisioning run: it takes no --power, --sensors, "
			    "--sel or --bench"), LAB_EXIT_INPUT;
		return history_kept(call, host, err);
	}
	if (cmd_opt(call, "since") != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "--since goes with "
		    "--power, --sensors, --sel, --bench or --switch"), LAB_EXIT_INPUT;
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
	{ "power", NULL, "the host's power events, newest first: time, "
	  "action, state seen, result and the command that recorded it" },
	{ "sensors", NULL, "the host's recorded sensor readings: per sensor "
	  "the latest value, min and max over the window, and the count" },
	{ "sensor", "NAME", "one sensor's readings, newest first (implies "
	  "--sensors)" },
	{ "sel", NULL, "the host's System Event Log entries kept by lab sel "
	  "--record, newest first, each once" },
	{ "bench", NULL, "the host's disk bench runs, newest first, then "
	  "each disk's MB/s per test over its runs, by serial: a disk moved "
	  "from another slot or host keeps its runs" },
	{ "switch", "SWITCH", "the VLAN applies to a switch (lab switch "
	  "apply), newest first, with before and after per port, failed, "
	  "refused and unsaved ones flagged" },
	{ "since", "WHEN", "with --power, --sensors, --sel, --bench or "
	  "--switch: only "
	  "what was "
	  "recorded "
	  "since WHEN, as lab report --since takes it: a report run id, "
	  "'2026-11-30T18:00:00Z', '2026-11-30', '24h' or '7d'" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb history_verbs[] = {
	{ .name = NULL, .args = "[HOST]", .min = 0, .max = 1,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV, .run = history_run,
	  .opts = history_opts,
	  .summary = "list provisioning runs, newest first; with --power, "
		"--sensors, --sel or --bench, what lab recorded of a host's "
		"power, sensors, event log and disk benchmarks" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_history = {
	.name = "history",
	.summary = "the provisioning runs, power, sensor and SEL history of "
		"a host",
	.verbs = history_verbs,
};
