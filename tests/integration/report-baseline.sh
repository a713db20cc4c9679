#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The report's baseline against real ipmi_sim BMCs on 127.0.72.0/24:
# `lab report --collect` records a run; two plain `lab report`s leave the
# database file and the runs alone; the BMC stopped, the next --collect
# lists "bmc reachable -> unreachable" in every format, and after a
# restart, "unreachable -> reachable": sh report-baseline.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
bmc_require

T=$(mktemp -d /tmp/lab-report-baseline.XXXXXX)
harness_trap 'bmc_stop "$T"; rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
BMC_PASSWORD="Rb-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-q7"
export BMC_PASSWORD
NAME=report-baseline.sh
. "$SRC/tests/integration/check.sh"
runs() { python3 -c 'import sqlite3,sys
print(sqlite3.connect(sys.argv[1]).execute(
    "SELECT count(*) FROM report_runs").fetchone()[0])' "$LAB_DB"; }
# the changes of a JSON report, "kind subject: message" a line
changes() { python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["changes"]:
	print("%s %s: %s" % (c["kind"], c["subject"], c["message"]))' "$T/$1"; }

BMC_NET=127.0.72
bmc_start "$T" 1
cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "$BMC_PASSWORD"}
END
chmod 600 "$T/credentials.yaml"
cat >"$T/lab.yaml" <<END
hosts:
  - {name: r1, model: generic-server, bmc: {type: ipmi, address: 127.0.72.1,
     credential: admin, workarounds: [opensesspriv]}}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

# the nightly run: collects, records run 1 (the BMC answered)
run first report --collect --timeout 5 --format json
[ "$(rc first)" = 0 ] || fail "first --collect: exit $(rc first): $(cat "$T/first.err")"
has first.out '"bmc_reachable": true'
[ "$(runs)" = 1 ] || fail "--collect recorded $(runs) runs, want 1"
ok

# two reads: the database file is untouched, the baseline stays run 1
sleep 1	# a write would move the mtime
before=$(sha256sum <"$LAB_DB"; stat -c %Y "$LAB_DB")
run read1 report
run read2 report --format json
[ "$(rc read1)$(rc read2)" = 00 ] || fail "reads: exit $(rc read1) $(rc read2)"
[ "$(sha256sum <"$LAB_DB"; stat -c %Y "$LAB_DB")" = "$before" ] ||
	fail "reading the report wrote the database"
[ "$(runs)" = 1 ] || fail "reading recorded a run: $(runs) runs"
has read2.out '"baseline": {'
has read2.out '"id": 1,'
ok

# the BMC goes away: the next collect says so as a change
bmc_stop "$T"
run down report --collect --timeout 2 --format json
[ "$(rc down)" = 0 ] || fail "collect, BMC down: exit $(rc down): $(cat "$T/down.err")"
[ "$(changes down.out)" = "bmc r1: reachable -> unreachable" ] ||
	fail "BMC down: changes '$(changes down.out)'"
[ "$(runs)" = 2 ] || fail "--collect recorded $(runs) runs, want 2"
# the same change in every format, read back from run 1
for f in text markdown html; do
	run "down-$f" report --since 1 --format $f
	[ "$(rc "down-$f")" = 0 ] || fail "$f: exit $(rc "down-$f")"
done
has down-text.out '^  bmc  *r1: reachable -> unreachable$'
has down-markdown.out 'bmc.*r1.*reachable -> unreachable'
has down-html.out '<td>bmc</td><td>r1</td><td>reachable -&gt; unreachable</td>'
[ "$(runs)" = 2 ] || fail "reading recorded a run"
ok

# it comes back: a change again, since run 2
bmc_start "$T" 1
run up report --collect --timeout 5 --format json
[ "$(rc up)" = 0 ] || fail "collect, BMC back: exit $(rc up)"
[ "$(changes up.out)" = "bmc r1: unreachable -> reachable" ] ||
	fail "BMC back: changes '$(changes up.out)'"
ok

for f in "$T"/*.out "$T"/*.err "$LAB_DB"; do
	! grep -qF -- "$BMC_PASSWORD" "$f" || fail "the password is in $f"
done
ok
echo "$NAME: $n groups ok"
