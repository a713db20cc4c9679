# SPDX-License-Identifier: GPL-3.0-or-later
# vm.sh: the "lab in a box" server, a Debian 12 VM under qemu (TCG), for
# tests and the demo. Source it from a POSIX sh script; see README.md
# beside it.
#
#	VM_SRC=/path/to/clone; . "$VM_SRC/tests/vm/vm.sh"
#	vm_require
#	vm_image || exit 1		# builds or reuses the image: $VM_IMG
#	D=$(mktemp -d); trap 'vm_stop "$D"; rm -rf "$D"' EXIT
#	vm_prepare "$D"			# disks, key, known_hosts, start.sh
#	vm_first_boot "$D"		# cold boot to ssh, savevm booted, quit
#	vm_start "$D"			# from the snapshot: ssh in seconds
#	vm_ssh "$D" cat /proc/mdstat
#	vm_restore "$D"			# back to the snapshot, disks reverted
#	vm_stop "$D"
#
# Everything listens on VM_HOST (127.0.22.1 unless set; another address
# lets a second box run beside): the BMC on port 623, sshd of the guest
# through qemu's hostfwd on $VM_SSH_PORT (eth0, the management NIC), +1
# (eth1) and +2 (eth2); the guest's ttyS0 as a TCP server on $VM_SOL_PORT
# (for SOL); ipmi_sim's VM serial interface on $VM_CODEC_PORT.

VM_HOST=${VM_HOST:-127.0.22.1}
VM_SSH_PORT=${VM_SSH_PORT:-22022}
VM_SOL_PORT=${VM_SOL_PORT:-22025}
VM_CODEC_PORT=${VM_CODEC_PORT:-22026}
# the guest's NFS (2049: NFSv4 needs no other port) and iSCSI (3260)
# servers, forwarded from VM_HOST through eth0 (the shares case)
VM_NFS_PORT=${VM_NFS_PORT:-22049}
VM_ISCSI_PORT=${VM_ISCSI_PORT:-22060}
# qemu's own OUI; the last octet is the NIC's number (eth0 = 01)
VM_MAC=${VM_MAC:-52:54:00:22:00}
VM_MEM=${VM_MEM:-1536}
VM_DISK_SIZE=${VM_DISK_SIZE:-2G}
VM_SSD_SIZE=${VM_SSD_SIZE:-1G}
# The bench disks (issue 18): d5, d6, d7 (virtio) and an ATA disk on the
# q35's ICH9 AHCI that answers SMART. Under TCG a disk is as fast as the
# host's CPU, which other load shares (identical disks measured 2-4x
# apart in one run), so qemu gives each a fixed speed, as a real disk
# has: VM_BENCH_BPS a second read and written, VM_BENCH_IOPS requests
# (4 KiB at random: 1 MB/s). d5 writes at VM_THROTTLE_BPS only, the
# seed's 11.3 MB/s.
VM_BENCH_BPS=${VM_BENCH_BPS:-50000000}
VM_BENCH_IOPS=${VM_BENCH_IOPS:-250}
VM_THROTTLE_BPS=${VM_THROTTLE_BPS:-11300000}
VM_IDE_SERIAL=LABIDE01	# box.yaml names it
# generous: other builds may share the two cores (a quiet machine takes
# ~130 s to boot cold and ~3 s from the snapshot)
VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-900}
VM_SSH_TIMEOUT=${VM_SSH_TIMEOUT:-300}
VM_QEMU=${VM_QEMU:-qemu-system-x86_64}
# A plain x86-64 CPU: with "max" the guest loads (and self-tests) every
# SIMD crypto and RAID algorithm at boot, minutes under TCG.
VM_CPU=${VM_CPU:-qemu64}
VM_APPEND=${VM_APPEND:-root=LABEL=root rw console=ttyS0,115200 net.ifnames=0 quiet cryptomgr.notests mitigations=off}

_vm_say() { echo "vm.sh: $*" >&2; }

# Exits 77 (skip) when qemu or the tools are missing, or 1 when
# LAB_TEST_REQUIRE_SIM=1 (CI) says they must be there.
vm_require()
{
	_vm_missing=
	for _vt in "$VM_QEMU" qemu-img ssh ssh-keygen python3 flock \
	    sha256sum setsid; do
		command -v "$_vt" >/dev/null 2>&1 ||
		    _vm_missing="$_vm_missing $_vt"
	done
	[ -z "$_vm_missing" ] && return 0
	if [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
		_vm_say "missing:$_vm_missing (packages qemu-system-x86," \
		    "qemu-utils, openssh-client, python3, util-linux);" \
		    "LAB_TEST_REQUIRE_SIM=1 makes this a failure"
		exit 1
	fi
	_vm_say "missing:$_vm_missing: skipping"
	exit 77
}

# Builds the image or reuses the cached one; sets VM_IMG. With "--zfs",
# the image with OpenZFS. A missing tool or no root skips (fails under
# LAB_TEST_REQUIRE_SIM=1); a build that fails fails.
vm_image()
{
	_vrc=0
	VM_IMG=$(sh "$VM_SRC/tests/vm/image.sh" "$@") || _vrc=$?
	[ "$_vrc" = 0 ] && return 0
	if [ "$_vrc" = 3 ] && [ "${LAB_TEST_REQUIRE_SIM:-0}" != 1 ]; then
		_vm_say "cannot build the guest image here: skipping"
		exit 77
	fi
	_vm_say "the guest image did not build"
	return 1
}

# Makes DIR ready for a VM: a copy-on-write root over the image, four
# empty data disks, the SSD, the bench disks d5..d7 and ata, root's key, a known_hosts for the three
# hostfwd ports, and DIR/start.sh, which runs qemu in the foreground with
# any extra arguments (-daemonize, -loadvm booted). DIR: no spaces.
vm_prepare()
{
	_vd=$1
	mkdir -p "$_vd" || return 1
	# the leak check of tests/integration/harness.sh, when the test
	# sourced it: whatever qemu runs at exit (started here or by the
	# BMC's power on) must be gone after the cleanup
	[ -z "${HARNESS_LOADED:-}" ] || harness_pidfile qemu "$_vd/qemu.pid"
	qemu-img create -q -f qcow2 -F qcow2 -b "$VM_IMG/root.qcow2" \
	    "$_vd/root.qcow2" || return 1
	for _vi in 1 2 3 4; do
		qemu-img create -q -f qcow2 "$_vd/d$_vi.qcow2" \
		    "$VM_DISK_SIZE" || return 1
	done
	qemu-img create -q -f qcow2 "$_vd/ssd.qcow2" "$VM_SSD_SIZE" ||
	    return 1
	for _vi in d5 d6 d7 ata; do
		qemu-img create -q -f qcow2 "$_vd/$_vi.qcow2" \
		    "$VM_DISK_SIZE" || return 1
	done
	install -m 600 "$VM_IMG/id_ed25519" "$_vd/id_ed25519" || return 1
	_vhk=$(cut -d' ' -f1,2 "$VM_IMG/host_ed25519.pub")
	: >"$_vd/known_hosts"
	for _vp in 0 1 2; do
		echo "[$VM_HOST]:$((VM_SSH_PORT + _vp)) $_vhk" \
		    >>"$_vd/known_hosts"
	done
	_vm_write_start "$_vd"
}

# DIR/start.sh: the one qemu command line every start uses, so that a
# snapshot taken at the first boot loads in every later one.
_vm_write_start()
{
	_vnet=
	for _vi in 0 1 2; do
		_vnet="$_vnet -netdev user,id=n$_vi,restrict=on,hostfwd=tcp:$VM_HOST:$((VM_SSH_PORT + _vi))-:22"
		[ "$_vi" != 0 ] ||
		    _vnet="$_vnet,hostfwd=tcp:$VM_HOST:$VM_NFS_PORT-:2049,hostfwd=tcp:$VM_HOST:$VM_ISCSI_PORT-:3260"
		_vnet="$_vnet -device virtio-net-pci,netdev=n$_vi,mac=$VM_MAC:0$((_vi + 1)),addr=0x$((_vi + 3)),romfile="
	done
	_vdisk=
	for _vi in 1 2 3 4; do
		_vdisk="$_vdisk -drive file=$1/d$_vi.qcow2,if=none,id=d$_vi,format=qcow2,cache=unsafe"
		_vdisk="$_vdisk -device virtio-blk-pci,drive=d$_vi,serial=lab-d$_vi,addr=0x$(printf %x $((_vi + 6)))"
	done
	# the bench disks: every guest request through qemu's throttle
	# (direct I/O included); d5's writes at VM_THROTTLE_BPS
	_vthr=throttling.bps-read=$VM_BENCH_BPS,throttling.iops-total=$VM_BENCH_IOPS
	for _vi in 5 6 7; do
		_vw=$VM_BENCH_BPS
		[ "$_vi" != 5 ] || _vw=$VM_THROTTLE_BPS
		_vdisk="$_vdisk -drive file=$1/d$_vi.qcow2,if=none,id=d$_vi,format=qcow2,cache=unsafe,$_vthr,throttling.bps-write=$_vw"
		_vdisk="$_vdisk -device virtio-blk-pci,drive=d$_vi,serial=lab-d$_vi,addr=0x$(printf %x $((_vi + 8)))"
	done
	# an ATA disk on port 0 of the q35's own ICH9 AHCI (00:1f.2): qemu's
	# IDE core emulates SMART (model "QEMU HARDDISK")
	_vdisk="$_vdisk -drive file=$1/ata.qcow2,if=none,id=ata,format=qcow2,cache=unsafe,$_vthr,throttling.bps-write=$VM_BENCH_BPS"
	_vdisk="$_vdisk -device ide-hd,drive=ata,bus=ide.0,serial=$VM_IDE_SERIAL"
	cat >"$1/start.sh" <<EOF
#!/bin/sh
# The box: root on /dev/vda, data disks vdb..vde (by-id virtio-lab-d1..4),
# an SSD (scsi-hd, rotation_rate=1; by-id scsi-0QEMU_QEMU_HARDDISK_lab-ssd),
# the bench disks at $VM_BENCH_BPS B/s and $VM_BENCH_IOPS IO/s: d5..d7 (virtio
# vdf..vdh, by-id virtio-lab-d5..7; d5 writes at $VM_THROTTLE_BPS B/s) and an
# ATA disk on the ICH9 AHCI (by-id ata-QEMU_HARDDISK_$VM_IDE_SERIAL),
# eth0..eth2 on isolated user networks with sshd forwarded from
# $VM_HOST:$VM_SSH_PORT..$((VM_SSH_PORT + 2)) (eth0 also NFS from
# $VM_HOST:$VM_NFS_PORT and iSCSI from $VM_HOST:$VM_ISCSI_PORT), ttyS0 on tcp $VM_HOST:$VM_SOL_PORT
# (and logged to console.log), the monitor on mon.sock.
# Extra arguments are added (-daemonize, -loadvm booted).
exec $VM_QEMU -name box -nodefaults -machine q35 \\
	-accel tcg,thread=multi -cpu $VM_CPU -smp 2 -m $VM_MEM \\
	-display none -vga none \\
	-kernel $VM_IMG/vmlinuz -initrd $VM_IMG/initrd.img \\
	-append '$VM_APPEND' \\
	-device virtio-rng-pci,addr=0xc \\
	-drive file=$1/root.qcow2,if=none,id=root,format=qcow2,cache=unsafe \\
	-device virtio-blk-pci,drive=root,serial=lab-root,addr=0x6 \\
	$_vdisk \\
	-device virtio-scsi-pci,id=scsi0,addr=0xb \\
	-drive file=$1/ssd.qcow2,if=none,id=ssd,format=qcow2,cache=unsafe \\
	-device scsi-hd,drive=ssd,bus=scsi0.0,rotation_rate=1,serial=lab-ssd \\
	$_vnet \\
	-chardev socket,id=ser0,host=$VM_HOST,port=$VM_SOL_PORT,server=on,wait=off,logfile=$1/console.log,logappend=on \\
	-serial chardev:ser0 \\
	-monitor unix:$1/mon.sock,server=on,wait=off \\
	-pidfile $1/qemu.pid "\$@"
EOF
	chmod +x "$1/start.sh"
}

# The PID of DIR's qemu when it runs, else nothing (and status 1).
vm_pid()
{
	_vpid=$(cat "$1/qemu.pid" 2>/dev/null) || return 1
	[ -n "$_vpid" ] && [ -r "/proc/$_vpid/cmdline" ] || return 1
	tr '\0' ' ' <"/proc/$_vpid/cmdline" | grep -q -- "-pidfile $1/qemu.pid" ||
	    return 1
	case $(sed -n 's/^.*) \(.\).*$/\1/p' "/proc/$_vpid/stat" 2>/dev/null) in
	''|Z|X) return 1 ;;
	esac
	echo "$_vpid"
}

# ssh to the guest as root through the hostfwd of eth0 (or VM_PORT).
vm_ssh()
{
	_vd=$1
	shift
	ssh -F /dev/null -i "$_vd/id_ed25519" -o IdentitiesOnly=yes \
	    -o BatchMode=yes -o StrictHostKeyChecking=yes \
	    -o UserKnownHostsFile="$_vd/known_hosts" \
	    -o GlobalKnownHostsFile=/dev/null -o HostKeyAlgorithms=ssh-ed25519 \
	    -o ConnectTimeout="${VM_CONNECT_TIMEOUT:-30}" -o ServerAliveInterval=5 \
	    -o ServerAliveCountMax=6 -o LogLevel=ERROR \
	    -p "${VM_PORT:-$VM_SSH_PORT}" "root@$VM_HOST" "$@"
}

# Runs an HMP command on DIR's monitor and prints the answer.
vm_hmp()
{
	python3 "$VM_SRC/tests/vm/hmp.py" "$1/mon.sock" "${3:-60}" "$2"
}

# Polls ssh until the guest answers (on VM_PORT if set), TIMEOUT seconds
# at most (VM_SSH_TIMEOUT); fails at once, with the console's end, when
# qemu is gone (or has not written its PID within 120 s: a BMC's power on
# returns before qemu is up).
vm_wait_ssh()
{
	_vt0=$(date +%s)
	_vend=$((_vt0 + ${2:-$VM_SSH_TIMEOUT}))
	_vseen=0
	while :; do
		vm_ssh "$1" true </dev/null 2>/dev/null && return 0
		if vm_pid "$1" >/dev/null; then
			_vseen=1
		elif [ "$_vseen" = 1 ] ||
		    [ "$(date +%s)" -ge $((_vt0 + 120)) ]; then
			_vm_say "qemu is not running; console:"
			tail -20 "$1/console.log" >&2 2>/dev/null
			return 1
		fi
		if [ "$(date +%s)" -ge "$_vend" ]; then
			_vm_say "no ssh on $VM_HOST:${VM_PORT:-$VM_SSH_PORT}" \
			    "after ${2:-$VM_SSH_TIMEOUT}s; console:"
			tail -20 "$1/console.log" >&2 2>/dev/null
			return 1
		fi
		sleep 1
	done
}

# Waits until qemu of DIR is gone, TIMEOUT seconds at most (default 30).
vm_wait_gone()
{
	_vend=$(($(date +%s) + ${2:-30}))
	while vm_pid "$1" >/dev/null; do
		[ "$(date +%s)" -lt "$_vend" ] || return 1
		sleep 0.1
	done
}

# Cold boot to ssh, wait for systemd to finish starting, savevm booted,
# quit. Sets VM_T_BOOT and VM_T_SAVE (seconds).
vm_first_boot()
{
	_vt0=$(date +%s)
	sh "$1/start.sh" -daemonize </dev/null >"$1/qemu.log" 2>&1 || {
		_vm_say "qemu did not start:"
		cat "$1/qemu.log" >&2
		return 1
	}
	vm_wait_ssh "$1" "$VM_BOOT_TIMEOUT" || return 1
	# a quiet machine to snapshot: every unit started (or failed)
	vm_ssh "$1" timeout 300 systemctl is-system-running --wait \
	    >"$1/system-state" 2>&1 </dev/null || true
	_vt1=$(date +%s)
	vm_hmp "$1" "savevm booted" 600 >"$1/savevm.out" || return 1
	if grep -qi error "$1/savevm.out"; then
		_vm_say "savevm failed: $(cat "$1/savevm.out")"
		return 1
	fi
	_vt2=$(date +%s)
	vm_hmp "$1" quit 30 >/dev/null 2>&1
	vm_wait_gone "$1" 60 || { _vm_say "qemu did not quit"; return 1; }
	rm -f "$1/qemu.pid"
	VM_T_BOOT=$((_vt1 - _vt0))
	VM_T_SAVE=$((_vt2 - _vt1))
}

# Starts DIR's VM from the snapshot (daemonized) and waits for ssh.
vm_start()
{
	sh "$1/start.sh" -loadvm booted -daemonize </dev/null \
	    >"$1/qemu.log" 2>&1 || {
		_vm_say "qemu did not start:"
		cat "$1/qemu.log" >&2
		return 1
	}
	vm_wait_ssh "$1"
}

# Back to the snapshot: a running VM loads it in place (disks, memory and
# devices reverted), a stopped one is started from it. Waits for ssh;
# sets VM_T_RESTORE (seconds).
vm_restore()
{
	_vt0=$(date +%s)
	if vm_pid "$1" >/dev/null; then
		vm_hmp "$1" "loadvm booted" 300 >"$1/loadvm.out" || return 1
		if grep -qi error "$1/loadvm.out"; then
			_vm_say "loadvm failed: $(cat "$1/loadvm.out")"
			return 1
		fi
		vm_wait_ssh "$1" || return 1
	else
		vm_start "$1" || return 1
	fi
	VM_T_RESTORE=$(($(date +%s) - _vt0))
}

# Stops DIR's qemu by its PID (TERM, then KILL after 10 s). Safe to call
# when none runs, and twice; never fails (says so if qemu stays).
vm_stop()
{
	_vpid=$(vm_pid "$1") || return 0
	kill -TERM "$_vpid" 2>/dev/null || :
	vm_wait_gone "$1" 10 && return 0
	kill -KILL "$_vpid" 2>/dev/null || :
	vm_wait_gone "$1" 10 || _vm_say "qemu $_vpid did not go"
	return 0
}

# Sets the link of NIC K (0..2) on or off, as a cable pulled.
vm_link()
{
	vm_hmp "$1" "set_link n$2 $3" 10
}

# Starts an ipmi_sim BMC on $VM_HOST:623 whose power on runs DIR/start.sh
# -loadvm booted (in the foreground, as ipmi_sim's child) and whose power
# off kills it; its SOL is the guest's ttyS0. The BMC's files are in
# DIR/bmc (see tests/integration/bmc.sh); stop it with vm_bmc_stop DIR.
vm_bmc_start()
{
	. "$VM_SRC/tests/integration/bmc.sh"
	# BMC K of bmc.sh is on BMC_NET.K: K is VM_HOST's last number
	BMC_NET=${VM_HOST%.*} BMC_STARTCMD="$1/start.sh -loadvm booted" \
	    BMC_VM_ADDR=$VM_HOST BMC_VM_PORT=$VM_CODEC_PORT \
	    BMC_SOL="tcp:$VM_HOST:$VM_SOL_PORT" bmc_start "$1/bmc" 1 \
	    "${VM_HOST##*.}"
}

vm_bmc_stop()
{
	[ -d "$1/bmc" ] || return 0
	. "$VM_SRC/tests/integration/bmc.sh" || :
	bmc_stop "$1/bmc" || :
	vm_stop "$1" || :
	return 0
}

# Writes the box's inventory (tests/vm/box.yaml with this VM's addresses,
# ports and files) to FILE, and DIR/credentials.yaml with the BMC's
# credential "box-bmc" (admin, $BMC_PASSWORD or "password").
vm_box_yaml()
{
	sed -e "s|@VM_HOST@|$VM_HOST|g" -e "s|@SSH_PORT@|$VM_SSH_PORT|g" \
	    -e "s|@MAC@|$VM_MAC|g" -e "s|@DIR@|$1|g" \
	    "$VM_SRC/tests/vm/box.yaml" >"$2" || return 1
	(umask 077 && cat >"$1/credentials.yaml" <<EOC
box-bmc: {username: admin, password: "${BMC_PASSWORD:-password}"}
EOC
	)
}

# Everything up to "lab power on box" for a test or the demo: the image
# (built or cached), DIR prepared, the first boot and its snapshot, and
# the BMC on $VM_HOST:623 that powers the VM; DIR/box.yaml and
# DIR/credentials.yaml for lab import. The VM is off when it returns.
# Stop with vm_bmc_stop DIR. Add --zfs for the image with OpenZFS.
vm_box_start()
{
	_vbd=$1
	shift
	vm_image "$@" || return 1
	vm_prepare "$_vbd" || return 1
	vm_first_boot "$_vbd" || return 1
	vm_bmc_start "$_vbd" || return 1
	vm_box_yaml "$_vbd" "$_vbd/box.yaml"
}
