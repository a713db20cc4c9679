/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BENCH_REMOTE_H
#define LAB_BENCH_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#include "lab/ctx.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/ssh.h"

/*
 * Running benchmark commands on a host over its provisioning SSH
 * connection (the inventory's ssh: block, its known_hosts rules), and
 * the free-disk check provisioning uses (templates/check-disks.sh), for
 * lab bench and lab burnin. The commands themselves (fio jobs, smartctl)
 * are the caller's: this runs one and returns what it printed, bounded
 * in size (LAB_SSH_OUTPUT_CAP a stream) and in time (a deadline).
 */

/*
 * Connects to h over its ssh: block (identity and known_hosts with "~/"
 * from ctx->home). accept_new: an unknown host key is added instead of
 * refused (key->added says so). LAB_EXIT_INPUT when h has no ssh: block;
 * else the codes of lab_ssh_connect().
 */
int	lab_bench_connect(const struct lab_ctx *, const struct lab_host *h,
	    int accept_new, struct lab_ssh **ret, struct lab_ssh_hostkey *key,
	    struct lab_err *err);

/* What one command printed and how it ended. */
struct lab_bench_output {
	int		 exit_status;	/* -1: killed by a signal */
	char		*signal;	/* "KILL", or NULL */
	char		*out;		/* stdout, NUL-terminated: at most
					   LAB_SSH_OUTPUT_CAP bytes, the
					   last ones when cut */
	size_t		 outlen;
	uint64_t	 outbytes;	/* its whole size (> outlen: cut) */
	char		*err_tail;	/* the last lines of stderr (at most
					   LAB_BENCH_ERR_TAIL bytes), or
					   NULL when it printed nothing */
	int64_t		 elapsed_ms;
};

#define LAB_BENCH_ERR_TAIL	2048
#define LAB_BENCH_TIMEOUT_MS	(30 * 60 * 1000)	/* 0 given */

/*
 * Runs cmd on the host of s (host names it in errors) with a deadline of
 * timeout_ms (0: LAB_BENCH_TIMEOUT_MS). 0 when it ran to an exit status
 * or a signal (check out->exit_status); -1 with err set (LAB_EXIT_PARTIAL,
 * "HOST: ssh ADDRESS:PORT: ...") when the connection dropped or the
 * deadline passed: then out holds nothing (no partial output is ever
 * returned as a result) and s is unusable. out is always initialised:
 * free it with lab_bench_output_free().
 */
int	lab_bench_run(struct lab_ssh *s, const char *host, const char *cmd,
	    int timeout_ms, const struct lab_ctx *ctx,
	    struct lab_bench_output *out, struct lab_err *err);
void	lab_bench_output_free(struct lab_bench_output *);

/* Whether a disk may be written to, by provisioning's own check. */
enum lab_disk_use {
	LAB_DISK_FREE,		/* not mounted, in no pool, array or
				   volume group, no signatures */
	LAB_DISK_MOUNTED,	/* it or a partition is mounted */
	LAB_DISK_ARRAY,		/* in an md array */
	LAB_DISK_POOL,		/* in a ZFS pool */
	LAB_DISK_VG,		/* an LVM physical volume */
	LAB_DISK_SIGNATURES,	/* a partition table or signatures */
	LAB_DISK_MISSING,	/* no such block device */
	LAB_DISK_OTHER,		/* refused for another reason */
};

struct lab_disk_state {
	enum lab_disk_use	use;
	char			reason[256];	/* the check's own words
						   ("it is in an md array
						   (/proc/mdstat)"), empty
						   when free */
	char			mount[256];	/* LAB_DISK_MOUNTED: where
						   a file may be written */
};

/*
 * Runs provisioning's free-disk check (templates/check-disks.sh, without
 * force) for the disk dev of slot on the host of s. 0 with *st filled
 * when the check ran (free or not); -1 with err set when it could not
 * run (the link, the deadline: LAB_EXIT_PARTIAL).
 */
int	lab_bench_disk_check(struct lab_ssh *s, const char *host,
	    const char *slot, const char *dev, struct lab_disk_state *st,
	    struct lab_err *err);
/* "free", "mounted", "md", "zfs", "lvm", "signatures", "missing", "other" */
const char	*lab_disk_use_name(enum lab_disk_use);

#endif
