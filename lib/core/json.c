/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <inttypes.h>
#include <string.h>

#include "lab/json.h"
#include "lab/text.h"

/* Starts writing into out. */
void
lab_json_init(struct lab_json *j, struct lab_buf *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

static void
indent(struct lab_json *j)
{
	int	i;

	lab_buf_addc(j->out, '\n');
	for (i = 0; i < j->depth; i++)
		lab_buf_adds(j->out, "  ");
}

/* Separates a new value from the previous one at this level. */
static void
sep(struct lab_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->count[j->depth]++ > 0)
		lab_buf_addc(j->out, ',');
	indent(j);
}

static void
jopen(struct lab_json *j, char c)
{
	sep(j);
	lab_buf_addc(j->out, c);
	if (j->depth + 1 < LAB_JSON_DEPTH)
		j->depth++;
	j->count[j->depth] = 0;
}

static void
jclose(struct lab_json *j, char c)
{
	int	had = j->count[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	lab_buf_addc(j->out, c);
}

void
lab_json_obj_begin(struct lab_json *j)
{
	jopen(j, '{');
}

void
lab_json_obj_end(struct lab_json *j)
{
	jclose(j, '}');
}

void
lab_json_arr_begin(struct lab_json *j)
{
	jopen(j, '[');
}

void
lab_json_arr_end(struct lab_json *j)
{
	jclose(j, ']');
}

/*
 * A JSON string, always valid UTF-8: a byte that starts no valid sequence
 * (overlong, surrogate, truncated, stray continuation) becomes U+FFFD;
 * controls, C1 ones too, are escaped.
 */
static void
quote(struct lab_buf *b, const char *s)
{
	const unsigned char	*p;
	size_t			 n;

	lab_buf_addc(b, '"');
	for (p = (const unsigned char *)s; *p != '\0'; p += n) {
		n = 1;
		switch (*p) {
		case '"':
			lab_buf_adds(b, "\\\"");
			break;
		case '\\':
			lab_buf_adds(b, "\\\\");
			break;
		case '\n':
			lab_buf_adds(b, "\\n");
			break;
		case '\r':
			lab_buf_adds(b, "\\r");
			break;
		case '\t':
			lab_buf_adds(b, "\\t");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				lab_buf_addf(b, "\\u%04x", *p);
			else if (*p < 0x80)
				lab_buf_addc(b, (char)*p);
			else if ((n = lab_utf8_len((const char *)p)) == 0) {
				lab_buf_adds(b, "\xef\xbf\xbd");
				n = 1;
			} else if (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f)
				lab_buf_addf(b, "\\u%04x", p[1]);
			else
				lab_buf_add(b, (const char *)p, n);
		}
	}
	lab_buf_addc(b, '"');
}

/* Writes a member name. */
void
lab_json_key(struct lab_json *j, const char *k)
{
	sep(j);
	quote(j->out, k);
	lab_buf_adds(j->out, ": ");
	j->after_key = 1;
}

/* A string or null. */
void
lab_json_str(struct lab_json *j, const char *s)
{
	if (s == NULL) {
		lab_json_null(j);
		return;
	}
	sep(j);
	quote(j->out, s);
}

void
lab_json_int(struct lab_json *j, int64_t v)
{
	sep(j);
	lab_buf_addf(j->out, "%" PRId64, v);
}

void
lab_json_bool(struct lab_json *j, int v)
{
	sep(j);
	lab_buf_adds(j->out, v ? "true" : "false");
}

void
lab_json_raw(struct lab_json *j, const char *v)
{
	sep(j);
	lab_buf_adds(j->out, v);
}

void
lab_json_null(struct lab_json *j)
{
	sep(j);
	lab_buf_adds(j->out, "null");
}

void
lab_json_kstr(struct lab_json *j, const char *k, const char *s)
{
	lab_json_key(j, k);
	lab_json_str(j, s);
}

void
lab_json_kint(struct lab_json *j, const char *k, int64_t v)
{
	lab_json_key(j, k);
	lab_json_int(j, v);
}

/* Ends the document. */
void
lab_json_end(struct lab_json *j)
{
	lab_buf_addc(j->out, '\n');
}
