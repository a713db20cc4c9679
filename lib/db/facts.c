/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "db-priv.h"
#include "report-rows.h"

/*
 * Facts with first- and last-seen times, and the findings of the last
 * run of each subject (migration 016).
 *
 * A put compares the new set with the subject's current rows: a value
 * seen again moves last_seen, a changed value closes its row (current = 0,
 * closed_at = now, last_seen kept) and opens a new one, a key absent from
 * the new set is closed, a new key opens a row. A kv whose value is NULL
 * (not known) counts as absent. The events are read back from the rows:
 * a row opened when a row of the same key closed is a change, a row
 * opened alone is new, a row closed alone is gone.
 */

static int
kind_ok(const char *kind, const char *subject, struct lab_err *err)
{
	if (kind == NULL || (strcmp(kind, "host") != 0 &&
	    strcmp(kind, "switch") != 0))
		return lab_err_set(err, LAB_EXIT_INPUT, "facts: kind '%s' is "
		    "neither host nor switch", kind != NULL ? kind : "");
	if (subject == NULL || *subject == '\0')
		return lab_err_set(err, LAB_EXIT_INPUT, "facts of a %s "
		    "without a name", kind);
	return 0;
}

static int
kv_cmp(const void *a, const void *b)
{
	const struct lab_fact_kv *const *x = a, *const *y = b;

	return strcmp((*x)->key, (*y)->key);
}

/* The kv with a value, sorted by key; a key twice is bad input. */
static int
sorted_kv(const struct lab_fact_kv *kv, size_t n, const char *subject,
    const struct lab_fact_kv ***ret, size_t *m, struct lab_err *err)
{
	const struct lab_fact_kv	**v;
	size_t				  i, k = 0;

	*ret = NULL;
	*m = 0;
	if (n == 0)
		return 0;
	if ((v = calloc(n, sizeof(*v))) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < n; i++) {
		if (kv[i].key == NULL || *kv[i].key == '\0') {
			free(v);
			return lab_err_set(err, LAB_EXIT_INPUT, "facts of %s: "
			    "a fact without a key", subject);
		}
		if (kv[i].value != NULL)
			v[k++] = &kv[i];
	}
	qsort(v, k, sizeof(*v), kv_cmp);
	for (i = 1; i < k; i++)
		if (strcmp(v[i - 1]->key, v[i]->key) == 0) {
			lab_err_set(err, LAB_EXIT_INPUT, "facts of %s: key "
			    "'%s' twice", subject, v[i]->key);
			free(v);
			return -1;
		}
	*ret = v;
	*m = k;
	return 0;
}

struct cur {
	int64_t	 id;
	char	*key;
	char	*value;
};

static void
cur_free(struct cur *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(c[i].key);
		free(c[i].value);
	}
	free(c);
}

/* The subject's current rows, sorted by key (strcmp, as BINARY). */
static int
read_current(struct lab_db *db, const char *kind, const char *subject,
    struct cur **ret, size_t *n, struct lab_err *err)
{
	struct db_stmt	*st;
	struct cur	*v = NULL, *c;
	size_t		 m = 0;
	int		 rc;

	if (lab_db_prepare(db, "SELECT id, key, value FROM facts WHERE "
	    "kind = ?1 AND subject = ?2 AND current = 1 ORDER BY key",
	    &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, kind);
	lab_db_bind_text(st, 2, subject);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((c = lab_push(&v, &m, sizeof(*c))) == NULL)
			break;
		c->id = lab_db_column_int64(st, 0);
		c->key = lab_db_text(st, 1);
		c->value = lab_db_text(st, 2);
		if (c->key == NULL)
			break;
	}
	if (rc != DB_DONE) {
		cur_free(v, m);
		return lab_db_step_fail(db, st, rc, err, "read facts");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = m;
	return 0;
}

static int
same(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* Closes the rows that changed or went, then moves last_seen of the rest. */
static int
close_rows(struct lab_db *db, const char *kind, const char *subject,
    const struct cur *c, const char *keep, size_t nc, int64_t now,
    struct lab_err *err)
{
	struct db_stmt	*st;
	size_t		 i;

	if (lab_db_prepare(db, "UPDATE facts SET current = 0, closed_at = ?2 "
	    "WHERE id = ?1", &st, err) == -1)
		return -1;
	for (i = 0; i < nc; i++) {
		if (keep[i])
			continue;
		lab_db_reset(st);
		lab_db_bind_int64(st, 1, c[i].id);
		lab_db_bind_int64(st, 2, now);
		if (lab_db_step(st) != DB_DONE) {
			lab_db_fail(db, err, "close facts");
			lab_db_finalize(st);
			return -1;
		}
	}
	lab_db_finalize(st);
	if (lab_db_prepare(db, "UPDATE facts SET last_seen = ?3 WHERE "
	    "kind = ?1 AND subject = ?2 AND current = 1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, kind);
	lab_db_bind_text(st, 2, subject);
	lab_db_bind_int64(st, 3, now);
	if (lab_db_step(st) != DB_DONE) {
		lab_db_fail(db, err, "store facts");
		lab_db_finalize(st);
		return -1;
	}
	lab_db_finalize(st);
	return 0;
}

static void
str_val(struct db_val *v, const char *s)
{
	v->type = s != NULL ? DB_TEXT : DB_NULL;
	v->s = s;
}

static void
int_val(struct db_val *v, int64_t i)
{
	v->type = DB_INTEGER;
	v->i = i;
}

/* Opens a row for every value of kv not current (after close_rows). */
static int
open_rows(struct lab_db *db, const char *kind, const char *subject,
    const struct lab_fact_kv **kv, size_t n, const struct cur *c,
    size_t nc, int64_t now, struct lab_err *err)
{
	struct db_batch	 b;
	struct db_val	*v;
	size_t		 i, j = 0;
	int		 cmp, rc = -1;

	if (lab_db_batch_init(&b, db, "facts (kind, subject, key, value, "
	    "first_seen, last_seen)", 6, "store facts", err) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		cmp = 1;
		while (j < nc && (cmp = strcmp(c[j].key, kv[i]->key)) < 0)
			j++;
		if (j < nc && cmp == 0 && same(c[j].value, kv[i]->value))
			continue;
		if ((v = lab_db_batch_row(&b, err)) == NULL)
			goto out;
		str_val(&v[0], kind);
		str_val(&v[1], subject);
		str_val(&v[2], kv[i]->key);
		str_val(&v[3], kv[i]->value);
		int_val(&v[4], now);
		int_val(&v[5], now);
	}
	rc = lab_db_batch_flush(&b, err);
out:
	lab_db_batch_release(&b);
	return rc;
}

/* Replaces the subject's findings. */
static int
put_findings(struct lab_db *db, const char *kind, const char *subject,
    const struct lab_fact_findings *fs, int64_t now, struct lab_err *err)
{
	struct db_stmt	*st;
	struct db_batch	 b;
	struct db_val	*v;
	size_t		 i;
	int		 rc = -1;

	if (lab_db_prepare(db, "DELETE FROM fact_findings WHERE kind = ?1 AND "
	    "subject = ?2", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, kind);
	lab_db_bind_text(st, 2, subject);
	if (lab_db_step(st) != DB_DONE) {
		lab_db_fail(db, err, "replace fact findings");
		lab_db_finalize(st);
		return -1;
	}
	lab_db_finalize(st);
	if (lab_db_batch_init(&b, db, "fact_findings (kind, subject, severity, "
	    "finding, item, message, seen_at)", 7, "store fact findings",
	    err) == -1)
		return -1;
	for (i = 0; i < fs->n; i++) {
		const struct lab_fact_finding *f = &fs->v[i];

		if ((v = lab_db_batch_row(&b, err)) == NULL)
			goto out;
		str_val(&v[0], kind);
		str_val(&v[1], subject);
		str_val(&v[2], f->severity != NULL ? f->severity : "info");
		str_val(&v[3], f->kind != NULL ? f->kind : "");
		str_val(&v[4], f->subject != NULL ? f->subject : "");
		str_val(&v[5], f->message != NULL ? f->message : "");
		int_val(&v[6], now);
	}
	rc = lab_db_batch_flush(&b, err);
out:
	lab_db_batch_release(&b);
	return rc;
}

struct facts_put {
	const char			 *kind, *subject;
	const struct lab_fact_kv	**sv;	/* sorted by key */
	size_t				  ns;
	const struct lab_fact_findings	 *findings;
	int64_t				  now;
};

static int
facts_put_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	const struct facts_put		 *a = arg;
	const struct lab_fact_kv	**sv = a->sv;
	struct cur			 *c = NULL;
	char				 *keep = NULL;
	size_t				  ns = a->ns, nc = 0, i, j;
	int				  cmp, rc = -1;

	if (read_current(db, a->kind, a->subject, &c, &nc, err) == -1)
		goto out;
	if (nc > 0 && (keep = calloc(nc, 1)) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	/* both sorted by key: a current row is kept when its value is seen */
	for (i = 0, j = 0; i < nc && j < ns; ) {
		cmp = strcmp(c[i].key, sv[j]->key);
		if (cmp == 0)
			keep[i] = (char)same(c[i].value, sv[j]->value);
		if (cmp <= 0)
			i++;
		if (cmp >= 0)
			j++;
	}
	if (close_rows(db, a->kind, a->subject, c, keep, nc, a->now,
	    err) == -1 ||
	    open_rows(db, a->kind, a->subject, sv, ns, c, nc, a->now,
	    err) == -1 ||
	    (a->findings != NULL && put_findings(db, a->kind, a->subject,
	    a->findings, a->now, err) == -1))
		goto out;
	rc = 0;
out:
	cur_free(c, nc);
	free(keep);
	return rc;
}

int
lab_db_facts_put(struct lab_db *db, const char *kind, const char *subject,
    const struct lab_fact_kv *kv, size_t n,
    const struct lab_fact_findings *findings, int64_t now,
    struct lab_err *err)
{
	struct facts_put	a = { kind, subject, NULL, 0, findings, now };
	int			rc;

	if (kind_ok(kind, subject, err) == -1 ||
	    sorted_kv(kv, n, subject, &a.sv, &a.ns, err) == -1)
		return -1;
	rc = lab_db_tx(db, facts_put_tx, &a, err);
	free(a.sv);
	return rc;
}

int
lab_db_facts_get(struct lab_db *db, const char *kind, const char *subject,
    struct lab_fact_kv **ret, size_t *n, struct lab_err *err)
{
	struct lab_fact_kv	*v = NULL, *kv;
	struct db_stmt		*st;
	size_t			 m = 0;
	int			 rc;

	*ret = NULL;
	*n = 0;
	if (lab_db_prepare(db, "SELECT key, value FROM facts WHERE kind = ?1 "
	    "AND subject = ?2 AND current = 1 ORDER BY key", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, kind);
	lab_db_bind_text(st, 2, subject);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((kv = lab_push(&v, &m, sizeof(*kv))) == NULL)
			break;
		kv->key = lab_db_text(st, 0);
		kv->value = lab_db_text(st, 1);
		if (kv->key == NULL)
			break;
	}
	if (rc != DB_DONE) {
		lab_fact_kvs_free(v, m);
		return lab_db_step_fail(db, st, rc, err, "read facts");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = m;
	return 0;
}

int
lab_db_facts_seen(struct lab_db *db, const char *kind, const char *subject,
    int64_t *last, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	*last = 0;
	if (lab_db_prepare(db, "SELECT MAX(last_seen) FROM facts WHERE "
	    "kind = ?1 AND subject = ?2 AND current = 1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, kind);
	lab_db_bind_text(st, 2, subject);
	if ((rc = lab_db_step(st)) != DB_ROW)
		return lab_db_step_fail(db, st, rc, err, "read facts");
	*last = lab_db_column_int64(st, 0);
	lab_db_finalize(st);
	return 0;
}

/*
 * Opened rows (new, or changed when a row of the key closed as it
 * opened), then closed rows that nothing replaced (gone).
 */
#define EVENTS_SQL \
	"SELECT r.kind, r.subject, r.key, (SELECT p.value FROM facts p " \
	"WHERE p.kind = r.kind AND p.subject = r.subject AND p.key = r.key " \
	"AND p.closed_at = r.first_seen AND p.id < r.id ORDER BY p.id DESC " \
	"LIMIT 1), r.value, r.first_seen AS at, r.id FROM facts r " \
	"WHERE r.first_seen > ?1 " \
	"UNION ALL " \
	"SELECT g.kind, g.subject, g.key, g.value, NULL, g.closed_at, g.id " \
	"FROM facts g WHERE g.closed_at > ?1 AND NOT EXISTS (SELECT 1 " \
	"FROM facts n WHERE n.kind = g.kind AND n.subject = g.subject AND " \
	"n.key = g.key AND n.first_seen = g.closed_at AND n.id > g.id) " \
	"ORDER BY 6, 1, 2, 3, 7"

int
lab_db_fact_events(struct lab_db *db, int64_t since,
    struct lab_fact_event **ret, size_t *n, struct lab_err *err)
{
	struct lab_fact_event	*v = NULL, *e;
	struct db_stmt		*st;
	size_t			 m = 0;
	int			 rc;

	*ret = NULL;
	*n = 0;
	if (lab_db_prepare(db, EVENTS_SQL, &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, since);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((e = lab_push(&v, &m, sizeof(*e))) == NULL)
			break;
		e->kind = lab_db_text(st, 0);
		e->subject = lab_db_text(st, 1);
		e->key = lab_db_text(st, 2);
		e->from = lab_db_text(st, 3);
		e->to = lab_db_text(st, 4);
		e->at = lab_db_column_int64(st, 5);
		if (e->kind == NULL || e->subject == NULL || e->key == NULL)
			break;
	}
	if (rc != DB_DONE) {
		lab_fact_events_free(v, m);
		return lab_db_step_fail(db, st, rc, err, "read fact events");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = m;
	return 0;
}

int
lab_db_fact_findings(struct lab_db *db, const char *subject,
    struct lab_stored_finding **ret, size_t *n, struct lab_err *err)
{
	struct lab_stored_finding	*v = NULL, *s;
	struct db_stmt			*st;
	size_t				 m = 0;
	int				 rc;

	*ret = NULL;
	*n = 0;
	if (lab_db_prepare(db, "SELECT kind, subject, severity, finding, item, "
	    "message, seen_at FROM fact_findings WHERE ?1 IS NULL OR "
	    "subject = ?1 ORDER BY kind, subject, CASE severity WHEN "
	    "'critical' THEN 0 WHEN 'warning' THEN 1 WHEN 'info' THEN 2 "
	    "ELSE 3 END, id", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, subject);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if ((s = lab_push(&v, &m, sizeof(*s))) == NULL)
			break;
		s->kind = lab_db_text(st, 0);
		s->subject_name = lab_db_text(st, 1);
		s->f.severity = lab_db_text(st, 2);
		s->f.kind = lab_db_text(st, 3);
		s->f.subject = lab_db_text(st, 4);
		s->f.message = lab_db_text(st, 5);
		s->seen_at = lab_db_column_int64(st, 6);
		if (s->kind == NULL || s->subject_name == NULL ||
		    s->f.severity == NULL || s->f.kind == NULL ||
		    s->f.subject == NULL || s->f.message == NULL)
			break;
	}
	if (rc != DB_DONE) {
		lab_stored_findings_free(v, m);
		return lab_db_step_fail(db, st, rc, err, "read fact findings");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = m;
	return 0;
}

int
lab_db_report_fact_known(struct lab_db *db, const char *kind,
    const char *subject, int64_t before, int *known, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	*known = 0;
	if (lab_db_prepare(db, "SELECT 1 FROM facts WHERE kind = ?1 AND "
	    "subject = ?2 AND first_seen <= ?3 LIMIT 1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, kind);
	lab_db_bind_text(st, 2, subject);
	lab_db_bind_int64(st, 3, before);
	rc = lab_db_step(st);
	if (rc != DB_ROW && rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read facts");
	*known = rc == DB_ROW;
	lab_db_finalize(st);
	return 0;
}
