#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab report --format prometheus on a seeded database (bench-seed.c,
# drift-seed.c, power states and a switch discovery in SQL), checked by
# `promtool check metrics` (Debian package prometheus) and for its
# samples: findings, drift, power, links (a port name that needs
# escaping), bench figures. Without promtool it skips (exit 77), and
# fails under LAB_TEST_REQUIRE_SIM=1.
# sh prom.sh LAB BENCH_SEED DRIFT_SEED SRCDIR
set -eu
LAB=$1
BENCH=$2
DRIFT=$3
SRC=$4
if ! command -v promtool >/dev/null 2>&1; then
	if [ "${LAB_TEST_REQUIRE_SIM:-}" = 1 ]; then
		echo "prom: promtool is missing (apt-get install prometheus)" >&2
		exit 1
	fi
	echo "prom: promtool is missing: skipped" >&2
	exit 77
fi
command -v sqlite3 >/dev/null 2>&1 || {
	echo "prom: sqlite3 is missing" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-}" = 1 ] && exit 1
	exit 77
}
T=$(mktemp -d)
# KEEP=1 keeps the folder to look at
trap '[ -n "${KEEP:-}" ] || rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
fail=0
bad() { echo "prom: $*" >&2; fail=1; }

cp -R "$SRC/inventory" "$T/inventory"
"$LAB" import "$T/inventory" >/dev/null 2>&1

# an empty lab's file is valid too
"$LAB" report --format prometheus >"$T/empty.prom" || bad "report (empty)"
promtool check metrics <"$T/empty.prom" || bad "promtool: the empty lab's file"

"$BENCH" "$LAB_DB" || { bad "bench-seed failed"; exit 1; }
"$DRIFT" "$LAB_DB" || { bad "drift-seed failed"; exit 1; }
# power: microserver1 on, microserver2 off, neo's BMC unreachable;
# sg200 discovered with microserver1's eth0 on a 1000 Mb/s port and
# neo's eth0 on a port whose name holds a quote, a backslash and a
# newline
sqlite3 "$LAB_DB" <<'SQL'
INSERT INTO power_state (host_id, state, seen_at, checked_at, bmc_reachable)
  SELECT id, 'on', 1764460800, 1764460800, 1 FROM hosts WHERE name = 'microserver1';
INSERT INTO power_state (host_id, state, seen_at, checked_at, bmc_reachable)
  SELECT id, 'off', 1764460800, 1764460800, 1 FROM hosts WHERE name = 'microserver2';
INSERT INTO power_state (host_id, state, seen_at, checked_at, bmc_reachable, error)
  SELECT id, 'on', 1764374400, 1764460800, 0, 'timed out' FROM hosts WHERE name = 'neo';
UPDATE switches SET discovered_at = 1764460800 WHERE name = 'sg200';
INSERT INTO switch_ports (switch_id, ifindex, name, oper_status, speed_mbps, duplex)
  SELECT id, 3, 'gi1/0/3', 'up', 1000, 'full' FROM switches WHERE name = 'sg200';
INSERT INTO switch_ports (switch_id, ifindex, name, oper_status, speed_mbps, duplex)
  SELECT id, 4, 'gi"4\' || char(10) || 'x', 'up', 100, 'half' FROM switches WHERE name = 'sg200';
INSERT INTO nic_links (host_id, nic, mac, switch_id, port, ifindex, source, first_seen, last_seen)
  SELECT h.id, 'eth0', '00:26:55:d1:0a:01', s.id, 'gi1/0/3', 3, 'fdb', 1764460800, 1764460800
  FROM hosts h, switches s WHERE h.name = 'microserver1' AND s.name = 'sg200';
INSERT INTO nic_links (host_id, nic, mac, switch_id, port, ifindex, source, first_seen, last_seen)
  SELECT h.id, 'eth0', '00:1e:0b:d3:20:01', s.id, 'gi"4\' || char(10) || 'x', 4, 'fdb', 1764460800, 1764460800
  FROM hosts h, switches s WHERE h.name = 'neo' AND s.name = 'sg200';
SQL

"$LAB" report --format prometheus --since 2025-11-30T12:00:00Z \
    >"$T/lab.prom" || bad "report --format prometheus"
promtool check metrics <"$T/lab.prom" || bad "promtool check metrics"
# --out writes the same file (node_exporter's textfile directory)
"$LAB" report --format prometheus --since 2025-11-30T12:00:00Z \
    --out "$T/out.prom" >"$T/path" || bad "report --out"
[ "$(cat "$T/path")" = "$T/out.prom" ] || bad "--out: printed $(cat "$T/path")"
grep -v '^lab_report_generated_timestamp_seconds ' "$T/out.prom" >"$T/a"
grep -v '^lab_report_generated_timestamp_seconds ' "$T/lab.prom" >"$T/b"
cmp -s "$T/a" "$T/b" || bad "--out differs from stdout"

python3 - "$T/lab.prom" <<'PY' || bad "the samples"
import re, sys
text = open(sys.argv[1]).read()
helps = set(re.findall(r'^# HELP (\S+) ', text, re.M))
types = dict(re.findall(r'^# TYPE (\S+) (\S+)$', text, re.M))
samples = {}
for line in text.splitlines():
    if line.startswith('#'):
        continue
    m = re.match(r'^([a-z_]+)(\{.*\})? (\S+)$', line)
    assert m, line
    assert m.group(1) in helps and types[m.group(1)] == 'gauge', line
    samples[m.group(1) + (m.group(2) or '')] = float(m.group(3))
want = {
    'lab_power_on{host="microserver1"}': 1,
    'lab_power_on{host="microserver2"}': 0,
    'lab_power_on{host="neo"}': 1,
    'lab_bmc_reachable{host="neo"}': 0,
    'lab_bmc_reachable{host="microserver1"}': 1,
    'lab_link_speed_mbps{host="microserver1",nic="eth0",switch="sg200",port="gi1/0/3"}': 1000,
    'lab_link_speed_mbps{host="neo",nic="eth0",switch="sg200",port="gi\\"4\\\\\\nx"}': 100,
    'lab_findings{host="nas",severity="critical",kind="link-mismatch"}': 1,
    'lab_findings{host="nas",severity="warning",kind="disk-swapped"}': 1,
    'lab_findings{host="ml110",severity="warning",kind="nic-mac"}': 1,
    'lab_findings{host="neo",severity="warning",kind="slow-write-path"}': 1,
    'lab_drift_findings{host="nas"}': 4,
    'lab_drift_findings{host="neo"}': 0,
    'lab_drift_changes{host="microserver1"}': 1,
    'lab_drift_changes{host="nas"}': 3,
    'lab_bench_bytes_per_second{host="neo",slot="4",device="/dev/sdd",serial="WD-WCAV5MOVED",test="seq-write"}': 11.3e6,
    'lab_bench_bytes_per_second{host="neo",slot="4",device="/dev/sdd",serial="WD-WCAV5MOVED",test="seq-read"}': 107.1e6,
}
for k, v in want.items():
    assert k in samples, "missing " + k
    assert samples[k] == v, (k, samples[k], v)
assert 'lab_power_on{host="ml110"}' not in samples, "power of a host never checked"
assert 'lab_link_speed_mbps{host="microserver2",' not in text
PY
[ $fail = 0 ] && echo "prom: ok"
exit $fail
