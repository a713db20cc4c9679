/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Disk benchmarks without a peer: the fio job builder, fio's JSON
 * (tests/fixtures/fio, recorded from fio 3.33), smartctl's JSON
 * (tests/fixtures/smart) and the findings, with the seed's SC44Ge figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"
#include "lab/err.h"

#include "tests.h"

static struct lab_err *
fresh(struct lab_err *e)
{
	lab_err_init(e);
	return e;
}

static char *
slurp(const char *rel, size_t *len)
{
	char	 path[4096];
	FILE	*f;
	char	*s;
	long	 n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", LAB_SRCDIR, rel);
	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "%s: cannot open\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc((size_t)n + 1);
	if (s == NULL || fread(s, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	s[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return s;
}

/* within 0.1% */
#define NEAR(got, want) CHECK((got) > (want) * 0.999 && (got) < (want) * 1.001)

static void
test_jobs(void)
{
	struct lab_bench_job_target	 dev = { LAB_BENCH_TARGET_DEVICE,
		"/dev/sdb", 0, 0, NULL };
	struct lab_bench_job_target	 ro = { LAB_BENCH_TARGET_DEVICE,
		"/dev/sdc", 0, 1, "mounted on /srv" };
	struct lab_bench_job_target	 file = { LAB_BENCH_TARGET_FILE,
		"/srv/it's here/lab.fio", 300u << 20, 0, "in pool tank" };
	struct lab_bench_jobs		 j;
	struct lab_err			 err;

	lab_err_init(&err);
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &dev, &j, fresh(&err)) == 0);
	CHECK_STR(j.command, "fio --output-format=json --direct=1 "
	    "--ioengine=libaio --filename=/dev/sdb --size=1024M "
	    "--allow_file_create=0 --time_based --runtime=10 "
	    "--name=seq-read --rw=read --bs=1M --iodepth=1 "
	    "--name=seq-write --stonewall --rw=write --bs=1M --iodepth=1 "
	    "--name=rand-read --stonewall --rw=randread --bs=4k --iodepth=32 "
	    "--name=rand-write --stonewall --rw=randwrite --bs=4k "
	    "--iodepth=32");
	CHECK(j.runs[0] && j.runs[1] && j.runs[2] && j.runs[3]);
	CHECK(j.dropped == NULL);
	lab_bench_jobs_release(&j);

	CHECK(lab_bench_jobs_build(LAB_BENCH_FULL, &dev, &j, fresh(&err)) == 0);
	CHECK_HAS(j.command, " --size=16384M ");
	CHECK_HAS(j.command, " --ramp_time=5 --runtime=60 ");
	lab_bench_jobs_release(&j);

	/* read-only: no write job at all, fio's own --readonly, the why */
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &ro, &j, fresh(&err)) == 0);
	CHECK(strstr(j.command, "write") == NULL);
	CHECK_HAS(j.command, " --readonly --name=seq-read ");
	CHECK_HAS(j.command, "--name=rand-read --stonewall ");
	CHECK(j.runs[LAB_BENCH_SEQ_READ] && !j.runs[LAB_BENCH_SEQ_WRITE] &&
	    j.runs[LAB_BENCH_RAND_READ] && !j.runs[LAB_BENCH_RAND_WRITE]);
	CHECK_STR(j.dropped, "mounted on /srv");
	lab_bench_jobs_release(&j);

	/* a file: its size (whole MiB), quoted, no allow_file_create */
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &file, &j, fresh(&err)) == 0);
	CHECK_HAS(j.command, " '--filename=/srv/it'\\''s here/lab.fio' "
	    "--size=300M --time_based");
	CHECK(strstr(j.command, "allow_file_create") == NULL);
	lab_bench_jobs_release(&j);

	/* bad targets: exit 2, nothing built */
	file.file_size = 1000;
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &file, &j, fresh(&err)) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, "give 1 MiB to 1 TiB");
	CHECK(j.command == NULL);
	dev.path = "sdb";
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &dev, &j, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "'sdb': not an absolute path");
	dev.path = "/tmp/x";
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &dev, &j, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "under /dev/");
	dev.path = "/dev/sdb\n; rm -rf /";
	CHECK(lab_bench_jobs_build(LAB_BENCH_QUICK, &dev, &j, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "line break");

	CHECK(lab_bench_profile_parse("full") == LAB_BENCH_FULL);
	CHECK(lab_bench_profile_parse("fast") == -1);
	CHECK_STR(lab_bench_test_name(LAB_BENCH_RAND_WRITE), "rand-write");
	CHECK(lab_bench_test_parse("seq-write") == LAB_BENCH_SEQ_WRITE);
	CHECK(lab_bench_test_parse("seq_write") == -1);
}

static void
test_fio(void)
{
	struct lab_bench_job_target	 t = { LAB_BENCH_TARGET_DEVICE,
		"/dev/loop0", 0, 0, NULL };
	struct lab_bench_result		*r;
	struct lab_err			 err;
	size_t				 n, len, i;
	char				*s, *p, *cut;

	lab_err_init(&err);
	s = slurp("fio/full.json", &len);
	CHECK(lab_bench_fio_parse(s, len, "rig:/dev/loop0", &t, &r, &n,
	    fresh(&err)) == 0);
	CHECK(n == 4);
	if (n == 4) {
		CHECK(r[0].test == LAB_BENCH_SEQ_READ);
		CHECK(r[3].test == LAB_BENCH_RAND_WRITE);
		/* recorded figures: bw_bytes / 1e6, clat_ns / 1e6 */
		NEAR(r[0].mb_s, 3356.386446);
		NEAR(r[0].iops, 3200.89955);
		NEAR(r[0].lat_mean_ms, 0.256561564);
		NEAR(r[0].lat_p99_ms, 1.35168);
		/* a rand-write job's figures are under "write" */
		NEAR(r[3].mb_s, 99.62101);
		NEAR(r[3].iops, 24321.535693);
		NEAR(r[3].lat_mean_ms, 1.3117724085);
		NEAR(r[3].lat_p99_ms, 7.04512);
		CHECK_STR(r[2].target, "/dev/loop0");
		CHECK(r[2].target_kind == LAB_BENCH_TARGET_DEVICE);
		CHECK(r[2].why == NULL);
	}
	for (i = 0; i < n; i++)
		lab_bench_result_release(&r[i]);
	free(r);

	/* an error in one job: named */
	p = strstr(strstr(s, "\"jobname\" : \"rand-read\""), "\"error\" : 0");
	CHECK(p != NULL);
	if (p != NULL) {
		p[10] = '5';
		CHECK(lab_bench_fio_parse(s, len, "rig:/dev/loop0", &t, &r, &n,
		    fresh(&err)) == -1);
		CHECK(err.code == LAB_EXIT_PARTIAL);
		CHECK_STR(err.msg, "rig:/dev/loop0: fio job 'rand-read': "
		    "failed with error 5 (Input/output error)");
		p[10] = '0';
	}
	/* cut short */
	CHECK(lab_bench_fio_parse(s, len / 2, "rig:/dev/loop0", &t, &r, &n,
	    fresh(&err)) == -1);
	CHECK_HAS(err.msg, "rig:/dev/loop0: fio output is cut short");
	/* a missing field */
	p = strstr(strstr(s, "\"jobname\" : \"seq-write\""), "\"write\" : {");
	cut = p != NULL ? strstr(p, "\"bw_bytes\"") : NULL;
	CHECK(cut != NULL);
	if (cut != NULL) {
		memcpy(cut, "\"bw_bytez\"", 10);
		CHECK(lab_bench_fio_parse(s, len, "h", &t, &r, &n, fresh(&err)) == -1);
		CHECK_HAS(err.msg, "h: fio job 'seq-write': write: bw_bytes");
		memcpy(cut, "\"bw_bytes\"", 10);
	}
	/* absurd figures */
	p = strstr(strstr(s, "\"jobname\" : \"seq-read\""), "\"iops\" : ");
	CHECK(p != NULL);
	if (p != NULL) {
		p[9] = '-';
		CHECK(lab_bench_fio_parse(s, len, "h", &t, &r, &n, fresh(&err)) == -1);
		CHECK_HAS(err.msg, "fio job 'seq-read': absurd figures");
		p[9] = '1';
	}
	CHECK(lab_bench_fio_parse(s, len, "h", &t, &r, &n, fresh(&err)) == 0);
	for (i = 0; i < n; i++)
		lab_bench_result_release(&r[i]);
	free(r);
	free(s);

	/* a read-only run, into a file */
	t.kind = LAB_BENCH_TARGET_FILE;
	t.path = "/srv/lab.fio";
	t.why = "mounted on /srv";
	s = slurp("fio/read-only.json", &len);
	CHECK(lab_bench_fio_parse(s, len, "h", &t, &r, &n, fresh(&err)) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(r[0].test == LAB_BENCH_SEQ_READ);
		CHECK(r[1].test == LAB_BENCH_RAND_READ);
		NEAR(r[1].iops, 156937.706229);
		CHECK(r[1].target_kind == LAB_BENCH_TARGET_FILE);
		CHECK_STR(r[1].why, "mounted on /srv");
	}
	for (i = 0; i < n; i++)
		lab_bench_result_release(&r[i]);
	free(r);
	free(s);

	/* not JSON, empty, no jobs, an unknown job, trailing text, a note
	   line fio prints before its JSON */
	CHECK(lab_bench_fio_parse("fio: command not found\n", 23, "h", &t,
	    &r, &n, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "h: fio output holds no JSON object");
	CHECK(lab_bench_fio_parse("", 0, "h", &t, &r, &n, fresh(&err)) == -1);
	CHECK(lab_bench_fio_parse("{\"jobs\": []}", 12, "h", &t, &r, &n,
	    fresh(&err)) == -1);
	CHECK_HAS(err.msg, "h: fio output has no jobs");
	CHECK(lab_bench_fio_parse("{\"jobs\": [{\"jobname\": \"x\"}]}", 29,
	    "h", &t, &r, &n, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "fio job 'x': not one of seq-read");
	CHECK(lab_bench_fio_parse("{\"jobs\": []} {", 14, "h", &t, &r, &n,
	    fresh(&err)) == -1);
	CHECK_HAS(err.msg, "not one JSON object");
	CHECK(lab_bench_fio_parse("note: x\n{\"jobs\": 1}", 20, "h", &t, &r,
	    &n, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "h: fio output has no jobs");
	CHECK(lab_bench_fio_parse("{\"a\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	    "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", 74, "h", &t, &r, &n,
	    fresh(&err)) == -1);
	CHECK_HAS(err.msg, "not JSON");
	/* absurd sizes: more text than any fio run gives is refused before
	   json-c builds a tree of it (about 110x the text) */
	s = calloc(1, (256 << 10) + 2);
	CHECK(s != NULL);
	if (s != NULL) {
		memset(s, ' ', (256 << 10) + 1);
		s[0] = '{';
		CHECK(lab_bench_fio_parse(s, (256 << 10) + 1, "h", &t, &r, &n,
		    fresh(&err)) == -1);
		CHECK_STR(err.msg, "h: fio output of 262145 bytes, more than "
		    "the 256 KiB lab reads");
		free(s);
	}
}

static void
test_smart(void)
{
	struct lab_smart	s;
	struct lab_err		err;
	size_t			len;
	char			*t;

	lab_err_init(&err);
	t = slurp("smart/ata-healthy.json", &len);
	CHECK(lab_smart_parse(t, len, "nas:/dev/sda", &s, fresh(&err)) == 0);
	CHECK(s.health == LAB_SMART_PASSED);
	CHECK_STR(s.model, "WDC WD5002ABYS-02B1B0");
	CHECK_STR(s.serial, "WD-WCAS2A100001");
	CHECK_STR(s.firmware, "02.03B03");
	CHECK(s.reallocated == 0 && s.pending == 0 &&
	    s.offline_uncorrectable == 0);
	CHECK(s.power_on_hours == 31245);
	CHECK(s.temperature_c == 34);
	CHECK(s.message == NULL);
	lab_smart_release(&s);
	free(t);

	t = slurp("smart/ata-failing.json", &len);
	CHECK(lab_smart_parse(t, len, "nas:/dev/sdb", &s, fresh(&err)) == 0);
	CHECK(s.health == LAB_SMART_FAILED);
	CHECK(s.reallocated == 1783);
	CHECK(s.temperature_c == 41);
	lab_smart_release(&s);
	free(t);

	t = slurp("smart/ata-bad-sectors.json", &len);
	CHECK(lab_smart_parse(t, len, "nas:/dev/sdc", &s, fresh(&err)) == 0);
	CHECK(s.health == LAB_SMART_PASSED);
	CHECK(s.reallocated == 8 && s.pending == 2 &&
	    s.offline_uncorrectable == 1);
	CHECK(s.power_on_hours == 27020);
	lab_smart_release(&s);
	free(t);

	/* qemu's emulated ATA disk (tests/vm), recorded for real: health
	 * passed, attribute 5 present, 197 and 198 absent */
	t = slurp("smart/qemu-ide.json", &len);
	CHECK(lab_smart_parse(t, len, "box:/dev/sdb", &s, fresh(&err)) == 0);
	CHECK(s.health == LAB_SMART_PASSED);
	CHECK_STR(s.model, "QEMU HARDDISK");
	CHECK_STR(s.serial, "LABIDE01");
	CHECK_STR(s.firmware, "2.5+");
	CHECK(s.reallocated == 0);
	CHECK(s.pending == -1 && s.offline_uncorrectable == -1);
	CHECK(s.power_on_hours == 1);
	CHECK(s.temperature_c == 31);
	CHECK(s.message == NULL);
	lab_smart_release(&s);
	free(t);

	/* a loop device: no SMART, smartctl's own message, not an error */
	t = slurp("smart/loop-no-smart.json", &len);
	CHECK(lab_smart_parse(t, len, "rig:/dev/loop0", &s, fresh(&err)) == 0);
	CHECK(s.health == LAB_SMART_UNKNOWN);
	CHECK_STR(s.message, "/dev/loop0: Unable to detect device type");
	CHECK(s.reallocated == -1 && s.pending == -1 &&
	    s.power_on_hours == -1 && s.temperature_c == -1);
	CHECK(s.serial == NULL);
	lab_smart_release(&s);
	free(t);

	t = slurp("smart/garbage.txt", &len);
	CHECK(lab_smart_parse(t, len, "nas:/dev/sda", &s, fresh(&err)) == -1);
	CHECK(err.code == LAB_EXIT_PARTIAL);
	CHECK_HAS(err.msg, "nas:/dev/sda: smartctl output holds no JSON");
	lab_smart_release(&s);
	free(t);
	CHECK(lab_smart_parse("{\"jobs\": []}", 12, "h", &s, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "h: not smartctl's JSON");
	CHECK(lab_smart_parse("{\"json_format_version\": [2, 0], "
	    "\"smartctl\": {}}", 47, "h", &s, fresh(&err)) == -1);
	CHECK_HAS(err.msg, "format version 2");
	/* NVMe: media errors as the uncorrectable count */
	t = "{\"json_format_version\": [1, 0], "
	    "\"smartctl\": {\"exit_status\": 0}, \"model_name\": \"X\", "
	    "\"smart_status\": {\"passed\": true}, "
	    "\"nvme_smart_health_information_log\": {\"media_errors\": 3}, "
	    "\"temperature\": {\"current\": 45}}";
	CHECK(lab_smart_parse(t, strlen(t), "h", &s, fresh(&err)) == 0);
	CHECK(s.offline_uncorrectable == 3 && s.reallocated == -1);
	CHECK(s.temperature_c == 45 && s.health == LAB_SMART_PASSED);
	lab_smart_release(&s);
}

/* A disk with sequential figures (and the random ones at a tenth). */
static void
disk(struct lab_bench_disk *d, const char *host, const char *slot,
    const char *dev, const char *serial, const char *kind,
    const char *model, const char *controller, double read, double write)
{
	size_t	i;

	lab_bench_disk_init(d);
	d->host = strdup(host);
	d->slot = strdup(slot);
	d->device = strdup(dev);
	d->serial = strdup(serial);
	d->kind = strdup(kind);
	d->model = strdup(model);
	d->controller = controller != NULL ? strdup(controller) : NULL;
	d->nresults = 4;
	d->results = calloc(4, sizeof(*d->results));
	for (i = 0; i < 4; i++) {
		d->results[i].test = (enum lab_bench_test)i;
		d->results[i].mb_s = (i % 2 ? write : read) / (i < 2 ? 1 : 10);
	}
	d->smart.reallocated = d->smart.pending = 0;
	d->smart.offline_uncorrectable = 0;
}

static size_t
count(const struct lab_bench_findings *f, const char *kind)
{
	size_t	i, n = 0;

	for (i = 0; i < f->n; i++)
		n += strcmp(f->v[i].kind, kind) == 0;
	return n;
}

static const struct lab_bench_finding *
find(const struct lab_bench_findings *f, const char *kind, const char *subj)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].kind, kind) == 0 &&
		    strcmp(f->v[i].subject, subj) == 0)
			return &f->v[i];
	return NULL;
}

static void
run(struct lab_bench_disk *d, size_t n, struct lab_bench_disk *others,
    size_t no, struct lab_bench_disks *hist, struct lab_bench_findings *f)
{
	struct lab_bench_findings_in	in = { d, n, others, no, hist };
	struct lab_err			err;

	lab_err_init(&err);
	memset(f, 0, sizeof(*f));
	CHECK(lab_bench_findings(&in, f, fresh(&err)) == 0);
}

static void
test_findings(void)
{
	struct lab_bench_disk		 d[4], o[2];
	struct lab_bench_disks		 hist[4];
	struct lab_bench_findings	 f;
	const struct lab_bench_finding	*x;
	size_t				 i;

	/* the seed: the SATA disk on the SC44Ge writes 11.3 MB/s, the one
	   on the onboard ICH9 31.6, equal reads */
	disk(&d[0], "dl320", "3", "/dev/sdb", "S1", "sata", "WD5002",
	    "sc44ge", 107, 11.3);
	disk(&d[1], "dl320", "4", "/dev/sdc", "S2", "sata", "WD5002", "ich9",
	    107, 31.6);
	run(d, 2, NULL, 0, NULL, &f);
	CHECK(count(&f, "slow-disk") == 2);	/* seq-write, rand-write */
	CHECK(count(&f, "slow-write-path") == 1);
	x = find(&f, "slow-disk", "dl320 sdb (slot 3)");
	CHECK(x != NULL);
	if (x != NULL) {
		CHECK_STR(x->severity, "warning");
		CHECK_STR(x->message, "sdb (slot 3, serial S1) writes 11.3 MB/s,"
		    " 0.36x the median 31.6 MB/s of its 1 peer (the same kind on"
		    " the host)");
	}
	x = find(&f, "slow-write-path", "dl320 sdb (slot 3)");
	CHECK(x != NULL);
	if (x != NULL) {
		CHECK_HAS(x->message, "sdb (slot 3, serial S1) writes 11.3 "
		    "MB/s but reads 107.0 MB/s: write/read 0.11, 0.36x the 0.30"
		    " of its 1 peer");
		CHECK_HAS(x->message, "on controller sc44ge, check the write "
		    "cache, the link speed and the port");
	}
	CHECK(find(&f, "slow-disk", "dl320 sdc (slot 4)") == NULL);
	lab_bench_findings_release(&f);

	/* two peers: the median of both; the peers themselves not flagged */
	disk(&d[2], "dl320", "5", "/dev/sdd", "S3", "sata", "WD5002", "ich9",
	    107, 31.6);
	run(d, 3, NULL, 0, NULL, &f);
	CHECK(count(&f, "slow-write-path") == 1);
	x = find(&f, "slow-disk", "dl320 sdb (slot 3)");
	CHECK(x != NULL && strstr(x->message, "of its 2 peers") != NULL);
	CHECK(find(&f, "slow-disk", "dl320 sdd (slot 5)") == NULL);
	CHECK(f.n == 3);
	lab_bench_findings_release(&f);

	/* slow reads too: a slow disk, not a slow write path */
	d[0].results[0].mb_s = 40;
	run(d, 3, NULL, 0, NULL, &f);
	CHECK(count(&f, "slow-write-path") == 0);
	CHECK(find(&f, "slow-disk", "dl320 sdb (slot 3)") != NULL);
	lab_bench_findings_release(&f);
	d[0].results[0].mb_s = 107;

	/* no peers: nothing to compare with */
	run(d, 1, NULL, 0, NULL, &f);
	CHECK(f.n == 0);
	lab_bench_findings_release(&f);

	/* equal disks: no finding */
	run(&d[1], 2, NULL, 0, NULL, &f);
	CHECK(f.n == 0);
	lab_bench_findings_release(&f);

	/* at 0.5x exactly: not below */
	d[0].results[1].mb_s = 15.8;
	run(d, 2, NULL, 0, NULL, &f);
	CHECK(find(&f, "slow-disk", "dl320 sdb (slot 3)") == NULL ||
	    strstr(find(&f, "slow-disk", "dl320 sdb (slot 3)")->message,
	    "writes 15.8") == NULL);
	lab_bench_findings_release(&f);
	d[0].results[1].mb_s = 11.3;

	/* another kind on the host is no peer; the same model elsewhere in
	   the lab is, when the host has none */
	disk(&d[3], "nas", "1", "/dev/sda", "S4", "ssd", "WD5002", NULL, 107,
	    11.3);
	disk(&o[0], "other", "1", "/dev/sda", "S5", "sata", "WD5002", NULL,
	    107, 31.6);
	disk(&o[1], "other", "2", "/dev/sdb", "S6", "sas", "DG072", NULL, 117,
	    117);
	run(&d[3], 1, o, 2, NULL, &f);
	x = find(&f, "slow-disk", "nas sda (slot 1)");
	CHECK(x != NULL && strstr(x->message, "of its 1 peer (the same model "
	    "across the lab)") != NULL);
	CHECK(find(&f, "slow-write-path", "nas sda (slot 1)") != NULL);
	lab_bench_findings_release(&f);

	/* its own history: below 0.5x its median; then SMART growth */
	memset(hist, 0, sizeof(hist));
	hist[1].n = 3;
	hist[1].v = calloc(3, sizeof(*hist[1].v));
	for (i = 0; i < 3; i++)
		disk(&hist[1].v[i], "dl320", "4", "/dev/sdc", "S2", "sata",
		    "WD5002", "ich9", 107, i == 1 ? 90 : 80);
	hist[1].v[2].smart.reallocated = 2;
	d[1].results[0].mb_s = 30;	/* reads: 30 against 107 */
	d[1].smart.reallocated = 8;
	d[1].smart.pending = 1;
	run(&d[1], 1, NULL, 0, &hist[1], &f);
	x = find(&f, "slow-disk", "dl320 sdc (slot 4)");
	CHECK(x != NULL);
	if (x != NULL)
		CHECK_STR(x->message, "sdc (slot 4, serial S2) reads 30.0 MB/s,"
		    " 0.28x its own median 107.0 MB/s over 3 earlier runs");
	x = find(&f, "smart", "dl320 sdc (slot 4)");
	CHECK(x != NULL);
	if (x != NULL) {
		CHECK_STR(x->severity, "critical");
		CHECK_STR(x->message, "sdc (slot 4, serial S2) has bad sectors: "
		    "8 reallocated (up from 2 at the last run), 1 pending (up from "
		    "0 at the last run): they are growing, replace it");
	}
	CHECK(f.n > 0 && strcmp(f.v[0].severity, "critical") == 0);
	lab_bench_findings_release(&f);

	/* the same counts as last time: a warning, not growth */
	hist[1].v[2].smart.reallocated = 8;
	hist[1].v[2].smart.pending = 1;
	run(&d[1], 1, NULL, 0, &hist[1], &f);
	x = find(&f, "smart", "dl320 sdc (slot 4)");
	CHECK(x != NULL && strcmp(x->severity, "warning") == 0);
	CHECK(x != NULL && strstr(x->message, "up from") == NULL);
	lab_bench_findings_release(&f);

	/* health failed; a burn-in with errors */
	d[1].smart.health = LAB_SMART_FAILED;
	d[1].smart.reallocated = d[1].smart.pending = 0;
	d[1].burnin.ran = 1;
	d[1].burnin.method = strdup("badblocks -w");
	d[1].burnin.errors = 4;
	d[1].burnin.detail = strdup("3 read, 0 write, 1 compare");
	run(&d[1], 1, NULL, 0, NULL, &f);
	CHECK(f.n == 2);
	x = find(&f, "smart", "dl320 sdc (slot 4)");
	CHECK(x != NULL && strstr(x->message, "failed its SMART health "
	    "check (model unknown") == NULL);
	x = find(&f, "burnin-errors", "dl320 sdc (slot 4)");
	CHECK(x != NULL);
	if (x != NULL)
		CHECK_STR(x->message, "sdc (slot 4, serial S2) burn-in "
		    "(badblocks -w) found 4 errors (3 read, 0 write, 1 "
		    "compare)");
	lab_bench_findings_release(&f);

	for (i = 0; i < 4; i++)
		lab_bench_disk_release(&d[i]);
	for (i = 0; i < 2; i++)
		lab_bench_disk_release(&o[i]);
	lab_bench_disks_release(&hist[1]);
}

int
main(void)
{
	test_jobs();
	test_fio();
	test_smart();
	test_findings();
	TESTS_DONE();
}
