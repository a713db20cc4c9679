/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"

/*
 * The bench data model (include/lab/bench.h): its words, stored in the
 * database and printed in the JSON, and the functions that free it. Here,
 * below lib/db/ and lib/bench/, so both share one spelling.
 */
static const char *const test_names[LAB_BENCH_NTESTS] = {
	"seq-read", "seq-write", "rand-read", "rand-write"
};

static int
word_index(const char *const *words, size_t n, const char *word)
{
	size_t	i;

	for (i = 0; word != NULL && i < n; i++)
		if (strcmp(words[i], word) == 0)
			return (int)i;
	return -1;
}

const char *
lab_bench_test_name(enum lab_bench_test t)
{
	return (unsigned)t < LAB_BENCH_NTESTS ? test_names[t] : "unknown";
}

int
lab_bench_test_parse(const char *word)
{
	return word_index(test_names, LAB_BENCH_NTESTS, word);
}

int
lab_bench_test_writes(enum lab_bench_test t)
{
	return t == LAB_BENCH_SEQ_WRITE || t == LAB_BENCH_RAND_WRITE;
}

static const char *const target_names[] = { "device", "file" };

const char *
lab_bench_target_name(enum lab_bench_target t)
{
	return t == LAB_BENCH_TARGET_FILE ? "file" : "device";
}

int
lab_bench_target_parse(const char *word)
{
	return word_index(target_names, 2, word);
}

static const char *const health_names[] = { "unknown", "passed", "failed" };

const char *
lab_smart_health_name(enum lab_smart_health h)
{
	return (unsigned)h < 3 ? health_names[h] : "unknown";
}

int
lab_smart_health_parse(const char *word)
{
	return word_index(health_names, 3, word);
}

static const char *const status_names[] = { "running", "done", "failed" };

const char *
lab_bench_status_name(enum lab_bench_status s)
{
	return (unsigned)s < 3 ? status_names[s] : "failed";
}

static const char *const profile_names[] = { "quick", "full" };

const char *
lab_bench_profile_name(enum lab_bench_profile p)
{
	return p == LAB_BENCH_FULL ? "full" : "quick";
}

int
lab_bench_profile_parse(const char *word)
{
	return word_index(profile_names, 2, word);
}

void
lab_bench_result_release(struct lab_bench_result *r)
{
	free(r->target);
	free(r->why);
	memset(r, 0, sizeof(*r));
}

void
lab_smart_init(struct lab_smart *s)
{
	memset(s, 0, sizeof(*s));
	s->health = LAB_SMART_UNKNOWN;
	s->reallocated = s->pending = s->offline_uncorrectable = -1;
	s->power_on_hours = s->temperature_c = -1;
}

void
lab_smart_release(struct lab_smart *s)
{
	free(s->model);
	free(s->serial);
	free(s->firmware);
	free(s->message);
	lab_smart_init(s);
}

void
lab_bench_disk_init(struct lab_bench_disk *d)
{
	memset(d, 0, sizeof(*d));
	lab_smart_init(&d->smart);
	d->burnin.errors = -1;
}

void
lab_bench_disk_release(struct lab_bench_disk *d)
{
	size_t	i;

	free(d->host);
	free(d->slot);
	free(d->device);
	free(d->serial);
	free(d->model);
	free(d->kind);
	free(d->controller);
	for (i = 0; i < d->nresults; i++)
		lab_bench_result_release(&d->results[i]);
	free(d->results);
	lab_smart_release(&d->smart);
	free(d->burnin.method);
	free(d->burnin.detail);
	free(d->skipped);
	lab_bench_disk_init(d);
}

void
lab_bench_disks_release(struct lab_bench_disks *ds)
{
	size_t	i;

	for (i = 0; i < ds->n; i++)
		lab_bench_disk_release(&ds->v[i]);
	free(ds->v);
	ds->v = NULL;
	ds->n = 0;
}

void
lab_bench_run_release(struct lab_bench_run *r)
{
	free(r->host);
	free(r->profile);
	free(r->message);
	lab_bench_disks_release(&r->disks);
	memset(r, 0, sizeof(*r));
}

void
lab_bench_findings_release(struct lab_bench_findings *f)
{
	size_t	i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].subject);
		free(f->v[i].message);
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}
