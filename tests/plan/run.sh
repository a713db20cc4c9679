#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs one planner golden case: sh run.sh DRIVER SRCDIR NAME
#
# NAME.args holds the driver's arguments (see plan-golden.c); NAME.out is
# the plan as text (or the error), NAME.json the plan as JSON (none for
# an error). LAB_BLESS=1 rewrites both from this run: read the diff.
set -eu
DRV=$1
SRC=$2
NAME=$3
DIR=$SRC/tests/plan
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
args=$(cat "$DIR/$NAME.args")
eval "\"\$DRV\" -C \"\$SRC\" $args" >"$T/out"
json=1
if grep -q '^error (exit' "$T/out"; then
	json=0
else
	eval "\"\$DRV\" -C \"\$SRC\" --json $args" >"$T/json"
fi
if [ "${LAB_BLESS:-}" = 1 ]; then
	cp "$T/out" "$DIR/$NAME.out"
	if [ $json = 1 ]; then
		cp "$T/json" "$DIR/$NAME.json"
	else
		rm -f "$DIR/$NAME.json"
	fi
	exit 0
fi
fail=0
diff -u "$DIR/$NAME.out" "$T/out" || fail=1
if [ $json = 1 ]; then
	diff -u "$DIR/$NAME.json" "$T/json" || fail=1
elif [ -e "$DIR/$NAME.json" ]; then
	echo "$NAME: the plan failed but $NAME.json exists" >&2
	fail=1
fi
[ $fail = 0 ] || echo "$NAME: differs (LAB_BLESS=1 rewrites it)" >&2
exit $fail
