-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 11: lab burnin (issue 18) is stored as a bench run of profile
-- 'burnin'. SQLite cannot change a CHECK, so the three bench tables are
-- rebuilt (children dropped before their parents, so no ON DELETE
-- CASCADE reaches a row not yet copied; a rename carries the references
-- along), with what a burn-in adds to a disk: its method, errors and
-- detail, its time, and the SMART counts read before it (the ones after
-- are the disk's own columns).

CREATE TABLE bench_runs_new (
	id		INTEGER PRIMARY KEY,
	host		TEXT NOT NULL,
	profile		TEXT NOT NULL CHECK (profile = 'quick' OR
			    profile = 'full' OR profile = 'burnin'),
	started_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	status		TEXT NOT NULL CHECK (status = 'running' OR
			    status = 'done' OR status = 'failed'),
	message		TEXT
);
INSERT INTO bench_runs_new SELECT id, host, profile, started_at,
    finished_at, status, message FROM bench_runs;

CREATE TABLE bench_disks_new (
	id		INTEGER PRIMARY KEY,
	run_id		INTEGER NOT NULL REFERENCES bench_runs_new(id)
			    ON DELETE CASCADE,
	host		TEXT NOT NULL,
	slot		TEXT NOT NULL,
	device		TEXT,
	serial		TEXT,
	model		TEXT,
	kind		TEXT,
	controller	TEXT,
	smart_health	TEXT NOT NULL DEFAULT 'unknown' CHECK (smart_health =
			    'unknown' OR smart_health = 'passed' OR
			    smart_health = 'failed'),
	smart_model	TEXT,
	smart_serial	TEXT,
	smart_firmware	TEXT,
	reallocated	INTEGER,
	pending		INTEGER,
	offline_uncorrectable INTEGER,
	power_on_hours	INTEGER,
	temperature_c	INTEGER,
	smart_message	TEXT,
	skipped		TEXT,		-- a burn-in: why refused
	-- a burn-in (NULL: none ran on the disk)
	burnin_result	TEXT CHECK (burnin_result IS NULL OR
			    burnin_result = 'clean' OR
			    burnin_result = 'errors' OR
			    burnin_result = 'refused' OR
			    burnin_result = 'failed'),
	burnin_method	TEXT,
	burnin_errors	INTEGER,
	burnin_detail	TEXT,
	burnin_ms	INTEGER,
	before_health	TEXT CHECK (before_health IS NULL OR
			    before_health = 'unknown' OR
			    before_health = 'passed' OR
			    before_health = 'failed'),
	before_reallocated INTEGER,
	before_pending	INTEGER,
	before_offline_uncorrectable INTEGER
);
INSERT INTO bench_disks_new (id, run_id, host, slot, device, serial, model,
    kind, controller, smart_health, smart_model, smart_serial,
    smart_firmware, reallocated, pending, offline_uncorrectable,
    power_on_hours, temperature_c, smart_message, skipped)
    SELECT id, run_id, host, slot, device, serial, model, kind, controller,
    smart_health, smart_model, smart_serial, smart_firmware, reallocated,
    pending, offline_uncorrectable, power_on_hours, temperature_c,
    smart_message, skipped FROM bench_disks;

CREATE TABLE bench_results_new (
	disk_id		INTEGER NOT NULL REFERENCES bench_disks_new(id)
			    ON DELETE CASCADE,
	test		TEXT NOT NULL CHECK (test = 'seq-read' OR
			    test = 'seq-write' OR test = 'rand-read' OR
			    test = 'rand-write'),
	target_kind	TEXT NOT NULL CHECK (target_kind = 'device' OR
			    target_kind = 'file'),
	target		TEXT,
	why		TEXT,
	mb_s		REAL NOT NULL,
	iops		REAL NOT NULL,
	lat_mean_ms	REAL NOT NULL,
	lat_p99_ms	REAL NOT NULL,
	PRIMARY KEY (disk_id, test)
) WITHOUT ROWID;
INSERT INTO bench_results_new SELECT * FROM bench_results;

DROP TABLE bench_results;
DROP TABLE bench_disks;
DROP TABLE bench_runs;
ALTER TABLE bench_runs_new RENAME TO bench_runs;
ALTER TABLE bench_disks_new RENAME TO bench_disks;
ALTER TABLE bench_results_new RENAME TO bench_results;
CREATE INDEX bench_runs_host ON bench_runs(host, started_at);
CREATE INDEX bench_disks_run ON bench_disks(run_id);
CREATE INDEX bench_disks_serial ON bench_disks(serial, run_id);
