#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab history HOST --bench and the report's Disks section on bench runs
# with the seed's figures (bench-seed.c: 117 MB/s SAS, 107 SATA, a SATA
# disk moved from ml110 to neo writing 11.3 MB/s against 31.6 on its
# peer): goldens in tests/report/bench/, and the HTML's charts counted.
# sh bench.sh LAB BENCH_SEED SRCDIR. LAB_BLESS=1 rewrites the goldens.
set -eu
LAB=$1
SEED=$2
SRC=$3
GOLD=$SRC/tests/report/bench
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
unset NO_COLOR || :
fail=0
bad() { echo "bench: $*" >&2; fail=1; }

# the report's time, the user and the audit log's times vary
norm() {
	sed -e "s|$T|\$T|g" -e "s/  $(id -un)  /  <USER>  /" \
	    -e "s/| $(id -un) |/| <USER> |/" \
	    -e "s/\"user\": \"$(id -un)\"/\"user\": \"<USER>\"/" \
	    -e '/2025-11-[0-9][0-9]T/!s/20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z/<TIME>/g'
}

golden() {	# golden NAME: $T/out against $GOLD/NAME
	if [ "${LAB_BLESS:-}" = 1 ]; then
		cp "$T/out" "$GOLD/$1"
	elif ! diff -u "$GOLD/$1" "$T/out"; then
		bad "$1 differs from $GOLD/$1"
	fi
}

cp -R "$SRC/inventory" "$T/inventory"
"$LAB" import "$T/inventory" >/dev/null 2>&1

# no bench run yet: no Disks section in any format, the IDE finding as
# before, and the history says there is none
for f in text markdown json html; do
	"$LAB" report --format $f --since 2000-01-01 >"$T/r0.$f"
	grep -q '"bench":\|^Disks\|^## Disks\|id="disks"\|href="#disks"' \
	    "$T/r0.$f" &&
	    bad "report $f: a Disks section without a bench run"
done
grep -q 'microserver1 disk odd: SSD on an IDE-emulation port: as a cache it runs at a fraction of its speed (set the port to AHCI in the BIOS, or use a bay)$' \
    "$T/r0.text" || bad "the IDE finding without a bench"
grep -q measured "$T/r0.text" && bad "a measured figure without a bench"
rc=0
"$LAB" history neo --bench >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 0 ] && grep -q 'no bench runs of neo' "$T/err" ||
    bad "history --bench without runs: exit $rc, $(cat "$T/err")"

"$SEED" "$LAB_DB" || { bad "bench-seed failed"; exit 1; }

"$LAB" history neo --bench >"$T/out" 2>"$T/err" || bad "history neo: $(cat "$T/err")"
golden history-neo.out
"$LAB" history neo --bench --json >"$T/out" || bad "history neo --json"
golden history-neo.json
"$LAB" history ml110 --bench --since 2025-11-27 >"$T/out" ||
    bad "history ml110 --since"
golden history-ml110-since.out
grep -q '^disk WD-WCAV5MOVED .*; moved: since then on neo slot 4 (run 6)$' \
    "$GOLD/history-ml110-since.out" || bad "history ml110: where it went"
# the disk that moved keeps its history: same serial, its ml110 run under
# neo's slot 4
grep -q '^disk WD-WCAV5MOVED .*slot 4, /dev/sdd, controller sc44ge; moved: it was on ml110 slot 1 (run 4)$' \
    "$GOLD/history-neo.out" || bad "history neo: no moved disk"
grep -q '^4 .* ml110 .* 1 .* 107\.0 .* 31\.6 ' "$GOLD/history-neo.out" ||
    bad "history neo: the moved disk's ml110 run is missing"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert [r["run"] for r in d] == [8, 6, 2, 1], [r["run"] for r in d]
assert d[0]["status"] == "failed" and d[0]["disks"] == [], d[0]
for r in d:
    assert set(r) == {"host", "run", "time", "profile", "status",
        "message", "disks"}, r
    for k in r["disks"]:
        assert set(k) == {"slot", "device", "serial", "model", "kind",
            "controller", "tests", "smart", "skipped", "why"}, k
        assert set(k["smart"]) == {"health", "model", "serial", "firmware",
            "reallocated", "pending", "offline_uncorrectable",
            "power_on_hours", "temperature_c", "message"}, k["smart"]
        assert k["skipped"] in (True, False), k
        for t in k["tests"]:
            assert set(t) == {"name", "mb_s", "iops", "lat_mean_ms",
                "lat_p99_ms", "target_kind", "target", "why"}, t
sdd = [k for k in d[1]["disks"] if k["slot"] == "4"][0]
assert [t["mb_s"] for t in sdd["tests"]][:2] == [107.1, 11.3], sdd' \
    "$GOLD/history-neo.json" || bad "history neo --json: shape"
# bad input: exit 2, naming why
for args in "--bench" "nosuch --bench" "neo --bench --power" \
    "neo --bench --run 1" "neo --bench --since yesterday"; do
	rc=0
	# shellcheck disable=SC2086
	"$LAB" history $args >/dev/null 2>"$T/err" || rc=$?
	[ $rc = 2 ] && [ -s "$T/err" ] || bad "history $args: exit $rc, want 2"
done

for f in text markdown json; do
	"$LAB" report --format $f --since 2000-01-01 | norm >"$T/out" ||
	    bad "report $f"
	golden report.$f
done
"$LAB" report --format html --since 2000-01-01 >"$T/r.html" || bad "report html"
python3 - "$T/r.html" <<'PY' || bad "report html: the Disks section"
import re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<section id="disks">(.*?)</section>', html, re.S)
assert m, "no Disks section"
disks = m.group(1)
assert '<script' not in disks
# every inline SVG is well-formed XML
import xml.etree.ElementTree as ET
for svg in re.findall(r'<svg .*?</svg>', disks, re.S):
    ET.fromstring(svg)
hosts = re.split(r'<h3>', disks)[1:]
names = [h.split('<', 1)[0] for h in hosts]
assert names == ["microserver1", "ml110", "ml115", "neo"], names
# one bar chart a host, a bar a disk a test
want_bars = {"microserver1": 4, "ml110": 4, "ml115": 4, "neo": 16}
for name, h in zip(names, hosts):
    svgs = re.findall(r'<svg class="bars".*?</svg>', h, re.S)
    assert len(svgs) == 1, (name, len(svgs))
    assert svgs[0].count('<rect ') == want_bars[name], (name,
        svgs[0].count('<rect '))
    assert 'data-bars="%d"' % want_bars[name] in svgs[0], name
# a sparkline of seq-read and of seq-write a disk with two runs or more,
# its points its runs by serial: the SAS disks 3, the moved one 2 (its
# ml110 run and neo's), ml115's one run none
neo = hosts[3]
rows = re.findall(r'<tr class="bench-disk">(.*?)</tr>', neo, re.S)
assert len(rows) == 4, len(rows)
pts = [re.findall(r'data-points="(\d+)"', r) for r in rows]
assert pts == [["3", "3"]] * 3 + [["2", "2"]], pts
assert re.findall(r'data-points="(\d+)"', hosts[2]) == [], "ml115"
assert re.findall(r'data-points="(\d+)"', hosts[1]) == ["2", "2"], "ml110"
# the findings name the numbers
f = re.search(r'<section id="findings">(.*?)</section>', html, re.S).group(1)
assert re.search(r'slow-write-path</span>: sdd \(slot 4, serial '
    r'WD-WCAV5MOVED\) writes 11\.3 MB/s but reads 107\.1 MB/s.*'
    r'controller sc44ge', f), "slow-write-path"
assert 'writes 11.3 MB/s, 0.36x the median 31.6 MB/s' in f, "slow-disk"
assert 'measured 96.2 MB/s read, 58.7 MB/s write (bench run 7)' in f
assert '<a href="#disks">Disks</a>' in html
PY
# the IDE finding: measured on microserver1 (benched), not on microserver2
grep -q 'microserver1 disk odd: .*or use a bay); measured 96\.2 MB/s read, 58\.7 MB/s write (bench run 7)$' \
    "$GOLD/report.text" || bad "the IDE finding with a bench"
grep -q 'microserver2 disk odd: .*or use a bay)$' "$GOLD/report.text" ||
    bad "the IDE finding without a bench"
[ $fail = 0 ] && echo "bench: ok"
exit $fail
