/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/parse.h"
#include "lab/render.h"
#include "lab/report.h"
#include "lab/text.h"
#include "report-priv.h"

/*
 * The terminal (text) and Markdown renderers. Both say what is missing
 * ("never checked", "no switch discovered yet") rather than leave a hole.
 */

static const char *
dash(const char *s)
{
	return s == NULL || *s == '\0' ? "-" : s;
}

static void
add_time(struct lab_buf *b, int64_t t)
{
	char	buf[32];

	lab_format_time(t, buf, sizeof(buf));
	lab_buf_adds(b, buf);
}

static void
summary(const struct lab_report *r, struct lab_buf *b, const char *lead)
{
	struct lab_report_summary	s;

	lab_report_summarise(r, &s);
	lab_buf_addf(b, "%s%zu hosts: %zu on, %zu off, %zu unknown, %zu "
	    "without BMC; %zu BMC unreachable\n", lead, s.hosts, s.power_on,
	    s.power_off, s.power_unknown, s.no_bmc, s.bmc_unreachable);
	lab_buf_addf(b, "%s%zu switches (%zu discovered), %zu ports (%zu up), "
	    "%zu unknown MACs\n", lead, s.switches, s.switches_discovered,
	    s.ports, s.ports_up, s.unknown_macs);
	lab_buf_addf(b, "%s%zu changes; findings: %zu critical, %zu warning, "
	    "%zu info\n", lead, s.changes, s.critical, s.warning, s.info);
}

/* "on (seen T, checked T)", "never checked", "no BMC". */
static void
power_text(const struct lab_report_host *h, struct lab_buf *b)
{
	if (h->bmc == NULL) {
		lab_buf_adds(b, "unknown (no BMC)");
		return;
	}
	if (h->power_checked == 0) {
		lab_buf_adds(b, "never checked");
		return;
	}
	lab_buf_adds(b, h->power ? h->power : "unknown");
	if (h->power_seen != 0) {
		lab_buf_adds(b, " (seen ");
		add_time(b, h->power_seen);
		lab_buf_adds(b, ")");
	}
	lab_buf_adds(b, h->bmc_reachable ? "; BMC reachable at " :
	    "; BMC unreachable at ");
	add_time(b, h->power_checked);
}

/* "eth0 MAC: sg200 gi1/0/22 (seen ...); VLAN 20", the VLAN as declared. */
static void
nic_text(const struct lab_report_nic *n, struct lab_buf *b)
{
	lab_buf_addf(b, "%s %s: ", n->name, n->mac);
	if (n->switch_name == NULL)
		lab_buf_adds(b, "not seen on a switch");
	else {
		lab_buf_addf(b, "%s %s", n->switch_name, dash(n->port));
		if (n->last_seen != 0) {
			lab_buf_adds(b, " (seen ");
			add_time(b, n->last_seen);
			lab_buf_adds(b, ")");
		}
	}
	if (n->vlan.set) {
		lab_buf_adds(b, n->vlan.ntrunk > 0 ? "; VLANs " : "; VLAN ");
		lab_vlan_want_cell(&n->vlan, b);
	}
}

static void
disk_text(const struct lab_report_disk *d, struct lab_buf *b)
{
	char	size[32];

	lab_format_size_human(d->size_bytes, size, sizeof(size));
	lab_buf_addf(b, "%s: %s %s on %s, %s", d->slot, d->kind, size,
	    dash(d->controller), d->member_of ? d->member_of :
	    "not provisioned by lab");
}

static void
groups_text(const struct lab_report_host *h, struct lab_buf *b)
{
	size_t	i;

	for (i = 0; i < h->groups.n; i++)
		lab_buf_addf(b, "%s%s", i ? ", " : "", h->groups.v[i]);
	if (h->groups.n == 0)
		lab_buf_adds(b, "-");
}

static void
port_speed(const struct lab_report_port *p, char *buf, size_t len)
{
	if (p->speed_mbps <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld%s", p->speed_mbps,
		    p->speed_suspect ? "?" : "");
}

static void
switch_head(const struct lab_report_switch *s, struct lab_buf *b)
{
	lab_buf_addf(b, "%s: %s (%s)", s->name, s->model_name ?
	    s->model_name : dash(s->model), dash(s->model));
	if (s->discovered_at == 0) {
		lab_buf_adds(b, ": no switch discovered yet");
		return;
	}
	lab_buf_adds(b, ", discovered ");
	add_time(b, s->discovered_at);
}

static void
previous(const struct lab_report *r, struct lab_buf *b)
{
	if (r->previous_run == 0) {
		lab_buf_adds(b, "no previous report run: changes start with "
		    "this one");
		return;
	}
	lab_buf_adds(b, "since the report of ");
	add_time(b, r->previous_run);
	if (r->previous_id != 0)
		lab_buf_addf(b, " (run %lld)", (long long)r->previous_id);
}

static void	text_body(const struct lab_report *, struct lab_buf *);

/*
 * The terminal report: its lines as text_body writes them, every byte
 * from the database or a peer in them made visible (lab_buf_add_visible:
 * "\x1b", never an escape the terminal obeys); line ends and tabs stay.
 */
void
lab_report_text(const struct lab_report *r, struct lab_buf *b)
{
	struct lab_buf	 t;

	lab_buf_init(&t);
	text_body(r, &t);
	if (t.oom)
		b->oom = 1;
	else
		lab_buf_add_visible_lines(b, t.s);
	lab_buf_release(&t);
}

static void
text_body(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_report_host	*h;
	const struct lab_report_switch	*s;
	const struct lab_report_port	*p;
	char				 speed[32];
	size_t				 i, j;

	lab_buf_adds(b, "lab report, generated ");
	add_time(b, r->generated_at);
	lab_buf_adds(b, "\n\nSummary\n");
	summary(r, b, "  ");

	lab_buf_adds(b, "\nHosts\n");
	if (r->nhosts == 0)
		lab_buf_adds(b, "  none in the inventory: run 'lab import'\n");
	for (i = 0; i < r->nhosts; i++) {
		h = &r->hosts[i];
		lab_buf_addf(b, "  %s: %s (%s), role %s\n", h->name,
		    h->model_name ? h->model_name : h->model, h->model,
		    dash(h->role));
		lab_buf_adds(b, "    groups: ");
		groups_text(h, b);
		lab_buf_addf(b, "\n    bmc:    %s\n    power:  ",
		    h->bmc ? h->bmc : "none");
		power_text(h, b);
		lab_buf_addc(b, '\n');
		for (j = 0; j < h->nnics; j++) {
			lab_buf_adds(b, "    nic    ");
			nic_text(&h->nics[j], b);
			lab_buf_addc(b, '\n');
		}
		for (j = 0; j < h->ndisks; j++) {
			lab_buf_adds(b, "    disk   ");
			disk_text(&h->disks[j], b);
			lab_buf_addc(b, '\n');
		}
		lab_buf_addf(b, "    last provisioning run: %s\n",
		    h->last_run ? h->last_run : "not provisioned by lab");
	}

	lab_report_disks_text(r, b);
	lab_buf_adds(b, "\nSwitches\n");
	if (r->nswitches == 0)
		lab_buf_adds(b, "  none in the inventory\n");
	for (i = 0; i < r->nswitches; i++) {
		s = &r->switches[i];
		lab_buf_adds(b, "  ");
		switch_head(s, b);
		lab_buf_addc(b, '\n');
		if (s->descr != NULL)
			lab_buf_addf(b, "    %s\n", s->descr);
		if (s->nports > 0)
			lab_buf_addf(b, "    %-7s %-14s %-10s %6s %-7s %-6s "
			    "%-8s %s\n", "IFINDEX", "PORT", "STATUS", "SPEED",
			    "DUPLEX", "VLAN", "LAG", "HOST");
		for (j = 0; j < s->nports; j++) {
			p = &s->ports[j];
			port_speed(p, speed, sizeof(speed));
			lab_buf_addf(b, "    %-7lu %-14s %-10s %6s %-7s %-6s "
			    "%-8s %s%s%s%s%s\n", p->ifindex, dash(p->name),
			    dash(p->oper_status), speed, dash(p->duplex),
			    dash(p->vlan), dash(p->lag), dash(p->host),
			    p->nic ? " " : "", p->nic ? p->nic : "",
			    p->neighbor ? "  " : "",
			    p->neighbor ? p->neighbor : "");
		}
	}

	lab_buf_adds(b, "\nChanges (");
	previous(r, b);
	lab_buf_adds(b, ")\n");
	if (r->nchanges == 0)
		lab_buf_adds(b, "  none\n");
	for (i = 0; i < r->nchanges; i++)
		lab_buf_addf(b, "  %-13s %s: %s\n", r->changes[i].kind,
		    r->changes[i].subject, r->changes[i].message);

	lab_buf_adds(b, "\nFindings\n");
	if (r->nfindings == 0)
		lab_buf_adds(b, "  none\n");
	for (i = 0; i < r->nfindings; i++)
		lab_buf_addf(b, "  %-8s %s: %s%s%s\n", r->findings[i].severity,
		    r->findings[i].subject, r->findings[i].kind ?
		    r->findings[i].kind : "", r->findings[i].kind ? ": " : "",
		    r->findings[i].message);

	lab_report_drift_text(r, b);
	lab_report_switch_applies_text(r, b);
	lab_report_shares_text(r, b);
	lab_buf_adds(b, "\nRecent audit log\n");
	if (r->naudit == 0)
		lab_buf_adds(b, "  empty\n");
	for (i = 0; i < r->naudit; i++) {
		lab_buf_adds(b, "  ");
		add_time(b, r->audit[i].time);
		lab_buf_addf(b, "  %s  %d  %s%s%s\n", r->audit[i].user,
		    r->audit[i].result, r->audit[i].argv,
		    r->audit[i].message ? ": " : "",
		    r->audit[i].message ? r->audit[i].message : "");
	}
}

/*
 * Markdown text in a table cell: a newline is a space; other controls and
 * bytes that are not UTF-8 are shown as in the text report ("\x0d",
 * lab_buf_add_visible, its backslash escaped in turn so that Markdown
 * shows it); pipes and Markdown's other marks escaped.
 */
static void
md(struct lab_buf *b, const char *str)
{
	struct lab_buf	 v, one;
	const char	*s, *nl;

	if (str == NULL || *str == '\0') {
		lab_buf_adds(b, "-");
		return;
	}
	lab_buf_init(&v);
	lab_buf_init(&one);
	for (s = str; *s != '\0'; s = nl + 1) {
		nl = strchr(s, '\n');
		one.len = 0;
		lab_buf_add(&one, s, nl != NULL ? (size_t)(nl - s) :
		    strlen(s));
		if (one.s != NULL)
			lab_buf_add_visible(&v, one.s);
		if (nl == NULL)
			break;
		lab_buf_addc(&v, '\n');
	}
	lab_buf_release(&one);
	if (v.oom || v.s == NULL) {
		b->oom |= v.oom;
		lab_buf_release(&v);
		return;
	}
	for (s = v.s; *s != '\0'; s++) {
		if (*s == '|' || *s == '*' || *s == '_' || *s == '`' ||
		    *s == '<' || *s == '[' || *s == ']' || *s == '\\')
			lab_buf_addc(b, '\\');
		lab_buf_addc(b, (char)(*s == '\n' ? ' ' : *s));
	}
	lab_buf_release(&v);
}

static void
md_host(const struct lab_report_host *h, struct lab_buf *b)
{
	struct lab_buf	t;
	size_t		j;

	lab_buf_adds(b, "\n### ");
	md(b, h->name);
	lab_buf_adds(b, "\n\n- model: ");
	md(b, h->model_name ? h->model_name : h->model);
	lab_buf_adds(b, " (");
	md(b, h->model);
	lab_buf_adds(b, ")\n- role: ");
	md(b, h->role);
	lab_buf_adds(b, "\n- groups: ");
	lab_buf_init(&t);
	groups_text(h, &t);
	md(b, t.s);
	lab_buf_release(&t);
	lab_buf_adds(b, "\n- BMC: ");
	md(b, h->bmc ? h->bmc : "none");
	lab_buf_adds(b, "\n- power: ");
	lab_buf_init(&t);
	power_text(h, &t);
	md(b, t.s);
	lab_buf_release(&t);
	lab_buf_adds(b, "\n- last provisioning run: ");
	md(b, h->last_run ? h->last_run : "not provisioned by lab");
	lab_buf_adds(b, "\n");
	for (j = 0; j < h->nnics; j++) {
		lab_buf_adds(b, "- NIC ");
		lab_buf_init(&t);
		nic_text(&h->nics[j], &t);
		md(b, t.s);
		lab_buf_release(&t);
		lab_buf_addc(b, '\n');
	}
	for (j = 0; j < h->ndisks; j++) {
		lab_buf_adds(b, "- disk ");
		lab_buf_init(&t);
		disk_text(&h->disks[j], &t);
		md(b, t.s);
		lab_buf_release(&t);
		lab_buf_addc(b, '\n');
	}
}

static void
md_switch(const struct lab_report_switch *s, struct lab_buf *b)
{
	const struct lab_report_port	*p;
	struct lab_buf			 t;
	char				 speed[32];
	size_t				 j;

	lab_buf_adds(b, "\n### ");
	lab_buf_init(&t);
	switch_head(s, &t);
	md(b, t.s);
	lab_buf_release(&t);
	lab_buf_adds(b, "\n\n");
	if (s->descr != NULL) {
		md(b, s->descr);
		lab_buf_adds(b, "\n\n");
	}
	if (s->nports == 0)
		return;
	lab_buf_adds(b, "| ifIndex | port | status | speed (Mb/s) | duplex "
	    "| VLAN | LAG | host | NIC | neighbour |\n"
	    "|---:|---|---|---:|---|---|---|---|---|---|\n");
	for (j = 0; j < s->nports; j++) {
		p = &s->ports[j];
		port_speed(p, speed, sizeof(speed));
		lab_buf_addf(b, "| %lu | ", p->ifindex);
		md(b, p->name);
		lab_buf_adds(b, " | ");
		md(b, p->oper_status);
		lab_buf_adds(b, " | ");
		md(b, speed);
		lab_buf_adds(b, " | ");
		md(b, p->duplex);
		lab_buf_adds(b, " | ");
		md(b, p->vlan);
		lab_buf_adds(b, " | ");
		md(b, p->lag);
		lab_buf_adds(b, " | ");
		md(b, p->host);
		lab_buf_adds(b, " | ");
		md(b, p->nic);
		lab_buf_adds(b, " | ");
		md(b, p->neighbor);
		lab_buf_adds(b, " |\n");
	}
}

/* The report as Markdown. */
void
lab_report_markdown(const struct lab_report *r, struct lab_buf *b)
{
	struct lab_buf	t;
	size_t		i;

	lab_buf_adds(b, "# Lab report\n\nGenerated ");
	add_time(b, r->generated_at);
	lab_buf_adds(b, ".\n\n## Summary\n\n");
	summary(r, b, "- ");

	lab_buf_adds(b, "\n## Hosts\n");
	if (r->nhosts == 0)
		lab_buf_adds(b, "\nNone in the inventory.\n");
	for (i = 0; i < r->nhosts; i++)
		md_host(&r->hosts[i], b);

	lab_report_disks_markdown(r, b);
	lab_buf_adds(b, "\n## Switches\n");
	if (r->nswitches == 0)
		lab_buf_adds(b, "\nNone in the inventory.\n");
	for (i = 0; i < r->nswitches; i++)
		md_switch(&r->switches[i], b);

	lab_buf_adds(b, "\n## Changes\n\n");
	lab_buf_init(&t);
	previous(r, &t);
	md(b, t.s);
	lab_buf_release(&t);
	lab_buf_adds(b, ".\n\n");
	if (r->nchanges == 0)
		lab_buf_adds(b, "None.\n");
	else
		lab_buf_adds(b, "| change | subject | what |\n|---|---|---|\n");
	for (i = 0; i < r->nchanges; i++) {
		lab_buf_adds(b, "| ");
		md(b, r->changes[i].kind);
		lab_buf_adds(b, " | ");
		md(b, r->changes[i].subject);
		lab_buf_adds(b, " | ");
		md(b, r->changes[i].message);
		lab_buf_adds(b, " |\n");
	}

	lab_buf_adds(b, "\n## Findings\n\n");
	if (r->nfindings == 0)
		lab_buf_adds(b, "None.\n");
	else
		lab_buf_adds(b, "| severity | subject | finding |\n"
		    "|---|---|---|\n");
	for (i = 0; i < r->nfindings; i++) {
		lab_buf_adds(b, "| ");
		md(b, r->findings[i].severity);
		lab_buf_adds(b, " | ");
		md(b, r->findings[i].subject);
		lab_buf_adds(b, " | ");
		if (r->findings[i].kind != NULL) {
			md(b, r->findings[i].kind);
			lab_buf_adds(b, ": ");
		}
		md(b, r->findings[i].message);
		lab_buf_adds(b, " |\n");
	}

	lab_report_drift_markdown(r, b);
	lab_report_shares_markdown(r, b);
	lab_buf_adds(b, "\n## Recent audit log\n\n");
	if (r->naudit == 0)
		lab_buf_adds(b, "Empty.\n");
	else
		lab_buf_adds(b, "| time | user | result | command | message |\n"
		    "|---|---|---:|---|---|\n");
	for (i = 0; i < r->naudit; i++) {
		lab_buf_adds(b, "| ");
		add_time(b, r->audit[i].time);
		lab_buf_adds(b, " | ");
		md(b, r->audit[i].user);
		lab_buf_addf(b, " | %d | ", r->audit[i].result);
		md(b, r->audit[i].argv);
		lab_buf_adds(b, " | ");
		md(b, r->audit[i].message);
		lab_buf_adds(b, " |\n");
	}
}
