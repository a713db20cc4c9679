#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab switch probe|plan|apply and history --switch (issue 19) against the
# writable rig (vlan-rig.sh, on 127.0.104.1): probe finds the MIBs and
# write access (read-only community: refused); apply without --yes and
# no terminal changes nothing (exit 2); apply --yes --no-save creates
# VLAN 20 and puts gi1/0/7 and gi1/0/8 in it, as snmpget shows; a second
# plan is empty and a second apply sends no SET; a read-only community
# and a switch without the VLAN table (c2960) are refused, nothing
# written (snmpget); a read-only PVID half way leaves the agent as
# before (snmpget) and exits 1 naming it; history shows the
# apply, the report flags it unsaved.
# sh vlan-apply.sh LAB SRCDIR FIXTURES
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

T=$(mktemp -d /tmp/lab-vlan-apply.XXXXXX)
chmod 755 "$T"
harness_trap 'vlan_rig_stop "$T/rig"; [ -n "${KEEP:-}" ] || rm -rf "$T"'
NAME=vlan-apply.sh
. "$SRC/tests/integration/check.sh"

VLAN_RIG_ADDR=127.0.104.1
vlan_rig_start "$T/rig"
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/cred.yaml"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
printf 'rw: {community: %s}\nro: {community: %s}\nios: {community: %s}\n' \
    "$VLAN_RIG_RW" "$VLAN_RIG_RO" "$VLAN_RIG_IOS" >"$T/cred.yaml"
chmod 600 "$T/cred.yaml"
sw() {
	echo "  - {name: $1, model: generic-switch, address: $VLAN_RIG_ADDR," \
	    "port: $VLAN_RIG_PORT, snmp: {version: 2c, credential: $2," \
	    "timeout: 2, retries: 0}, vlans: [{id: 20, name: storage}]," \
	    "ports: [{port: gi1/0/7, vlan: 20}, {port: gi1/0/8, vlan: 20}]}"
}
cat >"$T/lab.yaml" <<END
hosts: []
switches:
$(sw sg350x rw)
$(sw sgro ro)
$(sw c2960 ios)
END
"$LAB" import "$T/lab.yaml" --yes >/dev/null 2>&1 || fail "import"
"$LAB" switch discover sg350x sgro c2960 >/dev/null 2>&1 || fail "discover"
sget() { snmpget -v2c -c "$VLAN_RIG_RW" -On -Oqv -t 1 -r 1 \
    "$VLAN_RIG_PEER" "$@" | tr -d '"' | tr '\n' ' '; }
PVID=1.3.6.1.2.1.17.7.1.4.5.1.1
NAMEOID=1.3.6.1.2.1.17.7.1.4.3.1.1

run p1 switch probe sg350x
[ "$(rc p1)" = 0 ] || fail "probe rc $(rc p1)"
grep -q '^Q-BRIDGE-MIB static VLANs: yes$' "$T/p1.out" || fail "probe qbridge"
grep -q '^SET: accepted' "$T/p1.out" || fail "probe SET"
run p2 switch probe sgro
grep -q '^SET: refused' "$T/p2.out" || fail "probe read-only"

before=$(sget $PVID.7 $PVID.8)
run n1 switch apply sg350x
[ "$(rc n1)" = 2 ] || fail "apply without --yes rc $(rc n1)"
[ "$(sget $PVID.7 $PVID.8)" = "$before" ] || fail "apply without --yes wrote"

# refusals: a read-only community, a switch without the Cisco SB MIB
run ro switch apply sgro --yes
[ "$(rc ro)" = 1 ] || fail "read-only apply rc $(rc ro)"
grep -q '^sgro: community is read-only: SETs are refused (.*); nothing changed$' \
    "$T/ro.out" || fail "read-only refusal: $(cat "$T/ro.out")"
[ "$(sget $PVID.7 $PVID.8)" = "$before" ] || fail "read-only apply wrote"
run ios switch apply c2960 --yes
[ "$(rc ios)" = 1 ] || fail "c2960 apply rc $(rc ios)"
grep -q 'no Q-BRIDGE-MIB VLAN table; nothing changed' "$T/ios.err" ||
	fail "c2960 refusal: $(cat "$T/ios.out" "$T/ios.err")"

run a1 switch apply sg350x --yes --no-save
[ "$(rc a1)" = 0 ] || { cat "$T/a1.err" >&2; fail "apply rc $(rc a1)"; }
grep -q 'read back equal; NOT saved (--no-save)' "$T/a1.out" ||
	fail "apply output"
[ "$(sget $PVID.7 $PVID.8 $NAMEOID.20)" = "20 20 storage " ] ||
	fail "snmpget after apply: $(sget $PVID.7 $PVID.8 $NAMEOID.20)"

run l2 switch plan sg350x
grep -q '^sg350x: matches the inventory$' "$T/l2.out" || fail "second plan"
run a2 switch apply sg350x --yes
grep -q 'no SET sent' "$T/a2.out" || fail "second apply sent"

run h1 history --switch sg350x
grep -q 'ok, NOT saved' "$T/h1.out" || fail "history status"
grep -q 'gi1/0/7 pvid: 1 -> 20 (done)' "$T/h1.out" || fail "history change"
run r1 report
grep -q 'sg350x apply [0-9]*: NOT saved' "$T/r1.out" || fail "report unsaved"
grep -q 'sgro apply [0-9]*: refused' "$T/r1.out" || fail "report refused"
# a failure half way: gi1/0/8's PVID read-only; gi1/0/7 is put back
vlan_rig_seed
vlan_rig_readonly $PVID.8
run f1 switch apply sg350x --yes
[ "$(rc f1)" = 1 ] || fail "failed apply rc $(rc f1)"
grep -q '^sg350x: FAILED: .*1\.3\.6\.1\.2\.1\.17\.7\.1\.4\.5\.1\.1\.8\|^sg350x: FAILED: .*gi1/0/8' \
    "$T/f1.out" || fail "failed apply names it: $(cat "$T/f1.out")"
[ "$(sget $PVID.7 $PVID.8)" = "1 1 " ] ||
	fail "after the failure: $(sget $PVID.7 $PVID.8)"
run h2 history --switch sg350x
grep -q 'failed' "$T/h2.out" || fail "history of the failure"
echo "vlan-apply.sh: ok"
