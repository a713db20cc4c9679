/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Untrusted text on its way out: URL passwords hidden, controls and
 * invalid UTF-8 made visible or replaced. See include/lab/text.h.
 */
#include <string.h>

#include "lab/text.h"

#define REPLACEMENT	"\xef\xbf\xbd"	/* U+FFFD */

/* Bytes in a valid UTF-8 sequence at s, or 0. */
size_t
lab_utf8_len(const char *str)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 n, i;
	unsigned		 c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* a NUL is no continuation byte: the loop stops at the end */
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong, surrogates, beyond U+10FFFF */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* Whether the valid sequence of n bytes at s is a C1 control. */
static int
is_c1(const unsigned char *s, size_t n)
{
	return n == 2 && s[0] == 0xc2 && s[1] <= 0x9f;
}

static int
is_ctrl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

int
lab_visible_needed(const char *str)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 n;

	for (; *s != '\0'; s += n) {
		if (*s < 0x80) {
			if (is_ctrl(*s) || *s == '\\')
				return 1;
			n = 1;
			continue;
		}
		if ((n = lab_utf8_len((const char *)s)) == 0 || is_c1(s, n))
			return 1;
	}
	return 0;
}

/* keep: the bytes of "\n\t\\" that pass as they are (lines of text) */
static void
add_visible(struct lab_buf *b, const char *str, int lines)
{
	const unsigned char	*s = (const unsigned char *)str, *run;
	size_t			 n, i;

	if (s == NULL)
		return;
	for (run = s; *s != '\0'; s += n) {
		n = *s < 0x80 ? 1 : lab_utf8_len((const char *)s);
		if (n != 0 && !(n == 1 && (is_ctrl(*s) || *s == '\\')) &&
		    !is_c1(s, n))
			continue;
		if (lines && (*s == '\n' || *s == '\t' || *s == '\\'))
			continue;
		lab_buf_add(b, (const char *)run, (size_t)(s - run));
		if (n == 0)
			n = 1;
		if (*s == '\\')
			lab_buf_adds(b, "\\\\");
		else
			for (i = 0; i < n; i++)
				lab_buf_addf(b, "\\x%02x", s[i]);
		run = s + n;
	}
	lab_buf_add(b, (const char *)run, (size_t)(s - run));
}

void
lab_buf_add_visible(struct lab_buf *b, const char *s)
{
	add_visible(b, s, 0);
}

void
lab_buf_add_visible_lines(struct lab_buf *b, const char *s)
{
	add_visible(b, s, 1);
}

char *
lab_visible(const char *s)
{
	struct lab_buf	b;

	if (s == NULL)
		return NULL;
	lab_buf_init(&b);
	lab_buf_add_visible(&b, s);
	return lab_buf_steal(&b);
}

void
lab_buf_add_utf8(struct lab_buf *b, const char *s)
{
	const char	*run;
	size_t		 n;

	if (s == NULL)
		return;
	for (run = s; *s != '\0'; s += n) {
		if ((n = lab_utf8_len(s)) != 0)
			continue;
		lab_buf_add(b, run, (size_t)(s - run));
		lab_buf_adds(b, REPLACEMENT);
		n = 1;
		run = s + 1;
	}
	lab_buf_add(b, run, (size_t)(s - run));
}

size_t
lab_utf8_cut(const char *s, size_t max)
{
	size_t	i = 0, n;

	while (s[i] != '\0') {
		n = lab_utf8_len(s + i);
		if (n == 0)
			n = 1;	/* a bad byte is a character of its own */
		if (i + n > max)
			break;
		i += n;
	}
	return i;
}

void
lab_utf8_trim(char *str)
{
	unsigned char	*s = (unsigned char *)str;
	size_t		 len = strlen(str), i, want;

	/* the last lead byte among the last four, and what it announces */
	for (i = len; i > 0 && len - i < 4; i--) {
		if ((s[i - 1] & 0xc0) == 0x80)
			continue;
		want = s[i - 1] >= 0xf0 ? 4 : s[i - 1] >= 0xe0 ? 3 :
		    s[i - 1] >= 0xc0 ? 2 : 1;
		if (len - (i - 1) < want)
			s[i - 1] = '\0';
		return;
	}
}

long
lab_ctrl_find(const char *str, size_t len, size_t *off)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 i;

	for (i = 0; i < len; i++) {
		if (is_ctrl(s[i])) {
			*off = i;
			return s[i];
		}
		if (s[i] == 0xc2 && i + 1 < len && s[i + 1] >= 0x80 &&
		    s[i + 1] <= 0x9f) {
			*off = i;
			return s[i + 1];
		}
	}
	return -1;
}

#define SCHEME_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
			"0123456789+-."

/* The length of the scheme that ends at sep (from p on), 0 if none. */
static size_t
scheme_len(const char *p, const char *sep)
{
	size_t	k = 0;

	while (sep - k > p && strchr(SCHEME_CHARS, sep[-(long)k - 1]) != NULL)
		k++;
	/* it starts with a letter */
	while (k > 0 && !((sep[-(long)k] >= 'a' && sep[-(long)k] <= 'z') ||
	    (sep[-(long)k] >= 'A' && sep[-(long)k] <= 'Z')))
		k--;
	return k;
}

/*
 * Where a URL's text ends: a space, a line end, a quote, the end. Other
 * controls do not end it: a password holding one is still hidden.
 */
static size_t
word_end(const char *s)
{
	return strcspn(s, " \t\r\n\"'<>`");
}

char *
lab_url_redact(const char *s)
{
	struct lab_buf	 b;
	const char	*p = s, *sep, *start, *at, *colon;
	size_t		 i, end, auth, k;

	if (s == NULL)
		return NULL;
	lab_buf_init(&b);
	while ((sep = strstr(p, "://")) != NULL) {
		k = scheme_len(p, sep);
		start = sep + 3;
		lab_buf_add(&b, p, (size_t)(start - p));
		p = start;
		if (k == 0)
			continue;
		end = word_end(start);
		auth = strcspn(start, "/?#");
		if (auth > end)
			auth = end;
		at = NULL;
		for (i = 0; i < auth; i++)
			if (start[i] == '@')
				at = start + i;
		colon = memchr(start, ':', at != NULL ? (size_t)(at - start) :
		    end);
		if (at == NULL && colon != NULL)
			/* a '/' in the password: up to the first '@' */
			at = memchr(colon, '@', end - (size_t)(colon - start));
		if (at == NULL || colon == NULL || colon > at)
			continue;
		lab_buf_add(&b, start, (size_t)(colon - start) + 1);
		lab_buf_adds(&b, "***");
		p = at;
	}
	lab_buf_adds(&b, p);
	return lab_buf_steal(&b);
}

size_t
lab_text_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}
