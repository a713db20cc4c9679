-- SPDX-License-Identifier: GPL-3.0-or-later
-- Version 8: a port's PVID (Q-BRIDGE dot1qPvid: the VLAN its untagged
-- frames go to), for the report's panel. NULL: the switch did not say.

ALTER TABLE switch_ports ADD COLUMN pvid INTEGER;
