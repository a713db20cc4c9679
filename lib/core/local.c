/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stddef.h>

#include "lab/err.h"

/* Whether errno e says this machine ran out of something. */
const char *
lab_errno_local(int e)
{
	switch (e) {
	case EMFILE:
		return "too many open files (the process's limit, ulimit -n)";
	case ENFILE:
		return "too many open files in the system";
	case ENOMEM:
		return "out of memory";
	case ENOBUFS:
		return "no buffer space";
	default:
		return NULL;
	}
}
