/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench-pool.h"
#include "lab/str.h"

/*
 * The pool bench without a peer: the ZFS property table, the --set
 * combinations, the fio command, the medians.
 *
 * The properties a dataset may be created with (zfs create -o P=V), from
 * zfsprops(7) of OpenZFS 2.1 and zfs-fuse 0.7: what a setting table may
 * compare. zfs itself checks the values (and says so when it has no such
 * property: zfs-fuse has no sync, and no lz4).
 */
static const char *const settable[] = {
	"aclinherit", "aclmode", "acltype", "atime", "canmount", "checksum",
	"compression", "copies", "dedup", "devices", "dnodesize", "exec",
	"logbias", "nbmand", "primarycache", "quota", "readonly",
	"recordsize", "redundant_metadata", "refquota", "refreservation",
	"relatime", "reservation", "secondarycache", "setuid", "snapdir",
	"special_small_blocks", "sync", "volblocksize", "xattr", "casesensitivity",
	"normalization", "utf8only", "vscan",
};

/* The ones zfs computes: never set. */
static const char *const readonly[] = {
	"available", "avail", "compressratio", "createtxg", "creation",
	"guid", "logicalreferenced", "logicalused", "mounted", "origin",
	"refcompressratio", "referenced", "type", "used", "usedbychildren",
	"usedbydataset", "usedbyrefreservation", "usedbysnapshots",
	"userrefs", "written", "version", "objsetid", "encryptionroot",
	"keystatus", "snapshots_changed",
};

int
lab_pool_prop_kind(const char *p)
{
	size_t	i;

	for (i = 0; i < LAB_ARRAY_SIZE(settable); i++)
		if (strcmp(settable[i], p) == 0)
			return 1;
	for (i = 0; i < LAB_ARRAY_SIZE(readonly); i++)
		if (strcmp(readonly[i], p) == 0)
			return -1;
	return 0;
}

static int
value_ok(const char *v)
{
	for (; *v != '\0'; v++)
		if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') ||
		    (*v >= '0' && *v <= '9') || strchr("_.:+-", *v) != NULL))
			return 0;
	return 1;
}

void
lab_pool_sets_release(struct lab_pool_sets *s)
{
	size_t	i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->v[i].nvalues; j++)
			free(s->v[i].values[j]);
		free(s->v[i].values);
		free(s->v[i].prop);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int
parse_one(const char *w, struct lab_pool_set *set, struct lab_err *err)
{
	const char	*eq = strchr(w, '='), *p, *c;
	const char	*near;
	size_t		 n;

	memset(set, 0, sizeof(*set));
	if (eq == NULL || eq == w)
		return lab_err_set(err, LAB_EXIT_INPUT, "--set '%s': give "
		    "PROP=V1,V2 (compression=off,lz4)", w);
	if ((set->prop = strndup(w, (size_t)(eq - w))) == NULL)
		return lab_err_oom(err);
	switch (lab_pool_prop_kind(set->prop)) {
	case -1:
		return lab_err_set(err, LAB_EXIT_INPUT, "--set '%s': %s is a "
		    "read-only property (zfs computes it)", w, set->prop);
	case 0:
		near = lab_suggest(set->prop, settable,
		    LAB_ARRAY_SIZE(settable));
		if (near != NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "--set '%s': "
			    "unknown ZFS property '%s', did you mean '%s'?", w,
			    set->prop, near);
		return lab_err_set(err, LAB_EXIT_INPUT, "--set '%s': unknown "
		    "ZFS property '%s' (see zfsprops(7): one a dataset may be "
		    "created with)", w, set->prop);
	default:
		break;
	}
	for (p = eq + 1;; p = c + 1) {
		char	**v;

		c = strchr(p, ',');
		n = c != NULL ? (size_t)(c - p) : strlen(p);
		if (n == 0)
			return lab_err_set(err, LAB_EXIT_INPUT, "--set '%s': an "
			    "empty value", w);
		v = realloc(set->values, (set->nvalues + 1) * sizeof(*v));
		if (v == NULL)
			return lab_err_oom(err);
		set->values = v;
		if ((v[set->nvalues] = strndup(p, n)) == NULL)
			return lab_err_oom(err);
		if (!value_ok(v[set->nvalues++]))
			return lab_err_set(err, LAB_EXIT_INPUT, "--set '%s': the "
			    "value '%s' has a character outside A-Z a-z 0-9 "
			    "_ . : + -", w, v[set->nvalues - 1]);
		if (c == NULL)
			break;
	}
	return 0;
}

int
lab_pool_sets_parse(const char *const *words, size_t n,
    struct lab_pool_sets *out, struct lab_err *err)
{
	size_t	i, j;

	memset(out, 0, sizeof(*out));
	out->ncombos = 1;
	if (n > 0 && (out->v = calloc(n, sizeof(*out->v))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < n; i++) {
		out->n++;
		if (parse_one(words[i], &out->v[i], err) == -1)
			goto fail;
		for (j = 0; j < i; j++)
			if (strcmp(out->v[j].prop, out->v[i].prop) == 0) {
				lab_err_set(err, LAB_EXIT_INPUT, "--set '%s': %s "
				    "is given twice: give its values in one "
				    "--set", words[i], out->v[i].prop);
				goto fail;
			}
		out->ncombos *= out->v[i].nvalues;
		if (out->ncombos > LAB_POOL_MAX_COMBOS) {
			lab_err_set(err, LAB_EXIT_INPUT, "--set: more than %d "
			    "combinations", LAB_POOL_MAX_COMBOS);
			goto fail;
		}
	}
	return 0;
fail:
	lab_pool_sets_release(out);
	return -1;
}

void
lab_pool_combo_index(const struct lab_pool_sets *s, size_t k, size_t *idx)
{
	size_t	i = s->n;

	while (i-- > 0) {
		idx[i] = k % s->v[i].nvalues;
		k /= s->v[i].nvalues;
	}
}

static char *
combo(const struct lab_pool_sets *s, size_t k, int opts)
{
	struct lab_buf	b, w;
	size_t		idx[LAB_POOL_MAX_COMBOS], i;

	lab_pool_combo_index(s, k, idx);
	lab_buf_init(&b);
	for (i = 0; i < s->n; i++) {
		if (i > 0)
			lab_buf_addc(&b, ' ');
		lab_buf_init(&w);
		lab_buf_adds(&w, s->v[i].prop);
		lab_buf_addc(&w, '=');
		lab_buf_adds(&w, s->v[i].values[idx[i]]);
		if (opts) {
			lab_buf_adds(&b, "-o ");
			lab_sh_quote(&b, w.oom ? "" : w.s);
		} else
			lab_buf_adds(&b, w.s != NULL ? w.s : "");
		if (w.oom)
			b.oom = 1;
		lab_buf_release(&w);
	}
	if (s->n == 0 && !opts)
		lab_buf_adds(&b, "defaults");
	if (b.oom) {
		lab_buf_release(&b);
		return NULL;
	}
	return b.s != NULL ? lab_buf_steal(&b) : strdup("");
}

char *
lab_pool_combo_text(const struct lab_pool_sets *s, size_t k)
{
	return combo(s, k, 0);
}

char *
lab_pool_combo_opts(const struct lab_pool_sets *s, size_t k)
{
	return combo(s, k, 1);
}

char *
lab_pool_sets_props(const struct lab_pool_sets *s)
{
	struct lab_buf	b;
	size_t		i;

	lab_buf_init(&b);
	for (i = 0; i < s->n; i++) {
		if (i > 0)
			lab_buf_addc(&b, ' ');
		lab_buf_adds(&b, s->v[i].prop);
	}
	if (b.oom) {
		lab_buf_release(&b);
		return NULL;
	}
	return b.s != NULL ? lab_buf_steal(&b) : strdup("");
}

/*
 * The jobs in the seed's order (bonnie++'s block writes, then reads and
 * seeks): the write lays the file out for the reads. Buffered, with
 * end_fsync=1 on the writes: ZFS before 2.3 ignores O_DIRECT and
 * zfs-fuse passes it through FUSE, so direct I/O would not measure the
 * same thing everywhere; the reads drop the file's pages first
 * (invalidate=1) but the ARC may still hold it: a file larger than the
 * ARC (--profile full) is past it.
 */
static const struct {
	const char		*rw;
	const char		*bs;
	enum lab_bench_test	 test;
	int			 fsync;
} pool_jobs[] = {
	{ "write", "1M", LAB_BENCH_SEQ_WRITE, 1 },
	{ "read", "1M", LAB_BENCH_SEQ_READ, 0 },
	{ "randread", "4k", LAB_BENCH_RAND_READ, 0 },
	{ "randwrite", "4k", LAB_BENCH_RAND_WRITE, 1 },
};

int
lab_pool_fio_command(const char *path, uint64_t size, int runtime_s,
    int ramp_s, char **ret, struct lab_err *err)
{
	struct lab_buf	b, f;
	size_t		i;

	*ret = NULL;
	if (path == NULL || *path != '/' || strpbrk(path, "\n\r") != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "pool bench: the file "
		    "'%s' is not an absolute path", path != NULL ? path : "");
	if (size < (UINT64_C(1) << 20))
		return lab_err_set(err, LAB_EXIT_INPUT, "pool bench: a file "
		    "of %" PRIu64 " bytes: the pool needs at least 2 MiB free",
		    size);
	if (runtime_s < 1 || runtime_s > 3600 || ramp_s < 0 || ramp_s > 600)
		return lab_err_set(err, LAB_EXIT_INPUT, "pool bench: a job "
		    "of %d s after %d s of ramp: give 1-3600 and 0-600",
		    runtime_s, ramp_s);
	lab_buf_init(&b);
	lab_buf_init(&f);
	lab_buf_adds(&f, "--filename=");
	lab_buf_adds(&f, path);
	lab_buf_addf(&b, "fio --output-format=json --direct=0 "
	    "--ioengine=psync ");
	lab_sh_quote(&b, f.oom ? "" : f.s);
	lab_buf_addf(&b, " --size=%" PRIu64 "M --time_based --runtime=%d",
	    size >> 20, runtime_s);
	if (ramp_s > 0)
		lab_buf_addf(&b, " --ramp_time=%d", ramp_s);
	for (i = 0; i < LAB_ARRAY_SIZE(pool_jobs); i++) {
		lab_buf_addf(&b, " --name=%s%s --rw=%s --bs=%s%s",
		    lab_bench_test_name(pool_jobs[i].test),
		    i > 0 ? " --stonewall" : "", pool_jobs[i].rw,
		    pool_jobs[i].bs, pool_jobs[i].fsync ? " --end_fsync=1" :
		    " --invalidate=1");
	}
	if (f.oom)
		b.oom = 1;
	lab_buf_release(&f);
	if (b.oom) {
		lab_buf_release(&b);
		return lab_err_oom(err);
	}
	*ret = lab_buf_steal(&b);
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, size_t n, double *lo, double *hi)
{
	qsort(v, n, sizeof(*v), cmp_double);
	if (lo != NULL)
		*lo = v[0];
	if (hi != NULL)
		*hi = v[n - 1];
	return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
lab_pool_summarise(enum lab_bench_test test,
    const struct lab_bench_result *const *r, size_t n,
    struct lab_pool_test *t)
{
	double	v[LAB_POOL_MAX_REPEAT];
	size_t	i, m = n < LAB_POOL_MAX_REPEAT ? n : LAB_POOL_MAX_REPEAT;

	memset(t, 0, sizeof(*t));
	t->test = test;
	t->runs = (int)m;
	if (m == 0)
		return;
	for (i = 0; i < m; i++)
		v[i] = r[i]->mb_s;
	t->mb_s = median(v, m, &t->mb_s_min, &t->mb_s_max);
	for (i = 0; i < m; i++)
		v[i] = r[i]->iops;
	t->iops = median(v, m, &t->iops_min, &t->iops_max);
	for (i = 0; i < m; i++)
		v[i] = r[i]->lat_mean_ms;
	t->lat_mean_ms = median(v, m, NULL, NULL);
	for (i = 0; i < m; i++)
		v[i] = r[i]->lat_p99_ms;
	t->lat_p99_ms = median(v, m, NULL, NULL);
}
