/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The known issues of firmware (include/lab/facts.h): the YAML loader.
 * A file holds one top-level key, known_issues:, a list of
 *
 *   - match: {model: hp-microserver-*, bmc: rac, component: bmc,
 *             below: "1.30"}
 *     severity: warning
 *     message: "..."
 *     source: "https://..."
 *
 * match needs component (what the firmware is of) and exactly one of
 * below, equal and matching; model is a catalogue model or a glob.
 * Inventory files may hold the same key beside hosts and switches
 * (lib/inventory/load.c hands each item here).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/file.h"
#include "lab/model.h"
#include "inventory-priv.h"
#include "core/schema.h"
#include "core/yaml-priv.h"

static const char *const top_keys[] = { "known_issues", NULL };
static const char *const issue_keys[] = { "match", "severity", "message",
	"source", NULL };
static const char *const match_keys[] = { "model", "bmc", "component",
	"product", "below", "equal", "matching", NULL };
static const char *const severities[] = { "critical", "warning", "info",
	NULL };
static const char *const components[] = { "bmc", "bios", "switch", "disk",
	"kernel", NULL };
static const char *const bmc_types[] = { "rac", "ilo2", "ipmi", NULL };

void
lab_known_issues_init(struct lab_known_issues *k)
{
	lab_pool_init(&k->pool);
	k->v = NULL;
	k->n = 0;
	lab_strv_init(&k->files);
}

void
lab_known_issues_release(struct lab_known_issues *k)
{
	free(k->v);
	k->v = NULL;
	k->n = 0;
	lab_pool_release(&k->pool);
	lab_strv_release(&k->files);
}

/* The file name as k owns it (the last one added, or a new one). */
static const char *
own_file(struct lab_known_issues *k, const char *file)
{
	if (file == NULL)
		return NULL;
	if (k->files.n > 0 && strcmp(k->files.v[k->files.n - 1], file) == 0)
		return k->files.v[k->files.n - 1];
	if (lab_strv_add(&k->files, file) == -1)
		return NULL;
	return k->files.v[k->files.n - 1];
}

static int
dup(struct lab_known_issues *k, const char *s, char **ret)
{
	*ret = NULL;
	if (s == NULL)
		return 0;
	return (*ret = lab_pool_strdup(&k->pool, s)) == NULL ? -1 : 0;
}

int
lab_known_issues_append(struct lab_known_issues *k,
    const struct lab_known_issue *ki, struct lab_err *err)
{
	struct lab_known_issue	*n;

	if ((n = lab_push(&k->v, &k->n, sizeof(*n))) == NULL)
		return lab_err_oom(err);
	n->loc = ki->loc;
	if ((ki->loc.file != NULL &&
	    (n->loc.file = own_file(k, ki->loc.file)) == NULL) ||
	    dup(k, ki->model, &n->model) == -1 ||
	    dup(k, ki->bmc, &n->bmc) == -1 ||
	    dup(k, ki->component, &n->component) == -1 ||
	    dup(k, ki->product, &n->product) == -1 ||
	    dup(k, ki->below, &n->below) == -1 ||
	    dup(k, ki->equal, &n->equal) == -1 ||
	    dup(k, ki->matching, &n->matching) == -1 ||
	    dup(k, ki->severity, &n->severity) == -1 ||
	    dup(k, ki->message, &n->message) == -1 ||
	    dup(k, ki->source, &n->source) == -1) {
		k->n--;
		return lab_err_oom(err);
	}
	return 0;
}

/* A text value of key: NULL when absent or null; fails when not text. */
static int
text(struct lab_known_issues *k, const char *file, const struct ynode *map,
    const char *key, const char *what, char **ret, struct lab_err *err)
{
	const struct ynode	*n = lab_schema_get(map, key);

	*ret = NULL;
	if (n == NULL || lab_yaml_is_null(n))
		return 0;
	if (n->kind != YNODE_SCALAR || n->len == 0)
		return lab_schema_fail(err, file, n, "'%s' of %s must be text",
		    key, what);
	if ((*ret = lab_pool_strndup(&k->pool, n->value, n->len)) == NULL)
		return lab_err_oom(err);
	return 0;
}

static int
word(struct lab_known_issues *k, const char *file, const struct ynode *map,
    const char *key, const char *what, const char *const *words,
    char **ret, struct lab_err *err)
{
	if (text(k, file, map, key, what, ret, err) == -1)
		return -1;
	if (*ret == NULL)
		return 0;
	return lab_schema_word(file, lab_schema_get(map, key), key, *ret,
	    what, words, err);
}

/* A model: a glob, or else an id of the catalogue. */
static int
model(const char *file, const struct ynode *map, const char *s,
    const char *what, struct lab_err *err)
{
	const struct lab_model	*all;
	const char		*ids[32];
	size_t			 n, i;

	if (s == NULL || strpbrk(s, "*?[") != NULL || lab_model_find(s) != NULL)
		return 0;
	all = lab_model_all(&n);
	for (i = 0; i < n && i < 31; i++)
		ids[i] = all[i].id;
	ids[i] = NULL;
	return lab_schema_word(file, lab_schema_get(map, "model"), "model", s,
	    what, ids, err);
}

static int
load_match(struct lab_known_issues *k, const char *file,
    const struct ynode *m, struct lab_known_issue *ki, struct lab_err *err)
{
	const char	*what = "the match of a known issue";
	int		 nver;

	if (m->kind != YNODE_MAP)
		return lab_schema_fail(err, file, m, "'match' of a known issue "
		    "must be a mapping ({component: bmc, bmc: rac, below: "
		    "\"1.30\"})");
	if (lab_schema_keys(file, m, match_keys, what, err) == -1 ||
	    text(k, file, m, "model", what, &ki->model, err) == -1 ||
	    model(file, m, ki->model, what, err) == -1 ||
	    word(k, file, m, "bmc", what, bmc_types, &ki->bmc, err) == -1 ||
	    word(k, file, m, "component", what, components, &ki->component,
	    err) == -1 ||
	    text(k, file, m, "product", what, &ki->product, err) == -1 ||
	    text(k, file, m, "below", what, &ki->below, err) == -1 ||
	    text(k, file, m, "equal", what, &ki->equal, err) == -1 ||
	    text(k, file, m, "matching", what, &ki->matching, err) == -1)
		return -1;
	if (ki->component == NULL)
		return lab_schema_fail(err, file, m, "%s needs 'component' "
		    "(bmc, bios, switch, disk or kernel): whose firmware it "
		    "is", what);
	nver = (ki->below != NULL) + (ki->equal != NULL) +
	    (ki->matching != NULL);
	if (nver != 1)
		return lab_schema_fail(err, file, m, "%s needs exactly one of "
		    "'below', 'equal' and 'matching' (the firmware), not %d",
		    what, nver);
	return 0;
}

/* One item of known_issues:. */
int
lab_known_issue_load_item(struct lab_known_issues *k, const char *file,
    const struct ynode *n, struct lab_err *err)
{
	struct lab_known_issue	 ki, *p;
	const struct ynode	*m;
	const char		*what = "a known issue";

	memset(&ki, 0, sizeof(ki));
	if (n->kind != YNODE_MAP)
		return lab_schema_fail(err, file, n, "a known issue must be a "
		    "mapping with match, severity, message and source");
	if (lab_schema_keys(file, n, issue_keys, what, err) == -1)
		return -1;
	if ((ki.loc.file = own_file(k, file)) == NULL)
		return lab_err_oom(err);
	ki.loc.line = n->line;
	ki.loc.col = n->col;
	if ((m = lab_schema_get(n, "match")) == NULL || lab_yaml_is_null(m))
		return lab_schema_fail(err, file, n, "a known issue needs "
		    "'match' (what it applies to)");
	if (load_match(k, file, m, &ki, err) == -1 ||
	    word(k, file, n, "severity", what, severities, &ki.severity,
	    err) == -1 ||
	    text(k, file, n, "message", what, &ki.message, err) == -1 ||
	    text(k, file, n, "source", what, &ki.source, err) == -1)
		return -1;
	if (ki.severity == NULL)
		return lab_schema_fail(err, file, n, "a known issue needs "
		    "'severity' (critical, warning or info)");
	if (ki.message == NULL)
		return lab_schema_fail(err, file, n, "a known issue needs "
		    "'message' (what goes wrong, and the fix)");
	if (ki.source == NULL)
		return lab_schema_fail(err, file, n, "a known issue needs "
		    "'source' (a URL or a document that says so)");
	/* The strings are k's already: the copy is of pointers. */
	if ((p = lab_push(&k->v, &k->n, sizeof(*p))) == NULL)
		return lab_err_oom(err);
	*p = ki;
	return 0;
}

/* The list under known_issues: (null or absent: none). */
int
lab_known_issues_load_seq(struct lab_known_issues *k, const char *file,
    const struct ynode *seq, struct lab_err *err)
{
	size_t	i;

	if (seq == NULL || lab_yaml_is_null(seq))
		return 0;
	if (seq->kind != YNODE_SEQ)
		return lab_schema_fail(err, file, seq, "'known_issues' must be "
		    "a list of known issues");
	for (i = 0; i < seq->n; i++)
		if (lab_known_issue_load_item(k, file, seq->items[i], err) == -1)
			return -1;
	return 0;
}

int
lab_known_issues_load_buf(struct lab_known_issues *k, const char *name,
    const char *buf, size_t len, struct lab_err *err)
{
	struct ynode	*root = NULL;
	size_t		 n0 = k->n;
	int		 rc = -1;

	if (lab_yaml_tree_load(name, buf, len, &root, err) == -1)
		return -1;
	if (root == NULL || lab_yaml_is_null(root))
		rc = 0;
	else if (root->kind != YNODE_MAP)
		lab_schema_fail(err, name, root, "a known-issues file is a "
		    "mapping with one key, known_issues");
	else if (lab_schema_keys(name, root, top_keys, "a known-issues file",
	    err) == 0)
		rc = lab_known_issues_load_seq(k, name,
		    lab_schema_get(root, "known_issues"), err);
	lab_yaml_tree_free(root);
	if (rc == -1)
		k->n = n0;
	return rc;
}

int
lab_known_issues_load(struct lab_known_issues *k, const char *path,
    struct lab_err *err)
{
	char	*buf = NULL;
	size_t	 len = 0;
	int	 fd, rc;

	if ((fd = lab_file_open_read(path, LAB_EXIT_INPUT, err)) == -2)
		return -1;
	if (fd == -1)
		return lab_err_set(err, LAB_EXIT_ENV, "%s: %s", path,
		    strerror(errno));
	if (lab_yaml_file_read(fd, path, YAML_MAX_FILE, &buf, &len, err) == -1)
		return -1;
	rc = lab_known_issues_load_buf(k, path, buf, len, err);
	free(buf);
	return rc;
}
