/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "lab/parse.h"
#include "yaml-priv.h"

struct loader {
	const char	*name;
	const char	*buf;
	size_t		 len;
	size_t		 nodes;
	struct lab_err	*err;
};

static struct ynode *
node_new(enum ynode_kind kind, const yaml_mark_t *m)
{
	struct ynode	*n;

	if ((n = calloc(1, sizeof(*n))) == NULL)
		return NULL;
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	return n;
}

/* Frees a tree. */
void
yaml_tree_free(struct ynode *n)
{
	size_t	i;

	if (n == NULL)
		return;
	for (i = 0; i < n->n; i++)
		yaml_tree_free(n->items[i]);
	free(n->items);
	free(n->value);
	free(n);
}

static int
node_push(struct ynode *p, struct ynode *c)
{
	struct ynode	**v;
	size_t		  cap;

	if (p->n == p->cap) {
		cap = p->cap ? p->cap * 2 : 4;
		if ((v = realloc(p->items, cap * sizeof(*v))) == NULL)
			return -1;
		p->items = v;
		p->cap = cap;
	}
	p->items[p->n++] = c;
	return 0;
}

/* Line and column of a byte offset, for reader errors that carry no mark. */
static void
offset_pos(const struct loader *l, size_t off, int *line, int *col)
{
	size_t	i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < l->len; i++) {
		if (l->buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)l->buf[i] & 0xc0) != 0x80)
			(*col)++;
	}
}

static int
fail_at(struct loader *l, int line, int col, const char *what)
{
	return lab_err_set(l->err, LAB_EXIT_INPUT, "%s:%d:%d: %s", l->name,
	    line, col, what);
}

static int
parser_fail(struct loader *l, yaml_parser_t *p)
{
	const char	*what = p->problem ? p->problem : "cannot parse YAML";
	int		 line, col;

	if (p->error == YAML_MEMORY_ERROR)
		return lab_err_oom(l->err);
	if (p->error == YAML_READER_ERROR) {
		size_t	off = p->problem_offset;

		/*
		 * libyaml points at the byte after a bad lead byte for these;
		 * the user's error is the sequence the lead byte starts
		 */
		if (strstr(what, "trailing") != NULL ||
		    strstr(what, "incomplete") != NULL)
			while (off > 0 && off <= l->len &&
			    ((unsigned char)l->buf[off - 1] & 0xc0) == 0x80 &&
			    p->problem_offset - off < 3)
				off--;
		if (off > 0 && off <= l->len && strstr(what, "trailing") &&
		    ((unsigned char)l->buf[off - 1] & 0xc0) == 0xc0)
			off--;
		offset_pos(l, off, &line, &col);
		if (strstr(what, "UTF-8") != NULL || strstr(what, "octet"))
			return lab_err_set(l->err, LAB_EXIT_INPUT,
			    "%s:%d:%d: %s (the file must be UTF-8 text)",
			    l->name, line, col, what);
		return fail_at(l, line, col, what);
	}
	if (p->problem_mark.index < l->len &&
	    l->buf[p->problem_mark.index] == '\t')
		return fail_at(l, (int)p->problem_mark.line + 1,
		    (int)p->problem_mark.column + 1,
		    "a tab character where YAML allows only spaces: indent "
		    "with spaces");
	if (p->context != NULL)
		return lab_err_set(l->err, LAB_EXIT_INPUT,
		    "%s:%d:%d: %s %s", l->name,
		    (int)p->problem_mark.line + 1,
		    (int)p->problem_mark.column + 1, what, p->context);
	return fail_at(l, (int)p->problem_mark.line + 1,
	    (int)p->problem_mark.column + 1, what);
}

static int
check_tag(struct loader *l, const yaml_char_t *tag, const yaml_mark_t *m)
{
	if (tag == NULL)
		return 0;
	if (strncmp((const char *)tag, "tag:yaml.org,2002:", 18) == 0)
		return 0;
	return fail_at(l, (int)m->line + 1, (int)m->column + 1,
	    "custom YAML tags are not supported");
}

static int
refuse_anchor(struct loader *l, const yaml_char_t *anchor,
    const yaml_mark_t *m)
{
	if (anchor == NULL)
		return 0;
	return fail_at(l, (int)m->line + 1, (int)m->column + 1,
	    "YAML anchors (&name) are not supported: write the value out");
}

#define SMALL_MAP	32	/* keys checked one by one up to this many */

static int
dup_key(struct loader *l, const struct ynode *first, const struct ynode *key)
{
	char	msg[256];

	snprintf(msg, sizeof(msg), "duplicate key '%.64s' (first at line %d)",
	    key->value, first->line);
	return fail_at(l, key->line, key->col, msg);
}

static int
cmp_key(const void *a, const void *b)
{
	const struct ynode	*x = *(const struct ynode *const *)a;
	const struct ynode	*y = *(const struct ynode *const *)b;
	int			 c = strcmp(x->value, y->value);

	if (c != 0)
		return c;
	return x->line != y->line ? x->line - y->line : x->col - y->col;
}

/* Checks a big mapping's keys at once: sorting keeps it O(n log n). */
static int
check_keys_sorted(struct loader *l, const struct ynode *map)
{
	const struct ynode	**keys;
	size_t			  n = map->n / 2, i;
	int			  rc = 0;

	if ((keys = calloc(n, sizeof(*keys))) == NULL)
		return lab_err_oom(l->err);
	for (i = 0; i < n; i++)
		keys[i] = map->items[2 * i];
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (i = 1; i < n && rc == 0; i++)
		if (strcmp(keys[i - 1]->value, keys[i]->value) == 0)
			rc = dup_key(l, keys[i - 1], keys[i]);
	free(keys);
	return rc;
}

/* Checks that a new key is a scalar and, in a small mapping, new. */
static int
check_key(struct loader *l, const struct ynode *map, const struct ynode *key)
{
	size_t	i;

	if (key->kind != YNODE_SCALAR)
		return fail_at(l, key->line, key->col,
		    "a mapping key must be a plain string");
	if (map->n / 2 >= SMALL_MAP)
		return 0;	/* check_keys_sorted runs at the end */
	for (i = 0; i + 1 < map->n; i += 2)
		if (strcmp(map->items[i]->value, key->value) == 0)
			return dup_key(l, map->items[i], key);
	return 0;
}

/* Reads the events of one node (the first event given) into a tree. */
static int
load_node(struct loader *l, yaml_parser_t *p, yaml_event_t *ev, int depth,
    struct ynode **ret)
{
	struct ynode	*n = NULL, *c;
	yaml_event_t	 e;
	const char	*what;
	int		 rc = -1;

	if (depth > YAML_MAX_DEPTH)
		return fail_at(l, (int)ev->start_mark.line + 1,
		    (int)ev->start_mark.column + 1, "nesting is too deep");
	if (++l->nodes > YAML_MAX_NODES)
		return fail_at(l, (int)ev->start_mark.line + 1,
		    (int)ev->start_mark.column + 1, "too many YAML nodes");
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return fail_at(l, (int)ev->start_mark.line + 1,
		    (int)ev->start_mark.column + 1,
		    "YAML aliases (*name) are not supported: write the value out");
	case YAML_SCALAR_EVENT:
		if (refuse_anchor(l, ev->data.scalar.anchor, &ev->start_mark) ||
		    check_tag(l, ev->data.scalar.tag, &ev->start_mark))
			return -1;
		if (ev->data.scalar.length > YAML_MAX_SCALAR) {
			char	msg[128];

			snprintf(msg, sizeof(msg),
			    "value is too long (%zu bytes, at most %d)",
			    ev->data.scalar.length, YAML_MAX_SCALAR);
			return fail_at(l, (int)ev->start_mark.line + 1,
			    (int)ev->start_mark.column + 1, msg);
		}
		if (memchr(ev->data.scalar.value, '\0',
		    ev->data.scalar.length) != NULL)
			return fail_at(l, (int)ev->start_mark.line + 1,
			    (int)ev->start_mark.column + 1,
			    "a value cannot hold a NUL character");
		if ((n = node_new(YNODE_SCALAR, &ev->start_mark)) == NULL ||
		    (n->value = malloc(ev->data.scalar.length + 1)) == NULL) {
			yaml_tree_free(n);
			return lab_err_oom(l->err);
		}
		memcpy(n->value, ev->data.scalar.value, ev->data.scalar.length);
		n->value[ev->data.scalar.length] = '\0';
		n->len = ev->data.scalar.length;
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		*ret = n;
		return 0;
	case YAML_SEQUENCE_START_EVENT:
		if (refuse_anchor(l, ev->data.sequence_start.anchor,
		    &ev->start_mark) ||
		    check_tag(l, ev->data.sequence_start.tag, &ev->start_mark))
			return -1;
		n = node_new(YNODE_SEQ, &ev->start_mark);
		break;
	case YAML_MAPPING_START_EVENT:
		if (refuse_anchor(l, ev->data.mapping_start.anchor,
		    &ev->start_mark) ||
		    check_tag(l, ev->data.mapping_start.tag, &ev->start_mark))
			return -1;
		n = node_new(YNODE_MAP, &ev->start_mark);
		break;
	default:
		what = "unexpected YAML event";
		return fail_at(l, (int)ev->start_mark.line + 1,
		    (int)ev->start_mark.column + 1, what);
	}
	if (n == NULL)
		return lab_err_oom(l->err);
	for (;;) {
		if (!yaml_parser_parse(p, &e)) {
			parser_fail(l, p);
			goto out;
		}
		if (e.type == YAML_SEQUENCE_END_EVENT ||
		    e.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&e);
			if (n->kind == YNODE_MAP && n->n / 2 > SMALL_MAP &&
			    check_keys_sorted(l, n) == -1)
				goto out;
			break;
		}
		c = NULL;
		rc = load_node(l, p, &e, depth + 1, &c);
		yaml_event_delete(&e);
		if (rc == -1)
			goto out;
		rc = -1;
		if (n->kind == YNODE_MAP && n->n % 2 == 0 &&
		    check_key(l, n, c) == -1) {
			yaml_tree_free(c);
			goto out;
		}
		if (node_push(n, c) == -1) {
			yaml_tree_free(c);
			lab_err_oom(l->err);
			goto out;
		}
	}
	*ret = n;
	return 0;
out:
	yaml_tree_free(n);
	return -1;
}

/* Parses one YAML document into a tree. */
int
yaml_tree_load(const char *name, const char *buf, size_t len,
    struct ynode **ret, struct lab_err *err)
{
	struct loader	 l = { name, buf, len, 0, err };
	yaml_parser_t	 p;
	yaml_event_t	 e;
	struct ynode	*root = NULL;
	int		 rc = -1, done = 0;

	if (len > YAML_MAX_FILE)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "%s:1:1: file is too large (%zu bytes, at most %u)", name,
		    len, YAML_MAX_FILE);
	if (!yaml_parser_initialize(&p))
		return lab_err_oom(err);
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	/* UTF-8 only: a UTF-16 byte-order mark is an error, not a switch */
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	while (!done) {
		if (!yaml_parser_parse(&p, &e)) {
			parser_fail(&l, &p);
			goto out;
		}
		switch (e.type) {
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (root != NULL) {
				fail_at(&l, (int)e.start_mark.line + 1,
				    (int)e.start_mark.column + 1,
				    "only one YAML document per file");
				yaml_event_delete(&e);
				goto out;
			}
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			if (root != NULL) {
				fail_at(&l, (int)e.start_mark.line + 1,
				    (int)e.start_mark.column + 1,
				    "only one YAML document per file");
				yaml_event_delete(&e);
				goto out;
			}
			if (load_node(&l, &p, &e, 0, &root) == -1) {
				yaml_event_delete(&e);
				goto out;
			}
			break;
		}
		yaml_event_delete(&e);
	}
	*ret = root;
	root = NULL;
	rc = 0;
out:
	yaml_tree_free(root);
	yaml_parser_delete(&p);
	return rc;
}

/* True when a plain scalar spells null. */
int
yaml_is_null(const struct ynode *n)
{
	if (n == NULL)
		return 1;
	if (n->kind != YNODE_SCALAR || !n->plain)
		return 0;
	return n->len == 0 || strcmp(n->value, "~") == 0 ||
	    strcmp(n->value, "null") == 0 || strcmp(n->value, "Null") == 0 ||
	    strcmp(n->value, "NULL") == 0;
}

/* Reads the whole of an open regular file of at most max bytes. */
int
yaml_file_read(int fd, const char *path, size_t max, char **ret,
    size_t *retlen, struct lab_err *err)
{
	struct stat	 st;
	char		*buf = NULL;
	size_t		 off = 0;
	ssize_t		 n = 0;
	int		 rc = -1;

	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		lab_err_set(err, LAB_EXIT_ENV, "%s: not a regular file",
		    path);
		goto out;
	}
	if ((uint64_t)st.st_size > max) {
		lab_err_set(err, LAB_EXIT_INPUT, "%s:1:1: file is too large "
		    "(%lld bytes, at most %zu)", path, (long long)st.st_size,
		    max);
		goto out;
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	while (off < (size_t)st.st_size &&
	    (n = read(fd, buf + off, (size_t)st.st_size - off)) > 0)
		off += (size_t)n;
	if (n == -1) {
		lab_err_set(err, LAB_EXIT_ENV, "%s: %s", path, strerror(errno));
		free(buf);
		goto out;
	}
	buf[off] = '\0';
	*ret = buf;
	*retlen = off;
	rc = 0;
out:
	close(fd);
	return rc;
}

int
lab_file_read(const char *path, size_t max, char **ret, size_t *retlen,
    struct lab_err *err)
{
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1)
		return lab_err_set(err, LAB_EXIT_ENV, "cannot open %s: %s", path,
		    strerror(errno));
	return yaml_file_read(fd, path, max, ret, retlen, err);
}
