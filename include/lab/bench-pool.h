/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BENCH_POOL_H
#define LAB_BENCH_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "lab/bench.h"
#include "lab/ctx.h"
#include "lab/err.h"
#include "lab/inventory.h"

/*
 * lab bench HOST --pool NAME --set PROP=V1,V2 ... (issue 18): the same
 * fio jobs on a scratch dataset of a ZFS pool for each combination of
 * the given properties, repeated, as one table of medians and spreads.
 * The pure part (the property table, the combinations, the fio command)
 * is lib/bench/pool.c; the run over SSH lib/bench-pool.c; the database
 * lib/db/bench-pool.c; the report's table lib/report/pool.c.
 */

#define LAB_POOL_MAX_COMBOS	64
#define LAB_POOL_MAX_REPEAT	20

/* One --set: a property and the values to compare, in order. */
struct lab_pool_set {
	char	*prop;
	char	**values;
	size_t	 nvalues;
};

/* The combinations of the --set lists (their cartesian product, the
   first --set varying slowest). */
struct lab_pool_sets {
	struct lab_pool_set	*v;
	size_t			 n;
	size_t			 ncombos;	/* 1 with no --set */
};

/*
 * Parses the --set words ("compression=off,lz4") into *out. LAB_EXIT_INPUT
 * naming the word for: no '=', an empty value, a property given twice, a
 * read-only property ("used: a read-only property"), a property zfs does
 * not let a dataset be created with (did-you-mean from the table), a value
 * with a character outside [A-Za-z0-9_.:+-], more than
 * LAB_POOL_MAX_COMBOS combinations. The values themselves are checked by
 * zfs when the dataset is created.
 */
int	lab_pool_sets_parse(const char *const *words, size_t n,
	    struct lab_pool_sets *out, struct lab_err *);
void	lab_pool_sets_release(struct lab_pool_sets *);
/* The value index of each set in combination k, into idx[sets->n]. */
void	lab_pool_combo_index(const struct lab_pool_sets *, size_t k,
	    size_t *idx);
/* "compression=lz4 sync=disabled" (or "defaults" with no --set). */
char	*lab_pool_combo_text(const struct lab_pool_sets *, size_t k);
/* "-o 'compression=lz4' -o 'sync=disabled'", sh-quoted ("" for none). */
char	*lab_pool_combo_opts(const struct lab_pool_sets *, size_t k);
/* The properties compared, "compression sync" ("" for none). */
char	*lab_pool_sets_props(const struct lab_pool_sets *);

/* 1: property p may be given to zfs create; 0: unknown; -1: read-only. */
int	lab_pool_prop_kind(const char *p);

/*
 * The fio command for one repeat on the file path: the four jobs
 * (seq-write first, so the reads find data, then seq-read, rand-read,
 * rand-write), buffered I/O (ZFS, and zfs-fuse through FUSE, may refuse
 * or ignore O_DIRECT) with end_fsync=1 on the writes so their figures
 * include reaching the disks, runtime_s a job (time_based), over a file
 * of size bytes.
 */
int	lab_pool_fio_command(const char *path, uint64_t size, int runtime_s,
	    int ramp_s, char **ret, struct lab_err *);

/* One test of one combination over the repeats. */
struct lab_pool_test {
	enum lab_bench_test	 test;
	double			 mb_s;		/* the median */
	double			 mb_s_min;
	double			 mb_s_max;
	double			 iops;		/* the median */
	double			 iops_min;
	double			 iops_max;
	double			 lat_mean_ms;	/* median of the means */
	double			 lat_p99_ms;	/* median of the p99s */
	int			 runs;		/* the repeats measured */
};

struct lab_pool_combo {
	char			*set;		/* "compression=lz4 sync=..." */
	char			*dataset;	/* "tank/lab-bench-123-0" */
	struct lab_pool_test	 tests[LAB_BENCH_NTESTS];
	size_t			 ntests;
};

struct lab_pool_run {
	int64_t			 id;		/* 0: not stored */
	char			*host;
	char			*pool;
	char			*props;		/* "compression sync" */
	int			 repeat;
	int64_t			 started_at;
	int64_t			 finished_at;
	enum lab_bench_status	 status;
	char			*message;	/* why it failed; NULL */
	char			*left;		/* datasets left behind: the
						   exact `zfs destroy ...` to
						   run; NULL: none */
	struct lab_pool_combo	*combos;
	size_t			 ncombos;
};

void	lab_pool_run_release(struct lab_pool_run *);

/* (lib/report/pool.c) The test t of a combination, or NULL. */
const struct lab_pool_test *lab_pool_combo_test(const struct lab_pool_combo *,
	    enum lab_bench_test t);
/* The object lab bench --pool --json prints (and the report's
   pool_benchmarks hold): {host, pool, run, repeat, settings: [...]}. */
struct lab_json;
void	lab_pool_run_json(struct lab_json *, const struct lab_pool_run *);
/* A table cell: "148 ±6" (MB/s, or IOPS), the median and the largest
   distance of a run from it; "-" without a run. */
void	lab_pool_cell(char *buf, size_t n, const struct lab_pool_test *,
	    int iops);

/*
 * Summarises n repeats of one test (results[i] of repeat i) into *t:
 * medians (the mean of the two middle ones for an even n) and min-max.
 */
void	lab_pool_summarise(enum lab_bench_test, const struct lab_bench_result
	    *const *results, size_t n, struct lab_pool_test *t);

/* What lab_bench_pool() runs. */
struct lab_pool_req {
	const struct lab_host		*host;
	const char			*pool;
	const struct lab_pool_sets	*sets;
	int				 repeat;	/* 1..20 */
	int				 runtime_s;	/* a job */
	int				 ramp_s;
	uint64_t			 max_size;	/* the file's cap */
	long				 pid;	/* the datasets' names */
	int				 check_only;	/* the read-only checks */
	const struct lab_ctx		*ctx;
	/* called before each combination (k of n) and after each repeat,
	   from this thread; may be NULL */
	void	(*progress)(void *arg, size_t k, size_t n, int repeat);
	void	*progress_arg;
};

/*
 * Runs the pool bench over the host's provisioning SSH connection:
 * checks the pool (`zpool list -H -o name`) and its free space, creates
 * every combination's dataset (so that a value zfs refuses stops it
 * before any fio: LAB_EXIT_INPUT with zfs's words, every dataset made
 * destroyed), then for each in turn runs the jobs req->repeat times and
 * destroys it. check_only: the pool check only, nothing created.
 * Returns 0 with run filled (status done); -1 with err set: before
 * anything was created (run->started_at 0), or a failed run (status
 * failed, message, no combination kept; run->left when a dataset could
 * not be destroyed, even over a second connection).
 */
int	lab_bench_pool(const struct lab_pool_req *, struct lab_pool_run *run,
	    struct lab_err *);

/*
 * The database (lib/db/bench-pool.c): a run in one transaction (a failed
 * one without rows); the latest done run of each host and pool, newest
 * first.
 */
struct lab_db;
int	lab_db_pool_store(struct lab_db *, struct lab_pool_run *,
	    struct lab_err *);
int	lab_db_pool_latest(struct lab_db *, struct lab_pool_run **ret,
	    size_t *n, struct lab_err *);
int	lab_db_pool_last(struct lab_db *, const char *host, const char *pool,
	    struct lab_pool_run *run, struct lab_err *);

#endif
