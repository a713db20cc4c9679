/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "lab/file.h"
#include "lab/parse.h"
#include "lab/text.h"
#include "yaml-priv.h"

/*
 * Every node, value and item array of a tree comes from one arena of
 * chunks, freed at once: a 10,000-host inventory has a million nodes, and
 * a malloc and free of each cost more than parsing them.
 */
#define ARENA_CHUNK	((size_t)256 * 1024)

struct ychunk {
	struct ychunk	*next;
	size_t		 used, size;
	max_align_t	 data[];
};

struct yarena {
	struct ychunk	*chunks;
	int		 wipe;	/* zero the memory before freeing it */
};

static void *
arena_alloc(struct yarena *a, size_t len)
{
	struct ychunk	*c = a->chunks;
	size_t		 size;
	void		*p;

	len = (len + _Alignof(max_align_t) - 1) &
	    ~(size_t)(_Alignof(max_align_t) - 1);
	if (c == NULL || c->size - c->used < len) {
		size = len > ARENA_CHUNK / 4 ? len : ARENA_CHUNK;
		if ((c = malloc(sizeof(*c) + size)) == NULL)
			return NULL;
		c->used = 0;
		c->size = size;
		/* a big block goes behind the current chunk, keeping its room */
		if (a->chunks != NULL && len > ARENA_CHUNK / 4) {
			c->next = a->chunks->next;
			a->chunks->next = c;
		} else {
			c->next = a->chunks;
			a->chunks = c;
		}
	}
	p = (char *)c->data + c->used;
	c->used += len;
	return p;
}

static void
arena_free(struct yarena *a)
{
	struct ychunk	*c, *next;

	if (a == NULL)
		return;
	for (c = a->chunks; c != NULL; c = next) {
		next = c->next;
		/* the credentials file's values lived here too */
		if (a->wipe)
			explicit_bzero(c->data, c->used);
		free(c);
	}
	free(a);
}

/* Makes the arena empty again, keeping its newest chunk for reuse. */
static void
arena_reset(struct yarena *a)
{
	struct ychunk	*c, *next;

	if (a->chunks == NULL)
		return;
	for (c = a->chunks->next; c != NULL; c = next) {
		next = c->next;
		if (a->wipe)
			explicit_bzero(c->data, c->used);
		free(c);
	}
	c = a->chunks;
	if (a->wipe)
		explicit_bzero(c->data, c->used);
	c->next = NULL;
	c->used = 0;
}

struct loader {
	const char	*name;
	const char	*buf;
	size_t		 len;
	size_t		 nodes;
	struct yarena	*arena;
	struct lab_err	*err;
	int		 wipe;		/* the text may hold secrets */
	yaml_item_fn	 fn;		/* streaming: gets each item */
	void		*arg;
	struct yarena	*items;		/* streaming: one item at a time */
	const char	*key;		/* the key of the value being read, or
					   NULL when a key is */
};

static struct ynode *
node_new(struct loader *l, enum ynode_kind kind, const yaml_mark_t *m)
{
	struct ynode	*n;

	if ((n = arena_alloc(l->arena, sizeof(*n))) == NULL)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	return n;
}

/*
 * The credentials file goes through this loader too: what libyaml held
 * of the text (its input buffers, the tokens not parsed yet, each
 * scalar's value) is wiped before libyaml frees it. Copies libyaml left
 * behind while growing a long scalar are out of reach (SECURITY.md).
 */
static void
event_delete(const struct loader *l, yaml_event_t *e)
{
	if (l->wipe && e->type == YAML_SCALAR_EVENT &&
	    e->data.scalar.value != NULL)
		explicit_bzero(e->data.scalar.value, e->data.scalar.length);
	yaml_event_delete(e);
}

static void
parser_delete(const struct loader *l, yaml_parser_t *p)
{
	yaml_token_t	*t;

	if (!l->wipe) {
		yaml_parser_delete(p);
		return;
	}
	if (p->raw_buffer.start != NULL)
		explicit_bzero(p->raw_buffer.start,
		    (size_t)(p->raw_buffer.end - p->raw_buffer.start));
	if (p->buffer.start != NULL)
		explicit_bzero(p->buffer.start,
		    (size_t)(p->buffer.end - p->buffer.start));
	for (t = p->tokens.head; t != NULL && t < p->tokens.tail; t++)
		if (t->type == YAML_SCALAR_TOKEN && t->data.scalar.value != NULL)
			explicit_bzero(t->data.scalar.value,
			    t->data.scalar.length);
	yaml_parser_delete(p);
}

/* Frees a tree: its root holds the arena of every node. */
void
lab_yaml_tree_free(struct ynode *n)
{
	if (n != NULL)
		arena_free(n->arena);
}

static int
node_push(struct loader *l, struct ynode *p, struct ynode *c)
{
	struct ynode	**v;
	size_t		  cap;

	if (p->n == p->cap) {
		/* the old array stays in the arena: at most twice the room */
		cap = p->cap ? p->cap * 2 : 4;
		if ((v = arena_alloc(l->arena, cap * sizeof(*v))) == NULL)
			return -1;
		if (p->n > 0)
			memcpy(v, p->items, p->n * sizeof(*v));
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

static int	load_node(struct loader *, yaml_parser_t *, yaml_event_t *,
		    int, const char *, struct ynode **);

/*
 * Refuses a control character (tab and newline too, DEL, C1) in a
 * scalar, however it was written ("\e" in double quotes, a literal
 * block): every string lab reads from YAML is shown on a terminal some
 * day, and the plan shown before --yes must be what runs.
 */
static int
ctrl_check(struct loader *l, const yaml_event_t *ev)
{
	char	msg[160];
	size_t	off;
	long	c;

	c = lab_ctrl_find((const char *)ev->data.scalar.value,
	    ev->data.scalar.length, &off);
	if (c == -1)
		return 0;
	if (l->key != NULL)
		snprintf(msg, sizeof(msg), "the value of '%.64s' holds a control "
		    "character (U+%04lX at byte %zu): only printable text",
		    l->key, (unsigned long)c, off + 1);
	else
		snprintf(msg, sizeof(msg), "a key or list item holds a control "
		    "character (U+%04lX at byte %zu): only printable text",
		    (unsigned long)c, off + 1);
	/* the key's name may hold one itself: it is shown, not obeyed */
	for (off = 0; msg[off] != '\0'; off++)
		if ((unsigned char)msg[off] < 0x20 || msg[off] == 0x7f)
			msg[off] = '?';
	return fail_at(l, (int)ev->start_mark.line + 1,
	    (int)ev->start_mark.column + 1, msg);
}

/*
 * Reads one item of a streamed sequence into the item arena, hands it on,
 * and makes the arena empty again.
 */
static int
stream_item(struct loader *l, yaml_parser_t *p, yaml_event_t *ev, int depth,
    const char *key)
{
	struct yarena	*tree = l->arena;
	struct ynode	*c = NULL;
	int		 rc;

	l->arena = l->items;
	rc = load_node(l, p, ev, depth, NULL, &c);
	l->arena = tree;
	if (rc == 0)
		rc = l->fn(l->arg, key, c);
	arena_reset(l->items);
	return rc;
}

/*
 * Reads the events of one node (the first event given) into a tree. A
 * sequence under key of the top-level mapping, when streaming, keeps no
 * items: each goes to the loader's fn.
 */
static int
load_node(struct loader *l, yaml_parser_t *p, yaml_event_t *ev, int depth,
    const char *key, struct ynode **ret)
{
	struct ynode	*n = NULL, *c;
	yaml_event_t	 e;
	const char	*what, *saved;
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
		if (ctrl_check(l, ev) == -1)
			return -1;
		if ((n = node_new(l, YNODE_SCALAR, &ev->start_mark)) == NULL ||
		    (n->value = arena_alloc(l->arena,
		    ev->data.scalar.length + 1)) == NULL)
			return lab_err_oom(l->err);
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
		n = node_new(l, YNODE_SEQ, &ev->start_mark);
		break;
	case YAML_MAPPING_START_EVENT:
		if (refuse_anchor(l, ev->data.mapping_start.anchor,
		    &ev->start_mark) ||
		    check_tag(l, ev->data.mapping_start.tag, &ev->start_mark))
			return -1;
		n = node_new(l, YNODE_MAP, &ev->start_mark);
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
			event_delete(l, &e);
			if (n->kind == YNODE_MAP && n->n / 2 > SMALL_MAP &&
			    check_keys_sorted(l, n) == -1)
				goto out;
			break;
		}
		if (key != NULL && n->kind == YNODE_SEQ) {
			rc = stream_item(l, p, &e, depth + 1, key);
			event_delete(l, &e);
			if (rc == -1)
				goto out;
			continue;
		}
		c = NULL;
		/* the key a value belongs to, for messages; a list's items
		   keep their list's */
		saved = l->key;
		if (n->kind == YNODE_MAP)
			l->key = n->n % 2 == 1 ? n->items[n->n - 1]->value :
			    NULL;
		/* a value of the top-level mapping: its key, when streaming */
		rc = load_node(l, p, &e, depth + 1, l->fn != NULL && depth == 0 &&
		    n->kind == YNODE_MAP && n->n % 2 == 1 ?
		    n->items[n->n - 1]->value : NULL, &c);
		l->key = saved;
		event_delete(l, &e);
		if (rc == -1)
			goto out;
		if (n->kind == YNODE_MAP && n->n % 2 == 0 &&
		    check_key(l, n, c) == -1)
			goto out;
		if (node_push(l, n, c) == -1) {
			lab_err_oom(l->err);
			goto out;
		}
	}
	*ret = n;
	return 0;
out:
	/* the nodes stay in the arena until the loader frees it */
	return -1;
}

/* Parses one YAML document into a tree, streaming when l->fn is set. */
static int
tree_load(struct loader *l, struct ynode **ret)
{
	yaml_parser_t	 p;
	yaml_event_t	 e;
	struct ynode	*root = NULL;
	const char	*name = l->name;
	int		 rc = -1, done = 0;

	if (l->len > YAML_MAX_FILE)
		return lab_err_set(l->err, LAB_EXIT_INPUT,
		    "%s:1:1: file is too large (%zu bytes, at most %zu)", name,
		    l->len, YAML_MAX_FILE);
	if ((l->arena = calloc(1, sizeof(*l->arena))) == NULL)
		return lab_err_oom(l->err);
	l->arena->wipe = l->wipe;
	if (l->fn != NULL) {
		if ((l->items = calloc(1, sizeof(*l->items))) == NULL) {
			arena_free(l->arena);
			return lab_err_oom(l->err);
		}
		l->items->wipe = l->wipe;
	}
	if (!yaml_parser_initialize(&p)) {
		arena_free(l->arena);
		arena_free(l->items);
		return lab_err_oom(l->err);
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)l->buf,
	    l->len);
	/* UTF-8 only: a UTF-16 byte-order mark is an error, not a switch */
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	while (!done) {
		if (!yaml_parser_parse(&p, &e)) {
			parser_fail(l, &p);
			goto out;
		}
		switch (e.type) {
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (root != NULL) {
				fail_at(l, (int)e.start_mark.line + 1,
				    (int)e.start_mark.column + 1,
				    "only one YAML document per file");
				event_delete(l, &e);
				goto out;
			}
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			if (root != NULL) {
				fail_at(l, (int)e.start_mark.line + 1,
				    (int)e.start_mark.column + 1,
				    "only one YAML document per file");
				event_delete(l, &e);
				goto out;
			}
			if (load_node(l, &p, &e, 0, NULL, &root) == -1) {
				event_delete(l, &e);
				goto out;
			}
			break;
		}
		event_delete(l, &e);
	}
	if (root != NULL) {
		root->arena = l->arena;
		l->arena = NULL;
	}
	*ret = root;
	rc = 0;
out:
	arena_free(l->arena);
	arena_free(l->items);
	parser_delete(l, &p);
	return rc;
}

static void
loader_init(struct loader *l, const char *name, const char *buf, size_t len,
    struct lab_err *err)
{
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->buf = buf;
	l->len = len;
	l->err = err;
}

/* Parses one YAML document into a tree. */
int
lab_yaml_tree_load(const char *name, const char *buf, size_t len,
    struct ynode **ret, struct lab_err *err)
{
	struct loader	l;

	loader_init(&l, name, buf, len, err);
	l.wipe = 1;
	return tree_load(&l, ret);
}

/* Parses one YAML document, handing on the items of top-level lists. */
int
lab_yaml_tree_stream(const char *name, const char *buf, size_t len,
    yaml_item_fn fn, void *arg, struct ynode **ret, struct lab_err *err)
{
	struct loader	l;

	loader_init(&l, name, buf, len, err);
	l.fn = fn;
	l.arg = arg;
	return tree_load(&l, ret);
}

/* True when a plain scalar spells null. */
int
lab_yaml_is_null(const struct ynode *n)
{
	if (n == NULL)
		return 1;
	if (n->kind != YNODE_SCALAR || !n->plain)
		return 0;
	return n->len == 0 || strcmp(n->value, "~") == 0 ||
	    strcmp(n->value, "null") == 0 || strcmp(n->value, "Null") == 0 ||
	    strcmp(n->value, "NULL") == 0;
}

/*
 * Reads the whole of an open regular file of at most max bytes into *buf,
 * of *cap bytes, which grows when the file does not fit.
 */
int
lab_yaml_file_reread(int fd, const char *path, size_t max, char **buf,
    size_t *cap, size_t *retlen, struct lab_err *err)
{
	struct stat	 st;
	char		*p;
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
	if (*buf == NULL || *cap < (size_t)st.st_size + 1) {
		if ((p = realloc(*buf, (size_t)st.st_size + 1)) == NULL) {
			lab_err_oom(err);
			goto out;
		}
		*buf = p;
		*cap = (size_t)st.st_size + 1;
	}
	while (off < (size_t)st.st_size &&
	    (n = read(fd, *buf + off, (size_t)st.st_size - off)) > 0)
		off += (size_t)n;
	if (n == -1) {
		lab_err_set(err, LAB_EXIT_ENV, "%s: %s", path, strerror(errno));
		goto out;
	}
	(*buf)[off] = '\0';
	*retlen = off;
	rc = 0;
out:
	close(fd);
	return rc;
}

/* Reads the whole of an open regular file of at most max bytes. */
int
lab_yaml_file_read(int fd, const char *path, size_t max, char **ret,
    size_t *retlen, struct lab_err *err)
{
	char	*buf = NULL;
	size_t	 cap = 0;

	if (lab_yaml_file_reread(fd, path, max, &buf, &cap, retlen, err) == -1) {
		free(buf);
		return -1;
	}
	*ret = buf;
	return 0;
}

int
lab_file_read(const char *path, size_t max, char **ret, size_t *retlen,
    struct lab_err *err)
{
	int	fd;

	if ((fd = lab_file_open_read(path, LAB_EXIT_INPUT, err)) == -2)
		return -1;
	if (fd == -1)
		return lab_err_set(err, LAB_EXIT_ENV, "cannot open %s: %s", path,
		    strerror(errno));
	return lab_yaml_file_read(fd, path, max, ret, retlen, err);
}
