-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 12: ZFS pool settings benchmarks (lab bench HOST --pool, issue
-- 18). One row per run (a host's pool, the properties compared, the
-- repeats), one per combination and test: the median over the repeats
-- and its spread (min-max). A failed run keeps no row; left names the
-- scratch datasets it could not destroy.
CREATE TABLE pool_runs (
	id		INTEGER PRIMARY KEY,
	host		TEXT NOT NULL,
	pool		TEXT NOT NULL,
	props		TEXT NOT NULL,		-- "compression sync"
	repeat		INTEGER NOT NULL CHECK (repeat >= 1),
	started_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	status		TEXT NOT NULL CHECK (status = 'running' OR
			    status = 'done' OR status = 'failed'),
	message		TEXT,
	left_behind	TEXT			-- the zfs destroy to run
);
CREATE INDEX pool_runs_host ON pool_runs(host, pool, started_at);

CREATE TABLE pool_results (
	run_id		INTEGER NOT NULL REFERENCES pool_runs(id)
			    ON DELETE CASCADE,
	combo		INTEGER NOT NULL,	-- its order in the run
	setting		TEXT NOT NULL,	-- "compression=lz4 sync=disabled"
	test		TEXT NOT NULL CHECK (test = 'seq-read' OR
			    test = 'seq-write' OR test = 'rand-read' OR
			    test = 'rand-write'),
	mb_s		REAL NOT NULL,		-- median
	mb_s_min	REAL NOT NULL,
	mb_s_max	REAL NOT NULL,
	iops		REAL NOT NULL,
	iops_min	REAL NOT NULL,
	iops_max	REAL NOT NULL,
	lat_mean_ms	REAL NOT NULL,
	lat_p99_ms	REAL NOT NULL,
	n		INTEGER NOT NULL,	-- the repeats measured
	PRIMARY KEY (run_id, combo, test)
) WITHOUT ROWID;
