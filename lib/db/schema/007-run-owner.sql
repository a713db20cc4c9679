-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 7: one provisioning run at a time on a host. A run names the
-- lab process that owns it (pid, that process's start time and the boot
-- id, so a reused pid is told apart, and the machine it runs on); a run
-- whose owner is gone is 'abandoned'. SQLite cannot change a CHECK in
-- place: provision_runs is rebuilt, and the two tables that refer to it
-- with it (dropped first, so no ON DELETE CASCADE empties them).

CREATE TEMP TABLE old_steps AS SELECT * FROM provision_steps;
CREATE TEMP TABLE old_members AS SELECT * FROM disk_members;
CREATE TABLE provision_runs_new (
	id		INTEGER PRIMARY KEY,
	host		TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind = 'storage' OR kind = 'network'),
	layout		TEXT NOT NULL,
	plan		TEXT NOT NULL,
	started_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	status		TEXT NOT NULL CHECK (status = 'running' OR
			    status = 'done' OR status = 'failed' OR
			    status = 'rolled-back' OR status = 'abandoned'),
	failed_step	INTEGER,
	message		TEXT,
	owner_pid	INTEGER,	-- NULL: recorded before version 7
	owner_start	INTEGER,	-- /proc/PID/stat field 22
	owner_boot	TEXT,		-- /proc/sys/kernel/random/boot_id
	owner_machine	TEXT		-- the hostname of lab's machine
);
INSERT INTO provision_runs_new (id, host, kind, layout, plan, started_at,
	finished_at, status, failed_step, message)
SELECT id, host, kind, layout, plan, started_at, finished_at, status,
	failed_step, message FROM provision_runs;
DROP TABLE disk_members;
DROP TABLE provision_steps;
DROP TABLE provision_runs;
ALTER TABLE provision_runs_new RENAME TO provision_runs;
CREATE INDEX provision_runs_host ON provision_runs(host, started_at);
-- the host's run in progress, for the lock check
CREATE INDEX provision_runs_running ON provision_runs(host)
	WHERE status = 'running';

CREATE TABLE provision_steps (
	run_id		INTEGER NOT NULL REFERENCES provision_runs(id)
			    ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	kind		TEXT NOT NULL CHECK (kind = 'run' OR kind = 'write' OR
			    kind = 'check'),
	text		TEXT NOT NULL,
	started_at	INTEGER,
	finished_at	INTEGER,
	exit_status	INTEGER,
	output		TEXT,
	PRIMARY KEY (run_id, position)
) WITHOUT ROWID;
INSERT INTO provision_steps SELECT * FROM old_steps;

CREATE TABLE disk_members (
	host		TEXT NOT NULL,
	slot		TEXT NOT NULL,
	member_of	TEXT NOT NULL,
	run_id		INTEGER NOT NULL REFERENCES provision_runs(id)
			    ON DELETE CASCADE,
	PRIMARY KEY (host, slot)
) WITHOUT ROWID;
INSERT INTO disk_members SELECT * FROM old_members;
DROP TABLE old_steps;
DROP TABLE old_members;
