/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/history.h"
#include "db-priv.h"
#include "history-rows.h"

/*
 * The history of a host read back (power events, sensor readings) and
 * the sensor readings written (migration 009).
 */

/* Makes room for one more element of size sz in *v (*n used, *cap). */
static int
grow(void **v, size_t n, size_t *cap, size_t sz)
{
	void	*p;
	size_t	 c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	if ((p = realloc(*v, c * sz)) == NULL)
		return -1;
	memset((char *)p + n * sz, 0, (c - n) * sz);
	*v = p;
	*cap = c;
	return 0;
}

int
lab_db_host_known(struct lab_db *db, const char *host, int *ret,
    struct lab_err *err)
{
	struct db_stmt	*st;
	int		 rc;

	*ret = 0;
	if (lab_db_prepare(db, "SELECT 1 FROM hosts WHERE name = ?1", &st,
	    err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	rc = lab_db_step(st);
	if (rc != DB_ROW && rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read hosts");
	*ret = rc == DB_ROW;
	lab_db_finalize(st);
	return 0;
}

int
lab_db_power_events(struct lab_db *db, const char *host, int64_t since,
    struct lab_power_event **ret, size_t *n, struct lab_err *err)
{
	struct lab_power_event	*v = NULL, *e;
	struct db_stmt		*st;
	size_t			 cap = 0, k = 0;
	int			 rc;

	*ret = NULL;
	*n = 0;
	if (lab_db_prepare(db, "SELECT e.time, e.action, e.state, e.ok, "
	    "e.detail, e.error, e.source FROM power_events e JOIN hosts h ON "
	    "h.id = e.host_id WHERE h.name = ?1 AND e.time >= ?2 "
	    "ORDER BY e.time DESC, e.id DESC", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	lab_db_bind_int64(st, 2, since);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (grow((void **)&v, k, &cap, sizeof(*v)) == -1) {
			rc = DB_NOMEM;
			break;
		}
		e = &v[k++];
		e->time = lab_db_column_int64(st, 0);
		e->action = lab_db_text(st, 1);
		e->state = lab_db_text(st, 2);
		e->ok = lab_db_column_int(st, 3);
		e->detail = lab_db_text(st, 4);
		e->error = lab_db_text(st, 5);
		e->source = lab_db_text(st, 6);
		if (e->action == NULL) {
			rc = DB_NOMEM;
			break;
		}
	}
	if (rc != DB_DONE) {
		lab_power_events_free(v, k);
		return lab_db_step_fail(db, st, rc, err, "read power events");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = k;
	return 0;
}

void
lab_power_events_free(struct lab_power_event *v, size_t n)
{
	size_t	i;

	for (i = 0; v != NULL && i < n; i++) {
		free(v[i].action);
		free(v[i].state);
		free(v[i].detail);
		free(v[i].error);
		free(v[i].source);
	}
	free(v);
}

struct bmc_rows {
	const struct lab_bmc_result	*res;
	size_t				 n;
	int64_t				 now;
	const char			*source;
	int64_t				 run;	/* out: sensors */
	size_t				 added;	/* out: SEL entries */
};

static int
sensors_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	struct bmc_rows	*a = arg;
	struct db_stmt	*st = NULL, *q = NULL;
	int64_t		 id;
	size_t		 i, k, stored = 0;
	int		 rc = -1;

	a->run = 0;
	if (lab_db_prepare(db, "SELECT coalesce(max(run), 0) + 1 FROM "
	    "sensor_readings", &q, err) == -1 ||
	    lab_db_prepare(db, "INSERT INTO sensor_readings (host_id, run, "
	    "time, name, type, unit, value, state, source) SELECT id, ?2, ?3, "
	    "?4, ?5, ?6, ?7, ?8, ?9 FROM hosts WHERE name = ?1", &st,
	    err) == -1)
		goto out;
	if (lab_db_step(q) != DB_ROW) {
		lab_db_fail(db, err, "record sensors");
		goto out;
	}
	id = lab_db_column_int64(q, 0);
	for (i = 0; i < a->n; i++) {
		const struct lab_bmc_result	*r = &a->res[i];

		/* what failed says nothing of the sensors: no reading */
		if (!r->ok || r->no_bmc || !r->reachable)
			continue;
		for (k = 0; k < r->nsensors; k++) {
			const struct lab_sensor	*s = &r->sensors[k];

			if (s->name == NULL)
				continue;
			lab_db_bind_text(st, 1, r->host);
			lab_db_bind_int64(st, 2, id);
			lab_db_bind_int64(st, 3, a->now);
			lab_db_bind_text(st, 4, s->name);
			lab_db_bind_text(st, 5, s->type);
			lab_db_bind_text(st, 6, s->unit);
			if (s->has_value)
				lab_db_bind_double(st, 7, s->value);
			else
				lab_db_bind_null(st, 7);
			lab_db_bind_text(st, 8, s->state);
			lab_db_bind_text(st, 9, a->source);
			if (lab_db_step(st) != DB_DONE) {
				lab_db_fail(db, err, "record sensors");
				goto out;
			}
			lab_db_reset(st);
			stored++;
		}
	}
	if (stored > 0)
		a->run = id;
	rc = 0;
out:
	lab_db_finalize(q);
	lab_db_finalize(st);
	return rc;
}

int
lab_db_sensors_record(struct lab_db *db, const struct lab_bmc_result *res,
    size_t n, int64_t now, const char *source, int64_t *run,
    struct lab_err *err)
{
	struct bmc_rows	a = { res, n, now, source, 0, 0 };

	*run = 0;
	if (lab_db_tx(db, sensors_tx, &a, err) == -1)
		return -1;
	*run = a.run;
	return 0;
}

int
lab_db_sensor_summary(struct lab_db *db, const char *host, int64_t since,
    struct lab_sensor_summary **ret, size_t *n, struct lab_err *err)
{
	struct lab_sensor_summary	*v = NULL, *s;
	struct db_stmt			*st;
	size_t				 cap = 0, k = 0;
	int				 rc;

	*ret = NULL;
	*n = 0;
	/* the latest reading of each sensor, with the window's figures */
	if (lab_db_prepare(db, "SELECT r.name, r.type, r.unit, r.time, "
	    "r.value, r.state, w.lo, w.hi, w.cnt FROM sensor_readings r "
	    "JOIN (SELECT host_id, name, max(id) AS last, min(value) AS lo, "
	    "max(value) AS hi, count(*) AS cnt FROM sensor_readings "
	    "WHERE host_id = (SELECT id FROM hosts WHERE name = ?1) AND "
	    "time >= ?2 GROUP BY host_id, name) w ON r.id = w.last "
	    "ORDER BY r.name", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	lab_db_bind_int64(st, 2, since);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (grow((void **)&v, k, &cap, sizeof(*v)) == -1) {
			rc = DB_NOMEM;
			break;
		}
		s = &v[k++];
		s->name = lab_db_text(st, 0);
		s->type = lab_db_text(st, 1);
		s->unit = lab_db_text(st, 2);
		s->last_time = lab_db_column_int64(st, 3);
		if ((s->has_last = lab_db_column_type(st, 4) != DB_NULL))
			s->last = lab_db_column_double(st, 4);
		s->state = lab_db_text(st, 5);
		if ((s->has_range = lab_db_column_type(st, 6) != DB_NULL)) {
			s->min = lab_db_column_double(st, 6);
			s->max = lab_db_column_double(st, 7);
		}
		s->count = (size_t)lab_db_column_int64(st, 8);
		if (s->name == NULL) {
			rc = DB_NOMEM;
			break;
		}
	}
	if (rc != DB_DONE) {
		lab_sensor_summary_free(v, k);
		return lab_db_step_fail(db, st, rc, err, "read sensor readings");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = k;
	return 0;
}

void
lab_sensor_summary_free(struct lab_sensor_summary *v, size_t n)
{
	size_t	i;

	for (i = 0; v != NULL && i < n; i++) {
		free(v[i].name);
		free(v[i].type);
		free(v[i].unit);
		free(v[i].state);
	}
	free(v);
}

int
lab_db_sensor_series(struct lab_db *db, const char *host, const char *sensor,
    int64_t since, struct lab_sensor_point **ret, size_t *n,
    struct lab_err *err)
{
	struct lab_sensor_point	*v = NULL, *p;
	struct db_stmt		*st;
	size_t			 cap = 0, k = 0;
	int			 rc;

	*ret = NULL;
	*n = 0;
	if (lab_db_prepare(db, "SELECT r.time, r.run, r.value, r.state FROM "
	    "sensor_readings r JOIN hosts h ON h.id = r.host_id WHERE "
	    "h.name = ?1 AND r.name = ?2 AND r.time >= ?3 "
	    "ORDER BY r.time DESC, r.id DESC", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	lab_db_bind_text(st, 2, sensor);
	lab_db_bind_int64(st, 3, since);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (grow((void **)&v, k, &cap, sizeof(*v)) == -1) {
			rc = DB_NOMEM;
			break;
		}
		p = &v[k++];
		p->time = lab_db_column_int64(st, 0);
		p->run = lab_db_column_int64(st, 1);
		if ((p->has_value = lab_db_column_type(st, 2) != DB_NULL))
			p->value = lab_db_column_double(st, 2);
		p->state = lab_db_text(st, 3);
	}
	if (rc != DB_DONE) {
		lab_sensor_points_free(v, k);
		return lab_db_step_fail(db, st, rc, err, "read sensor readings");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = k;
	return 0;
}

void
lab_sensor_points_free(struct lab_sensor_point *v, size_t n)
{
	size_t	i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i].state);
	free(v);
}

int
lab_db_report_power_history(struct lab_db *db, int64_t since,
    int (*fn)(void *, const struct lab_db_report_power_point *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_power_point	 p;
	struct db_stmt				*st;
	int					 rc;

	/* a state read, or a BMC that failed (unknown); not a sensors read */
	if (lab_db_prepare(db, "SELECT host_id, time, state FROM power_events "
	    "WHERE time >= ?1 AND (state IS NOT NULL OR ok = 0) "
	    "ORDER BY host_id, time, id", &st, err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, since);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		p.host_id = lab_db_column_int64(st, 0);
		p.time = lab_db_column_int64(st, 1);
		p.state = (const char *)lab_db_column_text(st, 2);
		if (fn(arg, &p) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read power events");
	lab_db_finalize(st);
	return 0;
}

int
lab_db_report_temperatures(struct lab_db *db, int64_t since,
    int (*fn)(void *, const struct lab_db_report_reading *), void *arg,
    struct lab_err *err)
{
	struct lab_db_report_reading	 r;
	struct db_stmt			*st;
	int				 rc;

	if (lab_db_prepare(db, "SELECT host_id, name, unit, time, value FROM "
	    "sensor_readings WHERE time >= ?1 AND type = 'temperature' AND "
	    "value IS NOT NULL ORDER BY host_id, name, time, id", &st,
	    err) == -1)
		return -1;
	lab_db_bind_int64(st, 1, since);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		r.host_id = lab_db_column_int64(st, 0);
		r.name = (const char *)lab_db_column_text(st, 1);
		r.unit = (const char *)lab_db_column_text(st, 2);
		r.time = lab_db_column_int64(st, 3);
		r.value = lab_db_column_double(st, 4);
		if (fn(arg, &r) == -1) {
			rc = DB_NOMEM;
			break;
		}
	}
	if (rc != DB_DONE)
		return lab_db_step_fail(db, st, rc, err, "read sensor readings");
	lab_db_finalize(st);
	return 0;
}

static int
sel_tx(struct lab_db *db, void *arg, struct lab_err *err)
{
	struct bmc_rows	*a = arg;
	struct db_stmt	*st;
	size_t		 i, k;

	a->added = 0;
	if (lab_db_prepare(db, "INSERT INTO sel_entries (host_id, record_id, "
	    "time, sensor, event, first_seen, source) SELECT id, ?2, ?3, ?4, "
	    "?5, ?6, ?7 FROM hosts WHERE name = ?1 ON CONFLICT DO NOTHING",
	    &st, err) == -1)
		return -1;
	for (i = 0; i < a->n; i++) {
		const struct lab_bmc_result	*r = &a->res[i];

		if (!r->ok || r->no_bmc || !r->reachable)
			continue;
		for (k = 0; k < r->nsel; k++) {
			const struct lab_sel_entry	*e = &r->sel[k];

			lab_db_bind_text(st, 1, r->host);
			lab_db_bind_int64(st, 2, e->id);
			lab_db_bind_int64(st, 3, e->time > 0 ? e->time : 0);
			lab_db_bind_text(st, 4, e->sensor);
			lab_db_bind_text(st, 5, e->event);
			lab_db_bind_int64(st, 6, a->now);
			lab_db_bind_text(st, 7, a->source);
			if (lab_db_step(st) != DB_DONE) {
				lab_db_finalize(st);
				return lab_db_fail(db, err,
				    "record SEL entries");
			}
			a->added += (size_t)lab_db_changes(db);
			lab_db_reset(st);
		}
	}
	lab_db_finalize(st);
	return 0;
}

int
lab_db_sel_record(struct lab_db *db, const struct lab_bmc_result *res,
    size_t n, int64_t now, const char *source, size_t *added,
    struct lab_err *err)
{
	struct bmc_rows	a = { res, n, now, source, 0, 0 };

	*added = 0;
	if (lab_db_tx(db, sel_tx, &a, err) == -1)
		return -1;
	*added = a.added;
	return 0;
}

int
lab_db_sel_kept(struct lab_db *db, const char *host, int64_t since,
    struct lab_sel_kept **ret, size_t *n, struct lab_err *err)
{
	struct lab_sel_kept	*v = NULL, *e;
	struct db_stmt		*st;
	size_t			 cap = 0, k = 0;
	int			 rc;

	*ret = NULL;
	*n = 0;
	if (lab_db_prepare(db, "SELECT s.record_id, s.time, s.first_seen, "
	    "s.sensor, s.event FROM sel_entries s JOIN hosts h ON "
	    "h.id = s.host_id WHERE h.name = ?1 AND "
	    "(CASE WHEN s.time > 0 THEN s.time ELSE s.first_seen END) >= ?2 "
	    "ORDER BY (CASE WHEN s.time > 0 THEN s.time ELSE s.first_seen END) "
	    "DESC, s.record_id DESC", &st, err) == -1)
		return -1;
	lab_db_bind_text(st, 1, host);
	lab_db_bind_int64(st, 2, since);
	while ((rc = lab_db_step(st)) == DB_ROW) {
		if (grow((void **)&v, k, &cap, sizeof(*v)) == -1) {
			rc = DB_NOMEM;
			break;
		}
		e = &v[k++];
		e->id = (unsigned)lab_db_column_int64(st, 0);
		e->time = lab_db_column_int64(st, 1);
		e->first_seen = lab_db_column_int64(st, 2);
		e->sensor = lab_db_text(st, 3);
		e->event = lab_db_text(st, 4);
	}
	if (rc != DB_DONE) {
		lab_sel_kept_free(v, k);
		return lab_db_step_fail(db, st, rc, err, "read SEL entries");
	}
	lab_db_finalize(st);
	*ret = v;
	*n = k;
	return 0;
}

void
lab_sel_kept_free(struct lab_sel_kept *v, size_t n)
{
	size_t	i;

	for (i = 0; v != NULL && i < n; i++) {
		free(v[i].sensor);
		free(v[i].event);
	}
	free(v);
}
