/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A test driver for lib/bench-remote.c: one connection to a host made
 * from an inventory-like ssh: block, one verb, plain output.
 *
 *	bench-probe -i KEY -k KNOWN_HOSTS [-T RUN_MS] [-O FILE]
 *	    ADDRESS PORT run CMD | check SLOT DEV...
 *
 * run prints "exit: N" (or "signal: NAME"), "out: N bytes", "elapsed: MS"
 * and "err: LINE" for each line of stderr's tail; stdout goes to FILE
 * (-O). check prints "SLOT DEV: USE" then "  reason: ..." and
 * "  mount: ..." when set, for each pair. Errors go to stderr as
 * "bench-probe: MESSAGE" and the exit status is the struct lab_err code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/bench-remote.h"

static int
usage(void)
{
	fputs("usage: bench-probe -i key -k known_hosts [-T run_ms] "
	    "[-O file]\n\tADDRESS PORT run CMD | check SLOT DEV...\n",
	    stderr);
	return 2;
}

static int
fail(const struct lab_err *e)
{
	fprintf(stderr, "bench-probe: %s\n", e->msg);
	return e->code ? (int)e->code : 1;
}

static void
print_lines(const char *tag, const char *s)
{
	size_t	n;

	while (s != NULL && *s != '\0') {
		n = strcspn(s, "\n");
		printf("%s: %.*s\n", tag, (int)n, s);
		s += n;
		if (*s == '\n')
			s++;
	}
}

int
main(int argc, char **argv)
{
	struct lab_ssh_cfg	 cfg;
	struct lab_host		 h;
	struct lab_ssh		*s = NULL;
	struct lab_bench_output	 o;
	struct lab_disk_state	 st;
	struct lab_err		 e;
	const char		*out_file = NULL;
	FILE			*f;
	int			 c, run_ms = 0, i;

	memset(&cfg, 0, sizeof(cfg));
	memset(&h, 0, sizeof(h));
	while ((c = getopt(argc, argv, "i:k:O:T:")) != -1) {
		switch (c) {
		case 'i': cfg.identity = optarg; break;
		case 'k': cfg.known_hosts = optarg; break;
		case 'O': out_file = optarg; break;
		case 'T': run_ms = atoi(optarg); break;
		default: return usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 4 || (strcmp(argv[2], "run") == 0 && argc != 4) ||
	    (strcmp(argv[2], "check") == 0 && argc % 2 != 1))
		return usage();
	cfg.address = argv[0];
	cfg.port = atoi(argv[1]);
	h.name = "rig";
	h.ssh = &cfg;
	lab_err_init(&e);
	if (lab_bench_connect(NULL, &h, 0, &s, NULL, &e) == -1)
		return fail(&e);
	if (strcmp(argv[2], "run") == 0) {
		if (lab_bench_run(s, h.name, argv[3], run_ms, NULL, &o,
		    &e) == -1) {
			printf("elapsed: %lld\n", (long long)o.elapsed_ms);
			if (o.out != NULL || o.err_tail != NULL)
				printf("partial output returned\n");
			lab_bench_output_free(&o);
			lab_ssh_close(s);
			return fail(&e);
		}
		if (o.signal != NULL)
			printf("signal: %s\n", o.signal);
		else
			printf("exit: %d\n", o.exit_status);
		printf("out: %llu bytes\n", (unsigned long long)o.outbytes);
		printf("elapsed: %lld\n", (long long)o.elapsed_ms);
		print_lines("err", o.err_tail);
		if (out_file != NULL) {
			if ((f = fopen(out_file, "w")) == NULL ||
			    fwrite(o.out, 1, o.outlen, f) != o.outlen ||
			    fclose(f) != 0) {
				perror(out_file);
				return 3;
			}
		}
		lab_bench_output_free(&o);
		lab_ssh_close(s);
		return 0;
	}
	if (strcmp(argv[2], "check") != 0)
		return usage();
	for (i = 3; i + 1 < argc; i += 2) {
		if (lab_bench_disk_check(s, h.name, argv[i], argv[i + 1], &st,
		    &e) == -1) {
			lab_ssh_close(s);
			return fail(&e);
		}
		printf("%s %s: %s\n", argv[i], argv[i + 1],
		    lab_disk_use_name(st.use));
		if (st.reason[0] != '\0')
			printf("  reason: %s\n", st.reason);
		if (st.mount[0] != '\0')
			printf("  mount: %s\n", st.mount);
	}
	lab_ssh_close(s);
	return 0;
}
