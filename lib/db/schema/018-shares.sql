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
