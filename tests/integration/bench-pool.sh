#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab bench HOST --pool NAME (issue 18) against a real zfs-fuse pool (a
# 256 MiB file vdev) behind a private sshd on 127.0.89.1:2222; fio really
# runs on a file in each scratch dataset. zfs-fuse is one daemon per
# machine: this test is not parallel and refuses to start beside one.
# Checks:
#  1. bad input exits 2 and creates nothing: an unknown property (with
#     did-you-mean), a read-only one, a pool that does not exist, a value
#     zfs refuses (zfs's own words; the datasets made before it are
#     destroyed), a property zfs-fuse does not have (sync: zfs's words),
#     no --yes without a terminal (the plan, then the refusal);
#  2. --dry-run: the plan (4 datasets, the fio command), nothing created;
#  3. --set compression=off,on --set primarycache=all,metadata --repeat 2
#     --yes: 4 rows with figures, the run and its 16 rows stored, no
#     lab-bench dataset left; --json: the documented shape, and the
#     report's pool_benchmarks (the same object) and Pool settings table;
#  4. the sessions killed mid-fio (the listener lives): exit 1, the run
#     stored as failed with no row, the dataset destroyed over a new
#     connection; the sshd killed (no new connection): exit 1, the exact
#     'zfs destroy' to run printed and stored, and it is what is left.
# Usage: bench-pool.sh LAB SRCDIR
set -u
LAB=$1
SRC=$2
NAME=bench-pool
ADDR=127.0.89.1
PORT=2222
POOL=labbench_pool
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
fail() { echo "$NAME: FAIL: $*" >&2; exit 1; }
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "${LAB_TEST_REQUIRE_SIM:-}" = 1 ]; then
		echo "$NAME: FAIL: $1 is missing (apt-get install $2)" >&2
		exit 1
	fi
	echo "$NAME: skipped: $1 is missing (apt-get install $2)" >&2
	exit 77
}
sshd_require
need zfs-fuse zfs-fuse
need zpool zfs-fuse
need fio fio
T=$(mktemp -d /tmp/lab-benchpool.XXXXXX) || exit 1
ZPID=
BG=
cleanup() {
	[ -z "$BG" ] || kill -KILL "$BG" 2>/dev/null
	stop_sshd
	if [ -n "$ZPID" ]; then
		i=0
		while zpool list "$POOL" >/dev/null 2>&1 &&
		    ! zpool destroy -f "$POOL" >/dev/null 2>&1 && [ $i -lt 50 ]; do
			sleep 0.2
			i=$((i + 1))
		done
		kill "$ZPID" 2>/dev/null
		i=0
		while kill -0 "$ZPID" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup

if ps -C zfs-fuse -o stat= 2>/dev/null | grep -q '^[^ZX]'; then
	fail "a zfs-fuse daemon is already running (one per machine)"
fi
zfs-fuse -p "$T/zfs-fuse.pid" --no-kstat-mount || fail "zfs-fuse did not start"
i=0
while [ ! -s "$T/zfs-fuse.pid" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
ZPID=$(cat "$T/zfs-fuse.pid")
harness_track zfs-fuse "$ZPID"
i=0
until zpool list >/dev/null 2>&1; do
	[ $i -lt 100 ] || fail "zfs-fuse does not answer"
	sleep 0.1
	i=$((i + 1))
done
truncate -s 256M "$T/pool.img"
mkdir "$T/mnt"
zpool create -o cachefile=none -m "$T/mnt/$POOL" "$POOL" "$T/pool.img" \
    >"$T/zpool.err" 2>&1 ||
    fail "zpool create: $(cat "$T/zpool.err")"

# in the machine's mount namespace: a private one (sshd.sh's default) would
# not see the datasets zfs-fuse mounts, and fio would write beside them
SSHD_KEEP_BASHRC=1 start_sshd "$ADDR" "$PORT" "$T/h" || fail "start_sshd"
cat >"$T/lab.yaml" <<EOF
hosts:
  - name: zbox
    model: generic-server
    ssh: {address: $ADDR, port: $PORT, user: root,
          identity: $T/h/id_ed25519, known_hosts: $T/h/known_hosts}
EOF
export LAB_DB="$T/lab.db"
"$LAB" init >/dev/null 2>&1 || fail "init"
"$LAB" import "$T/lab.yaml" >/dev/null 2>"$T/import.err" ||
    fail "import: $(cat "$T/import.err")"

run() {	# NAME ARGS...: LAB's stdout, stderr and exit status in T/NAME.*
	n=$1
	shift
	rc=0
	"$LAB" "$@" >"$T/$n.out" 2>"$T/$n.err" </dev/null || rc=$?
	echo "$rc" >"$T/$n.rc"
}
rc() { cat "$T/$1.rc"; }
has() { grep -q -- "$2" "$T/$1" || fail "$1 has no '$2': $(cat "$T/$1")"; }
none_left() {	# no lab-bench dataset on the pool
	zfs list -H -o name -r "$POOL" >"$T/zfs.list" 2>&1 || fail "zfs list"
	grep -q lab-bench "$T/zfs.list" &&
	    fail "$1: datasets left: $(cat "$T/zfs.list")"
	return 0
}
runs() {	# the pool runs stored: "status rows left_behind" a line
	python3 - "$LAB_DB" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in db.execute("SELECT id, status, (SELECT count(*) FROM pool_results "
        "WHERE run_id = pool_runs.id), left_behind FROM pool_runs ORDER BY id"):
    print(r[1], r[2], r[3] or "-")
EOF
}
export LAB_BENCH_POOL_RUNTIME=1

# 1. bad input: exit 2, nothing created, nothing stored
run typo bench zbox --pool "$POOL" --set compresion=off,on --yes
[ "$(rc typo)" = 2 ] || fail "a misspelt property: exit $(rc typo)"
has typo.err "unknown ZFS property 'compresion', did you mean 'compression'"
run ro bench zbox --pool "$POOL" --set used=1 --yes
[ "$(rc ro)" = 2 ] || fail "a read-only property: exit $(rc ro)"
has ro.err "used is a read-only property"
run nopool bench zbox --pool labbench_none --set compression=off --yes
[ "$(rc nopool)" = 2 ] || fail "no such pool: exit $(rc nopool)"
has nopool.err "zbox: no pool 'labbench_none': cannot open 'labbench_none'"
run badval bench zbox --pool "$POOL" --set compression=off,bogus --yes
[ "$(rc badval)" = 2 ] || fail "a bad value: exit $(rc badval)"
has badval.err "compression=bogus: cannot create '$POOL/lab-bench-[0-9]*-1': 'compression' must be one of"
none_left "a bad value"
run nosync bench zbox --pool "$POOL" --set sync=standard,disabled --yes
[ "$(rc nosync)" = 2 ] || fail "sync on zfs-fuse: exit $(rc nosync)"
has nosync.err "invalid property 'sync'"
run noyes bench zbox --pool "$POOL" --set compression=off,on
[ "$(rc noyes)" = 2 ] || fail "no --yes: exit $(rc noyes)"
has noyes.out "zfs create -o compression=on"
has noyes.err "run again with --yes"
none_left "bad input"
[ -z "$(runs)" ] || fail "bad input stored a run: $(runs)"

# 2. the plan
run plan bench zbox --pool "$POOL" --set compression=off,on \
    --set primarycache=all,metadata --repeat 2 --dry-run
[ "$(rc plan)" = 0 ] || fail "dry-run: exit $(rc plan): $(cat "$T/plan.err")"
[ "$(grep -c "zfs create" "$T/plan.out")" = 4 ] || fail "plan: $(cat "$T/plan.out")"
has plan.out "4. compression=on primarycache=metadata: zfs create -o compression=on -o primarycache=metadata $POOL/lab-bench-"
has plan.out "fio --output-format=json --direct=0"
has plan.err "not contacted"
none_left "dry-run"

# 3. the table: 4 rows with figures, stored, nothing left
run table bench zbox --pool "$POOL" --set compression=off,on \
    --set primarycache=all,metadata --repeat 2 --yes
[ "$(rc table)" = 0 ] || fail "the run: exit $(rc table): $(cat "$T/table.err")"
cat "$T/table.out"
has table.out "^SETTING  *SEQ-WRITE MB/S  *SEQ-READ MB/S  *RAND-READ IOPS  *RAND-WRITE IOPS"
for s in "compression=off primarycache=all" "compression=off primarycache=metadata" \
    "compression=on primarycache=all" "compression=on primarycache=metadata"; do
	grep -q "^$s  *[0-9.]* ±[0-9.]*  *[0-9.]* ±[0-9.]*  *[0-9.]* ±[0-9.]*  *[0-9.]* ±[0-9.]*$" \
	    "$T/table.out" || fail "no row of figures for '$s'"
done
[ "$(grep -c ' ±[0-9]' "$T/table.out")" = 4 ] || fail "not 4 rows"
has table.err "setting 4 of 4, run 2 of 2"
none_left "a run"
[ "$(runs)" = "done 16 -" ] || fail "stored: $(runs)"

run json bench zbox --pool "$POOL" --set compression=off,on --repeat 2 \
    --yes --json
[ "$(rc json)" = 0 ] || fail "--json: exit $(rc json): $(cat "$T/json.err")"
python3 - "$T/json.out" "$POOL" <<'EOF' || fail "the JSON shape"
import json, sys
j = json.load(open(sys.argv[1]))
assert sorted(j) == ["host", "pool", "repeat", "run", "settings"], j
assert j["host"] == "zbox" and j["pool"] == sys.argv[2], j
assert j["repeat"] == 2 and j["run"] == 2, j
assert [s["set"] for s in j["settings"]] == [{"compression": "off"},
    {"compression": "on"}], j["settings"]
for s in j["settings"]:
    assert [t["name"] for t in s["tests"]] == ["seq-write", "seq-read",
        "rand-read", "rand-write"], s
    for t in s["tests"]:
        assert sorted(t) == ["iops", "lat_mean_ms", "lat_p99_ms", "mb_s",
            "mb_s_max", "mb_s_min", "name", "runs"], t
        assert t["runs"] == 2 and t["mb_s"] > 0 and t["iops"] > 0, t
        assert t["mb_s_min"] <= t["mb_s"] <= t["mb_s_max"], t
print("json: ok")
EOF
none_left "--json"
# the report: the latest done run of the host and pool (run 2)
run rjson report --format json
[ "$(rc rjson)" = 0 ] || fail "report: $(cat "$T/rjson.err")"
python3 - "$T/rjson.out" "$T/json.out" <<'EOF' || fail "the report's pool_benchmarks"
import json, sys
r = json.load(open(sys.argv[1]))
j = json.load(open(sys.argv[2]))
assert r["pool_benchmarks"] == [j], r.get("pool_benchmarks")
EOF
run rhtml report --format html
has rhtml.out '<section id="pools"><h2>Pool settings</h2>'
has rhtml.out '<td>compression=on</td><td class="num">[0-9.]* ±'

# 4. the link dropped mid-fio
drop() {	# NAME KILL: kill the sessions (or the sshd) once fio runs
	rm -f "$T/$1.rc"
	LAB_BENCH_POOL_RUNTIME=20 "$LAB" bench zbox --pool "$POOL" \
	    --set compression=off,on --repeat 1 --yes \
	    >"$T/$1.out" 2>"$T/$1.err" </dev/null &
	BG=$!
	harness_track lab "$BG"
	# no fixed wait (a loaded machine takes its time): until fio runs,
	# or lab ends without it (fio runs 20 s, far longer than a poll)
	until pgrep -f "$T/mnt/$POOL/lab-bench-" >/dev/null; do
		# (an exited child stays a zombie, which kill -0 finds)
		case $(ps -o stat= -p "$BG" 2>/dev/null) in
		'' | Z*) false ;;
		esac ||
			fail "$1: lab ended before fio started: $(cat "$T/$1.err")"
		sleep 0.05
	done
	sleep 1
	$2 "$T/h"
	rc=0
	wait "$BG" || rc=$?
	BG=
	echo "$rc" >"$T/$1.rc"
}
drop sessions sshd_kill_sessions
[ "$(rc sessions)" = 1 ] || fail "sessions killed: exit $(rc sessions): $(cat "$T/sessions.err")"
has sessions.err "$ADDR:$PORT"
has sessions.err "stored as failed"
grep -q "left on the pool" "$T/sessions.err" &&
    fail "sessions killed: a dataset left: $(cat "$T/sessions.err")"
none_left "the sessions killed"
[ "$(runs | sed -n 3p)" = "failed 0 -" ] || fail "stored: $(runs)"
cat "$T/sessions.err"

drop sshd sshd_kill
[ "$(rc sshd)" = 1 ] || fail "sshd killed: exit $(rc sshd): $(cat "$T/sshd.err")"
has sshd.err "scratch datasets left on the pool: run on zbox: zfs destroy -f $POOL/lab-bench-"
cat "$T/sshd.err"
# what it says is left is what is left, and its command removes it
sed -n 's/.*run on zbox: //p' "$T/sshd.err" | tr ';' '\n' |
    sed 's/^ *zfs destroy -f //' | sort >"$T/said"
zfs list -H -o name -r "$POOL" | grep lab-bench | sort >"$T/left"
if ! [ -s "$T/left" ] || ! cmp -s "$T/said" "$T/left"; then
	fail "said left: $(cat "$T/said"); left: $(cat "$T/left")"
fi
runs | sed -n 4p | grep -q "^failed 0 zfs destroy -f $POOL/lab-bench-" ||
    fail "stored: $(runs)"
cmd=$(sed -n 's/.*run on zbox: //p' "$T/sshd.err")
# zfs-fuse calls a dataset busy for a while after the killed fio's file
# closes (as provision.sh's destroy_pool waits out): 10 s at most
i=0
while sh -c "$cmd" 2>"$T/destroy.err"; zfs list -H -o name -r "$POOL" |
    grep -q lab-bench; do
	[ $i -lt 20 ] || fail "the printed command failed: $cmd: $(cat "$T/destroy.err")"
	grep -q "busy\|does not exist" "$T/destroy.err" ||
	    fail "the printed command failed: $cmd: $(cat "$T/destroy.err")"
	i=$((i + 1))
	sleep 0.5
done
none_left "the printed command"
echo "$NAME: ok"
