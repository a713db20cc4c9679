/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CRED_H
#define LAB_CRED_H

#include <stddef.h>

#include "lab/err.h"
#include "lab/str.h"

/*
 * The credentials file: YAML mapping a name (what the inventory's
 * `credential:` says) to its secrets:
 *
 *	rac-default: {username: admin, password: "..."}
 *	sg200-ro:    {community: "..."}
 *	sg200-v3:    {username: lab, auth_protocol: sha, auth_password: "...",
 *	              priv_protocol: aes, priv_password: "..."}
 *
 * It is refused when group or others can access it. Secrets stay in this
 * structure: never in the database, logs, output or a child's argv, and
 * they are wiped when it is freed. No error message quotes a value.
 */
struct lab_cred {
	char	*name;
	char	*username;
	char	*password;
	char	*community;
	char	*auth_protocol;		/* md5 | sha | sha256 ... */
	char	*auth_password;
	char	*priv_protocol;		/* des | aes */
	char	*priv_password;
	char	*identity;		/* an SSH private key file */
};

struct lab_creds {
	struct lab_cred	*v;
	size_t		 n;
};

/*
 * Reads the credentials file at path. A missing or too-open file is
 * LAB_EXIT_ENV; bad YAML is LAB_EXIT_INPUT naming file:line:column.
 * *ret is caller-owned (lab_creds_free).
 */
int	lab_creds_load(const char *path, struct lab_creds **ret,
	    struct lab_err *err);
/* The same from memory, without the permission check (tests, fuzzing). */
int	lab_creds_load_buf(const char *name, const char *buf, size_t len,
	    struct lab_creds **ret, struct lab_err *err);
/* The credential called name, or NULL; borrowed from creds. */
const struct lab_cred *lab_creds_find(const struct lab_creds *,
	    const char *name);
/* Wipes and frees; NULL is a no-op. */
void	lab_creds_free(struct lab_creds *);
/* For LAB_CLEANUP. */
void	lab_creds_freep(struct lab_creds **);

/*
 * The command line as one string for the audit log, with the value of any
 * secret-looking option (--password X, --community=X, key=secret ...)
 * replaced by "***", and the password of any URL in it too
 * (http://user:***@host/..., lab_url_redact). Caller-owned; NULL when out
 * of memory.
 */
char	*lab_redact_argv(int argc, char *const *argv);
/*
 * Splits such a line back into its (redacted) words (lib/core/argv-split.c);
 * -1 when out of memory.
 */
int	lab_argv_split(const char *line, struct lab_strv *ret);

#endif
