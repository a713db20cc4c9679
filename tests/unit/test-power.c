/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The fan-out bookkeeping of lab_bmc_run against an in-process fake BMC
 * (libvirt's test driver idea): which host gets which result, that a host
 * already on is left alone, waits, deadlines, bounded concurrency. The
 * real protocol is tested against ipmi_sim in tests/integration.
 */
#include <pthread.h>
#include <time.h>

#include "lab/cred.h"
#include "lab/bmc.h"
#include "lab/fanout.h"
#include "lab/reason.h"
#include "tests.h"

/* One fake BMC per address; behaviour chosen by the address. */
struct fake {
	const char	*address;
	enum lab_power	 power;
	int		 flip_after;	/* power_get calls before the state moves */
	enum lab_power	 flip_to;
	int		 sets;		/* power_set calls received */
	int		 opens;
	enum lab_boot_dev boot;
};

static struct fake fakes[] = {
	{ "10.0.0.1", LAB_POWER_OFF, 0, 0, 0, 0, 0 },	/* plain */
	{ "10.0.0.2", LAB_POWER_ON, 0, 0, 0, 0, 0 },	/* already on */
	{ "10.0.0.3", LAB_POWER_OFF, 0, 0, 0, 0, 0 },	/* auth fails */
	{ "10.0.0.4", LAB_POWER_OFF, 0, 0, 0, 0, 0 },	/* slow to move */
	{ "10.0.0.5", LAB_POWER_OFF, 0, 0, 0, 0, 0 },	/* never moves */
	{ "10.0.0.6", LAB_POWER_OFF, 0, 0, 0, 0, 0 },
	{ "10.0.0.7", LAB_POWER_OFF, 0, 0, 0, 0, 0 },
};

static pthread_mutex_t	lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	cond = PTHREAD_COND_INITIALIZER;
static int		inflight, maxflight, want_inflight;
/* per thread: a host's deadline is not used up by the others' polls */
static _Thread_local int64_t clock_ms;
static int		progress_calls;
/* set: every open fails as this machine out of fds would */
static int		open_local;
static size_t		progress_last;

static int64_t
fake_clock(void)
{
	/* every reading moves time on: waits end without real sleeping */
	clock_ms += 100;
	return clock_ms;
}

static int64_t
fake_wall(void)
{
	return 1000000;
}

static void
fake_sleep(int ms)
{
	(void)ms;
}

static struct fake *
find(const char *address)
{
	size_t	i;

	for (i = 0; i < sizeof(fakes) / sizeof(fakes[0]); i++)
		if (strcmp(fakes[i].address, address) == 0)
			return &fakes[i];
	return NULL;
}

static int
fake_open(const struct lab_ipmi_target *t, void **ret, struct lab_err *err)
{
	struct fake	*f = find(t->address);
	struct timespec	 until;

	CHECK(f != NULL);
	CHECK(t->cipher_suite == 3);
	CHECK_STR(t->password, "pw");
	pthread_mutex_lock(&lock);
	f->opens++;
	inflight++;
	if (inflight > maxflight)
		maxflight = inflight;
	/* hold every session until as many as asked are open at once */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	while (want_inflight > 0 && maxflight < want_inflight &&
	    pthread_cond_timedwait(&cond, &lock, &until) == 0)
		;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	if (open_local || strcmp(t->address, "10.0.0.3") == 0) {
		pthread_mutex_lock(&lock);
		inflight--;
		pthread_mutex_unlock(&lock);
		if (open_local)
			return lab_err_local(err, "cannot open a socket for "
			    "BMC %s:%d: too many open files", t->address,
			    t->port);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s:%d: "
		    "authentication failed (wrong user or password)",
		    t->address, t->port);
	}
	*ret = f;
	return 0;
}

static void
fake_close(void *s)
{
	(void)s;
	pthread_mutex_lock(&lock);
	inflight--;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/*
 * Waits (up to 2 s) for the sessions of the last run to be closed: the
 * last ones close in the background (lib/bmc.c close_later), and the
 * run's wait for them ends on the fake clock at once.
 */
static void
settle(void)
{
	struct timespec	until;

	pthread_mutex_lock(&lock);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	while (inflight > 0 &&
	    pthread_cond_timedwait(&cond, &lock, &until) == 0)
		;
	CHECK(inflight == 0);
	pthread_mutex_unlock(&lock);
}

static int
fake_get(void *s, enum lab_power *ret, struct lab_err *err)
{
	struct fake	*f = s;

	(void)err;
	pthread_mutex_lock(&lock);
	if (f->flip_after > 0 && --f->flip_after == 0)
		f->power = f->flip_to;
	*ret = f->power;
	pthread_mutex_unlock(&lock);
	return 0;
}

static int
fake_set(void *s, enum lab_power_action a, struct lab_err *err)
{
	struct fake	*f = s;

	(void)err;
	pthread_mutex_lock(&lock);
	f->sets++;
	if (strcmp(f->address, "10.0.0.4") == 0) {
		f->flip_after = 3;
		f->flip_to = a == LAB_POWER_ACT_OFF ? LAB_POWER_OFF :
		    LAB_POWER_ON;
	} else if (strcmp(f->address, "10.0.0.5") != 0)
		f->power = a == LAB_POWER_ACT_OFF || a == LAB_POWER_ACT_SOFT ?
		    LAB_POWER_OFF : LAB_POWER_ON;
	pthread_mutex_unlock(&lock);
	return 0;
}

static int
fake_boot_get(void *s, enum lab_boot_dev *dev, int *persistent, int *efi,
    struct lab_err *err)
{
	(void)err;
	*dev = ((struct fake *)s)->boot;
	*persistent = *efi = 0;
	return 0;
}

static int
fake_boot_set(void *s, enum lab_boot_dev dev, int persistent, int efi,
    struct lab_err *err)
{
	(void)persistent;
	(void)efi;
	(void)err;
	((struct fake *)s)->boot = dev;
	return 0;
}

static const struct lab_bmc_ops fake_ops = {
	.open = fake_open,
	.close = fake_close,
	.power_get = fake_get,
	.power_set = fake_set,
	.boot_get = fake_boot_get,
	.boot_set = fake_boot_set,
	.sleep_ms = fake_sleep,
};

/* status_many: h1 answers, h5 times out, the rest are left */
static size_t	many_max, many_asked;

static int
fake_many(struct lab_ipmi_many *v, size_t n, size_t max_parallel,
    int64_t (*clock)(void), void (*each)(void *, size_t), void *arg,
    struct lab_err *err)
{
	size_t	i;

	(void)err;
	CHECK(clock == fake_clock);
	many_max = max_parallel;
	many_asked = 0;
	for (i = 0; i < n; i++) {
		if (v[i].t == NULL)
			continue;
		many_asked++;
		CHECK(v[i].state == LAB_IPMI_MANY_LEFT);
		CHECK_STR(v[i].t->password, "pw");
		if (strcmp(v[i].t->address, "10.0.0.1") == 0) {
			v[i].state = LAB_IPMI_MANY_OK;
			v[i].reachable = 1;
			v[i].power = LAB_POWER_ON;
		} else if (strcmp(v[i].t->address, "10.0.0.5") == 0) {
			v[i].state = LAB_IPMI_MANY_FAILED;
			lab_err_why(&v[i].err, LAB_REASON_TIMEOUT,
			    LAB_EXIT_PARTIAL, "BMC %s: session timeout",
			    v[i].peer);
		} else
			continue;
		each(arg, i);
	}
	return 0;
}

static void
progress(void *arg, const char *host, size_t done, size_t total)
{
	(void)arg;
	CHECK(host != NULL);
	CHECK(done <= total);
	progress_calls++;
	progress_last = done;
}

static const char inventory[] =
	"hosts:\n"
	"  - {name: h1, model: generic-server, bmc: {type: ipmi, address: 10.0.0.1, credential: c}}\n"
	"  - {name: h2, model: generic-server, bmc: {type: ipmi, address: 10.0.0.2, credential: c}}\n"
	"  - {name: h3, model: generic-server, bmc: {type: ipmi, address: 10.0.0.3, credential: c}}\n"
	"  - {name: h4, model: generic-server, bmc: {type: ipmi, address: 10.0.0.4, credential: c}}\n"
	"  - {name: h5, model: generic-server, bmc: {type: ipmi, address: 10.0.0.5, credential: c}}\n"
	"  - {name: h6, model: generic-server, bmc: {type: ipmi, address: 10.0.0.6, credential: c}}\n"
	"  - {name: h7, model: generic-server, bmc: {type: ipmi, address: 10.0.0.7, credential: nope}}\n"
	"  - {name: h8, model: generic-server}\n";

static struct lab_bmc_result *
run(struct lab_inventory *inv, struct lab_creds *creds, struct lab_bmc_req *req,
    size_t *n)
{
	struct lab_bmc_result	*res = NULL;
	struct lab_strv		 hosts;
	struct lab_ctx		 ctx;
	struct lab_err		 err;
	size_t			 i;

	memset(&ctx, 0, sizeof(ctx));
	ctx.monotonic_ms = fake_clock;
	ctx.wall = fake_wall;
	ctx.progress = progress;
	lab_strv_init(&hosts);
	for (i = 0; i < inv->nhosts; i++)
		lab_strv_add(&hosts, inv->hosts[i].name);
	lab_err_init(&err);
	progress_calls = 0;
	if (req->ops == NULL)
		req->ops = &fake_ops;
	CHECK(lab_bmc_run(&ctx, inv, &hosts, creds, req, &res, &err) == 0);
	CHECK(progress_calls == (int)hosts.n);
	CHECK(progress_last == hosts.n);
	*n = hosts.n;
	lab_strv_release(&hosts);
	return res;
}

/* lab_bmc_run_record: the run's outcome is what the database keeps. */
static void
record(struct lab_inventory *inv, struct lab_creds *creds)
{
	struct lab_changes	 ch = { NULL, 0 };
	struct lab_bmc_result	*res = NULL;
	struct lab_power_seen	 seen;
	struct lab_bmc_req	 req;
	struct lab_strv		 hosts;
	struct lab_ctx		 ctx;
	struct lab_db		*db = NULL;
	struct lab_err		 err;

	lab_err_init(&err);
	CHECK(lab_db_open(":memory:", LAB_DB_CREATE, &db, &err) == 0);
	CHECK(lab_db_inventory_apply(db, inv, 0, 1000, &ch, &err) == 0);
	lab_changes_release(&ch);
	memset(&ctx, 0, sizeof(ctx));
	ctx.monotonic_ms = fake_clock;
	ctx.wall = fake_wall;
	lab_strv_init(&hosts);
	lab_strv_add(&hosts, "h1");
	lab_strv_add(&hosts, "h3");
	memset(&req, 0, sizeof(req));
	req.verb = LAB_BMC_STATUS;
	req.ops = &fake_ops;
	/* a dry run records nothing */
	req.dry_run = 1;
	CHECK(lab_bmc_run_record(&ctx, db, inv, &hosts, NULL, &req, 2000,
	    &res, &err) == 0);
	CHECK(res != NULL && res[0].ok);
	lab_bmc_results_free(res, hosts.n);
	CHECK(lab_db_power_seen(db, "h1", &seen, &err) == 0);
	CHECK(seen.checked_at == 0);
	lab_power_seen_release(&seen);
	/* a run records each host, the unreachable one too */
	req.dry_run = 0;
	CHECK(lab_bmc_run_record(&ctx, db, inv, &hosts, creds, &req, 3000,
	    &res, &err) == 0);
	CHECK(res[0].ok && !res[1].ok);
	lab_bmc_results_free(res, hosts.n);
	CHECK(lab_db_power_seen(db, "h1", &seen, &err) == 0);
	CHECK(seen.checked_at == 3000 && seen.reachable);
	lab_power_seen_release(&seen);
	CHECK(lab_db_power_seen(db, "h3", &seen, &err) == 0);
	CHECK(seen.checked_at == 3000 && !seen.reachable);
	CHECK_HAS(seen.error, "authentication failed");
	lab_power_seen_release(&seen);
	/* a session this machine could not open is not the BMC's failure:
	   nothing is recorded, the last answer stays */
	open_local = 1;
	CHECK(lab_bmc_run_record(&ctx, db, inv, &hosts, creds, &req, 4000,
	    &res, &err) == 0);
	open_local = 0;
	CHECK(!res[0].ok && !res[0].reachable &&
	    res[0].err.code == LAB_EXIT_ENV && res[0].err.local);
	lab_bmc_results_free(res, hosts.n);
	CHECK(lab_db_power_seen(db, "h1", &seen, &err) == 0);
	CHECK(seen.checked_at == 3000 && seen.reachable && seen.error == NULL);
	lab_power_seen_release(&seen);
	CHECK(lab_db_power_seen(db, "h3", &seen, &err) == 0);
	CHECK(seen.checked_at == 3000);
	CHECK_HAS(seen.error, "authentication failed");
	lab_power_seen_release(&seen);
	lab_db_free(db);
	lab_strv_release(&hosts);
}

/* A fan-out job's result, for the tests of the job itself. */
struct job_res {
	int	 worked;
	char	*name;
};

static void
job_work(void *arg, const void *item, void *res)
{
	struct job_res	*r = res;

	CHECK(item == arg);
	r->worked = 1;
}

static const void *
job_find(const void *from, const char *name, struct lab_err *err)
{
	if (strcmp(name, "bogus") == 0) {
		lab_err_set(err, LAB_EXIT_INPUT, "no '%s'", name);
		return NULL;
	}
	return from;
}

/*
 * The fan-out's scaffolding: names found and copied into the results,
 * progress told of each with its name; an unknown name fails the whole
 * run before anything ran, in the finder's words.
 */
static void
job(struct lab_inventory *inv, struct lab_creds *creds)
{
	static const char	 item[] = "item";
	struct lab_fanout_job	 j = LAB_FANOUT_JOB(NULL, struct job_res,
				    name, job_work, (void *)item);
	struct lab_bmc_result	*res = NULL;
	struct job_res		*jr;
	struct lab_bmc_req	 req;
	struct lab_strv		 names;
	struct lab_ctx		 ctx;
	struct lab_err		 err;

	lab_strv_init(&names);
	lab_strv_add(&names, "a");
	lab_strv_add(&names, "b");
	lab_err_init(&err);
	CHECK(lab_fanout_job_run(&j, &names, job_find, item, 1, &err) == 0);
	jr = j.res;
	CHECK(j.items == NULL && j.finished == 0);
	CHECK(jr[0].worked && jr[1].worked && !jr[2].worked);
	CHECK_STR(jr[0].name, "a");
	CHECK_STR(jr[1].name, "b");
	free(jr[0].name);
	free(jr[1].name);
	free(jr);
	lab_strv_add(&names, "bogus");
	CHECK(lab_fanout_job_run(&j, &names, job_find, item, 1, &err) == -1);
	CHECK(j.res == NULL && j.items == NULL);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_STR(err.msg, "no 'bogus'");

	/* the inventory's finders say what is unknown */
	lab_err_init(&err);
	CHECK(lab_inventory_find_host(inv, "h1", &err) ==
	    lab_inventory_host(inv, "h1"));
	CHECK(lab_inventory_find_switch(inv, "sw9", &err) == NULL);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_STR(err.msg, "unknown switch 'sw9' (see 'lab ls switches')");

	/* the BMC run: an unknown host is an input error, nothing is run */
	memset(&ctx, 0, sizeof(ctx));
	ctx.monotonic_ms = fake_clock;
	ctx.wall = fake_wall;
	ctx.progress = progress;
	memset(&req, 0, sizeof(req));
	req.verb = LAB_BMC_STATUS;
	req.ops = &fake_ops;
	lab_strv_release(&names);
	lab_strv_init(&names);
	lab_strv_add(&names, "h1");
	lab_strv_add(&names, "bogus");
	lab_err_init(&err);
	progress_calls = 0;
	CHECK(lab_bmc_run(&ctx, inv, &names, creds, &req, &res, &err) == -1);
	CHECK(res == NULL && progress_calls == 0);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_STR(err.msg, "unknown host 'bogus'");
	lab_strv_release(&names);
}

int
main(void)
{
	struct lab_inventory	*inv = lab_inventory_new();
	struct lab_creds	*creds = NULL;
	struct lab_bmc_result	*r;
	struct lab_bmc_req	 req;
	struct lab_err		 err;
	static const char	 cred_yaml[] = "c: {username: u, password: pw}\n";
	struct lab_bmc_ops	 many_ops;
	struct lab_strv		 named;
	size_t			 n, i;
	int			 d;

	lab_err_init(&err);
	CHECK(lab_inventory_load_buf(inv, "t.yaml", inventory,
	    sizeof(inventory) - 1, &err) == 0);
	lab_inventory_sort(inv);
	CHECK(lab_creds_load_buf("c.yaml", cred_yaml, sizeof(cred_yaml) - 1,
	    &creds, &err) == 0);

	/* power on, waiting: each host gets its own result, in order */
	memset(&req, 0, sizeof(req));
	req.verb = LAB_BMC_ON;
	req.wait = 1;
	req.timeout_ms = 2000;
	req.fanout = 4;
	want_inflight = 4;
	r = run(inv, creds, &req, &n);
	CHECK(n == 8);
	for (i = 0; i < n; i++)
		CHECK_STR(r[i].host, inv->hosts[i].name);
	CHECK(r[0].ok && r[0].state == LAB_POWER_ON && r[0].acted);
	CHECK_STR(r[0].note, "powered on");
	/* already on: reported, and no command sent at all */
	CHECK(r[1].ok && r[1].state == LAB_POWER_ON && !r[1].acted);
	CHECK_STR(r[1].note, "already on");
	CHECK(fakes[1].sets == 0);
	/* authentication failure: its own message, the rest go on */
	CHECK(!r[2].ok && !r[2].reachable);
	CHECK_HAS(r[2].err.msg, "authentication failed");
	/* slow: polled until it moved */
	CHECK(r[3].ok && r[3].state == LAB_POWER_ON);
	/* never moves: the deadline ends the wait, and the state is true */
	CHECK(!r[4].ok && r[4].state == LAB_POWER_OFF);
	CHECK_HAS(r[4].err.msg, "gave up waiting for on");
	CHECK(r[5].ok);
	/* a credential missing from the file: that host only */
	CHECK(!r[6].ok);
	CHECK_HAS(r[6].err.msg, "credential 'nope' is not in the credentials file");
	CHECK(fakes[6].opens == 0);
	/* no BMC: its own line, and an action on it is not ok */
	CHECK(r[7].no_bmc && !r[7].ok);
	CHECK_HAS(r[7].err.msg, "no BMC recorded");
	/* concurrency was bounded by the fan-out and reached it */
	CHECK(maxflight == 4);
	lab_bmc_results_free(r, n);

	/* status: no BMC is not a failure of a read */
	settle();
	maxflight = 0;
	want_inflight = 0;
	req.verb = LAB_BMC_STATUS;
	req.fanout = 1;
	r = run(inv, creds, &req, &n);
	CHECK(maxflight == 1);
	CHECK(r[0].ok && r[0].state == LAB_POWER_ON);
	CHECK(r[7].ok && r[7].no_bmc);
	CHECK(!r[2].ok);
	lab_bmc_results_free(r, n);

	/* a read that is no power verb: nothing to do by hand instead */
	req.verb = LAB_BMC_BOOT_GET;
	r = run(inv, creds, &req, &n);
	CHECK(r[7].no_bmc && !r[7].ok);
	CHECK_STR(r[7].err.msg, "no BMC in the inventory");
	lab_bmc_results_free(r, n);

	/* power on again: every reachable host is already on, none is sent */
	for (i = 0; i < 7; i++)
		fakes[i].sets = 0;
	req.verb = LAB_BMC_ON;
	req.fanout = 0;
	r = run(inv, creds, &req, &n);
	CHECK_STR(r[0].note, "already on");
	CHECK(fakes[0].sets == 0 && fakes[3].sets == 0 && fakes[5].sets == 0);
	lab_bmc_results_free(r, n);

	/* off, then a reset of a host that is off is refused */
	req.verb = LAB_BMC_OFF;
	r = run(inv, creds, &req, &n);
	CHECK(r[0].ok && r[0].state == LAB_POWER_OFF);
	lab_bmc_results_free(r, n);
	req.verb = LAB_BMC_RESET;
	r = run(inv, creds, &req, &n);
	CHECK(!r[0].ok);
	CHECK_HAS(r[0].err.msg, "host is off");
	lab_bmc_results_free(r, n);

	/* cycle of a host that is off powers it on */
	req.verb = LAB_BMC_CYCLE;
	r = run(inv, creds, &req, &n);
	CHECK(r[0].ok && r[0].state == LAB_POWER_ON);
	CHECK_STR(r[0].note, "was off: powered on");
	lab_bmc_results_free(r, n);

	/* boot set is read back */
	req.verb = LAB_BMC_BOOT_SET;
	req.boot = LAB_BOOT_PXE;
	r = run(inv, creds, &req, &n);
	CHECK(r[0].ok && r[0].boot == LAB_BOOT_PXE);
	CHECK(fakes[0].boot == LAB_BOOT_PXE);
	lab_bmc_results_free(r, n);

	/* a dry run contacts nothing and needs no credentials */
	for (i = 0; i < 7; i++)
		fakes[i].opens = 0;
	req.verb = LAB_BMC_OFF;
	req.dry_run = 1;
	r = run(inv, NULL, &req, &n);
	for (i = 0; i < 7; i++)
		CHECK(fakes[i].opens == 0);
	CHECK(r[0].ok);
	CHECK_HAS(r[0].note, "would send power off to BMC 10.0.0.1:623");
	lab_bmc_results_free(r, n);
	/* given them, it fails where the run would, still contacting none */
	r = run(inv, creds, &req, &n);
	for (i = 0; i < 7; i++)
		CHECK(fakes[i].opens == 0);
	CHECK(r[0].ok && !r[6].ok);
	CHECK_HAS(r[6].err.msg, "credential 'nope' is not in the credentials file");
	CHECK(r[7].no_bmc && !r[7].ok && !r[7].skipped);
	lab_bmc_results_free(r, n);
	/* a host without a BMC that no one named (a group, --all) is skipped;
	   named, it fails; in a dry run as in the run */
	lab_strv_init(&named);
	lab_strv_add(&named, "h1");
	req.named = &named;
	for (d = 0; d < 2; d++) {
		req.dry_run = d;
		r = run(inv, creds, &req, &n);
		CHECK(r[7].no_bmc && r[7].ok && r[7].skipped);
		CHECK(!r[0].skipped);
		lab_bmc_results_free(r, n);
	}
	lab_strv_add(&named, "h8");
	for (d = 0; d < 2; d++) {
		req.dry_run = d;
		r = run(inv, creds, &req, &n);
		CHECK(r[7].no_bmc && !r[7].ok && !r[7].skipped);
		CHECK_HAS(r[7].err.msg, "no BMC recorded");
		lab_bmc_results_free(r, n);
	}
	/* the status of nothing is no failure, named or not */
	req.verb = LAB_BMC_STATUS;
	r = run(inv, creds, &req, &n);
	CHECK(r[7].no_bmc && r[7].ok && !r[7].skipped);
	lab_bmc_results_free(r, n);
	req.named = NULL;
	lab_strv_release(&named);

	/*
	 * status through one loop: what it ends is never opened again and
	 * is told to progress once; what it leaves goes to the threads; it
	 * is given the fan-out and only hosts with a BMC and credentials
	 */
	for (i = 0; i < 7; i++)
		fakes[i].opens = 0;
	many_ops = fake_ops;
	many_ops.status_many = fake_many;
	req.dry_run = 0;
	req.fanout = 3;
	req.ops = &many_ops;
	r = run(inv, creds, &req, &n);
	CHECK(many_max == 3 && many_asked == 6);
	CHECK(fakes[0].opens == 0 && fakes[4].opens == 0);
	CHECK(fakes[1].opens == 1 && fakes[5].opens == 1);
	CHECK(r[0].ok && r[0].reachable && r[0].state == LAB_POWER_ON);
	CHECK_STR(r[0].bmc, "10.0.0.1:623");
	CHECK(!r[4].ok && !r[4].reachable);
	CHECK_STR(r[4].err.msg, "BMC 10.0.0.5:623: session timeout");
	CHECK_STR(r[4].reason, LAB_REASON_TIMEOUT);
	CHECK(r[1].ok && r[1].state == fakes[1].power);
	CHECK_STR(r[1].bmc, "10.0.0.2:623");
	CHECK(!r[2].ok);
	CHECK_HAS(r[2].err.msg, "authentication failed");
	CHECK(!r[6].ok && fakes[6].opens == 0);
	CHECK(r[7].ok && r[7].no_bmc);
	lab_bmc_results_free(r, n);
	/* any other verb, or a dry run, is not for the loop */
	many_asked = 0;
	req.dry_run = 1;
	r = run(inv, creds, &req, &n);
	lab_bmc_results_free(r, n);
	req.dry_run = 0;
	req.verb = LAB_BMC_BOOT_GET;
	r = run(inv, creds, &req, &n);
	lab_bmc_results_free(r, n);
	CHECK(many_asked == 0 && many_max == 3);
	req.ops = NULL;

	record(inv, creds);
	job(inv, creds);

	lab_creds_free(creds);
	lab_inventory_free(inv);
	TESTS_DONE();
}
