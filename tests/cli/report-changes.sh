#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The change list across two recorded report runs with known differences: power
# off -> on, a NIC moved port, a port's speed and duplex, a new unknown
# MAC, a host removed (import --prune), a disk added: sh report-changes.sh
# LAB SRCDIR
set -eu
LAB=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
command -v sqlite3 >/dev/null || { echo "report-changes: no sqlite3" >&2; exit 77; }
fail=0
cp -R "$SRC/inventory" "$T/inventory"
"$LAB" import "$T/inventory" >/dev/null 2>&1
sqlite3 "$LAB_DB" <<'END'
UPDATE switches SET sys_descr = 'SG200-26', discovered_at = 1764525600;
INSERT INTO power_state (host_id, state, seen_at, checked_at, bmc_reachable)
    SELECT id, 'off', 1764525600, 1764525600, 1 FROM hosts
    WHERE name = 'microserver1';
INSERT INTO switch_ports (switch_id, ifindex, name, oper_status, speed_mbps,
    duplex) SELECT s.id, v.column1, v.column2, 'up', 1000, 'full'
    FROM switches s, (VALUES (1, 'gi1'), (2, 'gi2'), (3, 'gi3')) v;
INSERT INTO nic_links (host_id, nic, mac, switch_id, port, ifindex, source,
    first_seen, last_seen) SELECT h.id, 'eth0', '00:26:55:d1:0a:01', s.id,
    'gi1', 1, 'fdb', 1764525600, 1764525600 FROM hosts h, switches s
    WHERE h.name = 'microserver1';
INSERT INTO nic_links (host_id, nic, mac, switch_id, port, ifindex, source,
    first_seen, last_seen) SELECT h.id, 'eth0', '00:1e:0b:d3:20:01', s.id,
    'gi3', 3, 'fdb', 1764525600, 1764525600 FROM hosts h, switches s
    WHERE h.name = 'neo';
END
# the nightly run records the baseline; a plain report only reads
"$LAB" report --record --format json >"$T/first.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["previous_run"] is None and d["changes"] == [], d["changes"]' \
    "$T/first.json" || { echo "report-changes: first run" >&2; fail=1; }

# what happens overnight
sqlite3 "$LAB_DB" <<'END'
UPDATE power_state SET state = 'on';
UPDATE nic_links SET port = 'gi2', ifindex = 2 WHERE nic = 'eth0' AND
    mac = '00:26:55:d1:0a:01';
UPDATE switch_ports SET speed_mbps = 100, duplex = 'half' WHERE ifindex = 3;
INSERT INTO switch_fdb (switch_id, mac, vlan, ifindex, seen_at)
    SELECT id, '52:54:00:ab:cd:ef', 1, 2, 1764525600 FROM switches;
END
python3 - "$T/inventory/lab.yaml" <<'END'
import re, sys
p = sys.argv[1]
s = open(p).read()
# ml115 leaves the lab; nas gets a disk in its eSATA slot
s = re.sub(r"  - name: ml115\n(    .*\n|\n)*?(?=  - name: )", "", s)
old = "ata-ST3250318AS_9VY00001, boot: true}\n"
assert old in s, "the nas's boot disk line moved: update this test"
s = s.replace(old, old + "      - {slot: esata, kind: sata, size: 3TB, "
    "controller: onboard}\n", 1)
open(p, "w").write(s)
END
"$LAB" import --prune --yes "$T/inventory" >/dev/null 2>&1
"$LAB" report --record --format json >"$T/second.json"
"$LAB" report >"$T/third.txt"
python3 - "$T/second.json" <<'END' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
got = {(c["kind"], c["subject"], c["message"]) for c in d["changes"]}
want = {
    ("power", "microserver1", "off -> on"),
    ("nic-moved", "microserver1 eth0", "moved from sg200 gi1 to sg200 gi2"),
    ("port-speed", "sg200 gi3", "1000 Mb/s full -> 100 Mb/s half (neo)"),
    ("unknown-mac", "sg200 52:54:00:ab:cd:ef",
     "new MAC no inventory NIC owns, on port gi2"),
    ("host-removed", "ml115", "removed from the inventory"),
    ("disk-added", "nas disk esata", "3 TB added"),
}
missing = want - got
if missing or len(got) != len(want) or d["previous_run"] is None or \
        d["summary"]["changes"] != len(want):
    sys.exit("report-changes: missing %s; got %s" % (sorted(missing),
        sorted(got)))
END
# the third report compares with the second: nothing changed since
grep -A1 '^Changes (since the report of ' "$T/third.txt" | grep -q '^  none$' ||
	{ echo "report-changes: third run lists changes" >&2; cat "$T/third.txt" >&2; fail=1; }
# --since before every run: no run to compare with
"$LAB" report --format json --since 2000-01-01 | python3 -c 'import json,sys
d = json.load(sys.stdin); assert d["previous_run"] is None and not d["changes"]' ||
	{ echo "report-changes: --since 2000-01-01" >&2; fail=1; }
# a later --since compares with the newest run at or before it
"$LAB" report --format json --since "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)" | python3 -c 'import json,sys
d = json.load(sys.stdin); assert d["previous_run"] is not None' ||
	{ echo "report-changes: --since in an hour" >&2; fail=1; }
[ $fail = 0 ] && echo "report-changes: ok"
exit $fail
