-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 10: disk benchmarks with history (issue 18). One row per
-- `lab bench` of a host, one per disk benched in it, one per fio job.
-- Names are kept as text, like the provisioning runs, so the history
-- outlives the host's removal from the inventory; a disk's history is
-- read by its serial, so a disk moved to another slot or host keeps it.

CREATE TABLE bench_runs (
	id		INTEGER PRIMARY KEY,
	host		TEXT NOT NULL,
	profile		TEXT NOT NULL CHECK (profile = 'quick' OR
			    profile = 'full'),
	started_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	status		TEXT NOT NULL CHECK (status = 'running' OR
			    status = 'done' OR status = 'failed'),
	message		TEXT		-- why it failed
);
CREATE INDEX bench_runs_host ON bench_runs(host, started_at);

-- A disk in a run: where it was (host, slot, device, controller) and
-- what it is (serial, model, kind, SMART). A count NULL: not known.
-- skipped: why some or all of its jobs did not run ("mounted on /srv").
CREATE TABLE bench_disks (
	id		INTEGER PRIMARY KEY,
	run_id		INTEGER NOT NULL REFERENCES bench_runs(id)
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
	skipped		TEXT
);
CREATE INDEX bench_disks_run ON bench_disks(run_id);
CREATE INDEX bench_disks_serial ON bench_disks(serial, run_id);

-- One fio job's figures: MB/s is 10^6 bytes a second, latencies in ms.
CREATE TABLE bench_results (
	disk_id		INTEGER NOT NULL REFERENCES bench_disks(id)
			    ON DELETE CASCADE,
	test		TEXT NOT NULL CHECK (test = 'seq-read' OR
			    test = 'seq-write' OR test = 'rand-read' OR
			    test = 'rand-write'),
	target_kind	TEXT NOT NULL CHECK (target_kind = 'device' OR
			    target_kind = 'file'),
	target		TEXT,
	why		TEXT,		-- why a file
	mb_s		REAL NOT NULL,
	iops		REAL NOT NULL,
	lat_mean_ms	REAL NOT NULL,
	lat_p99_ms	REAL NOT NULL,
	PRIMARY KEY (disk_id, test)
) WITHOUT ROWID;
