#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Reading the report does not change it: `lab report` in every format, to
# stdout or --out, leaves the database file's bytes and the report runs
# alone, and works on a database file it may not write; only --record
# moves the baseline; --since picks a run by id, time or days back;
# --runs lists the runs; a BMC going unreachable and back is a change in
# every format: sh report-baseline.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
if ! command -v sqlite3 >/dev/null; then
	echo "report-baseline: no sqlite3 (package sqlite3)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
fail=0
bad() { echo "report-baseline: $*" >&2; fail=1; }
runs() { sqlite3 "$LAB_DB" 'SELECT count(*) FROM report_runs'; }
# the JSON baseline's id, or "null"
baseline() {
	python3 -c 'import json,sys; b=json.load(sys.stdin)["baseline"]
print("null" if b is None else b["id"])'
}
state() { sha256sum <"$LAB_DB"; stat -c %Y "$LAB_DB"; runs; }

cp -R "$SRC/inventory" "$T/inventory"
"$LAB" import "$T/inventory" >/dev/null 2>&1
# microserver1's BMC answered at 06:00 UTC
sqlite3 "$LAB_DB" <<'END'
INSERT INTO power_state (host_id, state, seen_at, checked_at, bmc_reachable)
    SELECT id, 'on', 1764525600, 1764525600, 1 FROM hosts
    WHERE name = 'microserver1';
END

# no run yet: no baseline, and reading records none
[ "$("$LAB" report --format json | baseline)" = null ] || bad "a baseline before any run"
[ "$(runs)" = 0 ] || bad "lab report recorded a run: $(runs) runs"

# --record moves the baseline: run 1, then run 2 compares with run 1
"$LAB" report --record >/dev/null || bad "--record: exit $?"
[ "$(runs)" = 1 ] || bad "--record: $(runs) runs, want 1"
[ "$("$LAB" report --record --format json | baseline)" = 1 ] ||
	bad "the second --record does not compare with run 1"
[ "$(runs)" = 2 ] || bad "--record: $(runs) runs, want 2"

# two reads in every format, to stdout and to a file: nothing written
sleep 1	# a write would move the mtime
before=$(state)
for f in text markdown html json text markdown html json; do
	"$LAB" report --format $f >"$T/out.$f" || bad "report --format $f: exit $?"
	"$LAB" report --format $f --out "$T/file.$f" >/dev/null ||
		bad "report --format $f --out: exit $?"
done
"$LAB" report --json --since 1 >/dev/null || bad "--since 1: exit $?"
"$LAB" report --runs >/dev/null || bad "--runs: exit $?"
[ "$(state)" = "$before" ] || bad "reading the report wrote the database: $before -> $(state)"
[ "$("$LAB" report --format json | baseline)" = 2 ] ||
	bad "the baseline is not the last recorded run (2)"

# a BMC going unreachable is a change, in every format
sqlite3 "$LAB_DB" "UPDATE power_state SET bmc_reachable = 0, \
    checked_at = checked_at + 3600, error = 'session timeout'"
"$LAB" report --format json >"$T/down.json"
python3 - "$T/down.json" <<'END' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
got = [(c["kind"], c["subject"], c["message"]) for c in d["changes"]]
want = [("bmc", "microserver1", "reachable -> unreachable")]
if got != want or d["summary"]["changes"] != 1:
    sys.exit("report-baseline: unreachable: changes %s, want %s" % (got, want))
END
"$LAB" report >"$T/down.text"
grep -q '^  bmc *microserver1: reachable -> unreachable$' "$T/down.text" ||
	bad "text: no bmc change: $(grep -A3 '^Changes' "$T/down.text")"
"$LAB" report --format markdown >"$T/down.md"
grep -q 'bmc.*microserver1.*reachable -> unreachable' "$T/down.md" ||
	bad "markdown: no bmc change"
"$LAB" report --format html >"$T/down.html"
grep -q '<td>bmc</td><td>microserver1</td><td>reachable -&gt; unreachable</td>' "$T/down.html" ||
	bad "html: no bmc change: $(grep -o '<section id="changes">.*' "$T/down.html" | head -5)"
[ "$(runs)" = 2 ] || bad "reading after a change recorded a run"

# --since picks the baseline: a run id, a time, days back
"$LAB" report --record >/dev/null	# run 3: unreachable
sqlite3 "$LAB_DB" "UPDATE power_state SET bmc_reachable = 1"
"$LAB" report --format json | python3 -c 'import json,sys
d = json.load(sys.stdin)
assert d["baseline"]["id"] == 3, d["baseline"]
assert [(c["kind"], c["message"]) for c in d["changes"]] == \
    [("bmc", "unreachable -> reachable")], d["changes"]' ||
	bad "back: not a change since run 3"
"$LAB" report --format json --since 1 | python3 -c 'import json,sys
d = json.load(sys.stdin)
assert d["baseline"]["id"] == 1 and d["changes"] == [], d' ||
	bad "--since 1: not compared with run 1"
"$LAB" report --format json --since 2000-01-01 | python3 -c 'import json,sys
d = json.load(sys.stdin); assert d["baseline"] is None, d["baseline"]' ||
	bad "--since 2000-01-01: a baseline"
"$LAB" report --format json --since 7d | python3 -c 'import json,sys
d = json.load(sys.stdin); assert d["baseline"] is None, d["baseline"]' ||
	bad "--since 7d: a baseline, though every run is of today"
"$LAB" report --format json --since "$(date -u -d '+1 day' +%Y-%m-%d)" |
    python3 -c 'import json,sys
d = json.load(sys.stdin); assert d["baseline"]["id"] == 3, d["baseline"]' ||
	bad "--since tomorrow: not the last run"
rc=0
"$LAB" report --since 99 >/dev/null 2>"$T/err" || rc=$?
[ $rc = 2 ] && grep -q "no report run 99 in '$LAB_DB'" "$T/err" ||
	bad "--since 99: exit $rc: $(cat "$T/err")"
rc=0
"$LAB" report --since 3x >/dev/null 2>"$T/err" || rc=$?
[ $rc = 2 ] && grep -q "report run id" "$T/err" || bad "--since 3x: exit $rc"
rc=0
"$LAB" report --runs --record >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || bad "--runs --record: exit $rc, want 2"
"$LAB" report --runs >"$T/runs.txt"
[ "$(awk 'NR > 1 { print $1 }' "$T/runs.txt" | tr '\n' ' ')" = "1 2 3 " ] ||
	bad "--runs: $(cat "$T/runs.txt")"
"$LAB" report --runs --json | python3 -c 'import json,sys
v = json.load(sys.stdin)
assert [r["id"] for r in v] == [1, 2, 3] and all(r["facts"] > 0 and
    r["time"] for r in v), v' || bad "--runs --json"

# a database file lab may not write: the report reads it all the same
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chown -R nobody "$T"
	chmod 0400 "$LAB_DB"
	as() { setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups "$@"; }
else
	chmod 0400 "$LAB_DB"
	as() { "$@"; }
fi
before=$(state)
for f in text json; do
	as "$LAB" report --format $f >"$T/ro.$f" 2>"$T/err" ||
		bad "read-only database, $f: exit $?: $(cat "$T/err")"
done
grep -q '"id": 3' "$T/ro.json" || bad "read-only database: no baseline"
rc=0
as "$LAB" report --record >/dev/null 2>"$T/err" || rc=$?
[ $rc = 3 ] && grep -q "record the report run" "$T/err" ||
	bad "--record on a read-only database: exit $rc: $(cat "$T/err")"
[ "$(state)" = "$before" ] || bad "the read-only database changed"
chmod 0600 "$LAB_DB"
[ $fail = 0 ] && echo "report-baseline: ok"
exit $fail
