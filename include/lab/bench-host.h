/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BENCH_HOST_H
#define LAB_BENCH_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "lab/bench.h"
#include "lab/bench-remote.h"
#include "lab/ctx.h"
#include "lab/db.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/ssh.h"
#include "lab/str.h"

/*
 * lab bench of hosts (lib/bench-host.c): over each host's provisioning
 * SSH connection, for each of its disks one after the other, SMART
 * (smartctl -i -H -A -j), provisioning's free-disk check, then the fio
 * jobs: all four on the device of a free disk; on a mounted one the reads
 * on the device and the writes into a file on its filesystem (removed
 * after, on every path); on a disk in an array, a pool or a volume group
 * or with signatures the reads only, the writes dropped with the reason.
 * Hosts run at once through the fan-out engine. The per-disk steps are
 * functions of their own, for lab burnin too.
 */

/*
 * The disks of h to work on: every disk of the inventory (nslots 0) or
 * those of the named slots, in the inventory's order, into *ret (an array
 * of pointers into h, freed by the caller). LAB_EXIT_INPUT: h has no
 * disks, no ssh: block, a slot it does not have (with the nearest slot),
 * or a disk without a device.
 */
int	lab_bench_host_disks(const struct lab_host *h,
	    const char *const *slots, size_t nslots,
	    const struct lab_disk ***ret, size_t *nret, struct lab_err *err);

/*
 * Reads the SMART of dev (smartctl -i -H -A -j DEV) into *smart. A device
 * without SMART, smartctl missing or its output not its JSON are no
 * error: health unknown and smart->message says why. -1 only when the
 * link dropped or the deadline passed (LAB_EXIT_PARTIAL).
 */
int	lab_bench_smart(struct lab_ssh *s, const char *host, const char *dev,
	    struct lab_smart *smart, struct lab_err *err);

/* The fio jobs of one disk, from the state the free-disk check gave. */
struct lab_bench_disk_plan {
	struct lab_bench_job_target	 dev;	/* the device: all the jobs
						   when free, else the reads */
	int				 has_file; /* mounted: the writes on
						   a file too */
	struct lab_bench_job_target	 file;
	char				 file_path[4096];
	char				 why[400]; /* why not all on the
						   device; "" when free */
};

/*
 * The plan of disk d: st the free-disk check's answer (NULL: not checked,
 * the dry run's plan: the writes on the device "if free"), tag names the
 * file on a mounted disk (.lab-bench-TAG.fio under its mount point),
 * file_size its size (0: no room, the writes dropped).
 */
void	lab_bench_disk_plan(const struct lab_disk *d,
	    const struct lab_disk_state *st, const char *tag,
	    uint64_t file_size, int runtime_s, struct lab_bench_disk_plan *p);

/* A bench of hosts: what cmd/ asks. */
struct lab_bench_req {
	enum lab_bench_profile	 profile;
	const char *const	*slots;		/* NULL: every disk */
	size_t			 nslots;
	int			 accept_new;	/* trust an unknown host key */
	int			 runtime_s;	/* a job's; 0: the profile's */
	int			 timeout_ms;	/* one fio command's deadline;
						   0: its jobs' time + 120 s */
	size_t			 fanout;	/* 0: LAB_FANOUT_DEFAULT */
	/* called from the hosts' threads, several at once: "slot 3
	   seq-write" as each step starts; NULL: none */
	void	(*step)(void *arg, const char *host, const char *slot,
		    const char *what);
	void	*step_arg;
};

/* One host's bench. */
struct lab_bench_host_result {
	char			*host;
	char			*addr;		/* "ADDRESS:PORT", or NULL */
	int			 ok;
	struct lab_bench_run	 run;		/* done: its disks; failed:
						   none, run.message why */
	struct lab_ssh_hostkey	 key;		/* key.added: accept_new */
	struct lab_err		 err;		/* why not ok */
};

/*
 * Benches the hosts (names in inv, each with disks and an ssh: block:
 * check them first with lab_bench_host_disks) at once, at most
 * req->fanout at a time, one disk at a time on a host. *ret: one result a
 * host, in order, freed with lab_bench_host_results_free(). -1 only when
 * nothing could run (a name not in inv, out of memory, no thread).
 */
int	lab_bench_hosts(const struct lab_ctx *, const struct lab_inventory *inv,
	    const struct lab_strv *hosts, const struct lab_bench_req *,
	    struct lab_bench_host_result **ret, struct lab_err *err);
void	lab_bench_host_results_free(struct lab_bench_host_result *, size_t n);

/*
 * The findings of result i of res (n hosts benched together): its disks,
 * with the other hosts' disks of this bench and the last stored runs of
 * hosts not in it as peers, and each disk's stored history by serial
 * (read before this bench is stored). Appended to *out.
 */
int	lab_bench_host_findings(struct lab_db *, const struct lab_inventory *,
	    const struct lab_bench_host_result *res, size_t n, size_t i,
	    struct lab_bench_findings *out, struct lab_err *err);

#endif
