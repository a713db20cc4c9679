/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"
#include "lab/facts.h"
#include "lab/report.h"
#include "lab/text.h"
#include "report-priv.h"

/*
 * The report as a node_exporter textfile (the Prometheus text exposition
 * format 0.0.4): gauges only, each with # HELP and # TYPE, label values
 * escaped as the format says (a backslash, a double quote and a newline;
 * bytes that are not UTF-8 become U+FFFD). A metric
 * with nothing to count keeps its HELP and TYPE and has no sample.
 */

struct count {
	const char	*host;
	const char	*severity;
	const char	*kind;
	size_t		 n;
};

struct counts {
	struct count	*v;
	size_t		 n;
	int		 oom;
};

static void
bump(struct counts *c, const char *host, const char *severity,
    const char *kind)
{
	struct count	*x;
	size_t		 i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].host, host) == 0 &&
		    strcmp(c->v[i].severity, severity) == 0 &&
		    strcmp(c->v[i].kind, kind) == 0) {
			c->v[i].n++;
			return;
		}
	if ((x = lab_push(&c->v, &c->n, sizeof(*x))) == NULL) {
		c->oom = 1;
		return;
	}
	x->host = host;
	x->severity = severity;
	x->kind = kind;
	x->n = 1;
}

static void
esc(struct lab_buf *b, const char *s)
{
	size_t	n;

	for (; s != NULL && *s != '\0'; s += n) {
		n = 1;
		if (*s == '\\')
			lab_buf_adds(b, "\\\\");
		else if (*s == '"')
			lab_buf_adds(b, "\\\"");
		else if (*s == '\n')
			lab_buf_adds(b, "\\n");
		else if ((n = lab_utf8_len(s)) == 0) {
			lab_buf_adds(b, "\xef\xbf\xbd");	/* U+FFFD */
			n = 1;
		} else
			lab_buf_add(b, s, n);
	}
}

static void
head(struct lab_buf *b, const char *name, const char *help)
{
	lab_buf_addf(b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* name{k1="v1",...} (NULL-ended key, value pairs) */
static void
sample(struct lab_buf *b, const char *name, const char *const *kv)
{
	size_t	i;

	lab_buf_adds(b, name);
	if (kv[0] != NULL)
		lab_buf_addc(b, '{');
	for (i = 0; kv[i] != NULL; i += 2) {
		lab_buf_addf(b, "%s%s=\"", i ? "," : "", kv[i]);
		esc(b, kv[i + 1] != NULL ? kv[i + 1] : "");
		lab_buf_addc(b, '"');
	}
	if (kv[0] != NULL)
		lab_buf_addc(b, '}');
}

/* The host or switch a report finding's subject begins with, or "". */
static const char *
subject_of(const struct lab_report *r, const char *subject)
{
	size_t	i, n;

	if (subject == NULL)
		return "";
	n = strcspn(subject, " :");
	for (i = 0; i < r->nhosts; i++)
		if (strlen(r->hosts[i].name) == n &&
		    strncmp(r->hosts[i].name, subject, n) == 0)
			return r->hosts[i].name;
	for (i = 0; i < r->nswitches; i++)
		if (strlen(r->switches[i].name) == n &&
		    strncmp(r->switches[i].name, subject, n) == 0)
			return r->switches[i].name;
	return "";
}

static void
findings(const struct lab_report *r, struct lab_buf *b)
{
	struct counts	c = { NULL, 0, 0 };
	size_t		i;

	for (i = 0; i < r->nfindings; i++)
		bump(&c, subject_of(r, r->findings[i].subject),
		    r->findings[i].severity, r->findings[i].kind != NULL ?
		    r->findings[i].kind : "other");
	for (i = 0; i < r->ndrift_findings; i++)
		bump(&c, r->drift_findings[i].subject_name,
		    r->drift_findings[i].f.severity,
		    r->drift_findings[i].f.kind);
	if (c.oom)
		b->oom = 1;
	head(b, "lab_findings", "Findings of the report and of the last "
	    "facts runs, by host (or switch), severity and kind.");
	for (i = 0; i < c.n; i++) {
		const char *kv[] = { "host", c.v[i].host, "severity",
			c.v[i].severity, "kind", c.v[i].kind, NULL };

		sample(b, "lab_findings", kv);
		lab_buf_addf(b, " %zu\n", c.v[i].n);
	}
	free(c.v);
}

/* Drift findings and fact changes by host and switch: 0 for a host
   without, so that an alert sees it go back to 0. */
static void
drift(const struct lab_report *r, struct lab_buf *b, int changes)
{
	const char	*name = changes ? "lab_drift_changes" :
			    "lab_drift_findings";
	struct counts	 c = { NULL, 0, 0 };
	size_t		 i, n;

	for (i = 0; i < r->nhosts && !c.oom; i++) {
		bump(&c, r->hosts[i].name, "", "");
		if (!c.oom)
			c.v[c.n - 1].n = 0;
	}
	n = changes ? r->ndrift_changes : r->ndrift_findings;
	for (i = 0; i < n && !c.oom; i++)
		bump(&c, changes ? r->drift_changes[i].subject :
		    r->drift_findings[i].subject_name, "", "");
	if (c.oom)
		b->oom = 1;
	head(b, name, changes ? "Facts changed since the report's baseline "
	    "(firmware upgraded, disk swapped, ...), by host (or switch)." :
	    "Drift findings of the last facts run, by host (or switch).");
	for (i = 0; i < c.n && !c.oom; i++) {
		const char *kv[] = { "host", c.v[i].host, NULL };

		sample(b, name, kv);
		lab_buf_addf(b, " %zu\n", c.v[i].n);
	}
	free(c.v);
}

static void
power(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_report_host	*h;
	size_t				 i;

	head(b, "lab_power_on", "1 when the host's last known power state is "
	    "on, 0 when off (hosts whose state is unknown have no sample).");
	for (i = 0; i < r->nhosts; i++) {
		const char *kv[] = { "host", r->hosts[i].name, NULL };

		h = &r->hosts[i];
		if (h->power == NULL || (strcmp(h->power, "on") != 0 &&
		    strcmp(h->power, "off") != 0))
			continue;
		sample(b, "lab_power_on", kv);
		lab_buf_addf(b, " %d\n", strcmp(h->power, "on") == 0);
	}
	head(b, "lab_bmc_reachable", "1 when the host's BMC answered its last "
	    "check, 0 when not (hosts never checked have no sample).");
	for (i = 0; i < r->nhosts; i++) {
		const char *kv[] = { "host", r->hosts[i].name, NULL };

		h = &r->hosts[i];
		if (h->bmc == NULL || h->power_checked == 0)
			continue;
		sample(b, "lab_bmc_reachable", kv);
		lab_buf_addf(b, " %d\n", h->bmc_reachable ? 1 : 0);
	}
}

static const struct lab_report_port *
port_named(const struct lab_report *r, const char *sw, const char *port)
{
	size_t	i, j;

	for (i = 0; i < r->nswitches; i++) {
		if (strcmp(r->switches[i].name, sw) != 0)
			continue;
		for (j = 0; j < r->switches[i].nports; j++)
			if (r->switches[i].ports[j].name != NULL &&
			    strcmp(r->switches[i].ports[j].name, port) == 0)
				return &r->switches[i].ports[j];
	}
	return NULL;
}

static void
links(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_report_nic	*n;
	const struct lab_report_port	*p;
	size_t				 i, j;
	long long			 v;

	head(b, "lab_link_speed_mbps", "The speed in Mb/s the switch gives "
	    "the port each NIC was last seen on (ifHighSpeed; 0 when the port "
	    "is down or its speed suspect).");
	for (i = 0; i < r->nhosts; i++)
		for (j = 0; j < r->hosts[i].nnics; j++) {
			n = &r->hosts[i].nics[j];
			if (n->switch_name == NULL || n->port == NULL ||
			    (p = port_named(r, n->switch_name, n->port)) ==
			    NULL)
				continue;
			{
				const char *kv[] = { "host", r->hosts[i].name,
					"nic", n->name, "switch",
					n->switch_name, "port", n->port,
					NULL };

				v = p->speed_suspect || p->speed_mbps < 0 ||
				    (p->oper_status != NULL &&
				    strcmp(p->oper_status, "up") != 0) ? 0 :
				    p->speed_mbps;
				sample(b, "lab_link_speed_mbps", kv);
				lab_buf_addf(b, " %lld\n", v);
			}
		}
}

static void
bench(const struct lab_report *r, struct lab_buf *b)
{
	const struct lab_bench_disk	*d;
	size_t				 i, j, k;

	head(b, "lab_bench_bytes_per_second", "Each disk's throughput in its "
	    "host's last done bench run, by test (seq-read, seq-write, "
	    "rand-read, rand-write).");
	for (i = 0; i < r->nhosts; i++) {
		const struct lab_bench_run *run = r->hosts[i].bench;

		for (j = 0; run != NULL && j < run->disks.n; j++) {
			d = &run->disks.v[j];
			for (k = 0; k < d->nresults; k++) {
				const char *kv[] = { "host", r->hosts[i].name,
					"slot", d->slot, "device", d->device,
					"serial", d->serial, "test",
					lab_bench_test_name(d->results[k].test),
					NULL };

				sample(b, "lab_bench_bytes_per_second", kv);
				lab_buf_addf(b, " %.0f\n",
				    d->results[k].mb_s * 1e6);
			}
		}
	}
	head(b, "lab_bench_run_timestamp_seconds", "When the host's last done "
	    "bench run started (Unix time).");
	for (i = 0; i < r->nhosts; i++) {
		const char *kv[] = { "host", r->hosts[i].name, NULL };

		if (r->hosts[i].bench == NULL)
			continue;
		sample(b, "lab_bench_run_timestamp_seconds", kv);
		lab_buf_addf(b, " %lld\n",
		    (long long)r->hosts[i].bench->started_at);
	}
}

void
lab_report_prometheus(const struct lab_report *r, struct lab_buf *b)
{
	head(b, "lab_report_generated_timestamp_seconds", "When lab report "
	    "wrote this file (Unix time).");
	lab_buf_addf(b, "lab_report_generated_timestamp_seconds %lld\n",
	    (long long)r->generated_at);
	findings(r, b);
	drift(r, b, 0);
	drift(r, b, 1);
	power(r, b);
	links(r, b);
	bench(r, b);
}
