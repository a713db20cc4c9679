#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Lab in a box (suite 'vm'): a Debian 12 server under qemu behind an
# ipmi_sim BMC on 127.0.22.1, driven by lab: sh run.sh LAB SRCDIR
#
# Builds the guest image or reuses the cached one, boots it cold once and
# snapshots it, imports tests/vm/box.yaml, then: lab power on box, ssh,
# the machine checked from inside, each provisioning case from a clean
# snapshot, lab power off box. Every qemu and ipmi_sim is stopped by PID on
# every exit path. Environment:
#   LAB_VM_ZFS=1        the image with OpenZFS and the ZFS cases (meson
#                       -Dvm_zfs=enabled)
#   LAB_VM_PROVISION=0  leave the lab provision cases out (and say so);
#                       1, the default, runs them (a lab without the
#                       provision command fails)
#   LAB_VM_KEEP=1       keep the temp folder (console log, lab's files)
#   LAB_VM_CASES="raid10_lvm shares"  run only these cases (names without
#                       case_; for working on one case, never in CI)
set -eu
LAB=$1
SRC=$2
VM_SRC=$SRC
LAB_VM_ZFS=${LAB_VM_ZFS:-0}
# lab provision is on main: its cases run unless LAB_VM_PROVISION=0.
LAB_VM_PROVISION=${LAB_VM_PROVISION:-1}

. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
. "$SRC/tests/vm/vm.sh"
. "$SRC/tests/vm/checks.sh"
bmc_require
vm_require

T=$(mktemp -d /tmp/lab-vm.XXXXXX)
V=$T/vm
cleanup()
{
	# the iSCSI session the shares case holds open, if it still runs
	if [ -s "$T/perf.pid" ]; then
		kill "$(cat "$T/perf.pid")" 2>/dev/null || :
	fi
	vm_bmc_stop "$V" || :
	vm_stop "$V" || :
	if [ "${LAB_VM_KEEP:-0}" = 1 ]; then
		echo "vm: kept $T" >&2
	else
		rm -rf "$T"
	fi
}
harness_trap cleanup
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$V/credentials.yaml"
BMC_PASSWORD="Bx-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-v9"
export BMC_PASSWORD

NAME=vm
. "$SRC/tests/integration/check.sh"
now() { date +%s; }
# is case $1 asked for (LAB_VM_CASES unset or empty: every case)
want()
{
	case " ${LAB_VM_CASES:-$1} " in *" $1 "*) return 0 ;; esac
	echo "vm: case $1 left out (LAB_VM_CASES)" >&2
	return 1
}
timings=
took() { timings="$timings
  $1: $2 s"; }

# --- the machine --------------------------------------------------------

t=$(now)
zflag=
[ "$LAB_VM_ZFS" = 1 ] && zflag=--zfs
# shellcheck disable=SC2086
vm_image $zflag || fail "no guest image"
if [ $(($(now) - t)) -gt 5 ]; then
	took "image built ($(sed -n 's/^debootstrap_s //p' "$VM_IMG/build.txt") s debootstrap, $(sed -n 's/^zfs_s //p' "$VM_IMG/build.txt") s ZFS)" $(($(now) - t))
else
	took "image reused from $VM_IMG" $(($(now) - t))
fi

vm_prepare "$V" || fail "prepare the VM's disks"
vm_first_boot "$V" || fail "first boot"
took "first boot to ssh (cold, TCG)" "$VM_T_BOOT"
took "savevm booted" "$VM_T_SAVE"

vm_bmc_start "$V" || fail "BMC for the VM on $VM_HOST:623"
vm_box_yaml "$V" "$T/box.yaml" || fail "render box.yaml"

run init init
[ "$(rc init)" = 0 ] || fail "lab init: $(cat "$T/init.err")"
run import import "$T/box.yaml"
[ "$(rc import)" = 0 ] || fail "lab import box.yaml: $(cat "$T/import.err")"
ok

# --- power through the BMC ----------------------------------------------

run st0 power status box
[ "$(rc st0)" = 0 ] || fail "power status rc $(rc st0): $(cat "$T/st0.err")"
has st0.out "box *off"
vm_pid "$V" >/dev/null && fail "qemu runs before power on"

t=$(now)
run on power on box
[ "$(rc on)" = 0 ] || fail "power on rc $(rc on): $(cat "$T/on.err")"
has on.out "box *on *powered on"
vm_wait_ssh "$V" || fail "no ssh after lab power on"
took "lab power on box to ssh (from the snapshot)" $(($(now) - t))
run st1 power status box
has st1.out "box *on"
ok

check_box "$V" || fail "the machine as built"
check_smart_ata "$V" || fail "SMART of the ATA disk"
ok

# --- facts (lab facts, issue 20) -------------------------------------------

# Runs `lab facts box --json` into $T/TAG.out, checks the row with
# facts-check.py (ARGS: --box, the guest as built) and asserts its
# findings, "KIND SUBJECT" a line, are exactly WANT (empty: none).
facts_check()
{
	_fc=$1
	_fcwant=$2
	shift 2
	# generous: under TCG on a loaded machine the script alone took over
	# the default 60 s (smartctl of ten disks)
	run "$_fc" facts box --json --timeout 300
	[ "$(rc "$_fc")" = 0 ] ||
	    fail "lab facts box rc $(rc "$_fc"): $(cat "$T/$_fc.err")"
	python3 "$SRC/tests/vm/facts-check.py" "$T/$_fc.out" "$VM_MAC" "$@" \
	    >"$T/$_fc.got" || fail "lab facts box's JSON (in $T/$_fc.out)"
	printf '%s\n' "$_fcwant" | sed '/^$/d' >"$T/$_fc.want"
	cmp -s "$T/$_fc.want" "$T/$_fc.got" || fail "lab facts box:" \
	    "findings [$(tr '\n' ';' <"$T/$_fc.got")]," \
	    "want [$(tr '\n' ';' <"$T/$_fc.want")]"
}

# The guest as built against box.yaml: every disk by its by-id path and
# serial, the NICs' MACs, DMI from qemu, the BMC; no finding (the model
# is generic-server: no DMI name to compare, no known issue). Recorded:
# the next case's disks are compared with these.
case_facts_box()
{
	t=$(now)
	facts_check facts-box "" --box
	took "lab facts box (the guest as built)" $(($(now) - t))
	ok
}

# NetworkManager (in the image, not started at boot) made to manage eth1
# alone, with box.yaml declaring network: (so that lab's provisioning
# owns the declared NICs, eth1 among them): the finding names eth1 and
# nothing else; then the snapshot and box.yaml as they were.
case_facts_nm()
{
	t=$(now)
	sed 's|^    ssh:|    network: {address: 10.0.2.15/24}\n    ssh:|' \
	    "$T/box.yaml" >"$T/box-nm.yaml"
	run import-nm import "$T/box-nm.yaml"
	[ "$(rc import-nm)" = 0 ] ||
	    fail "import box-nm.yaml: $(cat "$T/import-nm.err")"
	# eth1 alone (NetworkManager 1.42 manages lo, and what
	# "except:interface-name:eth1" leaves, all the same), and no
	# connection made for it (no DHCP beside eth0's)
	# shellcheck disable=SC2016 # it runs in the guest
	vm_ssh "$V" 'printf "[main]\nno-auto-default=*\n[keyfile]\nunmanaged-devices=%s\n" \
	    "interface-name:eth0;interface-name:eth2;interface-name:lo" \
	    >/etc/NetworkManager/conf.d/99-lab-test.conf &&
	    systemctl start NetworkManager &&
	    { nm-online -s -q -t 30 || :; } &&
	    for i in $(seq 60); do
		nmcli -t -f DEVICE,STATE device | grep -Eq "^eth1:" &&
		    ! nmcli -t -f DEVICE,STATE device | grep -q "^eth1:unmanaged" &&
		    exit 0
		sleep 0.5
	    done; nmcli device; exit 1' >"$T/nm.guest" 2>&1 </dev/null ||
	    fail "NetworkManager managing eth1: $(cat "$T/nm.guest")"
	facts_check facts-nm "networkmanager box eth1
nm-managed eth1"
	has facts-nm.out 'unmanaged-devices=interface-name:eth1'
	run import-nm-back import "$T/box.yaml"
	[ "$(rc import-nm-back)" = 0 ] || fail "import box.yaml again"
	vm_restore "$V" || fail "restore after NetworkManager"
	took "NetworkManager case (start, lab facts, restore)" $(($(now) - t))
	ok
}

if want facts_box; then case_facts_box; fi
if want facts_nm; then case_facts_nm; fi

# --- clean before each case: the snapshot, disks reverted ---------------

# Each case starts from the snapshot. Prove that it is clean: what one
# case wrote is gone for the next.
vm_ssh "$V" 'echo dirty >/root/marker; sync' </dev/null ||
    fail "write a marker in the guest"
vm_restore "$V" || fail "restore the snapshot"
took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
vm_ssh "$V" 'test ! -e /root/marker' </dev/null ||
    fail "the snapshot did not revert the root disk"
ok

if [ "$LAB_VM_ZFS" = 1 ]; then
	vm_ssh "$V" 'modprobe zfs && zpool version' >"$T/zfs.out" 2>&1 \
	    </dev/null || { cat "$T/zfs.out" >&2; fail "no OpenZFS in the guest"; }
	ok
fi

# --- provisioning (lab provision, issue 5) --------------------------------

# lab provision must exist when the cases are asked for.
provision_ready()
{
	if [ "$LAB_VM_PROVISION" != 1 ]; then
		echo "vm: provisioning cases left out (LAB_VM_PROVISION=0)" >&2
		return 1
	fi
	"$LAB" help provision >/dev/null 2>&1 ||
	    fail "LAB_VM_PROVISION=1 but this lab has no provision command"
}

# md RAID10 over the four data disks with LVM on top.
case_raid10_lvm()
{
	vm_restore "$V" || fail "restore before md-raid10"
	took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
	t=$(now)
	run prov-md provision box --layout md-raid10 --disks 1,2,3,4 --yes
	[ "$(rc prov-md)" = 0 ] ||
	    fail "provision md-raid10 rc $(rc prov-md): $(cat "$T/prov-md.err")"
	took "lab provision box --layout md-raid10" $(($(now) - t))
	check_raid10_lvm "$V" || fail "md-raid10 + LVM in the guest"
	ok
}

# NFS exports and iSCSI LUNs (issue 21), on the VG vg0 that case_raid10_lvm
# made (run right after it: no restore). lab provision box --shares; then
# from this machine, over eth0's forwarded ports, with userspace clients
# (no kernel module: libnfs's nfs-cp/nfs-ls over NFSv4, libiscsi's
# iscsi-ls/iscsi-inq/iscsi-readcapacity16/iscsi-perf): a file written
# through NFS and read back, the LUN listed and read by the initiator its
# ACL names and refused to another; a second apply changes nothing; the
# LUN removed from the inventory is not pruned while a session holds it,
# and lab names the initiator.
case_shares()
{
	command -v nfs-cp >/dev/null 2>&1 ||
	    fail "no nfs-cp (Debian libnfs-utils: sh scripts/deps.sh test)"
	command -v iscsi-inq >/dev/null 2>&1 ||
	    fail "no iscsi-inq (Debian libiscsi-bin: sh scripts/deps.sh test)"
	_ci=iqn.2026-12.lab.local:ci
	_lunline="      - {name: lun0, vg: vg0, protocol: iscsi, size: 64M, initiators: [\"$_ci\"]}"
	{
		cat "$T/box.yaml"
		echo "    shares:"
		echo "      - {name: data, vg: vg0, protocol: nfs, path: /srv/data, size: 256M, clients: [10.0.2.0/24], options: [rw, async, no_subtree_check, insecure, no_root_squash]}"
		echo "$_lunline"
	} >"$T/box-shares.yaml"
	grep -vF "$_lunline" "$T/box-shares.yaml" >"$T/box-prune.yaml"
	run import-shares import "$T/box-shares.yaml"
	[ "$(rc import-shares)" = 0 ] ||
	    fail "import box-shares.yaml: $(cat "$T/import-shares.err")"
	t=$(now)
	run shares provision box --shares --yes
	[ "$(rc shares)" = 0 ] ||
	    fail "provision --shares rc $(rc shares): $(cat "$T/shares.err")"
	took "lab provision box --shares (an LV exported, a LUN)" \
	    $(($(now) - t))
	has shares.out "write /etc/exports.d/lab.exports"
	has shares.out "generate_node_acls=0 demo_mode_write_protect=1"
	has shares.err "shares nfs+iscsi applied"
	t=$(now)
	# NFS: written, listed, read back, and on the LV in the guest
	_nfs="nfs://$VM_HOST/srv/data"
	_nq="?version=4&nfsport=$VM_NFS_PORT"
	# A small file: nfs-cp runs as uid 0 (the export is no_root_squash,
	# as an ESXi datastore's must be). A file of 200000 or 300000 bytes
	# fails "Failed to write to dest file" with Debian 12's nfs-cp
	# (libnfs 4.0, which sends each chunk as one NFSv4 WRITE); a 3-byte
	# one goes through: the cause of the big write's failure is open.
	printf 'written through NFS by %s\n' "$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" >"$T/nfs.in"
	nfs-cp "$T/nfs.in" "$_nfs/hello.bin$_nq" >"$T/nfs-cp.out" 2>&1 ||
	    fail "nfs-cp to $_nfs: $(cat "$T/nfs-cp.out")"
	nfs-ls "$_nfs$_nq" >"$T/nfs.ls" 2>&1 || fail "nfs-ls: $(cat "$T/nfs.ls")"
	has nfs.ls "hello.bin"
	nfs-cp "$_nfs/hello.bin$_nq" "$T/nfs.back" >"$T/nfs-cp.out" 2>&1 ||
	    fail "nfs-cp from $_nfs: $(cat "$T/nfs-cp.out")"
	cmp "$T/nfs.in" "$T/nfs.back" || fail "NFS gave back other bytes"
	vm_ssh "$V" 'findmnt -n -o SOURCE /srv/data; md5sum </srv/data/hello.bin' \
	    >"$T/nfs.guest" 2>&1 </dev/null || fail "read the file in the guest"
	has nfs.guest "/dev/mapper/vg0-data"
	has nfs.guest "$(md5sum <"$T/nfs.in" | cut -d' ' -f1)"
	# iSCSI: the target listed, the LUN read by its initiator only
	_portal="iscsi://$VM_HOST:$VM_ISCSI_PORT"
	_lun="$_portal/iqn.2026-12.lab.local:box/0"
	iscsi-ls -i "$_ci" "$_portal" >"$T/iscsi.ls" 2>&1 ||
	    fail "iscsi-ls: $(cat "$T/iscsi.ls")"
	has iscsi.ls "iqn.2026-12.lab.local:box"
	iscsi-inq -i "$_ci" "$_lun" >"$T/iscsi.inq" 2>&1 ||
	    fail "iscsi-inq as $_ci: $(cat "$T/iscsi.inq")"
	has iscsi.inq "LIO-ORG"
	iscsi-readcapacity16 -i "$_ci" "$_lun" >"$T/iscsi.cap" 2>&1 ||
	    fail "iscsi-readcapacity16: $(cat "$T/iscsi.cap")"
	has iscsi.cap "Total size:67108864"
	if iscsi-inq -i iqn.2026-12.lab.local:other "$_lun" >"$T/iscsi.other" 2>&1; then
		fail "an initiator without an ACL read the LUN"
	fi
	took "NFS file written and read back, LUN read, other initiator refused" \
	    $(($(now) - t))
	# again: nothing to change, no run
	t=$(now)
	run shares2 provision box --shares --yes
	[ "$(rc shares2)" = 0 ] ||
	    fail "second --shares rc $(rc shares2): $(cat "$T/shares2.err")"
	has shares2.err "nothing to change"
	took "lab provision box --shares again (nothing to change)" \
	    $(($(now) - t))
	run hist-shares history box
	has hist-shares.out "shares *nfs+iscsi *done"
	[ "$(grep -c 'shares *nfs+iscsi' "$T/hist-shares.out")" = 1 ] ||
	    fail "the second apply was recorded: $(cat "$T/hist-shares.out")"
	# a session that reads the LUN holds it: --prune refuses, naming it
	iscsi-perf -i "$_ci" "$_lun" >"$T/perf.out" 2>&1 &
	echo $! >"$T/perf.pid"
	harness_track iscsi-perf "$(cat "$T/perf.pid")"
	vm_ssh "$V" 'for i in $(seq 120); do
		grep -qs "^InitiatorName:" /sys/kernel/config/target/iscsi/*/tpgt_1/acls/*/info && exit 0
		sleep 0.5; done; exit 1' </dev/null ||
	    fail "no iSCSI session of iscsi-perf in the guest: $(cat "$T/perf.out")"
	run import-prune import "$T/box-prune.yaml"
	[ "$(rc import-prune)" = 0 ] || fail "import box-prune.yaml"
	run prune provision box --shares --prune --yes
	[ "$(rc prune)" = 1 ] ||
	    fail "--prune of a held LUN rc $(rc prune): $(cat "$T/prune.err")"
	has prune.err "initiator $_ci is logged in"
	kill "$(cat "$T/perf.pid")" 2>/dev/null || :
	wait "$(cat "$T/perf.pid")" 2>/dev/null || :
	: >"$T/perf.pid"
	vm_ssh "$V" 'ls /sys/kernel/config/target/core/iblock_*/' \
	    >"$T/prune.guest" 2>&1 </dev/null || :
	has prune.guest "lun0"
	ok
}

# bond0 (active-backup) over eth0..eth2 in br0; the active NIC's link
# pulled: the bond fails over.
case_bond_bridge()
{
	vm_restore "$V" || fail "restore before bonding"
	took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
	t=$(now)
	run prov-bond provision box --bond active-backup --bridge br0 --yes
	[ "$(rc prov-bond)" = 0 ] ||
	    fail "provision bond rc $(rc prov-bond): $(cat "$T/prov-bond.err")"
	took "lab provision box --bond active-backup --bridge br0" \
	    $(($(now) - t))
	vm_wait_ssh "$V" || fail "no ssh after bonding"
	check_net_confirmed "$V" || fail "the bond is not confirmed"
	check_bond_bridge "$V" || fail "bond0 + br0 in the guest"
	t=$(now)
	check_failover "$V" || fail "bond failover"
	took "failover ($CK_FAILOVER)" $(($(now) - t))
	ok
}

# Re-imports box.yaml with NIC NAME's line given EXTRA (", vlan: 20,
# tagged: true") into $T/box-TAG.yaml.
import_nic_wish()
{
	_it=$1
	shift
	cp "$T/box.yaml" "$T/box-$_it.yaml"
	while [ $# -gt 1 ]; do
		sed "s|^\( *- {name: $1, mac: \"[^\"]*\"\)}\$|\1, $2}|" \
		    "$T/box-$_it.yaml" >"$T/box-$_it.tmp" &&
		    mv "$T/box-$_it.tmp" "$T/box-$_it.yaml"
		grep -F "{name: $1, " "$T/box-$_it.yaml" | grep -qF ", $2}" ||
		    fail "no NIC $1 in box.yaml to give '$2'"
		shift 2
	done
	run "import-$_it" import "$T/box-$_it.yaml"
	[ "$(rc "import-$_it")" = 0 ] ||
	    fail "import box-$_it.yaml: $(cat "$T/import-$_it.err")"
}

# Host-side VLANs (issue 19), no bond: eth1 a trunk the host tags itself
# (vlans: [20, 30], tagged: true, native 1), rendered by lab provision
# --vlans as eth1.20 and eth1.30 (ifupdown's vlan-raw-device stanzas),
# confirmed like a bond, the management NIC eth0 untouched.
case_vlans()
{
	vm_restore "$V" || fail "restore before the VLAN case"
	took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
	import_nic_wish vlans eth1 "vlans: [20, 30], tagged: true"
	t=$(now)
	run prov-vlans provision box --vlans --yes
	[ "$(rc prov-vlans)" = 0 ] ||
	    fail "provision --vlans rc $(rc prov-vlans): $(cat "$T/prov-vlans.err")"
	took "lab provision box --vlans (eth1.20, eth1.30)" $(($(now) - t))
	vm_wait_ssh "$V" || fail "no ssh after the VLAN change"
	check_net_confirmed "$V" || fail "the VLAN change is not confirmed"
	check_vlan "$V" eth1.20 eth1 20 || fail "eth1.20 in the guest"
	check_vlan "$V" eth1.30 eth1 30 || fail "eth1.30 in the guest"
	check_network_as_built "$V" || fail "eth0 is not as it was"
	run hist-vlans history box
	[ "$(rc hist-vlans)" = 0 ] || fail "lab history rc $(rc hist-vlans)"
	has hist-vlans.out "network *vlans *done"
	ok
}

# A tagged VLAN on the bond: every NIC wants vlan: 20, tagged: true;
# the bond + bridge of case_bond_bridge gets bond0.20 on bond0 beside
# br0 (which keeps the host's address).
case_bond_vlan()
{
	vm_restore "$V" || fail "restore before the bond VLAN case"
	took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
	_bw="vlan: 20, tagged: true"
	import_nic_wish bvlan eth0 "$_bw" eth1 "$_bw" eth2 "$_bw"
	t=$(now)
	run prov-bvlan provision box --bond active-backup --bridge br0 --yes
	[ "$(rc prov-bvlan)" = 0 ] ||
	    fail "provision bond + VLAN rc $(rc prov-bvlan): $(cat "$T/prov-bvlan.err")"
	took "lab provision box --bond active-backup --bridge br0 (bond0.20)" \
	    $(($(now) - t))
	vm_wait_ssh "$V" || fail "no ssh after bonding with a VLAN"
	check_net_confirmed "$V" || fail "the bond + VLAN is not confirmed"
	check_bond_bridge "$V" || fail "bond0 + br0 (with bond0.20) in the guest"
	check_vlan "$V" bond0.20 bond0 20 || fail "bond0.20 in the guest"
	run import-back import "$T/box.yaml"
	[ "$(rc import-back)" = 0 ] || fail "import box.yaml again"
	ok
}

# A bonding change that takes the management NIC (eth0) away cuts lab
# off: the 60 s timer must put the old config back, and the run be
# recorded as rolled back.
case_rollback()
{
	vm_restore "$V" || fail "restore before the rollback case"
	took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
	t=$(now)
	# The bridge takes every NIC, eth0 (the one sshd is forwarded to)
	# included, with a static address slirp does not forward to
	# (10.0.2.15 is the guest's address on qemu's user network): the host
	# is cut off, and only its rollback timer brings it back.
	sed 's|^    ssh:|    network: {address: 10.0.9.15/24}\n    ssh:|' \
	    "$T/box.yaml" >"$T/box-cut.yaml"
	run import-cut import "$T/box-cut.yaml"
	[ "$(rc import-cut)" = 0 ] ||
	    fail "import box-cut.yaml: $(cat "$T/import-cut.err")"
	run prov-cut provision box --bond active-backup --bridge br0 --yes
	[ "$(rc prov-cut)" != 0 ] ||
	    fail "a bridge on an address nothing forwards to was reported applied"
	has prov-cut.err "rolled-back"
	vm_wait_ssh "$V" || fail "no ssh after the rollback"
	took "provision cut off, then rolled back" $(($(now) - t))
	check_network_as_built "$V" || fail "the old network is not back"
	check_net_rolled_back "$V" || fail "not rolled back by the timer"
	run hist history box
	[ "$(rc hist)" = 0 ] || fail "lab history rc $(rc hist)"
	has hist.out "network *active-backup *rolled-back"
	ok
}

# OpenZFS (LAB_VM_ZFS=1): the pool over the four data disks, as
# --layout LAYOUT [ARGS...] plans it, checked by CHECK; lab reads the
# target's facts (lz4) before it plans for real.
case_zfs()
{
	_cz=$1
	_czcheck=$2
	shift 2
	vm_restore "$V" || fail "restore before zfs $_cz"
	took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
	t=$(now)
	run "prov-$_cz" provision box --layout "$_cz" "$@" --yes
	[ "$(rc "prov-$_cz")" = 0 ] || fail "provision $_cz rc" \
	    "$(rc "prov-$_cz"): $(cat "$T/prov-$_cz.err")"
	took "lab provision box --layout $_cz${*:+ $*}" $(($(now) - t))
	has "prov-$_cz.out" "tank: zfs $_cz:"
	# the facts were read off the guest: lz4 known, not a guess
	has "prov-$_cz.out" "compression=lz4 -O sync=standard tank"
	if grep -E 'no lz4|lz4 is not known' "$T/prov-$_cz.out" \
	    "$T/prov-$_cz.err" >&2; then
		fail "lab did not read the guest's ZFS facts"
	fi
	"$_czcheck" "$V" tank || fail "zfs $_cz in the guest"
	ok
}

# OpenZFS with its module not loaded: zpool fails, and lab must say so
# and change nothing (not take it for a ZFS without lz4).
case_zfs_no_module()
{
	vm_restore "$V" || fail "restore before zfs without its module"
	took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
	vm_ssh "$V" 'rmmod zfs' </dev/null || fail "rmmod zfs in the guest"
	run prov-nomod provision box --layout raid10 --disks 1,2,3,4 --yes
	[ "$(rc prov-nomod)" = 1 ] || fail "provision with no zfs module" \
	    "rc $(rc prov-nomod): $(cat "$T/prov-nomod.err")"
	has prov-nomod.err "'zpool upgrade -v' failed (exit 1): The ZFS modules are not loaded"
	if grep -q lz4 "$T/prov-nomod.out" "$T/prov-nomod.err"; then
		fail "lab took a failing zpool for a ZFS without lz4"
	fi
	vm_ssh "$V" 'lsmod | grep "^zfs " ||
	    wipefs -n /dev/disk/by-id/virtio-lab-d1' \
	    >"$T/nomod.guest" 2>&1 </dev/null
	[ -s "$T/nomod.guest" ] && fail "the guest changed: $(cat "$T/nomod.guest")"
	ok
}

if provision_ready; then
	if want raid10_lvm; then case_raid10_lvm; fi
	# on the VG case_raid10_lvm made: right after it
	if want shares; then case_shares; fi
	if want bond_bridge; then case_bond_bridge; fi
	if want vlans; then case_vlans; fi
	if want bond_vlan; then case_bond_vlan; fi
	if want rollback; then case_rollback; fi
	if [ "$LAB_VM_ZFS" = 1 ]; then
		case_zfs raid10 check_zfs_raid10 --disks 1,2,3,4
		# slot 5 of box.yaml: the SSD
		case_zfs raidz1 check_zfs_raidz1_cache --disks 1,2,3,4 --cache 5
		case_zfs_no_module
	fi
fi

# --- disk benchmarks (lab bench, issue 18) -------------------------------

# The four bench disks of box.yaml, 16 fio jobs of 10 s (quick), each
# disk at VM_BENCH_BPS and VM_BENCH_IOPS: slot 6 (virtio, writes
# throttled to VM_THROTTLE_BPS, the seed's 11.3 MB/s), 7 (ATA on the ICH9
# AHCI, SMART), 8 and 9 (virtio, its peers). The throttled disk is
# measured and flagged, its peers are not, the ATA disk's SMART is read,
# the run is stored.
case_bench()
{
	vm_restore "$V" || fail "restore before bench"
	took "restore (loadvm booted, to ssh)" "$VM_T_RESTORE"
	t=$(now)
	run bench bench box 6 7 8 9 --profile quick --yes --json
	[ "$(rc bench)" = 0 ] ||
	    fail "lab bench rc $(rc bench): $(cat "$T/bench.err")"
	took "lab bench box 6 7 8 9 --profile quick (16 jobs)" $(($(now) - t))
	python3 "$SRC/tests/vm/bench-check.py" "$T/bench.out" \
	    "$VM_THROTTLE_BPS" 6 8,9 "7:$VM_IDE_SERIAL" >"$T/bench.check" ||
	    fail "lab bench's JSON (in $T/bench.out)"
	echo "vm: bench: $(cat "$T/bench.check")" >&2
	# stored: one run, done, four disks, 16 results, the ATA disk by
	# its serial
	sqlite3 "$LAB_DB" "SELECT r.status, count(DISTINCT d.id),
	    count(x.test), group_concat(DISTINCT d.serial)
	    FROM bench_runs r JOIN bench_disks d ON d.run_id = r.id
	    LEFT JOIN bench_results x ON x.disk_id = d.id
	    WHERE r.host = 'box' GROUP BY r.id" >"$T/bench.db" ||
	    fail "read the bench run back from $LAB_DB"
	grep -Eq '^done\|4\|16\|' "$T/bench.db" ||
	    fail "stored bench run: $(cat "$T/bench.db")"
	grep -Eq "[|,]$VM_IDE_SERIAL(,|\$)" "$T/bench.db" ||
	    fail "serial $VM_IDE_SERIAL not stored: $(cat "$T/bench.db")"
	ok
}
if want bench; then case_bench; fi

# The disk in slot 4 swapped between two boots: lab powers the box off,
# start.sh gives that drive another serial (qemu's serial=, lab-d4new),
# lab powers it on (from the snapshot, as every power on). A resumed
# kernel has not probed its disks: the boot's coldplug (udevadm trigger,
# as systemd-udev-trigger does at a cold boot) makes it read them. lab
# facts says disk-swapped for slot 4 (vde) and nothing else, and the
# report's Drift section dates the change since the baseline recorded
# first (disk.vde.serial lab-d4 -> lab-d4new). start.sh is put back: the
# next power on is as built.
case_facts_swap()
{
	t=$(now)
	# the baseline a nightly report records: the report after the swap
	# dates the change since it
	run swap-base report --record
	[ "$(rc swap-base)" = 0 ] ||
	    fail "lab report --record rc $(rc swap-base): $(cat "$T/swap-base.err")"
	run swap-off power off box
	[ "$(rc swap-off)" = 0 ] ||
	    fail "power off before the swap: $(cat "$T/swap-off.err")"
	vm_wait_gone "$V" 120 || fail "qemu still runs after lab power off"
	cp "$V/start.sh" "$T/start.sh.orig" || fail "keep start.sh"
	sed 's/,serial=lab-d4,/,serial=lab-d4new,/' "$T/start.sh.orig" \
	    >"$V/start.sh" || fail "swap the serial in start.sh"
	grep -q 'serial=lab-d4new,' "$V/start.sh" || fail "no d4 in start.sh"
	# ipmi_sim may still say on for a moment: poll
	end=$(($(now) + 120))
	while :; do
		run swap-st power status box
		grep -q "box *off" "$T/swap-st.out" && break
		[ "$(now)" -lt "$end" ] ||
		    fail "status not off: $(cat "$T/swap-st.out")"
		sleep 0.5
	done
	run swap-on power on box
	[ "$(rc swap-on)" = 0 ] ||
	    fail "power on with the swapped disk: $(cat "$T/swap-on.err")"
	cp "$T/start.sh.orig" "$V/start.sh" || fail "put start.sh back"
	vm_wait_ssh "$V" || fail "no ssh after the power on with the swap"
	vm_ssh "$V" 'udevadm trigger --action=add --subsystem-match=block &&
	    udevadm settle -t 60 && cat /sys/block/vde/serial &&
	    ls /dev/disk/by-id' >"$T/swap.guest" 2>&1 </dev/null ||
	    fail "coldplug in the guest: $(cat "$T/swap.guest")"
	grep -q '^virtio-lab-d4new$' "$T/swap.guest" ||
	    fail "the guest does not see lab-d4new: $(cat "$T/swap.guest")"
	facts_check facts-swap "disk-swapped box disk 4 (vde)"
	has facts-swap.out 'serial was lab-d4, now lab-d4new'
	run swap-report report --format json
	[ "$(rc swap-report)" = 0 ] ||
	    fail "lab report rc $(rc swap-report): $(cat "$T/swap-report.err")"
	python3 -c 'import json, sys
c = [x for x in json.load(open(sys.argv[1]))["drift"]["changes"]
     if x["target"] == "box" and x["key"] == "disk.vde.serial"]
sys.exit(not (len(c) == 1 and c[0]["from"] == "lab-d4" and
              c[0]["to"] == "lab-d4new" and c[0]["at"]))' \
	    "$T/swap-report.out" ||
	    fail "the report does not date the swap (in $T/swap-report.out)"
	took "disk swap case (power cycle, lab facts, report)" $(($(now) - t))
	ok
}
if want facts_swap; then case_facts_swap; fi

# --- power off ------------------------------------------------------------

# Power off and on again: the VM starts from the snapshot, clean.
vm_ssh "$V" 'echo dirty >/root/marker; sync' </dev/null ||
    fail "write a marker in the guest"
t=$(now)
run off power off box
[ "$(rc off)" = 0 ] || fail "power off rc $(rc off): $(cat "$T/off.err")"
vm_wait_gone "$V" 120 || fail "qemu still runs after lab power off"
took "lab power off box (qemu gone)" $(($(now) - t))
# ipmi_sim may still say on for a moment: poll
end=$(($(now) + 120))
while :; do
	run st2 power status box
	grep -q "box *off" "$T/st2.out" && break
	[ "$(now)" -lt "$end" ] || fail "status not off: $(cat "$T/st2.out")"
	sleep 0.5
done
ok

run on2 power on box
[ "$(rc on2)" = 0 ] || fail "second power on rc $(rc on2)"
vm_wait_ssh "$V" || fail "no ssh after the second power on"
vm_ssh "$V" 'test ! -e /root/marker' </dev/null ||
    fail "power on did not start from the clean snapshot"
run off2 power off box
[ "$(rc off2)" = 0 ] || fail "second power off rc $(rc off2)"
vm_wait_gone "$V" 120 || fail "qemu still runs after the second power off"
ok

# the BMC's password never shows
if grep -rl -- "$BMC_PASSWORD" "$T"/*.out "$T"/*.err "$T/lab.db" \
    >/dev/null 2>&1; then
	fail "the BMC password leaked"
fi

echo "vm: timings (2 cores, TCG):$timings" >&2
echo "vm: $n groups of checks passed"
