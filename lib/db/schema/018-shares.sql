-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 018: the shares a host serves and the ones it mounts (issue 21),
-- as lab import read them, each with the file:line:col it was written at
-- so that lab provision can name it. Lists are space-separated words
-- (no item holds a space: the loader refuses them); properties are
-- "key=value" words.

ALTER TABLE hosts ADD COLUMN iscsi_initiator TEXT;

CREATE TABLE shares (
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	name		TEXT NOT NULL,
	protocol	TEXT NOT NULL CHECK (protocol IN ('nfs', 'iscsi')),
	pool		TEXT,
	vg		TEXT,
	path		TEXT,
	size_bytes	INTEGER,
	iqn		TEXT,
	sparse		INTEGER NOT NULL DEFAULT 0,
	clients		TEXT,
	options		TEXT,
	properties	TEXT,
	initiators	TEXT,
	file		TEXT,
	line		INTEGER,
	col		INTEGER,
	size_line	INTEGER,
	size_col	INTEGER,
	PRIMARY KEY (host_id, name)
);

CREATE TABLE mounts (
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	share		TEXT NOT NULL,
	path		TEXT,
	options		TEXT,
	file		TEXT,
	line		INTEGER,
	col		INTEGER,
	PRIMARY KEY (host_id, position)
);

-- The runs of lab provision --shares and --mounts: kinds 'shares' and
-- 'mounts'. SQLite cannot change a CHECK in place: provision_runs is
-- rebuilt as version 7 did, with the two tables that refer to it.
CREATE TEMP TABLE old_steps AS SELECT * FROM provision_steps;
CREATE TEMP TABLE old_members AS SELECT * FROM disk_members;
CREATE TABLE provision_runs_new (
	id		INTEGER PRIMARY KEY,
	host		TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind = 'storage' OR kind = 'network' OR
			    kind = 'shares' OR kind = 'mounts'),
	layout		TEXT NOT NULL,
	plan		TEXT NOT NULL,
	started_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	status		TEXT NOT NULL CHECK (status = 'running' OR
			    status = 'done' OR status = 'failed' OR
			    status = 'rolled-back' OR status = 'abandoned'),
	failed_step	INTEGER,
	message		TEXT,
	owner_pid	INTEGER,
	owner_start	INTEGER,
	owner_boot	TEXT,
	owner_machine	TEXT
);
INSERT INTO provision_runs_new SELECT * FROM provision_runs;
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
