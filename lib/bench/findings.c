/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"

/*
 * The findings of a bench run (pure: figures in, findings out).
 *
 * Peers of a disk, for one test: the other disks of the same kind on the
 * same host (sata with sata, ...) that have a result of that test on the
 * same kind of target (a device with devices, a file with files); when
 * there are none, the disks of the same model anywhere in the lab (the
 * run's and `others`, the last runs of other hosts). The disk itself is
 * never its own peer; a disk with no peer is compared with nothing.
 *
 * slow-disk (warning): a disk's MB/s for a test is below 0.5x the median
 *   of its peers' for that test, or below 0.5x the median of its own
 *   earlier runs (history, by serial). One finding a test.
 * slow-write-path (warning): the disk's seq-read is within 20% of its
 *   peers' median seq-read, but its seq-write / seq-read ratio is below
 *   0.5x the median ratio of its peers: the reads say the disk is fine,
 *   so the writes lose their speed on the way (the seed's SC44Ge HBA:
 *   11.3 MB/s written against 31.6 MB/s on the onboard ICH9, with equal
 *   reads). Names the controller; suggests the write cache, the link
 *   speed, the port.
 * smart (critical): the SMART health check failed. (warning) a count of
 *   reallocated (ATA 5), pending (197) or offline-uncorrectable (198)
 *   sectors above 0; (critical) when one grew since the disk's last
 *   stored run.
 * burnin-errors (critical): a burn-in that found errors.
 *
 * The findings come most severe first, then in the order of the disks.
 * Unit cases: tests/unit/test-bench.c; figures from fio's JSON
 * (tests/fixtures/fio/) and smartctl's (tests/fixtures/smart/).
 */
#define SLOW_FACTOR	0.5
#define READ_SAME	0.2

struct ctx {
	const struct lab_bench_findings_in	*in;
	struct lab_bench_findings		*out;
	size_t					 first;	/* ours */
	int					 oom;
};

static const struct lab_bench_result *
result_of(const struct lab_bench_disk *d, enum lab_bench_test t)
{
	size_t	i;

	for (i = 0; i < d->nresults; i++)
		if (d->results[i].test == t)
			return &d->results[i];
	return NULL;
}

static int
same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n), n > 0 (v is sorted). */
static double
median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const struct lab_bench_disk *
disk_at(const struct lab_bench_findings_in *in, size_t i)
{
	return i < in->ndisks ? &in->disks[i] : &in->others[i - in->ndisks];
}

/* 1 when the rule that picks peers picks p for d. */
static int
peer_by(const struct lab_bench_disk *d, const struct lab_bench_disk *p,
    int by_model)
{
	if (p == d)
		return 0;
	if (by_model)
		return same(d->model, p->model);
	return same(d->host, p->host) && same(d->kind, p->kind);
}

/*
 * The peers' figures for test (ratio: the seq-write / seq-read ratio
 * instead, and reads in *reads), on the same kind of target as mine.
 * Returns how many, the rule in *by_model. v holds ndisks + nothers.
 */
static size_t
peer_values(const struct lab_bench_findings_in *in,
    const struct lab_bench_disk *d, enum lab_bench_test test,
    enum lab_bench_target target, int ratio, double *v, double *reads,
    int *by_model)
{
	const struct lab_bench_disk	*p;
	const struct lab_bench_result	*r, *w;
	size_t				 i, n, total = in->ndisks + in->nothers;

	for (*by_model = 0; *by_model < 2; (*by_model)++) {
		n = 0;
		for (i = 0; i < total; i++) {
			p = disk_at(in, i);
			if (!peer_by(d, p, *by_model))
				continue;
			r = result_of(p, ratio ? LAB_BENCH_SEQ_READ : test);
			if (r == NULL || r->target_kind != target ||
			    !(r->mb_s >= 0))
				continue;
			if (!ratio) {
				v[n++] = r->mb_s;
				continue;
			}
			w = result_of(p, LAB_BENCH_SEQ_WRITE);
			if (w == NULL || w->target_kind != target ||
			    !(r->mb_s > 0) || !(w->mb_s >= 0))
				continue;
			reads[n] = r->mb_s;
			v[n++] = w->mb_s / r->mb_s;
		}
		if (n > 0)
			return n;
	}
	*by_model = 0;
	return 0;
}

static void
add(struct ctx *c, const char *severity, const char *kind,
    const struct lab_bench_disk *d, const char *fmt, ...)
    LAB_PRINTF(5, 6);

static void
add(struct ctx *c, const char *severity, const char *kind,
    const struct lab_bench_disk *d, const char *fmt, ...)
{
	struct lab_bench_finding	*f;
	struct lab_buf			 subj, msg;
	va_list				 ap;
	const char			*dev;

	if (c->oom)
		return;
	lab_buf_init(&subj);
	lab_buf_init(&msg);
	dev = d->device != NULL ? strrchr(d->device, '/') : NULL;
	dev = dev != NULL && dev[1] != '\0' ? dev + 1 : d->device;
	lab_buf_addf(&subj, "%s %s (slot %s)", d->host != NULL ? d->host :
	    "?", dev != NULL ? dev : "-", d->slot != NULL ? d->slot : "?");
	lab_buf_addf(&msg, "%s (slot %s, serial %s) ", dev != NULL ? dev :
	    "-", d->slot != NULL ? d->slot : "?", d->serial != NULL ?
	    d->serial : "unknown");
	va_start(ap, fmt);
	{
		char	*s = NULL;

		if (vasprintf(&s, fmt, ap) == -1)
			msg.oom = 1;
		else
			lab_buf_adds(&msg, s);
		free(s);
	}
	va_end(ap);
	if (subj.oom || msg.oom ||
	    (f = lab_push(&c->out->v, &c->out->n, sizeof(*f))) == NULL) {
		lab_buf_release(&subj);
		lab_buf_release(&msg);
		c->oom = 1;
		return;
	}
	f->severity = severity;
	f->kind = kind;
	f->subject = lab_buf_steal(&subj);
	f->message = lab_buf_steal(&msg);
}

static const char *
verb(enum lab_bench_test t)
{
	switch (t) {
	case LAB_BENCH_SEQ_READ:
		return "reads";
	case LAB_BENCH_SEQ_WRITE:
		return "writes";
	case LAB_BENCH_RAND_READ:
		return "reads 4 KiB at random at";
	default:
		return "writes 4 KiB at random at";
	}
}

static void
slow_disk(struct ctx *c, size_t i, double *v, double *reads)
{
	const struct lab_bench_findings_in	*in = c->in;
	const struct lab_bench_disk		*d = &in->disks[i];
	const struct lab_bench_result		*r;
	const struct lab_bench_disks		*h;
	double					 med;
	size_t					 k, n, j;
	int					 by_model;

	for (k = 0; k < d->nresults; k++) {
		r = &d->results[k];
		if (!(r->mb_s >= 0) || (unsigned)r->test >= LAB_BENCH_NTESTS)
			continue;
		n = peer_values(in, d, r->test, r->target_kind, 0, v, reads,
		    &by_model);
		if (n > 0 && (med = median(v, n)) > 0 &&
		    r->mb_s < SLOW_FACTOR * med)
			add(c, "warning", "slow-disk", d, "%s %.1f MB/s, %.2fx "
			    "the median %.1f MB/s of its %zu %s (%s)",
			    verb(r->test), r->mb_s, r->mb_s / med, med, n,
			    n == 1 ? "peer" : "peers", by_model ?
			    "the same model across the lab" :
			    "the same kind on the host");
		h = in->history != NULL ? &in->history[i] : NULL;
		if (h == NULL)
			continue;
		for (j = n = 0; j < h->n; j++) {
			const struct lab_bench_result *p =
			    result_of(&h->v[j], r->test);

			if (p != NULL && p->target_kind == r->target_kind &&
			    p->mb_s >= 0)
				v[n++] = p->mb_s;
		}
		if (n > 0 && (med = median(v, n)) > 0 &&
		    r->mb_s < SLOW_FACTOR * med)
			add(c, "warning", "slow-disk", d, "%s %.1f MB/s, %.2fx "
			    "its own median %.1f MB/s over %zu earlier %s",
			    verb(r->test), r->mb_s, r->mb_s / med, med, n,
			    n == 1 ? "run" : "runs");
	}
}

static void
slow_write_path(struct ctx *c, size_t i, double *v, double *reads)
{
	const struct lab_bench_disk	*d = &c->in->disks[i];
	const struct lab_bench_result	*r, *w;
	double				 ratio, mratio, mread;
	size_t				 n;
	int				 by_model;

	r = result_of(d, LAB_BENCH_SEQ_READ);
	w = result_of(d, LAB_BENCH_SEQ_WRITE);
	if (r == NULL || w == NULL || r->target_kind != w->target_kind ||
	    !(r->mb_s > 0) || !(w->mb_s >= 0))
		return;
	n = peer_values(c->in, d, LAB_BENCH_SEQ_WRITE, r->target_kind, 1, v,
	    reads, &by_model);
	if (n == 0)
		return;
	mratio = median(v, n);
	mread = median(reads, n);
	ratio = w->mb_s / r->mb_s;
	if (!(mread > 0) || fabs(r->mb_s / mread - 1) > READ_SAME ||
	    !(mratio > 0) || ratio >= SLOW_FACTOR * mratio)
		return;
	add(c, "warning", "slow-write-path", d, "writes %.1f MB/s but reads "
	    "%.1f MB/s: write/read %.2f, %.2fx the %.2f of its %zu %s, whose "
	    "reads are the same within 20%% (median %.1f MB/s); the writes "
	    "are slow on the way to the disk: on controller %s, check the "
	    "write cache, the link speed and the port (or cable it to "
	    "another controller)", w->mb_s, r->mb_s, ratio, ratio / mratio,
	    mratio, n, n == 1 ? "peer" : "peers", mread,
	    d->controller != NULL ? d->controller : "(not declared)");
}

static void
smart(struct ctx *c, size_t i)
{
	const struct lab_bench_disk	*d = &c->in->disks[i];
	const struct lab_bench_disk	*last = NULL;
	const struct lab_smart		*s = &d->smart;
	const char			*names[] = { "reallocated", "pending",
					    "offline-uncorrectable" };
	int64_t				 now[3], before[3] = { -1, -1, -1 };
	struct lab_buf			 b;
	size_t				 k;
	int				 grown = 0, any = 0;

	if (s->health == LAB_SMART_FAILED)
		add(c, "critical", "smart", d, "failed its SMART health check "
		    "(model %s, firmware %s): copy its data off and replace it",
		    s->model != NULL ? s->model : d->model != NULL ? d->model :
		    "unknown", s->firmware != NULL ? s->firmware : "unknown");
	if (c->in->history != NULL && c->in->history[i].n > 0)
		last = &c->in->history[i].v[c->in->history[i].n - 1];
	now[0] = s->reallocated;
	now[1] = s->pending;
	now[2] = s->offline_uncorrectable;
	if (last != NULL) {
		before[0] = last->smart.reallocated;
		before[1] = last->smart.pending;
		before[2] = last->smart.offline_uncorrectable;
	}
	lab_buf_init(&b);
	for (k = 0; k < 3; k++) {
		if (now[k] <= 0)
			continue;
		lab_buf_addf(&b, "%s%" PRId64 " %s", any++ ? ", " : "", now[k],
		    names[k]);
		if (before[k] >= 0 && now[k] > before[k]) {
			lab_buf_addf(&b, " (up from %" PRId64 " at the last "
			    "run)", before[k]);
			grown = 1;
		}
	}
	if (b.oom)
		c->oom = 1;
	else if (any)
		add(c, grown ? "critical" : "warning", "smart", d, "has bad "
		    "sectors: %s%s", b.s, grown ? ": they are growing, "
		    "replace it" : "");
	lab_buf_release(&b);
}

static void
burnin(struct ctx *c, size_t i)
{
	const struct lab_bench_disk	*d = &c->in->disks[i];

	if (!d->burnin.ran || d->burnin.errors <= 0)
		return;
	add(c, "critical", "burnin-errors", d, "burn-in (%s) found %" PRId64
	    " %s%s%s%s", d->burnin.method != NULL ? d->burnin.method :
	    "unknown method", d->burnin.errors, d->burnin.errors == 1 ?
	    "error" : "errors", d->burnin.detail != NULL ? " (" : "",
	    d->burnin.detail != NULL ? d->burnin.detail : "",
	    d->burnin.detail != NULL ? ")" : "");
}

static int
rank(const char *severity)
{
	if (strcmp(severity, "critical") == 0)
		return 0;
	return strcmp(severity, "warning") == 0 ? 1 : 2;
}

int
lab_bench_findings(const struct lab_bench_findings_in *in,
    struct lab_bench_findings *out, struct lab_err *err)
{
	struct ctx	c = { in, out, out->n, 0 };
	double		*v, *reads;
	size_t		 i, j, total = in->ndisks + in->nothers;

	if (total == 0)
		return 0;
	v = calloc(total, sizeof(*v));
	reads = calloc(total, sizeof(*reads));
	if (v == NULL || reads == NULL) {
		free(v);
		free(reads);
		return lab_err_oom(err);
	}
	for (i = 0; i < in->ndisks; i++) {
		/* the history holds as many as a disk has runs: room for
		   them */
		if (in->history != NULL && in->history[i].n > total) {
			double *nv = realloc(v, in->history[i].n * sizeof(*v));

			if (nv == NULL) {
				c.oom = 1;
				break;
			}
			v = nv;
			total = in->history[i].n;
			nv = realloc(reads, total * sizeof(*reads));
			if (nv == NULL) {
				c.oom = 1;
				break;
			}
			reads = nv;
		}
		smart(&c, i);
		burnin(&c, i);
		slow_disk(&c, i, v, reads);
		slow_write_path(&c, i, v, reads);
	}
	free(v);
	free(reads);
	/* most severe first, else as they came (a stable insertion sort of
	   ours: a run has tens of findings) */
	for (i = c.first + 1; i < out->n; i++) {
		struct lab_bench_finding f = out->v[i];

		for (j = i; j > c.first && rank(out->v[j - 1].severity) >
		    rank(f.severity); j--)
			out->v[j] = out->v[j - 1];
		out->v[j] = f;
	}
	if (c.oom)
		return lab_err_oom(err);
	return 0;
}
