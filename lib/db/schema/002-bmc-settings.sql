-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 2: per-BMC IPMI settings, and what power commands observe.

ALTER TABLE bmcs ADD COLUMN workarounds TEXT;	-- FreeIPMI words, space-separated
ALTER TABLE bmcs ADD COLUMN privilege TEXT
	CHECK (privilege IN ('user', 'operator', 'admin'));
ALTER TABLE bmcs ADD COLUMN timeout_ms INTEGER;
ALTER TABLE bmcs ADD COLUMN retransmit_ms INTEGER;

-- Every power or boot action sent (or status read), one row per host.
CREATE TABLE power_events (
	id		INTEGER PRIMARY KEY,
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	time		INTEGER NOT NULL,
	action		TEXT NOT NULL,	-- status, on, off, cycle, reset, soft, boot
	ok		INTEGER NOT NULL,
	state		TEXT,		-- on, off, or NULL when unknown
	detail		TEXT,		-- what was done, or the boot device
	error		TEXT
);
CREATE INDEX power_events_host ON power_events(host_id, time);

-- The last power state seen of each host, and whether its BMC answered.
CREATE TABLE power_state (
	host_id		INTEGER PRIMARY KEY REFERENCES hosts(id) ON DELETE CASCADE,
	state		TEXT,
	seen_at		INTEGER,		-- when the BMC last answered
	checked_at	INTEGER NOT NULL,	-- when lab last asked
	bmc_reachable	INTEGER NOT NULL,
	error		TEXT
);
