#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab on PostgreSQL (issue 22) against a throwaway PostgreSQL 15 cluster
# this test starts in its own folder on 127.0.0.1:55432 and stops on
# every exit path: init, import of the example lab, export, ls hosts,
# show and report --format json equal to the same run on SQLite; the
# password through PGPASSFILE only (a URI with one refused); lab config;
# a wrong password, a server down, a missing database and a schema newer
# than this lab (exit 3, one line naming the server); two imports at once;
# an inventory with shares and mounts (its export, show and report).
# sh pg.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=55432
missing=
[ -x "$PGBIN/initdb" ] || missing="postgresql-15"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
if [ -n "$missing" ]; then
	echo "pg.sh: needs $missing" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi

. "$SRC/tests/integration/harness.sh"
T=$(mktemp -d /tmp/lab-pg.XXXXXX)
chmod 755 "$T"
# the server refuses to run as root: as postgres, else nobody
as_pg() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
	elif id postgres >/dev/null 2>&1; then
		runuser -u postgres -- "$@"
	else
		runuser -u nobody -- "$@"
	fi
}
cleanup() {
	if [ -f "$T/pg/postmaster.pid" ]; then
		as_pg "$PGBIN/pg_ctl" -D "$T/pg" -m immediate -w stop \
		    >/dev/null 2>&1 || :
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
NAME=pg.sh
. "$SRC/tests/integration/check.sh"

# --- a cluster of our own: user lab, a password, scram-sha-256 ---------
mkdir "$T/pg" "$T/sock"
PW=pg-secret-$$-x7
printf '%s\n' "$PW" >"$T/pwfile"
if [ "$(id -u)" = 0 ]; then
	u=postgres
	id postgres >/dev/null 2>&1 || u=nobody
	chown "$u" "$T/pg" "$T/sock" "$T/pwfile"
fi
as_pg "$PGBIN/initdb" -D "$T/pg" -U lab -A scram-sha-256 \
    --pwfile="$T/pwfile" >"$T/initdb.log" 2>&1 || {
	cat "$T/initdb.log" >&2
	fail "initdb"
}
rm -f "$T/pwfile"
as_pg "$PGBIN/pg_ctl" -D "$T/pg" -l "$T/sock/pg.log" -w -o "-p $PORT -k $T/sock \
-c listen_addresses=127.0.0.1" start >/dev/null 2>&1 || {
	cat "$T/sock/pg.log" >&2
	fail "pg_ctl start"
}
harness_pidfile postgres "$T/pg/postmaster.pid"
export PGPASSFILE="$T/pgpass" HOME="$T" LAB_CREDENTIALS="$T/cred.yaml"
unset LAB_DB LAB_CONFIG PGPASSWORD PGHOST PGPORT PGUSER PGDATABASE || :
printf '127.0.0.1:%s:*:lab:%s\n' "$PORT" "$PW" >"$PGPASSFILE"
chmod 600 "$PGPASSFILE"
"$PGBIN/../bin/psql" -q -h 127.0.0.1 -p $PORT -U lab -d postgres \
    -c 'CREATE DATABASE lab' -c 'CREATE DATABASE lab2' >/dev/null ||
	fail "create database"
URI=postgresql://lab@127.0.0.1:$PORT/lab
SQ=$T/lab.db

# --- init, import, and every read equal to SQLite's -------------------
run init --db "$URI" init --json
[ "$(rc init)" = 0 ] || fail "init: $(cat "$T/init.err")"
has init.out "\"created\": false"
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
ok

# --- shares and mounts (schema 018, issue 21) equal too ---------------
U3=postgresql://lab@127.0.0.1:$PORT/lab3
"$PGBIN/../bin/psql" -q -h 127.0.0.1 -p $PORT -U lab -d postgres \
    -c 'CREATE DATABASE lab3' >/dev/null || fail "create database lab3"
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
done
for c in sh-export sh-show; do
	cmp -s "$T/$c-sq.out" "$T/$c-pg.out" || {
		diff "$T/$c-sq.out" "$T/$c-pg.out" >&2 || :
		fail "$c differs between SQLite and PostgreSQL"
	}
done
has sh-export-pg.out "vmstore"
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
"$PGBIN/psql" -q -h 127.0.0.1 -p $PORT -U lab -d lab \
    -c 'UPDATE lab_schema SET version = version + 1' >/dev/null
run newer --db "$URI" ls hosts
one_line newer "has schema version .*newer than this lab knows"
"$PGBIN/psql" -q -h 127.0.0.1 -p $PORT -U lab -d lab \
    -c 'UPDATE lab_schema SET version = version - 1' >/dev/null
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

echo "pg.sh: $n groups of checks passed"
