/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_HISTORY_ROWS_H
#define LAB_DB_HISTORY_ROWS_H

#include <stdint.h>

#include "lab/db.h"
#include "lab/err.h"

/*
 * The series of the report's sparklines (lib/db/history.c), as the
 * loaders of report-rows.h give rows: fn once a row, strings valid until
 * it returns, -1 from fn ends with an out-of-memory error. Rows at or
 * after since, by host id and time.
 */

/* A power state seen (state "on"/"off"), or not (NULL: the BMC failed). */
struct lab_db_report_power_point {
	int64_t		 host_id;
	int64_t		 time;
	const char	*state;
};

/* A temperature reading with a value. */
struct lab_db_report_reading {
	int64_t		 host_id;
	const char	*name;
	const char	*unit;
	int64_t		 time;
	double		 value;
};

int	lab_db_report_power_history(struct lab_db *, int64_t since,
	    int (*fn)(void *, const struct lab_db_report_power_point *),
	    void *arg, struct lab_err *err);
/* By host id, sensor name and time. */
int	lab_db_report_temperatures(struct lab_db *, int64_t since,
	    int (*fn)(void *, const struct lab_db_report_reading *),
	    void *arg, struct lab_err *err);

#endif
