/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bmc.h"
#include "db-priv.h"

static const char *
state_text(const struct lab_bmc_result *r)
{
	return r->state == LAB_POWER_UNKNOWN ? NULL : lab_power_name(r->state);
}

struct bmc_run {
	enum lab_bmc_verb		 verb;
	const struct lab_bmc_result	*res;
	size_t				 n;
	int64_t				 now;
	const char			*source;
};

static int
record_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	const struct bmc_run	*a = arg;
	enum lab_bmc_verb	 verb = a->verb;
	int64_t			 now = a->now;
	struct db_stmt		*ev = NULL, *st = NULL;
	const char		*detail;
	size_t			 i;
	int			 rc = -1;

	if (lab_db_prepare(db, "INSERT INTO power_events (host_id, time, action, "
	    "ok, state, detail, error, source) SELECT id, ?2, ?3, ?4, ?5, ?6, ?7, "
	    "?8 "
	    "FROM hosts WHERE name = ?1", &ev, err) == -1 ||
	    lab_db_prepare(db, "INSERT INTO power_state (host_id, state, seen_at, "
	    "checked_at, bmc_reachable, error) SELECT id, ?2, ?3, ?4, ?5, ?6 "
	    "FROM hosts WHERE name = ?1 ON CONFLICT (host_id) DO UPDATE SET "
	    "state = CASE WHEN excluded.bmc_reachable <> 0 THEN excluded.state "
	    "ELSE power_state.state END, "
	    "seen_at = coalesce(excluded.seen_at, power_state.seen_at), "
	    "checked_at = excluded.checked_at, "
	    "bmc_reachable = excluded.bmc_reachable, error = excluded.error",
	    &st, err) == -1)
		goto out;
	for (i = 0; i < a->n; i++) {
		const struct lab_bmc_result	*r = &a->res[i];

		/*
		 * a dry run or a host with no BMC observed nothing; nor did a
		 * session this machine could not open (no fd, no memory: an
		 * environment error), which says nothing of the BMC
		 */
		if (r->no_bmc || (r->note != NULL &&
		    strncmp(r->note, "would ", 6) == 0) ||
		    (!r->reachable && r->err.local))
			continue;
		detail = verb == LAB_BMC_BOOT_GET ||
		    verb == LAB_BMC_BOOT_SET ? lab_boot_name(r->boot) :
		    r->note;
		lab_db_bind_text(ev, 1, r->host);
		lab_db_bind_int64(ev, 2, now);
		lab_db_bind_text(ev, 3, verb == LAB_BMC_BOOT_SET ? "boot set" :
		    lab_bmc_verb_name(verb));
		lab_db_bind_int(ev, 4, r->ok);
		lab_db_bind_text(ev, 5, state_text(r));
		lab_db_bind_text(ev, 6, r->reachable ? detail : NULL);
		lab_db_bind_text(ev, 7, r->err.code ? r->err.msg : NULL);
		lab_db_bind_text(ev, 8, a->source);
		if (lab_db_step(ev) != DB_DONE) {
			lab_db_fail(db, err, "record power event");
			goto out;
		}
		lab_db_reset(ev);
		if (!r->reachable || r->state != LAB_POWER_UNKNOWN ||
		    verb <= LAB_BMC_SOFT) {
			lab_db_bind_text(st, 1, r->host);
			lab_db_bind_text(st, 2, state_text(r));
			if (r->reachable)
				lab_db_bind_int64(st, 3, now);
			else
				lab_db_bind_null(st, 3);
			lab_db_bind_int64(st, 4, now);
			lab_db_bind_int(st, 5, r->reachable);
			lab_db_bind_text(st, 6, r->err.code ? r->err.msg : NULL);
			if (lab_db_step(st) != DB_DONE) {
				lab_db_fail(db, err, "record power state");
				goto out;
			}
			lab_db_reset(st);
		}
	}
	rc = 0;
out:
	lab_db_finalize(ev);
	lab_db_finalize(st);
	return rc;
}

/* Records a run in one transaction. */
int
lab_db_bmc_record(struct lab_db *db, enum lab_bmc_verb verb,
    const struct lab_bmc_result *res, size_t n, int64_t now,
    const char *source, struct lab_err *err)
{
	struct bmc_run	a = { verb, res, n, now, source };

	return lab_db_tx(db, record_tx, &a, err);
}

/* The last known power state of a host. */
int
lab_db_power_seen(struct lab_db *db, const char *host,
    struct lab_power_seen *ret, struct lab_err *err)
{
	struct db_stmt	*st;
	const char	*s;
	int		 rc;

	memset(ret, 0, sizeof(*ret));
	ret->state = LAB_POWER_UNKNOWN;
	if (lab_db_prepare(db, "SELECT p.state, p.seen_at, p.checked_at, "
	    "p.bmc_reachable, p.error FROM power_state p JOIN hosts h ON "
	    "h.id = p.host_id WHERE h.name = ?1", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	rc = lab_db_step(st);
	if (rc == DB_ROW) {
		s = (const char *)lab_db_column_text(st, 0);
		ret->state = s == NULL ? LAB_POWER_UNKNOWN :
		    strcmp(s, "on") == 0 ? LAB_POWER_ON : LAB_POWER_OFF;
		ret->seen_at = lab_db_column_int64(st, 1);
		ret->checked_at = lab_db_column_int64(st, 2);
		ret->reachable = lab_db_column_int(st, 3);
		ret->error = lab_db_text(st, 4);
	}
	lab_db_finalize(st);
	if (rc != DB_ROW && rc != DB_DONE)
		return lab_db_fail(db, err, "read power state");
	return 0;
}

/* Frees what lab_db_power_seen allocated. */
void
lab_power_seen_release(struct lab_power_seen *p)
{
	free(p->error);
	p->error = NULL;
}
