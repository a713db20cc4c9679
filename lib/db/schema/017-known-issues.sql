-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 017: the known issues of the inventory (known_issues: in any
-- inventory file, issue 20), as lab import read them. The shipped list
-- (inventory/known-issues.yaml) is built into lab, never stored. name is
-- the issue's match as text, unique: what import's +/~/- lines name.

CREATE TABLE known_issues (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	model		TEXT,
	bmc		TEXT,
	component	TEXT NOT NULL,
	product		TEXT,
	below		TEXT,
	equal		TEXT,
	matching	TEXT,
	severity	TEXT NOT NULL
			CHECK (severity IN ('critical', 'warning', 'info')),
	message		TEXT NOT NULL,
	source		TEXT NOT NULL,
	file		TEXT,
	line		INTEGER,
	col		INTEGER,
	created_at	INTEGER NOT NULL,
	updated_at	INTEGER NOT NULL
);
