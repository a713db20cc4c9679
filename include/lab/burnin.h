/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BURNIN_H
#define LAB_BURNIN_H

#include <stddef.h>
#include <stdint.h>

#include "lab/bench.h"
#include "lab/ctx.h"
#include "lab/err.h"
#include "lab/inventory.h"

/*
 * lab burnin (issue 18): a destructive full-surface test of free disks,
 * `badblocks -w` (four patterns written and read back over every block),
 * SMART read before and after. Every disk runs provisioning's free-disk
 * check first and a disk that is not free is refused, always. The disks
 * of a host run one after the other; hosts at once (lib/core/fanout.c).
 * A burn-in is stored as a bench run of profile "burnin" (migration 011).
 */

#define LAB_BURNIN_METHOD	"badblocks -w"
#define LAB_BURNIN_TIMEOUT_MS	(48 * 3600 * 1000)	/* a disk, 0 given */

/* What badblocks -w said (lib/bench/badblocks.c). */
struct lab_badblocks {
	int64_t	 bad;		/* bad blocks found */
	int64_t	 read, write, compare;	/* its "(R/W/C errors)" */
	int64_t	 first;		/* the first bad block (stdout), or -1 */
	size_t	 listed;	/* bad blocks listed on stdout */
};

/*
 * Parses badblocks -w -v: the bad blocks listed on out (one number a
 * line), the summary "Pass completed, N bad blocks found. (R/W/C
 * errors)" on err (its last lines). -1 and LAB_EXIT_PARTIAL naming where
 * when there is no summary (badblocks did not finish) or a line of out
 * is not a block number.
 */
int	lab_badblocks_parse(const char *out, size_t outlen, const char *err_text,
	    const char *where, struct lab_badblocks *bb, struct lab_err *err);

/* The result of one disk. */
enum lab_burnin_result {
	LAB_BURNIN_PLANNED,	/* not run (yet) */
	LAB_BURNIN_CLEAN,	/* ran to its end, no error */
	LAB_BURNIN_ERRORS,	/* ran to its end, found errors */
	LAB_BURNIN_REFUSED,	/* not free: never written */
	LAB_BURNIN_FAILED,	/* could not run to its end */
};

/* "planned", "clean", "errors", "refused", "failed". */
const char	*lab_burnin_result_name(enum lab_burnin_result);

/* One disk: the bench disk (its burnin and SMART after), and ours. */
struct lab_burnin_disk {
	struct lab_bench_disk	 d;		/* d.skipped: why refused */
	struct lab_smart	 before;	/* SMART before the burn-in */
	enum lab_burnin_result	 result;
	char			*message;	/* why failed, or NULL */
	int64_t			 elapsed_ms;	/* badblocks' wall time */
	int64_t			 bad_first;	/* first bad block, or -1 */
};

/* One host's burn-in. */
struct lab_burnin_host {
	char			*host;
	struct lab_burnin_disk	*disks;
	size_t			 ndisks;
	int64_t			 run_id;	/* 0: not stored */
	enum lab_bench_status	 status;
	struct lab_err		 err;		/* the host's failure, if
						   status is failed */
	struct lab_bench_findings findings;
	int			 ran;		/* connected */
};

/* Seen as each disk starts and ends (from the host's thread). */
struct lab_burnin_hooks {
	void	(*begin)(void *arg, const struct lab_burnin_host *,
		    const struct lab_burnin_disk *);
	void	(*end)(void *arg, const struct lab_burnin_host *,
		    const struct lab_burnin_disk *);
	void	*arg;
};

struct lab_burnin_req {
	const struct lab_ctx		*ctx;		/* NULL: default */
	const char *const		*slots;		/* NULL: every disk */
	size_t				 nslots;
	int				 timeout_ms;	/* a disk; 0: 48 h */
	int				 accept_new;
	const struct lab_burnin_hooks	*hooks;		/* or NULL */
	size_t				 fanout;	/* 0: default */
};

/*
 * The plan of one host, from the inventory alone (nothing is read from
 * the host): its disks (req->slots, else all but those with boot: true),
 * each planned, or refused when it holds the running system (boot:
 * true, named as a slot) or has no device. An
 * unknown slot is LAB_EXIT_INPUT with did-you-mean.
 */
int	lab_burnin_plan(const struct lab_host *, const struct lab_burnin_req *,
	    struct lab_burnin_host *, struct lab_err *);

/*
 * Runs the planned burn-ins of hosts (planned by lab_burnin_plan), the
 * hosts at once, the disks of one host one after the other, and stores
 * each host's run in db. A host that cannot be reached, or whose link
 * drops, is stored as a failed run with no disk (its err says why).
 * -1 only when nothing could be started.
 */
struct lab_db;
int	lab_burnin_run(struct lab_db *, const struct lab_inventory *,
	    const struct lab_burnin_req *, struct lab_burnin_host *hosts,
	    size_t nhosts, struct lab_err *);

void	lab_burnin_host_release(struct lab_burnin_host *);

/*
 * Stores a burn-in (lib/db/burnin.c): a bench run of profile "burnin"
 * with each disk's burn-in and SMART before and after; a failed run with
 * no disk. Sets *run_id.
 */
int	lab_db_burnin_store(struct lab_db *, const struct lab_burnin_host *,
	    int64_t started_at, int64_t finished_at, int64_t *run_id,
	    struct lab_err *);

#endif
