#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The report's Drift section and lab show's facts on two facts runs with a
# report run between them (drift-seed.c): a RAC firmware upgraded, a disk
# swapped, an extra disk, a link at 100 half on a gigabit port,
# NetworkManager on a NIC lab bonds, a host whose first facts are not
# changes. Goldens in tests/report/drift/; no Drift section before any
# facts. sh drift.sh LAB DRIFT_SEED SRCDIR. LAB_BLESS=1 rewrites them.
set -eu
LAB=$1
SEED=$2
SRC=$3
GOLD=$SRC/tests/report/drift
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
unset NO_COLOR || :
fail=0
bad() { echo "drift: $*" >&2; fail=1; }

# the report's time, the user and the audit log's times vary
norm() {
	sed -e "s|$T|\$T|g" -e "s/  $(id -un)  /  <USER>  /" \
	    -e "s/| $(id -un) |/| <USER> |/" \
	    -e "s/\"user\": \"$(id -un)\"/\"user\": \"<USER>\"/" \
	    -e '/2025-1[12]-[0-9][0-9]T/!s/20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z/<TIME>/g'
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

# no facts yet: no Drift section in any format
for f in text markdown json html; do
	"$LAB" report --format $f --since 2000-01-01 >"$T/r0.$f"
	grep -q '"drift":\|^Drift\|^## Drift\|id="drift"\|href="#drift"' \
	    "$T/r0.$f" && bad "report $f: a Drift section without facts"
done
"$LAB" show nas >"$T/out"
grep -q '^facts' "$T/out" && bad "show nas: facts without a facts run"

"$SEED" "$LAB_DB" || { bad "drift-seed failed"; exit 1; }

SINCE=2025-11-30T12:00:00Z
for f in text markdown json; do
	"$LAB" report --format $f --since $SINCE | norm >"$T/out" ||
	    bad "report $f"
	golden report.$f
done
grep -q '^    2025-12-01T00:00:00Z  microserver1 bmc.firmware: 1.20 -> 1.30$' \
    "$GOLD/report.text" || bad "report: the firmware upgrade"
grep -q '^    2025-12-01T00:00:00Z  nas disk.sdb.serial: WD-WCAZA0000002 -> WD-WCAZA0000009$' \
    "$GOLD/report.text" || bad "report: the disk swap"
grep -q 'nas kernel: gone (was 6.1.0-40-amd64)$' "$GOLD/report.text" ||
    bad "report: a fact gone"
grep -q 'nas disk.sdf.serial: new: USB-0042$' "$GOLD/report.text" ||
    bad "report: a new fact of a known host"
grep -q 'ml110 .*: new' "$GOLD/report.text" &&
    bad "report: the first facts of a host listed as changes"
grep -q '^    warning  nic-mac: ml110 NIC eth0: the inventory says MAC 00:1e:0b:5a:11:01, the host sees 00:1e:0b:5a:11:99$' "$GOLD/report.text" ||
    bad "report: ml110's finding"
grep -q '^    critical link-mismatch: nas eth0 link: the host sees 100 Mb/s half duplex on eth0, sg200 port gi1/0/3 says 1000 Mb/s full duplex' \
    "$GOLD/report.text" || bad "report: the link"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["drift"]
assert set(d) == {"findings", "changes"}, d
for f in d["findings"]:
    assert set(f) == {"target_kind", "target", "severity", "kind",
        "subject", "message", "seen_at"}, f
kinds = sorted((f["target"], f["kind"]) for f in d["findings"])
# the swap is one finding: not also slot 2 missing and sdb extra
assert kinds == [("ml110", "nic-mac"), ("nas", "disk-extra"),
    ("nas", "disk-swapped"), ("nas", "link-mismatch"),
    ("nas", "networkmanager")], kinds
ch = [(c["target"], c["key"], c["from"], c["to"]) for c in d["changes"]]
assert ("microserver1", "bmc.firmware", "1.20", "1.30") in ch, ch
assert ("nas", "disk.sdb.serial", "WD-WCAZA0000002",
    "WD-WCAZA0000009") in ch, ch
assert all(c[0] != "ml110" for c in ch), ch' "$GOLD/report.json" ||
    bad "report json: the drift object"
"$LAB" report --format html --since $SINCE >"$T/r.html" || bad "report html"
python3 - "$T/r.html" <<'PY' || bad "report html: the Drift section"
import re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<section id="drift">(.*?)</section>', html, re.S)
assert m, "no Drift section"
d = m.group(1)
assert '<a href="#drift">Drift</a>' in html
assert d.count('<tr class="') == 5, d.count('<tr class="')
assert '<td>1.20 -&gt; 1.30</td>' in d
assert 'sev-critical' in d
PY

"$LAB" show nas >"$T/out" 2>&1 || bad "show nas"
golden show-nas.out
"$LAB" show nas --json >"$T/out" 2>&1 || bad "show nas --json"
golden show-nas.json
"$LAB" show microserver1 >"$T/out" 2>&1 || bad "show microserver1"
golden show-microserver1.out
grep -q "^  warning  disk-swapped: nas disk 2 (sdb): serial was WD-WCAZA0000002, now WD-WCAZA0000009 .*write /dev/disk/by-id/ata-WDC_WD20EARS-00MVWB0_WD-WCAZA0000009$" \
    "$GOLD/show-nas.out" || bad "show nas: the swap"
grep -q "^facts:    7 current, last seen 2025-12-01T00:00:00Z" \
    "$GOLD/show-nas.out" || bad "show nas: the facts"
[ $fail = 0 ] && echo "drift: ok"
exit $fail
