/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/target.h"

/* One term of a bracket: lo..hi printed at width (0: as is). */
struct term {
	unsigned long	lo, hi;
	int		width;
};

static int
parse_num(const char **pp, unsigned long *v, int *digits)
{
	const char	*p = *pp;

	*v = 0;
	*digits = 0;
	while (isdigit((unsigned char)*p)) {
		if (*v > 99999999UL)
			return -1;
		*v = *v * 10 + (unsigned long)(*p++ - '0');
		(*digits)++;
	}
	*pp = p;
	return *digits > 0 ? 0 : -1;
}

/* Parses "1-3,5,07-09" up to the closing bracket. */
static int
parse_bracket(const char *pat, const char **pp, struct term **ret, size_t *n,
    unsigned long *count, struct lab_err *err)
{
	struct term	*v = NULL, *t;
	const char	*p = *pp;
	unsigned long	 lo, hi;
	int		 dlo, dhi;

	*n = 0;
	*count = 0;
	for (;;) {
		if (parse_num(&p, &lo, &dlo) == -1)
			goto bad;
		hi = lo;
		dhi = dlo;
		if (*p == '-') {
			p++;
			if (parse_num(&p, &hi, &dhi) == -1)
				goto bad;
			if (hi < lo) {
				free(v);
				return lab_err_set(err, LAB_EXIT_INPUT,
				    "target '%s': range %lu-%lu runs backwards",
				    pat, lo, hi);
			}
		}
		if ((t = realloc(v, (*n + 1) * sizeof(*t))) == NULL) {
			free(v);
			return lab_err_oom(err);
		}
		v = t;
		v[*n].lo = lo;
		v[*n].hi = hi;
		/* a leading zero asks for fixed width: [01-10] */
		v[*n].width = dlo > 1 && (*pp)[0] == '0' ? dlo : 0;
		(*n)++;
		*count += hi - lo + 1;
		if (*count > LAB_RANGE_MAX) {
			free(v);
			return lab_err_set(err, LAB_EXIT_INPUT, "target '%s' "
			    "expands to more than %d names", pat,
			    LAB_RANGE_MAX);
		}
		if (*p == ']')
			break;
		if (*p != ',')
			goto bad;
		p++;
		*pp = p;
	}
	*pp = p + 1;
	*ret = v;
	return 0;
bad:
	free(v);
	return lab_err_set(err, LAB_EXIT_INPUT, "target '%s': a range is "
	    "written [1-3] or [0,5] or [01-10]", pat);
}

/* Expands the pattern from p onwards, with prefix already in out. */
static int
expand(const char *pat, const char *p, struct lab_buf *prefix,
    struct lab_strv *ret, struct lab_err *err)
{
	struct term	*terms = NULL;
	struct lab_buf	 b;
	const char	*q, *rest;
	unsigned long	 v, count;
	size_t		 n, i;
	int		 rc = 0;

	q = strchr(p, '[');
	if (strchr(p, ']') != NULL && (q == NULL || strchr(p, ']') < q))
		return lab_err_set(err, LAB_EXIT_INPUT, "target '%s': ']' "
		    "without '['", pat);
	if (q == NULL) {
		lab_buf_init(&b);
		lab_buf_add(&b, prefix->s ? prefix->s : "", prefix->len);
		lab_buf_adds(&b, p);
		if (b.oom || ret->n >= LAB_RANGE_MAX) {
			lab_buf_release(&b);
			return b.oom ? lab_err_oom(err) : lab_err_set(err,
			    LAB_EXIT_INPUT, "target '%s' expands to more than "
			    "%d names", pat, LAB_RANGE_MAX);
		}
		if (lab_strv_take(ret, lab_buf_steal(&b)) == -1)
			return lab_err_oom(err);
		return 0;
	}
	rest = q + 1;
	if (parse_bracket(pat, &rest, &terms, &n, &count, err) == -1)
		return -1;
	for (i = 0; i < n && rc == 0; i++)
		for (v = terms[i].lo; v <= terms[i].hi && rc == 0; v++) {
			lab_buf_init(&b);
			lab_buf_add(&b, prefix->s ? prefix->s : "",
			    prefix->len);
			lab_buf_add(&b, p, (size_t)(q - p));
			lab_buf_addf(&b, "%0*lu", terms[i].width, v);
			rc = b.oom ? lab_err_oom(err) :
			    expand(pat, rest, &b, ret, err);
			lab_buf_release(&b);
		}
	free(terms);
	return rc;
}

/* Expands one pattern into names. */
int
lab_range_expand(const char *pattern, struct lab_strv *ret,
    struct lab_err *err)
{
	struct lab_strv	out;
	struct lab_buf	prefix;
	const char	*p;
	int		depth = 0;

	for (p = pattern; *p != '\0'; p++) {
		if (*p == '[' && depth++ > 0)
			return lab_err_set(err, LAB_EXIT_INPUT, "target '%s': "
			    "brackets cannot nest", pattern);
		if (*p == ']' && --depth < 0)
			return lab_err_set(err, LAB_EXIT_INPUT, "target '%s': "
			    "']' without '['", pattern);
	}
	if (depth != 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "target '%s': '[' is "
		    "never closed", pattern);
	lab_strv_init(&out);
	lab_buf_init(&prefix);
	if (expand(pattern, pattern, &prefix, &out, err) == -1) {
		lab_strv_release(&out);
		return -1;
	}
	*ret = out;
	return 0;
}

/* Index of host name in a sorted inventory, or -1. */
static long
host_index(const struct lab_inventory *inv, const char *name, int sorted)
{
	size_t	lo = 0, hi = inv->nhosts, mid, i;
	int	c;

	if (!sorted) {
		for (i = 0; i < inv->nhosts; i++)
			if (strcmp(inv->hosts[i].name, name) == 0)
				return (long)i;
		return -1;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name, inv->hosts[mid].name);
		if (c == 0)
			return (long)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

static int
unknown_host(const struct lab_inventory *inv, const char *name,
    struct lab_err *err)
{
	const char	**cands, *near;
	size_t		  i;

	if (lab_inventory_switch(inv, name) != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "'%s' is a switch, "
		    "not a host", name);
	if ((cands = calloc(inv->nhosts + 1, sizeof(*cands))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < inv->nhosts; i++)
		cands[i] = inv->hosts[i].name;
	near = lab_suggest(name, cands, inv->nhosts);
	if (near != NULL)
		lab_err_set(err, LAB_EXIT_INPUT, "unknown host '%s'; did you "
		    "mean '%s'?", name, near);
	else
		lab_err_set(err, LAB_EXIT_INPUT, "unknown host '%s' (%zu "
		    "hosts known: see 'lab ls hosts')", name, inv->nhosts);
	free(cands);
	return -1;
}

/* Marks every member of a group; fails if no host is in it. */
static int
mark_group(const struct lab_inventory *inv, const char *g, char mark,
    char *sel, struct lab_err *err)
{
	struct lab_strv	 names;
	const char	*near;
	size_t		 i, found = 0;

	for (i = 0; i < inv->nhosts; i++)
		if (lab_strv_find(&inv->hosts[i].groups, g) >= 0) {
			sel[i] = mark;
			found++;
		}
	if (found > 0)
		return 0;
	if (lab_inventory_group_names(inv, &names, err) == -1)
		return -1;
	if (lab_strv_find(&names, g) >= 0) {
		lab_strv_release(&names);
		return 0;	/* declared, just empty */
	}
	near = lab_suggest(g, (const char *const *)names.v, names.n);
	if (near != NULL)
		lab_err_set(err, LAB_EXIT_INPUT, "unknown group '@%s'; did you "
		    "mean '@%s'?", g, near);
	else
		lab_err_set(err, LAB_EXIT_INPUT, "unknown group '@%s' (see "
		    "'lab ls groups')", g);
	lab_strv_release(&names);
	return -1;
}

/* Applies one item ("name", "@g", "!x[1-2]") to the selection. */
static int
apply_item(const struct lab_inventory *inv, const char *item, int sorted,
    char *sel, int *includes, struct lab_err *err)
{
	struct lab_strv	 names;
	char		 mark = 1;
	size_t		 i;
	long		 k;

	if (*item == '!') {
		mark = 0;
		item++;
	} else
		(*includes)++;
	if (*item == '\0')
		return lab_err_set(err, LAB_EXIT_INPUT, "empty target");
	if (*item == '@')
		return mark_group(inv, item + 1, mark, sel, err);
	if (lab_range_expand(item, &names, err) == -1)
		return -1;
	for (i = 0; i < names.n; i++) {
		if ((k = host_index(inv, names.v[i], sorted)) < 0) {
			unknown_host(inv, names.v[i], err);
			lab_strv_release(&names);
			return -1;
		}
		sel[k] = mark;
	}
	lab_strv_release(&names);
	return 0;
}

/* Splits a word at commas outside brackets and applies each item. */
static int
apply_word(const struct lab_inventory *inv, const char *word, int sorted,
    char *sel, int *includes, struct lab_err *err)
{
	char	*copy, *p, *start;
	int	 depth = 0, rc = 0;

	if ((copy = strdup(word)) == NULL)
		return lab_err_oom(err);
	for (p = start = copy; rc == 0; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		else if ((*p == ',' && depth == 0) || *p == '\0') {
			char	end = *p;

			*p = '\0';
			rc = apply_item(inv, start, sorted, sel, includes, err);
			if (end == '\0')
				break;
			start = p + 1;
		}
	}
	free(copy);
	return rc;
}

/* Resolves target words to host names, in inventory order. */
int
lab_target_resolve(const struct lab_inventory *inv, char *const *words,
    size_t nwords, int all, struct lab_strv *ret, struct lab_err *err)
{
	struct lab_strv	 out;
	char		*sel;
	size_t		 i;
	int		 sorted = 1, includes = 0;

	if (nwords == 0 && !all)
		return lab_err_set(err, LAB_EXIT_INPUT, "no target given: name "
		    "hosts, a range, @group or --all");
	for (i = 1; i < inv->nhosts; i++)
		if (strcmp(inv->hosts[i - 1].name, inv->hosts[i].name) >= 0)
			sorted = 0;
	if ((sel = calloc(inv->nhosts + 1, 1)) == NULL)
		return lab_err_oom(err);
	if (all)
		memset(sel, 1, inv->nhosts);
	for (i = 0; i < nwords; i++)
		if (apply_word(inv, words[i], sorted, sel, &includes,
		    err) == -1) {
			free(sel);
			return -1;
		}
	if (!all && includes == 0) {
		free(sel);
		return lab_err_set(err, LAB_EXIT_INPUT, "only exclusions "
		    "given: add --all or the hosts to start from");
	}
	lab_strv_init(&out);
	for (i = 0; i < inv->nhosts; i++)
		if (sel[i] && lab_strv_add(&out, inv->hosts[i].name) == -1) {
			free(sel);
			lab_strv_release(&out);
			return lab_err_oom(err);
		}
	free(sel);
	*ret = out;
	return 0;
}
