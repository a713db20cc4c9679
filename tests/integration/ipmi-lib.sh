#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ipmi-lib: lib/ipmi/session.c against three real ipmi_sim BMCs, through the
# ipmi-probe driver. Usage: ipmi-lib.sh PROBE SOURCE_ROOT
# Exit 0 all passed, 1 a check failed, 77 ipmi_sim missing (skip).

PROBE=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
bmc_require

T=$(mktemp -d) || exit 1
cleanup()
{
	if [ -s "$T/sink.pid" ]; then
		kill -TERM "$(cat "$T/sink.pid")" 2>/dev/null || :
	fi
	bmc_stop "$T"
	rm -rf "$T"
}
harness_trap cleanup

W=opensesspriv		# ipmi_sim needs it with FreeIPMI (README.md)
A1=$(bmc_addr 1)
A2=$(bmc_addr 2)
A3=$(bmc_addr 3)
DEAD=127.0.1.99		# nothing listens there
SINK=127.0.1.98		# a UDP sink that counts datagrams
failed=0

ok()
{
	echo "ok - $*"
}

not_ok()
{
	echo "not ok - $*"
	sed 's/^/#   stdout: /' "$T/out"
	sed 's/^/#   stderr: /' "$T/err"
	failed=$((failed + 1))
}

now_ms()
{
	echo $(($(date +%s%N) / 1000000))
}

# probe PASSWORD [OPTIONS] ADDRESS USER CIPHER WORKAROUNDS VERB [ARG]
# (port 623); sets rc and ms, output in $T/out and $T/err.
probe()
{
	_pw=$1
	shift
	_opts=
	while :; do
		case $1 in
		-[trlj]) _opts="$_opts $1 $2"; shift 2 ;;
		-[PE]) _opts="$_opts $1"; shift ;;
		*) break ;;
		esac
	done
	_a=$1
	shift
	_t0=$(now_ms)
	# shellcheck disable=SC2086
	LAB_TEST_PASSWORD=$_pw "$PROBE" $_opts "$_a" 623 "$@" \
	    >"$T/out" 2>"$T/err"
	rc=$?
	ms=$(($(now_ms) - _t0))
}

# admin [OPTIONS] ADDRESS VERB [ARG]: as user admin, suite 3, with $W.
admin()
{
	_aopts=
	while :; do
		case $1 in
		-[trlj]) _aopts="$_aopts $1 $2"; shift 2 ;;
		-[PE]) _aopts="$_aopts $1"; shift ;;
		*) break ;;
		esac
	done
	_aa=$1
	shift
	# shellcheck disable=SC2086
	probe password $_aopts "$_aa" admin 3 "$W" "$@"
}

# expect_ok DESC [STDOUT-LINE]: rc 0 and, if given, that exact line.
expect_ok()
{
	if [ "$rc" -ne 0 ]; then
		not_ok "$1 (exit $rc)"
	elif [ $# -ge 2 ] && ! grep -qxF "$2" "$T/out"; then
		not_ok "$1 (no line '$2')"
	else
		ok "$1"
	fi
}

# expect_err DESC CODE TEXT: exit CODE and TEXT in the message.
expect_err()
{
	if [ "$rc" -ne "$2" ]; then
		not_ok "$1 (exit $rc, want $2)"
	elif ! grep -qF "$3" "$T/err"; then
		not_ok "$1 (no '$3' in the message)"
	else
		ok "$1: $(sed 's/^ipmi-probe: //' "$T/err")"
	fi
}

# wait_for DESC SECONDS COMMAND...: polls COMMAND until it succeeds.
wait_for()
{
	_desc=$1
	_end=$(($(date +%s) + $2))
	shift 2
	while ! "$@"; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			not_ok "$_desc (not within the deadline)"
			return 1
		fi
		sleep 0.05
	done
	ok "$_desc"
}

power_is()
{
	[ "$(bmc_power "$T" "$1")" = "$2" ]
}

# Lines of BMC K's helper log after line N contain "set power 0" and
# then "set power 1".
cycled()
{
	tail -n "+$(($2 + 1))" "$T/bmc$1/helper.log" |
	    grep -x -e 'set power 0' -e 'set power 1' | tr '\n' ' ' |
	    grep -q 'set power 0 .*set power 1'
}

sensor_line()
{
	admin "$A3" sensors
	grep -qxF "$1" "$T/out"
}

# ---- start ------------------------------------------------------------
t0=$(now_ms)
if ! bmc_start "$T" 3; then
	echo "not ok - bmc_start"
	exit 1
fi
echo "# 3 BMCs bound in $(($(now_ms) - t0)) ms"

# ---- power -------------------------------------------------------------
for k in 1 2 3; do
	admin "$(bmc_addr "$k")" status
	expect_ok "status of bmc$k is off" "power: off"
done
echo "# one status round trip (process start, session, command): ${ms} ms"

admin "$A1" on
expect_ok "power on bmc1" "ok"
wait_for "bmc1 helper power is 1" 5 power_is 1 1
admin "$A1" status
expect_ok "status of bmc1 is on" "power: on"
admin "$A1" off
expect_ok "power off bmc1" "ok"
wait_for "bmc1 helper power is 0" 5 power_is 1 0
admin "$A1" status
expect_ok "status of bmc1 is off again" "power: off"

admin "$A2" on
expect_ok "power on bmc2" "ok"
wait_for "bmc2 helper power is 1" 5 power_is 2 1
lines=$(wc -l <"$T/bmc2/helper.log")
admin "$A2" cycle
expect_ok "power cycle bmc2" "ok"
wait_for "bmc2 helper went off then on" 10 cycled 2 "$lines"
wait_for "bmc2 helper power is 1 after the cycle" 5 power_is 2 1
admin "$A2" reset
expect_ok "hard reset bmc2" "ok"
wait_for "bmc2 helper saw the reset" 5 grep -qx 'set reset 1' \
    "$T/bmc2/helper.log"
admin "$A2" soft
expect_ok "soft shutdown bmc2" "ok"
wait_for "bmc2 helper power is 0 after soft-off" 5 power_is 2 0

probe oppass "$A3" operator 3 "$W" on
expect_ok "operator account powers bmc3 on" "ok"
wait_for "bmc3 helper power is 1" 5 power_is 3 1
probe oppass "$A3" operator 3 "$W" off
expect_ok "operator account powers bmc3 off" "ok"

admin -j 8 "$A1" status
if [ "$rc" -eq 0 ] && [ "$(grep -c ': power: off$' "$T/out")" -eq 8 ]; then
	ok "8 concurrent sessions in 8 threads to bmc1 (${ms} ms)"
else
	not_ok "8 concurrent sessions in 8 threads to bmc1"
fi

# ipmi_sim 2.0.33 holds at most 63 sessions: 70 open at once must leave
# some refused, each said to be "BMC busy", and the BMC fine afterwards.
# (Sessions only: 63 helper runs at ~35 ms with 250 ms retransmissions
# swamp ipmi_sim into session timeouts, see README.md.)
admin -j 70 "$A3" open
nok=$(grep -c ': session: ok$' "$T/out")
nbusy=$(grep -c ': BMC busy (no free session)$' "$T/err")
if [ "$rc" -eq 1 ] && [ "$nbusy" -ge 1 ] && [ $((nok + nbusy)) -eq 70 ]; then
	ok "70 sessions at once: $nok opened, $nbusy refused as BMC busy"
else
	not_ok "70 sessions at once: $nok opened, $nbusy refused as BMC busy"
fi
admin "$A3" status
expect_ok "bmc3 answers after the crowd left" "power: off"

# ---- boot device -----------------------------------------------------
for dev in pxe cdrom disk bios none; do
	admin "$A2" boot-set "$dev"
	expect_ok "boot-set $dev" "ok"
	admin "$A2" boot-get
	expect_ok "boot-get reads $dev back" "boot: $dev persistent=0 efi=0"
	want=$dev
	[ "$dev" = disk ] && want=default
	if [ "$(bmc_boot "$T" 2)" = "$want" ]; then
		ok "bmc2 helper boot device is $want"
	else
		not_ok "bmc2 helper boot device is $want, not $(bmc_boot "$T" 2)"
	fi
done
# ipmi_sim keeps only the device: the flags read back cleared.
admin -P -E "$A2" boot-set pxe
expect_ok "boot-set pxe persistent efi"
admin "$A2" boot-get
expect_ok "boot-get after persistent+efi (ipmi_sim drops the flags)" \
    "boot: pxe persistent=0 efi=0"

# ---- sensors ---------------------------------------------------------
admin "$A3" sensors
expect_ok "sensors: MB Temp" "MB Temp|temperature|40.00|degrees C|nominal"
expect_ok "sensors: Fan 1" "Fan 1|fan|3000.00|RPM|nominal"
bmc_sensor_set "$T" 3 temp 75
wait_for "MB Temp reads 75, warning" 5 \
    sensor_line "MB Temp|temperature|75.00|degrees C|warning"
bmc_sensor_set "$T" 3 temp 85
wait_for "MB Temp reads 85, critical" 5 \
    sensor_line "MB Temp|temperature|85.00|degrees C|critical"
bmc_sensor_set "$T" 3 fan 8
wait_for "Fan 1 reads 400 RPM, critical" 5 \
    sensor_line "Fan 1|fan|400.00|RPM|critical"

# ---- SEL -------------------------------------------------------------
admin "$A1" sel
expect_ok "SEL of bmc1 is read (empty)" "sel: 0 entries"
admin "$A3" sel
if [ "$rc" -eq 0 ] &&
    grep -qxF '1|0|MB Temp|Upper Non-critical - going high ; Sensor Reading = 75.00 degrees C ; Threshold = 70.00 degrees C' "$T/out" &&
    grep -qxF '2|0|MB Temp|Upper Critical - going high ; Sensor Reading = 85.00 degrees C ; Threshold = 80.00 degrees C' "$T/out" &&
    grep -q '^[0-9]*|0|Fan 1|Lower Critical - going low ; Sensor Reading = 400.00 RPM ; Threshold = 500.00 RPM$' "$T/out"; then
	ok "SEL of bmc3 holds the threshold events"
else
	not_ok "SEL of bmc3 holds the threshold events"
fi

# ---- failures, each with its own message ---------------------------
probe wrongpass-42 "$A1" admin 3 "$W" status
expect_err "wrong password" 1 \
    "BMC $A1:623: authentication failed (wrong user or password): password invalid"
if grep -qF wrongpass-42 "$T/err" "$T/out"; then
	not_ok "the password appears in the output"
else
	ok "the password appears nowhere in the output"
fi
probe password "$A1" nosuchuser 3 "$W" status
expect_err "wrong user" 1 \
    "BMC $A1:623: authentication failed (wrong user or password): username invalid"
# ipmi_sim grants an RMCP+ session any privilege whatever the account's
# limit (README.md), so a user account asks for power control from a
# user-privilege session, and the BMC's completion code 0xd4 says no.
probe userpass -l user "$A1" userpw 3 "$W" status
expect_ok "user account reads status at user privilege" "power: off"
probe userpass -l user "$A1" userpw 3 "$W" on
expect_err "user account asking for operator power control" 1 \
    "BMC $A1:623: chassis control (power on): insufficient privilege for this user"
if [ "$(bmc_power "$T" 1)" = 0 ]; then
	ok "the refused power on changed nothing"
else
	not_ok "the refused power on turned bmc1 on"
fi
probe password "$A1" admin 17 "$W" status
expect_err "cipher suite 17" 1 \
    "BMC $A1:623: cipher suite 17 not supported by the BMC"
probe password "$A1" admin 18 "$W" status
expect_err "cipher suite 18 does not exist" 2 "not an IPMI 2.0 cipher suite"
probe password "$A1" admin 3 - status
expect_err "no opensesspriv against ipmi_sim" 1 \
    "insufficient privilege for this user (or the BMC needs the 'opensesspriv' workaround)"
probe password "$A1" admin 3 "$W,nosuchword" status
expect_err "unknown workaround word" 2 "unknown workaround 'nosuchword'"

probe password -t 1000 "$DEAD" admin 3 "$W" status
expect_err "dead BMC" 1 "BMC $DEAD:623: session timeout"
if [ "$ms" -lt 3000 ]; then
	ok "dead BMC gave up in ${ms} ms with a 1 s timeout"
else
	not_ok "dead BMC took ${ms} ms with a 1 s timeout"
fi

# BMC think time: a helper slower than the timeout is a session timeout,
# and closing that session does not wait a second time.
echo 3 >"$T/bmc1/delay"
probe password -t 1000 "$A1" admin 3 "$W" status
expect_err "BMC slower than the timeout" 1 "BMC $A1:623: get chassis status: session timeout"
if [ "$ms" -lt 3000 ]; then
	ok "slow BMC gave up in ${ms} ms with a 1 s timeout"
else
	not_ok "slow BMC took ${ms} ms with a 1 s timeout"
fi
: >"$T/bmc1/delay"
wait_for "bmc1 answers again once the helper is fast" 10 admin "$A1" status
# 0.3 s of think time: waited for. With 250 ms retransmissions ipmi_sim
# runs the helper again for each copy; with 1 s, once.
echo 0.3 >"$T/bmc1/delay"
for r in 250 1000; do
	before=$(wc -l <"$T/bmc1/helper.log")
	admin -r "$r" "$A1" status
	runs=$(($(wc -l <"$T/bmc1/helper.log") - before))
	if [ "$rc" -eq 0 ] && [ "$ms" -ge 300 ]; then
		ok "0.3 s think time, $r ms retransmission: ${ms} ms," \
		    "$runs helper run(s)"
	else
		not_ok "0.3 s think time, $r ms retransmission (exit $rc," \
		    "${ms} ms)"
	fi
done
if [ "$runs" -eq 1 ] && [ "$ms" -lt 1000 ]; then
	ok "1 s retransmission leaves a 0.3 s BMC alone"
else
	not_ok "1 s retransmission: $runs helper runs, ${ms} ms"
fi
: >"$T/bmc1/delay"

# Cipher suite 0 is refused before any packet: a UDP sink on $SINK
# records every datagram; suite 3 to it proves that it would see one.
if command -v perl >/dev/null 2>&1; then
	perl -MIO::Socket::INET -e '
		my $s = IO::Socket::INET->new(LocalAddr => $ARGV[0],
		    LocalPort => 623, Proto => "udp") or die "bind: $!\n";
		open(my $r, ">", $ARGV[1]) or die; close($r);
		while (1) {
			my $b;
			defined($s->recv($b, 4096)) or next;
			open(my $g, ">>", $ARGV[2]) or die;
			print $g length($b), "\n";
			close($g);
		}' "$SINK" "$T/sink.ready" "$T/sink.got" 2>"$T/sink.err" &
	echo $! >"$T/sink.pid"
	harness_track udp-sink "$!"
	if wait_for "UDP sink on $SINK:623 is up" 10 test -e "$T/sink.ready"
	then
		probe password "$SINK" admin 0 "$W" status
		expect_err "cipher suite 0" 2 \
		    "BMC $SINK:623: cipher suite 0 refused"
		if [ -s "$T/sink.got" ]; then
			not_ok "cipher suite 0 sent a packet"
		else
			ok "cipher suite 0 sent no packet"
		fi
		probe password -t 500 "$SINK" admin 3 "$W" status
		expect_err "the sink does not answer" 1 "session timeout"
		if [ -s "$T/sink.got" ]; then
			ok "the sink saw suite 3's packets"
		else
			not_ok "the sink saw no packet from suite 3"
		fi
	fi
	kill -TERM "$(cat "$T/sink.pid")" 2>/dev/null
	: >"$T/sink.pid"
else
	probe password "$SINK" admin 0 "$W" status
	expect_err "cipher suite 0 (no perl: packets not counted)" 2 \
	    "cipher suite 0 refused"
fi

if [ "$failed" -ne 0 ]; then
	echo "# $failed check(s) failed"
	exit 1
fi
echo "# all checks passed"
exit 0
