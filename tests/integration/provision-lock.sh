#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One 'lab provision --yes' at a time on a host, and no mounting over a
# folder that holds files (issue 16, items 7 and 8), against a private
# sshd on 127.0.64.1 whose ForceCommand only pretends: it logs each step
# and exits 0, but runs for real lab's lock on the target (flock) and the
# layout's read-only mount check. Checks:
#  1. a second apply while the first runs is refused (exit 1, nothing run
#     on the target) and only one run is recorded, done;
#  2. lab killed (-9) mid-apply: 'lab history --json' shows the run
#     abandoned at the step it reached; the target's lock is let go; the
#     next apply runs;
#  3. the target's lock held (another lab database, by hand): the run
#     fails before its first step, nothing run, not recorded done;
#  4. a mount point that is a folder holding files is refused naming the
#     host and folder, unless --force; a symbolic link is always refused.
# Every lab run is bounded (timeout 30 s, and prlimit --as 1 GiB but
# under ASan). Usage: provision-lock.sh LAB SRCDIR
set -u
LAB=$1
SRC=$2
NAME=provision-lock
T=$(mktemp -d /tmp/lab-provlock.XXXXXX) || exit 1
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/check.sh"
. "$SRC/tests/integration/sshd.sh"
sshd_require
command -v flock >/dev/null 2>&1 || fail "flock is missing (util-linux)"
command -v prlimit >/dev/null 2>&1 || fail "prlimit is missing (util-linux)"

BG=
HOLDER=
cleanup() {
	[ -z "$BG" ] || kill -KILL "$BG" 2>/dev/null
	[ -z "$HOLDER" ] || kill -KILL "$HOLDER" 2>/dev/null
	: >"$T/go"
	stop_sshd
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
export LAB_DB="$T/lab.db" HOME="$T" XDG_CONFIG_HOME="$T/config"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
export XDG_DATA_HOME="$T/data" LAB_TARGET_LOCK="$T/target/provision.lock"
LOCK=$LAB_TARGET_LOCK

# bounded: a wall deadline and, but under ASan (its shadow memory is
# terabytes of address space), 1 GiB of address space
LIMIT="prlimit --as=1073741824"
ldd "$LAB" 2>/dev/null | grep -q libasan && LIMIT=
lab() {		# NAME ARGS...: run, with the bounds
	_n=$1
	shift
	_rc=0
	# shellcheck disable=SC2086
	timeout 30 $LIMIT "$LAB" "$@" >"$T/$_n.out" 2>"$T/$_n.err" || _rc=$?
	echo "$_rc" >"$T/$_n.rc"
	[ "$_rc" != 124 ] || fail "$_n: lab still running after 30 s"
}
# waits (30 s at most) until the target logged a step matching REGEX
wait_step() {
	_i=0
	until grep -q -- "$1" "$T/steps.log" 2>/dev/null; do
		[ $_i -lt 300 ] || fail "no step '$1' on the target within 30 s"
		[ -z "$BG" ] || kill -0 "$BG" 2>/dev/null || {
			cat "$T/bg.err" >&2
			fail "lab ended before '$1' ran on the target"
		}
		sleep 0.1
		_i=$((_i + 1))
	done
}
# waits (10 s at most) until nobody holds the target's lock
wait_unlocked() {
	_i=0
	until flock -n "$LOCK" true; do
		[ $_i -lt 100 ] || fail "$1: the target's lock is still held 10 s on"
		sleep 0.1
		_i=$((_i + 1))
	done
}
steps() { wc -l <"$T/steps.log" | tr -d ' '; }

# The target: logs every command (one line each) but the lock, its release and the mount
# check, which run for real; mkfs waits for $T/go while $T/slow exists
# (30 s at most).
mkdir -p "$T/target" "$T/mnt" "$T/bin"
: >"$T/steps.log"
# the check only asks that sfdisk is there: a stand-in (never run)
printf '#!/bin/sh\nexit 1\n' >"$T/bin/sfdisk"
chmod 755 "$T/bin/sfdisk"
cat >"$T/target.sh" <<EOF
#!/bin/sh
c=\${SSH_ORIGINAL_COMMAND:-}
case \$c in
"") exit 1 ;;
*"$T/target/provision.lock"*|"kill "*|*"Can this host make the arrays"*)
	PATH=\$PATH:$T/bin exec /bin/sh -c "\$c" ;;
esac
{ printf '%s' "\$c" | tr '\n' ' '; echo; } >>"$T/steps.log"
case \$c in
*mkfs*)
	i=0
	while [ -e "$T/slow" ] && [ ! -e "$T/go" ] && [ \$i -lt 300 ]; do
		sleep 0.1
		i=\$((i + 1))
	done ;;
esac
exit 0
EOF
chmod 755 "$T/target.sh"
SSHD_CONFIG_EXTRA="ForceCommand $T/target.sh" \
    start_sshd 127.0.64.1 2222 "$T/h1" || fail "sshd did not start"

cat >"$T/lab.yaml" <<EOF
hosts:
  - name: tgt
    model: generic-server
    ssh: {address: 127.0.64.1, port: 2222, user: root,
          identity: $T/h1/id_ed25519, known_hosts: $T/h1/known_hosts}
    disks:
      - {slot: 1, kind: sata, size: 1GiB, device: /dev/lab-test-none-1}
EOF
layout() {	# FILE MOUNT
	cat >"$1" <<EOF
disks:
  - slot: 1
    partitions:
      - {size: rest, fs: ext4, mount: $2}
EOF
}
layout "$T/data.yaml" "$T/mnt/data"
run init init
run import import "$T/lab.yaml"
[ "$(rc import)" = 0 ] || { cat "$T/import.err" >&2; fail "import"; }
history_check() {	# NAME PYTHON: asserts on 'lab history tgt --json'
	lab "$1" history tgt --json
	[ "$(rc "$1")" = 0 ] || { cat "$T/$1.err" >&2; fail "$1: history"; }
	python3 -c "import json, sys
runs = json.load(open(sys.argv[1]))
$2" "$T/$1.out" || fail "$1: the recorded runs"
}

# 1. Two applies at once: the second is refused and runs nothing.
: >"$T/slow"
$LIMIT "$LAB" provision tgt --layout "$T/data.yaml" --yes \
    >"$T/bg.out" 2>"$T/bg.err" &
BG=$!
harness_track lab "$BG"
wait_step mkfs
before=$(steps)
lab second provision tgt --layout "$T/data.yaml" --yes
[ "$(rc second)" = 1 ] || { cat "$T/second.err" >&2; fail "second apply: exit $(rc second), not 1"; }
has second.err "tgt: provisioning run 1 is in progress (pid $BG on .* since "
[ "$(steps)" = "$before" ] || fail "the refused apply ran steps on the target"
: >"$T/go"
wait "$BG" || { cat "$T/bg.err" >&2; fail "the first apply failed"; }
BG=
history_check hist1 '
assert len(runs) == 1, runs
assert runs[0]["status"] == "done", runs[0]'
wait_unlocked "a done run"
ok

# 2. lab killed mid-apply: abandoned, and the host is free again.
rm -f "$T/go"
: >"$T/slow"
: >"$T/steps.log"
"$LAB" provision tgt --layout "$T/data.yaml" --yes \
    >"$T/bg.out" 2>"$T/bg.err" &
BG=$!
harness_track lab "$BG"
wait_step mkfs
kill -KILL "$BG"
wait "$BG" 2>/dev/null
BG=
: >"$T/go"
history_check hist2 '
r = runs[0]
assert r["status"] == "abandoned", r
assert "abandoned" in r["message"] and "pid" in r["message"], r
s = r["steps"][r["failed_step"]]
assert "mkfs" in s["text"] and s["finished_at"] is None, s
assert runs[1]["status"] == "done", runs[1]'
wait_unlocked "lab killed"
rm -f "$T/slow"
lab third provision tgt --layout "$T/data.yaml" --yes
[ "$(rc third)" = 0 ] || { cat "$T/third.err" >&2; fail "apply after an abandoned run: exit $(rc third)"; }
ok

# 3. The target's lock held (another lab database): fails before any step.
# one process holds it (a flock(1) with a child would leave the lock to
# the child when killed)
(flock -n 9 && exec sleep 60) 9>>"$LOCK" &
HOLDER=$!
harness_track sleep "$HOLDER"
i=0
while flock -n "$LOCK" true; do
	[ $i -lt 100 ] || fail "the test could not take the target's lock"
	sleep 0.1
	i=$((i + 1))
done
: >"$T/steps.log"
lab held provision tgt --layout "$T/data.yaml" --yes
[ "$(rc held)" = 1 ] || { cat "$T/held.err" >&2; fail "held lock: exit $(rc held), not 1"; }
has held.err "tgt: another provisioning run holds the lock $LOCK on the target"
[ "$(steps)" = 0 ] || fail "steps ran on a target whose lock is held"
grep -q "applied" "$T/held.err" && fail "held lock: lab reported success"
history_check hist3 '
assert runs[0]["status"] == "failed", runs[0]
assert "holds the lock" in runs[0]["message"], runs[0]
assert all(s["started_at"] is None for s in runs[0]["steps"]), runs[0]'
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null
HOLDER=
ok

# 4. A mount point holding files, unless --force; a symbolic link, always.
mkdir -p "$T/mnt/data"
echo keep >"$T/mnt/data/file"
: >"$T/steps.log"
lab full provision tgt --layout "$T/data.yaml" --yes
[ "$(rc full)" = 1 ] || { cat "$T/full.err" >&2; fail "non-empty mount point: exit $(rc full), not 1"; }
has full.err "lab: tgt: $T/mnt/data is a folder that is not empty"
grep -q mkfs "$T/steps.log" && fail "mkfs ran over a folder holding files"
history_check hist4 '
r = runs[0]
assert r["status"] == "failed" and r["failed_step"] == 0, r
assert r["steps"][0]["kind"] == "check", r'
lab forced provision tgt --layout "$T/data.yaml" --yes --force
[ "$(rc forced)" = 0 ] || { cat "$T/forced.err" >&2; fail "--force: exit $(rc forced)"; }
grep -q mkfs "$T/steps.log" || fail "--force: no mkfs"
mkdir -p "$T/mnt/elsewhere"
ln -s "$T/mnt/elsewhere" "$T/mnt/link"
layout "$T/link.yaml" "$T/mnt/link"
: >"$T/steps.log"
lab link provision tgt --layout "$T/link.yaml" --yes --force
[ "$(rc link)" = 1 ] || { cat "$T/link.err" >&2; fail "symbolic link: exit $(rc link), not 1"; }
has link.err "lab: tgt: $T/mnt/link is a symbolic link"
grep -q mkfs "$T/steps.log" && fail "mkfs ran for a symbolic link"
ok

echo "$NAME: $n groups passed"
