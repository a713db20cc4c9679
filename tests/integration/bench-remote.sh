#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lib/bench-remote.c (issue 18) against the disk rig (disks.sh) behind a
# private sshd on 127.0.86.2:2222, through bench-probe (the host's ssh:
# block: the rig's key and known_hosts). Disk 1 is write-throttled to
# 11.3 MB/s, 2 is fresh, 3 mounted, 4 and 5 in an md array (an LVM volume
# group without md), 6 holds an ext4 it does not mount. Checks:
#  1. the free-disk check (provisioning's check-disks.sh): disk 2 free;
#     3 mounted, with its mount point; 4 in the array (md or lvm); 6 with
#     an ext4 signature; a device that does not exist, missing;
#  2. fio run by the runner on disk 1 returns its JSON whole (the job
#     seq-write in it) and measures the throttle within 20%;
#  3. the bounds: 3 MB of stdout keep the last LAB_SSH_OUTPUT_CAP bytes
#     and count them all; stderr comes back as its last lines with the
#     exit status; a command past its deadline fails naming the host and
#     port, with no output returned;
#  4. the sshd killed mid-command (fio running): the runner fails within
#     its deadline naming 127.0.86.2:2222, returns no output and no exit
#     status;
#  5. the mounted disk and the array members hold the same bytes as
#     before (sha256sum of each device).
# Usage: bench-remote.sh BENCH_PROBE SRCDIR
set -u
PROBE=$1
SRC=$2
NAME=bench-remote
ADDR=127.0.86.2
PORT=2222
THROTTLE=11300000
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
. "$SRC/tests/integration/disks.sh"
fail() { echo "$NAME: FAIL: $*" >&2; exit 1; }
sshd_require
disks_require
T=$(mktemp -d /tmp/lab-benchremote.XXXXXX) || exit 1
BG=
# shellcheck disable=SC2016 # the cleanup is eval'd at exit
harness_trap '[ -z "$BG" ] || kill -KILL "$BG" 2>/dev/null; stop_sshd;
    disks_cleanup "$T"; [ -n "${KEEP:-}" ] || rm -rf "$T"'

# small disks: the sums of the ones in use are read more than once
disks_make "$T" 6 64 || fail "disks_make"
disks_mount "$T" 3 || fail "disks_mount"
disks_array "$T" 4 5 || fail "disks_array"
mkfs.ext4 -q -F "$(disks_dev "$T" 6)" >/dev/null || fail "mkfs of disk 6"
start_sshd "$ADDR" "$PORT" "$T/h" || fail "start_sshd"
disks_throttle "$T" 1 "$THROTTLE" "$(cat "$T/h/sshd.pid")" ||
    fail "disks_throttle"
D1=$(disks_dev "$T" 1)
D2=$(disks_dev "$T" 2)
D3=$(disks_dev "$T" 3)
D4=$(disks_dev "$T" 4)
D5=$(disks_dev "$T" 5)
D6=$(disks_dev "$T" 6)
KIND=$(disks_array_kind "$T")

probe() {
	"$PROBE" -i "$(cat "$T/h/user_key")" -k "$T/h/known_hosts" "$@"
}
sums() { sha256sum "$D3" "$D4" "$D5"; }
disks_settle "$T" 3 4 5 >"$T/sums.before" || fail "the disks do not settle"

# 1. the free-disk check
probe "$ADDR" "$PORT" check 2 "$D2" 3 "$D3" 4 "$D4" 6 "$D6" 9 /dev/lab-none \
    >"$T/check.out" 2>"$T/check.err" || {
	cat "$T/check.err" >&2
	fail "the free-disk check did not run"
}
cat "$T/check.out"
expect() {
	grep -qxF -- "$1" "$T/check.out" || fail "check: no line '$1'"
}
expect "2 $D2: free"
expect "3 $D3: mounted"
expect "  mount: $T/mnt/3"
expect "4 $D4: $KIND"
expect "6 $D6: signatures"
expect "  reason: it holds a partition table or signatures (ext4): wipe it, or plan with --force"
expect "9 /dev/lab-none: missing"
if [ "$KIND" = lvm ]; then
	expect "  reason: it is an LVM physical volume ($D4)"
else
	expect "  reason: it is in an md array (/proc/mdstat)"
fi
# the free disk has no reason, and no other disk is called free
[ "$(grep -c ': free$' "$T/check.out")" = 1 ] || fail "more than one free"

# 2. fio through the runner, on the throttled disk
probe -T 60000 -O "$T/fio.json" "$ADDR" "$PORT" run "fio --name=seq-write \
    --filename=$D1 --rw=write --bs=1M --direct=1 --runtime=5 --time_based \
    --output-format=json" >"$T/fio.out" 2>"$T/fio.err" || {
	cat "$T/fio.err" >&2
	fail "the runner's fio failed"
}
grep -qx "exit: 0" "$T/fio.out" || fail "fio: $(cat "$T/fio.out")"
python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
job = j["jobs"][0]
assert job["jobname"] == "seq-write", job["jobname"]
mb = job["write"]["bw_bytes"] / 1e6
t = float(sys.argv[2]) / 1e6
print("fio through the runner: %.2f MB/s" % mb)
if not 0.8 * t <= mb <= 1.2 * t:
    sys.exit("%.2f MB/s, not %.2f within 20%%" % (mb, t))' \
    "$T/fio.json" "$THROTTLE" || fail "fio's JSON through the runner"

# 3. the bounds: size, stderr's tail, the deadline
probe -O "$T/big.out" "$ADDR" "$PORT" run \
    "head -c 3000000 /dev/zero | tr '\\0' x" >"$T/big.res" 2>&1 ||
    fail "big output: $(cat "$T/big.res")"
grep -qx "out: 3000000 bytes" "$T/big.res" || fail "big: $(cat "$T/big.res")"
[ "$(wc -c <"$T/big.out")" -eq 1048576 ] ||
    fail "big output kept $(wc -c <"$T/big.out") bytes, not the 1 MiB cap"
probe "$ADDR" "$PORT" run "i=0; while [ \$i -lt 2000 ]; do \
    echo line \$i >&2; i=\$((i + 1)); done; exit 3" >"$T/tail.res" 2>&1 ||
    fail "stderr tail: $(cat "$T/tail.res")"
grep -qx "exit: 3" "$T/tail.res" || fail "tail: no exit 3"
grep -qx "err: line 1999" "$T/tail.res" || fail "tail: no last line"
grep -qx "err: line 0" "$T/tail.res" && fail "tail: all of stderr kept"
[ "$(grep -c '^err: ' "$T/tail.res")" -le 205 ] || fail "tail: too long"
probe -T 1000 "$ADDR" "$PORT" run "echo early; sleep 30" \
    >"$T/late.out" 2>"$T/late.err" && fail "a command past its deadline passed"
grep -q "$ADDR:$PORT" "$T/late.err" || fail "deadline: $(cat "$T/late.err")"
grep -q "partial output\|^exit:" "$T/late.out" &&
    fail "deadline: output returned: $(cat "$T/late.out")"
echo "deadline: $(cat "$T/late.err")"

# 4. the sshd killed mid-command
rm -f "$T/started"
probe -T 60000 "$ADDR" "$PORT" run "touch $T/started; exec fio \
    --name=seq-write --filename=$D1 --rw=write --bs=1M --direct=1 \
    --runtime=40 --time_based --output-format=json" \
    >"$T/kill.out" 2>"$T/kill.err" &
BG=$!
harness_track bench-probe "$BG"
i=0
until [ -f "$T/started" ] && pgrep -x fio >/dev/null; do
	[ $i -lt 200 ] || fail "fio never started"
	i=$((i + 1))
	sleep 0.05
done
sleep 0.5
sshd_kill "$T/h"
rc=0
wait "$BG" || rc=$?
BG=
[ "$rc" = 1 ] || fail "killed: exit $rc, not 1: $(cat "$T/kill.err")"
grep -q "$ADDR:$PORT" "$T/kill.err" || fail "killed: $(cat "$T/kill.err")"
grep -q "partial output\|^exit:\|^signal:" "$T/kill.out" &&
    fail "killed: a result returned: $(cat "$T/kill.out")"
el=$(sed -n 's/^elapsed: //p' "$T/kill.out")
if [ -z "$el" ] || [ "$el" -ge 60000 ]; then
	fail "killed: not within the deadline"
fi
echo "killed: after $el ms: $(cat "$T/kill.err")"

# 5. nothing written to the disks in use
sums >"$T/sums.after"
cmp -s "$T/sums.before" "$T/sums.after" || {
	diff "$T/sums.before" "$T/sums.after" >&2
	fail "a disk in use changed"
}
echo "$NAME: ok"
