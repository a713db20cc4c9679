#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs one golden CLI case: sh run.sh LAB CLI_DIR NAME
#
# The case is NAME.args (one lab command line, split by the shell, with
# $T the temp folder and $INV its copy of inventory/), NAME.out, NAME.err
# and NAME.rc. Before it runs, inventory/ is imported into a fresh
# database, unless the case name starts with "nodb-"; an optional
# NAME.setup holds more lab command lines to run first. data/config-NAME.yaml,
# when there, becomes the config file ($T spelt @T@), and NAME.env, when
# there, is sourced first (unset LAB_DB ...). Output is
# normalised: the temp folder becomes $T and times become <TIME>.
# NAME.tty, when there, holds a width: the case then runs on a
# pseudo-terminal (script(1)) with COLUMNS set to it and NO_COLOR.
# LAB_TEST_WRAPPER, when set, is a command line every lab run of the case
# but the first import goes through (valgrind.sh sets it to valgrind).
set -eu
LAB=$1
DIR=$2
NAME=$3
# a fixed parent keeps the normalised column widths stable
T=$(mktemp -d /tmp/lab-cli.XXXXXXXX)
ME=$(id -un)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
cp -R "$DIR/../../inventory" "$T/inventory"
cp -R "$DIR/data" "$T/data"
INV=$T/inventory
export T INV
# LAB_TEST_DB=postgres (tests/integration/on-pg.sh): a new PostgreSQL
# database instead, its URI shown as $T/lab.db: the goldens are SQLite's
# (cases.sh may name a template holding lab's schema: not for nodb- cases)
. "$DIR/../integration/pgsrv.sh"
case $NAME in
nodb-*) LAB_TEST_PG_TEMPLATE= ;;
esac
LAB_DB=$(testdb "$T/lab.db")
DBURI=$LAB_DB
export LAB_DB LAB_CREDENTIALS="$T/credentials.yaml"
export HOME="$T" XDG_DATA_HOME="$T/data-home" XDG_CONFIG_HOME="$T/config"
unset NO_COLOR || true
# shellcheck disable=SC2086
lab() { ${LAB_TEST_WRAPPER:-} "$LAB" "$@"; }
if [ -f "$DIR/data/config-$NAME.yaml" ]; then
	mkdir -p "$XDG_CONFIG_HOME/lab"
	sed "s|@T@|$T|g" "$DIR/data/config-$NAME.yaml" \
	    > "$XDG_CONFIG_HOME/lab/config.yaml"
fi
if [ -f "$DIR/$NAME.env" ]; then
	. "$DIR/$NAME.env"
fi
# the import every case starts from runs plainly: under valgrind it took
# 3.3 s of a case's 4 (the import-* cases check import itself)
case $NAME in
nodb-*) ;;
*) "$LAB" import "$INV" >/dev/null 2>&1 ;;
esac
if [ -f "$DIR/$NAME.setup" ]; then
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		eval "lab $line" >/dev/null 2>&1 || true
	done < "$DIR/$NAME.setup"
fi
rc=0
if [ -f "$DIR/$NAME.tty" ]; then
	command -v script >/dev/null 2>&1 ||
	    { echo "$NAME: script(1) missing (package util-linux)" >&2; exit 1; }
	COLUMNS=$(cat "$DIR/$NAME.tty") NO_COLOR=1 script -qec \
	    "${LAB_TEST_WRAPPER:-} '$LAB' $(cat "$DIR/$NAME.args") 2>'$T/err'" \
	    /dev/null >"$T/tty" </dev/null || rc=$?
	tr -d '\r' <"$T/tty" >"$T/out"
else
	eval "lab $(cat "$DIR/$NAME.args")" >"$T/out" 2>"$T/err" || rc=$?
fi
norm() {
	sed -e "s|$DBURI|\$T/lab.db|g" -e "s|$T|\$T|g" -e "s/  $ME  /  <USER>  /" -e "s/^\([^,]*\),$ME,/\1,<USER>,/" -e "s/\"user\": \"$ME\"/\"user\": \"<USER>\"/" \
	    -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z/<TIME>/g' "$1"
}
fail=0
norm "$T/out" > "$T/out.n"
norm "$T/err" > "$T/err.n"
if [ "${LAB_BLESS:-}" = 1 ]; then
	# writes the expected files from this run: review them before commit
	cp "$T/out.n" "$DIR/$NAME.out"
	cp "$T/err.n" "$DIR/$NAME.err"
	echo "$rc" > "$DIR/$NAME.rc"
	exit 0
fi
if ! diff -u "$DIR/$NAME.out" "$T/out.n"; then
	echo "$NAME: stdout differs" >&2
	fail=1
fi
if ! diff -u "$DIR/$NAME.err" "$T/err.n"; then
	echo "$NAME: stderr differs" >&2
	fail=1
fi
want=$(cat "$DIR/$NAME.rc")
if [ "$rc" != "$want" ]; then
	echo "$NAME: exit code $rc, want $want" >&2
	fail=1
fi
exit $fail
