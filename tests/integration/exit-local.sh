#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A local resource running out is this machine's trouble, never the BMC's:
# lab power status under an fd limit (prlimit --nofile) just big enough to
# start but too small for an IPMI session exits 3, says which resource ran
# out for which BMC, and records nothing against the BMCs (no power event,
# no "BMC unreachable"). Two ipmi_sim BMCs on 127.0.66.1-2. The same for
# SNMP (lab switch discover, nobody on 127.0.66.10-12) and SSH (lab media
# status, silent-peer.py on 127.0.66.20:22): exit 3 when some target
# failed locally, even when others failed on their own.
# sh exit-local.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
bmc_require
for p in sqlite3 prlimit timeout; do
	command -v "$p" >/dev/null 2>&1 && continue
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && { echo "missing $p"; exit 1; }
	echo "missing $p: skipping"
	exit 77
done

T=$(mktemp -d /tmp/lab-exit-local.XXXXXX)
harness_trap 'bmc_stop "$T"; [ -s "$T/silent.pid" ] &&
    kill "$(cat "$T/silent.pid")" && wait; rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
NAME=exit-local.sh
. "$SRC/tests/integration/check.sh"

# shellcheck disable=SC2034 # read by bmc.sh
BMC_NET=127.0.66
bmc_start "$T" 2
cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "password"}
END
chmod 600 "$T/credentials.yaml"
bmc() {
	echo "{type: ipmi, address: 127.0.66.$1, credential: admin," \
	    "workarounds: [opensesspriv]}"
}
cat >"$T/lab.yaml" <<END
hosts:
  - {name: b1, model: generic-server, bmc: $(bmc 1)}
  - {name: b2, model: generic-server, bmc: $(bmc 2)}
  - {name: nobmc, model: hp-ml115-g5}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"
q() { sqlite3 "$LAB_DB" "$1"; }

# both BMCs answer: two power events, both reachable
run good power status b1 b2 nobmc
[ "$(rc good)" = 0 ] || fail "status rc $(rc good)"
events=$(q "SELECT count(*) FROM power_events")
[ "$events" = 2 ] || fail "$events power events after a good status"
state=$(q "SELECT group_concat(state || ',' || seen_at || ',' ||
    checked_at || ',' || bmc_reachable || ',' || coalesce(error, '-'), ' ')
    FROM power_state")
ok

# a wall deadline, and an address-space limit unless ASan (which reserves
# terabytes) is in the binary
AS=
grep -q __asan_init "$LAB" 2>/dev/null || AS=--as=$((512 * 1024 * 1024))
# The smallest fd limit that gets lab past its database and credentials
# to the sessions, measured: then one fd is left, and a session needs two
# (a socket and /dev/urandom) at once. One host at a time (--fanout 1),
# so what is free does not depend on the other sessions.
N=
for k in 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
	rc=0
	timeout 30 prlimit --nofile="$k" -- "$LAB" power status b1 b2 nobmc \
	    --fanout 1 >"$T/probe.out" 2>"$T/probe.err" || rc=$?
	[ "$rc" = 124 ] && fail "nofile $k: still running after 30 s"
	if grep -q "BMC 127.0.66" "$T/probe.err" || [ "$rc" = 0 ]; then
		N=$k
		break
	fi
done
[ -n "$N" ] || fail "no fd limit from 4 to 24 got lab to its sessions"
before=$(q "SELECT count(*) FROM power_events")

rc=0
# shellcheck disable=SC2086 # $AS is one word or none
timeout 30 prlimit --nofile="$N" $AS -- "$LAB" power status b1 b2 nobmc \
    --fanout 1 >"$T/low.out" 2>"$T/low.err" || rc=$?
[ "$rc" = 124 ] && fail "nofile $N: still running after 30 s"
if [ "$rc" != 3 ]; then
	cat "$T/low.err" >&2
	fail "nofile $N: exit $rc, want 3 (a local error)"
fi
for h in 1 2; do
	has low.err "lab: power status: b$h: cannot open .* for BMC 127.0.66.$h:623: too many open files"
done
grep -q "BMC busy\|unreachable\|internal error\|timeout" "$T/low.err" &&
    fail "nofile $N: the BMCs are blamed: $(cat "$T/low.err")"
has low.out "nobmc"
ok

# nothing recorded against the BMCs: no event, the state as it was
after=$(q "SELECT count(*) FROM power_events")
[ "$after" = "$before" ] ||
    fail "nofile $N: $((after - before)) power events recorded: $(q \
    "SELECT ok, coalesce(error, '-') FROM power_events WHERE id > $before")"
now=$(q "SELECT group_concat(state || ',' || seen_at || ',' ||
    checked_at || ',' || bmc_reachable || ',' || coalesce(error, '-'), ' ')
    FROM power_state")
[ "$now" = "$state" ] || fail "power state changed: '$state' -> '$now'"
run show show b1
has show.out "power:    off (seen "
grep -q "unreachable" "$T/show.out" && fail "show b1 says unreachable"
ok

# the same BMCs with room for the sessions: answered and recorded
run again power status b1 b2
[ "$(rc again)" = 0 ] || fail "status after rc $(rc again)"
[ "$(q "SELECT count(*) FROM power_events")" = $((after + 2)) ] ||
    fail "the status after was not recorded"
ok
# SNMP: three switches that never answer (nobody on 127.0.66.10-12), so
# the first walk holds its socket for its 2 s timeout; at the smallest fd
# limit that gets past the credentials the others find no fd: exit 3, each
# says so, and nothing is stored (a failed walk keeps the last one)
cat >"$T/sw.yaml" <<END
switches:
END
for k in 10 11 12; do
	echo "  - {name: sw$k, model: generic-switch, address: 127.0.66.$k," \
	    "port: 16161, snmp: {version: 2c, credential: sw, timeout: 2," \
	    "retries: 0}}" >>"$T/sw.yaml"
done
echo "sw: {community: public}" >>"$T/credentials.yaml"
"$LAB" import "$T/lab.yaml" "$T/sw.yaml" >/dev/null 2>&1 || fail "import sw"
N=
for k in 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
	rc=0
	timeout 30 prlimit --nofile="$k" -- "$LAB" switch discover \
	    >"$T/probe.out" 2>"$T/probe.err" || rc=$?
	[ "$rc" = 124 ] && fail "discover, nofile $k: still running after 30 s"
	grep -q "switch 127.0.66" "$T/probe.err" && { N=$k; break; }
done
[ -n "$N" ] || fail "no fd limit from 4 to 24 got discover to its walks"
rc=0
# shellcheck disable=SC2086 # $AS is one word or none
timeout 30 prlimit --nofile="$N" $AS -- "$LAB" switch discover \
    >"$T/swlow.out" 2>"$T/swlow.err" || rc=$?
if [ "$rc" != 3 ]; then
	cat "$T/swlow.err" >&2
	fail "discover, nofile $N: exit $rc, want 3 (a local error)"
fi
has swlow.err "lab: switch discover: sw1[0-2]: cannot open a socket for switch 127.0.66.1[0-2]:16161: too many open files"
grep -q "cannot open an SNMP session" "$T/swlow.err" &&
    fail "discover, nofile $N: the switch is blamed: $(cat "$T/swlow.err")"
[ "$(q "SELECT count(*) FROM switch_ports")" = 0 ] ||
    fail "discover, nofile $N: ports stored"
ok

# SSH (lab media over an iLO 2's SSH): three hosts on a peer that accepts
# and never sends a banner; the first connection holds its fd, the others
# find none (for their socket or, first, for known_hosts)
mkdir "$T/silent"
python3 "$SRC/tests/integration/silent-peer.py" 127.0.66.20 22 \
    "$T/silent/ready" >"$T/silent/log" 2>&1 &
echo $! >"$T/silent.pid"
harness_track silent-peer $!
i=0
while ! [ -s "$T/silent/ready" ]; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "silent-peer.py did not start: $(cat "$T/silent/log")"
	sleep 0.1
done
cat >"$T/ilo.yaml" <<END
hosts:
END
for k in 1 2 3; do
	echo "  - {name: m$k, model: hp-dl320-g5p, bmc: {type: ilo2," \
	    "address: 127.0.66.20, credential: ilo}}" >>"$T/ilo.yaml"
done
echo "ilo: {username: root, password: \"password\"}" >>"$T/credentials.yaml"
"$LAB" import "$T/lab.yaml" "$T/sw.yaml" "$T/ilo.yaml" >/dev/null 2>&1 ||
    fail "import ilo"
N=
for k in 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
	rc=0
	timeout 30 prlimit --nofile="$k" -- "$LAB" media status m1 m2 m3 \
	    --timeout 3 >"$T/probe.out" 2>"$T/probe.err" || rc=$?
	[ "$rc" = 124 ] && fail "media, nofile $k: still running after 30 s"
	grep -q "127.0.66.20" "$T/probe.err" && { N=$k; break; }
done
[ -n "$N" ] || fail "no fd limit from 4 to 24 got media to its sessions"
rc=0
# shellcheck disable=SC2086 # $AS is one word or none
timeout 30 prlimit --nofile="$N" $AS -- "$LAB" media status m1 m2 m3 \
    --timeout 3 >"$T/ilolow.out" 2>"$T/ilolow.err" || rc=$?
if [ "$rc" != 3 ]; then
	cat "$T/ilolow.err" >&2
	fail "media, nofile $N: exit $rc, want 3 (a local error)"
fi
has ilolow.err "lab: media status: m[1-3]: .*127.0.66.20.*: too many open files"
ok

echo "$NAME: ok (IPMI, SNMP and SSH at the smallest fd limits that reach them: exit 3, nothing recorded)"
