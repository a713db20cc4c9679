#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The target's sshd killed in the middle of 'lab provision --yes', on
# 127.0.24.40-49 (suite 'faults'): the listener and every session process
# are SIGKILLed while a step runs; lab exits 1, never reports success,
# and the run is stored as failed at that step with the later steps not
# run; the database passes PRAGMA integrity_check.
#
# The target is a private sshd whose ForceCommand puts the test's fake
# mdadm, LVM and disk tools first on PATH (nothing real is touched): the
# step to kill in blocks opening a FIFO nobody writes, after leaving a
# mark the test polls for, so the kill lands mid-step without sleeps.
# sh sshd-faults.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
sshd_require
for p in sqlite3 python3 mknod; do
	command -v $p >/dev/null 2>&1 && continue
	echo "sshd-faults.sh: no $p (packages sqlite3, python3, coreutils)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
done

T=$(mktemp -d /tmp/lab-sshd-faults.XXXXXX)
bg=
cleanup() {
	set +e
	[ -z "$bg" ] || kill -KILL "$bg" 2>/dev/null || :
	stop_sshd
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
export XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
NAME=sshd-faults.sh
. "$SRC/tests/integration/check.sh"

# waits for background lab PID, at most S seconds (a hang, not a timing:
# S is far beyond anything involved); sets rc to its exit code
wait_for() {
	_end=$(($(date +%s) + $2))
	while _sshd_alive "$1"; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			kill -KILL "$1" 2>/dev/null || true
			fail "$3 still running after $2 s: it hangs"
		fi
		sleep 0.02
	done
	rc=0
	wait "$1" || rc=$?
	bg=
}
# polls until the fake tool TOOL is blocked in its step, or lab is gone
wait_blocked() {
	_end=$(($(date +%s) + 60))
	until [ -s "$T/blocked" ]; do
		_sshd_alive "$bg" || {
			cat "$T/$2.err" >&2
			fail "$2: lab ended before $1 ran on the target"
		}
		[ "$(date +%s)" -lt "$_end" ] ||
			fail "$2: $1 did not run on the target within 60 s"
		sleep 0.02
	done
	[ "$(cat "$T/blocked")" = "$1" ] ||
		fail "$2: blocked in $(cat "$T/blocked"), not $1"
}

# The target's tools: each logs its command line; the one named in
# $T/block marks $T/blocked and waits on the FIFO $T/gate forever.
mkdir -p "$T/bin" "$T/dev"
mkfifo "$T/gate"
cat >"$T/fake" <<EOF
#!/bin/sh
t=\${0##*/}
echo "\$t \$*" >>"$T/calls"
if [ "\$t" = "\$(cat "$T/block" 2>/dev/null)" ]; then
	echo "\$t" >"$T/blocked"
	read -r _ <"$T/gate"
fi
case \$t in
vgs) exit 5 ;;		# no such volume group
mdadm) case \$1 in --detail) exit 1 ;; esac ;;
esac
exit 0
EOF
chmod 755 "$T/fake"
for t in mdadm pvcreate vgcreate lvcreate vgs pvs wipefs lsblk zpool \
    update-initramfs; do
	ln -s "$T/fake" "$T/bin/$t"
done
cat >"$T/target.sh" <<EOF
#!/bin/sh
# ForceCommand of the test's sshd: the fake tools first; never the last
# step of an md plan (it would write /etc/mdadm/mdadm.conf)
case \${SSH_ORIGINAL_COMMAND:-} in
"") exit 1 ;;
*"mkdir -p /etc/mdadm"*)
	echo "the test's target refuses to write /etc/mdadm" >&2
	exit 99 ;;
esac
PATH=$T/bin:\$PATH
export PATH
exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
EOF
chmod 755 "$T/target.sh"
# the disks: block device nodes no driver has (only stat(2)ed), which the
# sshd's private mount namespace shows under /dev/shm
mknod "$T/dev/d1" b 7 250
mknod "$T/dev/d2" b 7 251

# one sshd (and host) per round: 127.0.24.40, .41
start() {
	SSHD_USER_KEY="$T/id_ed25519" SSHD_BIND="$T/dev:/dev/shm" \
	    SSHD_CONFIG_EXTRA="ForceCommand $T/target.sh" \
	    start_sshd "127.0.24.$1" 2222 "$T/h$1" ||
	    fail "the sshd on 127.0.24.$1 did not start"
}
host() {	# NAME LAST-OCTET
	cat <<EOF
  - name: $1
    model: generic-server
    ssh: {address: 127.0.24.$2, port: 2222, user: root,
          identity: $T/id_ed25519, known_hosts: $T/h$2/known_hosts}
    disks:
      - {slot: 1, kind: sata, size: 1TB, device: /dev/shm/d1}
      - {slot: 2, kind: sata, size: 1TB, device: /dev/shm/d2}
EOF
}
start 40
start 41
{
	echo "hosts:"
	host fa 40
	host fb 41
} >"$T/lab.yaml"
run import import "$T/lab.yaml"
[ "$(rc import)" = 0 ] || { cat "$T/import.err" >&2; fail "import"; }

# the rig works: the checks pass through the fake tools
sshd_ssh "$T/h40" 'command -v mdadm; [ -b /dev/shm/d1 ] && echo block' \
    >"$T/rig.out" || fail "the target does not answer"
has rig.out "^$T/bin/mdadm$"
has rig.out "^block$"
ok

# the stored run of host $1 as JSON, both ways (newest run, --run N);
# checks it with the Python below: failed at step $2 (0-based) of $3
check_run() {
	"$LAB" history "$1" --json >"$T/h-$1.json" ||
		fail "history $1 --json"
	id=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))[0]["id"])' "$T/h-$1.json") ||
		fail "no run of $1 stored"
	"$LAB" history "$1" --run "$id" --json >"$T/r-$1.json" ||
		fail "history $1 --run $id --json"
	"$LAB" history "$1" --run "$id" >"$T/r-$1.txt" ||
		fail "history $1 --run $id"
	python3 - "$T/h-$1.json" "$T/r-$1.json" "$2" "$3" "$4" <<'EOF' ||
import json, sys
runs = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))
at, n, what = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
assert len(runs) == 1, "%d runs stored, not 1" % len(runs)
assert len(one) == 1 and one[0] == runs[0], (one, runs)
r = runs[0]
assert r["status"] == "failed", r["status"]
assert r["finished_at"] is not None, "the run never finished"
assert r["failed_step"] == at, "failed_step %s" % r["failed_step"]
assert ("step %d of %d failed" % (at + 1, n)) in r["message"], r["message"]
s = r["steps"]
assert len(s) == n, len(s)
assert [x["position"] for x in s] == list(range(n)), s
for x in s[:at]:
    assert x["exit_status"] == 0 and x["finished_at"], x
f = s[at]
assert what in f["text"], f["text"]
assert f["started_at"] is not None and f["exit_status"] is None, f
for x in s[at + 1:]:
    assert x["started_at"] is None and x["finished_at"] is None, x
    assert x["exit_status"] is None and not x["output"], x
EOF
	fail "the stored run of $1"
	has "r-$1.txt" "^run $id on $1: storage md-raid1, .*, failed$"
	[ "$(grep -c '^    not run$' "$T/r-$1.txt")" = $(($3 - $2 - 1)) ] ||
		fail "history $1 --run $id: not $(($3 - $2 - 1)) steps not run"
}
integrity() {
	[ "$(sqlite3 "$LAB_DB" 'PRAGMA integrity_check')" = ok ] ||
		fail "$1: integrity_check: $(sqlite3 "$LAB_DB" \
		    'PRAGMA integrity_check' | head -3)"
	[ "$(sqlite3 "$LAB_DB" "SELECT count(*) FROM provision_runs
	    WHERE status = 'running' OR finished_at IS NULL")" = 0 ] ||
		fail "$1: a run is left running"
}

# 1. Killed while step 3 of 5 (mdadm --create) runs: text output.
echo mdadm >"$T/block"
: >"$T/calls"
"$LAB" provision fa --layout md-raid1 --pool labflt --yes \
    >"$T/a.out" 2>"$T/a.err" &
bg=$!
wait_blocked mdadm a
grep -q '^mdadm --create /dev/md/labflt ' "$T/calls" ||
	fail "a: the blocked mdadm is not the create"
sshd_kill "$T/h40"
wait_for "$bg" 60 "lab provision fa"
[ "$rc" = 1 ] || { cat "$T/a.err" >&2; fail "a: exit $rc, not 1"; }
has a.err "^\[3/5\] run mdadm --create /dev/md/labflt .* failed (.*): fa: ssh 127.0.24.40:2222: connection lost"
has a.err "^lab: provision: fa: run 1 failed: step 3 of 5 failed: "
grep -q "applied" "$T/a.err" "$T/a.out" && fail "a: lab reported success"
grep -q "^\[4/5\]" "$T/a.err" && fail "a: a step after the kill began"
grep -Eq '^(pvcreate|vgcreate) ' "$T/calls" &&
	fail "a: a later step reached the target"
ok
check_run fa 2 5 "mdadm --create /dev/md/labflt"
integrity "a"
ok

# 2. Killed while step 4 of 5 (pvcreate) runs: --json output.
rm -f "$T/blocked"
echo pvcreate >"$T/block"
: >"$T/calls"
"$LAB" provision fb --layout md-raid1 --pool labflt --yes --json \
    >"$T/b.out" 2>"$T/b.err" &
bg=$!
wait_blocked pvcreate b
sshd_kill "$T/h41"
wait_for "$bg" 60 "lab provision fb --json"
[ "$rc" = 1 ] || { cat "$T/b.err" >&2; fail "b: exit $rc, not 1"; }
python3 - "$T/b.out" <<'EOF' || fail "b: the JSON lab printed"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["status"] == "failed" and r["failed_step"] == 3, r
assert [x["exit_status"] for x in r["steps"]] == [0, 0, 0, None], r["steps"]
EOF
grep -q "applied" "$T/b.err" && fail "b: lab reported success"
grep -q '^vgcreate ' "$T/calls" && fail "b: vgcreate ran after the kill"
check_run fb 3 5 "pvcreate --yes /dev/md/labflt"
integrity "b"
ok

# 3. The host stays down: a clear error naming it, no new run stored,
# nothing half written; the audit log has both failed runs.
run c provision fa --layout md-raid1 --pool labflt --yes
[ "$(rc c)" = 1 ] || { cat "$T/c.err" >&2; fail "c: exit $(rc c)"; }
has c.err "^lab: provision: fa: ssh 127.0.24.40:2222: "
[ "$(sqlite3 "$LAB_DB" 'SELECT count(*) FROM provision_runs')" = 2 ] ||
	fail "c: a run was stored for a host that cannot be reached"
integrity "c"
run log log --json
python3 - "$T/log.out" <<'EOF' || fail "audit log"
import json, sys
rows = [r for r in json.load(open(sys.argv[1])) if r["command"] == "provision"]
assert len(rows) == 3, rows
assert all(r["result"] != 0 for r in rows), rows
msgs = " ".join(r["message"] or "" for r in rows)
assert "fa: run 1 failed" in msgs and "fb: run 2 failed" in msgs, msgs
EOF
ok

echo "$NAME: $n groups of checks passed"
