/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab/parse.h"
#include "lab/report.h"
#include "lab.h"
#include "since.h"

/*
 * The baseline --since picks: a report run id ("12"), a time
 * ("2026-11-30T18:00:00Z", "2026-11-30") or hours or days back ("24h",
 * "7d"): the last run at or before it.
 */
int
cmd_parse_since(const char *s, int64_t now, int64_t *run, int64_t *time_ret)
{
	struct tm	 tm;
	const char	*end;
	long		 v;
	char		 num[16];
	size_t		 n = strlen(s);

	*run = 0;
	*time_ret = 0;
	if (n > 0 && strspn(s, "0123456789") == n) {
		if (lab_parse_int(s, 1, 2147483647L, &v) == -1)
			return -1;
		*run = v;
		return 0;
	}
	if (n >= 2 && n < sizeof(num) && (s[n - 1] == 'h' || s[n - 1] == 'd')) {
		memcpy(num, s, n - 1);
		num[n - 1] = '\0';
		if (lab_parse_int(num, 1, s[n - 1] == 'h' ? 24L * 366 * 10 :
		    366L * 10, &v) == -1)
			return -1;
		*time_ret = now - (int64_t)v * (s[n - 1] == 'h' ? 3600 : 86400);
		return *time_ret > 0 ? 0 : -1;
	}
	memset(&tm, 0, sizeof(tm));
	if ((end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm)) == NULL ||
	    *end != '\0') {
		memset(&tm, 0, sizeof(tm));
		if ((end = strptime(s, "%Y-%m-%d", &tm)) == NULL ||
		    *end != '\0')
			return -1;
	}
	*time_ret = (int64_t)timegm(&tm);
	return *time_ret > 0 ? 0 : -1;
}

/* --since of lab history: what lab report --since takes, as a time. */
int
cmd_since_time(struct lab_call *call, const char *s, int64_t *ret,
    struct lab_err *err)
{
	struct lab_report_run	*v = NULL;
	int64_t			 run, t;
	size_t			 n = 0, i;

	*ret = 0;
	if (s == NULL)
		return 0;
	if (cmd_parse_since(s, call->now, &run, &t) == -1)
		return lab_err_set(err, LAB_EXIT_INPUT, "--since takes a "
		    "report run id ('12', see lab report --runs), a time "
		    "('2026-11-30T18:00:00Z', '2026-11-30') or hours or days "
		    "back ('24h', '7d'), not '%s'", s);
	if (run == 0) {
		*ret = t;
		return 0;
	}
	/* a report run: since the time it ran */
	if (lab_report_runs(call->db, &v, &n, err) == -1)
		return -1;
	for (i = 0; i < n && v[i].id != run; i++)
		;
	if (i < n)
		*ret = v[i].time;
	free(v);
	if (i == n)
		return lab_err_set(err, LAB_EXIT_INPUT, "--since %s: no report "
		    "run %lld (see lab report --runs)", s, (long long)run);
	return 0;
}
