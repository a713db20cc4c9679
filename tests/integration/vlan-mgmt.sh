#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab switch apply refuses, unless --force, a change that takes the
# management VLAN off the port the switch's management address is
# reached through (issue 19). The writable rig (vlan-rig.sh) listens on
# 10.19.0.2, the end of a veth pair in this test's network namespace;
# lab runs in a second namespace the test makes (unshare -n), on the
# other end, 10.19.0.1 with the MAC 02:00:00:00:19:01, so its frames to
# the switch leave with that MAC. The rig's MAC table has that MAC on
# gi1/0/9 (bridge port 9, one MAC: not an uplink). A plan that puts
# gi1/0/9 and gi1/0/7 in VLAN 20 alone: gi1/0/9 REFUSED as the management
# port, gi1/0/7 not; apply --yes exits 1 naming it and writes nothing
# (snmpget); the --json plan names gi1/0/9 its mgmt_port and has no
# "management port unknown" note;
# apply --yes --force writes both. Then with the MAC on no port
# (the rig rebuilt without it) the plan refuses nothing and its --json
# notes say the management port is unknown.
#
# It adds a veth pair, so it runs only in a network namespace that has
# nothing but lo (unshare -n, as the integration tests are run): else it
# skips (fails with LAB_TEST_REQUIRE_SIM=1).
# sh vlan-mgmt.sh LAB SRCDIR FIXTURES
set -eu
LAB_BIN=$1
SRC=$2
FIX=$3
srcdir=$SRC
LAB_SNMP_FIXTURES=$FIX
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/snmp.sh"
. "$SRC/tests/integration/vlan-rig.sh"
snmp_require
NAME=vlan-mgmt.sh

need() {
	if [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
		echo "$NAME: $* (LAB_TEST_REQUIRE_SIM=1 makes this a failure)" >&2
		exit 1
	fi
	echo "$NAME: $*: skipping" >&2
	exit 77
}
[ "$(id -u)" = 0 ] || need "needs root (a veth pair, a network namespace)"
for c in ip nsenter unshare; do
	command -v $c >/dev/null 2>&1 || need "missing: $c"
done
# run in a network namespace of its own: re-run under unshare -n once
if [ "$(ip -o link show | wc -l)" != 1 ] && [ -z "${VLAN_MGMT_NS:-}" ]; then
	VLAN_MGMT_NS=1 exec unshare -n -- sh -c 'ip link set lo up && exec sh "$0" "$@"' "$0" "$@"
fi
[ "$(ip -o link show | wc -l)" = 1 ] ||
	need "needs a network namespace of its own (unshare -n) with only lo"

T=$(mktemp -d /tmp/lab-vlan-mgmt.XXXXXX)
chmod 755 "$T"
NS=
harness_trap 'vlan_rig_stop "$T/rig"; ip link del vm-sw 2>/dev/null;
    [ -z "$NS" ] || { kill "$NS"; wait "$NS"; }
    [ -n "${KEEP:-}" ] || rm -rf "$T"'
. "$SRC/tests/integration/check.sh"

# lab's namespace: a process that holds it (unshare execs sleep)
unshare -n sleep 3600 &
NS=$!
harness_track netns "$NS"
i=0
while [ "$(readlink "/proc/$NS/ns/net")" = "$(readlink /proc/self/ns/net)" ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "the namespace of pid $NS did not appear"
	sleep 0.05
done
labns() { nsenter --net="/proc/$NS/ns/net" "$@"; }
ip link add vm-sw type veth peer name vm-lab netns "$NS" ||
	need "cannot add a veth pair"
ip addr add 10.19.0.2/24 dev vm-sw
ip link set vm-sw up
labns ip link set lo up
labns ip link set vm-lab address 02:00:00:00:19:01
labns ip addr add 10.19.0.1/24 dev vm-lab
labns ip link set vm-lab up
printf '#!/bin/sh\nexec nsenter --net=/proc/%s/ns/net %s "$@"\n' "$NS" \
    "$LAB_BIN" >"$T/lab"
chmod 755 "$T/lab"
LAB=$T/lab

VLAN_RIG_ADDR=10.19.0.2
VLAN_RIG_FDB="1/02:00:00:00:19:01/9"
export VLAN_RIG_FDB
vlan_rig_start "$T/rig"
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/cred.yaml"
printf 'rw: {community: %s}\n' "$VLAN_RIG_RW" >"$T/cred.yaml"
chmod 600 "$T/cred.yaml"
cat >"$T/lab.yaml" <<END
hosts: []
switches:
  - {name: sg350x, model: generic-switch, address: $VLAN_RIG_ADDR,
     port: $VLAN_RIG_PORT, snmp: {version: 2c, credential: rw, timeout: 2,
     retries: 0}, vlans: [{id: 20, name: storage}],
     ports: [{port: gi1/0/7, vlan: 20}, {port: gi1/0/9, vlan: 20}]}
END
run import import "$T/lab.yaml" --yes
[ "$(rc import)" = 0 ] || { cat "$T/import.err" >&2; fail "import"; }
run disc switch discover sg350x
[ "$(rc disc)" = 0 ] || { cat "$T/disc.out" "$T/disc.err" >&2; fail "discover"; }
[ "$(sqlite3 "$LAB_DB" "SELECT ifindex FROM switch_fdb WHERE mac = \
    '02:00:00:00:19:01'")" = 9 ] || fail "discovery did not store the MAC on 9"
sget() { labns snmpget -v2c -c "$VLAN_RIG_RW" -On -Oqv -t 1 -r 1 \
    "$VLAN_RIG_PEER" "$@" | tr -d '"' | tr '\n' ' '; }
PVID=1.3.6.1.2.1.17.7.1.4.5.1.1

run plan switch plan sg350x
[ "$(rc plan)" = 0 ] || { cat "$T/plan.err" >&2; fail "plan: exit $(rc plan)"; }
has plan.out "REFUSED.*gi1/0/9: takes the management VLAN 1 off the port the management address is reached through"
grep -q "REFUSED.*gi1/0/7" "$T/plan.out" && fail "gi1/0/7 refused: $(cat "$T/plan.out")"
run json switch plan sg350x --json
[ "$(rc json)" = 0 ] || fail "plan --json: exit $(rc json)"
has json.out '"gi1/0/9: takes the management VLAN 1 off the port the management address is reached through"'
grep -q "management port unknown" "$T/json.out" && fail "--json: unknown: $(cat "$T/json.out")"
has json.out '"mgmt_port": "gi1/0/9"'
ok

before=$(sget $PVID.7 $PVID.9)
[ "$before" = "1 1 " ] || fail "the rig's PVIDs before: $before"
run refused switch apply sg350x --yes
[ "$(rc refused)" = 1 ] || { cat "$T/refused.out" "$T/refused.err" >&2; fail "apply --yes: exit $(rc refused)"; }
cat "$T/refused.out" "$T/refused.err" >"$T/refused.all"
has refused.all "sg350x: refused: gi1/0/9: takes the management VLAN 1 off the port the management address is reached through (--force applies it anyway); nothing changed"
[ "$(sget $PVID.7 $PVID.9)" = "$before" ] || fail "a refused apply wrote: $(sget $PVID.7 $PVID.9)"
ok

run forced switch apply sg350x --yes --force --no-save
[ "$(rc forced)" = 0 ] || { cat "$T/forced.out" "$T/forced.err" >&2; fail "apply --force: exit $(rc forced)"; }
[ "$(sget $PVID.7 $PVID.9)" = "20 20 " ] || fail "after --force: $(sget $PVID.7 $PVID.9)"
ok

# the MAC on no port: nothing refused, the --json plan says so
vlan_rig_stop "$T/rig"
rm -rf "$T/rig"
VLAN_RIG_FDB=
vlan_rig_start "$T/rig"
sed -i "s/port: [0-9]*, snmp/port: $VLAN_RIG_PORT, snmp/" "$T/lab.yaml"
run import2 import "$T/lab.yaml" --yes
[ "$(rc import2)" = 0 ] || { cat "$T/import2.err" >&2; fail "import 2"; }
run disc2 switch discover sg350x
[ "$(rc disc2)" = 0 ] || fail "discover 2"
run plan2 switch plan sg350x
grep -q REFUSED "$T/plan2.out" && fail "refused without the MAC: $(cat "$T/plan2.out")"
has plan2.out "gi1/0/9 *pvid *1 -> 20"
run json2 switch plan sg350x --json
has json2.out '"mgmt_port": null'
has json2.out "management port unknown (10.19.0.2: 02:00:00:00:19:01, the MAC of vm-lab, not in the MAC table of the last discovery)"
ok
echo "$NAME: ok ($n groups)"
