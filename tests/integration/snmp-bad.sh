#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab switch discover and report --collect against SNMP agents that never
# end or loop (snmp-bad-agent.py on 127.0.63.1): an endless table, endless
# 1 KB and 60 KB strings, an agent that answers every 0.5 s, a column that
# repeats or steps back. Each bad walk must fail within a wall deadline and
# a memory bound, name the switch and the reason, and leave the good
# discovery made before it in the database.
# sh snmp-bad.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
NAME=snmp-bad.sh
ADDR=127.0.63.1
. "$SRC/tests/integration/harness.sh"
T=$(mktemp -d /tmp/lab-snmp-bad.XXXXXX)
harness_trap 'agent_stop; [ -n "${KEEP:-}" ] || rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
# no config file or setting of the caller's may change the defaults (an
# empty one of ours: LAB_CONFIG naming a missing file is an error)
export LAB_CONFIG="$T/config.yaml"
: >"$LAB_CONFIG"
unset LAB_SWITCH_DEADLINE LAB_TIMEOUT
. "$SRC/tests/integration/check.sh"

# The memory bound: peak RSS (VmHWM) of lab, sampled; without ASan also
# an address-space limit (ASan reserves terabytes of virtual memory, and
# its quarantine and shadow add a few hundred MB to the RSS).
if ldd "$LAB" 2>/dev/null | grep -q libasan; then
	ASAN=1
	MAX_RSS_KB=$((1024 * 1024))
else
	ASAN=0
	MAX_RSS_KB=$((128 * 1024))
	AS_BYTES=$((1024 * 1024 * 1024))
fi

agent_stop() {
	[ -f "$T/agent.pid" ] || return 0
	_ap=$(cat "$T/agent.pid" 2>/dev/null) || _ap=
	case $_ap in ''|*[!0-9]*) return 0 ;; esac
	kill -TERM "$_ap" 2>/dev/null || :
	_i=0
	while kill -0 "$_ap" 2>/dev/null && [ "$_i" -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -KILL "$_ap" 2>/dev/null || :
	rm -f "$T/agent.pid" || :
}

mode() { echo "$1" >"$T/mode"; }
mode good
python3 "$SRC/tests/integration/snmp-bad-agent.py" "$ADDR" 0 "$T" \
	</dev/null >"$T/agent.log" 2>&1 &
harness_track snmp-bad-agent $!
i=0
until [ -s "$T/agent.pid" ]; do
	kill -0 $! 2>/dev/null || { cat "$T/agent.log" >&2; fail "the agent exited"; }
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "the agent is not listening after 10 s"
	sleep 0.1
done
PORT=$(cat "$T/agent.port")

# one switch in the lab, so a NIC missing from its MAC table is a
# nic-not-seen finding: what a truncated walk would feed
cat >"$T/credentials.yaml" <<END
ro: {community: public}
END
chmod 600 "$T/credentials.yaml"
cat >"$T/lab.yaml" <<END
hosts:
  - {name: h1, model: generic-server, nics: [{name: eth0, mac: "02:00:00:00:00:01"}]}
  - {name: h3, model: generic-server, nics: [{name: eth0, mac: "02:00:00:00:00:03"}]}
switches:
  - {name: badsw, model: generic-switch, address: $ADDR, port: $PORT, snmp: {version: 2c, credential: ro, timeout: 1, retries: 0}}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

# bounded NAME SECONDS ARGS...: runs lab like run (check.sh), killing it
# and failing past SECONDS; fails when its peak RSS passes MAX_RSS_KB.
bounded() {
	_bn=$1
	_bs=$2
	shift 2
	if [ "$ASAN" = 1 ]; then
		"$LAB" "$@" >"$T/$_bn.out" 2>"$T/$_bn.err" &
	else
		prlimit --as="$AS_BYTES" -- "$LAB" "$@" >"$T/$_bn.out" \
		    2>"$T/$_bn.err" &
	fi
	_bp=$!
	harness_track lab "$_bp"
	_bstart=$(date +%s)
	_bend=$((_bstart + _bs))
	_bhwm=0
	while [ -r "/proc/$_bp/stat" ] &&
	    [ "$(cut -d' ' -f3 "/proc/$_bp/stat" 2>/dev/null)" != Z ]; do
		_bh=$(awk '/^VmHWM:/ { print $2 }' "/proc/$_bp/status" \
		    2>/dev/null) || _bh=
		[ -z "$_bh" ] || [ "$_bh" -le "$_bhwm" ] || _bhwm=$_bh
		if [ "$(date +%s)" -ge "$_bend" ]; then
			kill -KILL "$_bp" 2>/dev/null || :
			wait "$_bp" 2>/dev/null || :
			fail "$_bn: lab $* still running after ${_bs}s"
		fi
		sleep 0.05
	done
	_brc=0
	wait "$_bp" || _brc=$?
	echo "$_brc" >"$T/$_bn.rc"
	echo "$_bhwm" >"$T/$_bn.hwm"
	echo "$NAME: $_bn: rc $_brc, $(($(date +%s) - _bstart)) s," \
	    "peak RSS ${_bhwm} kB" >&2
	[ "$_bhwm" -le "$MAX_RSS_KB" ] ||
		fail "$_bn: peak RSS ${_bhwm} kB > ${MAX_RSS_KB} kB"
}
# what is stored of badsw: ports, hosts and findings
stored() {
	"$LAB" switch ports badsw >"$T/$1.txt" 2>&1 || fail "switch ports ($1)"
}
# unchanged NAME: the stored discovery is still the good one
unchanged() {
	stored "$1.after"
	cmp -s "$T/good.txt" "$T/$1.after.txt" || {
		diff "$T/good.txt" "$T/$1.after.txt" >&2 || :
		fail "$1: a failed discovery changed what is stored"
	}
	if grep -q "nic-not-seen\|was not in the MAC table" "$T/$1.after.txt"; then
		fail "$1: a NIC-not-seen finding was stored"
	fi
}

# the good discovery, the one every bad run must leave in place
bounded good 30 switch discover badsw
[ "$(rc good)" = 0 ] || { cat "$T/good.err" >&2; fail "good discover rc $(rc good)"; }
stored good
has good.txt "gi1/0/1 .*h1 eth0"
has good.txt "gi1/0/3 .*h3 eth0"
if grep -q "was not in the MAC table" "$T/good.txt"; then
	fail "the good discovery has a NIC-not-seen finding"
fi
ok

# bad NAME MODE SECONDS REGEX ARGS...: a discovery in MODE fails (rc 1)
# within SECONDS naming the switch and REGEX; the good one stays
bad() {
	_name=$1
	_mode=$2
	_secs=$3
	_re=$4
	shift 4
	mode "$_mode"
	bounded "$_name" "$_secs" switch discover badsw "$@"
	mode good
	[ "$(rc "$_name")" = 1 ] || {
		head -c 2000 "$T/$_name.out" >&2
		head -c 2000 "$T/$_name.err" >&2
		fail "$_name: rc $(rc "$_name"), not 1"
	}
	has "$_name.err" "badsw: switch $ADDR:$PORT: .*$_re"
	unchanged "$_name"
	ok
}

# item 6: a column that repeats or steps back is an error, not its end
bad loop loop 30 "walk: OID not increasing: 1\.3\.6\.1\.2\.1\.17\.7\.1\.2\.2\.1\.2\.1\.2\.0\.0\.0\.0\.1 >= 1\.3\.6\.1\.2\.1\.17\.7\.1\.2\.2\.1\.2\.1\.2\.0\.0\.0\.0\.1 "
bad back back 30 "walk: OID not increasing: 1\.3\.6\.1\.2\.1\.17\.7\.1\.2\.2\.1\.2\.1\.2\.0\.0\.0\.0\.2 >= 1\.3\.6\.1\.2\.1\.17\.7\.1\.2\.2\.1\.2\.1\.2\.0\.0\.0\.0\.1 "

# item 5: endless tables stop at the walk's byte budget (16 MiB), before
# the 120 s default deadline; strings are kept only up to what the
# decoders keep (1 KB), so 60 KB strings cost no more memory than 1 KB
bad endless endless 60 "walk: more than 16 MiB of answers"
bad huge1k huge1k 60 "walk: more than 16 MiB of answers"
bad huge60k huge60k 90 "walk: more than 16 MiB of answers"

# item 5: an agent that answers every 0.5 s, each answer within --timeout
# 1, ends at the discovery's deadline: --deadline, then the config key
bad slow slow 30 "discovery took longer than the 3 s deadline (--deadline, config switch_deadline)" \
	--timeout 1 --deadline 3
printf 'switch_deadline: 2\n' >"$T/config.yaml"
bad slowcfg slow 30 "discovery took longer than the 2 s deadline"
: >"$T/config.yaml"

# the nightly report's collect: the same deadline; the switch that ran
# out is a finding of the report, the stored discovery stays
mode slow
bounded report 30 report --collect --timeout 1 --deadline 3
mode good
[ "$(rc report)" = 0 ] || { cat "$T/report.err" >&2; fail "report --collect rc $(rc report)"; }
has report.out "badsw.*discovery took longer than the 3 s deadline"
unchanged report
ok

# a bad --deadline is a usage error
run baddl switch discover badsw --deadline 0
[ "$(rc baddl)" = 2 ] || fail "--deadline 0 rc $(rc baddl)"
has baddl.err "deadline takes seconds from 1 to 86400, not '0'"
ok

echo "$NAME: $n groups of checks passed"
