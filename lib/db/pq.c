/* SPDX-License-Identifier: GPL-3.0-or-later */
#define LAB_PQ_LOADER
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "lab/err.h"
#include "pq.h"

/* libpq's soname on Debian 12, and the package that ships it */
#define PQ_SONAME	"libpq.so.5"
#define PQ_PACKAGE	"libpq5"

struct lab_pq	lab_pq;

static pthread_once_t	once = PTHREAD_ONCE_INIT;
static char		why[256];	/* empty once loaded */

static void
load(void)
{
	const char	*e;
	void		*h;

	if ((h = dlopen(PQ_SONAME, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		snprintf(why, sizeof(why), "%s", e ? e : PQ_SONAME);
		return;
	}
	/* POSIX's way to a function from dlsym (object to function
	   pointer is not ISO C) */
#define LAB_PQ_SYM(f) \
	if ((*(void **)&lab_pq.f = dlsym(h, #f)) == NULL) { \
		snprintf(why, sizeof(why), "%s: no %s", PQ_SONAME, #f); \
		return; \
	}
	LAB_PQ_FUNCS(LAB_PQ_SYM)
#undef LAB_PQ_SYM
}

int
lab_pq_load(const char *uri, struct lab_err *err)
{
	if (pthread_once(&once, load) != 0)
		snprintf(why, sizeof(why), "cannot load %s", PQ_SONAME);
	if (why[0] == '\0')
		return 0;
	return lab_err_set(err, LAB_EXIT_ENV, "database %s: PostgreSQL needs "
	    "libpq (install the Debian package %s: apt install %s): %s",
	    uri, PQ_PACKAGE, PQ_PACKAGE, why);
}
