# SPDX-License-Identifier: GPL-3.0-or-later
# disks.sh: real block devices for the disk tests (issue 18): loop devices
# over sparse files in the test's folder, one of them write-throttled by
# the kernel's block cgroup, one mounted, two in an md array. Source it
# from a POSIX sh script running as root, after harness.sh and sshd.sh:
#
#	. "$SRC/tests/integration/harness.sh"
#	. "$SRC/tests/integration/sshd.sh"
#	. "$SRC/tests/integration/disks.sh"
#	disks_require
#	T=$(mktemp -d) || exit 1
#	harness_trap 'stop_sshd; disks_cleanup "$T"; rm -rf "$T"'
#	disks_make "$T" 4 || exit 1		# disk 1..4, 256 MiB each
#	disks_mount "$T" 3 || exit 1		# ext4 on disk 3, mounted
#	disks_array "$T" 4 5 || exit 1		# needs disk 5 too
#	start_sshd 127.0.86.1 2222 "$T/h" || exit 1	# after the mount
#	disks_throttle "$T" 1 11300000 "$(cat "$T/h/sshd.pid")" || exit 1
#	sshd_ssh "$T/h" "fio ... --filename=$(disks_dev "$T" 1)"
#
# disks_require
#	Exits 77 (skip) when the machine cannot give the rig: not root, no
#	loop devices (losetup, /dev/loop-control), no block cgroup (cgroup v1
#	blkio with blkio.throttle.write_bps_device, or cgroup v2 with the io
#	controller), no fio, mkfs.ext4, wipefs, lsblk or sha256sum; with
#	LAB_TEST_REQUIRE_SIM=1 it exits 1 instead, naming the packages.
# disks_make DIR N [MIB]
#	Makes disks 1..N: DIR/disks/K.img (sparse, MIB MiB, default 256) on
#	a loop device (losetup -f --show), whose path is in DIR/disks/K.dev.
#	Every device made is listed in DIR/disks/loops at once, so that
#	disks_cleanup finds it even when the test stops half way.
# disks_dev DIR K
#	Prints disk K's device (/dev/loopN).
# disks_throttle DIR K BPS PID...
#	Limits writes to disk K to BPS bytes a second for the processes PID
#	and their future children: a block cgroup of its own (cgroup v1
#	blkio.throttle.write_bps_device, or v2 io.max wbps=, whichever the
#	machine has), the PIDs moved into it. Throttling applies to direct
#	I/O (fio --direct=1). Give it a private sshd's listener and every
#	session it starts is throttled. DIR/disks/cgroup holds its path.
# disks_mount DIR K
#	mkfs.ext4 (inode tables and journal written now, so that nothing
#	writes to it later by itself) on disk K and mounts it on DIR/mnt/K:
#	a disk "in use" (mounted). Mount before starting an sshd: sshd.sh
#	runs it in a private mount namespace that sees only the mounts made
#	before it.
# disks_settle DIR K...
#	Waits (90 s at most) until disks K... read the same (sha256sum,
#	after sync) four times 2 s apart, then prints their sums: a freshly
#	mounted ext4 writes once more 3-5 s after the mount, sync or not
#	(seen with and without a journal). Take "before" sums with it, after
#	the rig is up; a sum of 256 MiB takes 1-6 s on a busy machine. Fails
#	when they never settle.
# disks_array DIR K1 K2
#	Makes disks K1 and K2 members of a raid1 md array (mdadm --create
#	--run --metadata=1.2, /dev/md/labrig-PID) when the kernel has md;
#	when it has none (no /proc/mdstat: the CI machine), an LVM volume
#	group of the two (vgcreate, metadata only: there is no
#	device-mapper either, and no backup written to /etc/lvm) instead,
#	which provisioning's free-disk check refuses the same way.
#	DIR/disks/array says "md NAME" or "lvm VG". Both disks must exist.
# disks_array_kind DIR
#	Prints md or lvm.
# disks_cleanup DIR
#	Undoes all of it, each part on its own, and never fails: the
#	cgroup's processes back to the root group and the cgroup removed,
#	umount, mdadm --stop (and --zero-superblock) or vgremove/pvremove,
#	losetup -d of every disk. Safe to call twice. Stop the sshd first
#	(its private mount namespace holds the mount too).
#
# Timings (2 cores): 4 disks, one mounted, two in a volume group, 0.3-0.5 s;
# the cleanup 0.1-0.3 s. A throttled seq write of fio measures 11.30 MB/s
# for 11300000.

DISKS_MIB=${DISKS_MIB:-256}

_disks_skip()
{
	if [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
		echo "disks.sh: $1; LAB_TEST_REQUIRE_SIM=1 makes this a" \
		    "failure" >&2
		exit 1
	fi
	echo "disks.sh: $1: skipping" >&2
	exit 77
}

# Prints "v1 ROOT" or "v2 ROOT" for the block cgroup, or fails.
_disks_cgroup_root()
{
	for _dr in /sys/fs/cgroup/blkio /sys/fs/cgroup/blkio,*; do
		if [ -f "$_dr/blkio.throttle.write_bps_device" ]; then
			echo "v1 $_dr"
			return 0
		fi
	done
	for _dr in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		if [ -f "$_dr/cgroup.controllers" ] &&
		    grep -qw io "$_dr/cgroup.controllers"; then
			echo "v2 $_dr"
			return 0
		fi
	done
	return 1
}

disks_require()
{
	_dmiss=
	[ "$(id -u)" -eq 0 ] || _dmiss=" root"
	for _dc in losetup fio mkfs.ext4 wipefs lsblk sha256sum mount umount \
	    python3; do
		command -v "$_dc" >/dev/null 2>&1 || _dmiss="$_dmiss $_dc"
	done
	[ -e /dev/loop-control ] || _dmiss="$_dmiss /dev/loop-control"
	if [ -n "$_dmiss" ]; then
		_disks_skip "missing:$_dmiss (packages util-linux, fio," \
		    "e2fsprogs, coreutils, python3; run as root; a kernel" \
		    "with loop devices)"
	fi
	if ! _disks_cgroup_root >/dev/null; then
		_disks_skip "no block cgroup: neither cgroup v1 blkio" \
		    "(blkio.throttle.write_bps_device) nor cgroup v2 with the" \
		    "io controller is mounted"
	fi
	if [ ! -r /proc/mdstat ] && ! command -v vgcreate >/dev/null 2>&1; then
		_disks_skip "no md in the kernel and no vgcreate (package lvm2)"
	fi
	if [ -r /proc/mdstat ] && ! command -v mdadm >/dev/null 2>&1; then
		_disks_skip "missing: mdadm (package mdadm)"
	fi
	return 0
}

disks_make()
{
	mkdir -p "$1/disks" || return 1
	: >>"$1/disks/loops" || return 1
	_dk=1
	while [ "$_dk" -le "$2" ]; do
		rm -f "$1/disks/$_dk.img"
		truncate -s "${3:-$DISKS_MIB}M" "$1/disks/$_dk.img" || return 1
		_dl=$(losetup -f --show "$1/disks/$_dk.img") || {
			echo "disks.sh: losetup of $1/disks/$_dk.img failed" >&2
			return 1
		}
		echo "$_dl" >>"$1/disks/loops"
		echo "$_dl" >"$1/disks/$_dk.dev"
		_dk=$((_dk + 1))
	done
}

disks_dev()
{
	cat "$1/disks/$2.dev"
}

disks_throttle()
{
	_dd=$1
	_dev=$(disks_dev "$1" "$2") || return 1
	_dbps=$3
	shift 3
	# lsblk pads MAJ:MIN with blanks
	_dmm=$(lsblk -ndo MAJ:MIN -- "$_dev" | tr -d ' ') || return 1
	_dcg=$(_disks_cgroup_root) || {
		echo "disks.sh: no block cgroup" >&2
		return 1
	}
	_dver=${_dcg%% *}
	_droot=${_dcg#* }
	_dgrp=$_droot/lab-rig-$$-$(basename "$_dd")
	mkdir -p "$_dgrp" || return 1
	echo "$_dver $_droot $_dgrp" >"$_dd/disks/cgroup"
	if [ "$_dver" = v1 ]; then
		echo "$_dmm $_dbps" >"$_dgrp/blkio.throttle.write_bps_device" ||
		    return 1
	else
		grep -qw io "$_droot/cgroup.subtree_control" 2>/dev/null ||
		    echo +io >"$_droot/cgroup.subtree_control" || return 1
		echo "$_dmm wbps=$_dbps" >"$_dgrp/io.max" || return 1
	fi
	for _dp; do
		echo "$_dp" >"$_dgrp/cgroup.procs" || return 1
	done
}

disks_mount()
{
	_dev=$(disks_dev "$1" "$2") || return 1
	mkdir -p "$1/mnt/$2" || return 1
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
	    -L "labrig$2" -- "$_dev" >/dev/null || return 1
	echo "$1/mnt/$2" >>"$1/disks/mounts"
	mount -o noatime -- "$_dev" "$1/mnt/$2" || return 1
	sync
}

disks_settle()
{
	_dd=$1
	shift
	_dlist=
	for _dk; do
		_dlist="$_dlist $(disks_dev "$_dd" "$_dk")" || return 1
	done
	_dend=$(($(date +%s) + 90))
	# shellcheck disable=SC2086
	_dprev=$(sync; sha256sum $_dlist) || return 1
	_dsame=0
	while [ "$_dsame" -lt 3 ]; do
		if [ "$(date +%s)" -ge "$_dend" ]; then
			echo "disks.sh: disks$* still change after 90 s" >&2
			return 1
		fi
		sleep 2
		# shellcheck disable=SC2086
		_dnow=$(sync; sha256sum $_dlist) || return 1
		if [ "$_dnow" = "$_dprev" ]; then
			_dsame=$((_dsame + 1))
		else
			_dsame=0
		fi
		_dprev=$_dnow
	done
	printf '%s\n' "$_dnow"
}

disks_array()
{
	_d1=$(disks_dev "$1" "$2") || return 1
	_d2=$(disks_dev "$1" "$3") || return 1
	if [ -r /proc/mdstat ]; then
		_dname=/dev/md/labrig-$$
		echo "md $_dname $_d1 $_d2" >"$1/disks/array"
		mdadm --create "$_dname" --run --level=1 --raid-devices=2 \
		    --metadata=1.2 --assume-clean -- "$_d1" "$_d2" \
		    >"$1/disks/mdadm.log" 2>&1 || {
			cat "$1/disks/mdadm.log" >&2
			return 1
		}
		return 0
	fi
	_dname=labrig$$
	echo "lvm $_dname $_d1 $_d2" >"$1/disks/array"
	# no backup or archive in this machine's /etc/lvm
	vgcreate --config 'backup { backup = 0 archive = 0 }' -y \
	    "$_dname" "$_d1" "$_d2" >"$1/disks/lvm.log" 2>&1 || {
		cat "$1/disks/lvm.log" >&2
		return 1
	}
}

disks_array_kind()
{
	cut -d' ' -f1 "$1/disks/array"
}

disks_cleanup()
{
	[ -d "$1/disks" ] || return 0
	if [ -f "$1/disks/cgroup" ]; then
		read -r _dver _droot _dgrp <"$1/disks/cgroup" || :
		if [ -n "${_dgrp:-}" ] && [ -d "$_dgrp" ]; then
			# a process can only leave a group for another
			while read -r _dp; do
				echo "$_dp" >"$_droot/cgroup.procs" 2>/dev/null || :
			done <"$_dgrp/cgroup.procs"
			rmdir "$_dgrp" 2>/dev/null || :
		fi
		rm -f "$1/disks/cgroup" || :
	fi
	if [ -f "$1/disks/mounts" ]; then
		while read -r _dm; do
			umount -- "$_dm" 2>/dev/null ||
			    umount -l -- "$_dm" 2>/dev/null || :
		done <"$1/disks/mounts"
		rm -f "$1/disks/mounts" || :
	fi
	if [ -f "$1/disks/array" ]; then
		read -r _dkind _dname _d1 _d2 <"$1/disks/array" || :
		case ${_dkind:-} in
		md)
			mdadm --stop "$_dname" >/dev/null 2>&1 || :
			mdadm --zero-superblock -- "$_d1" "$_d2" \
			    >/dev/null 2>&1 || :
			;;
		lvm)
			vgremove --config 'backup { backup = 0 archive = 0 }' \
			    -f -y "$_dname" >/dev/null 2>&1 || :
			pvremove -ff -y -- "$_d1" "$_d2" >/dev/null 2>&1 || :
			;;
		esac
		rm -f "$1/disks/array" || :
	fi
	if [ -f "$1/disks/loops" ]; then
		while read -r _dl; do
			[ -n "$_dl" ] || continue
			# only ours: the loop device still backed by our file
			case $(losetup -nO BACK-FILE -- "$_dl" 2>/dev/null) in
			"$1/disks/"*) losetup -d "$_dl" 2>/dev/null || : ;;
			esac
		done <"$1/disks/loops"
		# a device still open (a mount namespace of a process just
		# killed) is detached by the kernel when it is closed: wait
		# for that, 5 s at most, so that the caller finds it gone
		_dend=$(($(date +%s) + 5))
		while read -r _dl; do
			[ -n "$_dl" ] || continue
			while case $(losetup -nO BACK-FILE "$_dl" 2>/dev/null) in
			    "$1/disks/"*) true ;; *) false ;; esac &&
			    [ "$(date +%s)" -lt "$_dend" ]; do
				losetup -d "$_dl" 2>/dev/null || :
				sleep 0.05
			done
		done <"$1/disks/loops"
		rm -f "$1/disks/loops" || :
	fi
	return 0
}
