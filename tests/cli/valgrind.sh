#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs one golden CLI case with every lab run under valgrind (memcheck,
# full leak check): sh valgrind.sh LAB CLI_DIR NAME
# The case must pass as in run.sh, and valgrind must report nothing
# (valgrind.supp holds the explained suppressions). Suite 'valgrind', in
# a build without sanitizers only: valgrind cannot run an ASan binary.
set -eu
LAB=$1
DIR=$2
NAME=$3
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind.sh: valgrind missing (package valgrind)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
L=$(mktemp -d /tmp/lab-vg.XXXXXX)
trap 'rm -rf "$L" || :' EXIT
trap 'exit 1' INT TERM
# possible leaks count too; still-reachable memory (freed by exit) not.
# LAB is lab-full: the light front (cmd/full.c) would only exec it, and
# following that doubled the suite's time.
LAB_TEST_WRAPPER="valgrind -q --leak-check=full \
--errors-for-leak-kinds=definite,indirect,possible \
--show-leak-kinds=definite,indirect,possible --error-exitcode=99 \
--suppressions=$DIR/valgrind.supp --log-file=$L/vg.%p"
export LAB_TEST_WRAPPER
rc=0
sh "$DIR/run.sh" "$LAB" "$DIR" "$NAME" || rc=$?
for f in "$L"/vg.*; do
	[ -s "$f" ] || continue
	echo "--- valgrind ($f):" >&2
	cat "$f" >&2
	rc=1
done
exit $rc
