/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define LAB_ERR_IMPL

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

/* Sets a local resource error unless one is set already; returns -1. */
int
lab_err_local(struct lab_err *err, const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL || err->code != LAB_EXIT_OK)
		return -1;
	err->code = LAB_EXIT_ENV;
	err->local = 1;
	err->reason = "local error";
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}
