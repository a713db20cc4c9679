/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/config.h"
#include "lab/dburi.h"
#include "lab/fanout.h"
#include "lab/file.h"
#include "lab/parse.h"
#include "lab/str.h"
#include "schema.h"
#include "yaml-priv.h"

const char *const lab_config_keys[] = { "db", "credentials", "fanout",
	"timeout", "format", "switch_deadline", NULL };

/* Frees; NULL is a no-op. */
void
lab_config_free(struct lab_config *c)
{
	size_t	i;

	if (c == NULL)
		return;
	for (i = 0; i < LAB_CONFIG_N; i++)
		free(c->value[i]);
	free(c->path);
	free(c);
}

/* For LAB_CLEANUP. */
void
lab_config_freep(struct lab_config **p)
{
	lab_config_free(*p);
}

/* Checks one value for key. */
int
lab_config_check(enum lab_config_key k, const char *s, struct lab_err *err)
{
	struct lab_db_uri	uri;
	long			v;

	switch (k) {
	case LAB_CONFIG_DB:
		if (*s != '\0')
			return lab_db_uri_parse(s, &uri, err);
		/* FALLTHROUGH */
	case LAB_CONFIG_CREDENTIALS:
		if (*s == '\0')
			return lab_err_set(err, LAB_EXIT_INPUT, "%s needs a "
			    "path", lab_config_keys[k]);
		return 0;
	case LAB_CONFIG_FANOUT:
		if (lab_parse_int(s, 1, LAB_FANOUT_MAX, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "fanout takes "
			    "a number from 1 to %d, not '%.64s'",
			    LAB_FANOUT_MAX, s);
		return 0;
	case LAB_CONFIG_TIMEOUT:
		if (lab_parse_int(s, 1, 3600, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "timeout takes "
			    "seconds from 1 to 3600, not '%.64s'", s);
		return 0;
	case LAB_CONFIG_FORMAT:
		if (strcmp(s, "json") != 0 && strcmp(s, "text") != 0 &&
		    strcmp(s, "csv") != 0)
			return lab_err_set(err, LAB_EXIT_INPUT, "format is "
			    "json, text or csv, not '%.64s'", s);
		return 0;
	case LAB_CONFIG_SWITCH_DEADLINE:
		if (lab_parse_int(s, 1, 86400, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "switch_deadline "
			    "takes seconds from 1 to 86400, not '%.64s'", s);
		return 0;
	default:
		return lab_err_set(err, LAB_EXIT_INPUT, "no such setting");
	}
}

static int
fail(const char *file, const struct ynode *n, struct lab_err *err,
    const char *msg, const char *arg)
{
	return lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: %s%.64s%s", file,
	    n->line, n->col, msg, arg ? arg : "", arg ? "'" : "");
}

static int
load_key(struct lab_config *c, const char *file, const struct ynode *k,
    const struct ynode *v, struct lab_err *err)
{
	int	i;

	if ((i = lab_schema_key(file, k, lab_config_keys, "config", 0,
	    err)) == -1)
		return -1;
	if (v->kind != YNODE_SCALAR || lab_yaml_is_null(v))
		return fail(file, v, err, "expected a string or number "
		    "for '", k->value);
	if (lab_config_check((enum lab_config_key)i, v->value, err) == -1) {
		lab_err_prefix(err, "%s:%d:%d", file, v->line, v->col);
		return -1;
	}
	if ((c->value[i] = strdup(v->value)) == NULL)
		return lab_err_oom(err);
	c->line[i] = v->line;
	return 0;
}

/* Reads a config file from memory. */
int
lab_config_load_buf(const char *name, const char *buf, size_t len,
    struct lab_config **ret, struct lab_err *err)
{
	struct ynode		*root = NULL;
	struct lab_config	*c;
	size_t			 i;
	int			 rc = -1;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return lab_err_oom(err);
	if ((c->path = strdup(name)) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	if (lab_yaml_tree_load(name, buf, len, &root, err) == -1)
		goto out;
	if (root == NULL || lab_yaml_is_null(root)) {
		rc = 0;
		goto out;
	}
	if (root->kind != YNODE_MAP) {
		fail(name, root, err, "the config file is a mapping such as "
		    "'db: /srv/lab/lab.db'", NULL);
		goto out;
	}
	for (i = 0; i + 1 < root->n; i += 2)
		if (load_key(c, name, root->items[i], root->items[i + 1],
		    err) == -1)
			goto out;
	rc = 0;
out:
	lab_yaml_tree_free(root);
	if (rc == 0)
		*ret = c;
	else
		lab_config_free(c);
	return rc;
}

/* Reads the config file at path; a missing one leaves *ret NULL. */
int
lab_config_load(const char *path, struct lab_config **ret,
    struct lab_err *err)
{
	char		*buf;
	size_t		 off = 0;
	int		 fd, rc;

	if ((fd = lab_file_open_read(path, LAB_EXIT_ENV, err)) == -2)
		return -1;
	if (fd == -1) {
		if (errno == ENOENT || errno == ENOTDIR) {
			*ret = NULL;
			return 0;
		}
		return lab_err_set(err, LAB_EXIT_ENV, "config file '%s': %s",
		    path, strerror(errno));
	}
	if (lab_yaml_file_read(fd, path, (size_t)1024 * 1024, &buf, &off, err) == -1)
		return -1;
	rc = lab_config_load_buf(path, buf, off, ret, err);
	free(buf);
	return rc;
}
