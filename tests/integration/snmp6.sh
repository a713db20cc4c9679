#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab switch discover of a switch at an IPv6 address: snmpsimd on ::1 in a
# network namespace of this test's own (unshare -n; nothing else is
# reachable there), serving the SG350-10 capture.
# sh snmp6.sh LAB SRCDIR FIXTURES
set -eu
LAB=$1
SRC=$2
FIX=$3
NAME=snmp6.sh
if [ -z "${LAB_SNMP6_NETNS:-}" ]; then
	if ! unshare -n true 2>/dev/null; then
		echo "$NAME: cannot make a network namespace (unshare -n; root?)" >&2
		[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
		exit 77
	fi
	exec env LAB_SNMP6_NETNS=1 unshare -n sh "$0" "$@"
fi
ip link set lo up
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/snmp.sh"
snmp_require
T=$(mktemp -d /tmp/lab-snmp6.XXXXXX)
chmod 755 "$T"
harness_trap 'snmp_stop "$T/a"; [ -n "${KEEP:-}" ] || rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
. "$SRC/tests/integration/check.sh"

# ::1 needs a moment after lo comes up (duplicate address detection is off
# on loopback, but the route may lag): wait until it can be bound
i=0
until python3 -c 'import socket; s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); s.bind(("::1", 0))' 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "no ::1 in the namespace"
	sleep 0.05
done

mkdir -p "$T/a/data"
cp "$FIX/ciscosb_sg350-10.snmprec" "$T/a/data/"
PORT=$(SNMP_ADDR=::1 snmp_free_port)
SNMP_ADDR=::1 snmp_start "$T/a" "$PORT" ciscosb_sg350-10
printf 'sg350: {community: ciscosb_sg350-10}\n' >"$T/credentials.yaml"
chmod 600 "$T/credentials.yaml"
cat >"$T/lab.yaml" <<END
switches:
  - {name: sg6, model: generic-switch, address: "::1", port: $PORT,
     snmp: {version: 2c, credential: sg350, timeout: 2, retries: 1}}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

run d switch discover sg6 --json
[ "$(rc d)" = 0 ] || { cat "$T/d.err" >&2; fail "discover rc $(rc d)"; }
python3 - "$T/d.out" <<'PY' || fail "discovery over IPv6 read nothing"
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d if x.get("name") == "sg6"][0]
assert len(s["ports"]) > 10, len(s["ports"])
assert [p["alias"] for p in s["ports"] if p["ifindex"] == 1] == ["Device A"]
PY
run p switch ports sg6
[ "$(rc p)" = 0 ] || fail "ports rc $(rc p)"
has p.out "Device A"
ok
# a wrong community times out naming the peer as [::1]:PORT
printf 'sg350: {community: wrong}\n' >"$T/credentials.yaml"
run w switch discover sg6
[ "$(rc w)" != 0 ] || fail "a wrong community succeeded"
has w.err "\[::1\]:$PORT"
ok
echo "$NAME: $n groups passed"
