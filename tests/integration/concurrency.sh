#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Two, then eight lab processes at once against one database: imports of
# two inventories in turn, switch discoveries (snmpsimd), power status
# (ipmi_sim) and reports, started together. No "database is locked"
# may reach the user (each waits at most the 5 s busy timeout, and no
# write here holds the lock that long) and no write may be lost: every
# import, discovery, power status and report is in the database after.
# BMCs on 127.0.24.21-22, the agent on 127.0.24.30.
# sh concurrency.sh LAB SRCDIR FIXTURES
set -eu
LAB=$1
SRC=$2
FIX=$3
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
. "$SRC/tests/integration/snmp.sh"
bmc_require
snmp_require
for p in sqlite3 python3; do
	command -v $p >/dev/null 2>&1 && continue
	echo "concurrency.sh: no $p (package $p)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
done
[ -f "$FIX/ciscosb_sg350-10.snmprec" ] || {
	echo "concurrency.sh: no captures in $FIX" >&2
	exit 1
}

T=$(mktemp -d /tmp/lab-concurrency.XXXXXX)
chmod 755 "$T"
pids=
cleanup() {
	set +e
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
	snmp_stop "$T/agent"
	bmc_stop "$T/bmcs"
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
NAME=concurrency.sh
. "$SRC/tests/integration/check.sh"

BMC_NET=127.0.24
bmc_start "$T/bmcs" 2 21
mkdir -p "$T/agent/data"
cp "$FIX/ciscosb_sg350-10.snmprec" "$T/agent/data/sw.snmprec"
SNMP_ADDR=127.0.24.30
PORT=$(snmp_free_port)
snmp_start "$T/agent" "$PORT" sw
cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: password}
sw: {community: sw}
END
chmod 600 "$T/credentials.yaml"
mkdir "$T/base"
cat >"$T/base/base.yaml" <<END
hosts:
  - {name: c1, model: generic-server, bmc: {type: ipmi, address: 127.0.24.21, credential: admin, workarounds: [opensesspriv]}}
  - {name: c2, model: generic-server, bmc: {type: ipmi, address: 127.0.24.22, credential: admin, workarounds: [opensesspriv]}}
switches:
  - {name: sw, model: generic-switch, address: $SNMP_ADDR, port: $PORT, snmp: {version: 2c, credential: sw, timeout: 3, retries: 1}}
END
"$LAB" import "$T/base" >/dev/null 2>&1 || fail "import the base"
# two inventories of 100 hosts that differ in every host, imported in
# turn. Small enough that a wave's writes, queued one after the other,
# take well under the 5 s busy timeout even under ASan on a busy machine
# (300 hosts did not: 8 processes, 3 of them imports, queued more than
# 5 s there, and the last writer rightly gave up)
for v in 0 1; do
	python3 "$SRC/tools/gen-inventory.py" "$T/inv$v" --hosts 100 \
	    --switches 4 --files 2 --variant $v
done

count() { sqlite3 "$LAB_DB" "$1"; }
imports=0 discovers=0 statuses=0 reports=0 runs=0
# wave CMD...: one lab per argument ("import0", "import1", "discover",
# "status", "report"), all started at the same moment
wave() {
	words=$*
	pids=
	rm -f "$T/go"
	i=0
	for w in $words; do
		i=$((i + 1))
		case $w in
		import0|import1) set -- import "$T/inv${w#import}"
			imports=$((imports + 1)) ;;
		discover) set -- switch discover sw
			discovers=$((discovers + 1)) ;;
		status) set -- power status c1 c2
			statuses=$((statuses + 1)) ;;
		report) set -- report --format json --record
			reports=$((reports + 1)) ;;
		esac
		(
			while [ ! -e "$T/go" ]; do sleep 0.01; done
			rc=0
			"$LAB" "$@" >"$T/w$runs.$i.out" 2>"$T/w$runs.$i.err" || rc=$?
			echo "$rc $*" >"$T/w$runs.$i.rc"
		) &
		pids="$pids $!"
		harness_track lab-worker "$!"
	done
	: >"$T/go"
	end=$(($(date +%s) + 180))
	for p in $pids; do
		while _bmc_alive "$p"; do
			[ "$(date +%s)" -lt "$end" ] ||
			    fail "wave $runs: a lab still runs after 180 s: it hangs"
			sleep 0.05
		done
		wait "$p" || true
	done
	pids=
	i=0
	for w in $words; do
		i=$((i + 1))
		f=$T/w$runs.$i
		[ -e "$f.rc" ] || fail "wave $runs: worker $i left no exit code"
		if grep -qi "locked\|busy" "$f.err"; then
			cat "$f.err" >&2
			fail "wave $runs: '$(cut -d' ' -f2- "$f.rc")' met a locked database"
		fi
		[ "$(cut -d' ' -f1 "$f.rc")" = 0 ] || {
			cat "$f.err" >&2
			fail "wave $runs: '$(cut -d' ' -f2- "$f.rc")' exit $(cut -d' ' -f1 "$f.rc")"
		}
	done
	runs=$((runs + 1))
}

# eight imports at once into a database none of them finds: each
# creates, migrates or waits, none fails
pids=
rm -f "$T/go"
for i in 1 2 3 4 5 6 7 8; do
	(
		while [ ! -e "$T/go" ]; do sleep 0.01; done
		rc=0
		"$LAB" --db "$T/fresh.db" import "$T/base" >/dev/null \
		    2>"$T/fresh.$i.err" || rc=$?
		echo "$rc" >"$T/fresh.$i.rc"
	) &
	pids="$pids $!"
	harness_track lab-import "$!"
done
: >"$T/go"
for p in $pids; do wait "$p" || true; done
pids=
for i in 1 2 3 4 5 6 7 8; do
	[ "$(cat "$T/fresh.$i.rc" 2>/dev/null)" = 0 ] ||
	    { cat "$T/fresh.$i.err" >&2; fail "creating import $i failed"; }
done
[ "$(sqlite3 "$T/fresh.db" "SELECT count(*) FROM audit_log")" = 8 ] ||
	fail "the creating imports are not all in the audit log"
[ "$(sqlite3 "$T/fresh.db" "PRAGMA journal_mode")" = wal ] ||
	fail "the created database is not in WAL mode"
ok

audit0=$(count "SELECT count(*) FROM audit_log")
events0=$(count "SELECT count(*) FROM power_events")
reports0=$(count "SELECT count(*) FROM report_runs")

# two at once: the same writes, different writes, a read and a write
wave import0 import1
wave import0 discover
wave status report
wave import1 import0
ok

# eight at once, twice
wave import0 import1 discover status report import0 status report
wave import1 discover import0 status report discover import1 report
ok

# no write lost: every import and discovery is in the audit log, every
# power status in power_events (one per host), every report run recorded
[ "$(count "SELECT count(*) FROM audit_log")" = $((audit0 + imports + discovers)) ] ||
	fail "audit log: $(count "SELECT count(*) FROM audit_log") entries, want $((audit0 + imports + discovers))"
[ "$(count "SELECT count(*) FROM audit_log WHERE id > 0 AND command = 'import' AND result = 0")" -ge "$imports" ] ||
	fail "an import is missing from the audit log"
[ "$(count "SELECT count(*) FROM power_events")" = $((events0 + 2 * statuses)) ] ||
	fail "power events: $(count "SELECT count(*) FROM power_events"), want $((events0 + 2 * statuses))"
[ "$(count "SELECT count(*) FROM report_runs")" = $((reports0 + reports)) ] ||
	fail "report runs: $(count "SELECT count(*) FROM report_runs"), want $((reports0 + reports))"
[ "$(count "PRAGMA integrity_check")" = ok ] || fail "integrity_check"
# the generated hosts are one whole inventory, the last one imported
"$LAB" ls hosts 'node[00001-00100]' >"$T/hosts.out" 2>&1 || fail "ls hosts"
[ "$(grep -c ' compute-0 ' "$T/hosts.out")" = 100 ] ||
[ "$(grep -c ' compute-1 ' "$T/hosts.out")" = 100 ] ||
	fail "the hosts mix two imports"
[ "$(count "SELECT count(*) FROM hosts WHERE name IN ('c1', 'c2')")" = 2 ] ||
	fail "the base hosts were lost"
[ "$(count "SELECT discovered_at IS NOT NULL FROM switches WHERE name = 'sw'")" = 1 ] ||
	fail "the discovery was lost"
ok

echo "concurrency.sh: $n groups of checks passed ($runs waves," \
    "$imports imports, $discovers discoveries, $statuses power status," \
    "$reports reports)"
