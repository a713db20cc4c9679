/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_ERR_H
#define LAB_ERR_H

#include "lab/macro.h"

/*
 * Exit codes, listed once here and in the README:
 *	0 all ok, 1 some targets failed, 2 usage or input error,
 *	3 environment error (database, credentials, missing file, a local
 *	  resource such as file descriptors or memory running out).
 */
enum lab_exit {
	LAB_EXIT_OK = 0,
	LAB_EXIT_PARTIAL = 1,
	LAB_EXIT_INPUT = 2,
	LAB_EXIT_ENV = 3,
};

/*
 * The one error type. Library functions take it last, return -1 (or NULL)
 * on failure and fill it; the first error wins, callers may add context
 * with lab_err_prefix() while unwinding. cmd/lab.c prints it once.
 */
struct lab_err {
	enum lab_exit	 code;		/* LAB_EXIT_OK while unset */
	char		 msg[512];	/* fixed size: no allocation on the error path */
	int		 local;		/* this machine ran out of something
					   (lab_err_local, lab_err_oom) */
	const char	*reason;	/* a short word (include/lab/reason.h),
					   or NULL: set with the message */
};

/* Clears an error. */
void	lab_err_init(struct lab_err *);
/* Sets the error unless one is already set; always returns -1. */
int	lab_err_set(struct lab_err *, enum lab_exit, const char *, ...)
	    LAB_PRINTF(3, 4);
/* Prepends "ctx: " to a set error. */
void	lab_err_prefix(struct lab_err *, const char *, ...) LAB_PRINTF(2, 3);
/* Sets an out-of-memory error (LAB_EXIT_ENV); returns -1. */
int	lab_err_oom(struct lab_err *);

/*
 * What errno e means when it says this machine ran out of something
 * (EMFILE, ENFILE, ENOMEM, ENOBUFS), else NULL. Such a failure while
 * reaching a peer is the environment's (LAB_EXIT_ENV), never the peer's:
 * it is not recorded as the peer failing, and wins over a peer's failure
 * for the exit code.
 */
const char	*lab_errno_local(int);
/*
 * Sets such an error (LAB_EXIT_ENV, err->local set) unless one is set
 * already; always returns -1.
 */
int	lab_err_local(struct lab_err *, const char *, ...) LAB_PRINTF(2, 3);

/*
 * The static analyzer (clang-tidy, tests/lint) reads one file at a time
 * and cannot see that these two always return -1; without this it
 * follows paths where "return lab_err_set(...)" succeeds.
 */
#if defined(__clang_analyzer__) && !defined(LAB_ERR_IMPL)
#define lab_err_set(...)	({ (void)lab_err_set(__VA_ARGS__); -1; })
#define lab_err_oom(e)		({ (void)lab_err_oom(e); -1; })
#define lab_err_local(...)	({ (void)lab_err_local(__VA_ARGS__); -1; })
#endif

#endif
