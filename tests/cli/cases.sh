#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs golden CLI cases (run.sh) one after another and fails naming each
# case that failed with its diff: the LAB_TEST_DB=postgres variant of the
# cli suite runs every case this way under on-pg.sh in one meson test. On
# PostgreSQL each case's database is a copy of one made once with lab's
# schema (lab init: 0.2-0.4 s a case saved). CASES_JOBS runs more at once.
# sh cases.sh LAB CLI_DIR NAME...
set -eu
LAB=$1
DIR=$2
shift 2
L=$(mktemp -d /tmp/lab-cases.XXXXXX)
trap 'rm -rf "$L" || :' EXIT
trap 'exit 1' INT TERM
export LAB DIR L
if [ "${LAB_TEST_DB:-sqlite}" = postgres ]; then
	. "$DIR/../integration/pgsrv.sh"
	mkdir "$L/tmpl"
	u=$(testdb "$L/tmpl/lab.db")
	"$LAB" --db "$u" init >/dev/null || exit 1
	# without the audit row of that init: a case's log starts empty
	pgsrv_sql "${u##*/}" 'TRUNCATE audit_log RESTART IDENTITY' || exit 1
	LAB_TEST_PG_TEMPLATE=${u##*/}
	export LAB_TEST_PG_TEMPLATE
fi
printf '%s\n' "$@" | xargs -P "${CASES_JOBS:-1}" -I{} sh -c \
    'sh "$DIR/run.sh" "$LAB" "$DIR" "$1" >"$L/$1.log" 2>&1 ||
	echo "$1" >"$L/$1.failed"' sh {}
n=0
for f in "$L"/*.failed; do
	[ -e "$f" ] || continue
	c=$(basename "$f" .failed)
	echo "--- $c:" >&2
	cat "$L/$c.log" >&2
	n=$((n + 1))
done
echo "$# cases, $n failed"
[ "$n" -eq 0 ]
