/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The last bytes of a stream, in bounded memory: see include/lab/tail.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/tail.h"

void
lab_tail_init(struct lab_tail *t, size_t cap)
{
	memset(t, 0, sizeof(*t));
	t->cap = cap > 0 ? cap : 1;
}

/* Grows the buffer to hold len + n bytes, up to cap. */
static int
grow(struct lab_tail *t, size_t n)
{
	size_t	 want, size;
	char	*p;

	want = t->len + n < t->cap ? t->len + n : t->cap;
	if (want <= t->size)
		return 0;
	size = t->size > 0 ? t->size : 4096;
	while (size < want)
		size = size > t->cap / 2 ? t->cap : size * 2;
	if (size > t->cap)
		size = t->cap;
	if ((p = realloc(t->p, size)) == NULL) {
		t->oom = 1;
		return -1;
	}
	t->p = p;
	t->size = size;
	return 0;
}

int
lab_tail_add(struct lab_tail *t, const void *data, size_t n)
{
	const char	*s = data;
	size_t		 k, at;

	if (t->oom)
		return -1;
	if (n == 0)
		return 0;
	t->total += n;
	if (n >= t->cap) {
		/* only the last cap bytes of these count */
		s += n - t->cap;
		n = t->cap;
		t->len = 0;
		t->head = 0;
	}
	if (grow(t, n) < 0)
		return -1;
	if (t->len + n <= t->cap) {
		memcpy(t->p + t->len, s, n);
		t->len += n;
		return 0;
	}
	/* full: a ring of cap bytes, head its oldest */
	if (t->len < t->cap) {
		k = t->cap - t->len;
		memcpy(t->p + t->len, s, k);
		t->len = t->cap;
		t->head = 0;
		s += k;
		n -= k;
	}
	while (n > 0) {
		at = t->head;
		k = t->cap - at < n ? t->cap - at : n;
		memcpy(t->p + at, s, k);
		t->head = (at + k) % t->cap;
		s += k;
		n -= k;
	}
	return 0;
}

char *
lab_tail_steal(struct lab_tail *t, size_t *len)
{
	char	*q;

	if (t->oom || (q = malloc(t->len + 1)) == NULL) {
		t->oom = 1;
		return NULL;
	}
	if (t->len > 0) {
		memcpy(q, t->p + t->head, t->len - t->head);
		memcpy(q + (t->len - t->head), t->p, t->head);
	}
	q[t->len] = '\0';
	*len = t->len;
	free(t->p);
	t->p = NULL;
	t->size = t->len = t->head = 0;
	return q;
}

char *
lab_tail_text(const char *p, size_t len, uint64_t total)
{
	const char	*nl;
	char		*q;
	int		 n;

	if (p == NULL)
		len = 0;
	if (total <= len) {
		if ((q = malloc(len + 1)) == NULL)
			return NULL;
		if (len > 0)
			memcpy(q, p, len);
		q[len] = '\0';
		return q;
	}
	/* from the first whole line, when the kept part has one */
	if (len > 0 && (nl = memchr(p, '\n', len)) != NULL &&
	    nl + 1 < p + len) {
		len -= (size_t)(nl + 1 - p);
		p = nl + 1;
	}
	n = snprintf(NULL, 0, "[output cut: %" PRIu64 " bytes, the last %zu "
	    "kept]\n", total, len);
	if (n < 0 || (q = malloc((size_t)n + len + 1)) == NULL)
		return NULL;
	snprintf(q, (size_t)n + 1, "[output cut: %" PRIu64 " bytes, the last "
	    "%zu kept]\n", total, len);
	if (len > 0)
		memcpy(q + n, p, len);
	q[(size_t)n + len] = '\0';
	return q;
}

void
lab_tail_release(struct lab_tail *t)
{
	free(t->p);
	memset(t, 0, sizeof(*t));
}
