/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_HISTORY_H
#define LAB_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "lab/bmc.h"
#include "lab/db.h"
#include "lab/err.h"

/*
 * What the database remembers of a host, read back: its power events
 * and its recorded sensor readings (lib/db/history.c). Strings are owned
 * by the rows. since: only rows at or after it (0: all).
 */

/* One power_events row: an action sent or a state read. */
struct lab_power_event {
	int64_t	 time;
	char	*action;	/* "status", "on", "sensors", "boot set" ... */
	char	*state;		/* "on", "off", NULL: unknown */
	int	 ok;
	char	*detail;
	char	*error;
	char	*source;	/* "power on", "report --collect"; NULL: older */
};

/* The host's power events, newest first; *ret is caller-owned. */
int	lab_db_power_events(struct lab_db *, const char *host, int64_t since,
	    struct lab_power_event **ret, size_t *n, struct lab_err *err);
void	lab_power_events_free(struct lab_power_event *, size_t n);

/*
 * Stores the sensors each host of a sensors run read (verb
 * LAB_BMC_SENSORS), at now, in one transaction, all under one new run
 * number (*run, 0 when nothing was stored). A host that failed, has no
 * BMC or was a dry run stores nothing (never a zero reading); a sensor
 * that could not be read stores a NULL value.
 */
int	lab_db_sensors_record(struct lab_db *, const struct lab_bmc_result *,
	    size_t n, int64_t now, const char *source, int64_t *run,
	    struct lab_err *err);

/* Per sensor of a host over a window: the latest reading, min, max. */
struct lab_sensor_summary {
	char	*name;
	char	*type;
	char	*unit;
	int64_t	 last_time;
	int	 has_last;	/* the latest reading had a value */
	double	 last;
	char	*state;		/* the latest reading's */
	int	 has_range;	/* some reading had a value */
	double	 min, max;
	size_t	 count;		/* readings (with or without a value) */
};

/* The host's sensors, by name; *ret is caller-owned. */
int	lab_db_sensor_summary(struct lab_db *, const char *host, int64_t since,
	    struct lab_sensor_summary **ret, size_t *n, struct lab_err *err);
void	lab_sensor_summary_free(struct lab_sensor_summary *, size_t n);

/* One reading of one sensor. */
struct lab_sensor_point {
	int64_t	 time;
	int64_t	 run;
	int	 has_value;
	double	 value;
	char	*state;
};

/* The readings of one sensor of a host, newest first; *ret caller-owned. */
int	lab_db_sensor_series(struct lab_db *, const char *host,
	    const char *sensor, int64_t since, struct lab_sensor_point **ret,
	    size_t *n, struct lab_err *err);
void	lab_sensor_points_free(struct lab_sensor_point *, size_t n);

/*
 * Stores the SEL entries each host of a SEL run read (verb LAB_BMC_SEL),
 * each once: an entry already kept (same host, record id and timestamp)
 * is skipped. A host that failed stores nothing. *added: the new ones.
 */
int	lab_db_sel_record(struct lab_db *, const struct lab_bmc_result *,
	    size_t n, int64_t now, const char *source, size_t *added,
	    struct lab_err *err);

/* One SEL entry kept. */
struct lab_sel_kept {
	unsigned	 id;		/* the BMC's record id */
	int64_t		 time;		/* the entry's; 0: none given */
	int64_t		 first_seen;	/* when lab first read it */
	char		*sensor;
	char		*event;
};

/* The host's kept SEL entries, newest first (by their time, else when
 * first seen), at or after since; *ret caller-owned. */
int	lab_db_sel_kept(struct lab_db *, const char *host, int64_t since,
	    struct lab_sel_kept **ret, size_t *n, struct lab_err *err);
void	lab_sel_kept_free(struct lab_sel_kept *, size_t n);

/* Whether the database knows the host (it may have left the inventory). */
int	lab_db_host_known(struct lab_db *, const char *host, int *ret,
	    struct lab_err *err);

#endif
