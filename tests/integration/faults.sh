#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Faults of the peers and of lab itself, on 127.0.24.1-10:
#   - a BMC that stops answering (SIGSTOP) in the middle of a fan-out;
#   - an SNMP agent killed in the middle of a walk: nothing of that walk
#     is stored, the switch's discovery is exactly as before;
#   - lab killed (SIGKILL) at random points of an import and of a
#     discovery: the database passes PRAGMA integrity_check and holds
#     either all the old data or all the new.
# sh faults.sh LAB SRCDIR FIXTURES
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
	echo "faults.sh: no $p (package $p)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
done
[ -f "$FIX/ciscosb_sg350x-24p.snmprec" ] && [ -f "$FIX/ios_2960x.snmprec" ] || {
	echo "faults.sh: no captures in $FIX" >&2
	exit 1
}

T=$(mktemp -d /tmp/lab-faults.XXXXXX)
chmod 755 "$T"	# snmpsimd runs as nobody and reads its data below
stopped=
bg=
cleanup() {
	set +e	# a peer already gone must not end the cleanup
	[ -z "$stopped" ] || kill -CONT "-$stopped" 2>/dev/null || true
	[ -z "$bg" ] || kill -KILL "$bg" 2>/dev/null || true
	snmp_stop "$T/agent"
	bmc_stop "$T/bmcs"
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
NAME=faults.sh
. "$SRC/tests/integration/check.sh"
SEED=${SEED:-$$}
echo "faults.sh: random seed $SEED (SEED=$SEED repeats this run)"

# waits for background PID, at most S seconds (a hang, not a timing: S is
# far beyond any deadline involved); sets rc to its exit code. A finished
# child stays a zombie until waited for: _bmc_alive counts that as gone.
wait_for() {
	_end=$(($(date +%s) + $2))
	while _bmc_alive "$1"; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			kill -KILL "$1" 2>/dev/null || true
			fail "$3 still running after $2 s: it hangs"
		fi
		sleep 0.05
	done
	rc=0
	wait "$1" || rc=$?
	bg=
}
# polls until COMMAND succeeds, at most S seconds
poll() {
	_end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.02
	done
}
# a random number of milliseconds in [0, MAX)
rand_ms() {
	awk -v s="$SEED" -v r="$1" -v m="$2" \
	    'BEGIN { srand(s + r); printf "%d\n", rand() * m }'
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
sleep_ms() { sleep "$(awk -v m="$1" 'BEGIN { printf "%.3f\n", m / 1000 }')"; }
integrity() {
	[ "$(sqlite3 "$LAB_DB" 'PRAGMA integrity_check')" = ok ] ||
	    fail "$1: integrity_check: $(sqlite3 "$LAB_DB" 'PRAGMA integrity_check' | head -3)"
	[ -z "$(sqlite3 "$LAB_DB" 'PRAGMA foreign_key_check')" ] ||
	    fail "$1: foreign_key_check"
}

# --- 1. a BMC that stops answering in the middle of a fan-out ---------
BMC_NET=127.0.24
bmc_start "$T/bmcs" 4
printf 'admin: {username: admin, password: password}\n' >"$T/credentials.yaml"
chmod 600 "$T/credentials.yaml"
{
	echo "hosts:"
	for k in 1 2 3 4; do
		echo "  - {name: f$k, model: generic-server, bmc: {type: ipmi," \
		    "address: 127.0.24.$k, credential: admin," \
		    "workarounds: [opensesspriv]}}"
	done
} >"$T/bmcs.yaml"
"$LAB" import "$T/bmcs.yaml" >/dev/null 2>&1 || fail "import the BMC hosts"
# BMC 3 thinks for a second before it answers: its session is open and
# waiting when it stops
echo 1 >"$T/bmcs/bmc3/delay"
: >"$T/bmcs/bmc3/helper.log"
"$LAB" power status f1 f2 f3 f4 --timeout 3 --json >"$T/stop.out" \
    2>"$T/stop.err" &
bg=$!
poll 30 grep -q "^get" "$T/bmcs/bmc3/helper.log" ||
	fail "BMC 3 was never asked"
stopped=$(ss -Hulnp 2>/dev/null | awk '$4 == "127.0.24.3:623"' |
	sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
[ -n "$stopped" ] || fail "no process on 127.0.24.3:623"
kill -STOP "-$stopped" 2>/dev/null || kill -STOP "$stopped"
wait_for "$bg" 60 "power status with a stopped BMC"
kill -CONT "-$stopped" 2>/dev/null || kill -CONT "$stopped" 2>/dev/null || true
stopped=
: >"$T/bmcs/bmc3/delay"
[ "$rc" = 1 ] || { cat "$T/stop.err" >&2; fail "partial failure rc $rc, want 1"; }
has stop.err "f3: BMC 127.0.24.3:623: session timeout"
python3 - "$T/stop.out" <<'PY' || fail "the other BMCs did not all answer"
import json, sys
r = {x["host"]: x for x in json.load(open(sys.argv[1]))}
assert sorted(r) == ["f1", "f2", "f3", "f4"], r
for h in ("f1", "f2", "f4"):
    assert r[h]["ok"] and r[h]["state"] == "off", r[h]
assert not r["f3"]["ok"] and r["f3"]["state"] is None, r["f3"]
PY
run stopshow show f3
has stopshow.out "BMC unreachable"
run okshow show f4
has okshow.out "power:    off (seen "
ok

# --- 2. an SNMP agent killed in the middle of a walk -----------------
# One agent, three captures: "full" (the SG350X-24P), "other" (the
# Catalyst 2960-X) and "slow", the 2960-X again with every ifDescr row
# 20 ms late, so a walk of it lasts seconds. The switch's community (its
# credential) picks the capture; the agent logs every request.
mkdir -p "$T/agent/data"
cp "$FIX/ciscosb_sg350x-24p.snmprec" "$T/agent/data/full.snmprec"
cp "$FIX/ios_2960x.snmprec" "$T/agent/data/other.snmprec"
sed -e 's/^\(1\.3\.6\.1\.2\.1\.2\.2\.1\.2\.[0-9]*\)|4|\(.*\)$/\1|4:delay|value=\2,wait=20/' \
	"$FIX/ios_2960x.snmprec" >"$T/agent/data/slow.snmprec"
grep -q ':delay|' "$T/agent/data/slow.snmprec" || fail "no rows to slow down"
SNMP_ADDR=127.0.24.10
PORT=$(snmp_free_port)
SNMP_LOG=1 snmp_start "$T/agent" "$PORT" full
community() {
	printf 'admin: {username: admin, password: password}\n' >"$T/credentials.yaml"
	printf 'sw: {community: %s}\n' "$1" >>"$T/credentials.yaml"
}
cat >"$T/switch.yaml" <<END
switches:
  - {name: sw, model: generic-switch, address: $SNMP_ADDR, port: $PORT, snmp: {version: 2c, credential: sw, timeout: 3, retries: 0}}
END
"$LAB" import "$T/switch.yaml" >/dev/null 2>&1 || fail "import the switch"
# everything discovery stores, without the times it was seen at
dump() {
	sqlite3 "$LAB_DB" <<'END'
SELECT 'sys', name, sys_descr, sys_name, sys_object_id, uptime,
	discovered_at IS NOT NULL FROM switches ORDER BY name;
SELECT 'port', switch_id, ifindex, name, alias, oper_status, admin_status,
	speed_mbps, duplex, type, speed_suspect FROM switch_ports
	ORDER BY switch_id, ifindex;
SELECT 'fdb', switch_id, mac, vlan, ifindex FROM switch_fdb
	ORDER BY switch_id, mac, vlan, ifindex;
SELECT 'vlan', * FROM switch_vlans ORDER BY switch_id, vlan_id;
SELECT 'lag', * FROM switch_lags ORDER BY switch_id, ifindex;
SELECT 'nbr', switch_id, ifindex, protocol, remote_device, remote_port,
	platform, address FROM switch_neighbors
	ORDER BY switch_id, ifindex, protocol, remote_device, remote_port;
SELECT 'finding', switch_id, severity, kind, subject, message
	FROM switch_findings ORDER BY switch_id, kind, subject, message;
SELECT 'link', host_id, nic, mac, switch_id, port, ifindex, source
	FROM nic_links ORDER BY host_id, nic;
END
}
answers() {
	tail -n "+$((mark + 1))" "$T/agent/requests.log" |
	    grep -c "Response var-binds" || true
}
# how many answers a whole walk of the 2960-X takes
community other
mark=$(wc -l <"$T/agent/requests.log")
run dB switch discover sw
[ "$(rc dB)" = 0 ] || { cat "$T/dB.err" >&2; fail "discovery of the 2960-X"; }
whole=$(answers)
[ "$whole" -gt 4 ] || fail "a walk of $whole answers"
# the state to keep: a discovery of the SG350X
community full
run d0 switch discover sw
[ "$(rc d0)" = 0 ] || { cat "$T/d0.err" >&2; fail "discovery rc $(rc d0)"; }
dump >"$T/before.dump"
[ "$(grep -c '^port|' "$T/before.dump")" -gt 100 ] || fail "nothing discovered"
# the slow walk: the agent is killed once half of its answers are out
community slow
mark=$(wc -l <"$T/agent/requests.log")
"$LAB" switch discover sw >"$T/cut.out" 2>"$T/cut.err" &
bg=$!
half() { [ "$(answers)" -ge $((whole / 2)) ]; }
poll 60 half || fail "the slow walk never got half way"
kill -KILL "$(cat "$T/agent/snmpsimd.pid")"
walked=$(answers)
wait_for "$bg" 60 "a discovery whose agent died"
[ "$rc" = 1 ] || { cat "$T/cut.err" >&2; fail "cut walk rc $rc, want 1"; }
has cut.err "sw: switch $SNMP_ADDR:$PORT: "
[ "$walked" -lt "$whole" ] || fail "the walk was over ($walked of $whole answers)"
dump >"$T/after.dump"
cmp -s "$T/before.dump" "$T/after.dump" || {
	diff "$T/before.dump" "$T/after.dump" | head -20 >&2
	fail "a walk cut after $walked of $whole answers changed the stored discovery"
}
integrity "cut walk"
echo "faults.sh: agent killed after $walked of $whole answers: nothing stored"
ok

# --- 3. lab killed during an import ----------------------------------
# two whole inventories of 600 hosts that differ in every host; the
# reference exports of each, then imports killed at random points
python3 "$SRC/tools/gen-inventory.py" "$T/inv0" --hosts 600 --switches 24 \
    --files 4 --variant 0
python3 "$SRC/tools/gen-inventory.py" "$T/inv1" --hosts 600 --switches 24 \
    --files 4 --variant 1
rm -f "$LAB_DB" "$LAB_DB-wal" "$LAB_DB-shm"
"$LAB" import "$T/inv1" >/dev/null 2>&1 || fail "import inventory 1"
"$LAB" export >"$T/export1.yaml" || fail "export 1"
rm -f "$LAB_DB" "$LAB_DB-wal" "$LAB_DB-shm"
"$LAB" import "$T/inv0" >/dev/null 2>&1 || fail "import inventory 0"
"$LAB" export >"$T/export0.yaml" || fail "export 0"
cmp -s "$T/export0.yaml" "$T/export1.yaml" && fail "the two inventories export alike"
s=$(now_ms)
"$LAB" import "$T/inv1" >/dev/null 2>&1 || fail "timed import"
"$LAB" import "$T/inv0" >/dev/null 2>&1 || fail "import back"
full=$(($(now_ms) - s))
cur=0
# which of the two the database holds now
holds() {
	"$LAB" export >"$T/export.yaml" 2>"$T/export.err" ||
	    fail "$1: export after the kill: $(cat "$T/export.err")"
	if cmp -s "$T/export.yaml" "$T/export0.yaml"; then
		echo 0
	elif cmp -s "$T/export.yaml" "$T/export1.yaml"; then
		echo 1
	else
		diff "$T/export0.yaml" "$T/export.yaml" | head -10 >&2
		fail "$1: the database holds neither the old nor the new inventory"
	fi
}
# the WAL grew (the transaction is being written), or lab is gone: as
# the last connection it checkpoints and removes the WAL when it closes
wal_grew() {
	[ "$(stat -c %s "$LAB_DB-wal" 2>/dev/null || echo 0)" -gt "$wal0" ] ||
	    ! _bmc_alive "$bg"
}
round=1
kept=0 changed=0
while [ $round -le 6 ]; do
	next=$((1 - cur))
	wal0=$(stat -c %s "$LAB_DB-wal" 2>/dev/null || echo 0)
	"$LAB" import "$T/inv$next" >/dev/null 2>&1 &
	bg=$!
	if [ $((round % 2)) = 0 ]; then
		# as the transaction reaches the write-ahead log
		poll 60 wal_grew || true
	else
		sleep_ms "$(rand_ms "$round" "$full")"
	fi
	kill -KILL "$bg" 2>/dev/null || true
	wait "$bg" 2>/dev/null || true
	bg=
	integrity "import killed, round $round"
	was=$cur
	cur=$(holds "import killed, round $round")
	if [ "$cur" = "$was" ]; then kept=$((kept + 1)); else changed=$((changed + 1)); fi
	round=$((round + 1))
done
echo "faults.sh: import killed 6 times: $kept left the old inventory, $changed the new"
ok

# --- 4. lab killed during a discovery ---------------------------------
# the switch discovered from two captures in turn; the stored discovery
# must always be the whole of one of them
rm -f "$T/agent/snmpsimd.pid"	# killed in 2.
SNMP_LOG=0 snmp_start "$T/agent" "$PORT" full
rm -f "$LAB_DB" "$LAB_DB-wal" "$LAB_DB-shm"
"$LAB" import "$T/switch.yaml" >/dev/null 2>&1 || fail "import the switch again"
community other
run dB switch discover sw
[ "$(rc dB)" = 0 ] || { cat "$T/dB.err" >&2; fail "discovery of the other capture"; }
dump >"$T/disc1.dump"
community full
s=$(now_ms)
run dA switch discover sw
full=$(($(now_ms) - s))
[ "$(rc dA)" = 0 ] || { cat "$T/dA.err" >&2; fail "discovery of the full capture"; }
dump >"$T/disc0.dump"
cmp -s "$T/disc0.dump" "$T/disc1.dump" && fail "the two captures discover alike"
cur=0
round=1
kept=0 changed=0
while [ $round -le 6 ]; do
	next=$((1 - cur))
	if [ $next = 0 ]; then community full; else community other; fi
	wal0=$(stat -c %s "$LAB_DB-wal" 2>/dev/null || echo 0)
	"$LAB" switch discover sw >/dev/null 2>&1 &
	bg=$!
	if [ $((round % 2)) = 0 ]; then
		poll 60 wal_grew || true
	else
		sleep_ms "$(rand_ms "$((round + 100))" "$full")"
	fi
	kill -KILL "$bg" 2>/dev/null || true
	wait "$bg" 2>/dev/null || true
	bg=
	integrity "discovery killed, round $round"
	dump >"$T/disc.dump"
	was=$cur
	if cmp -s "$T/disc.dump" "$T/disc0.dump"; then
		cur=0
	elif cmp -s "$T/disc.dump" "$T/disc1.dump"; then
		cur=1
	else
		diff "$T/disc$was.dump" "$T/disc.dump" | head -10 >&2
		fail "discovery killed, round $round: neither capture's discovery"
	fi
	if [ "$cur" = "$was" ]; then kept=$((kept + 1)); else changed=$((changed + 1)); fi
	round=$((round + 1))
done
echo "faults.sh: discovery killed 6 times: $kept left the old, $changed the new"
ok

echo "faults.sh: $n groups of checks passed"
