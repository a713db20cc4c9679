-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 3: what switch discovery sees, which NIC is on which port, and
-- the findings. Each discovery replaces a switch's rows in one transaction.

ALTER TABLE switches ADD COLUMN sys_descr TEXT;
ALTER TABLE switches ADD COLUMN sys_name TEXT;
ALTER TABLE switches ADD COLUMN sys_object_id TEXT;
ALTER TABLE switches ADD COLUMN uptime INTEGER;		-- hundredths of a second
ALTER TABLE switches ADD COLUMN discovered_at INTEGER;

ALTER TABLE switch_ports ADD COLUMN type INTEGER;		-- IANAifType
ALTER TABLE switch_ports ADD COLUMN speed_suspect INTEGER NOT NULL DEFAULT 0;

CREATE TABLE switch_fdb (
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	mac		TEXT NOT NULL,
	vlan		INTEGER NOT NULL,
	ifindex		INTEGER,		-- NULL: a bridge port with no ifIndex
	seen_at		INTEGER NOT NULL
);
CREATE INDEX switch_fdb_mac ON switch_fdb(mac);
CREATE INDEX switch_fdb_switch ON switch_fdb(switch_id);

CREATE TABLE switch_vlans (
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	vlan_id		INTEGER NOT NULL,
	name		TEXT,
	egress		TEXT,			-- ifindexes, comma-separated
	untagged	TEXT,
	lists_mangled	INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (switch_id, vlan_id)
);

CREATE TABLE switch_lags (
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	ifindex		INTEGER NOT NULL,
	members		TEXT,			-- ifindexes, comma-separated
	PRIMARY KEY (switch_id, ifindex)
);

CREATE TABLE switch_neighbors (
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	ifindex		INTEGER NOT NULL,
	protocol	TEXT NOT NULL CHECK (protocol IN ('cdp', 'lldp')),
	remote_device	TEXT,
	remote_port	TEXT,
	platform	TEXT,
	address		TEXT,
	seen_at		INTEGER NOT NULL
);
CREATE INDEX switch_neighbors_switch ON switch_neighbors(switch_id);

-- Which NIC is on which port: kept across discoveries (first/last seen).
CREATE TABLE nic_links (
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	nic		TEXT NOT NULL,
	mac		TEXT NOT NULL,
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	port		TEXT NOT NULL,
	ifindex		INTEGER NOT NULL,
	source		TEXT NOT NULL,
	first_seen	INTEGER NOT NULL,
	last_seen	INTEGER NOT NULL,
	PRIMARY KEY (host_id, nic)
);

-- What the last discovery of a switch found that needs a human.
CREATE TABLE switch_findings (
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	severity	TEXT NOT NULL,
	kind		TEXT NOT NULL,
	subject		TEXT NOT NULL,
	message		TEXT NOT NULL,
	seen_at		INTEGER NOT NULL
);
CREATE INDEX switch_findings_switch ON switch_findings(switch_id);
