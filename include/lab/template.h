/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_TEMPLATE_H
#define LAB_TEMPLATE_H

#include <stddef.h>

#include "lab/err.h"
#include "lab/macro.h"
#include "lab/str.h"

/*
 * The template renderer for templates/ (the syntax is in
 * templates/README.md). A template starts with a line naming its kind:
 *	{{%sh}}		a POSIX shell script: every {{name}} is quoted
 *			as one shell word, and only where the text around
 *			it is unquoted; {{name|raw}} inserts a plain word
 *			([A-Za-z0-9_./:=@%+,-] only) anywhere
 *	{{%yaml}}	YAML: {{name}} is a double-quoted YAML string
 *	{{%text}}	a config file: {{name}} is inserted as is, and must
 *			hold no control characters (no newline)
 * Sections {{#name}}...{{/name}} repeat over a list of records, or render
 * once when name is a non-empty string; {{^name}}...{{/name}} renders
 * when name is missing, empty or an empty list. {{! comment }}.
 * Parse and render errors are LAB_EXIT_INPUT and read
 * "template NAME:LINE:COL: what".
 */

/* A record of variables: strings and lists of records, by name. */
struct lab_tvars;

/* A new empty record, or NULL when out of memory. */
struct lab_tvars	*lab_tvars_new(void);
/* Frees a record with everything under it; NULL is a no-op. */
void			 lab_tvars_free(struct lab_tvars *);
/* For LAB_CLEANUP. */
void			 lab_tvars_freep(struct lab_tvars **);

/*
 * Sets a string (a copy), replacing any earlier value of name. On
 * allocation failure these return -1 and the record remembers it:
 * rendering it then fails, so callers may check once, at render time.
 */
int	lab_tvars_set(struct lab_tvars *, const char *name,
	    const char *value);
int	lab_tvars_setf(struct lab_tvars *, const char *name, const char *fmt,
	    ...) LAB_PRINTF(3, 4);
/* Sets name to "1" when on, else removes it: for {{#name}} and {{^name}}. */
int	lab_tvars_setb(struct lab_tvars *, const char *name, int on);
/*
 * Appends a new record to the list called name (made when missing) and
 * returns it; it belongs to the parent. NULL when out of memory.
 */
struct lab_tvars	*lab_tvars_add(struct lab_tvars *, const char *name);

/* A parsed template. */
struct lab_template;

/*
 * Parses text (len bytes) as the template called name (used in errors);
 * *ret is caller-owned.
 */
int	lab_template_parse(const char *name, const char *text, size_t len,
	    struct lab_template **ret, struct lab_err *);
/* Frees a template; NULL is a no-op. */
void	lab_template_free(struct lab_template *);
/* Renders with vars, appending to out. */
int	lab_template_render(const struct lab_template *,
	    const struct lab_tvars *vars, struct lab_buf *out,
	    struct lab_err *);

/*
 * The templates built into lab from templates/ at build time (NAME.tmpl
 * is called NAME). The text is static; NULL when there is none.
 */
const char	*lab_template_builtin(const char *name, size_t *len);
/* The name of the i-th built-in template, or NULL past the last. */
const char	*lab_template_builtin_name(size_t i);
/* Parses and renders the built-in template name into *ret (caller-owned). */
int	lab_template_render_builtin(const char *name,
	    const struct lab_tvars *vars, char **ret, struct lab_err *);

/* lab_sh_quote, the shell quoting {{%sh}} uses, is in lab/str.h. */

#endif
