#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lib/snmp's VLAN side (issue 19) against the writable rig (vlan-rig.sh):
# several typed values in one SET PDU that snmpget then shows, a refused
# SET naming its OID (read-only community, one read-only OID, rolled
# back), createAndGo/destroy of a VLAN row, the probe on the three
# communities and the save. sh vlan-snmp.sh PROBE SRCDIR FIXTURES
set -eu
PROBE=$1
SRC=$2
FIX=$3
srcdir=$SRC
LAB_SNMP_FIXTURES=$FIX
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/snmp.sh"
. "$SRC/tests/integration/vlan-rig.sh"
snmp_require
command -v python3 >/dev/null || { echo "vlan-snmp.sh: no python3" >&2; exit 1; }

T=$(mktemp -d /tmp/lab-vlan-snmp.XXXXXX)
chmod 755 "$T"	# snmpsimd runs as nobody and reads its data below
harness_trap 'vlan_rig_stop "$T/rig"; [ -n "${KEEP:-}" ] || rm -rf "$T"'
NAME=vlan-snmp.sh
. "$SRC/tests/integration/check.sh"

vlan_rig_start "$T/rig"
A=$VLAN_RIG_ADDR
P=$VLAN_RIG_PORT
rw() { LAB_TEST_COMMUNITY=$VLAN_RIG_RW "$PROBE" "$A" "$P" "$@"; }
ro() { LAB_TEST_COMMUNITY=$VLAN_RIG_RO "$PROBE" "$A" "$P" "$@"; }
ios() { LAB_TEST_COMMUNITY=$VLAN_RIG_IOS "$PROBE" "$A" "$P" "$@"; }
sget() { snmpget -v2c -c "$VLAN_RIG_RW" -On -t 1 -r 1 "$A:$P" "$@"; }
check_pass() { ok; echo "ok $n: $*"; }

STATIC=1.3.6.1.2.1.17.7.1.4.3.1
PVID=1.3.6.1.2.1.17.7.1.4.5.1.1
ALIAS=1.3.6.1.2.1.31.1.1.1.18
MODE=1.3.6.1.4.1.9.6.1.101.48.22.1.1
ACCESS=1.3.6.1.4.1.9.6.1.101.48.62.1.1
LIST=$(python3 -c "print('00' * $VLAN_RIG_LIST_LEN)")
EGR=$(python3 -c "b = bytearray($VLAN_RIG_LIST_LEN); b[0] = 0x60
print(b.hex())")	# bridge ports 2 and 3

# the seeded state, as lab reads it and as snmpget shows it
rw get $PVID.5 $PVID.6 $MODE.23 $STATIC.4.2 >"$T/get.out"
grep -qx "$PVID.5 = u: 2" "$T/get.out" || fail "PVID of 5: $(cat "$T/get.out")"
grep -qx "$PVID.6 = u: 1" "$T/get.out" || fail "PVID of 6"
grep -qx "$MODE.23 = i: 12" "$T/get.out" || fail "mode of 23"
grep -q "^$STATIC.4.2 = x: 08000000" "$T/get.out" || fail "untagged of 2"
sget $PVID.5 | grep -q "Gauge32: 2$" || fail "snmpget PVID of 5"

# lab_vlan_read against snmpwalk: VLAN ids, every port's PVID, lists
rw read >"$T/read.out"
has read.out "^list_len $VLAN_RIG_LIST_LEN qbridge 1 ciscosb 1 address $A "
has read.out "^vlan 2 Schule egress 5,23,24 untagged 5\$"
has read.out "^vlan 3 3_Frei egress 23,24 untagged -\$"
has read.out "^port 23 23 gi1/0/23 mode trunk pvid 1 access 1 native 1 "
has read.out "^port 5 5 gi1/0/5 mode access pvid 2 access 2 native 1 "
has read.out "^port 1000 1000 Po1 .* is_lag 1\$"
snmpbulkwalk -v2c -c "$VLAN_RIG_RW" -On -Cr25 "$A:$P" $STATIC.5 |
	sed 's/.*\.\([0-9]*\) = .*/\1/' >"$T/walk.vlans"
awk '$1 == "vlan" { print $2 }' "$T/read.out" >"$T/read.vlans"
cmp -s "$T/walk.vlans" "$T/read.vlans" || fail "VLANs differ from snmpwalk"
[ "$(wc -l <"$T/walk.vlans")" -eq 12 ] || fail "not 12 VLANs"
snmpbulkwalk -v2c -c "$VLAN_RIG_RW" -On -Cr25 "$A:$P" $PVID |
	sed 's/.*\.\([0-9]*\) = Gauge32: \([0-9]*\)$/\1 \2/' >"$T/walk.pvid"
awk '$1 == "port" && $3 != 0 { print $2, $8 }' "$T/read.out" >"$T/read.pvid"
cmp -s "$T/walk.pvid" "$T/read.pvid" || fail "PVIDs differ from snmpwalk"
[ "$(wc -l <"$T/read.pvid")" -eq 216 ] || fail "not 216 bridge ports"
if ios read >/dev/null 2>"$T/ios-read.err"; then fail "read of the 2960-X"; fi
has ios-read.err "switch $A:$P: no Q-BRIDGE-MIB VLAN table"
check_pass "lab_vlan_read equals snmpwalk (12 VLANs, 216 PVIDs, lists, modes)"

# several typed values in one PDU: a new VLAN and its members
rw set $STATIC.5.300 i 4 $STATIC.1.300 s lab300 $STATIC.2.300 x "$EGR" \
    $PVID.2 u 300 $ACCESS.2 i 300 $ALIAS.2 s "node1 eth0" >"$T/set.out"
grep -qx "sets: 1 varbinds: 6" "$T/set.out" || fail "set: $(cat "$T/set.out")"
sget $STATIC.1.300 | grep -q '"lab300"' || fail "name of 300"
sget $PVID.2 | grep -q "Gauge32: 300$" || fail "PVID of 2"
sget $ACCESS.2 | grep -q "INTEGER: 300$" || fail "access VLAN of 2"
sget $ALIAS.2 | grep -q '"node1 eth0"' || fail "alias of 2"
rw get $STATIC.2.300 | grep -qx "$STATIC.2.300 = x: $EGR" || fail "egress of 300"
check_pass "set of 6 varbinds in one PDU, snmpget shows them"

# a read-only OID: its PDU is refused, named, and rolled back
vlan_rig_readonly "$ALIAS.3"
if rw set $PVID.3 u 300 $ALIAS.3 s x 2>"$T/ro1.err"; then
	fail "a SET of a read-only OID was taken"
fi
grep -q "failed: 1" "$T/ro1.err" || fail "errorIndex: $(cat "$T/ro1.err")"
grep -q "switch $A:$P: SET $ALIAS.3: notWritable" "$T/ro1.err" ||
	fail "message: $(cat "$T/ro1.err")"
sget $PVID.3 | grep -q "Gauge32: 1$" || fail "PVID of 3 not rolled back"
check_pass "notWritable names its OID, the PDU is rolled back"

# the read-only community
if ro set $PVID.4 u 300 2>"$T/ro2.err"; then fail "ro community took a SET"; fi
grep -q "switch $A:$P: SET $PVID.4: noAccess" "$T/ro2.err" ||
	fail "ro message: $(cat "$T/ro2.err")"
grep -q "$VLAN_RIG_RO\|$VLAN_RIG_RW" "$T/ro2.err" && fail "community in a message"
check_pass "the read-only community is refused with noAccess"

# destroy; VLAN 1 cannot go
rw set $STATIC.5.300 i 6 >/dev/null
rw get $STATIC.1.300 | grep -qx "$STATIC.1.300 = absent" || fail "300 not destroyed"
if rw set $STATIC.5.1 i 6 2>"$T/d1.err"; then fail "VLAN 1 destroyed"; fi
grep -q "SET $STATIC.5.1: wrongValue" "$T/d1.err" || fail "$(cat "$T/d1.err")"
check_pass "destroy(6) deletes a VLAN row, not VLAN 1"

# the probe on the three communities
vlan_rig_seed
sget $ALIAS.2 | grep -q '"node1 eth0"' && fail "seed left ifAlias.2"
sget $PVID.2 | grep -q "Gauge32: 1$" || fail "seed left PVID of 2"
rw probe >"$T/probe.rw"
grep -qx "qbridge 1 ciscosb 1 copy 1 writable 1" "$T/probe.rw" ||
	fail "probe rw: $(cat "$T/probe.rw")"
ro probe >"$T/probe.ro"
grep -qx "qbridge 1 ciscosb 1 copy 1 writable 0" "$T/probe.ro" ||
	fail "probe ro: $(cat "$T/probe.ro")"
grep -q "^why: switch $A:$P: SET $PVID.1: noAccess" "$T/probe.ro" ||
	fail "probe ro why: $(cat "$T/probe.ro")"
ios probe >"$T/probe.ios"
grep -q "ciscosb 0 copy 0 writable 0" "$T/probe.ios" ||
	fail "probe ios: $(cat "$T/probe.ios")"
check_pass "probe: writable on rw, not on ro, no CISCOSB on the 2960-X"

# the save
rw save | grep -qx saved || fail "save"
if ios save 2>"$T/save.err"; then fail "save on the 2960-X"; fi
grep -q "no CISCOSB copy table" "$T/save.err" || fail "$(cat "$T/save.err")"
check_pass "save: running-config to startup-config; a clear error without rlCopyTable"
