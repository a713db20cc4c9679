/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <string.h>

#include "bench/bench-priv.h"

struct json_object *
lab_bench_json_read(const char *text, size_t len, const char *what,
    const char *where, struct lab_err *err)
{
	struct json_tokener	*tok;
	struct json_object	*o;
	enum json_tokener_error	 e;
	size_t			 start = 0, end;

	if (where == NULL)
		where = "-";
	if (text == NULL)
		len = 0;
	if (len > LAB_BENCH_JSON_MAX) {
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s output of %zu "
		    "bytes, more than the %zu KiB lab reads", where, what, len,
		    LAB_BENCH_JSON_MAX >> 10);
		return NULL;
	}
	while (start < len && text[start] != '{') {
		const char *nl = memchr(text + start, '\n', len - start);

		if (nl == NULL) {
			start = len;
			break;
		}
		start = (size_t)(nl - text) + 1;
	}
	if (start >= len) {
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s output holds no "
		    "JSON object (%zu bytes)", where, what, len);
		return NULL;
	}
	if ((tok = json_tokener_new_ex(32)) == NULL) {
		lab_err_oom(err);
		return NULL;
	}
	o = json_tokener_parse_ex(tok, text + start, (int)(len - start));
	e = json_tokener_get_error(tok);
	end = start + json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (o == NULL || e != json_tokener_success) {
		json_object_put(o);
		if (e == json_tokener_continue)
			lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s output is "
			    "cut short after %zu bytes", where, what, len);
		else
			lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s output is "
			    "not JSON at byte %zu: %s", where, what, end,
			    json_tokener_error_desc(e));
		return NULL;
	}
	while (end < len && strchr(" \t\r\n", text[end]) != NULL)
		end++;
	if (end < len || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s output is not one "
		    "JSON object (%s at byte %zu)", where, what,
		    end < len ? "more text" : "another value", end);
		return NULL;
	}
	return o;
}

struct json_object *
lab_bench_json_at(struct json_object *o, const char *path)
{
	char	key[128];
	size_t	n;

	while (o != NULL && *path != '\0') {
		n = strcspn(path, ".");
		if (n >= sizeof(key) || !json_object_is_type(o, json_type_object))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n;
		if (*path == '.')
			path++;
	}
	return o;
}

int
lab_bench_json_num(struct json_object *o, const char *path, double *v)
{
	struct json_object	*m = lab_bench_json_at(o, path);

	if (m == NULL || !(json_object_is_type(m, json_type_int) ||
	    json_object_is_type(m, json_type_double)))
		return 0;
	*v = json_object_get_double(m);
	return isfinite(*v) ? 1 : 0;
}
