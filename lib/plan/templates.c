/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lab/template.h"

#include "templates.h"

/* The built-in template called name. */
const char *
lab_template_builtin(const char *name, size_t *len)
{
	size_t	i;

	for (i = 0; i < LAB_ARRAY_SIZE(builtin_templates); i++)
		if (strcmp(builtin_templates[i].name, name) == 0) {
			if (len != NULL)
				*len = builtin_templates[i].len;
			return builtin_templates[i].text;
		}
	return NULL;
}

/* The name of the i-th built-in template. */
const char *
lab_template_builtin_name(size_t i)
{
	return i < LAB_ARRAY_SIZE(builtin_templates) ?
	    builtin_templates[i].name : NULL;
}

/* Parses and renders a built-in template. */
int
lab_template_render_builtin(const char *name, const struct lab_tvars *vars,
    char **ret, struct lab_err *err)
{
	struct lab_template	*t = NULL;
	struct lab_buf		 b;
	const char		*text;
	size_t			 len;

	if ((text = lab_template_builtin(name, &len)) == NULL)
		return lab_err_set(err, LAB_EXIT_ENV, "no built-in template "
		    "'%s'", name);
	if (lab_template_parse(name, text, len, &t, err) == -1)
		return -1;
	lab_buf_init(&b);
	if (lab_template_render(t, vars, &b, err) == -1) {
		lab_buf_release(&b);
		lab_template_free(t);
		return -1;
	}
	lab_template_free(t);
	if ((*ret = lab_buf_steal(&b)) == NULL)
		return lab_err_oom(err);
	return 0;
}
