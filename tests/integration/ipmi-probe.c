/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A test driver for lib/ipmi.c: one session, one verb, plain output.
 *
 *	ipmi-probe [-t MS] [-r MS] [-l PRIV] [-P] [-E] [-j N] ADDRESS PORT
 *	    USER CIPHER WORKAROUNDS VERB [ARG]
 *
 * The password comes from $LAB_TEST_PASSWORD. WORKAROUNDS is a comma list
 * of FreeIPMI words, or "-" for none. Errors go to stderr as
 * "ipmi-probe: MESSAGE" and the exit status is the struct lab_err code.
 * -j N runs N sessions at once, one per thread (verbs open and status), as
 * the fan-out engine will: every thread opens its session, all wait until
 * each has tried, then the open ones read the power state (status) or
 * just close (open).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/ipmi.h"

static const char *const usage_text =
    "usage: ipmi-probe [-t timeout_ms] [-r retransmit_ms] "
    "[-l user|operator|admin] [-P] [-E] [-j N]\n"
    "\tADDRESS PORT USER CIPHER WORKAROUNDS "
    "open|status|on|off|cycle|reset|soft|boot-get|boot-set DEV|sensors|sel\n";

static int
usage(void)
{
	fputs(usage_text, stderr);
	return LAB_EXIT_INPUT;
}

static int
number(const char *s, int *ret)
{
	char	*end;
	long	 v;

	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 0 || v > 1000000)
		return -1;
	*ret = (int)v;
	return 0;
}

static int
parse_workarounds(const char *list, unsigned *bits)
{
	char	*copy, *w, *save = NULL;
	int	 rv = 0;

	if (strcmp(list, "-") == 0)
		return 0;
	if ((copy = strdup(list)) == NULL)
		return -1;
	for (w = strtok_r(copy, ",", &save); w != NULL;
	    w = strtok_r(NULL, ",", &save))
		if (lab_ipmi_workaround_parse(w, bits) < 0) {
			fprintf(stderr, "ipmi-probe: unknown workaround '%s'\n",
			    w);
			rv = -1;
		}
	free(copy);
	return rv;
}

static int
boot_dev(const char *s, enum lab_boot_dev *ret)
{
	static const enum lab_boot_dev all[] = { LAB_BOOT_NONE, LAB_BOOT_PXE,
		LAB_BOOT_CDROM, LAB_BOOT_DISK, LAB_BOOT_BIOS };
	size_t	i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(s, lab_boot_name(all[i])) == 0) {
			*ret = all[i];
			return 0;
		}
	return -1;
}

static int
run(struct lab_ipmi *ip, const char *verb, const char *arg, int persistent,
    int efi, struct lab_err *err)
{
	static const struct {
		const char		*name;
		enum lab_power_action	 act;
	} acts[] = {
		{ "on", LAB_POWER_ACT_ON },
		{ "off", LAB_POWER_ACT_OFF },
		{ "cycle", LAB_POWER_ACT_CYCLE },
		{ "reset", LAB_POWER_ACT_RESET },
		{ "soft", LAB_POWER_ACT_SOFT },
	};
	struct lab_sensor	*sv;
	struct lab_sel_entry	*ev;
	enum lab_power		 p;
	enum lab_boot_dev	 dev;
	size_t			 i, n;

	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (strcmp(verb, acts[i].name) == 0) {
			if (lab_ipmi_power_set(ip, acts[i].act, err) < 0)
				return -1;
			printf("ok\n");
			return 0;
		}
	if (strcmp(verb, "open") == 0)
		printf("session: ok\n");
	else if (strcmp(verb, "status") == 0) {
		if (lab_ipmi_power_get(ip, &p, err) < 0)
			return -1;
		printf("power: %s\n", lab_power_name(p));
	} else if (strcmp(verb, "boot-get") == 0) {
		if (lab_ipmi_boot_get(ip, &dev, &persistent, &efi, err) < 0)
			return -1;
		printf("boot: %s persistent=%d efi=%d\n", lab_boot_name(dev),
		    persistent, efi);
	} else if (strcmp(verb, "boot-set") == 0) {
		if (arg == NULL || boot_dev(arg, &dev) < 0)
			return lab_err_set(err, LAB_EXIT_INPUT,
			    "boot-set needs none|pxe|cdrom|disk|bios");
		if (lab_ipmi_boot_set(ip, dev, persistent, efi, err) < 0)
			return -1;
		printf("ok\n");
	} else if (strcmp(verb, "sensors") == 0) {
		if (lab_ipmi_sensors(ip, &sv, &n, err) < 0)
			return -1;
		for (i = 0; i < n; i++) {
			printf("%s|%s|", sv[i].name, sv[i].type);
			if (sv[i].has_value)
				printf("%.2f", sv[i].value);
			else
				printf("-");
			printf("|%s|%s\n", sv[i].unit != NULL ? sv[i].unit :
			    "-", sv[i].state);
		}
		printf("sensors: %zu\n", n);
		lab_sensors_free(sv, n);
	} else if (strcmp(verb, "sel") == 0) {
		if (lab_ipmi_sel(ip, &ev, &n, err) < 0)
			return -1;
		for (i = 0; i < n; i++)
			printf("%u|%lld|%s|%s\n", ev[i].id, ev[i].time,
			    ev[i].sensor != NULL ? ev[i].sensor : "-",
			    ev[i].event);
		printf("sel: %zu entries\n", n);
		lab_sel_free(ev, n);
	} else
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown verb '%s'",
		    verb);
	return 0;
}

struct job {
	const struct lab_ipmi_target	*t;
	pthread_barrier_t		*all_open;
	int				 status;
	enum lab_power			 p;
	struct lab_err			 err;
	int				 rv;
};

static void *
job_run(void *arg)
{
	struct job	*j = arg;
	struct lab_ipmi	*ip = NULL;

	lab_err_init(&j->err);
	j->rv = lab_ipmi_open(j->t, &ip, &j->err);
	pthread_barrier_wait(j->all_open);
	if (j->rv == 0 && j->status)
		j->rv = lab_ipmi_power_get(ip, &j->p, &j->err);
	lab_ipmi_free(ip);
	return NULL;
}

/* -j: n sessions in n threads; prints each result in thread order. */
static int
parallel(const struct lab_ipmi_target *t, int n, int status)
{
	pthread_barrier_t	 all_open;
	struct job		*jobs;
	pthread_t		*th;
	int			 i, started, rc = 0;

	jobs = calloc((size_t)n, sizeof(*jobs));
	th = calloc((size_t)n, sizeof(*th));
	if (jobs == NULL || th == NULL) {
		free(jobs);
		free(th);
		fprintf(stderr, "ipmi-probe: out of memory\n");
		return LAB_EXIT_ENV;
	}
	pthread_barrier_init(&all_open, NULL, (unsigned)n);
	for (started = 0; started < n; started++) {
		jobs[started].t = t;
		jobs[started].all_open = &all_open;
		jobs[started].status = status;
		if (pthread_create(&th[started], NULL, job_run,
		    &jobs[started]) != 0)
			break;
	}
	if (started < n) {
		/* The barrier would wait forever: give up at once. */
		fprintf(stderr, "ipmi-probe: started %d threads of %d\n",
		    started, n);
		exit(LAB_EXIT_ENV);
	}
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&all_open);
	for (i = 0; i < started; i++) {
		if (jobs[i].rv == 0 && status)
			printf("%d: power: %s\n", i, lab_power_name(jobs[i].p));
		else if (jobs[i].rv == 0)
			printf("%d: session: ok\n", i);
		else {
			fprintf(stderr, "ipmi-probe: %d: %s\n", i,
			    jobs[i].err.msg);
			if (rc == 0)
				rc = jobs[i].err.code;
		}
	}
	free(jobs);
	free(th);
	return rc;
}

int
main(int argc, char **argv)
{
	struct lab_ipmi_target	 t = { 0 };
	struct lab_ipmi		*ip = NULL;
	struct lab_err		 err;
	int			 c, persistent = 0, efi = 0, jobs = 0, rv;

	lab_err_init(&err);
	while ((c = getopt(argc, argv, "t:r:l:PEj:")) != -1) {
		switch (c) {
		case 't':
			if (number(optarg, &t.timeout_ms) < 0)
				return usage();
			break;
		case 'r':
			if (number(optarg, &t.retransmit_ms) < 0)
				return usage();
			break;
		case 'l':
			if (strcmp(optarg, "user") == 0)
				t.privilege = LAB_IPMI_PRIV_USER;
			else if (strcmp(optarg, "operator") == 0)
				t.privilege = LAB_IPMI_PRIV_OPERATOR;
			else if (strcmp(optarg, "admin") == 0)
				t.privilege = LAB_IPMI_PRIV_ADMIN;
			else
				return usage();
			break;
		case 'P':
			persistent = 1;
			break;
		case 'E':
			efi = 1;
			break;
		case 'j':
			if (number(optarg, &jobs) < 0 || jobs < 1 ||
			    jobs > 256)
				return usage();
			break;
		default:
			return usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 6 || argc > 7)
		return usage();
	t.address = argv[0];
	if (number(argv[1], &t.port) < 0 ||
	    number(argv[3], &t.cipher_suite) < 0)
		return usage();
	t.username = argv[2];
	t.password = getenv("LAB_TEST_PASSWORD");
	if (parse_workarounds(argv[4], &t.workarounds) < 0)
		return LAB_EXIT_INPUT;

	if (jobs > 0) {
		if (strcmp(argv[5], "status") != 0 &&
		    strcmp(argv[5], "open") != 0)
			return usage();
		return parallel(&t, jobs, strcmp(argv[5], "status") == 0);
	}
	if (lab_ipmi_open(&t, &ip, &err) < 0)
		rv = -1;
	else
		rv = run(ip, argv[5], argc == 7 ? argv[6] : NULL, persistent,
		    efi, &err);
	lab_ipmi_free(ip);
	if (rv < 0) {
		fprintf(stderr, "ipmi-probe: %s\n", err.msg);
		return err.code;
	}
	return 0;
}
