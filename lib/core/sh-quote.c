/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab/str.h"

/*
 * Quoting for POSIX sh: the template renderer's {{%sh}} (lib/plan) and
 * the fio command lines (lib/bench) quote every word through here.
 */
static int
plain_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || strchr("_./:=@%+,-", c) != NULL;
}

/* 1 when s is a non-empty word sh reads as it is, without quotes. */
int
lab_sh_plain(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!plain_char((unsigned char)*s))
			return 0;
	return 1;
}

/* Writes s as one POSIX shell word. */
void
lab_sh_quote(struct lab_buf *b, const char *s)
{
	if (lab_sh_plain(s)) {
		lab_buf_adds(b, s);
		return;
	}
	lab_buf_addc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			lab_buf_adds(b, "'\\''");
		else
			lab_buf_addc(b, *s);
	}
	lab_buf_addc(b, '\'');
}
