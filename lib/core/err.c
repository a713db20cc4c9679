/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LAB_ERR_IMPL

#include "lab/err.h"
#include "lab/text.h"

/* Clears an error. */
void
lab_err_init(struct lab_err *err)
{
	err->code = LAB_EXIT_OK;
	err->msg[0] = '\0';
	err->local = 0;
	err->reason = NULL;
}

/* Sets the error unless one is set already; returns -1. */
int
lab_err_set(struct lab_err *err, enum lab_exit code, const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL || err->code != LAB_EXIT_OK)
		return -1;
	err->code = code == LAB_EXIT_OK ? LAB_EXIT_ENV : code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	/* a message cut to the buffer does not end mid-character */
	lab_utf8_trim(err->msg);
	return -1;
}

/* Prepends "context: " to the message of a set error. */
void
lab_err_prefix(struct lab_err *err, const char *fmt, ...)
{
	char	pre[256], old[sizeof(err->msg)];
	va_list	ap;

	if (err == NULL || err->code == LAB_EXIT_OK)
		return;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	lab_utf8_trim(pre);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s: %s", pre, old);
	lab_utf8_trim(err->msg);
}

/* Sets an out-of-memory error; returns -1. */
int
lab_err_oom(struct lab_err *err)
{
	return lab_err_local(err, "out of memory");
}
