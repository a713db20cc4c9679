/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The known issues lab import read (migration 017), and the effective
 * list of lab facts: the shipped one, then these. An issue's name is its
 * match as text ("bmc below 1.30 model=hp-microserver-* bmc=rac"); the
 * second issue of the same match in an import is "NAME (2)".
 */
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/str.h"
#include "db-priv.h"
#include "known-issues.h"

#define COLS	"name, model, bmc, component, product, below, equal, " \
		"matching, severity, message, source, file, line, col"

static char *
issue_name(const struct lab_known_issue *ki)
{
	struct lab_buf	b;

	lab_buf_init(&b);
	lab_buf_addf(&b, "%s", ki->component != NULL ? ki->component : "any");
	if (ki->below != NULL)
		lab_buf_addf(&b, " below %s", ki->below);
	else if (ki->equal != NULL)
		lab_buf_addf(&b, " equal %s", ki->equal);
	else if (ki->matching != NULL)
		lab_buf_addf(&b, " matching %s", ki->matching);
	if (ki->model != NULL)
		lab_buf_addf(&b, " model=%s", ki->model);
	if (ki->bmc != NULL)
		lab_buf_addf(&b, " bmc=%s", ki->bmc);
	if (ki->product != NULL)
		lab_buf_addf(&b, " product=%s", ki->product);
	return lab_buf_steal(&b);
}

/* The names of k's issues, the same match numbered from its second. */
static int
issue_names(const struct lab_known_issues *k, struct lab_strv *names)
{
	struct lab_strv	 bases;
	char		*s, *t;
	size_t		 i, j, nth;
	int		 rc = -1;

	lab_strv_init(&bases);
	for (i = 0; i < k->n; i++) {
		if ((s = issue_name(&k->v[i])) == NULL ||
		    lab_strv_add(&bases, s) == -1) {
			free(s);
			goto out;
		}
		for (nth = 1, j = 0; j < i; j++)
			nth += strcmp(bases.v[j], s) == 0;
		if (nth > 1) {
			t = lab_asprintf("%s (%zu)", s, nth);
			free(s);
			if ((s = t) == NULL)
				goto out;
		}
		if (lab_strv_take(names, s) == -1)
			goto out;
	}
	rc = 0;
out:
	lab_strv_release(&bases);
	return rc;
}

/* Reads the stored issues into out, their names into names if not NULL. */
static int
read_all(struct lab_db *db, struct lab_known_issues *out,
    struct lab_strv *names, struct lab_err *err)
{
	struct lab_known_issue	 ki;
	struct db_stmt		*st;
	char			*f[12];
	size_t			 i;
	int			 rc, bad = 0;

	if (lab_db_prepare(db, "SELECT " COLS " FROM known_issues ORDER BY id",
	    &st, err) == -1)
		return -1;
	while ((rc = lab_db_step(st)) == DB_ROW) {
		for (i = 0; i < 12; i++)
			f[i] = lab_db_text(st, (int)i);
		memset(&ki, 0, sizeof(ki));
		ki.model = f[1];
		ki.bmc = f[2];
		ki.component = f[3];
		ki.product = f[4];
		ki.below = f[5];
		ki.equal = f[6];
		ki.matching = f[7];
		ki.severity = f[8];
		ki.message = f[9];
		ki.source = f[10];
		ki.loc.file = f[11];
		ki.loc.line = lab_db_column_int(st, 12);
		ki.loc.col = lab_db_column_int(st, 13);
		if (f[0] == NULL || lab_known_issues_append(out, &ki,
		    err) == -1 || (names != NULL &&
		    lab_strv_add(names, f[0]) == -1))
			bad = 1;
		for (i = 0; i < 12; i++)
			free(f[i]);
		if (bad) {
			lab_db_finalize(st);
			return lab_err_oom(err);
		}
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read known issues");
	lab_db_finalize(st);
	return 0;
}

int
lab_db_known_issues_load(struct lab_db *db, struct lab_known_issues *out,
    struct lab_err *err)
{
	return read_all(db, out, NULL, err);
}

int
lab_db_known_issues_into(struct lab_db *db, struct lab_inventory *inv,
    struct lab_err *err)
{
	struct lab_known_issues	*k;

	if ((k = malloc(sizeof(*k))) == NULL)
		return lab_err_oom(err);
	lab_known_issues_init(k);
	if (read_all(db, k, NULL, err) == -1 || k->n == 0) {
		lab_known_issues_release(k);
		free(k);
		return err->code != 0 ? -1 : 0;
	}
	if (inv->known != NULL) {
		lab_known_issues_release(inv->known);
		free(inv->known);
	}
	inv->known = k;
	return 0;
}

static int
find(const struct lab_strv *names, const char *s)
{
	size_t	i;

	for (i = 0; i < names->n; i++)
		if (strcmp(names->v[i], s) == 0)
			return (int)i;
	return -1;
}

/*
 * Shipped, then imported; an imported issue of the same match as a
 * shipped one (the same name) replaces it: lab import inventory/ stores
 * the shipped file too, and a user may change its severity or message.
 */
int
lab_known_issues_effective(struct lab_db *db, struct lab_known_issues *out,
    struct lab_err *err)
{
	struct lab_known_issues	 ship, mine;
	struct lab_strv		 sn, mn;
	size_t			 i;
	int			 rc = -1;

	lab_known_issues_init(&ship);
	lab_known_issues_init(&mine);
	lab_strv_init(&sn);
	lab_strv_init(&mn);
	if (lab_known_issues_shipped(&ship, err) == -1) {
		/* the shipped list is checked by the tests: never bad input */
		err->code = LAB_EXIT_ENV;
		goto out;
	}
	if (db != NULL && read_all(db, &mine, &mn, err) == -1)
		goto out;
	if (issue_names(&ship, &sn) == -1) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < ship.n; i++)
		if (find(&mn, sn.v[i]) < 0 &&
		    lab_known_issues_append(out, &ship.v[i], err) == -1)
			goto out;
	for (i = 0; i < mine.n; i++)
		if (lab_known_issues_append(out, &mine.v[i], err) == -1)
			goto out;
	rc = 0;
out:
	lab_known_issues_release(&ship);
	lab_known_issues_release(&mine);
	lab_strv_release(&sn);
	lab_strv_release(&mn);
	return rc;
}

static int
change(struct lab_changes *ch, enum lab_change_op op, const char *name,
    char *detail)
{
	struct lab_change	*c;

	if ((c = lab_push(&ch->v, &ch->n, sizeof(*c))) == NULL) {
		free(detail);
		return -1;
	}
	c->op = op;
	c->what = "known-issue";
	c->detail = detail;
	if ((c->name = strdup(name)) == NULL) {
		ch->n--;
		free(detail);
		return -1;
	}
	return 0;
}

static int
streq(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* What changed between the stored issue o and the new n, or NULL. */
static char *
diff(const struct lab_known_issue *o, const struct lab_known_issue *n)
{
	struct lab_buf	b;

	lab_buf_init(&b);
	if (!streq(o->severity, n->severity))
		lab_buf_addf(&b, "severity %s -> %s", o->severity,
		    n->severity);
	if (!streq(o->message, n->message))
		lab_buf_addf(&b, "%smessage", b.len > 0 ? ", " : "");
	if (!streq(o->source, n->source))
		lab_buf_addf(&b, "%ssource", b.len > 0 ? ", " : "");
	if (b.len == 0) {
		lab_buf_release(&b);
		return NULL;
	}
	return lab_buf_steal(&b);
}

static int
write_one(struct lab_db *db, const char *name,
    const struct lab_known_issue *ki, int update, int64_t now,
    struct lab_err *err)
{
	struct db_stmt	*st;
	const char	*sql;
	int		 rc;

	sql = update ? "UPDATE known_issues SET model = ?2, bmc = ?3, "
	    "component = ?4, product = ?5, below = ?6, equal = ?7, "
	    "matching = ?8, severity = ?9, message = ?10, source = ?11, "
	    "file = ?12, line = ?13, col = ?14, updated_at = ?15 "
	    "WHERE name = ?1" :
	    "INSERT INTO known_issues (" COLS ", created_at, updated_at) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
	    "?14, ?15, ?15)";
	if (lab_db_prepare(db, sql, &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, name);
	lab_db_bind_text(st, 2, ki->model);
	lab_db_bind_text(st, 3, ki->bmc);
	lab_db_bind_text(st, 4, ki->component);
	lab_db_bind_text(st, 5, ki->product);
	lab_db_bind_text(st, 6, ki->below);
	lab_db_bind_text(st, 7, ki->equal);
	lab_db_bind_text(st, 8, ki->matching);
	lab_db_bind_text(st, 9, ki->severity);
	lab_db_bind_text(st, 10, ki->message);
	lab_db_bind_text(st, 11, ki->source);
	lab_db_bind_text(st, 12, ki->loc.file);
	lab_db_bind_int(st, 13, ki->loc.line);
	lab_db_bind_int(st, 14, ki->loc.col);
	lab_db_bind_int64(st, 15, now);
	if ((rc = lab_db_step(st)) != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "write known issue");
	lab_db_finalize(st);
	return 0;
}

static int
delete_one(struct lab_db *db, const char *name, struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	if (lab_db_prepare(db, "DELETE FROM known_issues WHERE name = ?1",
	    &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, name);
	if ((rc = lab_db_step(st)) != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "remove known issue");
	lab_db_finalize(st);
	return 0;
}

int
lab_db_known_issues_apply(struct lab_db *db, const struct lab_inventory *inv,
    int flags, int write, int64_t now, struct lab_changes *ch,
    struct lab_err *err)
{
	static const struct lab_known_issues none;
	const struct lab_known_issues	*k = inv->known != NULL ? inv->known :
					    &none;
	struct lab_known_issues		 cur;
	struct lab_strv			 cnames, nnames;
	size_t				 i;
	char				*d;
	int				 at, rc = -1;

	lab_known_issues_init(&cur);
	lab_strv_init(&cnames);
	lab_strv_init(&nnames);
	if (read_all(db, &cur, &cnames, err) == -1)
		goto out;
	if (issue_names(k, &nnames) == -1) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < k->n; i++) {
		at = find(&cnames, nnames.v[i]);
		d = at >= 0 ? diff(&cur.v[at], &k->v[i]) : NULL;
		if ((at < 0 || d != NULL) && change(ch, at < 0 ?
		    LAB_CHANGE_ADD : LAB_CHANGE_MODIFY, nnames.v[i], d) == -1) {
			lab_err_oom(err);
			goto out;
		}
		if (write && write_one(db, nnames.v[i], &k->v[i], at >= 0, now,
		    err) == -1)
			goto out;
	}
	for (i = 0; i < cnames.n; i++) {
		if (find(&nnames, cnames.v[i]) >= 0)
			continue;
		if (change(ch, (flags & LAB_APPLY_PRUNE) ? LAB_CHANGE_REMOVE :
		    LAB_CHANGE_KEEP, cnames.v[i], NULL) == -1) {
			lab_err_oom(err);
			goto out;
		}
		if (write && (flags & LAB_APPLY_PRUNE) &&
		    delete_one(db, cnames.v[i], err) == -1)
			goto out;
	}
	rc = 0;
out:
	lab_known_issues_release(&cur);
	lab_strv_release(&cnames);
	lab_strv_release(&nnames);
	return rc;
}
