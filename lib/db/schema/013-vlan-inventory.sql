-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 013: the VLANs of the inventory (issue 19). A NIC's wish (vlan:
-- an access VLAN; vlans: a trunk, its VLAN ids space-separated; native;
-- tagged) and, per switch, the VLANs, ports: entries and uplinks
-- declared, each with the file:line:col it was written at, so that lab
-- switch plan can name it from an inventory read back from here. The
-- discovered state stays in switch_ports and switch_vlans.

ALTER TABLE nics ADD COLUMN vlan_access INTEGER
	CHECK (vlan_access BETWEEN 1 AND 4094);
ALTER TABLE nics ADD COLUMN vlan_trunk TEXT;
ALTER TABLE nics ADD COLUMN vlan_native INTEGER
	CHECK (vlan_native BETWEEN 1 AND 4094);
ALTER TABLE nics ADD COLUMN vlan_tagged INTEGER NOT NULL DEFAULT 0;
ALTER TABLE nics ADD COLUMN vlan_file TEXT;
ALTER TABLE nics ADD COLUMN vlan_line INTEGER;
ALTER TABLE nics ADD COLUMN vlan_col INTEGER;
ALTER TABLE nics ADD COLUMN native_line INTEGER;
ALTER TABLE nics ADD COLUMN native_col INTEGER;

ALTER TABLE switches ADD COLUMN management_vlan INTEGER
	CHECK (management_vlan BETWEEN 1 AND 4094);

CREATE TABLE declared_vlans (
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	vlan_id		INTEGER NOT NULL CHECK (vlan_id BETWEEN 1 AND 4094),
	name		TEXT,
	file		TEXT,
	line		INTEGER,
	col		INTEGER,
	PRIMARY KEY (switch_id, vlan_id)
);

CREATE TABLE declared_ports (
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	port		TEXT NOT NULL,
	description	TEXT,
	vlan_access	INTEGER CHECK (vlan_access BETWEEN 1 AND 4094),
	vlan_trunk	TEXT,
	vlan_native	INTEGER CHECK (vlan_native BETWEEN 1 AND 4094),
	file		TEXT,
	line		INTEGER,
	col		INTEGER,
	vlan_line	INTEGER,
	vlan_col	INTEGER,
	native_line	INTEGER,
	native_col	INTEGER,
	PRIMARY KEY (switch_id, port)
);

CREATE TABLE declared_uplinks (
	switch_id	INTEGER NOT NULL REFERENCES switches(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	port		TEXT NOT NULL,
	PRIMARY KEY (switch_id, port)
);
