/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Stores bench runs with the seed's figures into a database that holds
 * the lab of inventory/ (sh bench.sh imports it first), through
 * lib/db/bench.c as `lab bench` will: bench-seed DB.
 *
 *   1 neo           done   3 SAS disks on the SC44Ge, 117 MB/s reads
 *   2 neo           done   the same
 *   3 microserver1  done   the SSD on the IDE-emulation port "odd"
 *   4 ml110         done   a SATA disk WD-WCAV5MOVED: 107 read, 31.6 write
 *   5 ml115         done   its twin WD-WCAV5PEER1: 107 read, 31.6 write
 *   6 neo           done   the SAS disks (one with 2 reallocated sectors)
 *                          and WD-WCAV5MOVED, moved from ml110 to neo's
 *                          slot 4 behind the SC44Ge: 11.3 MB/s written
 *   7 microserver1  done   the SSD again
 *   8 neo           failed the link dropped: no disk kept
 *
 * Times are fixed (BASE, 2025-11-30 00:00 UTC) so the output is too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"
#include "lab/db.h"

#define BASE	INT64_C(1764460800)
#define DAY	INT64_C(86400)

static void
die(const char *what, const struct lab_err *err)
{
	fprintf(stderr, "bench-seed: %s: %s\n", what, err->msg);
	exit(1);
}

static char *
dup(const char *s)
{
	char	*p = strdup(s);

	if (p == NULL)
		exit(1);
	return p;
}

/* A disk with seq-read r, seq-write w and random figures from them. */
static struct lab_bench_disk *
disk(struct lab_bench_run *run, const char *slot, const char *device,
    const char *serial, const char *model, const char *kind,
    const char *controller, double r, double w)
{
	struct lab_bench_disk	*d;
	const double		 mb[LAB_BENCH_NTESTS] = { r, w, r / 120,
				    w / 40 };
	size_t			 i;

	if ((d = lab_push(&run->disks.v, &run->disks.n, sizeof(*d))) == NULL)
		exit(1);
	lab_bench_disk_init(d);
	d->host = dup(run->host);
	d->slot = dup(slot);
	d->device = dup(device);
	d->serial = dup(serial);
	d->model = dup(model);
	d->kind = dup(kind);
	d->controller = dup(controller);
	d->smart.health = LAB_SMART_PASSED;
	d->smart.model = dup(model);
	d->smart.serial = dup(serial);
	d->smart.firmware = dup("HPD4");
	d->smart.reallocated = 0;
	d->smart.pending = 0;
	d->smart.offline_uncorrectable = 0;
	d->smart.power_on_hours = 21034;
	d->smart.temperature_c = 33;
	if ((d->results = calloc(LAB_BENCH_NTESTS,
	    sizeof(*d->results))) == NULL)
		exit(1);
	d->nresults = LAB_BENCH_NTESTS;
	for (i = 0; i < LAB_BENCH_NTESTS; i++) {
		struct lab_bench_result *x = &d->results[i];

		x->test = (enum lab_bench_test)i;
		x->mb_s = mb[i];
		/* 1 MiB blocks for the sequential jobs, 4 KiB random */
		x->iops = i < 2 ? mb[i] * 1e6 / 1048576 : mb[i] * 1e6 / 4096;
		x->lat_mean_ms = i < 2 ? 8.5 : 12.25;
		x->lat_p99_ms = i < 2 ? 21.5 : 45.125;
		x->target_kind = LAB_BENCH_TARGET_DEVICE;
		x->target = dup(device);
	}
	return d;
}

static void
sas(struct lab_bench_run *run, double r, double w, int64_t realloc2)
{
	static const char *const serials[] = { "3LQ0A1", "3LQ0A2", "3LQ0A3" };
	static const char *const devs[] = { "/dev/sda", "/dev/sdb",
	    "/dev/sdc" };
	struct lab_bench_disk	*d;
	int			 i;

	for (i = 0; i < 3; i++) {
		d = disk(run, i == 0 ? "1" : i == 1 ? "2" : "3", devs[i],
		    serials[i], "HP DG072A9BB7", "sas", "sc44ge", r + i * 0.2,
		    w - i * 0.3);
		if (i == 1)
			d->smart.reallocated = realloc2;
	}
}

static void
store(struct lab_db *db, struct lab_bench_run *run)
{
	struct lab_err	err;

	lab_err_init(&err);
	if (lab_db_bench_store(db, run, &err) == -1)
		die("store", &err);
	lab_bench_run_release(run);
}

static void
start(struct lab_bench_run *run, const char *host, const char *profile,
    int64_t t)
{
	memset(run, 0, sizeof(*run));
	run->host = dup(host);
	run->profile = dup(profile);
	run->started_at = t;
	run->finished_at = t + 300;
	run->status = LAB_BENCH_DONE;
}

int
main(int argc, char **argv)
{
	struct lab_bench_run	 run;
	struct lab_db		*db;
	struct lab_err		 err;

	lab_err_init(&err);
	if (argc != 2) {
		fprintf(stderr, "usage: bench-seed DB\n");
		return 2;
	}
	if (lab_db_open(argv[1], 0, &db, &err) == -1)
		die(argv[1], &err);
	start(&run, "neo", "quick", BASE - 10 * DAY);
	sas(&run, 116.8, 110.2, 0);
	store(db, &run);
	start(&run, "neo", "full", BASE - 6 * DAY);
	sas(&run, 117.2, 110.6, 0);
	store(db, &run);
	start(&run, "microserver1", "quick", BASE - 5 * DAY);
	disk(&run, "odd", "/dev/sde", "S1DHNSAD900001", "Samsung SSD 840",
	    "ssd", "onboard-ide", 97.0, 59.9);
	store(db, &run);
	start(&run, "ml110", "quick", BASE - 3 * DAY);
	disk(&run, "1", "/dev/sda", "WD-WCAV5MOVED", "WDC WD5000AAKS-00V1A0",
	    "sata", "onboard", 107.0, 31.6);
	store(db, &run);
	start(&run, "ml115", "quick", BASE - 2 * DAY);
	disk(&run, "1", "/dev/sda", "WD-WCAV5PEER1", "WDC WD5000AAKS-00V1A0",
	    "sata", "onboard", 107.4, 31.6);
	store(db, &run);
	start(&run, "neo", "quick", BASE - DAY);
	sas(&run, 117.0, 110.4, 2);
	disk(&run, "4", "/dev/sdd", "WD-WCAV5MOVED", "WDC WD5000AAKS-00V1A0",
	    "sata", "sc44ge", 107.1, 11.3);
	store(db, &run);
	start(&run, "microserver1", "quick", BASE - DAY / 2);
	disk(&run, "odd", "/dev/sde", "S1DHNSAD900001", "Samsung SSD 840",
	    "ssd", "onboard-ide", 96.2, 58.7);
	store(db, &run);
	start(&run, "neo", "full", BASE - 3600);
	run.status = LAB_BENCH_FAILED;
	run.finished_at = BASE - 3000;
	run.message = dup("neo 192.0.2.31:22: the link dropped during "
	    "seq-write on /dev/sdb: no result kept");
	store(db, &run);
	lab_db_free(db);
	return 0;
}
