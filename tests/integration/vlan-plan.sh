#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab switch plan (issue 19) against the writable rig (vlan-rig.sh, on
# 127.0.105.1): the example lab's plan (access), a trunk with native 1,
# a native VLAN other than 1, a rename and --prune against goldens in
# vlan-plan/ (LAB_BLESS=1 rewrites them), one --json; the rig's VLAN
# tables the same before and after (snmpwalk); an uplink the last discovery found (a
# switch as CDP neighbour) refused; plan-time input errors exit 2 naming
# file:line:col with the database unchanged: a port the switch lacks, an
# ambiguous short form (gi7 on a stack of four), a NIC wish and a ports:
# entry that disagree (and again after a re-import where only their lines
# moved: the error names the new lines), a NIC VLAN the switch neither
# declares nor has; the fast read (changed ports only) used, and a stale
# stored structure (a port renamed, two swapped, the bridge map moved, a
# LAG, a discovery of before schema 015) read whole with the same plan.
# sh vlan-plan.sh LAB SRCDIR FIXTURES
set -eu
LAB=$1
SRC=$2
FIX=$3
srcdir=$SRC
LAB_SNMP_FIXTURES=$FIX
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/snmp.sh"
. "$SRC/tests/integration/vlan-rig.sh"
snmp_require
command -v python3 >/dev/null || { echo "vlan-plan.sh: no python3" >&2; exit 1; }

T=$(mktemp -d /tmp/lab-vlan-plan.XXXXXX)
chmod 755 "$T"
harness_trap 'vlan_rig_stop "$T/rig"; [ -n "${KEEP:-}" ] || rm -rf "$T"'
NAME=vlan-plan.sh
. "$SRC/tests/integration/check.sh"

VLAN_RIG_ADDR=127.0.105.1
vlan_rig_start "$T/rig"
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/cred.yaml"
printf 'sg200-ro: {community: %s}\n' "$VLAN_RIG_RW" >"$LAB_CREDENTIALS"
chmod 600 "$LAB_CREDENTIALS"
# the example lab pointed at the rig; microserver1 eth0 gets the MAC the
# capture has on gi1/0/22
sed -e 's/192\.0\.2\./127.0.3./g' \
    -e "s/address: 127\.0\.3\.2\$/address: $VLAN_RIG_ADDR/" \
    -e "s/^    port: 161\$/    port: $VLAN_RIG_PORT/" \
    -e 's/00:26:55:d1:0a:01/00:0c:15:03:b0:b7/' \
    "$SRC/inventory/lab.yaml" >"$T/lab.yaml"

walk() {
	for o in 1.3.6.1.2.1.17.7.1.4.3.1 1.3.6.1.2.1.17.7.1.4.5.1.1; do
		snmpwalk -v2c -c "$VLAN_RIG_RW" -On -t 2 -r 1 "$VLAN_RIG_PEER" $o
	done
}
dbsum() { python3 -c "
import sqlite3, sys, hashlib
c = sqlite3.connect(sys.argv[1])
print(hashlib.sha256('\n'.join(c.iterdump()).encode()).hexdigest())" "$LAB_DB"; }

run import import "$T/lab.yaml"
[ "$(rc import)" = 0 ] || { cat "$T/import.err" >&2; fail "import"; }
run discover switch discover sg200
[ "$(rc discover)" = 0 ] || { cat "$T/discover.err" >&2; fail "discover"; }

# --- the plan changes nothing on the switch
walk >"$T/before.walk"
[ -s "$T/before.walk" ] || fail "empty walk"
run plan switch plan sg200
[ "$(rc plan)" = 0 ] || { cat "$T/plan.err" >&2; fail "plan exit $(rc plan)"; }
has plan.out 'gi1/0/22'
has plan.out 'gi1/0/7'
run json switch plan sg200 --json
[ "$(rc json)" = 0 ] || fail "plan --json exit $(rc json)"
python3 -c "import json,sys; d = json.load(open(sys.argv[1])); assert d[0]" \
    "$T/json.out" || fail "plan --json is not a list of plans"
walk >"$T/after.walk"
cmp -s "$T/before.walk" "$T/after.walk" || {
	diff "$T/before.walk" "$T/after.walk" | head >&2
	fail "plan changed the switch"
}
ok

# --- goldens in tests/integration/vlan-plan/ (LAB_BLESS=1 rewrites them)
# golden NAME: $T/NAME.out against vlan-plan/NAME.txt
golden() {
	_g=$SRC/tests/integration/vlan-plan/$1.txt
	if [ -n "${LAB_BLESS:-}" ]; then
		cp "$T/$1.out" "$_g"
		return 0
	fi
	[ -f "$_g" ] || fail "no golden $_g (LAB_BLESS=1 writes it)"
	diff -u "$_g" "$T/$1.out" >&2 || fail "$1 differs from its golden"
}
# aligned NAME: in $T/NAME the second column of the VLAN and port lines
# starts at one offset, and the arrows of the port lines ("1 -> 20") too
aligned() {
	python3 -c '
import re, sys
col, arrow = set(), set()
for line in open(sys.argv[1]):
	m = re.match(r"  (VLAN [0-9]+|[^ ]+) +([^ ]+)", line)
	if not m or m.group(1) in ("untouched:", "note:", "REFUSED"):
		continue
	col.add(m.start(2))
	if not m.group(1).startswith("VLAN "):
		arrow.add(line.index(" -> "))
sys.exit(0 if len(col) == 1 and len(arrow) <= 1 else 1)' "$T/$1" ||
	    fail "$1: the columns do not line up"
}
# scenario NAME SED [ARGS]: plan the example lab edited by SED
scenario() {
	_s=$1
	sed "$2" "$T/lab.yaml" >"$T/$_s.yaml"
	shift 2
	run "$_s-import" import "$T/$_s.yaml"
	[ "$(rc "$_s-import")" = 0 ] || { cat "$T/$_s-import.err" >&2; fail "$_s import"; }
	run "$_s" switch plan sg200 "$@"
	[ "$(rc "$_s")" = 0 ] || { cat "$T/$_s.err" >&2; fail "$_s: exit $(rc "$_s")"; }
	golden "$_s"
	ok
}
cp "$T/plan.out" "$T/access.out"
golden access
cp "$T/json.out" "$T/access-json.out"
golden access-json

# --- the fast read: over the structure the discovery stored, the plan
# reads the VLAN table and the changed ports only, and checks what it
# meets of that structure against the switch. A stale structure (each
# edit below makes the database disagree with the switch) falls back to
# reading every port: the same plan, "whole": true.
whole() {
	python3 -c 'import json, sys
print(str(json.load(open(sys.argv[1]))[0]["read"]["whole"]).lower())' "$T/$1"
}
[ "$(whole json.out)" = false ] || fail "the plan read every port"
sql() { python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' \
    "$LAB_DB" "$1"; }
IX7="(SELECT ifindex FROM switch_ports WHERE name = 'gi1/0/7')"
IX8="(SELECT ifindex FROM switch_ports WHERE name = 'gi1/0/8')"
# stale NAME SQL [uplink]: the plan with the database edited by SQL; a
# LAG member is also an uplink, which that plan refuses
stale() {
	sql "$2"
	run "stale-$1" switch plan sg200
	[ "$(rc "stale-$1")" = 0 ] || { cat "$T/stale-$1.err" >&2; fail "stale $1: exit $(rc "stale-$1")"; }
	if [ -n "${3:-}" ]; then
		grep -v "^  REFUSED.*gi1/0/7: .* off an uplink" "$T/stale-$1.out" \
		    >"$T/stale-$1.cut"
		mv "$T/stale-$1.cut" "$T/stale-$1.out"
	fi
	cmp -s "$T/access.out" "$T/stale-$1.out" || {
		diff "$T/access.out" "$T/stale-$1.out" | head >&2
		fail "stale $1: the plan differs"
	}
	run "stale-$1-json" switch plan sg200 --json
	[ "$(whole "stale-$1-json.out")" = true ] || fail "stale $1: not read whole"
	run "stale-$1-rediscover" switch discover sg200
	[ "$(rc "stale-$1-rediscover")" = 0 ] || fail "stale $1: discover"
	ok
}
stale renamed "UPDATE switch_ports SET name = 'gi9/9/9' WHERE name = 'gi1/0/7'"
stale swapped "UPDATE switch_ports SET name = CASE name WHEN 'gi1/0/7' THEN 'gi1/0/8' ELSE 'gi1/0/7' END WHERE name IN ('gi1/0/7', 'gi1/0/8')"
stale bridge "UPDATE switch_ports SET bridge_port = bridge_port + 500 WHERE bridge_port IS NOT NULL"
stale lag "INSERT INTO switch_lags (switch_id, ifindex, members) SELECT id, $IX8, $IX7 FROM switches WHERE name = 'sg200'" uplink
stale old "UPDATE switch_ports SET bridge_port = NULL"
run fast-again switch plan sg200 --json
[ "$(whole fast-again.out)" = false ] || fail "rediscovered: still read whole"

V='s|vlans: \[{id: 20, name: storage}|vlans: [{id: 10, name: ten}, {id: 20, name: storage}|'
scenario trunk "$V;s|port: gi1/0/7, vlan: 30,|port: gi1/0/7, vlans: [10, 20], native: 1,|"
scenario native "$V;s|port: gi1/0/7, vlan: 30,|port: gi1/0/7, vlans: [10, 20], native: 20,|"
scenario rename 's|vlans: \[{id: 20, name: storage}|vlans: [{id: 3, name: renamed}, {id: 20, name: storage}|'
scenario prune 's|^$||' --prune
# VLAN 1 and the VLANs untouched ports carry (2, 3 in the capture) stay
has prune.out 'VLAN 12 *delete'
! grep -q 'VLAN [123] *delete' "$T/prune.out" || fail "prune deletes VLAN 1, 2 or 3"
# the columns line up: VLAN 4 and VLAN 12, gi1/0/7 and gi1/0/22
for _s in access trunk native rename prune; do
	aligned "$_s.out"
done
ok
walk >"$T/after2.walk"
cmp -s "$T/before.walk" "$T/after2.walk" || fail "a plan changed the switch"

# --- gi1/0/14 has a switch as CDP neighbour in the capture: the last
# discovery found it an uplink (nothing declares it), so a wish that takes
# VLAN 1 off it is refused
sed 's|ports: \[{port: gi1/0/7,|ports: [{port: gi1/0/14,|' "$T/lab.yaml" \
    >"$T/uplink.yaml"
run uplink-import import "$T/uplink.yaml"
[ "$(rc uplink-import)" = 0 ] || { cat "$T/uplink-import.err" >&2; fail "uplink import"; }
run uplink switch plan sg200
[ "$(rc uplink)" = 0 ] || { cat "$T/uplink.err" >&2; fail "uplink: exit $(rc uplink)"; }
has uplink.out "REFUSED.*gi1/0/14: takes the management VLAN 1 off an uplink"
ok

# --- input errors at plan time: exit 2, file:line:col, database unchanged
# bad NAME SED REGEX: the example lab edited by SED
bad() {
	sed "$2" "$T/lab.yaml" >"$T/$1.yaml"
	! cmp -s "$T/lab.yaml" "$T/$1.yaml" || fail "$1: sed did nothing"
	run "$1-import" import "$T/$1.yaml"
	[ "$(rc "$1-import")" = 0 ] || { cat "$T/$1-import.err" >&2; fail "$1 import"; }
	_sum=$(dbsum)
	run "$1" switch plan sg200
	[ "$(rc "$1")" = 2 ] || { cat "$T/$1.err" >&2; fail "$1: exit $(rc "$1")"; }
	has "$1.err" "$T/$1.yaml:[0-9]*:[0-9]*: "
	has "$1.err" "$3"
	[ "$(dbsum)" = "$_sum" ] || fail "$1: the database changed"
	ok
}
P='s|ports: \[{port: gi1/0/7,|ports: [{port:'
bad noport "$P gi99,|" "switch sg200 has no port 'gi99'"
bad ambiguous "$P gi7,|" \
    "port 'gi7' is ambiguous on switch sg200: gi1/0/7, gi2/0/7, gi3/0/7, gi4/0/7"
# the ports: entry says 30 for the port microserver1 eth0 (which wants 20) is on
bad disagree "$P gi1/0/22,|" \
    "^lab: switch plan: $T/disagree.yaml:[0-9]*:[0-9]*: port gi1/0/22: the ports: entry and microserver1 eth0's VLANs (at .*) disagree"
# only microserver1 eth0's line moves (a comment line above it) and the
# file is imported again: nothing declared changed, yet the error names
# the lines the NIC's wish and the ports: entry are on now
sed -i '/00:0c:15:03:b0:b7/i\      # moved down a line' "$T/disagree.yaml"
L=$(grep -n '00:0c:15:03:b0:b7' "$T/disagree.yaml" | cut -d: -f1)
P=$(grep -n 'ports: \[{port: gi1/0/22' "$T/disagree.yaml" | cut -d: -f1)
run moved-import import "$T/disagree.yaml"
[ "$(rc moved-import)" = 0 ] || { cat "$T/moved-import.err" >&2; fail "moved import"; }
run moved switch plan sg200
[ "$(rc moved)" = 2 ] || { cat "$T/moved.err" >&2; fail "moved: exit $(rc moved)"; }
has moved.err "^lab: switch plan: $T/disagree.yaml:$P:[0-9]*: port gi1/0/22: .* microserver1 eth0's VLANs (at $T/disagree.yaml:$L:[0-9]*) disagree"
ok
bad undeclared 's|"00:0c:15:03:b0:b7", vlan: 20}|"00:0c:15:03:b0:b7", vlan: 77}|' \
    "VLAN 77 is not declared on switch sg200, which does not have it"

echo "$NAME: $n groups of checks passed"
