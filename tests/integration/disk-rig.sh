#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The disk rig itself (disks.sh, issue 18): four loop devices, disk 1's
# writes throttled to 11.3 MB/s for a private sshd on 127.0.86.1:2222, disk
# 3 mounted, disks 4 and 5 in an md array (an LVM volume group without md).
# Checks:
#  1. fio through the sshd (OpenSSH's client, the rig's key): a sequential
#     write (1 MiB blocks, direct I/O, 5 s) on disk 1 measures 11.3 MB/s
#     within 20%, and the same job on disk 2, unthrottled, at least three
#     times that;
#  2. the mounted disk and the array members are what they claim to be
#     (lsblk, /proc/mdstat or pvs), as seen through the sshd;
#  3. the cleanup, run by the test before it ends, leaves no loop device on
#     the test's files, no cgroup, no md array or volume group, no mount
#     and no process behind (and harness.sh checks the processes again).
# Prints the set-up and tear-down times and both figures.
# Usage: disk-rig.sh SRCDIR
set -u
SRC=$1
NAME=disk-rig
ADDR=127.0.86.1
PORT=2222
THROTTLE=11300000
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
. "$SRC/tests/integration/disks.sh"
fail() { echo "$NAME: FAIL: $*" >&2; exit 1; }
sshd_require
disks_require
T=$(mktemp -d /tmp/lab-diskrig.XXXXXX) || exit 1
# shellcheck disable=SC2016 # the cleanup is eval'd at exit
harness_trap 'stop_sshd; disks_cleanup "$T"; [ -n "${KEEP:-}" ] || rm -rf "$T"'

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# What of the rig the machine shows: our loop devices, mounts, cgroups,
# arrays and volume groups (other tests' are none of ours).
rig_state() {
	losetup -nO NAME,BACK-FILE 2>/dev/null | grep -F "$T/" | sort
	grep -F "$T/" /proc/mounts
	find /sys/fs/cgroup -maxdepth 3 -type d -name "lab-rig-$$-*" 2>/dev/null
	[ ! -r /proc/mdstat ] || grep "^md" /proc/mdstat
	[ ! -e "/dev/md/labrig-$$" ] || echo "/dev/md/labrig-$$"
	if command -v vgs >/dev/null 2>&1; then
		LVM_SUPPRESS_FD_WARNINGS=1 vgs --noheadings -o vg_name \
		    2>/dev/null | grep -w "labrig$$"
	fi
	return 0
}

# fio_write DEV: a 5 s sequential write through the sshd, in MB/s
fio_write() {
	sshd_ssh "$T/h" "fio --name=seq-write --filename=$1 --rw=write \
	    --bs=1M --direct=1 --runtime=5 --time_based --output-format=json" \
	    >"$T/fio.json" 2>"$T/fio.err" || {
		cat "$T/fio.err" >&2
		fail "fio on $1 through the sshd failed"
	}
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print("%.2f" % (j["jobs"][0]["write"]["bw_bytes"] / 1e6))' "$T/fio.json" ||
	    fail "fio's JSON for $1 has no write bandwidth"
}

before=$(rig_state)
t0=$(now_ms)
disks_make "$T" 5 || fail "disks_make"
disks_mount "$T" 3 || fail "disks_mount"
disks_array "$T" 4 5 || fail "disks_array"
start_sshd "$ADDR" "$PORT" "$T/h" || fail "start_sshd"
disks_throttle "$T" 1 "$THROTTLE" "$(cat "$T/h/sshd.pid")" ||
    fail "disks_throttle"
t1=$(now_ms)
D1=$(disks_dev "$T" 1)
D2=$(disks_dev "$T" 2)
D3=$(disks_dev "$T" 3)
D4=$(disks_dev "$T" 4)
KIND=$(disks_array_kind "$T")
echo "rig: $D1 throttled, $D2 its peer, $D3 mounted, $D4 in $KIND;" \
    "set up in $((t1 - t0)) ms"

# 1. the throttle, measured by fio through the sshd
slow=$(fio_write "$D1")
fast=$(fio_write "$D2")
echo "fio seq-write: throttled $slow MB/s, peer $fast MB/s"
python3 -c 'import sys
t, s, f = float(sys.argv[1]) / 1e6, float(sys.argv[2]), float(sys.argv[3])
if not 0.8 * t <= s <= 1.2 * t:
    sys.exit("throttled disk: %.2f MB/s, not %.2f within 20%%" % (s, t))
if f < 3 * t:
    sys.exit("peer: %.2f MB/s, not well above %.2f" % (f, t))' \
    "$THROTTLE" "$slow" "$fast" || fail "the throttle"

# 2. the in-use disks, seen through the sshd
sshd_ssh "$T/h" "lsblk -nro MOUNTPOINT $D3" >"$T/mnt.out" 2>&1
grep -qxF "$T/mnt/3" "$T/mnt.out" || fail "$D3 is not mounted on $T/mnt/3" \
    "in the sshd's namespace: $(cat "$T/mnt.out")"
if [ "$KIND" = md ]; then
	sshd_ssh "$T/h" "cat /proc/mdstat" >"$T/mdstat" 2>&1
	grep -q "${D4##*/}\[" "$T/mdstat" || fail "$D4 is not in /proc/mdstat"
else
	sshd_ssh "$T/h" "pvs --noheadings -o pv_name,vg_name" \
	    >"$T/pvs" 2>/dev/null
	grep -q "$D4 *labrig$$" "$T/pvs" ||
	    fail "$D4 is not a physical volume of labrig$$: $(cat "$T/pvs")"
fi

# 3. the cleanup leaves nothing
[ "$(rig_state)" != "$before" ] || fail "the rig left no trace while up"
t2=$(now_ms)
stop_sshd
disks_cleanup "$T"
t3=$(now_ms)
after=$(rig_state)
if [ "$after" != "$before" ]; then
	echo "before:" >&2
	printf '%s\n' "$before" >&2
	echo "after:" >&2
	printf '%s\n' "$after" >&2
	fail "the cleanup left some of the rig behind"
fi
for d in "$D1" "$D2" "$D3" "$D4"; do
	case $(losetup -nO BACK-FILE -- "$d" 2>/dev/null) in
	"$T/"*) fail "$d is still attached to the test's file" ;;
	esac
done
harness_leaks || fail "processes left behind"
disks_cleanup "$T" || fail "a second cleanup failed"
echo "torn down in $((t3 - t2)) ms"
echo "$NAME: ok"
