/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/template.h"

/*
 * The renderer of templates/: a parse into a flat node list (sections
 * know where they end), then a walk over it with a stack of records.
 * In sh templates the literal text is followed with a small shell lexer
 * so that a substitution is refused where quoting it would not make it
 * one word (inside quotes, after a backslash or a $).
 */

#define NAME_MAX_LEN	64
#define STACK_MAX	16
#define OUT_MAX		((size_t)16 * 1024 * 1024)

enum tv_kind { TV_STR, TV_LIST };

struct tvar {
	char			 *name;
	enum tv_kind		  kind;
	char			 *s;
	struct lab_tvars	**items;
	size_t			  n, cap;
};

struct lab_tvars {
	struct tvar		*v;
	size_t			 n, cap;
	struct lab_tvars	*parent;
	int			 oom;
};

enum tkind { K_SH, K_YAML, K_TEXT };
enum nkind { N_TEXT, N_VAR, N_SECTION, N_INVERTED, N_END };
enum filter { F_SH, F_RAW, F_YAML, F_TEXT };
/* the shell lexer's states */
enum sh_state { SH_NONE, SH_SQ, SH_DQ, SH_COMMENT };

struct node {
	enum nkind	 kind;
	size_t		 off, len;	/* text: the bytes */
	char		 name[NAME_MAX_LEN + 1];
	enum filter	 filter;
	int		 in_comment;	/* sh: a substitution in a comment */
	int		 line, col;
	size_t		 end;		/* sections: where they end */
};

struct lab_template {
	char		*name;
	char		*text;
	size_t		 len;
	enum tkind	 kind;
	struct node	*nodes;
	size_t		 n, cap;
};

/* Records */

static void
set_oom(struct lab_tvars *r)
{
	for (; r != NULL; r = r->parent)
		r->oom = 1;
}

/* A new empty record. */
struct lab_tvars *
lab_tvars_new(void)
{
	return calloc(1, sizeof(struct lab_tvars));
}

/* Frees a record and everything under it. */
void
lab_tvars_free(struct lab_tvars *r)
{
	size_t	i, j;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].name);
		free(r->v[i].s);
		for (j = 0; j < r->v[i].n; j++)
			lab_tvars_free(r->v[i].items[j]);
		free(r->v[i].items);
	}
	free(r->v);
	free(r);
}

/* For LAB_CLEANUP. */
void
lab_tvars_freep(struct lab_tvars **r)
{
	lab_tvars_free(*r);
}

static struct tvar *
find(const struct lab_tvars *r, const char *name)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].name, name) == 0)
			return &r->v[i];
	return NULL;
}

static void
clear(struct tvar *v)
{
	size_t	j;

	free(v->s);
	v->s = NULL;
	for (j = 0; j < v->n; j++)
		lab_tvars_free(v->items[j]);
	free(v->items);
	v->items = NULL;
	v->n = v->cap = 0;
}

/* The variable called name, made (empty) when missing. */
static struct tvar *
slot(struct lab_tvars *r, const char *name)
{
	struct tvar	*v;
	size_t		 cap;

	if ((v = find(r, name)) != NULL)
		return v;
	if (r->n == r->cap) {
		cap = r->cap ? r->cap * 2 : 8;
		if ((v = realloc(r->v, cap * sizeof(*v))) == NULL)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	v = &r->v[r->n];
	memset(v, 0, sizeof(*v));
	if ((v->name = strdup(name)) == NULL)
		return NULL;
	r->n++;
	return v;
}

/* Sets a string. */
int
lab_tvars_set(struct lab_tvars *r, const char *name, const char *value)
{
	struct tvar	*v;
	char		*s;

	if ((s = strdup(value)) == NULL || (v = slot(r, name)) == NULL) {
		free(s);
		set_oom(r);
		return -1;
	}
	clear(v);
	v->kind = TV_STR;
	v->s = s;
	return 0;
}

/* Sets a formatted string. */
int
lab_tvars_setf(struct lab_tvars *r, const char *name, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		set_oom(r);
		return -1;
	}
	rc = lab_tvars_set(r, name, s);
	free(s);
	return rc;
}

/* Sets name to "1", or removes it. */
int
lab_tvars_setb(struct lab_tvars *r, const char *name, int on)
{
	struct tvar	*v;

	if (on)
		return lab_tvars_set(r, name, "1");
	if ((v = find(r, name)) != NULL) {
		clear(v);
		free(v->name);
		*v = r->v[--r->n];
	}
	return 0;
}

/* Appends a new record to the list called name. */
struct lab_tvars *
lab_tvars_add(struct lab_tvars *r, const char *name)
{
	struct lab_tvars	**items, *c;
	struct tvar		 *v;
	size_t			  cap;

	if ((v = slot(r, name)) == NULL)
		goto oom;
	if (v->kind != TV_LIST) {
		clear(v);
		v->kind = TV_LIST;
	}
	if (v->n == v->cap) {
		cap = v->cap ? v->cap * 2 : 4;
		if ((items = realloc(v->items, cap * sizeof(*items))) == NULL)
			goto oom;
		v->items = items;
		v->cap = cap;
	}
	if ((c = lab_tvars_new()) == NULL)
		goto oom;
	c->parent = r;
	v->items[v->n++] = c;
	return c;
oom:
	set_oom(r);
	return NULL;
}

/* Quoting */

static void
yaml_quote(struct lab_buf *b, const char *s)
{
	unsigned char	c;

	lab_buf_addc(b, '"');
	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			lab_buf_addc(b, '\\');
			lab_buf_addc(b, (char)c);
		} else if (c == '\n')
			lab_buf_adds(b, "\\n");
		else if (c == '\t')
			lab_buf_adds(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			lab_buf_addf(b, "\\x%02x", c);
		else
			lab_buf_addc(b, (char)c);
	}
	lab_buf_addc(b, '"');
}

/* Parsing */

struct parser {
	struct lab_template	*t;
	struct lab_err		*err;
	/* the sh lexer, over the literal text in source order */
	enum sh_state		 st;
	int			 esc;	/* a backslash awaits its char */
	char			 prev;	/* the last literal char */
	/* where the last node was: nodes come in order of their offset */
	size_t			 at_off;
	int			 at_line, at_col;
};

/* Line and column of a byte offset. */
static void
pos_of(const struct lab_template *t, size_t off, int *line, int *col)
{
	size_t	i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < t->len; i++) {
		if (t->text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)t->text[i] & 0xc0) != 0x80)
			(*col)++;
	}
}

static int LAB_PRINTF(3, 4)
fail_at(struct parser *p, size_t off, const char *fmt, ...)
{
	char	msg[256];
	va_list	ap;
	int	line, col;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pos_of(p->t, off, &line, &col);
	return lab_err_set(p->err, LAB_EXIT_INPUT, "template %s:%d:%d: %s",
	    p->t->name, line, col, msg);
}

static struct node *
push(struct parser *p, enum nkind kind, size_t off)
{
	struct lab_template	*t = p->t;
	struct node		*n;
	size_t			 cap;

	if (t->n == t->cap) {
		cap = t->cap ? t->cap * 2 : 32;
		if ((n = realloc(t->nodes, cap * sizeof(*n))) == NULL) {
			lab_err_oom(p->err);
			return NULL;
		}
		t->nodes = n;
		t->cap = cap;
	}
	n = &t->nodes[t->n++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->off = off;
	if (p->at_line == 0 || off < p->at_off) {
		p->at_off = 0;
		p->at_line = p->at_col = 1;
	}
	for (; p->at_off < off; p->at_off++) {
		if (t->text[p->at_off] == '\n') {
			p->at_line++;
			p->at_col = 1;
		} else if (((unsigned char)t->text[p->at_off] & 0xc0) != 0x80)
			p->at_col++;
	}
	n->line = p->at_line;
	n->col = p->at_col;
	return n;
}

static int
word_start(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || strchr(";&|()<>", c);
}

/* Follows the shell's quoting through literal text. */
static int
sh_lex(struct parser *p, size_t off, size_t len)
{
	const char	*s = p->t->text;
	size_t		 i;
	char		 c;

	for (i = off; i < off + len; i++) {
		c = s[i];
		if (p->esc) {
			p->esc = 0;
			p->prev = 'x';
			continue;
		}
		switch (p->st) {
		case SH_NONE:
			if (c == '\'')
				p->st = SH_SQ;
			else if (c == '"')
				p->st = SH_DQ;
			else if (c == '\\')
				p->esc = 1;
			else if (c == '`')
				return fail_at(p, i, "backquotes in a sh "
				    "template: use $(...)");
			else if (c == '<' && i + 1 < off + len &&
			    s[i + 1] == '<')
				return fail_at(p, i, "here-documents are not "
				    "supported in sh templates");
			else if (c == '#' && word_start(p->prev))
				p->st = SH_COMMENT;
			break;
		case SH_SQ:
			if (c == '\'')
				p->st = SH_NONE;
			break;
		case SH_DQ:
			if (c == '\\')
				p->esc = 1;
			else if (c == '"')
				p->st = SH_NONE;
			else if (c == '`')
				return fail_at(p, i, "backquotes in a sh "
				    "template: use $(...)");
			break;
		case SH_COMMENT:
			if (c == '\n')
				p->st = SH_NONE;
			break;
		}
		p->prev = c;
	}
	return 0;
}

static int
add_text(struct parser *p, size_t off, size_t len)
{
	struct node	*n;

	if (len == 0)
		return 0;
	if ((n = push(p, N_TEXT, off)) == NULL)
		return -1;
	n->len = len;
	if (p->t->kind == K_SH)
		return sh_lex(p, off, len);
	return 0;
}

static int
check_var(struct parser *p, struct node *n)
{
	const char	*what = n->filter == F_RAW ? "|raw" : "";

	switch (p->t->kind) {
	case K_SH:
		if (n->filter != F_SH && n->filter != F_RAW)
			return fail_at(p, n->off, "only |sh and |raw are "
			    "allowed in a sh template");
		if (p->esc)
			return fail_at(p, n->off, "{{%s%s}} after a backslash",
			    n->name, what);
		if (n->filter == F_RAW)
			break;
		if (p->prev == '$')
			return fail_at(p, n->off, "{{%s}} after a $",
			    n->name);
		if (p->st == SH_SQ || p->st == SH_DQ)
			return fail_at(p, n->off, "{{%s}} inside quotes: "
			    "write it unquoted (it becomes one quoted word) "
			    "or use {{%s|raw}} for a plain word", n->name,
			    n->name);
		n->in_comment = p->st == SH_COMMENT;
		break;
	case K_YAML:
		if (n->filter != F_YAML && n->filter != F_RAW)
			return fail_at(p, n->off, "only |yaml and |raw are "
			    "allowed in a yaml template");
		break;
	case K_TEXT:
		if (n->filter != F_TEXT && n->filter != F_RAW)
			return fail_at(p, n->off, "only |text and |raw are "
			    "allowed in a text template");
		break;
	}
	/* the substitution is a word: a '#' right after it starts none */
	p->prev = 'x';
	return 0;
}

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Reads "name" or "name|filter" from s[0..len) into n. */
static int
parse_name(struct parser *p, size_t off, size_t len, struct node *n,
    int filters)
{
	const char	*s = p->t->text + off;
	size_t		 i = 0, j;
	static const struct {
		const char	*name;
		enum filter	 f;
	} fl[] = {
		{ "sh", F_SH }, { "raw", F_RAW }, { "yaml", F_YAML },
		{ "text", F_TEXT },
	};

	while (i < len && s[i] == ' ')
		i++;
	j = i;
	while (j < len && name_char(s[j]))
		j++;
	if (j == i)
		return fail_at(p, off + i, "a tag needs a name "
		    "([A-Za-z0-9_-])");
	if (j - i > NAME_MAX_LEN)
		return fail_at(p, off + i, "a name is at most %d characters",
		    NAME_MAX_LEN);
	memcpy(n->name, s + i, j - i);
	n->name[j - i] = '\0';
	i = j;
	while (i < len && s[i] == ' ')
		i++;
	if (i < len && s[i] == '|' && filters) {
		i++;
		while (i < len && s[i] == ' ')
			i++;
		j = i;
		while (j < len && name_char(s[j]))
			j++;
		for (size_t k = 0; k < LAB_ARRAY_SIZE(fl); k++)
			if (j - i == strlen(fl[k].name) &&
			    memcmp(s + i, fl[k].name, j - i) == 0) {
				n->filter = fl[k].f;
				i = j;
				while (i < len && s[i] == ' ')
					i++;
				if (i == len)
					return 0;
				return fail_at(p, off + i, "unexpected "
				    "text after the filter");
			}
		return fail_at(p, off + i, "unknown filter '%.*s' (sh, raw, "
		    "yaml, text)", (int)(j - i), s + i);
	}
	if (i != len)
		return fail_at(p, off + i, "unexpected '%c' in a tag", s[i]);
	return 0;
}

static int
parse_kind(struct parser *p, size_t *pos)
{
	const char	*s = p->t->text;
	static const struct {
		const char	*tag;
		enum tkind	 kind;
	} kinds[] = {
		{ "{{%sh}}", K_SH }, { "{{%yaml}}", K_YAML },
		{ "{{%text}}", K_TEXT },
	};
	size_t		 i, l;

	for (i = 0; i < LAB_ARRAY_SIZE(kinds); i++) {
		l = strlen(kinds[i].tag);
		if (p->t->len >= l && memcmp(s, kinds[i].tag, l) == 0 &&
		    (p->t->len == l || s[l] == '\n')) {
			p->t->kind = kinds[i].kind;
			*pos = p->t->len == l ? l : l + 1;
			return 0;
		}
	}
	return fail_at(p, 0, "a template starts with a line {{%%sh}}, "
	    "{{%%yaml}} or {{%%text}}");
}

/* Where the line holding off starts, if only blanks lead up to off. */
static int
blank_before(const struct lab_template *t, size_t from, size_t off,
    size_t *start)
{
	size_t	i = off;

	while (i > from && (t->text[i - 1] == ' ' || t->text[i - 1] == '\t'))
		i--;
	if (i > 0 && t->text[i - 1] != '\n')
		return 0;
	if (i == from && i > 0 && t->text[i - 1] != '\n')
		return 0;
	*start = i;
	return 1;
}

/* Where the next line starts, if only blanks follow off on its line. */
static int
blank_after(const struct lab_template *t, size_t off, size_t *next)
{
	size_t	i = off;

	while (i < t->len && (t->text[i] == ' ' || t->text[i] == '\t'))
		i++;
	if (i < t->len && t->text[i] != '\n')
		return 0;
	*next = i < t->len ? i + 1 : i;
	return 1;
}

struct open {
	size_t		idx;
	enum sh_state	st;
};

static int
parse(struct parser *p)
{
	struct lab_template	*t = p->t;
	struct open		 stack[STACK_MAX * 4];
	struct node		*n;
	const char		*s = t->text, *q;
	size_t			 pos = 0, text_from, tag, close, body;
	size_t			 start, next;
	size_t			 depth = 0;
	char			 sig;

	if (memchr(s, '\0', t->len) != NULL)
		return fail_at(p, (size_t)((const char *)memchr(s, '\0',
		    t->len) - s), "a NUL byte in a template");
	if (parse_kind(p, &pos) == -1)
		return -1;
	p->st = SH_NONE;
	p->prev = '\n';
	text_from = pos;
	for (;;) {
		q = pos < t->len ? memmem(s + pos, t->len - pos, "{{", 2) :
		    NULL;
		if (q == NULL)
			break;
		tag = (size_t)(q - s);
		q = memmem(s + tag + 2, t->len - tag - 2, "}}", 2);
		if (q == NULL)
			return fail_at(p, tag, "a tag is not closed with }}");
		close = (size_t)(q - s);
		sig = s[tag + 2];
		body = strchr("#^/!", sig) != NULL && sig != '\0' ?
		    tag + 3 : tag + 2;
		next = close + 2;
		start = tag;
		if (sig != '\0' && strchr("#^/!", sig) != NULL &&
		    blank_before(t, text_from, tag, &start) &&
		    blank_after(t, close + 2, &next))
			;	/* a standalone tag: its line goes */
		else {
			start = tag;
			next = close + 2;
		}
		if (add_text(p, text_from, start - text_from) == -1)
			return -1;
		pos = text_from = next;
		if (sig == '!')
			continue;
		if (sig == '%')
			return fail_at(p, tag, "the kind of a template is "
			    "given once, on its first line");
		switch (sig) {
		case '#':
		case '^':
			if (depth == LAB_ARRAY_SIZE(stack))
				return fail_at(p, tag, "sections nest too "
				    "deep");
			if ((n = push(p, sig == '#' ? N_SECTION : N_INVERTED,
			    tag)) == NULL)
				return -1;
			if (parse_name(p, body, close - body, n, 0) == -1)
				return -1;
			if (p->st == SH_SQ || p->st == SH_DQ || p->esc)
				return fail_at(p, tag, "a section cannot "
				    "start inside quotes");
			stack[depth].idx = t->n - 1;
			stack[depth].st = p->st;
			depth++;
			break;
		case '/':
			if ((n = push(p, N_END, tag)) == NULL)
				return -1;
			if (parse_name(p, body, close - body, n, 0) == -1)
				return -1;
			if (depth == 0)
				return fail_at(p, tag, "{{/%s}} closes no "
				    "section", n->name);
			depth--;
			if (strcmp(t->nodes[stack[depth].idx].name,
			    n->name) != 0)
				return fail_at(p, tag, "{{/%s}} does not "
				    "close {{#%s}} of line %d", n->name,
				    t->nodes[stack[depth].idx].name,
				    t->nodes[stack[depth].idx].line);
			if (p->st != stack[depth].st || p->esc)
				return fail_at(p, tag, "quoting differs at "
				    "the start and the end of section '%s'",
				    n->name);
			t->nodes[stack[depth].idx].end = t->n - 1;
			break;
		default:
			if ((n = push(p, N_VAR, tag)) == NULL)
				return -1;
			n->filter = t->kind == K_SH ? F_SH :
			    t->kind == K_YAML ? F_YAML : F_TEXT;
			if (parse_name(p, body, close - body, n, 1) == -1 ||
			    check_var(p, n) == -1)
				return -1;
			break;
		}
	}
	if (add_text(p, text_from, t->len - text_from) == -1)
		return -1;
	if (depth > 0) {
		n = &t->nodes[stack[depth - 1].idx];
		return fail_at(p, n->off, "{{%c%s}} is never closed",
		    n->kind == N_SECTION ? '#' : '^', n->name);
	}
	if (t->kind == K_SH && (p->st == SH_SQ || p->st == SH_DQ))
		return fail_at(p, t->len, "a quote is never closed");
	return 0;
}

/* Parses a template. */
int
lab_template_parse(const char *name, const char *text, size_t len,
    struct lab_template **ret, struct lab_err *err)
{
	struct lab_template	*t;
	struct parser		 p;

	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (t->name = strdup(name)) == NULL ||
	    (t->text = malloc(len + 1)) == NULL) {
		lab_template_free(t);
		return lab_err_oom(err);
	}
	memcpy(t->text, text, len);
	t->text[len] = '\0';
	t->len = len;
	memset(&p, 0, sizeof(p));
	p.t = t;
	p.err = err;
	if (parse(&p) == -1) {
		lab_template_free(t);
		return -1;
	}
	*ret = t;
	return 0;
}

/* Frees a template. */
void
lab_template_free(struct lab_template *t)
{
	if (t == NULL)
		return;
	free(t->nodes);
	free(t->text);
	free(t->name);
	free(t);
}

/* Rendering */

struct render {
	const struct lab_template	*t;
	const struct lab_tvars		*stack[STACK_MAX];
	int				 depth;
	struct lab_buf			*out;
	struct lab_err			*err;
};

static int LAB_PRINTF(3, 4)
rfail(struct render *r, const struct node *n, const char *fmt, ...)
{
	char	msg[256];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lab_err_set(r->err, LAB_EXIT_INPUT, "template %s:%d:%d: %s",
	    r->t->name, n->line, n->col, msg);
}

static const struct tvar *
lookup(const struct render *r, const char *name)
{
	const struct tvar	*v;
	int			 i;

	for (i = r->depth - 1; i >= 0; i--)
		if ((v = find(r->stack[i], name)) != NULL)
			return v;
	return NULL;
}

static int
truthy(const struct tvar *v)
{
	if (v == NULL)
		return 0;
	return v->kind == TV_STR ? v->s[0] != '\0' : v->n > 0;
}

static int
emit_var(struct render *r, const struct node *n)
{
	const struct tvar	*v = lookup(r, n->name);
	const unsigned char	*c;

	if (v == NULL)
		return rfail(r, n, "no value for '%s'", n->name);
	if (v->kind != TV_STR)
		return rfail(r, n, "'%s' is a list, not a value", n->name);
	switch (n->filter) {
	case F_SH:
		if (n->in_comment && strchr(v->s, '\n') != NULL)
			return rfail(r, n, "'%s' holds a newline and is in "
			    "a comment", n->name);
		lab_sh_quote(r->out, v->s);
		break;
	case F_RAW:
		if (!lab_sh_plain(v->s))
			return rfail(r, n, "'%s' is not a plain word "
			    "([A-Za-z0-9_./:=@%%+,-]): '%.64s'", n->name,
			    v->s);
		lab_buf_adds(r->out, v->s);
		break;
	case F_YAML:
		yaml_quote(r->out, v->s);
		break;
	case F_TEXT:
		for (c = (const unsigned char *)v->s; *c != '\0'; c++)
			if (*c < 0x20 || *c == 0x7f)
				return rfail(r, n, "'%s' holds a control "
				    "character (a newline?)", n->name);
		lab_buf_adds(r->out, v->s);
		break;
	}
	return 0;
}

static int
walk(struct render *r, size_t from, size_t to)
{
	const struct node	*n;
	const struct tvar	*v;
	size_t			 i, k;

	for (i = from; i < to; i++) {
		n = &r->t->nodes[i];
		if (r->out->len > OUT_MAX)
			return rfail(r, n, "the output is over %zu bytes",
			    OUT_MAX);
		switch (n->kind) {
		case N_TEXT:
			lab_buf_add(r->out, r->t->text + n->off, n->len);
			break;
		case N_VAR:
			if (emit_var(r, n) == -1)
				return -1;
			break;
		case N_SECTION:
			v = lookup(r, n->name);
			if (v != NULL && v->kind == TV_LIST) {
				if (r->depth == STACK_MAX)
					return rfail(r, n, "lists nest more "
					    "than %d deep", STACK_MAX);
				for (k = 0; k < v->n; k++) {
					r->stack[r->depth++] = v->items[k];
					if (walk(r, i + 1, n->end) == -1)
						return -1;
					r->depth--;
				}
			} else if (truthy(v) && walk(r, i + 1, n->end) == -1)
				return -1;
			i = n->end;
			break;
		case N_INVERTED:
			v = lookup(r, n->name);
			if (!truthy(v) && walk(r, i + 1, n->end) == -1)
				return -1;
			i = n->end;
			break;
		case N_END:
			break;
		}
	}
	return 0;
}

/* Renders a template. */
int
lab_template_render(const struct lab_template *t,
    const struct lab_tvars *vars, struct lab_buf *out, struct lab_err *err)
{
	struct render	r;

	if (vars->oom)
		return lab_err_oom(err);
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.stack[0] = vars;
	r.depth = 1;
	r.out = out;
	r.err = err;
	if (walk(&r, 0, t->n) == -1)
		return -1;
	if (out->oom)
		return lab_err_oom(err);
	return 0;
}
