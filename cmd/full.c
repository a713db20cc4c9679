/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The light front (lab built with LAB_LIGHT, cmd/meson.build): `lab ls`,
 * `lab show` and `lab --version` run here, linked with SQLite, libyaml and
 * json-c only; every other command is the full lab (libfreeipmi,
 * libipmiconsole, net-snmp, libssh2 and their crypto), run in its place
 * by exec, so a command that talks to no BMC, switch or host does not pay
 * to load and relocate them (bench/startup). Neither links libpq: it is
 * loaded at the first connection to a PostgreSQL database (lib/db/pq.h),
 * so these commands serve one here too.
 */
#include <sys/stat.h>

#include <dlfcn.h>
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
 * it is installed. Beside it is found first by the path this lab was run
 * by (argv[0] with a slash: a relative one works where a folder above
 * is not searchable by this user), then by /proc/self/exe. Returns the
 * path in buf.
 */
static const char *
full_path(const char *argv0, char *buf, size_t len)
{
	static const char	 name[] = "lab-full";
	char			*slash;
	ssize_t			 n;

	if (argv0 != NULL && strchr(argv0, '/') != NULL &&
	    strlen(argv0) < len - sizeof(name) - 1) {
		snprintf(buf, len, "%s", argv0);
		slash = strrchr(buf, '/');
		memcpy(slash + 1, name, sizeof(name));
		if (access(buf, X_OK) == 0)
			return buf;
	}
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

/*
 * The libraries lab-full needs and this front does not (its NEEDED
 * entries less the front's; tests/lint/light.sh checks this table against
 * readelf), with the Debian 12 package of each. Once exec'd, lab-full
 * cannot say which one is missing: the dynamic loader fails in the new
 * image (exit 127) and this front is gone. So the front looks first.
 */
static const struct {
	const char	*soname;
	const char	*package;
} full_libs[] = {
	{ "libssh2.so.1", "libssh2-1" },
	{ "libcrypto.so.3", "libssl3" },
	{ "libfreeipmi.so.17", "libfreeipmi17" },
	{ "libipmiconsole.so.2", "libipmiconsole2" },
	{ "libnetsnmp.so.40", "libsnmp40" },
	{ "libjson-c.so.5", "libjson-c5" },
};

/*
 * Whether lab-full's libraries can be loaded; on the first one that
 * cannot, says which and the package to install. The cheap way first: a
 * regular file of that name in the folder the C library was loaded from
 * (where Debian puts them all), 7 stat calls; only when that fails, the
 * dynamic loader's own search (dlopen: LD_LIBRARY_PATH, ld.so.cache),
 * which also tells a library that is there but broken. A library found
 * in that folder but shadowed by a broken one on LD_LIBRARY_PATH, or one
 * of their own dependencies missing, still fails in the loader (127).
 */
static int
full_libs_ok(void)
{
	char		 dir[4096], file[4352];
	const char	*slash;
	struct stat	 st;
	Dl_info		 info;
	void		*h;
	size_t		 i;

	dir[0] = '\0';
	if (dladdr((void *)strerror, &info) != 0 && info.dli_fname != NULL &&
	    (slash = strrchr(info.dli_fname, '/')) != NULL &&
	    (size_t)(slash - info.dli_fname) < sizeof(dir))
		snprintf(dir, sizeof(dir), "%.*s",
		    (int)(slash - info.dli_fname), info.dli_fname);
	for (i = 0; i < sizeof(full_libs) / sizeof(full_libs[0]); i++) {
		snprintf(file, sizeof(file), "%s/%s", dir, full_libs[i].soname);
		if (dir[0] != '\0' && stat(file, &st) == 0 &&
		    S_ISREG(st.st_mode))
			continue;
		if ((h = dlopen(full_libs[i].soname, RTLD_LAZY | RTLD_LOCAL))
		    != NULL) {
			dlclose(h);
			continue;
		}
		fprintf(stderr, "lab: cannot run this command: %s is missing or "
		    "broken (install the Debian package %s: apt install %s)\n",
		    full_libs[i].soname, full_libs[i].package,
		    full_libs[i].package);
		return 0;
	}
	return 1;
}

/* Runs the full lab with the same arguments; returns only on failure. */
int
cmd_full_exec(char **argv)
{
	char		 buf[4096];
	const char	*path = full_path(argv[0], buf, sizeof(buf));

	if (!full_libs_ok())
		return LAB_EXIT_ENV;
	fflush(stdout);
	execv(path, argv);
	fprintf(stderr, "lab: cannot run %s: %s (the lab package installs "
	    "it: reinstall it)\n", path, strerror(errno));
	return LAB_EXIT_ENV;
}
