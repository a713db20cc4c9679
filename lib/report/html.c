/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lab/parse.h"
#include "history-priv.h"
#include "report-html-priv.h"
#include "report-priv.h"

static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"margin:0;background:#f4f6f8;color:#1b1f23}"
	"header.top{background:#263238;color:#fff;padding:18px 32px}"
	"header.top h1{margin:0;font-size:22px}"
	"header.top p{margin:4px 0 0;color:#b0bec5}"
	"main{max-width:1220px;margin:0 auto;padding:8px 24px 40px}"
	"h2{font-size:18px;margin:28px 0 10px;border-bottom:2px solid #cfd8dc;"
	"padding-bottom:4px}"
	"h3{font-size:16px;margin:0 0 6px}"
	"h4{font-size:13px;margin:14px 0 4px;color:#455a64;"
	"text-transform:uppercase;letter-spacing:.04em}"
	".card{background:#fff;border:1px solid #dde3e8;border-radius:6px;"
	"padding:14px 18px;margin:0 0 14px}"
	".tiles{display:flex;flex-wrap:wrap;gap:10px}"
	".tile{background:#fff;border:1px solid #dde3e8;border-radius:6px;"
	"padding:8px 14px;min-width:110px}"
	".tile b{display:block;font-size:22px}"
	".tile span{color:#607d8b;font-size:12px}"
	".tile.bad b{color:#c62828}.tile.warn b{color:#ef6c00}"
	"table{border-collapse:collapse;width:100%;background:#fff;"
	"font-size:13px}"
	"th,td{border:1px solid #e0e6ea;padding:3px 7px;text-align:left;"
	"vertical-align:top}"
	"th{background:#eceff1;font-weight:600}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"dl.facts{display:grid;grid-template-columns:170px 1fr;gap:2px 12px;"
	"margin:6px 0}"
	"dl.facts dt{color:#607d8b}dl.facts dd{margin:0}"
	".sev{display:inline-block;padding:1px 8px;border-radius:10px;"
	"font-size:12px;font-weight:600;color:#fff;background:#78909c}"
	".sev-critical{background:#c62828}.sev-warning{background:#ef6c00}"
	".sev-info{background:#1565c0}"
	"tr.critical td{background:#ffebee}tr.warning td{background:#fff3e0}"
	".on{color:#2e7d32;font-weight:600}.off{color:#616161;font-weight:600}"
	".unknown,.muted{color:#78909c}.bad{color:#c62828;font-weight:600}"
	".good{color:#2e7d32}"
	"svg{display:block;max-width:100%;height:auto;margin:8px 0}"
	"svg.spark{display:inline-block;margin:0 8px 0 0;"
	"vertical-align:middle}"
	"p.pages{margin:6px 0 0}p.pages a{color:#90caf9;margin-right:14px}"
	"p.pages span{color:#b0bec5;margin-right:14px}"
	"code{font-family:ui-monospace,monospace;font-size:12px}"
	"nav a{color:#90caf9;margin-right:14px}"
	"footer{color:#78909c;font-size:12px;text-align:center;padding:16px}";

/* Escaped s, or the (trusted) fallback in grey when s is NULL or empty. */
static void
esc_or(struct lab_buf *b, const char *s, const char *fallback)
{
	if (s != NULL && *s != '\0')
		lab_report_esc(b, s);
	else
		lab_buf_addf(b, "<span class=\"muted\">%s</span>", fallback);
}

static void
td(struct lab_buf *b, const char *s, const char *fallback)
{
	lab_buf_adds(b, "<td>");
	esc_or(b, s, fallback);
	lab_buf_adds(b, "</td>");
}

static void
when(struct lab_buf *b, int64_t t)
{
	struct tm	tm;
	time_t		tt = (time_t)t;
	char		s[64];

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(s, sizeof(s), "%Y-%m-%d %H:%M UTC", &tm) == 0)
		lab_buf_addf(b, "@%" PRId64, t);
	else
		lab_buf_adds(b, s);
}

/* "2026-11-30 06:00 UTC (3 h ago)", relative to the report's time. */
static void
when_ago(struct lab_buf *b, int64_t t, int64_t now)
{
	int64_t	d = now - t;

	when(b, t);
	if (now == 0 || d < 0)
		return;
	if (d < 120)
		lab_buf_adds(b, " (just now)");
	else if (d < 7200)
		lab_buf_addf(b, " (%" PRId64 " min ago)", d / 60);
	else if (d < 2L * 86400)
		lab_buf_addf(b, " (%" PRId64 " h ago)", d / 3600);
	else
		lab_buf_addf(b, " (%" PRId64 " days ago)", d / 86400);
}

static const char *
sev_class(const char *sev)
{
	if (sev == NULL)
		return "other";
	if (strcmp(sev, "critical") == 0)
		return "critical";
	if (strcmp(sev, "warning") == 0)
		return "warning";
	if (strcmp(sev, "info") == 0)
		return "info";
	return "other";
}

static void
tile(struct lab_buf *b, size_t n, const char *label, const char *cls)
{
	lab_buf_addf(b, "<div class=\"tile%s%s\"><b>%zu</b><span>%s</span>"
	    "</div>", n > 0 && cls != NULL ? " " : "",
	    n > 0 && cls != NULL ? cls : "", n, label);
}

static void
summary(const struct lab_report *r, struct lab_buf *b)
{
	size_t	on = 0, off = 0, unknown = 0, unreach = 0;
	size_t	crit = 0, warn = 0, info = 0, i;
	const struct lab_report_host	*h;

	for (i = 0; i < r->nhosts; i++) {
		h = &r->hosts[i];
		if (h->power != NULL && strcmp(h->power, "on") == 0)
			on++;
		else if (h->power != NULL && strcmp(h->power, "off") == 0)
			off++;
		else
			unknown++;
		if (h->bmc != NULL && h->power_checked != 0 &&
		    !h->bmc_reachable)
			unreach++;
	}
	for (i = 0; i < r->nfindings; i++) {
		const char	*c = sev_class(r->findings[i].severity);

		if (strcmp(c, "critical") == 0)
			crit++;
		else if (strcmp(c, "warning") == 0)
			warn++;
		else
			info++;
	}
	lab_buf_adds(b, "<section id=\"summary\"><h2>Summary</h2>"
	    "<div class=\"tiles\">");
	tile(b, r->nhosts, "hosts", NULL);
	tile(b, on, "powered on", NULL);
	tile(b, off, "powered off", NULL);
	tile(b, unknown, "power unknown", "warn");
	tile(b, unreach, "BMCs unreachable", "bad");
	tile(b, r->nswitches, "switches", NULL);
	tile(b, crit, "critical findings", "bad");
	tile(b, warn, "warnings", "warn");
	tile(b, info, "other findings", NULL);
	tile(b, r->nchanges, "changes", NULL);
	lab_buf_adds(b, "</div></section>\n");
}

static void
findings(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_report_finding	*f;
	size_t				 i;

	lab_buf_adds(b, "<section id=\"findings\"><h2>Findings</h2>\n");
	if (r->nfindings == 0) {
		lab_buf_adds(b, "<p class=\"good\">Nothing needs attention."
		    "</p></section>\n");
		return;
	}
	lab_buf_adds(b, "<table><thead><tr><th>Severity</th><th>Concerns</th>"
	    "<th>Finding</th></tr></thead><tbody>\n");
	for (i = 0; i < r->nfindings; i++) {
		f = &r->findings[i];
		lab_buf_addf(b, "<tr class=\"%s\"><td>"
		    "<span class=\"sev sev-%s\">",
		    sev_class(f->severity), sev_class(f->severity));
		esc_or(b, f->severity, "unknown");
		lab_buf_adds(b, "</span></td>");
		td(b, f->subject, "-");
		if (f->kind != NULL) {
			lab_buf_adds(b, "<td><span class=\"kind\">");
			lab_report_esc(b, f->kind);
			lab_buf_adds(b, "</span>: ");
			esc_or(b, f->message, "-");
			lab_buf_adds(b, "</td>");
		} else
			td(b, f->message, "-");
		lab_buf_adds(b, "</tr>\n");
	}
	lab_buf_adds(b, "</tbody></table></section>\n");
}

static void
changes(const struct lab_report *r, struct lab_buf *b)
{
	size_t	i;

	lab_buf_adds(b, "<section id=\"changes\"><h2>Changes</h2>\n<p>");
	if (r->previous_run == 0) {
		lab_buf_adds(b, "This is the first report: there is no earlier "
		    "run to compare with.</p></section>\n");
		return;
	}
	if (r->previous_id != 0)
		lab_buf_addf(b, "Since report run %lld, ",
		    (long long)r->previous_id);
	else
		lab_buf_adds(b, "Since the previous report run, ");
	when_ago(b, r->previous_run, r->generated_at);
	lab_buf_adds(b, ".</p>\n");
	if (r->nchanges == 0) {
		lab_buf_adds(b, "<p class=\"muted\">Nothing changed.</p>"
		    "</section>\n");
		return;
	}
	lab_buf_adds(b, "<table><thead><tr><th>Change</th><th>Concerns</th>"
	    "<th>What</th></tr></thead><tbody>\n");
	for (i = 0; i < r->nchanges; i++) {
		lab_buf_adds(b, "<tr>");
		td(b, r->changes[i].kind, "-");
		td(b, r->changes[i].subject, "-");
		td(b, r->changes[i].message, "-");
		lab_buf_adds(b, "</tr>\n");
	}
	lab_buf_adds(b, "</tbody></table></section>\n");
}

static void
host_power(const struct lab_report *r, const struct lab_report_host *h,
    struct lab_buf *b)
{
	lab_buf_adds(b, "<dt>Power</dt><dd>");
	if (h->power != NULL) {
		lab_buf_addf(b, "<span class=\"%s\">",
		    strcmp(h->power, "on") == 0 ? "on" :
		    strcmp(h->power, "off") == 0 ? "off" : "unknown");
		lab_report_esc(b, h->power);
		lab_buf_adds(b, "</span>");
		if (h->power_seen != 0) {
			lab_buf_adds(b, ", last seen ");
			when_ago(b, h->power_seen, r->generated_at);
		}
	} else if (h->bmc == NULL) {
		lab_buf_adds(b, "<span class=\"unknown\">unknown: no BMC to "
		    "ask</span>");
	} else if (h->power_checked == 0) {
		lab_buf_adds(b, "<span class=\"unknown\">unknown: never "
		    "checked</span>");
	} else {
		lab_buf_adds(b, "<span class=\"unknown\">unknown</span>");
		if (h->power_seen != 0) {
			lab_buf_adds(b, ", last seen ");
			when_ago(b, h->power_seen, r->generated_at);
		} else {
			lab_buf_adds(b, ", never seen");
		}
	}
	lab_buf_adds(b, "</dd>\n<dt>BMC</dt><dd>");
	if (h->bmc == NULL) {
		lab_buf_adds(b, "<span class=\"muted\">none</span>");
	} else {
		lab_report_esc(b, h->bmc);
		if (h->power_checked == 0) {
			lab_buf_adds(b, " <span class=\"muted\">never "
			    "checked</span>");
		} else {
			lab_buf_adds(b, h->bmc_reachable ?
			    " <span class=\"good\">reachable</span> at " :
			    " <span class=\"bad\">unreachable</span> at ");
			when_ago(b, h->power_checked, r->generated_at);
		}
	}
	lab_buf_adds(b, "</dd>\n");
}

static void
host_nics(const struct lab_report *r, const struct lab_report_host *h,
    struct lab_buf *b)
{
	const struct lab_report_nic	*n;
	size_t				 i;

	lab_buf_adds(b, "<h4>NICs</h4>");
	if (h->nnics == 0) {
		lab_buf_adds(b, "<p class=\"muted\">No NIC in the inventory."
		    "</p>\n");
		return;
	}
	lab_buf_adds(b, "<table><thead><tr><th>NIC</th><th>MAC</th>"
	    "<th>Switch port</th><th>Last seen there</th><th>VLAN</th>"
	    "</tr></thead><tbody>\n");
	for (i = 0; i < h->nnics; i++) {
		n = &h->nics[i];
		lab_buf_adds(b, "<tr>");
		td(b, n->name, "-");
		lab_buf_adds(b, "<td><code>");
		esc_or(b, n->mac, "no MAC");
		lab_buf_adds(b, "</code></td><td>");
		if (n->switch_name != NULL) {
			lab_report_esc(b, n->switch_name);
			lab_buf_adds(b, " ");
			esc_or(b, n->port, "(port unknown)");
		} else {
			lab_buf_adds(b, "<span class=\"muted\">not seen on a "
			    "switch</span>");
		}
		lab_buf_adds(b, "</td><td>");
		if (n->last_seen != 0)
			when_ago(b, n->last_seen, r->generated_at);
		else
			lab_buf_adds(b, "<span class=\"muted\">never</span>");
		lab_buf_adds(b, "</td><td>");
		if (n->vlan.set)
			lab_vlan_want_cell(&n->vlan, b);	/* digits, words */
		else
			lab_buf_adds(b, "<span class=\"muted\">none "
			    "declared</span>");
		lab_buf_adds(b, "</td></tr>\n");
	}
	lab_buf_adds(b, "</tbody></table>\n");
}

static void
host_disks(const struct lab_report_host *h, struct lab_buf *b)
{
	const struct lab_report_disk	*d;
	char				 s[32];
	size_t				 i, j;
	int				 any = 0;

	lab_buf_adds(b, "<h4>Disks and storage</h4>");
	if (h->ndisks == 0) {
		lab_buf_adds(b, "<p class=\"muted\">No disk in the inventory."
		    "</p>\n");
		return;
	}
	lab_buf_adds(b, "<p>Controllers: ");
	for (i = 0; i < h->ndisks; i++) {
		if (h->disks[i].controller == NULL)
			continue;
		for (j = 0; j < i; j++)
			if (h->disks[j].controller != NULL &&
			    strcmp(h->disks[j].controller,
			    h->disks[i].controller) == 0)
				break;
		if (j < i)
			continue;
		if (any++)
			lab_buf_adds(b, ", ");
		lab_report_esc(b, h->disks[i].controller);
	}
	if (!any)
		lab_buf_adds(b, "<span class=\"muted\">none known</span>");
	lab_buf_adds(b, "</p>\n<table><thead><tr><th>Slot</th><th>Kind</th>"
	    "<th>Size</th><th>Controller</th><th>Pool or array</th></tr>"
	    "</thead><tbody>\n");
	for (i = 0; i < h->ndisks; i++) {
		d = &h->disks[i];
		lab_buf_adds(b, "<tr>");
		td(b, d->slot, "-");
		td(b, d->kind, "-");
		if (d->size_bytes > 0) {
			lab_format_size_human(d->size_bytes, s, sizeof(s));
			lab_buf_addf(b, "<td class=\"num\">%s</td>", s);
		} else {
			lab_buf_adds(b, "<td class=\"muted\">unknown</td>");
		}
		td(b, d->controller, "unknown");
		td(b, d->member_of, "not provisioned by lab");
		lab_buf_adds(b, "</tr>\n");
	}
	lab_buf_adds(b, "</tbody></table>\n");
	lab_report_svg_storage(h, b);
}

static void
host(const struct lab_report *r, const struct lab_report_host *h,
    size_t idx, struct lab_buf *b)
{
	size_t	i;

	lab_buf_addf(b, "<div class=\"card\" id=\"host-%zu\"><h3>", idx);
	esc_or(b, h->name, "(unnamed)");
	lab_buf_adds(b, "</h3>\n<dl class=\"facts\"><dt>Model</dt><dd>");
	esc_or(b, h->model_name != NULL ? h->model_name : h->model,
	    "unknown");
	lab_buf_adds(b, "</dd>\n<dt>Role</dt><dd>");
	esc_or(b, h->role, "none");
	lab_buf_adds(b, "</dd>\n<dt>Groups</dt><dd>");
	for (i = 0; i < h->groups.n; i++) {
		if (i > 0)
			lab_buf_adds(b, ", ");
		lab_report_esc(b, h->groups.v[i]);
	}
	if (h->groups.n == 0)
		lab_buf_adds(b, "<span class=\"muted\">none</span>");
	lab_buf_adds(b, "</dd>\n");
	host_power(r, h, b);
	lab_report_html_history(h, b);
	lab_buf_adds(b, "<dt>Last provisioning</dt><dd>");
	esc_or(b, h->last_run, "never provisioned by lab");
	lab_buf_adds(b, "</dd></dl>\n");
	host_nics(r, h, b);
	host_disks(h, b);
	lab_buf_adds(b, "</div>\n");
}

static void
hosts(const struct lab_report *r, struct lab_buf *b)
{
	size_t	i;

	lab_buf_adds(b, "<section id=\"hosts\"><h2>Hosts</h2>\n");
	if (r->nhosts == 0)
		lab_buf_adds(b, "<p class=\"muted\">No host in the inventory."
		    "</p>\n");
	for (i = 0; i < r->nhosts; i++)
		host(r, &r->hosts[i], i, b);
	lab_buf_adds(b, "</section>\n");
}

static void
port_row(const struct lab_report_port *p, struct lab_buf *b)
{
	int	up;

	up = p->oper_status != NULL && strcmp(p->oper_status, "up") == 0;

	lab_buf_addf(b, "<tr><td class=\"num\">%lu</td>", p->ifindex);
	td(b, p->name, "-");
	td(b, p->alias, "");
	lab_buf_addf(b, "<td class=\"%s\">", up ? "on" : "muted");
	esc_or(b, p->oper_status, "unknown");
	lab_buf_adds(b, "</td><td class=\"num\">");
	if (up && p->speed_mbps > 0)
		lab_buf_addf(b, "%lld Mb/s", p->speed_mbps);
	if (p->speed_suspect)
		lab_buf_adds(b, " <span class=\"bad\">suspect</span>");
	lab_buf_adds(b, "</td>");
	if (p->duplex != NULL && strcasestr(p->duplex, "half") != NULL) {
		lab_buf_adds(b, "<td class=\"bad\">");
		lab_report_esc(b, p->duplex);
		lab_buf_adds(b, "</td>");
	} else {
		td(b, p->duplex, "");
	}
	td(b, p->vlan, "");
	td(b, p->lag, "");
	lab_buf_adds(b, "<td>");
	if (p->host != NULL) {
		lab_report_esc(b, p->host);
		if (p->nic != NULL) {
			lab_buf_adds(b, " ");
			lab_report_esc(b, p->nic);
		}
	}
	lab_buf_adds(b, "</td>");
	td(b, p->neighbor, "");
	lab_buf_adds(b, "</tr>\n");
}

/* The ports that are present (or, present 0, those that are not). */
static void
port_table(const struct lab_report_switch *sw, int want, struct lab_buf *b)
{
	size_t	i;

	lab_buf_adds(b, "<table><thead><tr><th>ifIndex</th><th>Port</th>"
	    "<th>Alias</th><th>Status</th><th>Speed</th><th>Duplex</th>"
	    "<th>VLAN</th><th>LAG</th><th>Host and NIC</th>"
	    "<th>Neighbour</th></tr></thead><tbody>\n");
	for (i = 0; i < sw->nports; i++)
		if (lab_report_port_present(&sw->ports[i]) == want)
			port_row(&sw->ports[i], b);
	lab_buf_adds(b, "</tbody></table>\n");
}

static void
one_switch(const struct lab_report *r, const struct lab_report_switch *sw,
    size_t idx, struct lab_buf *b)
{
	size_t	i, absent = 0;

	lab_buf_addf(b, "<div class=\"card\" id=\"switch-%zu\"><h3>", idx);
	esc_or(b, sw->name, "(unnamed)");
	lab_buf_adds(b, "</h3>\n<dl class=\"facts\"><dt>Model</dt><dd>");
	esc_or(b, sw->model_name != NULL ? sw->model_name : sw->model,
	    "unknown");
	if (sw->model_ports > 0)
		lab_buf_addf(b, " (%d ports)", sw->model_ports);
	lab_buf_adds(b, "</dd>\n<dt>Discovered</dt><dd>");
	if (sw->discovered_at != 0)
		when_ago(b, sw->discovered_at, r->generated_at);
	else
		lab_buf_adds(b, "<span class=\"muted\">never: no switch "
		    "discovered yet</span>");
	lab_buf_adds(b, "</dd>\n<dt>Description</dt><dd>");
	esc_or(b, sw->descr, "unknown");
	lab_buf_adds(b, "</dd></dl>\n");
	lab_report_svg_panel(sw, b);
	if (sw->nports == 0) {
		lab_buf_adds(b, "<p class=\"muted\">No ports known yet.</p>"
		    "</div>\n");
		return;
	}
	port_table(sw, 1, b);
	for (i = 0; i < sw->nports; i++)
		absent += !lab_report_port_present(&sw->ports[i]);
	/* absent stack members and empty cages: folded away, still there */
	if (absent > 0) {
		lab_buf_addf(b, "<details><summary>%zu of %zu ports not "
		    "present (not listed above)</summary>\n", absent,
		    sw->nports);
		port_table(sw, 0, b);
		lab_buf_adds(b, "</details>\n");
	}
	lab_buf_adds(b, "</div>\n");
}

static void
switches(const struct lab_report *r, struct lab_buf *b)
{
	size_t	i;

	lab_buf_adds(b, "<section id=\"switches\"><h2>Switches</h2>\n");
	if (r->nswitches == 0)
		lab_buf_adds(b, "<p class=\"muted\">No switch in the "
		    "inventory: no switch discovered yet.</p>\n");
	for (i = 0; i < r->nswitches; i++)
		one_switch(r, &r->switches[i], i, b);
	lab_buf_adds(b, "</section>\n");
}

static void
audit(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_report_audit	*a;
	size_t				 i;

	lab_buf_adds(b, "<section id=\"audit\"><h2>Recent audit log</h2>\n");
	if (r->naudit == 0) {
		lab_buf_adds(b, "<p class=\"muted\">No audit entries.</p>"
		    "</section>\n");
		return;
	}
	lab_buf_adds(b, "<table><thead><tr><th>When</th><th>User</th>"
	    "<th>Command</th><th>Result</th><th>Message</th></tr></thead>"
	    "<tbody>\n");
	for (i = 0; i < r->naudit; i++) {
		a = &r->audit[i];
		lab_buf_adds(b, "<tr><td>");
		when(b, a->time);
		lab_buf_adds(b, "</td>");
		td(b, a->user, "-");
		lab_buf_adds(b, "<td><code>");
		lab_report_esc(b, a->argv);
		lab_buf_adds(b, "</code></td>");
		if (a->result == 0)
			lab_buf_adds(b, "<td class=\"good\">ok</td>");
		else
			lab_buf_addf(b, "<td class=\"bad\">exit %d</td>",
			    a->result);
		td(b, a->message, "");
		lab_buf_adds(b, "</tr>\n");
	}
	lab_buf_adds(b, "</tbody></table></section>\n");
}

/* Renders the report as one self-contained HTML page. */
void
lab_report_html(const struct lab_report *r, struct lab_buf *b)
{
	lab_buf_adds(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\">\n" LAB_REPORT_MARKER "\n"
	    "<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<title>lab inventory report, ");
	when(b, r->generated_at);
	lab_buf_addf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n"
	    "<header class=\"top\"><h1>Lab inventory report</h1><p>Generated ",
	    css);
	when(b, r->generated_at);
	lab_buf_adds(b, "</p><nav><a href=\"#summary\">Summary</a>"
	    "<a href=\"#findings\">Findings</a><a href=\"#changes\">Changes</a>");
	if (lab_report_has_drift(r))
		lab_buf_adds(b, "<a href=\"#drift\">Drift</a>");
	lab_buf_adds(b, "<a href=\"#hosts\">Hosts</a>");
	if (lab_report_has_disks(r))
		lab_buf_adds(b, "<a href=\"#disks\">Disks</a>");
	lab_buf_adds(b, "<a href=\"#switches\">Switches</a>");
	if (lab_report_has_shares(r))
		lab_buf_adds(b, "<a href=\"#shares\">Shares</a>");
	lab_buf_adds(b, "<a href=\"#audit\">Audit log</a></nav>");
	lab_report_html_pages(r, b);
	lab_buf_adds(b, "</header>\n<main>\n");
	summary(r, b);
	findings(r, b);
	changes(r, b);
	lab_report_drift_html(r, b);
	hosts(r, b);
	lab_report_disks_html(r, b);
	switches(r, b);
	lab_report_html_pools(r, b);
	lab_report_switch_applies_html(r, b);
	lab_report_shares_html(r, b);
	audit(r, b);
	lab_buf_adds(b, "</main>\n<footer>lab " LAB_VERSION "</footer>\n"
	    "</body></html>\n");
}
