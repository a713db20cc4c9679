-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 4: report runs. Each `lab report` records the facts it showed,
-- so the next report lists what changed since.

CREATE TABLE report_runs (
	id		INTEGER PRIMARY KEY,
	time		INTEGER NOT NULL,
	snapshot	TEXT NOT NULL	-- lines "kind<TAB>field...", sorted
);
CREATE INDEX report_runs_time ON report_runs(time);
