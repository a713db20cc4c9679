#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The database full, on PostgreSQL (issue 22): run by on-pg.sh, which
# starts the cluster. lab's tables live in a tablespace on a 6 MiB tmpfs;
# with it filled, a larger import fails with exit 3 and one line naming
# the server and what to do, and the database still holds the first
# inventory whole; with room again the same import works.
# sh on-pg.sh SRCDIR PORT sh pg-full.sh LAB SRCDIR (as root: a mount)
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/pgsrv.sh"
if [ "$(id -u)" != 0 ] || [ "${LAB_TEST_DB:-}" != postgres ]; then
	echo "pg-full.sh: needs root (a tmpfs) and on-pg.sh" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
T=$(mktemp -d /tmp/lab-pgfull.XXXXXX)
chmod 755 "$T"
# lazily: the server holds the tablespace's files open until on-pg.sh
# stops it
harness_trap 'umount -l "$T/ts" 2>/dev/null; rm -rf "$T"'
NAME=pg-full.sh
. "$SRC/tests/integration/check.sh"
export LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"

mkdir "$T/ts"
mount -t tmpfs -o size=6m,mode=700 lab-pgfull "$T/ts" ||
	fail "mount a tmpfs"
u=postgres
id postgres >/dev/null 2>&1 || u=nobody
chown "$u" "$T/ts"
U=$(testdb "$T/lab.db") || fail "a database"
pgsrv_psql "CREATE TABLESPACE small LOCATION '$T/ts'" \
    "ALTER DATABASE ${U##*/} SET default_tablespace = small" ||
	fail "the tablespace"
"$LAB" --db "$U" import "$SRC/inventory" >/dev/null 2>&1 ||
	fail "the first import"
"$LAB" --db "$U" export >"$T/before.yaml" || fail "export"
# a lab of 400 hosts needs pages the tablespace has no room for
python3 "$SRC/tools/gen-inventory.py" "$T/big" --hosts 400 --switches 16 \
    --files 1 >/dev/null || fail "gen-inventory"
dd if=/dev/zero of="$T/ts/filler" bs=64k 2>/dev/null || :
rc=0
"$LAB" --db "$U" import "$T/big" >"$T/full.out" 2>"$T/full.err" || rc=$?
[ "$rc" = 3 ] || fail "an import into a full disk: exit $rc, want 3: $(cat "$T/full.err")"
[ "$(wc -l <"$T/full.err")" = 1 ] || fail "not one line: $(cat "$T/full.err")"
has full.err "database '$U': .*out of room: .*free space on the server"
"$LAB" --db "$U" export >"$T/after.yaml" || fail "export after"
cmp -s "$T/before.yaml" "$T/after.yaml" || {
	diff "$T/before.yaml" "$T/after.yaml" | head >&2 || :
	fail "the failed import changed the inventory"
}
ok
rm -f "$T/ts/filler"
"$LAB" --db "$U" import "$T/big" >/dev/null 2>"$T/again.err" ||
	fail "the import with room again: $(cat "$T/again.err")"
[ "$("$LAB" --db "$U" ls hosts --json | grep -c '"name"')" -ge 400 ] ||
	fail "not 400 hosts"
ok
echo "pg-full.sh: $n groups of checks passed"
