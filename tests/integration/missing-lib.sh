#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A protocol library missing: the light lab (cmd/full.c) says which one
# and the Debian package to install, exit 3, instead of the dynamic
# loader's "error while loading shared libraries" from lab-full (exit
# 127, which this test also sees, so that it can fail). Each case hides
# one library in a private mount namespace (unshare -m, /dev/null bound
# over it: nothing outside the namespace changes, nothing to clean up
# there). ls and --version, which never run lab-full, still work, as
# does every command on SQLite without libpq; a
# library found only on LD_LIBRARY_PATH is accepted. Needs root.
# sh missing-lib.sh LAB LAB_FULL
set -eu
LAB=$1
FULL=$2
SRC=$(cd "$(dirname "$0")/../.." && pwd)
. "$SRC/tests/integration/harness.sh"
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1; then
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] &&
	    { echo "missing-lib: needs root and unshare"; exit 1; }
	echo "missing-lib: needs root and unshare: skipping"
	exit 77
fi
T=$(mktemp -d /tmp/lab-missing-lib.XXXXXX)
harness_trap 'rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
"$LAB" init >/dev/null
fail=0
bad() { echo "FAIL: $*"; fail=1; }
path() { ldconfig -p | awk -v l="$1" '$1 == l { print $NF; exit }'; }

# hidden SONAME PACKAGE CMD...: runs CMD with SONAME hidden; checks the
# exit (3), the message and that lab-full alone fails in the loader
hidden() {
	so=$1 pkg=$2
	shift 2
	p=$(path "$so")
	[ -n "$p" ] || { bad "$so: not in ldconfig -p"; return; }
	rc=0
	unshare -m sh -c 'mount --bind /dev/null "$1" && t=$2 full=$3 &&
	    shift 3 && { "$@" >"$t/out" 2>"$t/err"; echo $? >"$t/rc"; } &&
	    { "$full" help >/dev/null 2>"$t/full.err"; echo $? >"$t/full.rc"; }' \
	    sh "$p" "$T" "$FULL" "$@" || rc=$?
	[ "$rc" = 0 ] || { bad "$so: unshare/mount failed ($rc)"; return; }
	[ "$(cat "$T/rc")" = 3 ] || bad "$*: exit $(cat "$T/rc"), want 3"
	grep -q "lab: cannot run this command: $so is missing or broken (install the Debian package $pkg: apt install $pkg)" \
	    "$T/err" || bad "$*: stderr: $(cat "$T/err")"
	! grep -q "error while loading" "$T/err" ||
	    bad "$*: the loader's error: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || bad "$*: not one line: $(cat "$T/err")"
	[ "$(cat "$T/full.rc")" = 127 ] ||
	    bad "$so hidden: lab-full exit $(cat "$T/full.rc"), want 127"
}
hidden libfreeipmi.so.17 libfreeipmi17 "$LAB" power status nosuch
hidden libnetsnmp.so.40 libsnmp40 "$LAB" switch discover
hidden libssh2.so.1 libssh2-1 "$LAB" help
hidden libjson-c.so.5 libjson-c5 "$LAB" --db "$LAB_DB" report

# the light commands do not need them
p=$(path libfreeipmi.so.17)
unshare -m sh -c 'mount --bind /dev/null "$1" && "$2" ls hosts &&
    "$2" --version' sh "$p" "$LAB" >"$T/out" 2>"$T/err" ||
    bad "ls/--version with libfreeipmi hidden: $(cat "$T/err")"
grep -q '^lab ' "$T/out" || bad "--version: $(cat "$T/out")"

# libpq is loaded only for a PostgreSQL database (lib/db/pq.c): hidden,
# SQLite and every command still work, in both binaries; a postgresql://
# database says which package to install, exit 3, one line, nothing tried
p=$(path libpq.so.5)
[ -n "$p" ] || bad "libpq.so.5: not in ldconfig -p"
unshare -m sh -c 'mount --bind /dev/null "$1" && "$2" ls hosts &&
    "$3" help >/dev/null && "$2" --db postgresql://lab@127.0.0.1:1/lab \
    show x 2>"$4/err"; echo $? >"$4/rc"' sh "$p" "$LAB" "$FULL" "$T" \
    >"$T/out" 2>"$T/err.sqlite" ||
    bad "libpq hidden: SQLite or help failed: $(cat "$T/err.sqlite")"
[ "$(cat "$T/rc")" = 3 ] || bad "libpq hidden: exit $(cat "$T/rc"), want 3"
grep -q "^lab: show: database postgresql://lab@127.0.0.1:1/lab: PostgreSQL needs libpq (install the Debian package libpq5: apt install libpq5): " \
    "$T/err" || bad "libpq hidden: stderr: $(cat "$T/err")"
[ "$(wc -l <"$T/err")" = 1 ] || bad "libpq hidden: not one line: $(cat "$T/err")"

# a library only on LD_LIBRARY_PATH (the system's hidden) is found
p=$(path libjson-c.so.5)
mkdir "$T/lib"
cp "$p" "$T/lib/libjson-c.so.5"
unshare -m sh -c 'mount --bind /dev/null "$1" &&
    LD_LIBRARY_PATH=$3 "$2" help' sh "$p" "$LAB" "$T/lib" \
    >"$T/out" 2>"$T/err" ||
    bad "libjson-c on LD_LIBRARY_PATH: $(cat "$T/err")"
grep -q '^usage: lab' "$T/out" || bad "help: $(head -1 "$T/out")"

# nothing hidden: the full lab runs
"$LAB" help >/dev/null || bad "lab help: exit $?"
[ "$fail" = 0 ] && echo "missing-lib: ok"
exit "$fail"
