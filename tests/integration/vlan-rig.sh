# SPDX-License-Identifier: GPL-3.0-or-later
# vlan-rig.sh: a writable Cisco SB switch for the VLAN tests (issue 19):
# snmpsimd over a copy of the SG350X-24P capture, its VLAN tables kept in
# SQLite by the labrig variation module (tests/integration/vlan-rig/
# labrig.py; what it adds to the capture: tests/integration/vlan-rig.py).
# Source it from a POSIX sh test after snmp.sh:
#
#	. "$srcdir/tests/integration/snmp.sh"
#	. "$srcdir/tests/integration/vlan-rig.sh"
#	snmp_require
#	trap 'vlan_rig_stop "$T/rig"' EXIT
#	vlan_rig_start "$T/rig"
#	snmpget -v2c -c "$VLAN_RIG_RW" "$VLAN_RIG_PEER" ...
#
# Sets VLAN_RIG_ADDR (127.0.101.1 unless set before), VLAN_RIG_PORT,
# VLAN_RIG_PEER (ADDR:PORT), VLAN_RIG_RW (read-write community),
# VLAN_RIG_RO (read-only: same data, SETs answer noAccess),
# VLAN_RIG_IOS (a Catalyst 2960-X: Q-BRIDGE, no CISCOSB VLAN MIB, not
# writable), VLAN_RIG_DB (the SQLite file), VLAN_RIG_LIST_LEN (octets of
# a PortList: 126). Seeded state (vlan_rig_seed): every bridge port an
# untagged member of VLAN 1 with PVID 1 and Cisco SB mode access, but
# gi1/0/23 and gi1/0/24 (ifindex 23, 24) trunks, untagged in 1 and
# tagged in 2 and 3, and gi1/0/5 an access port of VLAN 2 (PVID 2).
# VLAN_RIG_FDB="VLAN/MAC/BRIDGEPORT ..." set before vlan_rig_start adds
# those MAC table rows (dot1qTpFdbPort) to the capture's.

# shellcheck disable=SC2034 # variables for the tests that source this
VLAN_RIG_RW=labrw
VLAN_RIG_RO=labro
VLAN_RIG_IOS=ios2960
VLAN_RIG_LIST_LEN=126

# vlan_rig_start DIR: builds the data in DIR and starts the agent.
vlan_rig_start()
{
	_vd=$1
	_vsrc=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
	_vfix=${LAB_SNMP_FIXTURES:-$_vsrc/../shared/fixtures/snmp}
	VLAN_RIG_ADDR=${VLAN_RIG_ADDR:-127.0.101.1}
	mkdir -p "$_vd/data" "$_vd/db" || return 1
	VLAN_RIG_DB=$_vd/db/rig.db
	rm -f "$VLAN_RIG_DB"
	python3 "$_vsrc/tests/integration/vlan-rig.py" build \
	    "$_vfix/ciscosb_sg350x-24p.snmprec" "$_vd/data" "$VLAN_RIG_DB" \
	    "$VLAN_RIG_RW" "$VLAN_RIG_RO" || return 1
	cp "$_vfix/ios_2960x.snmprec" "$_vd/data/$VLAN_RIG_IOS.snmprec" ||
	    return 1
	# the agent runs as nobody and writes the database and its journal
	chown -R nobody:nogroup "$_vd/db" 2>/dev/null
	chmod -R a+rwX "$_vd/db"
	SNMP_ADDR=$VLAN_RIG_ADDR
	VLAN_RIG_PORT=$(snmp_free_port)
	VLAN_RIG_PEER=$VLAN_RIG_ADDR:$VLAN_RIG_PORT
	snmp_start "$_vd" "$VLAN_RIG_PORT" "$VLAN_RIG_RW" \
	    --variation-modules-dir="$_vsrc/tests/integration/vlan-rig" \
	    --variation-module-options="labrig:db:$VLAN_RIG_DB"
}

# vlan_rig_stop DIR: never fails.
vlan_rig_stop()
{
	snmp_stop "$1"
}

# vlan_rig_seed: back to the known state (VLANs the test made are gone,
# PVIDs, modes, lists and ifAlias as seeded, read-only OIDs writable
# again, rlCopyTable empty).
vlan_rig_seed()
{
	python3 "${srcdir:-.}/tests/integration/vlan-rig.py" seed \
	    "$VLAN_RIG_DB"
}

# vlan_rig_readonly OID: SETs of that one OID answer notWritable (until
# the next vlan_rig_seed). OID numeric, no leading dot.
vlan_rig_readonly()
{
	python3 "${srcdir:-.}/tests/integration/vlan-rig.py" readonly \
	    "$VLAN_RIG_DB" "$1"
}

# vlan_rig_get OID: prints TAG|VALUE as the rig holds it (hex for 4x).
vlan_rig_get()
{
	python3 "${srcdir:-.}/tests/integration/vlan-rig.py" get \
	    "$VLAN_RIG_DB" "$1"
}
