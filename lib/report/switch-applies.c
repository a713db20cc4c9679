/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab/json.h"
#include "lab/render.h"
#include "lab/report.h"
#include "lab/vlan.h"
#include "report-html-priv.h"
#include "report-priv.h"

/*
 * The report's "Switch changes": the VLAN applies that failed, were
 * refused or were not saved to the startup config (a power cut loses
 * them), until an ok and saved apply of the switch makes them good.
 * Nothing at all when there is none, so a lab without VLAN applies has
 * the report it had.
 */

static const char *
problem(const struct lab_switch_apply_row *a)
{
	if (strcmp(a->status, "ok") == 0)
		return "NOT saved: a power cut loses it";
	return a->status;
}

/* Changes that stayed on the switch: done or left. */
static size_t
kept(const struct lab_switch_apply_row *a)
{
	size_t	i, n = 0;

	for (i = 0; i < a->nchanges; i++)
		if (strcmp(a->states[i], "done") == 0 ||
		    strcmp(a->states[i], "left") == 0)
			n++;
	return n;
}

void
lab_report_switch_applies_text(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_switch_apply_row	*a;
	char					 when[32];
	size_t					 i;

	if (r->nswitch_applies == 0)
		return;
	lab_buf_adds(b, "\nSwitch changes\n");
	for (i = 0; i < r->nswitch_applies; i++) {
		a = &r->switch_applies[i];
		lab_format_time(a->at, when, sizeof(when));
		lab_buf_addf(b, "  %s  %s apply %lld: %s; %zu of %zu values "
		    "changed on the switch%s%s\n", when, a->switch_name,
		    (long long)a->id, problem(a), kept(a), a->nchanges,
		    a->message ? ": " : "", a->message ? a->message : "");
	}
}

void
lab_report_switch_applies_json(const struct lab_report *r,
    struct lab_json *j)
{
	const struct lab_switch_apply_row	*a;
	size_t					 i;

	if (r->nswitch_applies == 0)
		return;
	lab_json_key(j, "switch_applies");
	lab_json_arr_begin(j);
	for (i = 0; i < r->nswitch_applies; i++) {
		a = &r->switch_applies[i];
		lab_json_obj_begin(j);
		lab_json_kint(j, "id", a->id);
		lab_json_kstr(j, "switch", a->switch_name);
		lab_json_ktime(j, "at", a->at);
		lab_json_kstr(j, "user", a->user);
		lab_json_kstr(j, "status", a->status);
		lab_json_key(j, "saved");
		lab_json_bool(j, a->saved);
		lab_json_kstr(j, "message", a->message);
		lab_json_kint(j, "changes", (int64_t)a->nchanges);
		lab_json_kint(j, "left_changed", (int64_t)kept(a));
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}

void
lab_report_switch_applies_html(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_switch_apply_row	*a;
	char					 when[32];
	size_t					 i;

	if (r->nswitch_applies == 0)
		return;
	lab_buf_adds(b, "<section id=\"switch-applies\"><h2>Switch changes"
	    "</h2>\n<table><thead><tr><th>time</th><th>switch</th>"
	    "<th>apply</th><th>problem</th><th>changed on the switch</th>"
	    "<th>message</th></tr></thead><tbody>\n");
	for (i = 0; i < r->nswitch_applies; i++) {
		a = &r->switch_applies[i];
		lab_format_time(a->at, when, sizeof(when));
		lab_buf_adds(b, "<tr><td>");
		lab_report_esc(b, when);
		lab_buf_adds(b, "</td><td>");
		lab_report_esc(b, a->switch_name);
		lab_buf_addf(b, "</td><td class=\"num\">%lld</td><td>",
		    (long long)a->id);
		lab_report_esc(b, problem(a));
		lab_buf_addf(b, "</td><td class=\"num\">%zu of %zu</td><td>",
		    kept(a), a->nchanges);
		lab_report_esc(b, a->message ? a->message : "");
		lab_buf_adds(b, "</td></tr>\n");
	}
	lab_buf_adds(b, "</tbody></table></section>\n");
}
