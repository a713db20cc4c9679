/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab/cred.h"

/*
 * Splits a command line as lab_redact_argv writes it (words separated by
 * one space, a word with anything but [A-Za-z0-9-_./:@,=+[]%] in single
 * quotes, a quote inside as '\'') back into its words, for the "args"
 * array of the JSON. The words are the redacted ones: no secret comes
 * back. Returns -1 when out of memory (ret released).
 */
int
lab_argv_split(const char *line, struct lab_strv *ret)
{
	struct lab_buf	w;
	const char	*p;
	int		quoted = 0, any = 0;

	lab_strv_init(ret);
	lab_buf_init(&w);
	for (p = line != NULL ? line : ""; ; p++) {
		if (*p == '\0' || (*p == ' ' && !quoted)) {
			if (any) {
				lab_buf_addc(&w, '\0');
				if (w.oom || lab_strv_add(ret, w.s) == -1)
					goto oom;
			}
			if (*p == '\0')
				break;
			w.len = 0;
			any = 0;
			continue;
		}
		any = 1;
		if (*p == '\'')
			quoted = !quoted;
		else if (*p == '\\' && !quoted && p[1] == '\'')
			lab_buf_addc(&w, *++p);
		else
			lab_buf_addc(&w, *p);
	}
	lab_buf_release(&w);
	return 0;
oom:
	lab_buf_release(&w);
	lab_strv_release(ret);
	return -1;
}
