/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lab/parse.h"
#include "lab/text.h"
#include "lab.h"

/* How tables reach stdout: chosen once by table_setup(). */
static int	out_csv;	/* CSV instead of a table */
static int	out_color;	/* stdout is a terminal and NO_COLOR is unset */
static size_t	out_cols;	/* the terminal's width; 0: not a terminal */

/* Chooses CSV or a table, and for a terminal its width and colour. */
void
table_setup(int csv)
{
	struct winsize	 ws;
	const char	*e, *term = getenv("TERM");
	long		 v;

	out_csv = csv;
	if (!isatty(STDOUT_FILENO))
		return;
	e = getenv("NO_COLOR");
	out_color = (e == NULL || *e == '\0') &&
	    (term == NULL || strcmp(term, "dumb") != 0);
	if ((e = getenv("COLUMNS")) != NULL &&
	    lab_parse_int(e, 1, 100000, &v) == 0)
		out_cols = (size_t)v;
	else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		out_cols = ws.ws_col;
	else
		out_cols = 80;
}

/* Makes room for n more cells. */
static int
room(struct table *t, size_t n)
{
	const char	**v;
	size_t		  cap;

	if (t->ncells + n <= t->cap)
		return 0;
	cap = t->cap ? t->cap : 64;
	while (cap < t->ncells + n)
		cap *= 2;
	if ((v = realloc(t->cells, cap * sizeof(*v))) == NULL)
		return -1;
	t->cells = v;
	t->cap = cap;
	return 0;
}

/*
 * Adds a cell, copied into the table's pool (a listing of 10,000 hosts
 * is 70,000 cells, not 70,000 allocations). Out of memory, the table
 * loses cells and prints what it has.
 */
static void
add_cell(struct table *t, const char *s)
{
	const char	*c;
	char		*v;

	/* a cell shows its bytes; a terminal obeys none of them */
	if (lab_visible_needed(s)) {
		v = lab_visible(s);
		c = v != NULL ? lab_pool_strdup(&t->text, v) : NULL;
		free(v);
	} else
		c = lab_pool_strdup(&t->text, s);

	if (room(t, 1) == -1)
		return;
	t->cells[t->ncells++] = c != NULL ? c : "";
}

/* Starts a table with its column headers. */
void
table_init(struct table *t, size_t ncols, ...)
{
	va_list	ap;
	size_t	i;

	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->key = 1u;	/* the first column names the row */
	lab_pool_init(&t->text);
	va_start(ap, ncols);
	for (i = 0; i < ncols; i++)
		add_cell(t, va_arg(ap, const char *));
	va_end(ap);
}

/* Adds a row; NULL and empty cells print as "-" (empty in CSV). */
void
table_row(struct table *t, ...)
{
	const char	*s;
	va_list		 ap;
	size_t		 i;

	va_start(ap, t);
	for (i = 0; i < t->ncols; i++) {
		s = va_arg(ap, const char *);
		add_cell(t, s != NULL ? s : "");
	}
	va_end(ap);
}

/* Colours the state words of column col on a terminal. */
void
table_paint(struct table *t, size_t col)
{
	if (col < 32)
		t->paint |= 1u << col;
}

/* Column col names the row (a host, a switch, a time): never cut. */
void
table_key(struct table *t, size_t col)
{
	if (col < 32)
		t->key |= 1u << col;
}

/* Column col is free text (a message, a description): cut first. */
void
table_text(struct table *t, size_t col)
{
	if (col < 32)
		t->text_cols |= 1u << col;
}

/* The colour of a state word, or NULL. */
static const char *
color_of(const char *w)
{
	static const char *const good[] = { "on", "up", "ok", "info", NULL };
	static const char *const bad[] = { "off", "down", "failed", "error",
		"critical", "fail", NULL };
	static const char *const warn[] = { "?", "unknown", "warning", "warn",
		"lowerlayerdown", "notpresent", NULL };
	size_t	i;

	for (i = 0; good[i] != NULL; i++)
		if (strcmp(w, good[i]) == 0)
			return "\033[32m";
	for (i = 0; bad[i] != NULL; i++)
		if (strcmp(w, bad[i]) == 0)
			return "\033[31m";
	for (i = 0; warn[i] != NULL; i++)
		if (strcmp(w, warn[i]) == 0)
			return "\033[33m";
	return NULL;
}

/* Whether the n bytes of s are ASCII: then its width is n. */
static int
ascii(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] & 0x80)
			return 0;
	return 1;
}

/* Prints at most w columns of s, ending in "…" when cut. */
static void
put_cut(FILE *f, const char *s, size_t w)
{
	size_t	n = 0;

	if (lab_text_width(s) <= w || w == 0) {
		fputs(s, f);
		return;
	}
	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80 && ++n == w)
			break;
		fputc(*s, f);
	}
	fputs("\xe2\x80\xa6", f);
}

/* Prints a state word, coloured on a terminal. */
void
table_word(FILE *f, const char *w)
{
	const char	*c = out_color ? color_of(w) : NULL;

	if (c != NULL)
		fprintf(f, "%s%s\033[0m", c, w);
	else
		fputs(w, f);
}

/* A number as lab writes them: [-+]digits[.digits]. */
static int
numeric(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return 0;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

/*
 * RFC 4180: quote a field holding a comma, quote or line break. A field
 * a spreadsheet would take for a formula (it starts with = + - @, a tab
 * or a CR) gets a ' in front (OWASP's advice); a number does not: the
 * table cannot tell lab's numbers from text, so "-5" is left a number,
 * and "-" alone (lab's "nothing") is no formula either.
 */
static void
put_csv(FILE *f, const char *s)
{
	int	formula = *s != '\0' && strchr("=+-@\t\r", *s) != NULL &&
		    !numeric(s) && strcmp(s, "-") != 0;

	if (strpbrk(s, ",\"\r\n") == NULL) {
		if (formula)
			fputc('\'', f);
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * Where the rows printed come from: the table's cells, or a function
 * that gives each row's (table_print_rows). Row 0 is the header.
 */
struct view {
	const struct table	*t;
	size_t			 nrows;
	table_row_fn		 fn;
	void			*arg;
	const char		*row[32];
	struct lab_buf		 esc[32];	/* the row's cells made visible */
};

static const char *const *
view_row(struct view *v, size_t r)
{
	size_t	c;

	if (r == 0 || v->fn == NULL)
		return &v->t->cells[r * v->t->ncols];
	v->fn(v->arg, r - 1, v->row);
	for (c = 0; c < v->t->ncols; c++) {
		if (v->row[c] == NULL)
			v->row[c] = "";
		else if (lab_visible_needed(v->row[c])) {
			v->esc[c].len = 0;
			lab_buf_add_visible(&v->esc[c], v->row[c]);
			v->row[c] = v->esc[c].s != NULL && !v->esc[c].oom ?
			    v->esc[c].s : "";
		}
	}
	return v->row;
}

static void
view_release(struct view *v)
{
	size_t	c;

	for (c = 0; c < LAB_ARRAY_SIZE(v->esc); c++)
		lab_buf_release(&v->esc[c]);
}

static void
print_csv(struct view *v, FILE *f)
{
	const char *const	*row;
	size_t			 r, c, ncols = v->t->ncols;

	for (r = 0; r < v->nrows; r++) {
		row = view_row(v, r);
		for (c = 0; c < ncols; c++) {
			put_csv(f, row[c]);
			fputc(c + 1 == ncols ? '\n' : ',', f);
		}
	}
}

/* The narrowest a free-text column is cut to, and any other column. */
#define TEXT_MIN	12
#define OTHER_MIN	4

/*
 * Narrows columns until a row fits the terminal: first the widest
 * free-text column, down to TEXT_MIN, then the next widest; then the
 * other columns, the widest first, down to OTHER_MIN. A key column is
 * never cut: when the rest is at its minimum, the line is left too wide.
 */
static void
fit(const struct table *t, size_t *w)
{
	size_t	total = 0, c, widest, ncols = t->ncols, cut;
	int	found;

	for (c = 0; c < ncols; c++)
		total += w[c] + (c + 1 < ncols ? 2 : 0);
	while (total > out_cols) {
		for (found = 0, widest = 0, c = 0; c < ncols; c++)
			if ((t->text_cols & ~t->key & (1u << c)) &&
			    w[c] > TEXT_MIN && (!found || w[c] > w[widest])) {
				widest = c;
				found = 1;
			}
		if (!found)
			break;
		cut = w[widest] - TEXT_MIN;
		if (cut > total - out_cols)
			cut = total - out_cols;
		w[widest] -= cut;
		total -= cut;
	}
	while (total > out_cols) {
		for (found = 0, widest = 0, c = 0; c < ncols; c++)
			if (!(t->key & (1u << c)) && w[c] > OTHER_MIN &&
			    (!found || w[c] > w[widest])) {
				widest = c;
				found = 1;
			}
		if (!found)
			break;
		w[widest]--;
		total--;
	}
}

/* Prints n spaces (cheaper than "%*s" for every cell of 10,000 rows). */
static void
pad(FILE *f, size_t n)
{
	static const char	spaces[] = "                                ";
	size_t			k;

	for (; n > 0; n -= k) {
		k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		fwrite(spaces, 1, k, f);
	}
}

/*
 * Not a terminal: no cuts, no colours; the lines are put together in a
 * buffer and written in big pieces (10,000 rows of 7 cells).
 */
static void
print_plain(struct view *v, FILE *f, const size_t *w)
{
	static const char	 spaces[] = "                                ";
	const char *const	*row;
	struct lab_buf		 b;
	const char		*s;
	size_t			 r, c, len, n, k, ncols = v->t->ncols;

	lab_buf_init(&b);
	for (r = 0; r < v->nrows && !b.oom; r++) {
		row = view_row(v, r);
		for (c = 0; c < ncols; c++) {
			s = *row[c] != '\0' ? row[c] : "-";
			len = strlen(s);
			lab_buf_add(&b, s, len);
			if (c + 1 == ncols)
				break;
			len = ascii(s, len) ? len : lab_text_width(s);
			for (n = len < w[c] ? w[c] - len + 2 : 2; n > 0;
			    n -= k) {
				k = n < sizeof(spaces) - 1 ? n :
				    sizeof(spaces) - 1;
				lab_buf_add(&b, spaces, k);
			}
		}
		lab_buf_addc(&b, '\n');
		if (b.len >= 65536) {
			fwrite(b.s, 1, b.len, f);
			b.len = 0;
		}
	}
	if (b.len > 0 && !b.oom)
		fwrite(b.s, 1, b.len, f);
	lab_buf_release(&b);
}

/* Prints the rows: CSV, or columns padded to their widest cell. */
static void
print_view(struct view *v, FILE *f)
{
	const struct table	*t = v->t;
	const char *const	*row;
	size_t			 w[32] = { 0 }, r, c, len;
	const char		*s;
	int			 tty = f == stdout && out_cols > 0;

	if (t->ncols == 0 || t->ncols > 32 || t->ncells < t->ncols)
		return;
	if (f == stdout && out_csv) {
		print_csv(v, f);
		return;
	}
	for (r = 0; r < v->nrows; r++) {
		row = view_row(v, r);
		for (c = 0; c < t->ncols; c++) {
			s = row[c];
			len = *s != '\0' ? lab_text_width(s) : 1;
			if (len > w[c])
				w[c] = len;
		}
	}
	if (tty)
		fit(t, w);
	else {
		print_plain(v, f, w);
		return;
	}
	for (r = 0; r < v->nrows; r++)
		table_tty_row(t, f, view_row(v, r), w, r == 0);
}

/* The width tables are fitted to: the terminal's; 0 for no terminal. */
size_t
table_tty_width(void)
{
	return out_csv ? 0 : out_cols;
}

/* One row on a terminal: cut to w, padded, its state words coloured. */
void
table_tty_row(const struct table *t, FILE *f, const char *const *row,
    const size_t *w, int header)
{
	const char	*s, *col;
	size_t		 c, len;

	for (c = 0; c < t->ncols; c++) {
		s = *row[c] != '\0' ? row[c] : "-";
		col = out_color && !header && (t->paint & (1u << c)) ?
		    color_of(s) : NULL;
		if (col != NULL)
			fputs(col, f);
		put_cut(f, s, w[c]);
		if (col != NULL)
			fputs("\033[0m", f);
		len = lab_text_width(s);
		if (c + 1 == t->ncols)
			fputc('\n', f);
		else
			pad(f, len < w[c] ? w[c] - len + 2 : 2);
	}
}

/* Prints the table: CSV, or columns padded to their widest cell. */
void
table_print(struct table *t, FILE *f)
{
	struct view	v;

	memset(&v, 0, sizeof(v));
	v.t = t;
	v.nrows = t->ncols > 0 ? t->ncells / t->ncols : 0;
	print_view(&v, f);
	view_release(&v);
}

/*
 * Prints the table's header and then n rows that fn gives, one at a
 * time (twice: once for the widths): nothing is copied.
 */
void
table_print_rows(struct table *t, FILE *f, size_t n, table_row_fn fn,
    void *arg)
{
	struct view	v;

	memset(&v, 0, sizeof(v));
	v.t = t;
	v.nrows = n + 1;
	v.fn = fn;
	v.arg = arg;
	print_view(&v, f);
	view_release(&v);
}

/* Frees the cells. */
void
table_release(struct table *t)
{
	lab_pool_release(&t->text);
	free(t->cells);
	t->cells = NULL;
	t->ncells = t->cap = 0;
}
