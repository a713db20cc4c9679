-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 5: provisioning. How lab reaches a host over SSH, the host's
-- own address, where each disk is on the host, and every provisioning
-- run with each of its steps.

CREATE TABLE host_ssh (
	host_id		INTEGER PRIMARY KEY REFERENCES hosts(id) ON DELETE CASCADE,
	address		TEXT NOT NULL,
	port		INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
	user		TEXT NOT NULL,
	identity	TEXT,
	known_hosts	TEXT,
	legacy_crypto	INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE host_network (
	host_id		INTEGER PRIMARY KEY REFERENCES hosts(id) ON DELETE CASCADE,
	address		TEXT,		-- "192.0.2.30/24"; NULL: DHCP
	gateway		TEXT,
	dns		TEXT		-- space-separated
);

ALTER TABLE disks ADD COLUMN device TEXT;
ALTER TABLE disks ADD COLUMN boot INTEGER NOT NULL DEFAULT 0;

-- One `lab provision ... --yes`. The host's name is kept as text so the
-- history outlives the host's removal from the inventory.
CREATE TABLE provision_runs (
	id		INTEGER PRIMARY KEY,
	host		TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('storage', 'network')),
	layout		TEXT NOT NULL,	-- "raid10", "active-backup", ...
	plan		TEXT NOT NULL,	-- the plan as JSON
	started_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	status		TEXT NOT NULL CHECK (status IN ('running', 'done',
			    'failed', 'rolled-back')),
	failed_step	INTEGER,	-- position, when failed
	message		TEXT
);
CREATE INDEX provision_runs_host ON provision_runs(host, started_at);

CREATE TABLE provision_steps (
	run_id		INTEGER NOT NULL REFERENCES provision_runs(id)
			    ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('run', 'write', 'check')),
	text		TEXT NOT NULL,	-- the command, or the file's path
	started_at	INTEGER,
	finished_at	INTEGER,
	exit_status	INTEGER,	-- NULL: not run, or the link died
	output		TEXT,
	PRIMARY KEY (run_id, position)
) WITHOUT ROWID;

-- Where the last storage run that was done put each disk ("tank/mirror-0",
-- "md0"), for the report. Keyed by names, like the runs.
CREATE TABLE disk_members (
	host		TEXT NOT NULL,
	slot		TEXT NOT NULL,
	member_of	TEXT NOT NULL,
	run_id		INTEGER NOT NULL REFERENCES provision_runs(id)
			    ON DELETE CASCADE,
	PRIMARY KEY (host, slot)
) WITHOUT ROWID;
