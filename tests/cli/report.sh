#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Golden tests of the report's text, markdown, JSON and HTML renderers on four
# databases built here: empty (init only), inventory only (no power, no
# switch data), and populated (power, ports, links, findings inserted with
# sqlite3), and shares (tests/plan/shares.yaml: the Shares section):
# sh report.sh LAB SRCDIR. LAB_BLESS=1 rewrites the goldens.
set -eu
LAB=$1
SRC=$2
GOLD=$SRC/tests/cli/report
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
. "$SRC/tests/integration/pgsrv.sh"
export LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
fail=0
if ! command -v sqlite3 >/dev/null; then
	echo "report: no sqlite3 (package sqlite3)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi

# times and the user vary from run to run
norm() {
	sed -e "s|$T|\$T|g" -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z/<TIME>/g' \
	    -e "s/  $(id -un)  /  <USER>  /" -e "s/| $(id -un) |/| <USER> |/" \
	    -e "s/\"user\": \"$(id -un)\"/\"user\": \"<USER>\"/" \
	    -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9] UTC/<TIME>/g' \
	    -e 's/([0-9a-z ]* ago)/(<AGO>)/g' -e 's/(just now)/(<AGO>)/g' \
	    -e 's/>[0-9a-z ]* ago</><AGO></g' -e "s/>$(id -un)</><USER></g"
}

check() {	# check DB NAME
	# LAB_TEST_DB=postgres (on-pg.sh): the same lab on PostgreSQL
	db=$(testdb_copy "$LAB" "$1") || { fail=1; return 0; }
	for f in text markdown json html; do
		# a report only reads, so each format sees the same
		# database; --since before any run: no baseline
		"$LAB" --db "$db" report --format $f --since 2000-01-01 \
		    2>"$T/err" | norm >"$T/out" || {
			echo "report: $2 $f: exit $?: $(cat "$T/err")" >&2
			fail=1
		}
		if [ "${LAB_BLESS:-}" = 1 ]; then
			cp "$T/out" "$GOLD/$2.$f"
		elif ! diff -u "$GOLD/$2.$f" "$T/out"; then
			echo "report: $2 $f differs from $GOLD/$2.$f" >&2
			fail=1
		fi
	done
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("hosts", "switches", "changes", "findings", "generated_at",
    "summary"):
	assert k in d, k
for f in d["findings"]:
	assert set(("severity", "subject", "message")) <= set(f), f' \
	    "$GOLD/$2.json" || { echo "report: $2.json shape" >&2; fail=1; }
}

cp -R "$SRC/inventory" "$T/inventory"
"$LAB" --db "$T/empty.db" init >/dev/null
check "$T/empty.db" empty

"$LAB" --db "$T/inv.db" import "$T/inventory" >/dev/null 2>&1
check "$T/inv.db" inventory

"$LAB" --db "$T/full.db" import "$T/inventory" >/dev/null 2>&1
sqlite3 "$T/full.db" <<'END'
UPDATE switches SET sys_descr = 'SG200-26 26-Port Gigabit Smart Switch',
    discovered_at = 1764525600 WHERE name = 'sg200';
INSERT INTO power_state (host_id, state, seen_at, checked_at, bmc_reachable,
    error) SELECT id, 'on', 1764525600, 1764525600, 1, NULL FROM hosts
    WHERE name = 'microserver1';
INSERT INTO power_state (host_id, state, seen_at, checked_at, bmc_reachable,
    error) SELECT id, NULL, NULL, 1764525600, 0, 'session timeout'
    FROM hosts WHERE name = 'microserver2';
INSERT INTO power_state (host_id, state, seen_at, checked_at, bmc_reachable,
    error) SELECT id, 'off', 1764525600, 1764525600, 1, NULL FROM hosts
    WHERE name = 'neo';
-- the sparklines' series, an hour apart up to now (the window is the
-- last 30 days: times relative to now keep the drawing the same)
INSERT INTO power_events (host_id, time, action, ok, state, source)
    SELECT id, strftime('%s', 'now') - v.column1, v.column2, v.column3,
    v.column4, 'power ' || v.column2 FROM hosts, (VALUES
    (10800, 'status', 1, 'off'), (7200, 'on', 1, 'on'),
    (3600, 'status', 0, NULL), (0, 'status', 1, 'on'))
    AS v WHERE name = 'microserver1';
INSERT INTO sensor_readings (host_id, run, time, name, type, unit, value,
    state, source) SELECT id, v.column1, strftime('%s', 'now') - v.column2,
    'CPU <Temp> & "1"', 'temperature', 'degrees C', v.column3, 'nominal',
    'sensors --record' FROM hosts, (VALUES (1, 10800, 41.5), (2, 7200, 48),
    (3, 3600, NULL), (4, 0, 44)) AS v WHERE name = 'microserver1';
INSERT INTO switch_ports (switch_id, ifindex, name, alias, oper_status,
    admin_status, speed_mbps, duplex, seen_at, type, speed_suspect)
    SELECT s.id, v.column1, v.column2, v.column3, v.column4, 'up', v.column5,
    v.column6, 1764525600, 6, 0 FROM switches s, (VALUES
    (1, 'gi1', 'microserver1 eth0', 'up', 1000, 'full'),
    (2, 'gi2', NULL, 'up', 1000, 'full'),
    (3, 'gi3', 'neo eth0', 'up', 100, 'half'),
    (4, 'gi4', 'uplink', 'up', 1000, 'full'),
    (5, 'gi5', NULL, 'down', 0, NULL),
    (1000, 'Po1', NULL, 'up', 1000, 'full')) v WHERE s.name = 'sg200';
INSERT INTO switch_vlans (switch_id, vlan_id, name, egress, untagged)
    SELECT id, 1, 'default', '1,2,3,4,5,1000', '1,2,3,5,1000' FROM switches;
INSERT INTO switch_vlans (switch_id, vlan_id, name, egress, untagged)
    SELECT id, 20, 'storage', '4', '4' FROM switches;
INSERT INTO switch_lags (switch_id, ifindex, members)
    SELECT id, 1000, '4' FROM switches;
INSERT INTO switch_neighbors (switch_id, ifindex, protocol, remote_device,
    remote_port, platform, address, seen_at)
    SELECT id, 4, 'cdp', 'core', 'gi0/1', 'C2960', NULL, 1764525600
    FROM switches;
INSERT INTO switch_fdb (switch_id, mac, vlan, ifindex, seen_at)
    SELECT id, '00:26:55:d1:0a:01', 1, 1, 1764525600 FROM switches;
INSERT INTO switch_fdb (switch_id, mac, vlan, ifindex, seen_at)
    SELECT id, '52:54:00:12:34:56', 1, 2, 1764525600 FROM switches;
INSERT INTO nic_links (host_id, nic, mac, switch_id, port, ifindex, source,
    first_seen, last_seen) SELECT h.id, 'eth0', '00:26:55:d1:0a:01', s.id,
    'gi1', 1, 'fdb', 1764525600, 1764525600 FROM hosts h, switches s
    WHERE h.name = 'microserver1';
INSERT INTO nic_links (host_id, nic, mac, switch_id, port, ifindex, source,
    first_seen, last_seen) SELECT h.id, 'eth0', '00:1e:0b:d3:20:01', s.id,
    'gi3', 3, 'fdb', 1764439200, 1764525600 FROM hosts h, switches s
    WHERE h.name = 'neo';
INSERT INTO switch_findings (switch_id, severity, kind, subject, message,
    seen_at) SELECT id, 'warning', 'slow-port', 'sg200 gi3',
    'neo eth0 at 100 Mb/s half duplex', 1764525600 FROM switches;
INSERT INTO switch_findings (switch_id, severity, kind, subject, message,
    seen_at) SELECT id, 'info', 'unknown-mac', 'sg200 gi2',
    'MAC 52:54:00:12:34:56 belongs to no inventory NIC', 1764525600
    FROM switches;
END
check "$T/full.db" populated

# the Shares section (issue 21): each share of the planners' inventory
# with its clients as written and the hosts that mount it
cp "$SRC/tests/plan/shares.yaml" "$T/shares.yaml"
"$LAB" --db "$T/shares.db" import "$T/shares.yaml" >/dev/null 2>&1
check "$T/shares.db" shares

# a second report says when the first was; the first says there was none
"$LAB" --db "$T/inv.db" report --record >/dev/null
"$LAB" --db "$T/inv.db" report | grep -q '^Changes (since the report of ' ||
	{ echo "report: the second run does not name the first" >&2; fail=1; }
# --out writes the file atomically, mode 0644, and prints its path
"$LAB" --db "$T/inv.db" report --format json --out "$T/r.json" >"$T/path"
[ "$(cat "$T/path")" = "$T/r.json" ] || { echo "report: --out path" >&2; fail=1; }
[ "$(stat -c %a "$T/r.json")" = 644 ] || { echo "report: --out mode" >&2; fail=1; }
for f in "$T"/r.json.*; do
	[ -e "$f" ] && { echo "report: temp file $f left" >&2; fail=1; }
done
python3 -m json.tool "$T/r.json" >/dev/null || { echo "report: --out json" >&2; fail=1; }
# --json is --format json; bad options are usage errors
"$LAB" --db "$T/inv.db" report --json --since 24h | python3 -m json.tool \
    >/dev/null || { echo "report: --json" >&2; fail=1; }
for bad in "--format pdf" "--since yesterday" "--timeout 0"; do
	rc=0
	# shellcheck disable=SC2086
	"$LAB" --db "$T/inv.db" report $bad >/dev/null 2>&1 || rc=$?
	[ $rc = 2 ] || { echo "report: '$bad' exit $rc, want 2" >&2; fail=1; }
done
# contrib/lab-report-nightly writes a dated report and keeps the newest N
mkdir "$T/nightly"
runs0=$(sqlite3 "$T/inv.db" 'SELECT count(*) FROM report_runs')
for d in 20260101 20260102 20260103; do : >"$T/nightly/report-$d.html"; done
LAB=$LAB LAB_DB="$T/inv.db" sh "$SRC/contrib/lab-report-nightly" \
    "$T/nightly" 2 >/dev/null || { echo "report: nightly failed" >&2; fail=1; }
today=report-$(date -u +%Y%m%d).html
[ "$(cd "$T/nightly" && echo report-*.html)" = "report-20260103.html $today" ] &&
    grep -q '<html' "$T/nightly/$today" ||
	{ echo "report: nightly kept $(ls "$T/nightly")" >&2; fail=1; }
# the nightly run records the baseline of the next reports
[ "$(sqlite3 "$T/inv.db" 'SELECT count(*) FROM report_runs')" = $((runs0 + 1)) ] ||
	{ echo "report: the nightly run recorded no report run" >&2; fail=1; }
[ $fail = 0 ] && echo "report: ok"
exit $fail
