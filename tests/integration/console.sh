#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab console against ipmi_sim with a serial console behind its SOL, on
# 127.0.21.0/24: sh console.sh LAB SRCDIR
#
# ipmi_sim 2.0.33 quirks this test lives with: it connects to the console
# only every 10 s (bmc.sh waits for it), and the first SOL data packet of
# a session is taken for a repeat of the last session's last one when
# their sequence numbers match, and dropped: a throw-away carriage
# return, typed again until the console answers "login: ", comes first.
set -eu
LAB=$1
SRC=$2
BMC_SRCDIR=$SRC/tests/integration
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
BMC_SOL_PORT=7001
bmc_require

T=$(mktemp -d /tmp/lab-console.XXXXXX)
pid=
harness_trap '[ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null || :
	bmc_stop "$T"; rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
# a password no message would contain by chance: the leak check greps it
BMC_PASSWORD="Lc-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-q7"
export BMC_PASSWORD

NAME=console.sh
. "$SRC/tests/integration/check.sh"
PTY="$SRC/tests/integration/pty-run.py"
# polls FILE (in $T) for REGEX, with a deadline
wait_for() {
	_end=$(($(date +%s) + 30))
	until grep -q -- "$2" "$T/$1" 2>/dev/null; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			echo "--- $1:" >&2
			cat "$T/$1" >&2 2>/dev/null || true
			fail "no '$2' in $1"
		fi
		sleep 0.05
	done
}

# BMC 1 with a console, BMC 2 without SOL
BMC_NET=127.0.21
bmc_start "$T" 1
BMC_SOL_PORT=
bmc_start "$T" 1 2
CONSOLE_IN=$T/bmc1/console/in

cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "$BMC_PASSWORD"}
END
chmod 600 "$T/credentials.yaml"
# ipmi_sim needs these three for libipmiconsole (shared/RIG.md)
wa="workarounds: [opensesspriv, solpayloadsize, solchannelsupport]"
cat >"$T/lab.yaml" <<END
hosts:
  - {name: c1, model: generic-server, bmc: {type: ipmi, address: 127.0.21.1, credential: admin, $wa}}
  - {name: nosol, model: generic-server, bmc: {type: ipmi, address: 127.0.21.2, credential: admin, $wa}}
  - {name: nobmc, model: hp-ml115-g5}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

# typed text reaches the console and its answer comes back; the escapes;
# ~. leaves with 0 and the terminal as it was; --log keeps the output
python3 "$PTY" "$T/s1.tty" \
    expect="connected to BMC 127.0.21.1:623" \
    expect="type ~. at the start of a line to leave" raw \
    retry='\r=login: ' \
    send='hello console\r' expect='HELLO CONSOLE' \
    send='a~b\r' expect='A~B' \
    send='~~tilde\r' expect='~TILDE' \
    send='~?' expect='~B send a break' \
    send='~.' exit=0 restored \
    -- "$LAB" console c1 --log "$T/s1.log" || fail "session 1"
grep -q "hello console" "$CONSOLE_IN" || fail "text did not reach the console"
grep -q "a~b" "$CONSOLE_IN" && grep -q "~tilde" "$CONSOLE_IN" ||
    fail "~ mid-line or ~~ not sent as ~"
grep -q "~\\." "$CONSOLE_IN" && fail "~. reached the console"
grep -q "HELLO CONSOLE" "$T/s1.log" || fail "--log lacks the output"
grep -q "connected to BMC" "$T/s1.log" && fail "--log has lab's own lines"
has s1.tty "lab: console: c1: closed"
ok

# --log appends
python3 "$PTY" "$T/s2.tty" expect="connected to BMC" retry='\r=login: ' \
    send='second\r' expect='SECOND' send='~.' exit=0 restored \
    -- "$LAB" console c1 --log "$T/s1.log" || fail "session 2"
grep -q "HELLO CONSOLE" "$T/s1.log" && grep -q "SECOND" "$T/s1.log" ||
    fail "--log did not append"
ok

# a signal leaves as cleanly as ~. does: exit 0, terminal restored
for sig in TERM INT HUP; do
	python3 "$PTY" "$T/sig-$sig.tty" expect="connected to BMC" raw \
	    signal=$sig exit=0 restored -- "$LAB" console c1 ||
	    fail "SIG$sig"
	has "sig-$sig.tty" "lab: console: c1: closed on"
done
ok

# stdin a pipe: it works, and the end of input keeps the console shown
mkfifo "$T/in"
"$LAB" console c1 <"$T/in" >"$T/pipe.out" 2>"$T/pipe.err" &
pid=$!
exec 3>"$T/in"
wait_for pipe.err "connected to BMC 127.0.21.1:623"
i=0
until grep -q "login: " "$T/pipe.out"; do
	[ $i -lt 5 ] || fail "no login prompt through a pipe"
	printf '\r' >&3
	i=$((i + 1))
	_end=$(($(date +%s) + 3))
	while [ "$(date +%s)" -lt "$_end" ] &&
	    ! grep -q "login: " "$T/pipe.out"; do
		sleep 0.05
	done
done
printf 'through a pipe\r' >&3
wait_for pipe.out "THROUGH A PIPE"
ok

# a second client is refused while the session is active, naming the
# host; --force takes the session over
run busy console c1
[ "$(rc busy)" = 1 ] || fail "busy console rc $(rc busy)"
has busy.err "^lab: console: c1: BMC 127.0.21.1:623: a serial-over-LAN session is already active"
has busy.err "--force"
[ "$(wc -l <"$T/busy.err")" = 1 ] || fail "busy: more than one line"
python3 "$PTY" "$T/force.tty" expect="connected to BMC" \
    retry='\r=login: ' send='forced\r' expect='FORCED' \
    send='~.' exit=0 restored \
    -- "$LAB" console c1 --force || fail "--force"
grep -q "forced" "$CONSOLE_IN" || fail "--force: text did not reach"
# the first client, at the end of its input, is ended by a signal
exec 3>&-
kill -TERM "$pid"
prc=0
wait "$pid" || prc=$?
pid=
[ "$prc" = 0 ] || fail "piped console rc $prc"
has pipe.err "lab: console: c1: closed on"
ok

# no BMC, a BMC without SOL: one clear line each, exit 1
run nobmc console nobmc
[ "$(rc nobmc)" = 1 ] || fail "nobmc rc $(rc nobmc)"
has nobmc.err "^lab: console: nobmc: no BMC recorded"
run nosol console nosol
[ "$(rc nosol)" = 1 ] || fail "nosol rc $(rc nosol)"
has nosol.err "^lab: console: nosol: BMC 127.0.21.2:623: .*offers no serial-over-LAN"
[ "$(cat "$T/nobmc.err" "$T/nosol.err" | wc -l)" = 2 ] ||
    fail "more than one line per error"
ok

# the audit log has every session, its result and how it ended
run log log --json
has log.out '"argv": "lab console --log [^"]*/s1.log c1"'
has log.out '"message": "BMC 127.0.21.1:623: closed with ~."'
has log.out '"message": "BMC 127.0.21.1:623: closed on signal 15"'
has log.out '"argv": "lab console --force c1"'
has log.out '"message": "c1: BMC 127.0.21.1:623: a serial-over-LAN session is already active'
has log.out '"message": "nosol: BMC 127.0.21.2:623: '
[ "$(grep -c '"command": "console"' "$T/log.out")" = 10 ] ||
    fail "not 10 console entries in the audit log"
ok

# the BMC dies under an open console: exit 1, the terminal restored
bmc1=$(ss -Hulnp 2>/dev/null | awk '$4 == "127.0.21.1:623"' |
    sed -n 's/.*pid=\([0-9]*\).*/\1/p')
[ -n "$bmc1" ] || fail "no pid for BMC 1"
python3 "$PTY" "$T/dead.tty" expect="connected to BMC" raw \
    shell="kill -KILL $bmc1" expect="session timeout" exit=1 restored \
    -- "$LAB" console c1 --timeout 2 || fail "dead BMC"
has dead.tty "lab: console: c1: BMC 127.0.21.1:623: session timeout"
ok

# no secret on any output or in the database
testdb_dump "$LAB_DB" "$T/lab.db" || fail "pg_dump"
if grep -rl -- "$BMC_PASSWORD" "$T"/*.out "$T"/*.err "$T"/*.tty \
    "$T/lab.db" "$T/s1.log" 2>/dev/null; then
	fail "the password leaked"
fi
ok

echo "$NAME: $n groups of checks passed"
