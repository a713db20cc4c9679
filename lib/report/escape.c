/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stddef.h>
#include <stdint.h>

#include "lab/str.h"
#include "lab/text.h"
#include "report-html-priv.h"

/*
 * The escapers of the HTML page and of its inline SVG: below both, so
 * that neither renderer calls the other for them.
 */

#define REPLACEMENT	"\xef\xbf\xbd"

static void
esc_n(struct lab_buf *b, const char *str, size_t max)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 n, chars = 0;

	if (s == NULL)
		return;
	for (; *s != '\0'; s += n, chars++) {
		if (chars == max) {
			lab_buf_adds(b, "\xe2\x80\xa6");
			return;
		}
		n = lab_utf8_len((const char *)s);
		if (n == 0) {
			lab_buf_adds(b, REPLACEMENT);
			n = 1;
			continue;
		}
		switch (*s) {
		case '&':
			lab_buf_adds(b, "&amp;");
			break;
		case '<':
			lab_buf_adds(b, "&lt;");
			break;
		case '>':
			lab_buf_adds(b, "&gt;");
			break;
		case '"':
			lab_buf_adds(b, "&quot;");
			break;
		case '\'':
			lab_buf_adds(b, "&#39;");
			break;
		default:
			if ((*s < 0x20 && *s != '\t' && *s != '\n') ||
			    *s == 0x7f)
				lab_buf_adds(b, REPLACEMENT);
			else
				lab_buf_add(b, (const char *)s, n);
		}
	}
}

/* Escapes text for HTML and XML (see report-html-priv.h). */
void
lab_report_esc(struct lab_buf *b, const char *s)
{
	esc_n(b, s, SIZE_MAX);
}

/* Escapes at most max characters of s (see report-html-priv.h). */
void
lab_report_esc_short(struct lab_buf *b, const char *s, size_t max)
{
	esc_n(b, s, max);
}
