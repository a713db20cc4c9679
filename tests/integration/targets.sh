#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Target words of issue 17 (steps, & ! ^ inside a word, @group ranges, an
# exclusion that wins) driving lab power against real ipmi_sim BMCs on
# 127.0.71.0/24: what is sent is what the words mean, and a bad word
# sends nothing. sh targets.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
bmc_require

T=$(mktemp -d /tmp/lab-targets.XXXXXX)
harness_trap 'bmc_stop "$T"; rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
BMC_PASSWORD="Lx-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-t9"
export BMC_PASSWORD

NAME=targets.sh
. "$SRC/tests/integration/check.sh"

BMC_NET=127.0.71
bmc_start "$T" 4
cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "$BMC_PASSWORD"}
END
chmod 600 "$T/credentials.yaml"
host() {
	echo "  - {name: n$1, model: generic-server, groups: [$2]," \
	    "bmc: {type: ipmi, address: 127.0.71.$1, credential: admin," \
	    "workarounds: [opensesspriv]}}"
}
{
	echo "hosts:"
	host 1 "rack1, chassis1"
	host 2 "rack1, gpu, chassis1"
	host 3 "gpu, chassis2"
	host 4 "chassis3"
} >"$T/lab.yaml"
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"
# the chassis power of n1..n4 as one word: 1010 is n1 and n3 on
powers() {
	for k in 1 2 3 4; do
		printf '%s' "$(bmc_power "$T" "$k")"
	done
}
[ "$(powers)" = 0000 ] || fail "BMCs did not start off: $(powers)"

# a step: n[1-4/2] is n1 and n3
run step power on 'n[1-4/2]'
[ "$(rc step)" = 0 ] || fail "step rc $(rc step): $(cat "$T/step.err")"
[ "$(powers)" = 1010 ] || fail "n[1-4/2] powered $(powers), want 1010"
ok

# an intersection of groups: @rack1&@gpu is n2 alone
run inter power on '@rack1&@gpu'
[ "$(rc inter)" = 0 ] || fail "intersection rc $(rc inter)"
[ "$(powers)" = 1110 ] || fail "@rack1&@gpu powered $(powers), want 1110"
ok

# the exclusion wins over the later n3: power off leaves n3 on
run excl power off 'n[1-4]' '!n3' n3
[ "$(rc excl)" = 0 ] || fail "exclusion rc $(rc excl): $(cat "$T/excl.err")"
[ "$(powers)" = 0010 ] || fail "'!n3 n3' powered $(powers), want 0010"
ok

# a group range and a symmetric difference: @chassis[1-3]^@gpu is n1 n4
run grp power on '@chassis[1-3]^@gpu'
[ "$(rc grp)" = 0 ] || fail "group range rc $(rc grp): $(cat "$T/grp.err")"
[ "$(powers)" = 1011 ] || fail "@chassis[1-3]^@gpu powered $(powers)"
ok

# bad words are refused before anything is sent, naming the word
run bang power off 'n1!!n3'
[ "$(rc bang)" = 2 ] || fail "'n1!!n3' rc $(rc bang)"
has bang.err "target 'n1!!n3', character 4: '!' only starts an item"
run unk power off 'n[1-4]&@gpus'
[ "$(rc unk)" = 2 ] || fail "unknown group rc $(rc unk)"
has unk.err "target 'n\[1-4\]&@gpus', character 8: unknown group '@gpus'"
run only power off '!n1'
[ "$(rc only)" = 2 ] || fail "only an exclusion rc $(rc only)"
has only.err "only exclusions"
[ "$(powers)" = 1011 ] || fail "a refused word changed power: $(powers)"
ok

echo "targets.sh: $n groups of checks passed"
