-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 9: history you can read back. A power event names the command
-- that recorded it ("power on", "report --collect"; NULL before version
-- 9), and sensor readings are kept: one row per sensor each time
-- `lab sensors --record` or `lab report --collect` read a host.

ALTER TABLE power_events ADD COLUMN source TEXT;

-- Every reading recorded. run: one number per recording (every host read
-- by one `lab sensors --record` shares it). value NULL: not readable.
CREATE TABLE sensor_readings (
	id		INTEGER PRIMARY KEY,
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	run		INTEGER NOT NULL,
	time		INTEGER NOT NULL,
	name		TEXT NOT NULL,
	type		TEXT,
	unit		TEXT,
	value		REAL,
	state		TEXT,
	source		TEXT NOT NULL
);
CREATE INDEX sensor_readings_host ON sensor_readings(host_id, name, time);

-- The System Event Log entries `lab sel --record` saw, once each: a BMC
-- gives every entry a record id, reused after a clear, so (host, record
-- id, timestamp) names one. time 0: the BMC gave none.
CREATE TABLE sel_entries (
	id		INTEGER PRIMARY KEY,
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	record_id	INTEGER NOT NULL,
	time		INTEGER NOT NULL,
	sensor		TEXT,
	event		TEXT,
	first_seen	INTEGER NOT NULL,
	source		TEXT NOT NULL,
	UNIQUE (host_id, record_id, time)
);
