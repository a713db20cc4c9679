/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CONFIG_H
#define LAB_CONFIG_H

#include "lab/err.h"

/*
 * The config file ($XDG_CONFIG_HOME/lab/config.yaml, else
 * /etc/lab/config.yaml): defaults below the command line and the
 * environment, a flat YAML mapping such as
 *
 *	db: /srv/lab/lab.db
 *	credentials: /etc/lab/credentials.yaml
 *	fanout: 32
 *	timeout: 5
 *	format: text		# json | text | csv
	switch_deadline: 120	# seconds for the whole discovery of a switch
 *
 * Unknown keys and bad values are refused (LAB_EXIT_INPUT, naming
 * file:line:column). Paths are taken as written; cmd/ picks the file.
 */
enum lab_config_key {
	LAB_CONFIG_DB,
	LAB_CONFIG_CREDENTIALS,
	LAB_CONFIG_FANOUT,
	LAB_CONFIG_TIMEOUT,
	LAB_CONFIG_FORMAT,
	LAB_CONFIG_SWITCH_DEADLINE,
	LAB_CONFIG_N
};

/* The key names, in enum order, NULL-terminated. */
extern const char *const lab_config_keys[];

struct lab_config {
	char	*path;			/* the file read */
	char	*value[LAB_CONFIG_N];	/* NULL when the file leaves it out */
	int	 line[LAB_CONFIG_N];	/* 1-based line of each value */
};

/*
 * Reads the config file at path. A missing file is not an error: *ret is
 * then NULL. An unreadable file is LAB_EXIT_ENV, bad YAML, an unknown key
 * or a bad value LAB_EXIT_INPUT. *ret is caller-owned (lab_config_free).
 */
int	lab_config_load(const char *path, struct lab_config **ret,
	    struct lab_err *err);
/* The same from memory; name is used in messages and kept as path. */
int	lab_config_load_buf(const char *name, const char *buf, size_t len,
	    struct lab_config **ret, struct lab_err *err);
/*
 * Checks one value for key (also used for the environment); 0, or -1
 * with a message naming the key.
 */
int	lab_config_check(enum lab_config_key, const char *value,
	    struct lab_err *err);
/* Frees; NULL is a no-op. */
void	lab_config_free(struct lab_config *);
/* For LAB_CLEANUP. */
void	lab_config_freep(struct lab_config **);

#endif
