/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab/owner.h"
#include "lab/str.h"
#include "db-priv.h"
#include "runs.h"

/*
 * One provisioning run at a time on a host: the run in progress names
 * its owner (lab/owner.h), and a 'running' run whose owner is gone is
 * marked 'abandoned' by whoever reads it next.
 */

static void
copy_col(struct db_stmt *st, int col, char *buf, size_t len)
{
	const unsigned char	*s = lab_db_column_text(st, col);

	snprintf(buf, len, "%s", s != NULL ? (const char *)s : "");
}

/* Marks run id abandoned: cut off at the last step it started. */
static int
abandon(struct lab_db *db, int64_t id, const struct lab_owner *o,
    struct lab_err *err)
{
	struct db_stmt	*st;
	char		*msg;
	int		 rc;

	if (o->pid > 0)
		msg = lab_asprintf("abandoned: its lab process (pid %lld on "
		    "%s) ended without finishing the run", o->pid,
		    o->machine[0] ? o->machine : "?");
	else
		msg = lab_asprintf("abandoned: recorded as running by a lab "
		    "that did not name its process");
	if (msg == NULL)
		return lab_err_oom(err);
	if (lab_db_prepare(db, "UPDATE provision_runs SET status = "
	    "'abandoned', message = ?2, failed_step = (SELECT "
	    "max(position) FROM provision_steps WHERE run_id = ?1 AND "
	    "started_at IS NOT NULL) WHERE id = ?1 AND status = 'running'",
	    &st, err) == -1) {
		free(msg);
		return -1;
	}
	lab_db_bind_int64(st, 1, id);
	lab_db_bind_text(st, 2, msg);
	free(msg);
	rc = lab_db_step(st);
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "mark a provisioning run abandoned");
	return 0;
}

/* The running runs of host (NULL: all) whose owner is gone. */
static int
reap(struct lab_db *db, const char *host, struct lab_err *err)
{
	struct lab_owner	 self, o;
	struct db_stmt		*st;
	int64_t			 ids[64];
	struct lab_owner	 owners[64];
	size_t			 n = 0, i;
	int			 rc;

	lab_owner_self(&self);
	if (lab_db_prepare(db, "SELECT id, owner_pid, owner_start, owner_boot, "
	    "owner_machine FROM provision_runs WHERE status = 'running' AND "
	    "(?1 IS NULL OR host = ?1) LIMIT 64", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		memset(&o, 0, sizeof(o));
		o.pid = lab_db_column_int64(st, 1);
		o.start = lab_db_column_int64(st, 2);
		copy_col(st, 3, o.boot, sizeof(o.boot));
		copy_col(st, 4, o.machine, sizeof(o.machine));
		/* no owner: recorded before version 7, by a lab that is gone
		   since it could not open this database any more */
		if (lab_db_column_type(st, 1) == DB_NULL ||
		    lab_owner_gone(&self, &o)) {
			ids[n] = lab_db_column_int64(st, 0);
			owners[n++] = o;
		}
	}
	lab_db_finalize(st);
	if (rc != DB_DONE)
		return lab_db_fail(db, err, "read the provisioning runs in "
		    "progress");
	for (i = 0; i < n; i++)
		if (abandon(db, ids[i], &owners[i], err) == -1)
			return -1;
	return 0;
}

/* Is a run of host (NULL: any) running? Read without a write lock. */
static int
any_running(struct lab_db *db, const char *host)
{
	struct db_stmt	*st;
	struct lab_err	 e;
	int		 rc;

	lab_err_init(&e);
	if (lab_db_prepare(db, "SELECT 1 FROM provision_runs WHERE status = "
	    "'running' AND (?1 IS NULL OR host = ?1) LIMIT 1", &st, &e) == -1)
		return 0;
	lab_db_bind_text(st, 1, host);
	rc = lab_db_step(st);
	lab_db_finalize(st);
	return rc == DB_ROW;
}

static int
reap_tx(struct lab_db *db, void *host, struct lab_err *err)
{
	return reap(db, *(const char **)host, err);
}

int
lab_db_runs_reap(struct lab_db *db, const char *host, struct lab_err *err)
{
	struct lab_err	e;

	lab_err_init(&e);
	if (db->in_tx)
		return reap(db, host, err);
	/* the write lock only when there is something to look at */
	if (!any_running(db, host))
		return 0;
	/* a failure (read-only, say): the runs read as stored */
	(void)lab_db_tx(db, reap_tx, &host, &e);
	return 0;
}

int
lab_db_run_lock(struct lab_db *db, const char *host, struct lab_err *err)
{
	struct db_stmt	*st;
	char		 when[32], who[300];
	struct tm	 tm;
	time_t		 t;
	int64_t		 id;
	int		 rc;

	if (reap(db, host, err) == -1)
		return -1;
	if (lab_db_prepare(db, "SELECT id, started_at, owner_pid, "
	    "owner_machine FROM provision_runs WHERE host = ?1 AND "
	    "status = 'running' ORDER BY id LIMIT 1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	if ((rc = lab_db_step(st)) == DB_DONE) {
		lab_db_finalize(st);
		return 0;
	}
	if (rc != DB_ROW) {
		lab_db_finalize(st);
		return lab_db_fail(db, err, "read the provisioning runs in "
		    "progress");
	}
	id = lab_db_column_int64(st, 0);
	t = (time_t)lab_db_column_int64(st, 1);
	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(when, sizeof(when), "%lld", (long long)t);
	snprintf(who, sizeof(who), "pid %lld on %s",
	    (long long)lab_db_column_int64(st, 2),
	    lab_db_column_text(st, 3) != NULL ?
	    (const char *)lab_db_column_text(st, 3) : "?");
	lab_db_finalize(st);
	return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: provisioning run %lld "
	    "is in progress (%s since %s); wait for it, or end that lab: "
	    "the next lab command on its machine marks the run abandoned",
	    host, (long long)id, who, when);
}
