-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 014: VLANs on the switch (issue 19). What lab switch probe
-- found (one row a switch, the newest), and the history of lab switch
-- apply: one row an apply, with before and after of every port value.

CREATE TABLE switch_probes (
	switch		TEXT PRIMARY KEY,
	qbridge		INTEGER NOT NULL,
	ciscosb		INTEGER NOT NULL,
	copy		INTEGER NOT NULL,
	writable	INTEGER NOT NULL,
	why		TEXT,
	at		INTEGER NOT NULL
);

CREATE TABLE switch_applies (
	id		INTEGER PRIMARY KEY,
	switch		TEXT NOT NULL,
	at		INTEGER NOT NULL,
	user		TEXT,
	status		TEXT NOT NULL CHECK (status = 'ok' OR
			    status = 'failed' OR status = 'refused'),
	saved		INTEGER NOT NULL,
	message		TEXT
);
CREATE INDEX switch_applies_switch ON switch_applies (switch, at);

CREATE TABLE switch_apply_changes (
	apply_id	INTEGER NOT NULL REFERENCES switch_applies(id)
			    ON DELETE CASCADE,
	seq		INTEGER NOT NULL,
	port		TEXT NOT NULL,
	ifindex		INTEGER NOT NULL,
	what		TEXT NOT NULL,
	from_value	TEXT NOT NULL,
	to_value	TEXT NOT NULL,
	state		TEXT NOT NULL CHECK (state = 'done' OR
			    state = 'failed' OR state = 'restored' OR
			    state = 'left' OR state = 'refused'),
	PRIMARY KEY (apply_id, seq)
);
