/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_BENCH_H
#define LAB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "lab/err.h"
#include "lab/str.h"

/*
 * Disk benchmarks and burn-in (issue 18): the data model, the fio job
 * builder and parser, the smartctl parser and the findings. Plain structs
 * that own their strings, and the functions that free them
 * (lib/inventory/bench.c); the parsers and findings are in lib/bench/,
 * the database in lib/db/bench.c. MB/s is 10^6 bytes a second
 * throughout (fio's bw_bytes / 1e6), latencies are milliseconds.
 */

/* The four fio jobs, in the order they run; the names are a contract
   (the JSON's tests[].name, the database's test column). */
enum lab_bench_test {
	LAB_BENCH_SEQ_READ,	/* "seq-read": rw=read bs=1M */
	LAB_BENCH_SEQ_WRITE,	/* "seq-write": rw=write bs=1M */
	LAB_BENCH_RAND_READ,	/* "rand-read": rw=randread bs=4k qd 32 */
	LAB_BENCH_RAND_WRITE,	/* "rand-write": rw=randwrite bs=4k qd 32 */
	LAB_BENCH_NTESTS
};

/* "seq-read", ...; "unknown" out of range. */
const char	*lab_bench_test_name(enum lab_bench_test);
/* The test named word, or -1. */
int		 lab_bench_test_parse(const char *word);
/* 1 for seq-write and rand-write. */
int		 lab_bench_test_writes(enum lab_bench_test);

/* Where a job ran: the block device itself, or a file on the disk's
   filesystem or pool (a disk in use gets no write to the device). */
enum lab_bench_target {
	LAB_BENCH_TARGET_DEVICE,
	LAB_BENCH_TARGET_FILE
};

/* "device" or "file". */
const char	*lab_bench_target_name(enum lab_bench_target);
/* The target named word, or -1. */
int		 lab_bench_target_parse(const char *word);

/* One job's result. */
struct lab_bench_result {
	enum lab_bench_test	 test;
	double			 mb_s;		/* 10^6 bytes/s */
	double			 iops;
	double			 lat_mean_ms;	/* completion latency */
	double			 lat_p99_ms;
	enum lab_bench_target	 target_kind;
	char			*target;	/* "/dev/sdb", "/srv/lab.fio" */
	char			*why;		/* why a file; NULL: device */
};

enum lab_smart_health {
	LAB_SMART_UNKNOWN,	/* no SMART, or smartctl said nothing */
	LAB_SMART_PASSED,
	LAB_SMART_FAILED
};

/* "unknown", "passed", "failed". */
const char	*lab_smart_health_name(enum lab_smart_health);
/* The health named word, or -1. */
int		 lab_smart_health_parse(const char *word);

/*
 * What `smartctl -i -H -A -j` said. Every count is -1 when smartctl gave
 * none (not ATA, or the attribute is absent); the strings NULL.
 */
struct lab_smart {
	enum lab_smart_health	 health;
	char			*model;
	char			*serial;
	char			*firmware;
	int64_t			 reallocated;	/* ATA 5; SCSI grown defects */
	int64_t			 pending;	/* ATA 197 */
	int64_t			 offline_uncorrectable;	/* ATA 198; NVMe
						   media errors */
	int64_t			 power_on_hours;
	int64_t			 temperature_c;	/* -1: unknown */
	char			*message;	/* smartctl's error, if any */
};

/* The burn-in of one disk, when one ran. */
struct lab_burnin {
	int	 ran;
	char	*method;	/* "badblocks -w", "fio verify" */
	int64_t	 errors;	/* read + write + compare errors */
	char	*detail;	/* "3 read, 0 write, 1 compare", or NULL */
};

/* One disk's bench in a run (or, read back, in an earlier run). */
struct lab_bench_disk {
	char			*host;
	char			*slot;
	char			*device;
	char			*serial;	/* NULL: unknown (no history) */
	char			*model;
	char			*kind;		/* sata | sas | ssd | nvme */
	char			*controller;	/* NULL: not declared */
	struct lab_bench_result	*results;
	size_t			 nresults;
	struct lab_smart	 smart;
	struct lab_burnin	 burnin;
	char			*skipped;	/* why jobs did not run; NULL */
	int64_t			 run_id;	/* read back: its run; else 0 */
	int64_t			 time;		/* read back: run start */
};

/* A list of disks (a run's, or one disk's history oldest first). */
struct lab_bench_disks {
	struct lab_bench_disk	*v;
	size_t			 n;
};

/* Something about a disk that needs a human. */
struct lab_bench_finding {
	const char	*severity;	/* "critical", "warning", "info" */
	const char	*kind;		/* "slow-disk", "slow-write-path",
					   "smart", "burnin-errors" */
	char		*subject;	/* "nas sdb (slot 3)" */
	char		*message;
};

struct lab_bench_findings {
	struct lab_bench_finding	*v;
	size_t				 n;
};

enum lab_bench_status {
	LAB_BENCH_RUNNING,
	LAB_BENCH_DONE,
	LAB_BENCH_FAILED
};

/* "running", "done", "failed". */
const char	*lab_bench_status_name(enum lab_bench_status);

/* One `lab bench` of one host. */
struct lab_bench_run {
	int64_t			 id;		/* 0: not stored */
	char			*host;
	char			*profile;	/* "quick", "full" */
	int64_t			 started_at;
	int64_t			 finished_at;
	enum lab_bench_status	 status;
	char			*message;	/* why it failed; NULL */
	struct lab_bench_disks	 disks;
};

void	lab_bench_result_release(struct lab_bench_result *);
void	lab_smart_release(struct lab_smart *);
/* Zeroes a SMART summary with every count -1 and health unknown. */
void	lab_smart_init(struct lab_smart *);
/* Zeroes a disk, its SMART counts -1. */
void	lab_bench_disk_init(struct lab_bench_disk *);
void	lab_bench_disk_release(struct lab_bench_disk *);
void	lab_bench_disks_release(struct lab_bench_disks *);
void	lab_bench_run_release(struct lab_bench_run *);
void	lab_bench_findings_release(struct lab_bench_findings *);

/*
 * The fio jobs (lib/bench/fio-job.c).
 */
enum lab_bench_profile {
	LAB_BENCH_QUICK,	/* 10 s a job, at most 1 GiB */
	LAB_BENCH_FULL		/* 60 s a job after 5 s ramp, at most 16 GiB */
};

/* "quick" or "full". */
const char	*lab_bench_profile_name(enum lab_bench_profile);
/* The profile named word, or -1. */
int		 lab_bench_profile_parse(const char *word);

struct lab_bench_job_target {
	enum lab_bench_target	 kind;
	const char		*path;		/* device, or the file */
	uint64_t		 file_size;	/* a file's size, bytes */
	int			 read_only;	/* no write job, ever */
	const char		*why;		/* why read-only, or a file */
	int			 runtime_s;	/* seconds a job instead of the
						   profile's (1-3600); 0: the
						   profile's */
};

/* The fio command line built for one target. */
struct lab_bench_jobs {
	char	*command;			/* one sh-quoted line */
	int	 runs[LAB_BENCH_NTESTS];	/* 1: the job is in it */
	char	*dropped;			/* why the writes were dropped */
};

/*
 * Builds the fio command for profile on target: the four jobs (or only
 * the reads for a read-only target, the reason kept in dropped), direct
 * I/O, libaio, JSON output, one job after the other (stonewall). A file
 * needs a size (at least 1 MiB). -1 and LAB_EXIT_INPUT for a bad target.
 */
int	lab_bench_jobs_build(enum lab_bench_profile,
	    const struct lab_bench_job_target *, struct lab_bench_jobs *,
	    struct lab_err *);
void	lab_bench_jobs_release(struct lab_bench_jobs *);

/*
 * Parses fio's --output-format=json (fio 3.33) into results, one per job
 * named seq-read, seq-write, rand-read or rand-write, in the output's
 * order; target and why are copied into each. -1 and LAB_EXIT_PARTIAL
 * naming the job for a job's error, missing fields, absurd figures, or
 * output that is not JSON or is cut short (where names the source:
 * "nas:/dev/sdb").
 */
int	lab_bench_fio_parse(const char *text, size_t len, const char *where,
	    const struct lab_bench_job_target *,
	    struct lab_bench_result **ret, size_t *nret, struct lab_err *);

/*
 * Parses `smartctl -i -H -A -j` (smartmontools 7.3, json_format_version
 * [1, 0]) into *smart. A device without SMART (smartctl's own error) is
 * not an error: health unknown, message set. -1 and LAB_EXIT_PARTIAL for
 * output that is not smartctl's JSON.
 */
int	lab_smart_parse(const char *text, size_t len, const char *where,
	    struct lab_smart *smart, struct lab_err *);

/*
 * The findings of one run (lib/bench/findings.c). disks: the run's (any
 * number of hosts); others: disks of other hosts' last runs, only as peers
 * (NULL); history: NULL, or one list per disk of disks, that disk's
 * earlier results by serial, oldest first. The rules are at the top of
 * findings.c. Findings are appended to *out, most severe first.
 */
struct lab_bench_findings_in {
	const struct lab_bench_disk	*disks;
	size_t				 ndisks;
	const struct lab_bench_disk	*others;
	size_t				 nothers;
	const struct lab_bench_disks	*history;
};

int	lab_bench_findings(const struct lab_bench_findings_in *,
	    struct lab_bench_findings *out, struct lab_err *);

/*
 * The database (lib/db/bench.c).
 */
struct lab_db;

/*
 * Stores run in one transaction: a done run with every disk and result;
 * a failed run with its status and message and no disk or result. Sets
 * run->id.
 */
int	lab_db_bench_store(struct lab_db *, struct lab_bench_run *,
	    struct lab_err *);
/* The disk's results in every stored done run, by serial, oldest first
   (at most limit runs, the newest; 0: all). */
int	lab_db_bench_history(struct lab_db *, const char *serial,
	    size_t limit, struct lab_bench_disks *, struct lab_err *);
/* The host's last run (of any status) into *run; 0 and run->id 0 when the
   host has none. */
int	lab_db_bench_last(struct lab_db *, const char *host,
	    struct lab_bench_run *run, struct lab_err *);

#endif
