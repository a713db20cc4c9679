#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab burnin (issue 18) against the disk rig (disks.sh) behind a private
# sshd on 127.0.88.1:2222. Host rig's disks by slot: free (a fresh loop
# device), mounted (ext4, mounted), md1 and md2 (an md array, or an LVM
# volume group without md), bad (a 64 MiB loop device over a sparse file
# on a 40 MiB tmpfs: writes past 40 MiB fail in the loop driver, so
# badblocks finds real write errors), slow (write-throttled to 1 MB/s by
# the rig's block cgroup, so that badblocks runs long). Checks:
#  1. --dry-run prints the plan and runs nothing; without --yes off a
#     terminal: exit 2, nothing run (a marker on disk free survives, no
#     run stored); an unknown slot: exit 2 with did-you-mean;
#  2. the free disk burned in clean: exit 0, errors 0, stored as a bench
#     run of profile burnin with its disk;
#  3. free, mounted, md1 and bad at once (--json): mounted and md1
#     refused with the free-disk check's reason (printed and stored), bad
#     with errors and a burnin-errors finding, free clean; exit 1; the
#     disks in use hold the same bytes as before (sha256sum);
#  4. --timeout 2 on the slow disk: that disk fails past its deadline,
#     exit 1;
#  5. the sshd killed mid-burnin: exit 1 naming 127.0.88.1:2222, the run
#     stored as failed with no disk.
# Usage: burnin.sh LAB SRCDIR
set -u
LAB=$1
SRC=$2
NAME=burnin
ADDR=127.0.88.1
PORT=2222
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
. "$SRC/tests/integration/disks.sh"
sshd_require
disks_require
command -v badblocks >/dev/null 2>&1 || _disks_skip "no badblocks (e2fsprogs)"
command -v sqlite3 >/dev/null 2>&1 || _disks_skip "no sqlite3 (package sqlite3)"
T=$(mktemp -d /tmp/lab-burnin.XXXXXX) || exit 1
. "$SRC/tests/integration/check.sh"
BG=
# shellcheck disable=SC2016 # the cleanup is eval'd at exit
harness_trap '[ -z "$BG" ] || kill -KILL "$BG" 2>/dev/null; stop_sshd;
    disks_cleanup "$T"; umount "$T/disks/tmpfs" 2>/dev/null;
    [ -n "${KEEP:-}" ] || rm -rf "$T"'

disks_make "$T" 4 64 || fail "disks_make"
disks_make_slow() {
	truncate -s 64M "$T/disks/6.img" &&
	    losetup -f --show "$T/disks/6.img" >"$T/disks/6.dev" &&
	    cat "$T/disks/6.dev" >>"$T/disks/loops"
}
disks_make_slow || fail "the slow disk"
disks_mount "$T" 2 || fail "disks_mount"
disks_array "$T" 3 4 || fail "disks_array"
start_sshd "$ADDR" "$PORT" "$T/h" || fail "start_sshd"
disks_throttle "$T" 6 1000000 "$(cat "$T/h/sshd.pid")" ||
    fail "disks_throttle"
# the bad disk, made after the sshd so its private namespace holds no tmpfs
mkdir -p "$T/disks/tmpfs" || fail "mkdir"
mount -t tmpfs -o size=40m tmpfs "$T/disks/tmpfs" || fail "tmpfs"
truncate -s 64M "$T/disks/tmpfs/5.img" || fail "truncate"
losetup -f --show "$T/disks/tmpfs/5.img" >"$T/disks/5.dev" || fail "losetup"
cat "$T/disks/5.dev" >>"$T/disks/loops"
for k in 1 2 3 4 5 6; do
	eval "D$k=\$(disks_dev \"\$T\" $k)"
done
KIND=$(disks_array_kind "$T")

cat >"$T/lab.yaml" <<EOF
hosts:
  - name: rig
    model: generic-server
    ssh: {address: $ADDR, port: $PORT, user: root,
          identity: $(cat "$T/h/user_key"), known_hosts: $T/h/known_hosts}
    disks:
      - {slot: free, kind: sata, size: 64MiB, device: $D1}
      - {slot: mounted, kind: sata, size: 64MiB, device: $D2}
      - {slot: md1, kind: sata, size: 64MiB, device: $D3}
      - {slot: md2, kind: sata, size: 64MiB, device: $D4}
      - {slot: bad, kind: sata, size: 64MiB, device: $D5}
      - {slot: slow, kind: sata, size: 64MiB, device: $D6}
EOF
export LAB_DB="$T/lab.db"
run init init
run import import "$T/lab.yaml"
[ "$(rc import)" = 0 ] || { cat "$T/import.err" >&2; fail "import"; }
q() { sqlite3 "$T/lab.db" "$1"; }
sums() { sha256sum "$D2" "$D3" "$D4"; }
disks_settle "$T" 2 3 4 >"$T/sums.before" || fail "the disks do not settle"

# 1. the plan, the refusal without --yes, an unknown slot: nothing runs
printf 'lab-burnin-marker' | dd of="$D1" conv=notrunc status=none ||
    fail "marker"
marked() { [ "$(head -c 17 "$D1")" = lab-burnin-marker ]; }
run dry burnin rig free mounted --dry-run
[ "$(rc dry)" = 0 ] || { cat "$T/dry.err" >&2; fail "dry-run exit $(rc dry)"; }
has dry.out "rig  *free  *$D1 .*planned"
has dry.out "rig  *mounted  *$D2 .*planned"
has dry.err "nothing was run"
run noyes burnin rig free </dev/null
[ "$(rc noyes)" = 2 ] || fail "without --yes: exit $(rc noyes), not 2"
has noyes.err "this erases every byte of 1 disk; run again with --yes"
run typo burnin rig fre --yes
[ "$(rc typo)" = 2 ] || fail "unknown slot: exit $(rc typo), not 2"
has typo.err "host 'rig' has no disk in slot 'fre'; did you mean 'free'?"
marked || fail "a plan, a refusal or a typo wrote to disk free"
[ "$(q 'SELECT count(*) FROM bench_runs')" = 0 ] || fail "a run was stored"
echo "plan: ok"

# 2. the free disk, clean
run clean burnin rig free --yes
[ "$(rc clean)" = 0 ] || { cat "$T/clean.err" >&2; fail "clean: exit $(rc clean)"; }
cat "$T/clean.out"
has clean.out "rig  *free  *$D1 .*badblocks -w  *0  *clean"
has clean.err "slot free $D1: burn-in started (badblocks -w)"
has clean.err "slot free $D1: clean ("
marked && fail "disk free was not written"
[ "$(q "SELECT profile, status FROM bench_runs")" = "burnin|done" ] ||
    fail "stored: $(q 'SELECT * FROM bench_runs')"
[ "$(q "SELECT slot, burnin_result, burnin_method, burnin_errors
    FROM bench_disks")" = "free|clean|badblocks -w|0" ] ||
    fail "stored disk: $(q 'SELECT * FROM bench_disks')"
echo "clean: ok"

# 3. refused, errors and clean in one run
LAB_REAL=$LAB
if [ -x /usr/bin/time ]; then	# the peak RSS, printed for the record
	printf '#!/bin/sh\nexec /usr/bin/time -f %%M -o %s %s "$@"\n' \
	    "$T/mix.rss" "$LAB_REAL" >"$T/timed-lab"
	chmod 755 "$T/timed-lab"
	LAB=$T/timed-lab
fi
run mix burnin rig free mounted md1 bad --yes --json
LAB=$LAB_REAL
[ ! -s "$T/mix.rss" ] || echo "mix: peak RSS $(tail -1 "$T/mix.rss") KiB"
[ "$(rc mix)" = 1 ] || { cat "$T/mix.err" >&2; fail "mix: exit $(rc mix), not 1"; }
python3 - "$T/mix.out" "$D2" "$T/mnt/2" "$KIND" <<'EOF' || fail "mix JSON"
import json, sys
runs = json.load(open(sys.argv[1]))
assert isinstance(runs, list) and len(runs) == 1, runs
r = runs[0]
for k in ("host", "run", "status", "disks", "findings"):
    assert k in r, k
assert r["host"] == "rig" and r["status"] == "done", r
assert isinstance(r["run"], int), r
d = {x["slot"]: x for x in r["disks"]}
for x in r["disks"]:
    for k in ("slot", "device", "serial", "model", "kind", "controller",
              "burnin", "smart_before", "smart", "refused", "result"):
        assert k in x, (k, x)
f = d["free"]
assert f["result"] == "clean" and f["refused"] is None, f
assert f["burnin"]["method"] == "badblocks -w" and f["burnin"]["errors"] == 0, f
assert isinstance(f["burnin"]["seconds"], float), f
assert f["smart_before"]["health"] == "unknown", f
m = d["mounted"]
assert m["result"] == "refused" and m["burnin"] is None, m
assert "is mounted on " + sys.argv[3] in m["refused"], m
a = d["md1"]
assert a["result"] == "refused", a
want = "LVM physical volume" if sys.argv[4] == "lvm" else "md array"
assert want in a["refused"], a
b = d["bad"]
assert b["result"] == "errors" and b["burnin"]["errors"] > 0, b
assert "write" in b["burnin"]["detail"], b
fs = [x for x in r["findings"] if x["kind"] == "burnin-errors"]
assert len(fs) == 1 and fs[0]["severity"] == "critical", r["findings"]
assert "slot bad" in fs[0]["subject"] or "bad" in fs[0]["subject"], fs
print("bad disk: %d errors (%s)" % (b["burnin"]["errors"], b["burnin"]["detail"]))
EOF
has mix.err "slot mounted $D2: refused: it (or a partition of it) is mounted on $T/mnt/2"
has mix.err "2 disks were not burned in clean\|3 disks were not burned in clean"
[ "$(q "SELECT burnin_result, skipped LIKE '%mounted on%' FROM bench_disks
    WHERE slot = 'mounted'")" = "refused|1" ] ||
    fail "refusal not stored: $(q "SELECT * FROM bench_disks WHERE slot = 'mounted'")"
[ "$(q "SELECT burnin_result, burnin_errors > 0 FROM bench_disks
    WHERE slot = 'bad'")" = "errors|1" ] || fail "errors not stored"
sums >"$T/sums.after"
cmp -s "$T/sums.before" "$T/sums.after" || {
	diff "$T/sums.before" "$T/sums.after" >&2
	fail "a disk in use changed"
}
echo "mix: ok"

# 4. a disk past its deadline fails alone
run late burnin rig slow --timeout 2 --yes
[ "$(rc late)" = 1 ] || { cat "$T/late.err" >&2; fail "late: exit $(rc late)"; }
has late.err "slot slow $D6: failed (.*did not finish within the deadline (2 s)"
has late.out "rig  *slow  *$D6 .*failed"
echo "deadline: ok"

# 5. the sshd killed mid-burnin: a failed run, no partial result
"$LAB" burnin rig slow --yes >"$T/kill.out" 2>"$T/kill.err" &
BG=$!
harness_track lab "$BG"
i=0
until pgrep -x badblocks >/dev/null; do
	[ $i -lt 300 ] || fail "badblocks never started: $(cat "$T/kill.err")"
	i=$((i + 1))
	sleep 0.05
done
sleep 0.5
sshd_kill "$T/h"
rc=0
wait "$BG" || rc=$?
BG=
[ "$rc" = 1 ] || fail "killed: exit $rc, not 1: $(cat "$T/kill.err")"
has kill.err "$ADDR:$PORT"
has kill.err "failed, no result kept"
grep -q "clean\|errors" "$T/kill.out" && fail "killed: a result shown"
last=$(q "SELECT id FROM bench_runs ORDER BY id DESC LIMIT 1")
[ "$(q "SELECT status FROM bench_runs WHERE id = $last")" = failed ] ||
    fail "killed: stored $(q "SELECT * FROM bench_runs WHERE id = $last")"
[ "$(q "SELECT count(*) FROM bench_disks WHERE run_id = $last")" = 0 ] ||
    fail "killed: a partial result stored"
echo "killed: $(tail -1 "$T/kill.err")"
echo "$NAME: ok"
