#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab_vlan_encode and lab_vlan_exec (issue 19) against the writable rig
# (vlan-rig.sh, on 127.0.102.1): a plan that creates VLAN 20, moves
# gi1/0/6..8 there and renames VLAN 3, as snmpget then shows it; 24
# PVIDs at 16 a PDU and at the default (one PDU); a read-only dot1qPvid half way leaves the old
# values (snmpget) and the writes say what was put back.
# sh vlan-exec.sh PROBE SRCDIR FIXTURES
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
command -v python3 >/dev/null || { echo "vlan-exec.sh: no python3" >&2; exit 1; }

T=$(mktemp -d /tmp/lab-vlan-exec.XXXXXX)
chmod 755 "$T"
harness_trap 'vlan_rig_stop "$T/rig"; [ -n "${KEEP:-}" ] || rm -rf "$T"'
NAME=vlan-exec.sh
. "$SRC/tests/integration/check.sh"

VLAN_RIG_ADDR=127.0.102.1
vlan_rig_start "$T/rig"
A=$VLAN_RIG_ADDR
P=$VLAN_RIG_PORT
rw() { LAB_TEST_COMMUNITY=$VLAN_RIG_RW "$PROBE" "$A" "$P" "$@"; }
sget() { snmpget -v2c -c "$VLAN_RIG_RW" -On -Ox -t 1 -r 1 "$A:$P" "$@"; }
val() { sget "$1" | sed 's/^[^=]*= [^:]*: *//' | tr -d ' \n"'; }

STATIC=1.3.6.1.2.1.17.7.1.4.3.1
PVID=1.3.6.1.2.1.17.7.1.4.5.1.1
ACCESS=1.3.6.1.4.1.9.6.1.101.48.62.1.1
hex() { printf %s "$1" | od -An -tx1 | tr -d ' \n' | tr a-f A-F; }

# --- the move
old_un1=$(val $STATIC.4.1)
old_name3=$(val $STATIC.1.3)
rw move >"$T/move.out" 2>"$T/move.err" || { cat "$T/move.err" >&2; fail "move"; }
has move.out '^write done VLAN 20 create$'
has move.out '^write done gi1/0/7 pvid$'
grep -v '^write done \|^sets ' "$T/move.out" && fail "a write not done"
[ "$(val $STATIC.5.20)" = 1 ] || [ "$(val $STATIC.5.20)" = 01 ] ||
    fail "VLAN 20 not active: $(sget $STATIC.5.20)"
[ "$(val $STATIC.1.20)" = "$(hex lab)" ] || fail "VLAN 20 name: $(sget $STATIC.1.20)"
[ "$(val $STATIC.1.3)" = "$(hex renamed)" ] || fail "VLAN 3 name: $(sget $STATIC.1.3)"
case $(val $STATIC.2.20) in 07000000*) ;; *) fail "VLAN 20 egress: $(sget $STATIC.2.20)";; esac
case $(val $STATIC.4.20) in 07000000*) ;; *) fail "VLAN 20 untagged";; esac
for p in 6 7 8; do
	sget $PVID.$p | grep -q "Gauge32: 20$\|: 14$" || fail "PVID of $p: $(sget $PVID.$p)"
done
sget $PVID.9 | grep -q "Gauge32: 1$\|: 1$" || fail "PVID of 9 moved"
un1=$(val $STATIC.4.1)
python3 -c "
a = bytes.fromhex('$old_un1'); b = bytes.fromhex('$un1')
assert a[0] & 0x07 == 0x07 and b[0] & 0x07 == 0, (a[:2], b[:2])
assert a[0] & 0xf8 == b[0] & 0xf8 and a[1:] == b[1:]
" || fail "VLAN 1 untagged: $old_un1 -> $un1"
ok; echo "ok $n: move: $(grep -c '^write' "$T/move.out") writes, $(grep '^sets' "$T/move.out")"

# --- 24 PVIDs at 16 a PDU (--max-varbinds 16)
vlan_rig_seed
rw pvids 16 >"$T/pvids.out" 2>"$T/pvids.err" || { cat "$T/pvids.err" >&2; fail "pvids"; }
[ "$(grep -c '^write done .* pvid$' "$T/pvids.out")" = 24 ] || fail "24 pvids: $(cat "$T/pvids.out")"
has pvids.out '^sets 2 varbinds 24$'
sget $PVID.24 | grep -q ": 3$" || fail "PVID of 24"
ok; echo "ok $n: pvids: $(grep '^sets' "$T/pvids.out")"

# --- 24 PVIDs by default: one SET PDU (under 1300 octets of varbinds)
vlan_rig_seed
rw pvids >"$T/pvids64.out" 2>"$T/pvids64.err" || { cat "$T/pvids64.err" >&2; fail "pvids 64"; }
[ "$(grep -c '^write done .* pvid$' "$T/pvids64.out")" = 24 ] || fail "24 pvids: $(cat "$T/pvids64.out")"
has pvids64.out '^sets 1 varbinds 24$'
sget $PVID.24 | grep -q ": 3$" || fail "PVID of 24"
ok; echo "ok $n: pvids by default: $(grep '^sets' "$T/pvids64.out")"

# --- a failure half way: gi1/0/7's PVID read-only
vlan_rig_seed
before=$(sget $STATIC.1.3 $STATIC.2.1 $STATIC.4.1 $PVID.6 $PVID.7 $ACCESS.6 $STATIC.5.20 2>&1)
vlan_rig_readonly $PVID.7
rc=0
rw move >"$T/fail.out" 2>"$T/fail.err" || rc=$?
[ $rc -ne 0 ] || fail "the failed move exited 0"
has fail.err 'gi1/0/7 pvid: switch 127.0.102.1:[0-9]*: .*notWritable'
has fail.out '^write failed gi1/0/7 pvid$'
has fail.out '^write restored VLAN 20 create$'
has fail.out '^write restored VLAN 3 name$'
has fail.out '^write restored gi1/0/6 mode$\|^write restored VLAN 20 egress$'
has fail.out '^write pending VLAN 1 untagged$'
grep '^write done \|^write left ' "$T/fail.out" && fail "left changed"
after=$(sget $STATIC.1.3 $STATIC.2.1 $STATIC.4.1 $PVID.6 $PVID.7 $ACCESS.6 $STATIC.5.20 2>&1)
[ "$before" = "$after" ] || { echo "$before" >&2; echo "$after" >&2; fail "not put back"; }
ok; echo "ok $n: failure put back: $(grep -c '^write restored' "$T/fail.out") restored, $(grep '^sets' "$T/fail.out")"

# --- a failure in the second PDU of a phase: the first PDU's 16 go back
vlan_rig_seed
pv() { for p in $(seq 1 24); do echo "$p $(val $PVID.$p)"; done; }
pbefore=$(pv)
vlan_rig_readonly $PVID.20
rc=0
rw pvids 16 >"$T/pfail.out" 2>"$T/pfail.err" || rc=$?
[ $rc -ne 0 ] || fail "the failed pvids exited 0"
has pfail.err 'gi1/0/20 pvid: switch .*notWritable'
[ "$(grep -c '^write restored ' "$T/pfail.out")" = 16 ] ||
    fail "16 restored: $(cat "$T/pfail.out")"
has pfail.out '^write failed gi1/0/20 pvid$'
[ "$(grep -c '^write pending ' "$T/pfail.out")" = 7 ] || fail "7 pending"
[ "$pbefore" = "$(pv)" ] || fail "PVIDs not put back"
ok; echo "ok $n: pvids failed in PDU 2: 16 restored, $(grep '^sets' "$T/pfail.out")"
echo "vlan-exec.sh: $n groups passed"
