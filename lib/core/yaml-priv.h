/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_YAML_PRIV_H
#define LAB_YAML_PRIV_H

#include <stddef.h>

#include "lab/err.h"

/*
 * A plain tree of a YAML document, with the position of every node.
 * Anchors, aliases and tags other than the standard ones are refused while
 * loading, so the tree is what the text says (no alias bombs), and
 * mapping keys are unique scalars.
 */
enum ynode_kind {
	YNODE_SCALAR,
	YNODE_SEQ,
	YNODE_MAP,
};

struct yarena;

struct ynode {
	enum ynode_kind	  kind;
	int		  line;		/* 1-based */
	int		  col;		/* 1-based */
	char		 *value;	/* scalar text, NUL-terminated */
	size_t		  len;
	int		  plain;	/* scalar was unquoted */
	struct ynode	**items;	/* seq: items; map: key, value, ... */
	size_t		  n;		/* items used */
	size_t		  cap;
	struct yarena	 *arena;	/* the root's: holds the whole tree */
};

#define YAML_MAX_DEPTH	 32
#define YAML_MAX_SCALAR	 4096
#define YAML_MAX_NODES	 4000000
#define YAML_MAX_FILE	 ((size_t)64 * 1024 * 1024)

/*
 * Parses one YAML document from buf. *ret is NULL for an empty document.
 * Errors are LAB_EXIT_INPUT and read "name:line:col: what".
 */
int	lab_yaml_tree_load(const char *name, const char *buf, size_t len,
	    struct ynode **ret, struct lab_err *err);
/*
 * Like lab_yaml_tree_load, but each item of a list under a key of the
 * top-level mapping goes to fn(arg, key, item) as soon as it is read, and
 * its memory is used again for the next: the tree returned holds those
 * lists empty, and a 10,000-host inventory never exists whole as a tree.
 * fn returns -1, err set, to stop. The text is not wiped after use: for
 * files that hold no secret.
 */
typedef int (*yaml_item_fn)(void *arg, const char *key,
	    const struct ynode *item);
int	lab_yaml_tree_stream(const char *name, const char *buf, size_t len,
	    yaml_item_fn fn, void *arg, struct ynode **ret,
	    struct lab_err *err);
/*
 * Reads the whole of an open file (fd is closed either way): it must be a
 * regular file of at most max bytes. *ret is NUL-terminated and
 * caller-owned. Errors name path; a file too large is LAB_EXIT_INPUT at
 * "path:1:1", anything else LAB_EXIT_ENV.
 */
int	lab_yaml_file_read(int fd, const char *path, size_t max, char **ret,
	    size_t *retlen, struct lab_err *err);
/*
 * The same into *buf of *cap bytes, grown when the file does not fit: one
 * buffer for many files. *buf is caller-owned either way.
 */
int	lab_yaml_file_reread(int fd, const char *path, size_t max, char **buf,
	    size_t *cap, size_t *retlen, struct lab_err *err);
/* Frees a tree (from its root); NULL is a no-op. */
void	lab_yaml_tree_free(struct ynode *);
/* True when a plain scalar spells null (~, null, empty). */
int	lab_yaml_is_null(const struct ynode *);

#endif
