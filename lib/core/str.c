/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/str.h"

/* Zeroes a stack buffer. */
void
lab_buf_init(struct lab_buf *b)
{
	memset(b, 0, sizeof(*b));
}

/* Frees the buffer's memory. */
void
lab_buf_release(struct lab_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

static int
grow(struct lab_buf *b, size_t more)
{
	size_t	 cap;
	char	*s;

	if (b->oom)
		return -1;
	if (b->len + more + 1 <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < b->len + more + 1) {
		if (cap > SIZE_MAX / 2) {
			b->oom = 1;
			return -1;
		}
		cap *= 2;
	}
	if ((s = realloc(b->s, cap)) == NULL) {
		b->oom = 1;
		return -1;
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

/* Appends n bytes. */
void
lab_buf_add(struct lab_buf *b, const char *p, size_t n)
{
	if (grow(b, n) == -1)
		return;
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* Appends a C string. */
void
lab_buf_adds(struct lab_buf *b, const char *s)
{
	lab_buf_add(b, s, strlen(s));
}

/* Appends one character. */
void
lab_buf_addc(struct lab_buf *b, char c)
{
	lab_buf_add(b, &c, 1);
}

/* Appends formatted text. */
void
lab_buf_addf(struct lab_buf *b, const char *fmt, ...)
{
	va_list	ap;
	size_t	room;
	int	n;

	/* one pass when it fits in the room left, the common case */
	if (b->oom)
		return;
	room = b->cap > b->len ? b->cap - b->len : 0;
	va_start(ap, fmt);
	n = vsnprintf(room ? b->s + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < room) {
		b->len += (size_t)n;
		return;
	}
	if (n < 0 || grow(b, (size_t)n) == -1)
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Returns the string and gives up ownership; NULL only when out of memory. */
char *
lab_buf_steal(struct lab_buf *b)
{
	char	*s;

	if (b->oom) {
		lab_buf_release(b);
		return NULL;
	}
	s = b->s != NULL ? b->s : strdup("");
	memset(b, 0, sizeof(*b));
	return s;
}

#define POOL_CHUNK	(64u * 1024 - 64)	/* stays under malloc's mmap */

struct lab_pool_chunk {
	struct lab_pool_chunk	*next;
	size_t			 used, size;
	uint64_t		 data[];
};

/* Zeroes a pool. */
void
lab_pool_init(struct lab_pool *p)
{
	memset(p, 0, sizeof(*p));
}

/* Frees everything handed out. */
void
lab_pool_release(struct lab_pool *p)
{
	struct lab_pool_chunk	*c, *next;

	for (c = p->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	memset(p, 0, sizeof(*p));
}

/* len bytes at an offset aligned to align (1 or 8). */
static void *
pool_get(struct lab_pool *p, size_t len, size_t align)
{
	struct lab_pool_chunk	*c = p->chunks;
	size_t			 off, size;

	if (p->oom)
		return NULL;
	off = c != NULL ? (c->used + align - 1) & ~(align - 1) : 0;
	if (c == NULL || off > c->size || c->size - off < len) {
		size = len > POOL_CHUNK / 4 ? len : POOL_CHUNK;
		if (size > SIZE_MAX - sizeof(*c) ||
		    (c = malloc(sizeof(*c) + size)) == NULL) {
			p->oom = 1;
			return NULL;
		}
		c->size = size;
		c->used = 0;
		off = 0;
		/* a big piece goes behind the current chunk, keeping its room */
		if (p->chunks != NULL && len > POOL_CHUNK / 4) {
			c->next = p->chunks->next;
			p->chunks->next = c;
		} else {
			c->next = p->chunks;
			p->chunks = c;
		}
	}
	c->used = off + len;
	return (char *)c->data + off;
}

/* len zeroed bytes, aligned for any pointer or integer. */
void *
lab_pool_alloc(struct lab_pool *p, size_t len)
{
	void	*v = pool_get(p, len, sizeof(uint64_t));

	if (v != NULL)
		memset(v, 0, len);
	return v;
}

/* A NUL-terminated copy of n bytes. */
char *
lab_pool_strndup(struct lab_pool *p, const char *s, size_t n)
{
	char	*d;

	if (n == SIZE_MAX || (d = pool_get(p, n + 1, 1)) == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* A copy of s, or NULL. */
char *
lab_pool_strdup(struct lab_pool *p, const char *s)
{
	return s != NULL ? lab_pool_strndup(p, s, strlen(s)) : NULL;
}

/* Zeroes a vector. */
void
lab_strv_init(struct lab_strv *sv)
{
	memset(sv, 0, sizeof(*sv));
}

/* Frees every string and the vector. */
void
lab_strv_release(struct lab_strv *sv)
{
	size_t	i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

/* Appends s, taking ownership. */
int
lab_strv_take(struct lab_strv *sv, char *s)
{
	char	**v;
	size_t	  cap;

	if (s == NULL)
		return -1;
	if (sv->n + 2 > sv->cap) {
		cap = sv->cap ? sv->cap * 2 : 8;
		if ((v = realloc(sv->v, cap * sizeof(*v))) == NULL) {
			free(s);
			return -1;
		}
		sv->v = v;
		sv->cap = cap;
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
	return 0;
}

/* Appends a copy of s. */
int
lab_strv_add(struct lab_strv *sv, const char *s)
{
	return lab_strv_take(sv, strdup(s));
}

/* Returns the index of s, or -1. */
long
lab_strv_find(const struct lab_strv *sv, const char *s)
{
	size_t	i;

	for (i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return (long)i;
	return -1;
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
lab_strv_sort(struct lab_strv *sv)
{
	if (sv->n > 1)
		qsort(sv->v, sv->n, sizeof(*sv->v), cmp_strp);
}

long
lab_strv_sorted_find(const struct lab_strv *sv, const char *s)
{
	char	**p;

	if (sv->n == 0)
		return -1;
	p = bsearch(&s, sv->v, sv->n, sizeof(*sv->v), cmp_strp);
	return p != NULL ? (long)(p - sv->v) : -1;
}

/* An empty vector with room for n strings, in a pool. */
int
lab_strv_pool(struct lab_strv *sv, struct lab_pool *p, size_t n)
{
	if ((sv->v = lab_pool_alloc(p, (n + 1) * sizeof(*sv->v))) == NULL)
		return -1;
	sv->n = 0;
	sv->cap = n + 1;
	return 0;
}

/* Appends s to a vector from lab_strv_pool, which has room for it. */
void
lab_strv_put(struct lab_strv *sv, char *s)
{
	if (sv->n + 1 < sv->cap) {
		sv->v[sv->n++] = s;
		sv->v[sv->n] = NULL;
	}
}

/* strdup that accepts NULL. */
char *
lab_strdup(const char *s)
{
	return s != NULL ? strdup(s) : NULL;
}

/* Allocates a formatted string, or NULL. */
char *
lab_asprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/* Optimal string alignment distance, capped at 64 characters per word. */
static size_t
distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), i, j, c, d[65][65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			c = a[i - 1] == b[j - 1] ? 0 : 1;
			d[i][j] = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < d[i][j])
				d[i][j] = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + c < d[i][j])
				d[i][j] = d[i - 1][j - 1] + c;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

/* The nearest candidate within a typo's distance, or NULL. */
const char *
lab_suggest(const char *word, const char *const *cands, size_t n)
{
	const char	*best = NULL;
	size_t		 i, d, bestd = SIZE_MAX, limit;

	limit = strlen(word) / 3;
	if (limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		if (cands[i] == NULL)
			continue;
		d = distance(word, cands[i]);
		/* on a tie, a candidate the word starts is the likelier typo */
		if (d == bestd && best != NULL &&
		    strncmp(cands[i], word, strlen(word)) == 0 &&
		    strncmp(best, word, strlen(word)) != 0)
			best = cands[i];
		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	return bestd <= limit && bestd < strlen(word) ? best : NULL;
}

char *
lab_path_home(const char *path, const char *home)
{
	if (path == NULL)
		return NULL;
	if (strncmp(path, "~/", 2) == 0 && home != NULL && home[0] == '/')
		return lab_asprintf("%s/%s", home, path + 2);
	return lab_strdup(path);
}

/* Makes room for one more element of an array that only grows here. */
int
lab_grow(void *vp, size_t n, size_t sz)
{
	void	**v = vp, *p;
	size_t	  cap;

	if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
		return 0;
	cap = n < 4 ? 4 : n * 2;
	if ((p = realloc(*v, cap * sz)) == NULL)
		return -1;
	*v = p;
	return 0;
}

/* Appends one zeroed element (lab_grow's growth) and returns it. */
void *
lab_push(void *vp, size_t *n, size_t sz)
{
	char	*p;

	if (lab_grow(vp, *n, sz) == -1)
		return NULL;
	p = *(void **)vp;
	memset(p + *n * sz, 0, sz);
	return p + (*n)++ * sz;
}
