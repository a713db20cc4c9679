#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One JSON shape per concept and exit codes that agree (issue 17 item 6):
# every --json command, run against real ipmi_sim BMCs (127.0.83.1-2) and
# snmpsimd serving a capture (127.0.83.50), checked by json-shapes.py;
# a host without a BMC in a group is skipped, named it fails, a dry run
# exits as the run. sh json-shapes.sh LAB SRCDIR FIXTURES
set -eu
LAB=$1
SRC=$2
FIX=$3
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
. "$SRC/tests/integration/snmp.sh"
bmc_require
snmp_require
[ -f "$FIX/ciscosb_sg350x-24p.snmprec" ] || {
	echo "json-shapes.sh: no captures in $FIX" >&2
	exit 1
}

T=$(mktemp -d /tmp/lab-json.XXXXXX)
chmod 755 "$T"	# snmpsimd runs as nobody and reads its data below
harness_trap 'snmp_stop "$T/snmp"; bmc_stop "$T"; rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
BMC_PASSWORD="Lx-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-j6"
export BMC_PASSWORD
NAME=json-shapes.sh
. "$SRC/tests/integration/check.sh"

BMC_NET=127.0.83
bmc_start "$T" 2
mkdir -p "$T/snmp/data"
cp "$FIX/ciscosb_sg350x-24p.snmprec" "$T/snmp/data/"
SNMP_ADDR=127.0.83.50
export SNMP_ADDR
SPORT=$(snmp_free_port)
snmp_start "$T/snmp" "$SPORT" ciscosb_sg350x-24p

cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "$BMC_PASSWORD"}
sw: {community: ciscosb_sg350x-24p}
END
chmod 600 "$T/credentials.yaml"
bmc() {
	echo "{type: ipmi, address: 127.0.83.$1, credential: admin," \
	    "workarounds: [opensesspriv]}"
}
cat >"$T/lab.yaml" <<END
hosts:
  - {name: j1, model: generic-server, groups: [g], bmc: $(bmc 1), nics: [{name: eth0, mac: "00:0C:15:03:B0:B7"}], disks: [{slot: "1", kind: sata, size: 1TB}]}
  - {name: j2, model: generic-server, groups: [g], bmc: $(bmc 2)}
  - {name: nobmc, model: hp-ml115-g5, groups: [g]}
switches:
  - {name: sw1, model: generic-switch, address: 127.0.83.50, port: $SPORT, snmp: {version: 2c, credential: sw, timeout: 1, retries: 0}}
  - {name: sw2, model: generic-switch, address: 127.0.83.51, snmp: {version: 2c, credential: sw, timeout: 1, retries: 0}}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

# a host without a BMC that the group brings in is skipped, not a failure
run on power on @g
[ "$(rc on)" = 0 ] || { cat "$T/on.err" >&2; fail "power on @g rc $(rc on)"; }
has on.out "nobmc .*no BMC recorded"
[ "$(bmc_power "$T" 1)" = 1 ] && [ "$(bmc_power "$T" 2)" = 1 ] ||
    fail "the hosts with BMCs were not powered on"
# named, it fails: exit 1, the others still done
run named power on nobmc j1
[ "$(rc named)" = 1 ] || fail "power on nobmc j1 rc $(rc named)"
has named.err "lab: power on: nobmc: no BMC recorded"
# the same rule for boot, sensors and sel
for v in "boot @g" "sensors @g" "sel @g"; do
	# shellcheck disable=SC2086
	run grp $v
	[ "$(rc grp)" = 0 ] || { cat "$T/grp.err" >&2; fail "$v rc $(rc grp)"; }
	# shellcheck disable=SC2086
	run one $v nobmc
	[ "$(rc one)" = 1 ] || fail "$v nobmc rc $(rc one)"
done
ok

# a dry run exits as the run would, contacting nothing
run dg power off @g --dry-run
[ "$(rc dg)" = 0 ] || fail "power off @g --dry-run rc $(rc dg)"
[ "$(bmc_power "$T" 1)" = 1 ] || fail "a dry run powered j1 off"
run dn power off nobmc --dry-run
[ "$(rc dn)" = 1 ] || fail "power off nobmc --dry-run rc $(rc dn)"
sed 's/^admin:/other:/' "$T/credentials.yaml" >"$T/cred2.yaml"
chmod 600 "$T/cred2.yaml"
run dc power on @g --dry-run --credentials "$T/cred2.yaml"
[ "$(rc dc)" = 1 ] || fail "dry run with the credential missing rc $(rc dc)"
has dc.err "2 of 3 failed: credential 'admin' is not in the credentials file: j\[1-2\]"
grep -q "$BMC_PASSWORD" "$T/dc.out" "$T/dc.err" && fail "a dry run printed the password"
run dm power on @g --dry-run --credentials "$T/none.yaml"
[ "$(rc dm)" = 3 ] || fail "dry run without a credentials file rc $(rc dm)"
ok

# a switch never discovered: every switch read exits 1, naming discover
run p2 switch ports sw2
[ "$(rc p2)" = 1 ] || fail "switch ports of sw2 rc $(rc p2)"
has p2.err "lab switch discover sw2"
run s2 switch sync sw2 --dry-run
[ "$(rc s2)" = 1 ] || fail "switch sync of sw2 rc $(rc s2)"
has s2.err "lab switch discover sw2"
ok

# every --json command, one shape per concept
python3 "$SRC/tests/integration/json-shapes.py" "$LAB" \
    "switch=switch discover sw1 --json" \
    "switch-ports=switch ports sw1 --json" \
    "power=power status @g --json" \
    "power-on=power on @g --json" \
    "power-dry=power cycle j1 j2 --dry-run --json" \
    "boot=boot @g --json" \
    "sensors=sensors @g --json" \
    "sel=sel @g --json" \
    "media=media status @g --json" \
    "ls=ls hosts --json" \
    "ls-disks=ls disks --json" \
    "ls-nics=ls nics --json" \
    "ls-switches=ls switches --json" \
    "ls-groups=ls groups --json" \
    "show=show j1 --json" \
    "show-nobmc=show nobmc --json" \
    "export=export --format json" \
    "import=import --dry-run --json $T/lab.yaml" \
    "log=log --json" \
    "history=history --json" \
    "config=config --json" \
    "report=report --format json" \
    >"$T/shapes.out" 2>"$T/shapes.err" ||
    { cat "$T/shapes.err" "$T/shapes.out" >&2; fail "json-shapes.py"; }
ok
echo "json-shapes.sh: $n groups of checks passed"
