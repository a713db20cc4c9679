/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "plan-priv.h"

/* A new empty plan. */
struct lab_plan *
lab_plan_new(const struct lab_host *h, const char *kind, const char *layout)
{
	struct lab_plan	*p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	if ((p->host = strdup(h->name)) == NULL ||
	    (p->kind = strdup(kind)) == NULL ||
	    (p->layout = strdup(layout)) == NULL) {
		lab_plan_free(p);
		return NULL;
	}
	return p;
}

/* Frees a plan; NULL is a no-op. */
void
lab_plan_free(struct lab_plan *p)
{
	size_t	i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nsteps; i++) {
		free(p->steps[i].text);
		free(p->steps[i].content);
		free(p->steps[i].comment);
	}
	free(p->steps);
	for (i = 0; i < p->nmembers; i++) {
		free(p->members[i].slot);
		free(p->members[i].member_of);
	}
	free(p->members);
	for (i = 0; i < p->nvolumes; i++) {
		free(p->volumes[i].name);
		free(p->volumes[i].what);
	}
	free(p->volumes);
	lab_strv_release(&p->warnings);
	free(p->staging);
	free(p->host);
	free(p->kind);
	free(p->layout);
	free(p);
}

/* Adds a step, taking over text and content. */
struct lab_step *
lab_plan_step(struct lab_plan *p, enum lab_step_kind kind, char *text,
    char *content, const char *comment, struct lab_err *err)
{
	struct lab_step	*s;

	if (text == NULL || (kind == LAB_STEP_WRITE && content == NULL))
		goto oom;
	s = realloc(p->steps, (p->nsteps + 1) * sizeof(*s));
	if (s == NULL)
		goto oom;
	p->steps = s;
	s = &p->steps[p->nsteps];
	memset(s, 0, sizeof(*s));
	if (comment != NULL && (s->comment = strdup(comment)) == NULL)
		goto oom;
	s->kind = kind;
	s->text = text;
	s->content = content;
	s->mode = kind == LAB_STEP_WRITE ? 0644 : 0;
	p->nsteps++;
	return s;
oom:
	free(text);
	free(content);
	lab_err_oom(err);
	return NULL;
}

/* Adds a CHECK or RUN step rendered from a built-in template. */
struct lab_step *
lab_plan_script(struct lab_plan *p, enum lab_step_kind kind, const char *tmpl,
    const struct lab_tvars *vars, const char *comment, struct lab_err *err)
{
	char	*text;

	if (lab_template_render_builtin(tmpl, vars, &text, err) == -1)
		return NULL;
	return lab_plan_step(p, kind, text, NULL, comment, err);
}

/* Adds a WRITE step rendered from a built-in template. */
struct lab_step *
lab_plan_file(struct lab_plan *p, const char *path, int mode, const char *tmpl,
    const struct lab_tvars *vars, const char *comment, struct lab_err *err)
{
	struct lab_step	*s;
	char		*content;

	if (lab_template_render_builtin(tmpl, vars, &content, err) == -1)
		return NULL;
	if ((s = lab_plan_step(p, LAB_STEP_WRITE, strdup(path), content, comment,
	    err)) != NULL)
		s->mode = mode;
	return s;
}

/* Adds a warning. */
int
lab_plan_warn(struct lab_plan *p, struct lab_err *err, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0 || lab_strv_take(&p->warnings, s) == -1)
		return lab_err_oom(err);
	return 0;
}

/* Records where a disk goes. */
int
lab_plan_add_member(struct lab_plan *p, const char *slot, const char *member_of,
    struct lab_err *err)
{
	struct lab_plan_member	*m;

	m = realloc(p->members, (p->nmembers + 1) * sizeof(*m));
	if (m == NULL)
		return lab_err_oom(err);
	p->members = m;
	m = &p->members[p->nmembers];
	if ((m->slot = strdup(slot)) == NULL ||
	    (m->member_of = strdup(member_of)) == NULL) {
		free(m->slot);
		return lab_err_oom(err);
	}
	p->nmembers++;
	return 0;
}

/* Records a volume. */
int
lab_plan_add_volume(struct lab_plan *p, const char *name, const char *what,
    uint64_t bytes, struct lab_err *err)
{
	struct lab_plan_volume	*v;

	v = realloc(p->volumes, (p->nvolumes + 1) * sizeof(*v));
	if (v == NULL)
		return lab_err_oom(err);
	p->volumes = v;
	v = &p->volumes[p->nvolumes];
	if ((v->name = strdup(name)) == NULL ||
	    (v->what = strdup(what)) == NULL) {
		free(v->name);
		return lab_err_oom(err);
	}
	v->bytes = bytes;
	p->nvolumes++;
	p->usable_bytes += bytes;
	return 0;
}

/* "1.5 TB" */
void
lab_size_human(uint64_t v, char buf[32])
{
	lab_format_size_human(v, buf, 32);
}

static const char *
kind_word(enum lab_step_kind k)
{
	switch (k) {
	case LAB_STEP_CHECK:
		return "check";
	case LAB_STEP_RUN:
		return "run";
	default:
		return "write";
	}
}

/* The plan as JSON. */
void
lab_plan_json(struct lab_json *j, const struct lab_plan *p)
{
	const struct lab_step	*s;
	char			 mode[8];
	size_t			 i;

	lab_json_obj_begin(j);
	lab_json_kstr(j, "host", p->host);
	lab_json_kstr(j, "kind", p->kind);
	lab_json_kstr(j, "layout", p->layout);
	lab_json_key(j, "steps");
	lab_json_arr_begin(j);
	for (i = 0; i < p->nsteps; i++) {
		s = &p->steps[i];
		lab_json_obj_begin(j);
		lab_json_kstr(j, kind_word(s->kind), s->text);
		if (s->kind == LAB_STEP_WRITE) {
			snprintf(mode, sizeof(mode), "%04o", s->mode);
			lab_json_kstr(j, "mode", mode);
			lab_json_kstr(j, "content", s->content);
		}
		lab_json_kstr(j, "comment", s->comment);
		if (s->kind != LAB_STEP_WRITE) {
			lab_json_key(j, "reconnect");
			lab_json_bool(j, s->reconnect);
			lab_json_kint(j, "timeout_s", s->timeout_s);
		}
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_kint(j, "usable_bytes", (int64_t)p->usable_bytes);
	lab_json_key(j, "volumes");
	lab_json_arr_begin(j);
	for (i = 0; i < p->nvolumes; i++) {
		lab_json_obj_begin(j);
		lab_json_kstr(j, "name", p->volumes[i].name);
		lab_json_kstr(j, "what", p->volumes[i].what);
		lab_json_kint(j, "bytes", (int64_t)p->volumes[i].bytes);
		lab_json_obj_end(j);
	}
	lab_json_arr_end(j);
	lab_json_key(j, "warnings");
	lab_json_arr_begin(j);
	for (i = 0; i < p->warnings.n; i++)
		lab_json_str(j, p->warnings.v[i]);
	lab_json_arr_end(j);
	lab_json_key(j, "placeholders");
	lab_json_bool(j, p->placeholders);
	lab_json_kint(j, "rollback_s", p->rollback_s);
	lab_json_kstr(j, "staging", p->staging);
	lab_json_obj_end(j);
}

/* Writes text indented by four spaces (empty lines stay empty). */
static void
indented(struct lab_buf *b, const char *s)
{
	const char	*nl;
	size_t		 len;

	while (*s != '\0') {
		nl = strchr(s, '\n');
		len = nl != NULL ? (size_t)(nl - s) : strlen(s);
		if (len > 0)
			lab_buf_adds(b, "    ");
		lab_buf_add(b, s, len);
		lab_buf_addc(b, '\n');
		s += len + (nl != NULL);
	}
}

/* The plan as people read it. */
int
lab_plan_text(const struct lab_plan *p, struct lab_buf *b,
    struct lab_err *err)
{
	const struct lab_step	*s;
	size_t			 i, nc = 0, nr = 0, nw = 0;
	char			 hs[32];

	lab_buf_addf(b, "Plan for host '%s': %s, layout %s\n", p->host,
	    p->kind, p->layout);
	if (p->nvolumes > 0) {
		lab_buf_adds(b, "\n");
		for (i = 0; i < p->nvolumes; i++) {
			lab_size_human(p->volumes[i].bytes, hs);
			lab_buf_addf(b, "  %s: %s, %s\n", p->volumes[i].name,
			    p->volumes[i].what, hs);
		}
		lab_size_human(p->usable_bytes, hs);
		lab_buf_addf(b, "Usable capacity: %s (%llu bytes)\n", hs,
		    (unsigned long long)p->usable_bytes);
	}
	if (p->rollback_s > 0)
		lab_buf_addf(b, "\nRollback: unless lab confirms the change "
		    "over a new SSH connection within %d s, the host puts "
		    "its previous network config back.\n", p->rollback_s);
	if (p->warnings.n > 0) {
		lab_buf_adds(b, "\nWarnings:\n");
		for (i = 0; i < p->warnings.n; i++)
			lab_buf_addf(b, "  - %s\n", p->warnings.v[i]);
	}
	if (p->placeholders)
		lab_buf_adds(b, "\nPlaceholders: some disks have no 'device' "
		    "in the inventory and are shown as <device of slot N>; "
		    "this plan cannot be applied until the inventory names "
		    "them.\n");
	for (i = 0; i < p->nsteps; i++) {
		s = &p->steps[i];
		lab_buf_addf(b, "\nStep %zu of %zu: ", i + 1, p->nsteps);
		switch (s->kind) {
		case LAB_STEP_CHECK:
			nc++;
			lab_buf_adds(b, "check");
			break;
		case LAB_STEP_RUN:
			nr++;
			lab_buf_adds(b, s->reconnect ? "run on a new SSH "
			    "connection" : "run");
			break;
		case LAB_STEP_WRITE:
			nw++;
			lab_buf_addf(b, "write %s (mode %04o)", s->text,
			    s->mode);
			break;
		}
		if (s->comment != NULL)
			lab_buf_addf(b, ": %s", s->comment);
		if (s->timeout_s > 0)
			lab_buf_addf(b, " (timeout %d s)", s->timeout_s);
		lab_buf_adds(b, "\n");
		indented(b, s->kind == LAB_STEP_WRITE ? s->content : s->text);
	}
	lab_buf_addf(b, "\n%zu steps: %zu %s, %zu %s, %zu %s.\n", p->nsteps,
	    nc, nc == 1 ? "check" : "checks",
	    nr, nr == 1 ? "command" : "commands", nw,
	    nw == 1 ? "file" : "files");
	if (b->oom)
		return lab_err_oom(err);
	return 0;
}
