/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "lab/report.h"
#include "db/report-rows.h"
#include "report-priv.h"

/*
 * What changed since the previous report run. A run stores a snapshot:
 * one line per fact, "kind<TAB>key fields<TAB>value", where the kinds are
 *
 *	h host			a host of the inventory
 *	p host state		its power state ("unknown" when not known)
 *	r host reachable	its BMC "reachable" or "unreachable" when lab
 *				last asked (none before the first check)
 *	l host nic link		the switch and port a NIC was last seen on
 *	s switch port speed	speed and duplex of a port with a host on it
 *	m switch mac port	a MAC on the switch no inventory NIC owns
 *	d host slot size	a disk
 *
 * Two snapshots are compared key by key.
 */

struct fact {
	const char	*line;
	size_t		 keylen;	/* kind and key fields, with tabs */
};

struct facts {
	char		*text;		/* owned, lines split in place */
	struct fact	*v;
	size_t		 n;
};

static void
add_field(struct lab_buf *b, const char *s)
{
	lab_buf_addc(b, '\t');
	for (; s != NULL && *s != '\0'; s++)
		lab_buf_addc(b, (char)(*s == '\t' || *s == '\n' ? ' ' : *s));
	if (s == NULL)
		lab_buf_addc(b, '-');
}

/* What add_mac fills: the snapshot and the report's count. */
struct macs {
	struct lab_report	*r;
	struct lab_buf		*b;
};

static int
add_mac(void *arg, const struct lab_db_report_mac *row)
{
	struct macs	*m = arg;

	lab_buf_adds(m->b, "m");
	add_field(m->b, row->switch_name);
	add_field(m->b, row->mac);
	add_field(m->b, row->port);
	lab_buf_addc(m->b, '\n');
	m->r->unknown_macs++;
	return 0;
}

/* Fills r->snapshot. */
int
lab_report_snapshot(struct lab_db *db, struct lab_report *r,
    struct lab_err *err)
{
	const struct lab_report_host	*h;
	const struct lab_report_port	*p;
	struct lab_buf			 b;
	struct macs			 macs;
	char				 num[32];
	size_t				 i, j;

	lab_buf_init(&b);
	for (i = 0; i < r->nhosts; i++) {
		h = &r->hosts[i];
		lab_buf_adds(&b, "h");
		add_field(&b, h->name);
		lab_buf_addc(&b, '\n');
		if (h->bmc != NULL) {
			lab_buf_adds(&b, "p");
			add_field(&b, h->name);
			add_field(&b, h->power ? h->power : "unknown");
			lab_buf_addc(&b, '\n');
		}
		if (h->bmc != NULL && h->power_checked != 0) {
			lab_buf_adds(&b, "r");
			add_field(&b, h->name);
			add_field(&b, h->bmc_reachable ? "reachable" :
			    "unreachable");
			lab_buf_addc(&b, '\n');
		}
		for (j = 0; j < h->nnics; j++) {
			if (h->nics[j].switch_name == NULL)
				continue;
			lab_buf_adds(&b, "l");
			add_field(&b, h->name);
			add_field(&b, h->nics[j].name);
			add_field(&b, h->nics[j].switch_name);
			add_field(&b, h->nics[j].port);
			lab_buf_addc(&b, '\n');
		}
		for (j = 0; j < h->ndisks; j++) {
			snprintf(num, sizeof(num), "%llu",
			    (unsigned long long)h->disks[j].size_bytes);
			lab_buf_adds(&b, "d");
			add_field(&b, h->name);
			add_field(&b, h->disks[j].slot);
			add_field(&b, num);
			lab_buf_addc(&b, '\n');
		}
	}
	for (i = 0; i < r->nswitches; i++)
		for (j = 0; j < r->switches[i].nports; j++) {
			p = &r->switches[i].ports[j];
			if (p->host == NULL)
				continue;
			snprintf(num, sizeof(num), "%lld", p->speed_mbps);
			lab_buf_adds(&b, "s");
			add_field(&b, r->switches[i].name);
			add_field(&b, p->name);
			add_field(&b, num);
			add_field(&b, p->duplex);
			add_field(&b, p->host);
			lab_buf_addc(&b, '\n');
		}
	macs.r = r;
	macs.b = &b;
	if (lab_db_report_macs(db, add_mac, &macs, err) == -1) {
		lab_buf_release(&b);
		return -1;
	}
	if (b.oom) {
		lab_buf_release(&b);
		return lab_err_oom(err);
	}
	r->snapshot = lab_buf_steal(&b);
	return 0;
}

static int
kind_rank(char k)
{
	const char	*order = "hprlsmd";
	const char	*p = strchr(order, k);

	return p == NULL || k == '\0' ? 99 : (int)(p - order);
}

static size_t
key_fields(char k)
{
	/* fields after the kind that make the key */
	return k == 'h' || k == 'p' || k == 'r' ? 1 : 2;
}

static int
fact_cmp(const void *a, const void *b)
{
	const struct fact	*x = a, *y = b;
	size_t			 n = x->keylen < y->keylen ? x->keylen :
				    y->keylen;
	int			 c;

	if ((c = kind_rank(x->line[0]) - kind_rank(y->line[0])) != 0)
		return c;
	if ((c = strncmp(x->line, y->line, n)) != 0)
		return c;
	return (x->keylen > y->keylen) - (x->keylen < y->keylen);
}

static int
facts_parse(const char *text, struct facts *f)
{
	struct fact	*v;
	char		*line, *next, *p;
	size_t		 k;

	memset(f, 0, sizeof(*f));
	if ((f->text = lab_strdup(text ? text : "")) == NULL)
		return -1;
	for (line = f->text; *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (kind_rank(line[0]) == 99 || line[1] != '\t')
			continue;
		/* the key ends at the tab after its last field */
		for (p = line, k = 0; k <= key_fields(line[0]) && p != NULL;
		    k++)
			if ((p = strchr(p, '\t')) != NULL &&
			    k < key_fields(line[0]))
				p++;
		if ((v = lab_push(&f->v, &f->n, sizeof(*v))) == NULL)
			return -1;
		v->line = line;
		v->keylen = p == NULL ? strlen(line) : (size_t)(p - line);
	}
	if (f->n > 0)
		qsort(f->v, f->n, sizeof(*f->v), fact_cmp);
	return 0;
}

static void
facts_release(struct facts *f)
{
	free(f->text);
	free(f->v);
}

/* Field i (0 is the kind) of a line, copied into buf. */
static const char *
field(const char *line, int i, char *buf, size_t len)
{
	const char	*e;
	size_t		 n;

	for (; i > 0 && line != NULL; i--)
		if ((line = strchr(line, '\t')) != NULL)
			line++;
	if (line == NULL)
		return "";
	e = strchr(line, '\t');
	n = e == NULL ? strlen(line) : (size_t)(e - line);
	if (n >= len)
		n = len - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return buf;
}

static const char *
value(const struct fact *f)
{
	return f->line[f->keylen] == '\t' ? f->line + f->keylen + 1 : "";
}

static int
has_host(const struct facts *f, const char *host)
{
	struct fact	 k;
	char		 line[300];

	if (f->n == 0)
		return 0;	/* bsearch() wants a base, even for 0 items */
	snprintf(line, sizeof(line), "h\t%s", host);
	k.line = line;
	k.keylen = strlen(line);
	return bsearch(&k, f->v, f->n, sizeof(*f->v), fact_cmp) != NULL;
}

static int
change(struct lab_report *r, const char *kind, const char *subject,
    char *message)
{
	struct lab_report_change	*c;

	if (message == NULL || (c = lab_push(&r->changes, &r->nchanges,
	    sizeof(*c))) == NULL) {
		free(message);
		return -1;
	}
	c->kind = lab_strdup(kind);
	c->subject = lab_strdup(subject);
	c->message = message;
	return c->kind == NULL || c->subject == NULL ? -1 : 0;
}

static char *
size_text(const char *bytes)
{
	char	buf[32];

	lab_format_size_human(strtoull(bytes, NULL, 10), buf, sizeof(buf));
	return lab_strdup(buf);
}

/* One fact only in the old snapshot (a = NULL) or only in the new. */
static int
one_side(struct lab_report *r, const struct facts *old,
    const struct facts *cur, const struct fact *gone, const struct fact *added)
{
	const struct fact	*f = gone ? gone : added;
	char			 a[256], b[256], subj[520];

	field(f->line, 1, a, sizeof(a));
	field(f->line, 2, b, sizeof(b));
	switch (f->line[0]) {
	case 'h':
		return change(r, added ? "host-added" : "host-removed", a,
		    lab_strdup(added ? "added to the inventory" :
		    "removed from the inventory"));
	case 'm':
		if (gone)
			return 0;
		snprintf(subj, sizeof(subj), "%s %s", a, b);
		return change(r, "unknown-mac", subj, lab_asprintf("new MAC no "
		    "inventory NIC owns, on port %s", value(f)));
	case 'd':
		/* a disk of a host added or removed is not news of its own */
		if (!has_host(old, a) || !has_host(cur, a))
			return 0;
		snprintf(subj, sizeof(subj), "%s disk %s", a, b);
		{
			char	*sz = size_text(value(f));
			char	*msg = sz == NULL ? NULL : lab_asprintf("%s %s",
				    sz, added ? "added" : "gone");

			free(sz);
			return change(r, added ? "disk-added" : "disk-gone",
			    subj, msg);
		}
	default:
		/* power, reachability (a BMC checked for the first time),
		   links and ports that appear or vanish: no change */
		return 0;
	}
}

static void
spaces(char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '\t')
			*s = ' ';
}

/* A fact in both snapshots with different values. */
static int
both(struct lab_report *r, const struct fact *o, const struct fact *n)
{
	char	a[256], b[256], subj[520], ov[300], nv[300];

	if (strcmp(value(o), value(n)) == 0)
		return 0;
	field(n->line, 1, a, sizeof(a));
	field(n->line, 2, b, sizeof(b));
	switch (n->line[0]) {
	case 'p':
		return change(r, "power", a, lab_asprintf("%s -> %s", value(o),
		    value(n)));
	case 'r':
		return change(r, "bmc", a, lab_asprintf("%s -> %s", value(o),
		    value(n)));
	case 'l':
		snprintf(subj, sizeof(subj), "%s %s", a, b);
		snprintf(ov, sizeof(ov), "%s", value(o));
		snprintf(nv, sizeof(nv), "%s", value(n));
		spaces(ov);
		spaces(nv);
		return change(r, "nic-moved", subj, lab_asprintf("moved from "
		    "%s to %s", ov, nv));
	case 's':
		/* speed and duplex only: the host on it may change */
		{
			char	os[32], od[64], ns[32], nd[64], host[128];

			field(o->line, 3, os, sizeof(os));
			field(o->line, 4, od, sizeof(od));
			field(n->line, 3, ns, sizeof(ns));
			field(n->line, 4, nd, sizeof(nd));
			if (strcmp(os, ns) == 0 && strcmp(od, nd) == 0)
				return 0;
			field(n->line, 5, host, sizeof(host));
			snprintf(subj, sizeof(subj), "%s %s", a, b);
			return change(r, "port-speed", subj, lab_asprintf(
			    "%s Mb/s %s -> %s Mb/s %s (%s)", os, od, ns, nd,
			    host));
		}
	case 'd':
		snprintf(subj, sizeof(subj), "%s disk %s", a, b);
		{
			char	*os = size_text(value(o));
			char	*ns = size_text(value(n));
			char	*msg = os && ns ? lab_asprintf("replaced: %s "
				    "gone, %s added", os, ns) : NULL;

			free(os);
			free(ns);
			return change(r, "disk-added", subj, msg);
		}
	default:
		return 0;
	}
}

static int
compare(struct lab_report *r, const struct facts *old,
    const struct facts *cur)
{
	size_t	i = 0, j = 0;
	int	c;

	while (i < old->n || j < cur->n) {
		if (i == old->n)
			c = 1;
		else if (j == cur->n)
			c = -1;
		else
			c = fact_cmp(&old->v[i], &cur->v[j]);
		if (c < 0) {
			if (one_side(r, old, cur, &old->v[i++], NULL) == -1)
				return -1;
		} else if (c > 0) {
			if (one_side(r, old, cur, NULL, &cur->v[j++]) == -1)
				return -1;
		} else if (both(r, &old->v[i++], &cur->v[j++]) == -1)
			return -1;
	}
	return 0;
}

/* Lists the changes since the baseline: run since_run when it is not 0,
 * else the last run (at or before since_time when that is not 0). */
int
lab_report_changes(struct lab_db *db, struct lab_report *r,
    int64_t since_run, int64_t since_time, struct lab_err *err)
{
	struct facts	 old, cur;
	char		*prev;
	int		 rc;

	if (lab_db_report_baseline(db, since_run, since_time,
	    &r->previous_id, &r->previous_run, &prev, err) == -1)
		return -1;
	if (since_run != 0 && r->previous_id == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "no report run %lld "
		    "in '%s': 'lab report --runs' lists them",
		    (long long)since_run, lab_db_path(db));
	if (prev == NULL)
		return 0;
	rc = 0;
	memset(&cur, 0, sizeof(cur));
	if (facts_parse(prev, &old) == -1 ||
	    facts_parse(r->snapshot, &cur) == -1 ||
	    compare(r, &old, &cur) == -1)
		rc = lab_err_oom(err);
	facts_release(&old);
	facts_release(&cur);
	free(prev);
	return rc;
}

/* Records a report run: the baseline of the next report. */
int
lab_report_record(struct lab_db *db, const struct lab_report *r,
    int64_t *id, struct lab_err *err)
{
	return lab_db_report_record(db, r->generated_at,
	    r->snapshot ? r->snapshot : "", id, err);
}
