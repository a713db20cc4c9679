-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 015: each port's bridge port number (BRIDGE-MIB
-- dot1dBasePortIfIndex, the index of the Q-BRIDGE port lists and of
-- dot1qPvid), so that lab switch plan and apply read live only the
-- ports they change and check the rest of the map against the switch.
-- NULL: not a bridge port, or discovered before version 015.

ALTER TABLE switch_ports ADD COLUMN bridge_port INTEGER;
