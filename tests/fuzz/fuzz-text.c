/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for lib/core/text.c and the JSON writer's strings: what
 * lab_visible gives holds no control byte and is valid UTF-8; what the
 * JSON writer gives is valid UTF-8; lab_url_redact hides the password of
 * "http://u:PASSWORD@..." whatever bytes it holds (but '/', '?', '#',
 * '@', spaces, line ends, quotes); lab_utf8_cut cuts no longer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/json.h"
#include "lab/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Whether s is valid UTF-8 without C0, DEL or C1 controls (but keep). */
static int
clean(const char *s, const char *keep)
{
	size_t	n;

	for (; *s != '\0'; s += n) {
		if ((n = lab_utf8_len(s)) == 0)
			return 0;
		if (n == 1 && ((unsigned char)*s < 0x20 || *s == 0x7f) &&
		    strchr(keep, *s) == NULL)
			return 0;
		if (n == 2 && (unsigned char)s[0] == 0xc2 &&
		    (unsigned char)s[1] <= 0x9f)
			return 0;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_buf	 b;
	struct lab_json	 j;
	char		*s, *v, *r;
	size_t		 off;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if ((v = lab_visible(s)) == NULL || !clean(v, "") ||
	    lab_visible_needed(s) != (strcmp(s, v) != 0))
		abort();
	free(v);
	lab_buf_init(&b);
	lab_buf_add_visible_lines(&b, s);
	if (b.s != NULL && !clean(b.s, "\n\t"))
		abort();
	lab_buf_release(&b);
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_str(&j, s);
	if (b.s == NULL || !clean(b.s, ""))
		abort();
	lab_buf_release(&b);
	lab_buf_init(&b);
	lab_buf_add_utf8(&b, s);
	if (b.s != NULL && lab_utf8_cut(b.s, b.len) != b.len)
		abort();
	lab_buf_release(&b);
	if ((r = lab_url_redact(s)) == NULL)
		abort();
	/* "http://u:SECRET@h" for any SECRET without '/', '@' or space */
	if (strncmp(s, "http://u:", 9) == 0 && (v = strchr(s, '@')) != NULL &&
	    v > s + 9 && strcspn(s + 9, "/?#@ \t\r\n\"'<>`") ==
	    (size_t)(v - s - 9) && strncmp(r, "http://u:***@", 13) != 0)
		abort();
	free(r);
	(void)lab_ctrl_find(s, size, &off);
	if (lab_utf8_cut(s, size / 2) > size / 2)
		abort();
	free(s);
	return 0;
}
