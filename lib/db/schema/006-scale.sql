-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 6: what a lab of 10,000 hosts needs (bench/scale).

-- The CHECKs of bmcs and disks spelled as comparisons. SQLite checks
-- `x IN ('a', 'b', 'c')` by building a temporary b-tree for every row
-- written: that was a third of an import's time. The rules are the same;
-- SQLite cannot change a CHECK in place, so both tables are rebuilt
-- (nothing refers to them).
CREATE TABLE bmcs_new (
	host_id		INTEGER PRIMARY KEY REFERENCES hosts(id) ON DELETE CASCADE,
	type		TEXT NOT NULL
			CHECK (type = 'rac' OR type = 'ilo2' OR type = 'ipmi'),
	address		TEXT NOT NULL,
	port		INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
	credential	TEXT NOT NULL,
	cipher_suite	INTEGER NOT NULL CHECK (cipher_suite BETWEEN 1 AND 17),
	workarounds	TEXT,
	privilege	TEXT CHECK (privilege = 'user' OR
			    privilege = 'operator' OR privilege = 'admin'),
	timeout_ms	INTEGER,
	retransmit_ms	INTEGER
);
INSERT INTO bmcs_new (host_id, type, address, port, credential, cipher_suite,
	workarounds, privilege, timeout_ms, retransmit_ms)
SELECT host_id, type, address, port, credential, cipher_suite, workarounds,
	privilege, timeout_ms, retransmit_ms FROM bmcs;
DROP TABLE bmcs;
ALTER TABLE bmcs_new RENAME TO bmcs;

CREATE TABLE disks_new (
	id		INTEGER PRIMARY KEY,
	host_id		INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	position	INTEGER NOT NULL,
	slot		TEXT NOT NULL,
	kind		TEXT NOT NULL CHECK (kind = 'sata' OR kind = 'sas' OR
			    kind = 'ssd' OR kind = 'nvme'),
	size_bytes	INTEGER NOT NULL CHECK (size_bytes > 0),
	controller	TEXT,
	device		TEXT,		-- from version 5
	boot		INTEGER NOT NULL DEFAULT 0,
	UNIQUE (host_id, slot)
);
INSERT INTO disks_new (id, host_id, position, slot, kind, size_bytes,
	controller, device, boot)
SELECT id, host_id, position, slot, kind, size_bytes, controller, device,
	boot FROM disks;
DROP TABLE disks;
ALTER TABLE disks_new RENAME TO disks;

-- The hosts on a switch port (lab switch ports, the report): without it
-- every port scanned every link.
CREATE INDEX nic_links_port ON nic_links(switch_id, ifindex);
