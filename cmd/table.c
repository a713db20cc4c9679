/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <string.h>

#include "lab.h"

/* Starts a table with its column headers. */
void
table_init(struct table *t, size_t ncols, ...)
{
	va_list	ap;
	size_t	i;

	t->ncols = ncols;
	lab_strv_init(&t->cells);
	va_start(ap, ncols);
	for (i = 0; i < ncols; i++)
		lab_strv_add(&t->cells, va_arg(ap, const char *));
	va_end(ap);
}

/* Adds a row; NULL cells print as "-". */
void
table_row(struct table *t, ...)
{
	const char	*s;
	va_list		 ap;
	size_t		 i;

	va_start(ap, t);
	for (i = 0; i < t->ncols; i++) {
		s = va_arg(ap, const char *);
		lab_strv_add(&t->cells, s != NULL && *s != '\0' ? s : "-");
	}
	va_end(ap);
}

/* Display width of UTF-8 text (one column per character). */
static size_t
width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Prints the table, columns padded to their widest cell. */
void
table_print(struct table *t, FILE *f)
{
	size_t	w[32] = { 0 }, i, c, len;

	if (t->ncols == 0 || t->ncols > 32)
		return;
	for (i = 0; i < t->cells.n; i++) {
		len = width(t->cells.v[i]);
		if (len > w[i % t->ncols])
			w[i % t->ncols] = len;
	}
	for (i = 0; i < t->cells.n; i++) {
		c = i % t->ncols;
		fputs(t->cells.v[i], f);
		if (c + 1 == t->ncols)
			fputc('\n', f);
		else
			fprintf(f, "%*s", (int)(w[c] - width(t->cells.v[i]) + 2),
			    "");
	}
}

/* Frees the cells. */
void
table_release(struct table *t)
{
	lab_strv_release(&t->cells);
}
