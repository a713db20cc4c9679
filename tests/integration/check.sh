# SPDX-License-Identifier: GPL-3.0-or-later
# check.sh: what the integration tests share. Source it after setting
# LAB (the binary), T (the test's temp folder) and NAME (for messages).

n=0
fail() { echo "$NAME: FAIL: $*" >&2; exit 1; }
# counts a group of checks that passed
ok() { n=$((n + 1)); }
# run NAME ARGS...: runs lab, keeping stdout/stderr/rc in $T/NAME.*
run() {
	_name=$1
	shift
	_rc=0
	"$LAB" "$@" >"$T/$_name.out" 2>"$T/$_name.err" || _rc=$?
	echo "$_rc" >"$T/$_name.rc"
}
# the exit code of a run
rc() { cat "$T/$1.rc"; }
# has FILE REGEX: the file (in $T) must match, else its head is shown
has() {
	grep -q -- "$2" "$T/$1" && return 0
	echo "--- $1:" >&2
	head -50 "$T/$1" >&2
	fail "$1 lacks '$2'"
}
