-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 018 (PostgreSQL; lib/db/schema/018-shares.sql is SQLite's): the shares a host serves and the ones it mounts (issue 21),
-- as lab import read them, each with the file:line:col it was written at
-- so that lab provision can name it. Lists are space-separated words
-- (no item holds a space: the loader refuses them); properties are
-- "key=value" words.

ALTER TABLE hosts ADD COLUMN iscsi_initiator TEXT;

CREATE TABLE shares (
	host_id		BIGINT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	position	BIGINT NOT NULL,
	name		TEXT NOT NULL,
	protocol	TEXT NOT NULL CHECK (protocol IN ('nfs', 'iscsi')),
	pool		TEXT,
	vg		TEXT,
	path		TEXT,
	size_bytes	BIGINT,
	iqn		TEXT,
	sparse		BIGINT NOT NULL DEFAULT 0,
	clients		TEXT,
	options		TEXT,
	properties	TEXT,
	initiators	TEXT,
	file		TEXT,
	line		BIGINT,
	col		BIGINT,
	size_line	BIGINT,
	size_col	BIGINT,
	PRIMARY KEY (host_id, name)
);

CREATE TABLE mounts (
	host_id		BIGINT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	position	BIGINT NOT NULL,
	share		TEXT NOT NULL,
	path		TEXT,
	options		TEXT,
	file		TEXT,
	line		BIGINT,
	col		BIGINT,
	PRIMARY KEY (host_id, position)
);

-- The runs of lab provision --shares and --mounts: kinds 'shares' and
-- 'mounts'. PostgreSQL changes the CHECK in place (SQLite rebuilds the
-- table); its name came from version 7's provision_runs_new.
DO $$
DECLARE
	c	text;
BEGIN
	FOR c IN SELECT conname FROM pg_constraint
	    WHERE conrelid = 'provision_runs'::regclass AND contype = 'c'
	    AND position('kind' in pg_get_constraintdef(oid)) > 0
	LOOP
		EXECUTE format('ALTER TABLE provision_runs DROP CONSTRAINT %I', c);
	END LOOP;
END
$$;
ALTER TABLE provision_runs ADD CONSTRAINT provision_runs_kind_check
	CHECK (kind = 'storage' OR kind = 'network' OR kind = 'shares' OR
	    kind = 'mounts');
