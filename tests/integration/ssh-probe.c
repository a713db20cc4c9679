/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A test driver for lib/ssh.c: one connection, one verb, plain output.
 *
 *	ssh-probe [-AL] [-l LABEL] [-u USER] [-i KEY] [-k KNOWN_HOSTS]
 *	    [-t CONNECT_MS] [-T EXEC_MS] [-I FILE] [-O FILE] [-E FILE]
 *	    [-j N] ADDRESS PORT connect|exec CMD|upload PATH MODE
 *
 * -A accept-new, -L legacy algorithms. The key's passphrase comes from
 * $LAB_TEST_PASSPHRASE, a password from $LAB_TEST_PASSWORD. exec feeds
 * FILE (-I) on the command's stdin and writes its stdout and stderr to
 * the files -O and -E; upload sends FILE (-I). Prints "hostkey: TYPE
 * FINGERPRINT added|known", then (exec) "out: N bytes, the last M kept"
 * when stdout was cut and "exit: N" or "signal: NAME",
 * "uploaded: N bytes" for upload. Errors go to stderr as "ssh-probe:
 * MESSAGE" and the exit status is the struct lab_err code. -j N runs the
 * connection and verb N times at once, through lab_fanout_run(), and
 * prints each outcome prefixed by its index.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/fanout.h"
#include "lab/ssh.h"

static const char *const usage_text =
    "usage: ssh-probe [-AL] [-l label] [-u user] [-i key] [-k known_hosts]\n"
    "\t[-t connect_ms] [-T exec_ms] [-I file] [-O file] [-E file] [-j n]\n"
    "\tADDRESS PORT connect|exec CMD|upload PATH MODE\n";

struct probe {
	struct lab_ssh_opts	 o;
	const char		*verb;
	const char		*arg;
	int			 mode;
	int			 exec_ms;
	char			*input;
	size_t			 inlen;
	const char		*out_file;
	const char		*err_file;
};

struct job {
	struct lab_ssh_hostkey	key;
	struct lab_ssh_result	r;
	struct lab_err		err;
	int			rv;
};

struct jobs {
	const struct probe	*p;
	struct job		*job;
};

static int
usage(void)
{
	fputs(usage_text, stderr);
	return LAB_EXIT_INPUT;
}

static int
number(const char *s, int base, int *ret)
{
	char	*end;
	long	 v;

	v = strtol(s, &end, base);
	if (*s == '\0' || *end != '\0' || v < 0 || v > 100000000)
		return -1;
	*ret = (int)v;
	return 0;
}

static int
slurp(const char *path, char **ret, size_t *retlen)
{
	FILE	*f;
	char	*p = NULL;
	size_t	 len = 0, cap = 0, n;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	do {
		if (cap - len < 4096) {
			cap = cap * 2 + 4096;
			if ((p = realloc(p, cap)) == NULL)
				exit(LAB_EXIT_ENV);
		}
		n = fread(p + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	*ret = p;
	*retlen = len;
	return 0;
}

static void
spill(const char *path, const char *data, size_t len)
{
	FILE	*f;

	if (path == NULL || (f = fopen(path, "w")) == NULL)
		return;
	fwrite(data, 1, len, f);
	fclose(f);
}

/* One connection and verb. */
static void
work(size_t i, void *arg)
{
	struct jobs	*js = arg;
	const struct probe *p = js->p;
	struct job	*j = &js->job[i];
	struct lab_ssh	*s = NULL;

	lab_err_init(&j->err);
	j->rv = lab_ssh_connect(&p->o, &s, &j->key, &j->err);
	if (j->rv == 0 && strcmp(p->verb, "exec") == 0)
		j->rv = lab_ssh_exec(s, p->arg, p->input, p->inlen, p->exec_ms,
		    &j->r, &j->err);
	else if (j->rv == 0 && strcmp(p->verb, "upload") == 0)
		j->rv = lab_ssh_upload(s, p->arg, p->input, p->inlen, p->mode,
		    &j->err);
	lab_ssh_close(s);
}

static int
report(const struct probe *p, struct job *j, const char *prefix)
{
	if (j->key.type[0] != '\0')
		printf("%shostkey: %s %s %s\n", prefix, j->key.type,
		    j->key.fingerprint, j->key.added ? "added" : "known");
	if (strcmp(p->verb, "exec") == 0) {
		spill(p->out_file, j->r.out, j->r.outlen);
		spill(p->err_file, j->r.err, j->r.errlen);
		if (j->r.outbytes > j->r.outlen)
			printf("%sout: %llu bytes, the last %zu kept\n", prefix,
			    (unsigned long long)j->r.outbytes, j->r.outlen);
		if (j->rv == 0 && j->r.signal != NULL)
			printf("%ssignal: %s\n", prefix, j->r.signal);
		else if (j->rv == 0)
			printf("%sexit: %d\n", prefix, j->r.exit_status);
		lab_ssh_result_free(&j->r);
	} else if (j->rv == 0 && strcmp(p->verb, "upload") == 0)
		printf("%suploaded: %zu bytes\n", prefix, p->inlen);
	if (j->rv < 0) {
		fprintf(stderr, "ssh-probe: %s%s\n", prefix, j->err.msg);
		return j->err.code;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct probe	 p;
	struct jobs	 js;
	struct lab_err	 err;
	const char	*in_file = NULL;
	char		 prefix[32];
	int		 c, n = 0, rc = 0, i;

	memset(&p, 0, sizeof(p));
	while ((c = getopt(argc, argv, "ALl:u:i:k:t:T:I:O:E:j:")) != -1) {
		switch (c) {
		case 'A':
			p.o.accept_new = 1;
			break;
		case 'L':
			p.o.legacy_crypto = 1;
			break;
		case 'l':
			p.o.label = optarg;
			break;
		case 'u':
			p.o.user = optarg;
			break;
		case 'i':
			p.o.identity = optarg;
			break;
		case 'k':
			p.o.known_hosts = optarg;
			break;
		case 't':
			if (number(optarg, 10, &p.o.connect_timeout_ms) < 0)
				return usage();
			break;
		case 'T':
			if (number(optarg, 10, &p.exec_ms) < 0)
				return usage();
			break;
		case 'I':
			in_file = optarg;
			break;
		case 'O':
			p.out_file = optarg;
			break;
		case 'E':
			p.err_file = optarg;
			break;
		case 'j':
			if (number(optarg, 10, &n) < 0 || n < 1 || n > 256)
				return usage();
			break;
		default:
			return usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 3)
		return usage();
	p.o.address = argv[0];
	if (number(argv[1], 10, &p.o.port) < 0)
		return usage();
	p.verb = argv[2];
	if (strcmp(p.verb, "connect") == 0 && argc == 3)
		;
	else if (strcmp(p.verb, "exec") == 0 && argc == 4)
		p.arg = argv[3];
	else if (strcmp(p.verb, "upload") == 0 && argc == 5) {
		p.arg = argv[3];
		if (number(argv[4], 8, &p.mode) < 0)
			return usage();
	} else
		return usage();
	p.o.passphrase = getenv("LAB_TEST_PASSPHRASE");
	p.o.password = getenv("LAB_TEST_PASSWORD");
	if (in_file != NULL && slurp(in_file, &p.input, &p.inlen) < 0) {
		fprintf(stderr, "ssh-probe: cannot read %s\n", in_file);
		return LAB_EXIT_ENV;
	}

	js.p = &p;
	if ((js.job = calloc(n > 0 ? (size_t)n : 1, sizeof(*js.job))) == NULL)
		return LAB_EXIT_ENV;
	lab_err_init(&err);
	if (n == 0) {
		work(0, &js);
		rc = report(&p, &js.job[0], "");
	} else if (lab_fanout_run((size_t)n, (size_t)n, work, NULL, &js,
	    &err) < 0) {
		fprintf(stderr, "ssh-probe: %s\n", err.msg);
		rc = err.code;
	} else
		for (i = 0; i < n; i++) {
			snprintf(prefix, sizeof(prefix), "%d: ", i);
			c = report(&p, &js.job[i], prefix);
			if (rc == 0)
				rc = c;
		}
	free(js.job);
	free(p.input);
	return rc;
}
