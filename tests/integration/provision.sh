#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab provision against real peers: OpenSSH sshd on 127.0.25.x as the
# target and zfs-fuse on loop devices, so the plan's real zpool commands
# run. Plans print without touching anything; --yes applies; a failing
# step stops the run and is recorded as failed; a target that drops the
# connection mid-run is recorded as failed, never as done; host keys are
# strict. Usage: provision.sh LAB SRCDIR
set -u
LAB=$1
SRC=$2
NAME=provision
T=$(mktemp -d /tmp/lab-prov.XXXXXX) || exit 1
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/check.sh"
. "$SRC/tests/integration/sshd.sh"

need() {
	if command -v "$1" >/dev/null 2>&1; then
		return 0
	fi
	if [ "${LAB_TEST_REQUIRE_SIM:-}" = 1 ]; then
		echo "$NAME: $1 is missing (apt-get install $2)" >&2
		exit 1
	fi
	echo "$NAME: skipped: $1 is missing (apt-get install $2)" >&2
	exit 77
}
sshd_require
need zfs-fuse zfs-fuse
need zpool zfs-fuse
need losetup mount

LOOPS=
ZPID=
# Destroys pool NAME. zfs-fuse answers "pool is busy" for a moment after
# the commands before it (the pool is not mounted: its own work on the
# pool is still in flight), so that answer is waited out, 10 s at most;
# any other failure fails at once.
destroy_pool() {
	tries=0
	while ! zpool destroy "$1" 2>"$T/destroy.err"; do
		grep -q "pool is busy" "$T/destroy.err" && [ $tries -lt 50 ] ||
		    { cat "$T/destroy.err" >&2; return 1; }
		sleep 0.2
		tries=$((tries + 1))
	done
}
cleanup() {
	for p in labprov_r10 labprov_z1 labprov_drop; do
		zpool destroy -f "$p" >/dev/null 2>&1
	done
	[ -z "$ZPID" ] || kill "$ZPID" 2>/dev/null || :
	stop_sshd
	# zfs-fuse lets go of the devices once it is gone
	i=0
	while [ -n "$ZPID" ] && kill -0 "$ZPID" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	for l in $LOOPS; do
		losetup -d "$l" 2>/dev/null || :
	done
	rm -rf "$T"
}
harness_trap cleanup

# one that has exited but is not yet reaped (a zombie: an earlier run's,
# reparented to an init that reaps late) is not running
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

# five disks: four 128 MiB data disks and a 96 MiB "SSD"
for k in 1 2 3 4 5; do
	size=128M
	[ $k = 5 ] && size=96M
	truncate -s $size "$T/disk$k.img"
	l=$(losetup -f --show "$T/disk$k.img") || fail "losetup"
	LOOPS="$LOOPS $l"
	eval "D$k=$l"
done

# a destroyed pool leaves its labels: the free-disk check would refuse
wipe() {
	for l in $LOOPS; do
		wipefs -a -q "$l" || fail "wipefs $l"
	done
}

start_sshd 127.0.25.1 2222 "$T/h1" || fail "sshd did not start"
# a target that drops the connection when a pool is created
cat >"$T/drop.sh" <<'EOF'
#!/bin/sh
case "${SSH_ORIGINAL_COMMAND:-}" in
*"zpool create"*) kill -9 "$PPID" ;;
"") exec /usr/lib/openssh/sftp-server ;;
esac
exec /bin/sh -c "$SSH_ORIGINAL_COMMAND"
EOF
chmod 755 "$T/drop.sh"
SSHD_USER_KEY="$T/h1/id_ed25519" SSHD_CONFIG_EXTRA="ForceCommand $T/drop.sh" \
    start_sshd 127.0.25.2 2222 "$T/h2" || fail "the second sshd did not start"

host() {	# NAME ADDRESS KNOWN_HOSTS
	cat <<EOF
  - name: $1
    model: generic-server
    ssh: {address: $2, port: 2222, user: root,
          identity: $T/h1/id_ed25519, known_hosts: $3}
    disks:
      - {slot: 1, kind: sata, size: 128MiB, device: $D1}
      - {slot: 2, kind: sata, size: 128MiB, device: $D2}
      - {slot: 3, kind: sata, size: 128MiB, device: $D3}
      - {slot: 4, kind: sata, size: 128MiB, device: $D4}
      - {slot: 5, kind: ssd, size: 96MiB, device: $D5}
EOF
}
: >"$T/empty_known_hosts"
{
	echo "hosts:"
	host zbox 127.0.25.1 "$T/h1/known_hosts"
	host dropper 127.0.25.2 "$T/h2/known_hosts"
	host stranger 127.0.25.1 "$T/empty_known_hosts"
	cat <<EOF
  - name: nodev
    model: generic-server
    ssh: {address: 127.0.25.1, port: 2222, identity: $T/h1/id_ed25519,
          known_hosts: $T/h1/known_hosts}
    disks:
      - {slot: 1, kind: sata, size: 1TB}
      - {slot: 2, kind: sata, size: 1TB}
      - {slot: 3, kind: sata, size: 1TB}
      - {slot: 4, kind: sata, size: 1TB}
EOF
} >"$T/lab.yaml"
export LAB_DB="$T/lab.db"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
run init init
run import import "$T/lab.yaml"
[ "$(rc import)" = 0 ] || { cat "$T/import.err" >&2; fail "import"; }

# 1. --dry-run: the plan, and nothing is touched; without --yes and
# without a terminal: the plan, a refusal naming --yes (exit 2), nothing
run plan provision zbox --layout raid10 --pool labprov_r10 --dry-run
[ "$(rc plan)" = 0 ] || { cat "$T/plan.err" >&2; fail "plan exit $(rc plan)"; }
has plan.out "zpool create"
has plan.out "mirror $D1 $D2"
has plan.err "nothing was changed"
zpool list labprov_r10 >/dev/null 2>&1 && fail "a plan created the pool"
run planno provision zbox --layout raid10 --pool labprov_r10 </dev/null
[ "$(rc planno)" = 2 ] || fail "provision without --yes exit $(rc planno)"
has planno.out "zpool create"
has planno.err "this changes the storage of zbox; run again with --yes"
zpool list labprov_r10 >/dev/null 2>&1 && fail "a refused plan created the pool"
run planjson provision zbox --layout raid10 --pool labprov_r10 --dry-run --json
python3 - "$T/planjson.out" <<'EOF' || fail "plan JSON"
import json, sys
p = json.load(open(sys.argv[1]))
for k in ("host", "kind", "layout", "steps", "usable_bytes", "warnings"):
    assert k in p, k
assert p["host"] == "zbox" and p["layout"] == "raid10", p
assert any("zpool create" in s.get("run", "") for s in p["steps"]), p
EOF
run hist0 history zbox --json
has hist0.out '^\[\]$'
ok

# 2. Placeholders are planned, never applied.
run nodev provision nodev --layout raid10 --dry-run
[ "$(rc nodev)" = 0 ] || fail "a plan with placeholders should print"
run nodevyes provision nodev --layout raid10 --yes
[ "$(rc nodevyes)" = 2 ] || fail "placeholders applied: exit $(rc nodevyes)"
has nodevyes.err "no 'device'"
ok

# 3. An unknown host key is refused; --accept-new records it.
run stranger provision stranger --layout mirror --disks 1,2 \
    --pool labprov_r10 --yes
[ "$(rc stranger)" != 0 ] || fail "an unknown host key was accepted"
has stranger.err "accept-new"
zpool list labprov_r10 >/dev/null 2>&1 && fail "pool made on an unknown host"
[ -s "$T/empty_known_hosts" ] && fail "known_hosts written without --accept-new"
ok

# 4. raid10 with an L2ARC, applied for real, then checked by zpool.
run r10 provision zbox --layout raid10 --pool labprov_r10 --cache 5 --yes
[ "$(rc r10)" = 0 ] || { cat "$T/r10.err" >&2; fail "raid10 apply exit $(rc r10)"; }
zpool status labprov_r10 >"$T/status" 2>&1 || fail "no pool after apply"
has status "mirror-0"
has status "mirror-1"
has status "cache"
# zfs-fuse's zpool get has no -H: NAME PROPERTY VALUE SOURCE
zpool get ashift labprov_r10 | awk 'NR == 2 { print $3 }' >"$T/ashift"
has ashift "^12$"
run hist1 history zbox
has hist1.out "raid10 *done"
ok

# 5. The same again: the check finds the disks in a pool; nothing runs.
run again provision zbox --layout raid10 --pool labprov_r10 --yes
[ "$(rc again)" = 1 ] || fail "re-apply over a pool: exit $(rc again)"
run hist2 history zbox --json
python3 - "$T/hist2.out" <<'EOF' || fail "failed run record"
import json, sys
runs = json.load(open(sys.argv[1]))
r = runs[0]
assert r["status"] == "failed", r
s = r["steps"][r["failed_step"]]
assert s["kind"] == "check" and s["exit_status"] not in (0, None), s
assert all(x["started_at"] is None for x in r["steps"][r["failed_step"] + 1:])
assert runs[1]["status"] == "done", runs[1]
EOF
destroy_pool labprov_r10 || fail "zpool destroy"
wipe
ok

# 6. raidz1 over three disks.
run z1 provision zbox --layout raidz1 --disks 1,2,3 --pool labprov_z1 --yes
[ "$(rc z1)" = 0 ] || { cat "$T/z1.err" >&2; fail "raidz1 exit $(rc z1)"; }
zpool status labprov_z1 >"$T/z1status" 2>&1
has z1status "raidz1-0"
destroy_pool labprov_z1 || fail "zpool destroy"
wipe
ok

# 7. The connection drops mid-run: failed at that step, never done.
run drop provision dropper --layout mirror --disks 1,2 --pool labprov_drop \
    --yes
[ "$(rc drop)" = 1 ] || { cat "$T/drop.err" >&2; fail "drop: exit $(rc drop)"; }
run hist3 history dropper --json
python3 - "$T/hist3.out" <<'EOF' || fail "dropped run record"
import json, sys
r = json.load(open(sys.argv[1]))[0]
assert r["status"] == "failed", r
s = r["steps"][r["failed_step"]]
assert "zpool create" in s["text"] and s["exit_status"] is None, s
EOF
zpool destroy -f labprov_drop >/dev/null 2>&1
ok

# 8. Every applied run is in the audit log; plans are not.
run log log --json
python3 - "$T/log.out" <<'EOF' || fail "audit log"
import json, sys
rows = [r for r in json.load(open(sys.argv[1])) if r["command"] == "provision"]
assert len(rows) >= 4, rows
assert all("--yes" in r["argv"] for r in rows), rows
EOF
ok

echo "$NAME: $n groups passed"
