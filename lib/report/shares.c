/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/inventory.h"
#include "lab/json.h"
#include "lab/parse.h"
#include "lab/report.h"
#include "lab/str.h"
#include "lab/text.h"
#include "report-html-priv.h"
#include "report-priv.h"

/*
 * The report's "Shares" (issue 21): each NFS export and iSCSI LUN the
 * inventory declares (shares:), with its clients as written (NFS: CIDRs,
 * hosts, @groups; iSCSI: the initiators of its ACL) and the hosts whose
 * mounts: name it. Nothing at all when no host has a share, so a lab
 * without shares has the report it had.
 */

/* Calls fn for each share of the declared inventory, in host order. */
#define EACH_SHARE(r, h, s, i, k)					\
	for ((i) = 0; (r)->declared != NULL &&				\
	    (i) < (r)->declared->nhosts; (i)++)				\
		for ((h) = &(r)->declared->hosts[(i)], (k) = 0;		\
		    (k) < (h)->nshares && ((s) = &(h)->shares[(k)]); (k)++)

int
lab_report_has_shares(const struct lab_report *r)
{
	size_t	i;

	if (r->declared == NULL)
		return 0;
	for (i = 0; i < r->declared->nhosts; i++)
		if (r->declared->hosts[i].nshares > 0)
			return 1;
	return 0;
}

/* The clients as written: the NFS clients or the iSCSI initiators. */
static const struct lab_strv *
clients(const struct lab_share *s)
{
	return strcmp(s->protocol, "iscsi") == 0 ? &s->initiators :
	    &s->clients;
}

/* Does host u name server:share in its mounts:? */
static int
uses(const struct lab_host *u, const struct lab_host *server,
    const struct lab_share *s)
{
	size_t	i, n = strlen(server->name);

	for (i = 0; i < u->nmounts; i++)
		if (strncmp(u->mounts[i].share, server->name, n) == 0 &&
		    u->mounts[i].share[n] == ':' &&
		    strcmp(u->mounts[i].share + n + 1, s->name) == 0)
			return 1;
	return 0;
}

/* "pool tank" or "vg vg0", and the size when there is one. */
static void
where(const struct lab_share *s, struct lab_buf *b)
{
	char	size[32];

	if (s->size_bytes > 0) {
		lab_format_size(s->size_bytes, size, sizeof(size));
		lab_buf_addf(b, "%s on ", size);
	}
	lab_buf_addf(b, "%s %s", s->pool != NULL ? "pool" : "vg",
	    s->pool != NULL ? s->pool : s->vg != NULL ? s->vg : "-");
}

/* The export's folder or the LUN's target IQN. */
static void
what(const struct lab_host *h, const struct lab_share *s, struct lab_buf *b)
{
	char	iqn[256];

	if (strcmp(s->protocol, "iscsi") == 0) {
		lab_share_iqn(h, s, iqn, sizeof(iqn));
		lab_buf_adds(b, iqn);
	} else
		lab_buf_adds(b, s->path != NULL ? s->path : "-");
}

/* The hosts that mount it, ", "-separated ("-": none). */
static void
users(const struct lab_report *r, const struct lab_host *h,
    const struct lab_share *s, struct lab_buf *b)
{
	size_t	i, n = 0;

	for (i = 0; i < r->declared->nhosts; i++)
		if (uses(&r->declared->hosts[i], h, s))
			lab_buf_addf(b, "%s%s", n++ > 0 ? ", " : "",
			    r->declared->hosts[i].name);
	if (n == 0)
		lab_buf_adds(b, "-");
}

static void
list(const struct lab_strv *v, struct lab_buf *b)
{
	size_t	i;

	for (i = 0; i < v->n; i++)
		lab_buf_addf(b, "%s%s", i > 0 ? ", " : "", v->v[i]);
	if (v->n == 0)
		lab_buf_adds(b, "-");
}

/* Builds the one-line parts of a share: what, where, clients, users. */
static int
parts(const struct lab_report *r, const struct lab_host *h,
    const struct lab_share *s, struct lab_buf p[4])
{
	size_t	i;

	for (i = 0; i < 4; i++)
		lab_buf_init(&p[i]);
	what(h, s, &p[0]);
	where(s, &p[1]);
	list(clients(s), &p[2]);
	users(r, h, s, &p[3]);
	for (i = 0; i < 4; i++)
		if (p[i].oom)
			return -1;
	return 0;
}

static void
parts_release(struct lab_buf p[4])
{
	size_t	i;

	for (i = 0; i < 4; i++)
		lab_buf_release(&p[i]);
}

void
lab_report_shares_text(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_host	*h;
	const struct lab_share	*s = NULL;
	struct lab_buf		 p[4];
	size_t			 i, k;

	if (!lab_report_has_shares(r))
		return;
	lab_buf_adds(b, "\nShares\n");
	EACH_SHARE(r, h, s, i, k) {
		if (parts(r, h, s, p) == -1)
			b->oom = 1;
		else
			lab_buf_addf(b, "  %s:%s  %s %s (%s)\n    %s %s; "
			    "mounted by %s\n", h->name, s->name, s->protocol,
			    p[0].s, p[1].s, strcmp(s->protocol, "iscsi") == 0 ?
			    "initiators" : "clients", p[2].s, p[3].s);
		parts_release(p);
	}
}

/* As text.c's md(): Markdown's marks escaped, one line. */
static void
md(struct lab_buf *b, const char *str)
{
	char		*v;
	const char	*c;

	if ((v = lab_visible(str)) == NULL) {
		b->oom = 1;
		return;
	}
	for (c = v; *c != '\0'; c++) {
		if (*c == '|' || *c == '*' || *c == '_' || *c == '`' ||
		    *c == '<' || *c == '[' || *c == ']' || *c == '\\')
			lab_buf_addc(b, '\\');
		lab_buf_addc(b, *c);
	}
	free(v);
}

void
lab_report_shares_markdown(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_host	*h;
	const struct lab_share	*s = NULL;
	struct lab_buf		 p[4];
	size_t			 i, k, j;

	if (!lab_report_has_shares(r))
		return;
	lab_buf_adds(b, "\n## Shares\n\n| share | protocol | export or "
	    "target | on | clients | mounted by |\n|---|---|---|---|---|---|\n");
	EACH_SHARE(r, h, s, i, k) {
		if (parts(r, h, s, p) == -1) {
			b->oom = 1;
			parts_release(p);
			continue;
		}
		lab_buf_adds(b, "| ");
		md(b, h->name);
		lab_buf_adds(b, ":");
		md(b, s->name);
		lab_buf_adds(b, " | ");
		md(b, s->protocol);
		for (j = 0; j < 4; j++) {
			lab_buf_adds(b, " | ");
			md(b, p[j].s);
		}
		lab_buf_adds(b, " |\n");
		parts_release(p);
	}
}

static void
json_list(struct lab_json *j, const char *key, const struct lab_strv *v)
{
	size_t	i;

	lab_json_key(j, key);
	lab_json_arr_begin(j);
	for (i = 0; i < v->n; i++)
		lab_json_str(j, v->v[i]);
	lab_json_arr_end(j);
}

void
lab_report_shares_json(const struct lab_report *r, struct lab_json *j)
{
	const struct lab_host	*h;
	const struct lab_share	*s = NULL;
	char			 iqn[256];
	size_t			 i, k, u;

	if (!lab_report_has_shares(r))
		return;
	lab_json_key(j, "shares");
	lab_json_arr_begin(j);
	EACH_SHARE(r, h, s, i, k) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "host", h->name);
		lab_json_kstr(j, "name", s->name);
		lab_json_kstr(j, "protocol", s->protocol);
		lab_json_kstr(j, "pool", s->pool);
		lab_json_kstr(j, "vg", s->vg);
		if (strcmp(s->protocol, "iscsi") == 0) {
			lab_share_iqn(h, s, iqn, sizeof(iqn));
			lab_json_kstr(j, "iqn", iqn);
			json_list(j, "initiators", &s->initiators);
		} else {
			lab_json_kstr(j, "path", s->path);
			json_list(j, "clients", &s->clients);
		}
		lab_json_kint(j, "size_bytes", (int64_t)s->size_bytes);
		lab_json_key(j, "mounted_by");
		lab_json_arr_begin(j);
		for (u = 0; u < r->declared->nhosts; u++)
			if (uses(&r->declared->hosts[u], h, s))
				lab_json_str(j, r->declared->hosts[u].name);
		lab_json_arr_end(j);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
}

void
lab_report_shares_html(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_host	*h;
	const struct lab_share	*s = NULL;
	struct lab_buf		 p[4];
	size_t			 i, k, j;

	if (!lab_report_has_shares(r))
		return;
	lab_buf_adds(b, "<section id=\"shares\"><h2>Shares</h2>\n<table>"
	    "<thead><tr><th>share</th><th>protocol</th><th>export or target"
	    "</th><th>on</th><th>clients</th><th>mounted by</th></tr>"
	    "</thead><tbody>\n");
	EACH_SHARE(r, h, s, i, k) {
		if (parts(r, h, s, p) == -1) {
			b->oom = 1;
			parts_release(p);
			continue;
		}
		lab_buf_adds(b, "<tr><td>");
		lab_report_esc(b, h->name);
		lab_buf_adds(b, ":");
		lab_report_esc(b, s->name);
		lab_buf_adds(b, "</td><td>");
		lab_report_esc(b, s->protocol);
		for (j = 0; j < 4; j++) {
			lab_buf_adds(b, "</td><td>");
			lab_report_esc(b, p[j].s);
		}
		lab_buf_adds(b, "</td></tr>\n");
		parts_release(p);
	}
	lab_buf_adds(b, "</tbody></table></section>\n");
}
