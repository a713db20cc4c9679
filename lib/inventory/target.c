/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/target.h"

/* One term of a bracket: lo..hi by step, printed at width (0: as is). */
struct term {
	unsigned long	lo, hi, step;
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
	unsigned long	 lo, hi, step;
	int		 dlo, dhi, dstep;

	*n = 0;
	*count = 0;
	for (;;) {
		if (parse_num(&p, &lo, &dlo) == -1)
			goto bad;
		hi = lo;
		dhi = dlo;
		step = 1;
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
			/* a step, as ClusterShell and pdsh write it: [1-10/2] */
			if (*p == '/') {
				p++;
				if (parse_num(&p, &step, &dstep) == -1 ||
				    step == 0) {
					free(v);
					return lab_err_set(err, LAB_EXIT_INPUT,
					    "target '%s': a step is a number "
					    "from 1 up, as in [1-10/2]", pat);
				}
			}
		} else if (*p == '/') {
			free(v);
			return lab_err_set(err, LAB_EXIT_INPUT, "target '%s': a "
			    "step needs a range before it, as in [1-10/2]", pat);
		}
		if ((t = realloc(v, (*n + 1) * sizeof(*t))) == NULL) {
			free(v);
			return lab_err_oom(err);
		}
		v = t;
		v[*n].lo = lo;
		v[*n].hi = hi;
		v[*n].step = step;
		/* a leading zero asks for fixed width: [01-10] */
		v[*n].width = dlo > 1 && (*pp)[0] == '0' ? dlo : 0;
		(*n)++;
		*count += (hi - lo) / step + 1;
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
	    "written [1-3] or [0,5] or [01-10] or [1-10/2]", pat);
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
		for (v = terms[i].lo; v <= terms[i].hi && rc == 0;
		    v += terms[i].step) {
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

/* Marks every member of group g in set; fails if g is not known. */
static int
mark_group(const struct lab_inventory *inv, const char *g, char *set,
    struct lab_err *err)
{
	struct lab_strv	 names;
	const char	*near;
	size_t		 i, found = 0;

	for (i = 0; i < inv->nhosts; i++)
		if (lab_strv_find(&inv->hosts[i].groups, g) >= 0) {
			set[i] = 1;
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

/*
 * Puts one operand ("name", "n[1-10/2]", "@g", "@chassis[1-3]") into set,
 * cleared first. Every name must be a host, every group known. An error
 * about something other than the whole word names the word as typed and
 * where the operand starts in it (pos).
 */
static int
eval_operand(const struct lab_inventory *inv, const char *op, int sorted,
    char *set, const char *word, size_t pos, struct lab_err *err)
{
	struct lab_strv	 names;
	size_t		 i;
	long		 k;
	int		 group = *op == '@', rc = 0;

	memset(set, 0, inv->nhosts);
	if (lab_range_expand(group ? op + 1 : op, &names, err) == -1) {
		if (group || strcmp(op, word) != 0)
			lab_err_prefix(err, "target '%s', character %zu", word,
			    pos + 1);
		return -1;
	}
	for (i = 0; i < names.n && rc == 0; i++) {
		if (group)
			rc = mark_group(inv, names.v[i], set, err);
		else if ((k = host_index(inv, names.v[i], sorted)) < 0)
			rc = unknown_host(inv, names.v[i], err);
		else
			set[k] = 1;
		if (rc == -1 && (strcmp(op, word) != 0 ||
		    strcmp(names.v[i], op + group) != 0))
			lab_err_prefix(err, "target '%s', character %zu", word,
			    pos + 1);
	}
	lab_strv_release(&names);
	return rc;
}

/* Applies the operator between two operands: a = a op b. */
static void
combine(char *a, const char *b, size_t n, char op)
{
	size_t	i;

	for (i = 0; i < n; i++)
		switch (op) {
		case ',':
			a[i] = (char)(a[i] || b[i]);
			break;
		case '!':
			a[i] = (char)(a[i] && !b[i]);
			break;
		case '&':
			a[i] = (char)(a[i] && b[i]);
			break;
		default:	/* '^' */
			a[i] = (char)((a[i] != 0) != (b[i] != 0));
			break;
		}
}

static int
is_op(char c)
{
	return c == ',' || c == '!' || c == '&' || c == '^';
}

/* An error about word at byte pos (counted from 1 in the message). */
static int
word_err(struct lab_err *err, const char *word, size_t pos, const char *what,
    char c)
{
	return lab_err_set(err, LAB_EXIT_INPUT, "target '%s', character %zu: "
	    "%s '%c'", word, pos + 1, what, c);
}

/*
 * Evaluates one word, ClusterShell's way: operands joined by ',' (union),
 * '!' (difference), '&' (intersection) and '^' (symmetric difference),
 * left to right; brackets hide the operators they hold. An item that
 * starts with '!' at the start of the word or after a ',' is lab's
 * exclusion instead: it runs to the next ',' and goes into excl, which
 * the caller takes out at the very end. The rest goes into sel.
 */
static int
apply_word(const struct lab_inventory *inv, const char *word, int sorted,
    char *sel, char *excl, int *includes, struct lab_err *err)
{
	char		*cur, *seg, *opnd, *copy = NULL;
	size_t		 n = inv->nhosts, pos = 0, end;
	int		 depth, in_excl = 0, rc = -1;
	char		 op = ',', c;

	cur = calloc(n + 1, 1);
	seg = calloc(n + 1, 1);
	opnd = calloc(n + 1, 1);
	if (cur == NULL || seg == NULL || opnd == NULL ||
	    (copy = strdup(word)) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (;;) {
		if (op == ',' && copy[pos] == '!') {
			/* lab's exclusion item: !name, !@group */
			in_excl = 1;
			memset(seg, 0, n);
			pos++;
		} else if (op == ',')
			in_excl = 0;
		c = copy[pos];
		if (c == '\0') {
			if (pos == 0)
				lab_err_set(err, LAB_EXIT_INPUT, "empty target");
			else
				word_err(err, word, pos - 1, "empty target after",
				    word[pos - 1]);
			goto out;
		}
		if (c == '!') {
			lab_err_set(err, LAB_EXIT_INPUT, "target '%s', character "
			    "%zu: '!' only starts an item (as in '!name' or "
			    "'a,!b') or stands between two (as in 'a!b')",
			    word, pos + 1);
			goto out;
		}
		if (is_op(c)) {
			if (c == ',' && pos > 0)
				word_err(err, word, pos, "empty target before",
				    c);
			else
				word_err(err, word, pos, "no target before", c);
			goto out;
		}
		for (end = pos, depth = 0; copy[end] != '\0'; end++) {
			if (copy[end] == '[')
				depth++;
			else if (copy[end] == ']')
				depth--;
			else if (depth <= 0 && is_op(copy[end]))
				break;
		}
		c = copy[end];
		copy[end] = '\0';
		if (eval_operand(inv, copy + pos, sorted, opnd, word, pos,
		    err) == -1)
			goto out;
		if (in_excl)
			combine(seg, opnd, n, op);
		else {
			combine(cur, opnd, n, op);
			(*includes)++;
		}
		if (in_excl && (c == ',' || c == '\0'))
			combine(excl, seg, n, ',');
		if (c == '\0')
			break;
		op = c;
		pos = end + 1;
	}
	combine(sel, cur, n, ',');
	rc = 0;
out:
	free(cur);
	free(seg);
	free(opnd);
	free(copy);
	return rc;
}

/* Resolves target words to host names, in inventory order. */
int
lab_target_resolve(const struct lab_inventory *inv, char *const *words,
    size_t nwords, int all, struct lab_strv *ret, struct lab_err *err)
{
	struct lab_strv	 out;
	char		*sel, *excl;
	size_t		 i;
	int		 sorted = 1, includes = 0, rc = -1;

	if (nwords == 0 && !all)
		return lab_err_set(err, LAB_EXIT_INPUT, "no target given: name "
		    "hosts, a range, @group or --all");
	for (i = 1; i < inv->nhosts; i++)
		if (strcmp(inv->hosts[i - 1].name, inv->hosts[i].name) >= 0)
			sorted = 0;
	sel = calloc(inv->nhosts + 1, 1);
	excl = calloc(inv->nhosts + 1, 1);
	lab_strv_init(&out);
	if (sel == NULL || excl == NULL) {
		lab_err_oom(err);
		goto out;
	}
	if (all)
		memset(sel, 1, inv->nhosts);
	for (i = 0; i < nwords; i++)
		if (apply_word(inv, words[i], sorted, sel, excl, &includes,
		    err) == -1)
			goto out;
	if (!all && includes == 0) {
		lab_err_set(err, LAB_EXIT_INPUT, "only exclusions given: add "
		    "--all or the hosts to start from");
		goto out;
	}
	/* an exclusion wins over every inclusion, wherever it stands */
	for (i = 0; i < inv->nhosts; i++)
		if (sel[i] && !excl[i] &&
		    lab_strv_add(&out, inv->hosts[i].name) == -1) {
			lab_err_oom(err);
			lab_strv_release(&out);
			goto out;
		}
	*ret = out;
	rc = 0;
out:
	free(sel);
	free(excl);
	return rc;
}
