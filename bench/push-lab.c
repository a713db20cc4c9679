/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench/push's lab side: for every host at once (lib/fanout.c), one SSH
 * connection (lib/ssh.c) that renders TEMPLATE for the host (each
 * "@ADDRESS@" replaced by its address), uploads it to PATH (SFTP, then
 * an atomic rename), runs COMMAND and checks its exit status.
 *
 *	push-lab -i KEY -k KNOWN_HOSTS -p PORT -t TEMPLATE -d PATH
 *	    -c COMMAND ADDRESS...
 *
 * Prints "ADDRESS: OUTPUT" per host (the command's first line), errors
 * as "ADDRESS: error: MESSAGE" on stderr; exits 0 when every host
 * succeeded, else 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/fanout.h"
#include "lab/ssh.h"

struct host {
	const char		*address;
	char			*out;
	struct lab_err		 err;
	int			 rv;
};

struct push {
	struct lab_ssh_opts	 o;
	const char		*tmpl;
	const char		*path;
	const char		*cmd;
	struct host		*hosts;
};

/* The template with every "@ADDRESS@" replaced; NULL when out of memory. */
static char *
render(const char *tmpl, const char *address, size_t *ret_len)
{
	static const char	 tag[] = "@ADDRESS@";
	const char		*p, *q;
	char			*out;
	size_t			 n = 0, len = 0, alen = strlen(address);

	for (p = tmpl; (q = strstr(p, tag)) != NULL; p = q + sizeof(tag) - 1)
		n++;
	if ((out = malloc(strlen(tmpl) + n * alen + 1)) == NULL)
		return NULL;
	for (p = tmpl; (q = strstr(p, tag)) != NULL; p = q + sizeof(tag) - 1) {
		memcpy(out + len, p, (size_t)(q - p));
		len += (size_t)(q - p);
		memcpy(out + len, address, alen);
		len += alen;
	}
	memcpy(out + len, p, strlen(p) + 1);
	*ret_len = len + strlen(p);
	return out;
}

static void
work(size_t i, void *arg)
{
	struct push		*push = arg;
	struct host		*h = &push->hosts[i];
	struct lab_ssh_opts	 o = push->o;
	struct lab_ssh		*s = NULL;
	struct lab_ssh_result	 r;
	char			*cfg;
	size_t			 len;

	lab_err_init(&h->err);
	o.label = h->address;
	o.address = h->address;
	if ((cfg = render(push->tmpl, h->address, &len)) == NULL) {
		h->rv = lab_err_oom(&h->err);
		return;
	}
	h->rv = lab_ssh_connect(&o, &s, NULL, &h->err);
	if (h->rv == 0)
		h->rv = lab_ssh_upload(s, push->path, cfg, len, 0644, &h->err);
	if (h->rv == 0) {
		h->rv = lab_ssh_exec(s, push->cmd, NULL, 0, 30000, &r, &h->err);
		if (h->rv == 0 && r.exit_status != 0)
			h->rv = lab_err_set(&h->err, LAB_EXIT_PARTIAL,
			    "exit status %d: %s", r.exit_status, r.err);
		else if (h->rv == 0)
			h->out = strndup(r.out, strcspn(r.out, "\n"));
		lab_ssh_result_free(&r);
	}
	lab_ssh_close(s);
	free(cfg);
}

static char *
slurp(const char *path)
{
	FILE	*f;
	char	*p;
	long	 n;

	if ((f = fopen(path, "r")) == NULL || fseek(f, 0, SEEK_END) != 0 ||
	    (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    (p = malloc((size_t)n + 1)) == NULL ||
	    fread(p, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	p[n] = '\0';
	fclose(f);
	return p;
}

int
main(int argc, char **argv)
{
	struct push	 push;
	struct lab_err	 err;
	char		*tmpl = NULL;
	int		 c, i, n, rc = 0;

	memset(&push, 0, sizeof(push));
	while ((c = getopt(argc, argv, "i:k:p:t:d:c:")) != -1) {
		switch (c) {
		case 'i':
			push.o.identity = optarg;
			break;
		case 'k':
			push.o.known_hosts = optarg;
			break;
		case 'p':
			push.o.port = atoi(optarg);
			break;
		case 't':
			tmpl = slurp(optarg);
			break;
		case 'd':
			push.path = optarg;
			break;
		case 'c':
			push.cmd = optarg;
			break;
		default:
			goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || tmpl == NULL || push.path == NULL || push.cmd == NULL)
		goto usage;
	n = argc;
	push.tmpl = tmpl;
	if ((push.hosts = calloc((size_t)n, sizeof(*push.hosts))) == NULL)
		return 2;
	for (i = 0; i < n; i++)
		push.hosts[i].address = argv[i];
	lab_err_init(&err);
	if (lab_fanout_run((size_t)n, (size_t)n, work, NULL, &push, &err) < 0) {
		fprintf(stderr, "push-lab: %s\n", err.msg);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (push.hosts[i].rv == 0)
			printf("%s: %s\n", push.hosts[i].address,
			    push.hosts[i].out != NULL ? push.hosts[i].out : "");
		else {
			fprintf(stderr, "%s: error: %s\n",
			    push.hosts[i].address, push.hosts[i].err.msg);
			rc = 1;
		}
		free(push.hosts[i].out);
	}
	free(push.hosts);
	free(tmpl);
	return rc;
usage:
	fprintf(stderr, "usage: push-lab -i key -k known_hosts -p port "
	    "-t template -d path -c command address...\n");
	return 2;
}
