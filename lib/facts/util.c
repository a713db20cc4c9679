/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts-priv.h"

/* What the parsers of lib/facts/ share (facts-priv.h). */

struct json_object *
lab_facts_json_parse(const struct lab_host_facts *f, const char *text,
    const char *what, struct lab_err *err)
{
	struct json_object	*o;
	enum json_tokener_error	 e = json_tokener_success;
	const char		*host = f->host != NULL ? f->host : "-";
	size_t			 len = text != NULL ? strlen(text) : 0;

	while (len > 0 && isspace((unsigned char)text[len - 1]))
		len--;
	if (len == 0) {
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s printed nothing",
		    host, what);
		return NULL;
	}
	if (len > LAB_FACTS_JSON_MAX) {
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s printed %zu bytes, "
		    "more than the %zu KiB lab reads", host, what, len,
		    LAB_FACTS_JSON_MAX >> 10);
		return NULL;
	}
	o = json_tokener_parse_verbose(text, &e);
	if (o == NULL || e != json_tokener_success) {
		json_object_put(o);
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: %s printed what is not "
		    "JSON: %s", host, what, json_tokener_error_desc(e));
		return NULL;
	}
	return o;
}

const char *
lab_facts_jstr(struct json_object *o, const char *key)
{
	struct json_object	*v;
	const char		*s;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	s = json_object_get_string(v);
	return s != NULL && *s != '\0' ? s : NULL;
}

int64_t
lab_facts_jint(struct json_object *o, const char *key)
{
	struct json_object	*v;
	const char		*s;
	char			*end;
	long long		 n;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return -1;
	if (json_object_is_type(v, json_type_int))
		return json_object_get_int64(v);
	if (!json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	errno = 0;
	n = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || n < 0)
		return -1;
	return n;
}

int
lab_facts_jbool(struct json_object *o, const char *key)
{
	struct json_object	*v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return -1;
	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v) ? 1 : 0;
	switch (lab_facts_jint(o, key)) {
	case 0:
		return 0;
	case 1:
		return 1;
	default:
		return -1;
	}
}

char *
lab_facts_tidy(const char *s)
{
	size_t	len;
	char	*r, *p;

	if (s == NULL)
		return NULL;
	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return NULL;
	if ((r = strndup(s, len)) == NULL)
		return NULL;
	for (p = r; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return r;
}

int
lab_facts_fill(char **dst, const char *s)
{
	if (*dst != NULL || s == NULL)
		return 0;
	*dst = lab_facts_tidy(s);
	/* a blank s gives NULL too: only a real s failing is no memory */
	if (*dst == NULL) {
		while (isspace((unsigned char)*s))
			s++;
		return *s == '\0' ? 0 : -1;
	}
	return 0;
}

int
lab_facts_note(struct lab_host_facts *f, const char *fmt, ...)
{
	va_list	 ap;
	char	*s = NULL;
	int	 r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	return lab_strv_take(&f->notes, s);	/* frees s on failure */
}

struct lab_fact_disk *
lab_facts_disk(struct lab_host_facts *f, const char *name)
{
	size_t	i;

	for (i = 0; i < f->ndisks; i++)
		if (strcmp(f->disks[i].name, name) == 0)
			return &f->disks[i];
	return NULL;
}

struct lab_fact_disk *
lab_facts_disk_add(struct lab_host_facts *f, const char *name)
{
	struct lab_fact_disk	*d;
	char			*s;

	if ((s = strdup(name)) == NULL)
		return NULL;
	if ((d = lab_push(&f->disks, &f->ndisks, sizeof(*d))) == NULL) {
		free(s);
		return NULL;
	}
	memset(d, 0, sizeof(*d));
	d->name = s;
	d->size_bytes = -1;
	d->rotational = -1;
	return d;
}
