-- SPDX-License-Identifier: GPL-3.0-or-later
-- PostgreSQL only: the SQLite functions lab's queries use, so one query
-- text serves both backends (lib/db/pg-sql.c rewrites the rest).

-- group_concat(x, sep): the values as text, joined by sep
CREATE FUNCTION lab_group_concat_step(acc text, v anyelement, sep text)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN v IS NULL THEN acc
	    WHEN acc IS NULL THEN v::text
	    ELSE acc || sep || v::text END
$$;
CREATE AGGREGATE group_concat(anyelement, text) (
	SFUNC = lab_group_concat_step, STYPE = text
);

-- strftime(format, seconds, 'unixepoch'): the time in UTC
CREATE FUNCTION strftime(fmt text, t bigint, modifier text)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT to_char(to_timestamp(t) AT TIME ZONE 'UTC',
	    replace(replace(replace(replace(replace(replace(replace(replace(
	    fmt, 'T', '"T"'), 'Z', '"Z"'), '%Y', 'YYYY'), '%m', 'MM'),
	    '%d', 'DD'), '%H', 'HH24'), '%M', 'MI'), '%S', 'SS'))
$$;
