#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab on PostgreSQL (issue 22) against a throwaway PostgreSQL 15 cluster
# this test starts in its own folder on 127.0.0.1:55432 and stops on
# every exit path: init, import of the example lab, export, ls hosts,
# show and report --format json equal to the same run on SQLite; the
# password through PGPASSFILE only (a URI with one refused); lab config;
# a wrong password, a server down, a missing database and a schema newer
# than this lab (exit 3, one line naming the server); two imports at once;
# an inventory with shares and mounts (its export, show, report and plan);
# a first import of a big lab (foreign keys checked at its end: ended
# midway, they stay; done, the lab equal to SQLite's and the keys too);
# faults: a deadlock (an import, a switch discovery: run again, whole),
# a new database's import (its schema made while the YAML is read): a bad
# file leaves nothing, a conflict runs it again whole, a failure exit 3,
# the server killed during an import, and during a switch discovery and a
# report at once.
# sh pg.sh LAB SRCDIR [SNMP-FIXTURES]
set -eu
LAB=$1
SRC=$2
FIX=${3:-$SRC/../shared/fixtures/snmp}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=55432
missing=
[ -x "$PGBIN/initdb" ] || missing="postgresql-15"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
command -v snmpsimd >/dev/null 2>&1 || missing="$missing snmpsim"
command -v snmpget >/dev/null 2>&1 || missing="$missing snmp"
if [ -n "$missing" ]; then
	echo "pg.sh: needs $missing" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi

. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/snmp.sh"
[ -f "$FIX/ciscosb_sg350-10.snmprec" ] || {
	echo "pg.sh: no SNMP captures in $FIX" >&2
	exit 1
}
T=$(mktemp -d /tmp/lab-pg.XXXXXX)
chmod 755 "$T"
. "$SRC/tests/integration/pgsrv.sh"
cleanup() {
	pgsrv_stop "$T"
	snmp_stop "$T/agent"
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
NAME=pg.sh
. "$SRC/tests/integration/check.sh"

# --- a cluster of our own: user lab, a password, scram-sha-256 ---------
pgsrv_start "$T" $PORT || fail "a PostgreSQL cluster on 127.0.0.1:$PORT"
PW=$(cut -d: -f5 "$T/pgpass")
[ -n "$PW" ] || fail "no password in $T/pgpass"
export HOME="$T" LAB_CREDENTIALS="$T/cred.yaml"
unset LAB_DB LAB_CONFIG || :
pgsrv_psql 'CREATE DATABASE lab' 'CREATE DATABASE lab2' ||
	fail "create database"
URI=postgresql://lab@127.0.0.1:$PORT/lab
SQ=$T/lab.db

# --- init, import, and every read equal to SQLite's -------------------
run init --db "$URI" init --json
[ "$(rc init)" = 0 ] || fail "init: $(cat "$T/init.err")"
has init.out "\"created\": true"
run init-sq --db "$SQ" init --json
for db in "$URI" "$SQ"; do
	k=pg
	[ "$db" = "$SQ" ] && k=sq
	run "import-$k" --db "$db" import "$SRC/inventory"
	[ "$(rc "import-$k")" = 0 ] ||
		fail "import on $k: $(cat "$T/import-$k.err")"
	for c in "export" "ls hosts" "ls hosts --json" "show nas" \
	    "show neo --json" "log --json"; do
		f=$(echo "$c" | tr ' ' '_')
		# shellcheck disable=SC2086
		run "$f-$k" --db "$db" $c
		[ "$(rc "$f-$k")" = 0 ] ||
			fail "$c on $k: $(cat "$T/$f-$k.err")"
	done
	run "report-$k" --db "$db" report --format json
	[ "$(rc "report-$k")" = 0 ] ||
		fail "report on $k: $(cat "$T/report-$k.err")"
done
has import-pg.out "into $URI"
for c in export ls_hosts ls_hosts_--json show_nas show_neo_--json; do
	cmp -s "$T/$c-sq.out" "$T/$c-pg.out" || {
		diff "$T/$c-sq.out" "$T/$c-pg.out" >&2 || :
		fail "$c differs between SQLite and PostgreSQL"
	}
done
# the report and the audit log: equal but for the clock and --db
strip() {
	sed -E 's/"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z"/"TIME"/g;
	    s/"time": [0-9]+/"time": 0/' "$T/$1" | sed "s#$URI#DB#g; s#$SQ#DB#g"
}
for c in report log_--json; do
	strip "$c-sq.out" >"$T/$c-sq.cmp"
	strip "$c-pg.out" >"$T/$c-pg.cmp"
	cmp -s "$T/$c-sq.cmp" "$T/$c-pg.cmp" || {
		diff "$T/$c-sq.cmp" "$T/$c-pg.cmp" >&2 || :
		fail "$c differs between SQLite and PostgreSQL"
	}
done
has report-pg.out '"hosts": 6'
# a second import changes nothing
run reimport --db "$URI" import "$SRC/inventory"
has reimport.out "0 added, 0 changed, 0 removed"
# a host's memberships apart in the table (PostgreSQL keeps rows in no
# key order: an update moves a row to the end, as a concurrent import
# did), and still read whole
pgsrv_sql lab 'UPDATE host_groups SET position = position WHERE host_id =
    (SELECT min(host_id) FROM host_groups) AND position = 0' ||
	fail "psql: update"
run export-moved --db "$URI" export
cmp -s "$T/export-sq.out" "$T/export-moved.out" || {
	diff "$T/export-sq.out" "$T/export-moved.out" >&2 || :
	fail "a host's memberships apart: the export lost one"
}
ok

# --- shares and mounts (schema 018, issue 21) equal too ---------------
U3=postgresql://lab@127.0.0.1:$PORT/lab3
pgsrv_psql 'CREATE DATABASE lab3' || fail "create database lab3"
for db in "$U3" "$T/shares.db"; do
	k=pg
	[ "$db" = "$U3" ] || k=sq
	run "sh-init-$k" --db "$db" init
	run "sh-import-$k" --db "$db" import "$SRC/tests/plan/shares.yaml"
	[ "$(rc "sh-import-$k")" = 0 ] ||
		fail "shares import on $k: $(cat "$T/sh-import-$k.err")"
	run "sh-export-$k" --db "$db" export
	run "sh-show-$k" --db "$db" show nas --json
	run "sh-report-$k" --db "$db" report --format json
	run "sh-plan-$k" --db "$db" provision nas --shares --dry-run
done
for c in sh-export sh-show sh-plan; do
	cmp -s "$T/$c-sq.out" "$T/$c-pg.out" || {
		diff "$T/$c-sq.out" "$T/$c-pg.out" >&2 || :
		fail "$c differs between SQLite and PostgreSQL"
	}
done
has sh-export-pg.out "vmstore"
has sh-plan-pg.out "exportfs"
for k in sq pg; do
	strip "sh-report-$k.out" | sed "s#DB3#DB#g; s#$T/shares.db#DB#g" \
	    >"$T/sh-report-$k.cmp"
done
cmp -s "$T/sh-report-sq.cmp" "$T/sh-report-pg.cmp" || {
	diff "$T/sh-report-sq.cmp" "$T/sh-report-pg.cmp" >&2 || :
	fail "sh-report differs between SQLite and PostgreSQL"
}
ok

# --- lab config: the backend and where, never a password --------------
run config --db "$URI" config
has config.out "backend .*postgresql: host 127.0.0.1, port $PORT, database lab, user lab"
run config-json --db "$URI" config --json
python3 - "$T/config-json.out" "$PORT" <<'PY' || fail "config --json"
import json, sys
b = json.load(open(sys.argv[1]))["backend"]
want = {"value": "postgresql", "origin": "db", "host": "127.0.0.1",
        "port": sys.argv[2], "database": "lab", "user": "lab"}
assert b == want, b
PY
run config-sq --db "$SQ" config --json
python3 -c 'import json,sys; b = json.load(open(sys.argv[1]))["backend"];
assert b == {"value": "sqlite", "origin": "db"}, b' "$T/config-sq.out" ||
	fail "config --json on SQLite"
ok

# --- a password in the URI: refused, saying where it goes, never shown -
for u in "postgresql://lab:$PW@127.0.0.1:$PORT/lab" \
    "postgres://lab@127.0.0.1:$PORT/lab?password=$PW"; do
	run pwuri --db "$u" ls hosts
	[ "$(rc pwuri)" = 2 ] || fail "password URI: exit $(rc pwuri), want 2"
	has pwuri.err "pgpass"
	has pwuri.err "PGPASSFILE"
	if grep -q -- "$PW" "$T/pwuri.err" "$T/pwuri.out"; then
		fail "the password was shown"
	fi
	LAB_DB=$u run pwenv config
	[ "$(rc pwenv)" = 2 ] || fail "password in LAB_DB: exit $(rc pwenv)"
done
ok

# --- the password from lab's credentials file (postgres:), 0600 only ---
printf 'postgres: {password: "%s"}\n' "$PW" >"$T/cred.yaml"
chmod 600 "$T/cred.yaml"
PGPASSFILE=$T/none run credpw --db "$URI" ls hosts
[ "$(rc credpw)" = 0 ] || fail "postgres: credential: $(cat "$T/credpw.err")"
cmp -s "$T/credpw.out" "$T/ls_hosts-pg.out" || fail "postgres: credential: ls"
chmod 644 "$T/cred.yaml"
PGPASSFILE=$T/none run credopen --db "$URI" ls hosts
[ "$(rc credopen)" = 3 ] || fail "a 0644 credentials file: exit $(rc credopen)"
has credopen.err "chmod 600"
printf 'postgres: {password: wrong}\n' >"$T/cred.yaml"
chmod 600 "$T/cred.yaml"
PGPASSFILE=$T/none run credbad --db "$URI" ls hosts
[ "$(rc credbad)" = 3 ] || fail "a wrong postgres: password: exit $(rc credbad)"
has credbad.err "password authentication failed"
rm -f "$T/cred.yaml"
# the password nowhere in the database lab writes
"$PGBIN/pg_dump" -h 127.0.0.1 -p $PORT -U lab lab >"$T/dump.sql" ||
	fail "pg_dump"
if grep -q -- "$PW" "$T/dump.sql"; then
	fail "the password is in the database"
fi
ok

# --- errors: exit 3, one line naming the server -----------------------
one_line() {	# one_line NAME WORDS
	[ "$(rc "$1")" = 3 ] || fail "$1: exit $(rc "$1"), want 3"
	[ "$(wc -l <"$T/$1.err")" = 1 ] || fail "$1: not one line"
	has "$1.err" "$2"
	if grep -q -- "$PW" "$T/$1.err"; then
		fail "$1: the password was shown"
	fi
}
printf '127.0.0.1:%s:*:lab:wrong\n' "$PORT" >"$T/badpass"
chmod 600 "$T/badpass"
PGPASSFILE=$T/badpass run badpw --db "$URI" ls hosts
one_line badpw "server 127.0.0.1:$PORT (database 'lab'): cannot connect: .*password authentication failed"
run down --db "postgresql://lab@127.0.0.1:1/lab" ls hosts
one_line down "server 127.0.0.1:1 (database 'lab'): cannot connect"
run nodb --db "postgresql://lab@127.0.0.1:$PORT/nosuchdb" ls hosts
one_line nodb "database \"nosuchdb\" does not exist"
pgsrv_sql lab 'UPDATE lab_schema SET version = version + 1' ||
	fail "psql: update"
run newer --db "$URI" ls hosts
one_line newer "has schema version .*newer than this lab knows"
pgsrv_sql lab 'UPDATE lab_schema SET version = version - 1' ||
	fail "psql: update"
ok

# --- two imports at once: one inventory whole, never a mix ------------
python3 "$SRC/tools/gen-inventory.py" "$T/a" --hosts 60 --files 1 >/dev/null
python3 "$SRC/tools/gen-inventory.py" "$T/b" --hosts 90 --files 1 >/dev/null
U2=postgresql://lab@127.0.0.1:$PORT/lab2
run init2 --db "$U2" init
for k in a b; do
	run "ea-$k" --db "$T/$k.db" import "$T/$k"
	run "ex-$k" --db "$T/$k.db" export
done
"$LAB" --db "$U2" import --prune --yes "$T/a" >"$T/ia.out" 2>&1 & pa=$!
"$LAB" --db "$U2" import --prune --yes "$T/b" >"$T/ib.out" 2>&1 & pb=$!
wait "$pa" || fail "import a: $(cat "$T/ia.out")"
wait "$pb" || fail "import b: $(cat "$T/ib.out")"
run both --db "$U2" export
cmp -s "$T/both.out" "$T/ex-a.out" || cmp -s "$T/both.out" "$T/ex-b.out" ||
	fail "two imports at once left neither inventory whole"
ok

# fks DB: its keys (foreign, primary, unique) and indexes, one a line: a
# bulk load (a first big import, db copy --to) drops those of the tables
# it fills and makes them again at its end
fks() {
	pgsrv_sql "$1" "SELECT conrelid::regclass, conname,
	    pg_get_constraintdef(oid), convalidated FROM pg_constraint
	    WHERE contype IN ('f', 'p', 'u') ORDER BY 1, 2" \
	    "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
	    ORDER BY 1"
}

# --- lab db copy: SQLite -> PostgreSQL -> SQLite, history and all ----
# history on the SQLite lab: a re-import, a report run, power events and
# state, a provisioning run (id 7) with its steps, switch ports, links
# and findings (read in insertion order), then the audit log of it all
run cp-reimport --db "$SQ" import "$SRC/tests/plan/shares.yaml"
run cp-record --db "$SQ" report --record
[ "$(rc cp-record)" = 0 ] || fail "report --record: $(cat "$T/cp-record.err")"
python3 - "$SQ" <<'PY' || fail "seed the history"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
h = db.execute("SELECT id FROM hosts ORDER BY name LIMIT 1").fetchone()[0]
s = db.execute("SELECT id FROM switches LIMIT 1").fetchone()
db.executescript("PRAGMA foreign_keys = ON")
for i, (a, st) in enumerate([("status", "off"), ("on", "on"), ("status", "on")]):
    db.execute("INSERT INTO power_events (host_id, time, action, ok, state, "
               "detail) VALUES (?, ?, ?, 1, ?, 'ipmi')",
               (h, 1764460800 + i * 60, a, st))
db.execute("INSERT INTO power_state (host_id, state, seen_at, checked_at, "
           "bmc_reachable, error) VALUES (?, 'on', 1764460920, 1764460920, "
           "1, NULL)", (h,))
db.execute("INSERT INTO provision_runs (id, host, kind, layout, plan, "
           "started_at, finished_at, status, failed_step, message) VALUES "
           "(7, 'nas', 'storage', 'raidz1', 'zpool create tank', 1764460800,"
           " 1764460860, 'failed', 2, 'exit 1: it''s \"quoted\"\n2nd line')")
for pos, (k, t, rc) in enumerate([("check", "test -b /dev/sdb", 0),
                                   ("run", "zpool create tank raidz1", 1)]):
    db.execute("INSERT INTO provision_steps VALUES (7, ?, ?, ?, 1764460800, "
               "1764460830, ?, ?)", (pos + 1, k, t, rc, "out\t%d" % pos))
if s is not None:
    for i, w in enumerate(["zeta", "alpha", "mid"]):
        db.execute("INSERT INTO switch_findings VALUES (?, 'warning', 'k', "
                   "?, 'message ' || ?, 1764460800)", (s[0], w, w))
db.commit()
PY
U4=postgresql://lab@127.0.0.1:$PORT/lab4
pgsrv_psql 'CREATE DATABASE lab4' || fail "create database lab4"
run cp-to --db "$SQ" db copy --to "$U4" --json
[ "$(rc cp-to)" = 0 ] || fail "db copy --to: $(cat "$T/cp-to.err")"
fks lab2 >"$T/fks.want"
[ "$(grep -c 'REFERENCES hosts' "$T/fks.want")" -ge 6 ] &&
    grep -q 'UNIQUE INDEX nics_mac_key' "$T/fks.want" ||
	fail "lab2's keys and indexes: $(cat "$T/fks.want")"
fks lab4 >"$T/fks.got"
cmp -s "$T/fks.want" "$T/fks.got" ||
	fail "after db copy --to, the keys and indexes: $(diff "$T/fks.want" "$T/fks.got")"
run cp-back --db "$T/back.db" db copy --from "$U4"
[ "$(rc cp-back)" = 0 ] || fail "db copy --from: $(cat "$T/cp-back.err")"
has cp-back.out "^provision_steps  *2  *2"
has cp-back.out "^copied [0-9]* rows in [0-9]* tables from $U4 to $T/back.db"
python3 - "$T/cp-to.out" <<'PY' || fail "db copy --json"
import json, sys
j = json.load(open(sys.argv[1]))
t = {r["table"]: r for r in j["tables"]}
assert all(r["from"] == r["to"] for r in j["tables"]), j
assert sum(r["to"] for r in j["tables"]) == j["rows"], j
for k, n in [("power_events", 3), ("provision_runs", 1),
             ("provision_steps", 2), ("switch_findings", 3),
             ("report_runs", 1)]:
    assert t[k]["to"] == n, (k, t[k])
assert t["audit_log"]["to"] >= 3 and t["hosts"]["to"] == 10, j
assert j["replaced"] is False, j
names = [r["table"] for r in j["tables"]]
assert names.index("hosts") < names.index("power_events"), names
assert names.index("provision_runs") < names.index("provision_steps"), names
PY
h=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(
    "SELECT name FROM hosts ORDER BY name LIMIT 1").fetchone()[0])' "$SQ")
for db in "$SQ" "$U4" "$T/back.db"; do
	k=sq
	[ "$db" = "$U4" ] && k=pg
	[ "$db" = "$T/back.db" ] && k=back
	for c in "export" "history --json" "history --run 7 --json" \
	    "history $h --power --json" "show sg200 --json" "log --limit 0 --json" \
	    "report --format json" "report --runs --json"; do
		f=cp-$(echo "$c" | tr ' ' '_')
		# shellcheck disable=SC2086
		run "$f-$k" --db "$db" $c
		[ "$(rc "$f-$k")" = 0 ] || fail "$c on $k: $(cat "$T/$f-$k.err")"
		sed "s#$U4#DB#g; s#$T/back.db#DB#g" "$T/$f-$k.out" >"$T/$f-$k.o"
		strip "$f-$k.o" >"$T/$f-$k.cmp"
	done
done
for f in "$T"/cp-*-sq.cmp; do
	for k in pg back; do
		cmp -s "$f" "${f%-sq.cmp}-$k.cmp" || {
			diff "$f" "${f%-sq.cmp}-$k.cmp" >&2 || :
			fail "$(basename "$f"): the copy on $k differs"
		}
	done
done
has cp-history_--run_7_--json-back.out "2nd line"
# switch findings are read in the order they were written
python3 -c 'import sqlite3, sys; r = [x[0] for x in sqlite3.connect(sys.argv[1]).execute(
    "SELECT subject FROM switch_findings ORDER BY rowid")];
assert r == ["zeta", "alpha", "mid"], r' "$T/back.db" ||
	fail "switch_findings: the copy lost their order"
# a non-empty target refused (exit 2, nothing written), then --replace
run cp-again --db "$SQ" db copy --to "$U4"
[ "$(rc cp-again)" = 2 ] || fail "a non-empty target: exit $(rc cp-again)"
has cp-again.err "not empty.*--replace"
run cp-same --db "$SQ" db copy --to "$SQ"
[ "$(rc cp-same)" = 2 ] || fail "a copy onto itself: exit $(rc cp-same)"
run cp-replace --db "$T/back.db" db copy --to "$U4" --replace --json
[ "$(rc cp-replace)" = 0 ] || fail "--replace: $(cat "$T/cp-replace.err")"
has cp-replace.out '"replaced": true'
fks lab4 >"$T/fks.got"
cmp -s "$T/fks.want" "$T/fks.got" ||
	fail "after db copy --replace, the keys and indexes: $(diff "$T/fks.want" "$T/fks.got")"
# a new write on each copy: the ids go on after the copied ones
for db in "$U4" "$T/back.db"; do
	run cp-write --db "$db" report --record
	[ "$(rc cp-write)" = 0 ] || fail "a write on $db: $(cat "$T/cp-write.err")"
	run cp-runs --db "$db" report --runs --json
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1]));
ids = sorted(x["id"] for x in (r if isinstance(r, list) else r["runs"]));
assert ids == [1, 2], ids' "$T/cp-runs.out" || fail "report runs on $db"
	run cp-imp --db "$db" import "$SRC/inventory"
	[ "$(rc cp-imp)" = 0 ] || fail "an import on $db: $(cat "$T/cp-imp.err")"
done
ok

# --- faults: a read-only database; lab's session ended mid-import -----
psql2() { "$PGBIN/psql" -q -h 127.0.0.1 -p $PORT -U lab -d lab2 "$@"; }
other=b
cmp -s "$T/both.out" "$T/ex-b.out" && other=a
psqlp() { "$PGBIN/psql" -q -h 127.0.0.1 -p $PORT -U lab -d postgres "$@"; }
# held DB TABLE: waits (bounded) until a session holds TABLE in SHARE mode
held() {
	i=0
	until [ "$(pgsrv_sql "$1" "SELECT count(*) FROM pg_locks l JOIN
	    pg_class c ON c.oid = l.relation WHERE c.relname = '$2' AND
	    l.mode = 'ShareLock' AND l.granted")" = 1 ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "the lock on $2 was not taken"
		sleep 0.1
	done
}
# hold DB TABLES: a session of its own holds TABLES (comma-separated) in
# SHARE mode, 30 s at most or until unhold; returns once it does
hold() {
	"$PGBIN/psql" -q -h 127.0.0.1 -p $PORT -U lab -d "$1" -c 'BEGIN' \
	    -c "LOCK TABLE $2 IN SHARE MODE" -c 'SELECT pg_sleep(30)' \
	    >/dev/null 2>&1 & locker=$!
	for _t in $(echo "$2" | tr ',' ' '); do
		held "$1" "$_t"
	done
}
# unhold DB: ends hold's session (if the server still runs) and waits
unhold() {
	pgsrv_sql "$1" "SELECT count(pg_terminate_backend(pid)) FROM
	    pg_stat_activity WHERE pid <> pg_backend_pid() AND
	    query LIKE '%pg_sleep%'" >/dev/null 2>&1 || :
	wait "$locker" || :
}
# waiting DB N: waits (bounded, 10 s) until N of lab's sessions wait for a
# lock; fails when they never do
waiting() {
	i=0
	until [ "$(pgsrv_sql "$1" "SELECT count(*) FROM pg_stat_activity
	    WHERE application_name = 'lab' AND
	    wait_event_type = 'Lock'")" = "$2" ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || return 1
		sleep 0.1
	done
}
psqlp -c 'ALTER DATABASE lab2 SET default_transaction_read_only = on' ||
	fail "set read-only"
run ro --db "$U2" import --prune --yes "$T/$other"
psqlp -c 'ALTER DATABASE lab2 RESET default_transaction_read_only' ||
	fail "reset read-only"
one_line ro "read-only"
run ro-export --db "$U2" export
cmp -s "$T/both.out" "$T/ro-export.out" || fail "read-only: the lab changed"
# a session holds known_issues (written last by an import) against
# writes; lab's import waits for it, having written its hosts, and its
# backend is terminated there: nothing of it is kept
hold lab2 known_issues
"$LAB" --db "$U2" import --prune --yes "$SRC/inventory" >"$T/term.out" \
    2>"$T/term.err" & pl=$!
i=0
until [ "$(psql2 -tAc "SELECT count(pg_terminate_backend(pid)) FROM
    pg_stat_activity WHERE application_name = 'lab' AND
    wait_event_type = 'Lock'")" = 1 ]; do
	i=$((i + 1))
	[ $i -lt 40 ] || fail "lab's import never waited for known_issues"
	sleep 0.1
done
rc=0
wait "$pl" || rc=$?
unhold lab2
[ "$rc" = 3 ] || fail "an import whose session ended: exit $rc, want 3"
has term.err "database '$U2'"
run term-export --db "$U2" export
cmp -s "$T/both.out" "$T/term-export.out" ||
	fail "an import whose session ended left a change"
ok

# --- a deadlock: the server ends lab's import, which runs it again -----
# a session takes known_issues against writes, waits until lab's import
# waits for it, then asks for lab's write lock: a deadlock the server
# finds in lab's session (the other's deadlock_timeout is longer); the
# import runs again once the session is done, and the lab is the new one
psql2 -c 'BEGIN' -c 'LOCK TABLE known_issues IN SHARE MODE' \
    -c "SET LOCAL deadlock_timeout = '20s'" \
    -c "DO \$\$ BEGIN WHILE NOT EXISTS (SELECT 1 FROM pg_locks AS l JOIN
        pg_class AS c ON c.oid = l.relation WHERE c.relname =
        'known_issues' AND NOT l.granted) LOOP PERFORM pg_sleep(0.05);
        END LOOP; END \$\$" \
    -c 'SELECT pg_advisory_xact_lock(7243011)' -c 'COMMIT' \
    >"$T/locker.out" 2>&1 & locker=$!
held lab2 known_issues
run deadlock --db "$U2" import --prune --yes "$SRC/inventory"
wait "$locker" || fail "the other session: $(cat "$T/locker.out")"
[ "$(rc deadlock)" = 0 ] || fail "a deadlock: exit $(rc deadlock): $(cat "$T/deadlock.err")"
run deadlock-export --db "$U2" export
cmp -s "$T/export-sq.out" "$T/deadlock-export.out" ||
	fail "an import run again after a deadlock: not the inventory"
grep -q "deadlock detected" "$T/sock/pg.log" ||
	fail "no deadlock happened (the server's log does not say one)"
ok

# --- a new database: its schema made while the YAML is read -----------
# lab import opens PostgreSQL in a thread of its own while it reads the
# YAML; the migrations stay in the transaction the import then continues.
# A bad file: the schema made meanwhile goes with it, nothing is left
pgsrv_psql 'CREATE DATABASE new1' 'CREATE DATABASE new2' ||
	fail "create database new1, new2"
U5=postgresql://lab@127.0.0.1:$PORT/new1
U6=postgresql://lab@127.0.0.1:$PORT/new2
printf 'hosts:\n  - name: x\n    model: [\n' >"$T/bad.yaml"
run new-bad --db "$U5" import "$SRC/inventory" "$T/bad.yaml"
[ "$(rc new-bad)" = 2 ] || fail "a bad file into a new database: exit $(rc new-bad), want 2"
has new-bad.err "bad.yaml:4:1"
[ "$(pgsrv_sql new1 "SELECT count(*) FROM pg_tables WHERE
    schemaname = 'public'")" = 0 ] ||
	fail "a bad file into a new database left tables"
# armed DB BODY: each hosts table made in DB from now on gets, by an event
# trigger, a row trigger that runs BODY (PL/pgSQL) before each insert
armed() {
	pgsrv_sql "$1" 'CREATE SCHEMA IF NOT EXISTS t' \
	    "CREATE FUNCTION t.f() RETURNS trigger LANGUAGE plpgsql AS \$\$
	    BEGIN $2 RETURN NEW; END \$\$" \
	    "CREATE FUNCTION t.arm() RETURNS event_trigger LANGUAGE plpgsql AS
	    \$\$ BEGIN IF EXISTS (SELECT 1 FROM pg_event_trigger_ddl_commands()
	    WHERE object_identity = 'public.hosts') THEN CREATE TRIGGER f
	    BEFORE INSERT ON public.hosts FOR EACH ROW EXECUTE FUNCTION t.f();
	    END IF; END \$\$" \
	    "CREATE EVENT TRIGGER arm ON ddl_command_end WHEN TAG IN
	    ('CREATE TABLE') EXECUTE FUNCTION t.arm()" >/dev/null ||
		fail "psql: the triggers of $1"
}
# a conflict at the first host: the server ends the transaction, and the
# migrations in it; the import, run again, makes them again. The first
# row's trigger (a sequence, which no rollback takes back) raises a
# serialization failure
pgsrv_sql new1 'CREATE SCHEMA t' 'CREATE SEQUENCE t.n' ||
	fail "psql: a sequence"
armed new1 "IF nextval('t.n') = 1 THEN RAISE EXCEPTION 'a conflict'
    USING ERRCODE = 'serialization_failure'; END IF;"
run new-retry --db "$U5" import "$SRC/inventory"
[ "$(rc new-retry)" = 0 ] ||
	fail "a conflict in a new database's import: exit $(rc new-retry): $(cat "$T/new-retry.err")"
[ "$(pgsrv_sql new1 "SELECT last_value > 1 FROM t.n")" = t ] ||
	fail "the import was not run again (its first host never came twice)"
run new-retry-export --db "$U5" export
cmp -s "$T/export-sq.out" "$T/new-retry-export.out" ||
	fail "a new database's import run again: not the inventory"
# a failure that is not a conflict: exit 3, no host; the schema is made
# on its own then, for the audit log's line (as when made before)
armed new2 "RAISE EXCEPTION 'no hosts here';"
run new-fail --db "$U6" import "$SRC/inventory"
[ "$(rc new-fail)" = 3 ] || fail "a failed import into a new database: exit $(rc new-fail), want 3"
has new-fail.err "no hosts here"
[ "$(grep -cv ': warning: ' "$T/new-fail.err")" = 1 ] ||
	fail "a failed import into a new database: not one line (but warnings)"
run new-fail-log --db "$U6" log --json
[ "$(rc new-fail-log)" = 0 ] || fail "lab log after a failed import: $(cat "$T/new-fail-log.err")"
has new-fail-log.out '"command": "import"'
has new-fail-log.out 'no hosts here'
[ "$(pgsrv_sql new2 "SELECT count(*) FROM hosts")" = 0 ] ||
	fail "a failed import into a new database left hosts"
ok

# --- the server killed mid-import, and started again: the old lab whole -
run kill-before --db "$U2" export
hold lab2 known_issues
"$LAB" --db "$U2" import --prune --yes "$T/a" >"$T/kill.out" \
    2>"$T/kill.err" & pl=$!
waiting lab2 1 || fail "lab's import never waited for known_issues"
pgsrv_stop "$T"
rc=0
wait "$pl" || rc=$?
unhold lab2
[ "$rc" = 3 ] || fail "an import whose server died: exit $rc, want 3"
pgsrv_run "$T" $PORT || fail "pg_ctl restart"
run kill-after --db "$U2" export
cmp -s "$T/kill-before.out" "$T/kill-after.out" ||
	fail "an import whose server died left a change"
ok

# --- a first import of a big lab: foreign keys checked once, at the end -
# (LAB_DB_BULK_HOSTS, 500 hosts: lib/db/pg.c drops the keys to hosts and
# groups in the import's transaction and adds them back before COMMIT.)
# Its backend terminated while it waits at switches (written after the
# hosts), holding the tables with the keys dropped: the keys are there
# after, the lab empty; run again: the lab equal to SQLite's, the keys as
# a small import leaves them (lab2's), each validated
python3 "$SRC/tools/gen-inventory.py" "$T/big" --hosts 600 --switches 4 \
    --files 2 >/dev/null || fail "gen-inventory"
# and a host whose role holds what COPY's text format escapes (a bulk
# load's rows go by COPY): a backslash before t and before N, which
# unescaped would be a tab and NULL (YAML refuses control characters)
cat >"$T/big/odd.yaml" <<'END'
hosts:
  - name: odd
    model: hp-dl320-g5p
    role: "back\\slash \\t \\N"
    nics:
      - {name: eth0, mac: "02:00:00:ff:00:01"}
END
pgsrv_psql 'CREATE DATABASE big' || fail "create database big"
U4=postgresql://lab@127.0.0.1:$PORT/big
run big-init --db "$U4" init
hold big switches
"$LAB" --db "$U4" import "$T/big" >"$T/bulk.out" 2>"$T/bulk.err" & pl=$!
waiting big 1 || fail "the big import never waited for switches"
[ "$(pgsrv_sql big "SELECT count(*) FROM pg_locks l JOIN pg_class c ON
    c.oid = l.relation WHERE c.relname = 'disks' AND l.granted AND
    l.mode = 'AccessExclusiveLock'")" = 1 ] ||
	fail "the big import did not take disks for a bulk load"
pgsrv_sql big "SELECT count(pg_terminate_backend(pid)) FROM
    pg_stat_activity WHERE application_name = 'lab'" >/dev/null
rc=0
wait "$pl" || rc=$?
unhold big
[ "$rc" = 3 ] || fail "a bulk import whose session ended: exit $rc, want 3"
fks big >"$T/fks.term"
cmp -s "$T/fks.want" "$T/fks.term" ||
	fail "a bulk import ended midway changed the keys or indexes: $(diff "$T/fks.want" "$T/fks.term")"
[ "$(pgsrv_sql big 'SELECT count(*) FROM hosts')" = 0 ] ||
	fail "a bulk import ended midway left hosts"
run bulk --db "$U4" import "$T/big"
[ "$(rc bulk)" = 0 ] || fail "bulk import: $(cat "$T/bulk.err")"
fks big >"$T/fks.got"
cmp -s "$T/fks.want" "$T/fks.got" ||
	fail "after a bulk import, the keys and indexes: $(diff "$T/fks.want" "$T/fks.got")"
"$LAB" --db "$T/big.db" import "$T/big" >/dev/null ||
	fail "the big lab on SQLite"
run big-sq --db "$T/big.db" export
run big-pg --db "$U4" export
cmp -s "$T/big-sq.out" "$T/big-pg.out" ||
	fail "a bulk import: export differs from SQLite's"
grep -qx '  role: back\\slash \\t \\N' "$T/big-pg.out" ||
	fail "the odd host's role, exported: $(grep -A3 'name: odd' "$T/big-pg.out")"
[ "$(wc -l <"$T/big-pg.out")" -gt 6000 ] ||
	fail "the big lab's export is short: $(wc -l <"$T/big-pg.out") lines"
ok

# --- 8 lab processes at once: imports, ls, report; one lab whole after -
pids=
for k in a b a ls ls report report ls; do
	case $k in
	a|b) set -- import --prune --yes "$T/$k" ;;
	ls) set -- ls hosts --json ;;
	report) set -- report --format json ;;
	esac
	"$LAB" --db "$U2" "$@" >"$T/p8-$k-$$-${#pids}.out" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || fail "8 at once: a process failed: $(cat "$T"/p8-*.out | grep 'lab:' | head -3)"
done
run p8-export --db "$U2" export
[ "$(rc p8-export)" = 0 ] || fail "8 at once: export: $(cat "$T/p8-export.err")"
cmp -s "$T/p8-export.out" "$T/ex-a.out" || cmp -s "$T/p8-export.out" "$T/ex-b.out" || {
	# what differs, and what each process said
	diff "$T/ex-a.out" "$T/p8-export.out" | head -20 >&2 || :
	diff "$T/ex-b.out" "$T/p8-export.out" | head -20 >&2 || :
	tail -n 3 "$T"/p8-a-* "$T"/p8-b-* >&2 || :
	fail "8 at once left neither inventory whole"
}
# each report saw one lab whole: the one before (6 hosts), 60 or 90
for f in "$T"/p8-report-*.out; do
	grep -Eq '"hosts": (6|60|90),' "$f" || fail "a report saw half a lab: $f"
done
ok

# --- a switch discovery: a deadlock, then the server killed mid-write -
# (in lab3, the shares lab, which gains a switch: no new database to make)
psql5() { "$PGBIN/psql" -q -h 127.0.0.1 -p $PORT -U lab -d lab3 "$@"; }
# every row a discovery and a report write, and when
rows() {
	psql5 -tAc "SELECT (SELECT count(*) FROM switch_ports),
	    (SELECT count(*) FROM switch_fdb), (SELECT count(*) FROM
	    switch_vlans), (SELECT count(*) FROM switch_findings), (SELECT
	    discovered_at FROM switches WHERE name = 'sg'), (SELECT count(*)
	    FROM report_runs)"
}
mkdir -p "$T/agent/data"
cp "$FIX/ciscosb_sg350-10.snmprec" "$T/agent/data/"
SPORT=$(snmp_free_port)
snmp_start "$T/agent" "$SPORT" ciscosb_sg350-10
printf 'sg: {community: ciscosb_sg350-10}\n' >"$T/cred.yaml"
chmod 600 "$T/cred.yaml"
cat >"$T/sw.yaml" <<END
switches:
  - {name: sg, model: generic-switch, address: 127.0.0.1, port: $SPORT, snmp: {version: 2c, credential: sg, timeout: 2, retries: 0}}
END
run sw-import --db "$U3" import "$T/sw.yaml"
[ "$(rc sw-import)" = 0 ] || fail "switch import: $(cat "$T/sw-import.err")"
# the deadlock of the import's case, in the discovery's transaction: it
# waits for switch_findings (having cleared the switch's other tables)
# while the other session asks for its write lock; run again, whole
d0=$(grep -c "deadlock detected" "$T/sock/pg.log" || :)
psql5 -c 'BEGIN' -c 'LOCK TABLE switch_findings IN SHARE MODE' \
    -c "SET LOCAL deadlock_timeout = '20s'" \
    -c "DO \$\$ BEGIN WHILE NOT EXISTS (SELECT 1 FROM pg_locks AS l JOIN
        pg_class AS c ON c.oid = l.relation WHERE c.relname =
        'switch_findings' AND NOT l.granted) LOOP PERFORM pg_sleep(0.05);
        END LOOP; END \$\$" \
    -c 'SELECT pg_advisory_xact_lock(7243011)' -c 'COMMIT' \
    >"$T/locker.out" 2>&1 & locker=$!
held lab3 switch_findings
run sw-deadlock --db "$U3" switch discover sg
wait "$locker" || fail "the other session: $(cat "$T/locker.out")"
[ "$(rc sw-deadlock)" = 0 ] ||
	fail "a discovery in a deadlock: exit $(rc sw-deadlock): $(cat "$T/sw-deadlock.err")"
[ "$(grep -c "deadlock detected" "$T/sock/pg.log")" -gt "$d0" ] ||
	fail "no deadlock happened in the discovery"
run sw-ports --db "$U3" switch ports sg --json
has sw-ports.out '"ifindex"'
run sw-import-sq --db "$T/sw.db" import "$T/sw.yaml"
run sw-disc-sq --db "$T/sw.db" switch discover sg
run sw-ports-sq --db "$T/sw.db" switch ports sg --json
sed -E 's/"(seen_at|discovered_at)": [^,]*/"\1": 0/g' "$T/sw-ports.out" >"$T/sw-ports.cmp"
sed -E 's/"(seen_at|discovered_at)": [^,]*/"\1": 0/g' "$T/sw-ports-sq.out" >"$T/sw-ports-sq.cmp"
cmp -s "$T/sw-ports.cmp" "$T/sw-ports-sq.cmp" || {
	diff "$T/sw-ports-sq.cmp" "$T/sw-ports.cmp" >&2 || :
	fail "a discovery run again after a deadlock: not the SQLite one"
}
ok

# --- the server killed during a discovery and a report ----------------
# a session holds switch_findings and report_runs against writes: the
# discovery waits there mid-transaction (its other tables cleared), the
# report with its run to record; both seen waiting, the server is killed
# (immediate) and started again: the last discovery and the report runs
# as they were, one line each naming the database, and reruns work
run rp-first --db "$U3" report --record
[ "$(rc rp-first)" = 0 ] || fail "report --record: $(cat "$T/rp-first.err")"
r0=$(rows)
hold lab3 switch_findings,report_runs
"$LAB" --db "$U3" switch discover sg >"$T/swkill.out" 2>"$T/swkill.err" &
pd=$!
"$LAB" --db "$U3" report --record >"$T/rpkill.out" 2>"$T/rpkill.err" &
pr=$!
waiting lab3 2 ||
	fail "lab's discovery and report never waited for the locks"
pgsrv_stop "$T"
rcd=0
wait "$pd" || rcd=$?
rcr=0
wait "$pr" || rcr=$?
unhold lab3
pgsrv_run "$T" $PORT || fail "pg_ctl restart"
[ "$rcd" != 0 ] || fail "a discovery whose server died: exit 0"
[ "$rcr" = 3 ] || fail "a report whose server died: exit $rcr, want 3"
for k in swkill rpkill; do
	[ "$(wc -l <"$T/$k.err")" = 1 ] ||
		fail "$k: the server died: not one line: $(cat "$T/$k.err")"
	has $k.err "database '$U3'"
done
[ "$(rows)" = "$r0" ] || fail "the server died: a change was left: $r0 -> $(rows)"
run sw-after --db "$U3" switch ports sg --json
cmp -s "$T/sw-ports.out" "$T/sw-after.out" ||
	fail "a discovery whose server died: the ports changed"
run sw-again --db "$U3" switch discover sg
[ "$(rc sw-again)" = 0 ] || fail "a discovery after the restart: $(cat "$T/sw-again.err")"
run rp-again --db "$U3" report --record
[ "$(rc rp-again)" = 0 ] || fail "a report after the restart: $(cat "$T/rp-again.err")"
run rp-runs --db "$U3" report --runs --json
python3 - "$T/rp-runs.out" "${r0##*|}" <<'PY' || fail "report runs after the restart"
import json, sys
r = json.load(open(sys.argv[1]))
runs = r if isinstance(r, list) else r["runs"]
assert len(runs) == int(sys.argv[2]) + 1, runs
assert all(x["facts"] > 0 for x in runs), runs
PY
ok

echo "pg.sh: $n groups of checks passed"
