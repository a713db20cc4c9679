/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>

#define LAB_ERR_IMPL

#include "lab/reason.h"
#include "lab/text.h"

const char *const lab_reason_words[] = {
	LAB_REASON_TIMEOUT, LAB_REASON_AUTH, LAB_REASON_REFUSED,
	LAB_REASON_UNREACHABLE, LAB_REASON_NO_CRED, LAB_REASON_NO_BMC,
	LAB_REASON_BAD_REPLY, LAB_REASON_BUSY, LAB_REASON_PRIVILEGE,
	LAB_REASON_LOCAL, LAB_REASON_FAILED, NULL,
};

/* Sets the error and its reason unless one is set already; returns -1. */
int
lab_err_why(struct lab_err *err, const char *reason, enum lab_exit code,
    const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL || err->code != LAB_EXIT_OK)
		return -1;
	err->code = code == LAB_EXIT_OK ? LAB_EXIT_ENV : code;
	err->reason = reason;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	lab_utf8_trim(err->msg);
	return -1;
}

void
lab_err_reason_set(struct lab_err *err, const char *reason)
{
	if (err != NULL && err->code != LAB_EXIT_OK && err->reason == NULL)
		err->reason = reason;
}

const char *
lab_err_reason(const struct lab_err *err)
{
	if (err == NULL || err->code == LAB_EXIT_OK)
		return NULL;
	return err->reason != NULL ? err->reason : LAB_REASON_FAILED;
}
