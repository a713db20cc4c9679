/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_REASON_H
#define LAB_REASON_H

#include "lab/err.h"

/*
 * The short reason a target failed: one word (or two) from a fixed list,
 * for the RESULT column, CSV and JSON ("reason"). Set where the error is
 * made (lab_err_why), read with lab_err_reason(). The list, and what each
 * means, is in lab(1), FAILURE REASONS.
 */
#define LAB_REASON_TIMEOUT	"timeout"	/* no answer in the deadline */
#define LAB_REASON_AUTH		"auth failed"	/* user, password, key */
#define LAB_REASON_REFUSED	"refused"	/* the peer said no */
#define LAB_REASON_UNREACHABLE	"unreachable"	/* no route, no host */
#define LAB_REASON_NO_CRED	"no credential"	/* none in the file */
#define LAB_REASON_NO_BMC	"no bmc"	/* none in the inventory */
#define LAB_REASON_BAD_REPLY	"bad reply"	/* an answer we cannot use */
#define LAB_REASON_BUSY		"busy"		/* the peer is out of sessions */
#define LAB_REASON_PRIVILEGE	"no privilege"	/* the user may not */
#define LAB_REASON_LOCAL	"local error"	/* this machine's trouble */
#define LAB_REASON_FAILED	"failed"	/* none of the above */

/* The words above, NULL-terminated (for the tests and the docs). */
extern const char *const lab_reason_words[];

/*
 * lab_err_set() with a reason word (one of the above: a static string):
 * both are set only when no error is set yet. Returns -1.
 */
int	lab_err_why(struct lab_err *, const char *reason, enum lab_exit,
	    const char *, ...) LAB_PRINTF(4, 5);

/* Gives a set error a reason when it has none yet. */
void	lab_err_reason_set(struct lab_err *, const char *reason);

/*
 * The reason of a set error: its own, else "failed"; NULL when no error
 * is set.
 */
const char	*lab_err_reason(const struct lab_err *);

#if defined(__clang_analyzer__) && !defined(LAB_ERR_IMPL)
#define lab_err_why(...)	({ (void)lab_err_why(__VA_ARGS__); -1; })
#endif

#endif
