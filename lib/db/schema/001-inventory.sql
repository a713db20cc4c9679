-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 1: the declared inventory and the audit log.

CREATE TABLE hosts (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	model		TEXT NOT NULL,
	role		TEXT,
	created_at	INTEGER NOT NULL,
	updated_at	INTEGER NOT NULL
);

CREATE TABLE groups (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	description	TEXT,
	declared	INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE host_groups (
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	group_id	INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	PRIMARY KEY (host_id, group_id)
) WITHOUT ROWID;
CREATE INDEX host_groups_group ON host_groups(group_id);

CREATE TABLE bmcs (
	host_id		INTEGER PRIMARY KEY REFERENCES hosts(id) ON DELETE CASCADE,
	type		TEXT NOT NULL CHECK (type IN ('rac', 'ilo2', 'ipmi')),
	address		TEXT NOT NULL,
	port		INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
	credential	TEXT NOT NULL,
	cipher_suite	INTEGER NOT NULL CHECK (cipher_suite BETWEEN 1 AND 17)
);

CREATE TABLE nics (
	id		INTEGER PRIMARY KEY,
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	name		TEXT NOT NULL,
	mac		TEXT NOT NULL UNIQUE,
	UNIQUE (host_id, name)
);

CREATE TABLE disks (
	id		INTEGER PRIMARY KEY,
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	slot		TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind IN ('sata', 'sas', 'ssd', 'nvme')),
	size_bytes	INTEGER NOT NULL CHECK (size_bytes > 0),
	controller	TEXT,
	UNIQUE (host_id, slot)
);

CREATE TABLE switches (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	model		TEXT NOT NULL,
	address		TEXT NOT NULL,
	port		INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
	snmp_version	TEXT CHECK (snmp_version IN ('1', '2c', '3')),
	snmp_credential	TEXT,
	snmp_context	TEXT,
	snmp_timeout_ms	INTEGER,
	snmp_retries	INTEGER,
	created_at	INTEGER NOT NULL,
	updated_at	INTEGER NOT NULL
);

-- What discovery sees on a switch; filled by `lab switch discover`.
CREATE TABLE switch_ports (
	id		INTEGER PRIMARY KEY,
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	ifindex		INTEGER NOT NULL,
	name		TEXT,
	alias		TEXT,
	oper_status	TEXT,
	admin_status	TEXT,
	speed_mbps	INTEGER,
	duplex		TEXT,
	seen_at		INTEGER,
	UNIQUE (switch_id, ifindex)
);

-- Every command that changes something, with secrets redacted from argv.
CREATE TABLE audit_log (
	id		INTEGER PRIMARY KEY,
	time		INTEGER NOT NULL,
	user		TEXT NOT NULL,
	command		TEXT NOT NULL,
	argv		TEXT NOT NULL,
	result		INTEGER NOT NULL,
	message		TEXT
);
CREATE INDEX audit_log_time ON audit_log(time);
