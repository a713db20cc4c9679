/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The light front (lab built with LAB_LIGHT, cmd/meson.build): `lab ls`,
 * `lab show` and `lab --version` run here, linked with SQLite, libyaml and
 * json-c only; every other command is the full lab (libfreeipmi,
 * libipmiconsole, net-snmp, libssh2 and their crypto), run in its place
 * by exec, so a command that talks to no BMC, switch or host does not pay
 * to load and relocate them (bench/startup).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"

#ifndef LAB_FULL_PATH
#define LAB_FULL_PATH	"/usr/libexec/lab/lab-full"
#endif

/*
 * The full lab: lab-full beside this binary (a build tree), else where
 * it is installed. Returns the path in buf.
 */
static const char *
full_path(char *buf, size_t len)
{
	static const char	 name[] = "lab-full";
	char			*slash;
	ssize_t			 n;

	n = readlink("/proc/self/exe", buf, len - sizeof(name) - 1);
	if (n > 0) {
		buf[n] = '\0';
		if ((slash = strrchr(buf, '/')) != NULL) {
			memcpy(slash + 1, name, sizeof(name));
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	return LAB_FULL_PATH;
}

/* Runs the full lab with the same arguments; returns only on failure. */
int
cmd_full_exec(char **argv)
{
	char		 buf[4096];
	const char	*path = full_path(buf, sizeof(buf));

	fflush(stdout);
	execv(path, argv);
	fprintf(stderr, "lab: cannot run %s: %s (the lab package installs "
	    "it: reinstall it)\n", path, strerror(errno));
	return LAB_EXIT_ENV;
}
