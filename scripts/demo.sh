#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds lab and runs the demo: the example lab
# of inventory/ imported into a fresh database in a temp folder, listed and
# queried; then its three BMCs simulated by OpenIPMI's ipmi_sim on loopback
# (127.0.3.x: the documentation addresses of inventory/ are never
# contacted) and driven with lab power, boot and sensors; then, as root,
# a quick lab bench of three loop devices behind a private sshd on
# 127.0.3.50, one of them write-throttled, which lab bench names slow,
# and lab facts of that host (not root: that part is skipped, saying
# why); and the lab moved to a throwaway PostgreSQL server on loopback.
# `sh scripts/demo.sh box` runs the lab in a box instead (tests/vm): a
# Debian 12 VM under qemu behind an ipmi_sim BMC, powered on, its facts
# read (a disk swapped between two power-ons, NetworkManager on eth1),
# made an md RAID10 and a bonded bridge, failed over, rolled back and
# powered off by lab, everything on 127.0.22.1 (the image is built once,
# 5 to 10 min).
# LAB_DEMO_BUILD=DIR runs the demo with the lab already built in DIR
# (DIR/cmd/lab) and installs and builds nothing (tests/integration/demo.sh
# does); the demo's folder is made under $TMPDIR (default /tmp).
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = box ]; then
	sh scripts/deps.sh box
	[ -d build ] || meson setup build >/dev/null
	ninja -C build >/dev/null
	exec meson test -C build --suite vm --verbose
fi
if [ -n "${LAB_DEMO_BUILD:-}" ]; then
	LAB=$(cd "$LAB_DEMO_BUILD" && pwd)/cmd/lab
else
	sh scripts/deps.sh demo
	[ -d build ] || meson setup build >/dev/null
	ninja -C build >/dev/null
	LAB="$PWD/build/cmd/lab"
fi

DEMO=$(mktemp -d "${TMPDIR:-/tmp}/lab-demo.XXXXXX")
# the captures of real switches: shared/ beside the clone
SRC_SHARED=${LAB_SHARED:-$PWD/../shared}
export LAB_DB="$DEMO/lab.db" LAB_CREDENTIALS="$DEMO/credentials.yaml"
. tests/integration/bmc.sh
. tests/integration/snmp.sh
. tests/integration/vlan-rig.sh
. tests/integration/sshd.sh
. tests/integration/disks.sh
. tests/integration/pgsrv.sh
# the disk rig's sshd before its loop devices and cgroup (disks.sh)
trap 'bmc_stop "$DEMO/bmcs"; bmc_stop "$DEMO/bmc-neo"; snmp_stop "$DEMO/switch";
    stop_sshd; disks_cleanup "$DEMO/rig"; pgsrv_stop "$DEMO/pg"' EXIT INT TERM
run() {
	printf '\n$ lab %s\n' "$*"
	"$LAB" "$@" || printf '(exit %d)\n' "$?"
}

echo "lab demo: database in $LAB_DB"
run init
run import inventory/
run ls hosts
run ls groups
run ls disks @nas
run ls hosts 'microserver[1-2]' '!microserver2'
run show neo
run ls nics --json neo
run import inventory/
printf '\n$ lab export | head -12\n'
"$LAB" export | head -12

# The same lab with its BMCs on loopback, each a real ipmi_sim process,
# and its switch answering SNMP from a capture of a real Cisco SG350X (the
# SG200's firmware family; no public SG200 capture exists).
echo
echo "--- the BMCs of microserver1, microserver2 and neo, simulated by ipmi_sim;"
echo "--- the switch, a capture of a real SG350X-24P served by snmpsimd, its"
echo "--- VLAN tables writable (tests/integration/vlan-rig.sh)"
mkdir -p "$DEMO/sim"
chmod 755 "$DEMO"
VLAN_RIG_ADDR=127.0.0.1
LAB_SNMP_FIXTURES=$SRC_SHARED/fixtures/snmp
srcdir=$PWD
vlan_rig_start "$DEMO/switch" >/dev/null
SNMP_PORT=$VLAN_RIG_PORT
# microserver1's NIC stands in for the MAC the capture has on gi1/0/22
sed -e 's/192\.0\.2\./127.0.3./g' \
    -e 's/address: 127\.0\.3\.2$/address: 127.0.0.1/' \
    -e "s/^    port: 161$/    port: $SNMP_PORT/" \
    -e 's/00:26:55:d1:0a:01/00:0c:15:03:b0:b7/' \
    -e '/^      credential: /a\      workarounds: [opensesspriv]   # ipmi_sim needs it' \
    inventory/lab.yaml >"$DEMO/sim/lab.yaml"
cat >"$LAB_CREDENTIALS" <<END
rac-default: {username: admin, password: password}
ilo-neo: {username: admin, password: password}
sg200-ro: {community: $VLAN_RIG_RW}
END
chmod 600 "$LAB_CREDENTIALS"
BMC_NET=127.0.3
bmc_start "$DEMO/bmcs" 2 21
# neo's BMC on its own, to be unplugged before the report
bmc_start "$DEMO/bmc-neo" 1 30
# the rest must talk to the simulated lab only: a failed import would
# leave the documentation addresses of inventory/ in the database
printf '\n$ lab import %s\n' "$DEMO/sim/lab.yaml"
"$LAB" import "$DEMO/sim/lab.yaml" || {
	echo "demo: the simulated lab did not import; stopping" >&2
	exit 1
}
run power status --all
run power on @nas
run power on @nas
run power status --all --json
run boot microserver1 pxe
run boot microserver1
run sensors neo --record
run power off microserver1 --dry-run
run switch discover sg200
printf '\n$ lab switch ports sg200 | head -30\n'
"$LAB" switch ports sg200 | head -30
run switch sync sg200 --dry-run
# VLANs from the inventory: microserver1's eth0 wants VLAN 20 (storage),
# gi7 VLAN 30; probe what the switch can do, plan, apply, plan again
run switch probe sg200
run switch plan sg200
run switch apply sg200 --yes
run switch plan sg200
run history --switch sg200
# the baseline: what the nightly run records, and the report compares with
run report --record --format json --out "$DEMO/baseline.json"
# provisioning: --dry-run prints the plan, nothing is contacted
run provision nas --layout raid10 --dry-run
run provision neo --bond active-backup --bridge br0 --dry-run
run history
run show microserver1
run log
# overnight microserver1 is powered off and neo's BMC loses power
run power off microserver1
echo
echo "--- neo's BMC goes away (its ipmi_sim is stopped)"
bmc_stop "$DEMO/bmc-neo"
# the nightly report: collect first (power of every BMC, discovery of every
# switch), record the run and write the page to open with the coffee; its
# changes are those since the baseline: microserver1 powered off, neo's
# BMC unreachable
run report --collect --record --timeout 5 --format html --out "$DEMO/report.html"
# reading it again changes nothing: the same changes since run 1
run report --since 1
run report --runs
# history you can see: the power events recorded along the way, and the
# readings 'lab sensors --record' stored
run history microserver1 --power
run history neo --sensors

# A team's lab (issue 22): the same lab, history and all, moved to a
# throwaway PostgreSQL server on 127.0.0.1:55450 (its password only in
# a pgpass file), then asked there as here
echo
if [ -x "${PGBIN:-/usr/lib/postgresql/15/bin}/initdb" ] &&
    pgsrv_start "$DEMO/pg" 55450 >"$DEMO/pg.why" 2>&1 &&
    pgsrv_psql 'CREATE DATABASE lab'; then
	echo "--- PostgreSQL 15 on 127.0.0.1:55450, database lab"
	PGURI=postgresql://lab@127.0.0.1:55450/lab
	run db copy --to "$PGURI"
	run --db "$PGURI" config
	run --db "$PGURI" power status @nas
	run --db "$PGURI" history microserver1 --power
	run --db "$PGURI" report --runs
else
	echo "--- the PostgreSQL part is skipped: it needs postgresql-15" \
	    "($(tail -1 "$DEMO/pg.why" 2>/dev/null))"
fi

# A quick disk bench (issue 18): host "rig" is three loop devices behind a
# private sshd on 127.0.3.50:2222, disk 2's writes throttled to 11.3 MB/s
# by the block cgroup of that sshd (so of every session it starts), as the
# seed's SATA disk wrote through the SC44Ge HBA; lab bench reads and
# writes each (all three are free), and names the throttled one. Loop
# devices and cgroups need root: without it this part says so and the
# rest of the demo stands.
echo
if ( sshd_require && disks_require ) >"$DEMO/rig.why" 2>&1; then
	echo "--- host rig: three 256 MiB loop devices behind a private sshd on"
	echo "--- 127.0.3.50:2222; disk 2's writes throttled to 11.3 MB/s (cgroup blkio)"
	disks_make "$DEMO/rig" 3
	start_sshd 127.0.3.50 2222 "$DEMO/rig/ssh"
	disks_throttle "$DEMO/rig" 2 11300000 "$(cat "$DEMO/rig/ssh/sshd.pid")"
	{
		echo "hosts:"
		echo "  - name: rig"
		echo "    model: generic-server"
		echo "    role: disk bench"
		echo "    ssh: {address: 127.0.3.50, port: 2222, user: root,"
		echo "          identity: $DEMO/rig/ssh/id_ed25519,"
		echo "          known_hosts: $DEMO/rig/ssh/known_hosts}"
		echo "    disks:"
		for k in 1 2 3; do
			echo "      - {slot: $k, kind: sata, size: 256MiB," \
			    "controller: onboard, device: $(disks_dev "$DEMO/rig" "$k")}"
		done
	} >"$DEMO/sim/rig.yaml"
	# the simulated lab again, with rig.yaml beside it: only rig is new
	run import "$DEMO/sim/"
	run bench rig --profile quick --yes
	run history rig --bench
	# what rig really is (issue 20): its disks by serial, NICs, DMI, and
	# how it differs from rig.yaml: the three loop devices are the disks
	# it declares; this machine's own disks are extra (info findings)
	run facts rig
else
	echo "--- the disk bench is skipped: it needs root, loop devices, a block"
	echo "--- cgroup, fio and sshd ($(tail -1 "$DEMO/rig.why"))"
fi

printf '\nThe report is %s: open it in a browser (file://%s)\n' \
	"$DEMO/report.html" "$DEMO/report.html"
printf '\nThe database stays in %s: try\n  LAB_DB=%s %s help\n' \
	"$DEMO" "$LAB_DB" "$LAB"
