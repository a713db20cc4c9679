/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts-priv.h"

/*
 * The output of templates/facts.sh: "== NAME ==" lines, each followed by
 * what one tool printed. The sections are read in a fixed order (lsblk
 * before the by-id links and smartctl), whatever order they came in. A
 * section lab cannot read is a note, not a failure: only an output with
 * no "== kernel ==" section at all is not the script's.
 */

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

/* The Debian package of each tool the script may miss. */
static int
note_missing(struct lab_host_facts *f, const char *tool)
{
	static const struct {
		const char	*tool, *package, *lost;
	} pkgs[] = {
		{ "lsblk", "util-linux", "no block device list" },
		{ "smartctl", "smartmontools", "no disk firmware" },
		{ "ip", "iproute2", "no addresses" },
	};
	size_t	i;

	if (strcmp(tool, "nmcli") == 0)
		return lab_facts_note(f, "nmcli not found on the target "
		    "(package network-manager): NetworkManager taken as not "
		    "installed");
	for (i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++)
		if (strcmp(tool, pkgs[i].tool) == 0)
			return lab_facts_note(f, "%s not found on the target "
			    "(%s): apt-get install %s", tool, pkgs[i].lost,
			    pkgs[i].package);
	return lab_facts_note(f, "%.64s not found on the target", tool);
}

struct section {
	char	*name;
	char	*body;
};

static void
sections_free(struct section *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].body);
	}
	free(v);
}

/* Splits out into its sections. */
static int
split(const char *out, struct section **ret, size_t *n)
{
	struct section	*cur = NULL;
	const char	*p = out, *nl, *body = NULL;
	size_t		 len;

	*ret = NULL;
	*n = 0;
	for (; p != NULL && *p != '\0'; p = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (len < 7 || strncmp(p, "== ", 3) != 0 ||
		    strncmp(p + len - 3, " ==", 3) != 0)
			continue;
		if (cur != NULL && (cur->body = strndup(body,
		    (size_t)(p - body))) == NULL)
			return -1;
		if ((cur = lab_push(ret, n, sizeof(*cur))) == NULL)
			return -1;
		memset(cur, 0, sizeof(*cur));
		if ((cur->name = strndup(p + 3, len - 6)) == NULL)
			return -1;
		body = nl != NULL ? nl + 1 : p + len;
	}
	if (cur != NULL && (cur->body = strdup(body)) == NULL)
		return -1;
	return 0;
}

/* A section's parse error: a note, so that the rest still counts. */
static int
soft(struct lab_host_facts *f, int rc, struct lab_err *e, struct lab_err *err)
{
	const char	*msg = e->msg;
	size_t		 hl = f->host != NULL ? strlen(f->host) : 0;

	if (rc == 0)
		return 0;
	if (e->code == LAB_EXIT_ENV)
		return lab_err_set(err, e->code, "%s", e->msg);
	/* the host is the note's already */
	if (hl > 0 && strncmp(msg, f->host, hl) == 0 && msg[hl] == ':')
		msg += hl + 2;
	if (lab_facts_note(f, "%s", msg) == -1)
		return lab_err_oom(err);
	lab_err_init(e);
	return 0;
}

static const struct section *
find(const struct section *v, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

static int
read_sections(struct lab_host_facts *f, const struct section *v, size_t n,
    struct lab_err *err)
{
	const struct section	*s;
	struct lab_err		 e;
	size_t			 i;
	int			 lsblk = 0;
	char			*line;

	lab_err_init(&e);
	if ((s = find(v, n, "kernel")) != NULL) {
		line = lab_facts_tidy(s->body);
		free(f->kernel);
		f->kernel = line;
	}
	if ((s = find(v, n, "lsblk")) != NULL) {
		lsblk = lab_facts_parse_lsblk(f, s->body, &e) == 0;
		if (soft(f, lsblk ? 0 : -1, &e, err) == -1)
			return -1;
	}
	if ((s = find(v, n, "byid")) != NULL &&
	    soft(f, lab_facts_parse_byid(f, s->body, &e), &e, err) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		const char	*name = v[i].name;

		if (strncmp(name, "smartctl ", 9) == 0) {
			/* only the disks lsblk listed, when it did */
			if (lsblk && lab_facts_disk(f, name + 9) == NULL)
				continue;
			if (soft(f, lab_facts_parse_smartctl(f, name + 9,
			    v[i].body, &e), &e, err) == -1)
				return -1;
		} else if (strncmp(name, "nic ", 4) == 0) {
			if (soft(f, lab_facts_parse_nic(f, name + 4,
			    v[i].body, &e), &e, err) == -1)
				return -1;
		}
	}
	if ((s = find(v, n, "ip")) != NULL &&
	    soft(f, lab_facts_parse_ip_addr(f, s->body, &e), &e, err) == -1)
		return -1;
	if ((s = find(v, n, "dmi")) != NULL &&
	    soft(f, lab_facts_parse_dmi(f, s->body, &e), &e, err) == -1)
		return -1;
	if ((s = find(v, n, "nm")) != NULL &&
	    soft(f, lab_facts_parse_nm(f, s->body, &e), &e, err) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		char	*tool;

		if (strcmp(v[i].name, "missing") != 0)
			continue;
		if ((tool = lab_facts_tidy(v[i].body)) == NULL)
			continue;
		if (note_missing(f, tool) == -1) {
			free(tool);
			return lab_err_oom(err);
		}
		free(tool);
	}
	return 0;
}

int
lab_facts_parse_script(struct lab_host_facts *f, const char *out,
    struct lab_err *err)
{
	struct section	*v;
	size_t		 n;
	int		 rc;

	if (split(out, &v, &n) == -1) {
		sections_free(v, n);
		return lab_err_oom(err);
	}
	if (find(v, n, "kernel") == NULL) {
		sections_free(v, n);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: the facts script "
		    "printed no '== kernel ==' section: not its output",
		    f->host != NULL ? f->host : "-");
	}
	rc = read_sections(f, v, n, err);
	sections_free(v, n);
	return rc;
}

/* Is name a device lab leaves out unless the host declares it? */
static int
pseudo(const char *name)
{
	static const char *const pre[] = { "loop", "ram", "zram", "nbd" };
	size_t	i;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (strncmp(name, pre[i], strlen(pre[i])) == 0)
			return 1;
	return 0;
}

static int
declared(const struct lab_fact_disk *d, const struct lab_host *h)
{
	size_t	i;

	for (i = 0; h != NULL && i < h->ndisks; i++) {
		const char	*dev = h->disks[i].device;

		if (dev == NULL)
			continue;
		if ((strncmp(dev, "/dev/", 5) == 0 &&
		    strcmp(dev + 5, d->name) == 0) ||
		    (d->path != NULL && strcmp(dev, d->path) == 0))
			return 1;
	}
	return 0;
}

void
lab_facts_keep_disks(struct lab_host_facts *f, const struct lab_host *h)
{
	size_t	i, k = 0;

	for (i = 0; i < f->ndisks; i++) {
		struct lab_fact_disk	*d = &f->disks[i];

		if (pseudo(d->name) && !declared(d, h)) {
			free(d->name);
			free(d->path);
			free(d->serial);
			free(d->model);
			free(d->firmware);
			free(d->transport);
			continue;
		}
		f->disks[k++] = *d;
	}
	f->ndisks = k;
}
