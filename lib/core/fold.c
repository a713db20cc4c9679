/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/fold.h"
#include "lab/text.h"

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Natural order: digit runs by value (then by length), the rest bytewise. */
int
lab_natcmp(const char *a, const char *b)
{
	const char	*da, *db;
	size_t		 la, lb;

	while (*a != '\0' && *b != '\0') {
		if (is_digit(*a) && is_digit(*b)) {
			for (; *a == '0' && is_digit(a[1]); a++)
				;
			for (; *b == '0' && is_digit(b[1]); b++)
				;
			for (da = a; is_digit(*a); a++)
				;
			for (db = b; is_digit(*b); b++)
				;
			la = (size_t)(a - da);
			lb = (size_t)(b - db);
			if (la != lb)
				return la < lb ? -1 : 1;
			if (memcmp(da, db, la) != 0)
				return memcmp(da, db, la) < 0 ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a == *b ? 0 : *a == '\0' ? -1 : 1;
}

/* A name cut at its last run of digits. */
struct part {
	const char	*name;
	size_t		 pre;		/* bytes before the digits */
	size_t		 ndig;		/* 0: no digits */
	const char	*suf;
	uint64_t	 value;
	int		 padded;	/* leading zero: its width is fixed */
};

static void
part_of(struct part *p, const char *name)
{
	const char	*s, *end = NULL;
	size_t		 k;

	memset(p, 0, sizeof(*p));
	p->name = name;
	for (s = name; *s != '\0'; s++)
		if (is_digit(*s))
			end = s + 1;
	p->pre = strlen(name);
	p->suf = name + p->pre;
	if (end == NULL)
		return;
	for (s = end; s > name && is_digit(s[-1]); s--)
		;
	p->ndig = (size_t)(end - s);
	/* more than 18 digits cannot be a range: the name stays whole */
	if (p->ndig > 18) {
		p->ndig = 0;
		return;
	}
	p->pre = (size_t)(s - name);
	p->suf = end;
	for (k = 0; k < p->ndig; k++)
		p->value = p->value * 10 + (uint64_t)(s[k] - '0');
	p->padded = p->ndig > 1 && *s == '0';
}

/* The same piece: prefix and suffix (both with digits, or both without). */
static int
same_piece(const struct part *a, const struct part *b)
{
	if (a->ndig == 0 || b->ndig == 0)
		return a->ndig == 0 && b->ndig == 0 && strcmp(a->name,
		    b->name) == 0;
	return a->pre == b->pre && memcmp(a->name, b->name, a->pre) == 0 &&
	    strcmp(a->suf, b->suf) == 0;
}

static int
part_cmp(const void *x, const void *y)
{
	const struct part	*a = x, *b = y;
	int			 c;

	if (!same_piece(a, b)) {
		/* pieces by prefix, then suffix; a plain name as a prefix */
		c = strncmp(a->name, b->name, a->pre < b->pre ? a->pre :
		    b->pre);
		if (c != 0 || a->pre != b->pre)
			return c != 0 ? c : a->pre < b->pre ? -1 : 1;
		if (a->ndig == 0 || b->ndig == 0)
			return a->ndig == 0 ? -1 : 1;
		return strcmp(a->suf, b->suf);
	}
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->ndig < b->ndig ? -1 : a->ndig > b->ndig ? 1 : 0;
}

/* The digits of p. */
static void
add_digits(struct lab_buf *b, const struct part *p)
{
	lab_buf_add(b, p->name + p->pre, p->ndig);
}

/* Appends one piece (parts [i, j): one prefix and suffix) to b. */
static void
add_piece(struct lab_buf *b, const struct part *v, size_t i, size_t j)
{
	size_t	k, start;
	int	bracket = j - i > 1;

	if (v[i].ndig == 0) {
		lab_buf_adds(b, v[i].name);
		return;
	}
	lab_buf_add(b, v[i].name, v[i].pre);
	if (bracket)
		lab_buf_addc(b, '[');
	for (k = i; k < j; ) {
		start = k;
		/* a range holds numbers that print the way its ends do */
		while (k + 1 < j && v[k + 1].value == v[k].value + 1 &&
		    (v[start].padded ? v[k + 1].ndig == v[start].ndig :
		    !v[k + 1].padded))
			k++;
		if (start > i)
			lab_buf_addc(b, ',');
		add_digits(b, &v[start]);
		if (k > start) {
			lab_buf_addc(b, '-');
			add_digits(b, &v[k]);
		}
		k++;
	}
	if (bracket)
		lab_buf_addc(b, ']');
	lab_buf_adds(b, v[i].suf);
}

/* A piece: where it starts in the sorted parts, for the natural order. */
struct piece {
	const struct part	*v;
	size_t			 i, j;
};

static int
piece_cmp(const void *x, const void *y)
{
	const struct piece	*a = x, *b = y;

	return lab_natcmp(a->v[a->i].name, b->v[b->i].name);
}

char *
lab_fold_hosts(const char *const *names, size_t n)
{
	struct part	*v;
	struct piece	*pc;
	struct lab_buf	 b;
	size_t		 i, m = 0, np = 0, start;

	lab_buf_init(&b);
	if (n == 0)
		return lab_buf_steal(&b);
	v = calloc(n, sizeof(*v));
	pc = calloc(n, sizeof(*pc));
	if (v == NULL || pc == NULL) {
		free(v);
		free(pc);
		return NULL;
	}
	for (i = 0; i < n; i++)
		part_of(&v[i], names[i]);
	qsort(v, n, sizeof(*v), part_cmp);
	/* duplicates once */
	for (i = 0; i < n; i++)
		if (m == 0 || part_cmp(&v[m - 1], &v[i]) != 0 ||
		    strcmp(v[m - 1].name, v[i].name) != 0)
			v[m++] = v[i];
	for (i = 0; i < m; ) {
		start = i;
		while (i + 1 < m && same_piece(&v[start], &v[i + 1]))
			i++;
		i++;
		pc[np].v = v;
		pc[np].i = start;
		pc[np].j = i;
		np++;
	}
	qsort(pc, np, sizeof(*pc), piece_cmp);
	for (i = 0; i < np; i++) {
		if (i > 0)
			lab_buf_addc(&b, ',');
		add_piece(&b, v, pc[i].i, pc[i].j);
	}
	free(pc);
	free(v);
	if (b.oom) {
		lab_buf_release(&b);
		return NULL;
	}
	return lab_buf_steal(&b);
}

/* Whether c may be part of a name or an address. */
static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    is_digit(c) || c == '.' || c == '-' || c == '_' || c == ':' ||
	    c == '[' || c == ']';
}

/*
 * Takes word out of s (in place): "WORD TOKEN: " at the start goes
 * whole, elsewhere " TOKEN" (or TOKEN) goes.
 */
static void
cut_token(char *s, const char *tok)
{
	size_t	 n = strlen(tok), from, to;
	char	*p = s, *sp;
	int	 end;

	if (n == 0)
		return;
	while ((p = strstr(p, tok)) != NULL) {
		end = p[n] == '\0' || !name_char(p[n]) ||
		    (p[n] == ':' && (p[n + 1] == ' ' || p[n + 1] == '\0'));
		if ((p > s && name_char(p[-1])) || !end) {
			p++;
			continue;
		}
		from = (size_t)(p - s);
		to = from + n;
		sp = memchr(s, ' ', from);
		if (strncmp(p + n, ": ", 2) == 0 && (from == 0 ||
		    (sp != NULL && (size_t)(sp - s) + 1 == from))) {
			/* "BMC ADDR: why" -> "why" */
			from = 0;
			to += 2;
		} else if (from > 0 && s[from - 1] == ' ')
			from--;
		memmove(s + from, s + to, strlen(s + to) + 1);
		p = s + from;
	}
}

char *
lab_fail_text(const struct lab_fail *f)
{
	char		*s = strdup(f->msg != NULL ? f->msg : "");
	const char	*colon;
	char		 bare[256];
	size_t		 n;

	if (s == NULL)
		return NULL;
	if (f->addr != NULL && *f->addr != '\0') {
		cut_token(s, f->addr);
		/* "127.0.0.5" of "127.0.0.5:623", "::1" of "[::1]:623" */
		colon = strrchr(f->addr, ':');
		n = colon != NULL ? (size_t)(colon - f->addr) : 0;
		if (n > 0 && n < sizeof(bare)) {
			if (f->addr[0] == '[' && f->addr[n - 1] == ']') {
				memcpy(bare, f->addr + 1, n - 2);
				bare[n - 2] = '\0';
			} else {
				memcpy(bare, f->addr, n);
				bare[n] = '\0';
			}
			cut_token(s, bare);
		}
	}
	if (f->host != NULL)
		cut_token(s, f->host);
	return s;
}

/* "lab: LABEL: HOST: MSG" */
static void
add_one(struct lab_buf *b, const char *label, const struct lab_fail *f)
{
	lab_buf_addf(b, "lab: %s: ", label);
	lab_buf_add_visible(b, f->host);
	lab_buf_adds(b, ": ");
	lab_buf_add_visible(b, f->msg != NULL ? f->msg : "?");
	lab_buf_addc(b, '\n');
}

void
lab_fail_summary(struct lab_buf *b, const char *label,
    const struct lab_fail *f, size_t nfail, size_t total)
{
	const char	**hosts;
	char		**text, *folded;
	size_t		  i, k, nh, nrest = 0, last = 0;

	/* this machine's trouble: each on its own line, its peer named */
	for (i = 0; i < nfail; i++)
		if (f[i].local)
			add_one(b, label, &f[i]);
		else {
			nrest++;
			last = i;
		}
	if (nrest <= 1) {
		if (nrest == 1)
			add_one(b, label, &f[last]);
		return;
	}
	text = calloc(nfail, sizeof(*text));
	hosts = calloc(nfail, sizeof(*hosts));
	for (i = 0; text != NULL && hosts != NULL && i < nfail; i++)
		if ((text[i] = lab_fail_text(&f[i])) == NULL)
			break;
	if (text == NULL || hosts == NULL || i < nfail) {
		b->oom = 1;
		goto out;
	}
	for (i = 0; i < nfail; i++)
		if (f[i].local)
			text[i][0] = '\x01';	/* on its own line above */
	for (i = 0; i < nfail; i++) {
		if (text[i][0] == '\x01')
			continue;	/* in an earlier line */
		for (nh = 0, k = i; k < nfail; k++)
			if (text[k][0] != '\x01' && (k == i ||
			    strcmp(text[k], text[i]) == 0))
				hosts[nh++] = f[k].host;
		folded = lab_fold_hosts(hosts, nh);
		lab_buf_addf(b, "lab: %s: %zu of %zu failed: ", label, nh,
		    total);
		lab_buf_add_visible(b, *text[i] != '\0' ? text[i] : "?");
		lab_buf_adds(b, ": ");
		lab_buf_add_visible(b, folded != NULL ? folded : "?");
		lab_buf_addc(b, '\n');
		free(folded);
		for (k = i + 1; k < nfail; k++)
			if (text[k][0] != '\x01' &&
			    strcmp(text[k], text[i]) == 0)
				text[k][0] = '\x01';
	}
out:
	for (i = 0; text != NULL && i < nfail; i++)
		free(text[i]);
	free(text);
	free(hosts);
}
