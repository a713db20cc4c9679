-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 016: what hosts and switches really are (lab facts, issue 20).
-- One row a value of a fact; a change closes the row (current = 0,
-- closed_at = when) and opens another, so each change is a dated event:
-- a row opened when another of the same key closed is a change, a row
-- opened alone is new, a row closed alone is gone.

CREATE TABLE facts (
	id		INTEGER PRIMARY KEY,
	kind		TEXT NOT NULL CHECK (kind IN ('host', 'switch')),
	subject		TEXT NOT NULL,
	key		TEXT NOT NULL,
	value		TEXT,
	first_seen	INTEGER NOT NULL,
	last_seen	INTEGER NOT NULL,
	current		INTEGER NOT NULL DEFAULT 1,
	closed_at	INTEGER			-- NULL while current
);
CREATE INDEX facts_subject ON facts (kind, subject, current, key);
CREATE INDEX facts_key ON facts (kind, subject, key);
CREATE INDEX facts_seen ON facts (first_seen);
CREATE INDEX facts_closed ON facts (closed_at);

CREATE TABLE fact_findings (
	id		INTEGER PRIMARY KEY,
	kind		TEXT NOT NULL CHECK (kind IN ('host', 'switch')),
	subject		TEXT NOT NULL,
	severity	TEXT NOT NULL,
	finding		TEXT NOT NULL,
	item		TEXT NOT NULL,
	message		TEXT NOT NULL,
	seen_at		INTEGER NOT NULL
);
CREATE INDEX fact_findings_subject ON fact_findings (kind, subject);
