/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/json.h"
#include "lab/render.h"
#include "lab/report.h"
#include "lab/text.h"
#include "db/report-rows.h"
#include "report-html-priv.h"
#include "report-priv.h"

/*
 * The report's Drift section (issue 20): what the last `lab facts` of
 * each host (and discovery of each switch) found against the inventory,
 * and the facts that changed since the baseline: a firmware upgraded
 * ("bmc.firmware 1.20 -> 1.30"), a disk swapped ("disk.sdb.serial A ->
 * B"), a fact gone, a new fact of a host known before the baseline (the
 * first facts of a host are not changes). Nothing at all when there is
 * neither, so a lab that never ran lab facts has the report it had.
 */

/* The changes of subjects known before the baseline. */
static int
keep_changes(struct lab_db *db, struct lab_report *r, struct lab_err *err)
{
	struct lab_fact_event	*ev = r->drift_changes;
	size_t			 i, k = 0;
	int			 known = 1;
	const char		*kind = NULL, *subject = NULL;

	for (i = 0; i < r->ndrift_changes; i++) {
		if (ev[i].from == NULL && (kind == NULL ||
		    strcmp(kind, ev[i].kind) != 0 ||
		    strcmp(subject, ev[i].subject) != 0)) {
			if (lab_db_report_fact_known(db, ev[i].kind,
			    ev[i].subject, r->previous_run, &known, err) == -1)
				return -1;
			kind = ev[i].kind;
			subject = ev[i].subject;
		}
		if (ev[i].from == NULL && !known) {
			free(ev[i].kind);
			free(ev[i].subject);
			free(ev[i].key);
			free(ev[i].to);
			/* they were ev[i]'s: look up again */
			kind = subject = NULL;
			continue;
		}
		ev[k++] = ev[i];
	}
	r->ndrift_changes = k;
	return 0;
}

int
lab_report_drift(struct lab_db *db, struct lab_report *r, struct lab_err *err)
{
	if (lab_db_fact_findings(db, NULL, &r->drift_findings,
	    &r->ndrift_findings, err) == -1)
		return -1;
	if (r->previous_run == 0)
		return 0;
	if (lab_db_fact_events(db, r->previous_run, &r->drift_changes,
	    &r->ndrift_changes, err) == -1)
		return -1;
	return keep_changes(db, r, err);
}

void
lab_report_drift_free(struct lab_report *r)
{
	lab_stored_findings_free(r->drift_findings, r->ndrift_findings);
	lab_fact_events_free(r->drift_changes, r->ndrift_changes);
	r->drift_findings = NULL;
	r->drift_changes = NULL;
	r->ndrift_findings = r->ndrift_changes = 0;
}

int
lab_report_has_drift(const struct lab_report *r)
{
	return r->ndrift_findings > 0 || r->ndrift_changes > 0;
}

/* "1.20 -> 1.30", "new: 1.30", "gone (was 1.20)" */
static void
change_what(const struct lab_fact_event *e, struct lab_buf *b)
{
	if (e->from != NULL && e->to != NULL)
		lab_buf_addf(b, "%s -> %s", e->from, e->to);
	else if (e->to != NULL)
		lab_buf_addf(b, "new: %s", e->to);
	else
		lab_buf_addf(b, "gone (was %s)", e->from != NULL ? e->from :
		    "unknown");
}

void
lab_report_drift_text(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_stored_finding	*f;
	const struct lab_fact_event	*e;
	char				 when[32];
	size_t				 i;

	if (!lab_report_has_drift(r))
		return;
	lab_buf_adds(b, "\nDrift\n");
	lab_buf_adds(b, "  findings of the last facts runs\n");
	if (r->ndrift_findings == 0)
		lab_buf_adds(b, "    none\n");
	for (i = 0; i < r->ndrift_findings; i++) {
		f = &r->drift_findings[i];
		/* the message names its subject */
		lab_buf_addf(b, "    %-8s %s: %s\n", f->f.severity, f->f.kind,
		    f->f.message);
	}
	lab_buf_adds(b, "  fact changes since the previous report\n");
	if (r->ndrift_changes == 0)
		lab_buf_adds(b, "    none\n");
	for (i = 0; i < r->ndrift_changes; i++) {
		e = &r->drift_changes[i];
		lab_format_time(e->at, when, sizeof(when));
		lab_buf_addf(b, "    %s  %s %s: ", when, e->subject, e->key);
		change_what(e, b);
		lab_buf_addc(b, '\n');
	}
}

/* As text.c's md(): visible, Markdown's marks escaped, one line. */
static void
md(struct lab_buf *b, const char *str)
{
	char		*v;
	const char	*s;

	if (str == NULL || *str == '\0') {
		lab_buf_adds(b, "-");
		return;
	}
	if ((v = lab_visible(str)) == NULL) {
		b->oom = 1;
		return;
	}
	for (s = v; *s != '\0'; s++) {
		if (*s == '|' || *s == '*' || *s == '_' || *s == '`' ||
		    *s == '<' || *s == '[' || *s == ']' || *s == '\\')
			lab_buf_addc(b, '\\');
		lab_buf_addc(b, *s);
	}
	free(v);
}

void
lab_report_drift_markdown(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_stored_finding	*f;
	const struct lab_fact_event	*e;
	struct lab_buf			 t;
	char				 when[32];
	size_t				 i;

	if (!lab_report_has_drift(r))
		return;
	lab_buf_adds(b, "\n## Drift\n\nFindings of the last facts runs.\n\n");
	if (r->ndrift_findings == 0)
		lab_buf_adds(b, "None.\n");
	else
		lab_buf_adds(b, "| severity | subject | kind | finding |\n"
		    "|---|---|---|---|\n");
	for (i = 0; i < r->ndrift_findings; i++) {
		f = &r->drift_findings[i];
		lab_buf_adds(b, "| ");
		md(b, f->f.severity);
		lab_buf_adds(b, " | ");
		md(b, f->f.subject);
		lab_buf_adds(b, " | ");
		md(b, f->f.kind);
		lab_buf_adds(b, " | ");
		md(b, f->f.message);
		lab_buf_adds(b, " |\n");
	}
	lab_buf_adds(b, "\nFact changes since the previous report.\n\n");
	if (r->ndrift_changes == 0)
		lab_buf_adds(b, "None.\n");
	else
		lab_buf_adds(b, "| time | subject | fact | change |\n"
		    "|---|---|---|---|\n");
	for (i = 0; i < r->ndrift_changes; i++) {
		e = &r->drift_changes[i];
		lab_format_time(e->at, when, sizeof(when));
		lab_buf_adds(b, "| ");
		md(b, when);
		lab_buf_adds(b, " | ");
		md(b, e->subject);
		lab_buf_adds(b, " | ");
		md(b, e->key);
		lab_buf_adds(b, " | ");
		lab_buf_init(&t);
		change_what(e, &t);
		if (t.oom)
			b->oom = 1;
		else
			md(b, t.s);
		lab_buf_release(&t);
		lab_buf_adds(b, " |\n");
	}
}

static const char *
sev_class(const char *sev)
{
	if (sev != NULL && (strcmp(sev, "critical") == 0 ||
	    strcmp(sev, "warning") == 0 || strcmp(sev, "info") == 0))
		return sev;
	return "other";
}

static void
td(struct lab_buf *b, const char *s)
{
	lab_buf_adds(b, "<td>");
	lab_report_esc(b, s != NULL && *s != '\0' ? s : "-");
	lab_buf_adds(b, "</td>");
}

void
lab_report_drift_html(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_stored_finding	*f;
	const struct lab_fact_event	*e;
	struct lab_buf			 t;
	char				 when[32];
	size_t				 i;

	if (!lab_report_has_drift(r))
		return;
	lab_buf_adds(b, "<section id=\"drift\"><h2>Drift</h2>\n"
	    "<h3>Findings of the last facts runs</h3>\n");
	if (r->ndrift_findings == 0)
		lab_buf_adds(b, "<p class=\"good\">The hosts are as declared."
		    "</p>\n");
	else
		lab_buf_adds(b, "<table><thead><tr><th>Severity</th>"
		    "<th>Concerns</th><th>Finding</th></tr></thead><tbody>\n");
	for (i = 0; i < r->ndrift_findings; i++) {
		f = &r->drift_findings[i];
		lab_buf_addf(b, "<tr class=\"%s\"><td><span class=\"sev "
		    "sev-%s\">", sev_class(f->f.severity),
		    sev_class(f->f.severity));
		lab_report_esc(b, f->f.severity);
		lab_buf_adds(b, "</span></td>");
		td(b, f->f.subject);
		lab_buf_adds(b, "<td><span class=\"kind\">");
		lab_report_esc(b, f->f.kind);
		lab_buf_adds(b, "</span>: ");
		lab_report_esc(b, f->f.message);
		lab_buf_adds(b, "</td></tr>\n");
	}
	if (r->ndrift_findings > 0)
		lab_buf_adds(b, "</tbody></table>\n");
	lab_buf_adds(b, "<h3>Fact changes since the previous report</h3>\n");
	if (r->ndrift_changes == 0) {
		lab_buf_adds(b, "<p class=\"muted\">No fact changed.</p>"
		    "</section>\n");
		return;
	}
	lab_buf_adds(b, "<table><thead><tr><th>Time</th><th>Concerns</th>"
	    "<th>Fact</th><th>Change</th></tr></thead><tbody>\n");
	for (i = 0; i < r->ndrift_changes; i++) {
		e = &r->drift_changes[i];
		lab_format_time(e->at, when, sizeof(when));
		lab_buf_adds(b, "<tr>");
		td(b, when);
		td(b, e->subject);
		td(b, e->key);
		lab_buf_init(&t);
		change_what(e, &t);
		if (t.oom)
			b->oom = 1;
		else
			td(b, t.s);
		lab_buf_release(&t);
		lab_buf_adds(b, "</tr>\n");
	}
	lab_buf_adds(b, "</tbody></table></section>\n");
}

void
lab_report_drift_json(const struct lab_report *r, struct lab_json *j)
{
	const struct lab_stored_finding	*f;
	const struct lab_fact_event	*e;
	size_t				 i;

	if (!lab_report_has_drift(r))
		return;
	lab_json_key(j, "drift");
	lab_json_obj_begin(j);
	lab_json_key(j, "findings");
	lab_json_arr_begin(j);
	for (i = 0; i < r->ndrift_findings; i++) {
		f = &r->drift_findings[i];
		lab_json_obj_begin(j);
		lab_json_kstr(j, "target_kind", f->kind);
		lab_json_kstr(j, "target", f->subject_name);
		lab_json_kstr(j, "severity", f->f.severity);
		lab_json_kstr(j, "kind", f->f.kind);
		lab_json_kstr(j, "subject", f->f.subject);
		lab_json_kstr(j, "message", f->f.message);
		lab_json_ktime(j, "seen_at", f->seen_at);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "changes");
	lab_json_arr_begin(j);
	for (i = 0; i < r->ndrift_changes; i++) {
		e = &r->drift_changes[i];
		lab_json_obj_begin(j);
		lab_json_kstr(j, "target_kind", e->kind);
		lab_json_kstr(j, "target", e->subject);
		lab_json_kstr(j, "key", e->key);
		lab_json_kstr(j, "from", e->from);
		lab_json_kstr(j, "to", e->to);
		lab_json_ktime(j, "at", e->at);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_obj_end(j);
}
