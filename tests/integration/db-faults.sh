#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The database file in trouble: read-only (the file, its folder, the file
# system), on a full disk (a small tmpfs), locked by another process for
# longer than the busy timeout. Each must give a clear error (exit 3)
# naming the file, and change nothing. Needs root (mount, and setpriv to
# run lab as nobody: root writes read-only files anyway).
# sh db-faults.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
missing=
[ "$(id -u)" = 0 ] || missing="root"
for p in sqlite3 python3 setpriv mount; do
	command -v $p >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "db-faults.sh: needs$missing (packages sqlite3, python3," \
	    "util-linux, mount)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi

. "$SRC/tests/integration/harness.sh"
T=$(mktemp -d /tmp/lab-db-faults.XXXXXX)
chmod 755 "$T"
holder=
cleanup() {
	set +e
	[ -z "$holder" ] || kill -KILL "$holder" 2>/dev/null || :
	for m in "$T/rofs" "$T/full"; do
		mountpoint -q "$m" 2>/dev/null || continue
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || :
	done
	chmod -R u+w "$T" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
NAME=db-faults.sh
. "$SRC/tests/integration/check.sh"
export LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
cp -R "$SRC/inventory" "$T/inventory"
python3 "$SRC/tools/gen-inventory.py" "$T/big" --hosts 400 --switches 16 \
    --files 1
chmod -R a+rX "$T/inventory" "$T/big"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
sum() { sha256sum "$1" | cut -d' ' -f1; }
# the error must say which file and why
says() {	# says NAME PATH WORDS
	has "$1.err" "database '$2'"
	has "$1.err" "$3"
	[ "$(rc "$1")" = 3 ] || fail "$1: exit $(rc "$1"), want 3"
}

# --- the file read-only, then its folder too (lab runs as nobody) -----
mkdir "$T/ro"
chown 65534:65534 "$T/ro"
as_nobody "$LAB" --db "$T/ro/lab.db" import "$T/inventory" >/dev/null 2>&1 ||
	fail "import as nobody"
chmod 0444 "$T/ro/lab.db"
before=$(sum "$T/ro/lab.db")
rc=0
as_nobody "$LAB" --db "$T/ro/lab.db" import "$T/big" >"$T/rofile.out" \
    2>"$T/rofile.err" || rc=$?
echo $rc >"$T/rofile.rc"
says rofile "$T/ro/lab.db" "read-only\|cannot write"
[ "$(sum "$T/ro/lab.db")" = "$before" ] || fail "a read-only file changed"
rm -f "$T/ro/lab.db-wal" "$T/ro/lab.db-shm"
chmod 0555 "$T/ro"
rc=0
as_nobody "$LAB" --db "$T/ro/lab.db" import "$T/big" >"$T/rodir.out" \
    2>"$T/rodir.err" || rc=$?
echo $rc >"$T/rodir.rc"
says rodir "$T/ro/lab.db" "cannot write"
[ "$(sum "$T/ro/lab.db")" = "$before" ] || fail "a read-only folder's file changed"
[ ! -e "$T/ro/lab.db-wal" ] || fail "a -wal file in a read-only folder"
chmod 0755 "$T/ro"
ok

# --- a read-only file system (lab runs as root) -----------------------
mkdir "$T/rofs"
mount -t tmpfs -o size=4m tmpfs "$T/rofs" || fail "cannot mount a tmpfs"
"$LAB" --db "$T/rofs/lab.db" import "$T/inventory" >/dev/null 2>&1 ||
	fail "import on the tmpfs"
mount -o remount,ro "$T/rofs" || fail "cannot remount the tmpfs read-only"
before=$(sum "$T/rofs/lab.db")
run rofs --db "$T/rofs/lab.db" import "$T/big"
says rofs "$T/rofs/lab.db" "Read-only file system"
[ "$(sum "$T/rofs/lab.db")" = "$before" ] || fail "a read-only file system changed"
umount "$T/rofs"
ok

# --- a full disk: the import's transaction cannot be written ---------
mkdir "$T/full"
mount -t tmpfs -o size=2m tmpfs "$T/full" || fail "cannot mount a tmpfs"
export LAB_DB="$T/full/lab.db"
"$LAB" import "$T/inventory" >/dev/null 2>&1 || fail "import on the small tmpfs"
"$LAB" export >"$T/full-before.yaml" || fail "export before"
# leave room to open the database (its -shm), not to write 400 hosts
avail=$(df --output=avail -B1 "$T/full" | tail -1)
dd if=/dev/zero of="$T/full/filler" bs=4096 \
    count=$(( (avail - 96 * 1024) / 4096 )) 2>/dev/null || true
run full import "$T/big"
says full "$T/full/lab.db" "full\|No space left"
rm -f "$T/full/filler"
[ "$(sqlite3 "$LAB_DB" 'PRAGMA integrity_check')" = ok ] ||
	fail "integrity after a full disk"
"$LAB" export >"$T/full-after.yaml" || fail "export after"
cmp -s "$T/full-before.yaml" "$T/full-after.yaml" ||
	fail "a failed import on a full disk changed the inventory"
umount "$T/full"
ok

# --- locked by another process for longer than the busy timeout -------
export LAB_DB="$T/locked.db"
"$LAB" import "$T/inventory" >/dev/null 2>&1 || fail "import to lock"
"$LAB" export >"$T/lock-before.yaml" || fail "export before the lock"
# holds an exclusive transaction until told to let go (or 120 s)
python3 - "$LAB_DB" "$T/held" "$T/release" <<'PY' &
import os, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
db.execute("INSERT INTO audit_log (time, user, command, argv, result) "
           "VALUES (0, 'x', 'x', 'x', 0)")
open(sys.argv[2], "w").close()
end = time.time() + 120
while not os.path.exists(sys.argv[3]) and time.time() < end:
    time.sleep(0.05)
db.execute("ROLLBACK")
PY
holder=$!
harness_track lock-holder "$holder"
i=0
until [ -e "$T/held" ]; do
	i=$((i + 1))
	[ $i -lt 1200 ] || fail "the lock was never taken"
	sleep 0.05
done
run locked import "$T/big"
: >"$T/release"
wait "$holder" || fail "the lock holder failed"
holder=
says locked "$T/locked.db" "locked by another process for more than 5 s"
[ "$(sqlite3 "$LAB_DB" 'PRAGMA integrity_check')" = ok ] ||
	fail "integrity after the lock"
"$LAB" export >"$T/lock-after.yaml" || fail "export after the lock"
cmp -s "$T/lock-before.yaml" "$T/lock-after.yaml" ||
	fail "an import that found the database locked changed it"
# and with the lock gone, the same import goes through
run unlocked import "$T/big"
[ "$(rc unlocked)" = 0 ] || fail "import after the lock: $(cat "$T/unlocked.err")"
ok

echo "db-faults.sh: $n groups of checks passed"
