#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab switch discover/ports/sync against snmpsimd serving the captures of
# real switches in shared/fixtures/snmp: sh switch.sh LAB SRCDIR FIXTURES
set -eu
LAB=$1
SRC=$2
FIX=$3
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/snmp.sh"
snmp_require
[ -f "$FIX/ciscosb_sg350x-24p.snmprec" ] || {
	echo "switch.sh: no captures in $FIX" >&2
	exit 1
}

T=$(mktemp -d /tmp/lab-switch.XXXXXX)
chmod 755 "$T"	# snmpsimd runs as nobody and reads its data below
harness_trap 'snmp_stop "$T/a"; snmp_stop "$T/v3"; snmp_stop "$T/slow"
	[ -n "${KEEP:-}" ] || rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
NAME=switch.sh
. "$SRC/tests/integration/check.sh"
# json FILE EXPRESSION: prints the value; d is the document and S maps a
# switch's name to its object when d is a list of switches
json() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
S = {x['name']: x for x in d if isinstance(x, dict) and 'ports' in x} if isinstance(d, list) else {}
print($2)" "$T/$1"
}

# The agent: the three captures, and a copy of the SG350X whose ifAlias
# rows take SETs (snmpsim's writecache variation) for lab switch sync.
mkdir -p "$T/a/data"
cp "$FIX/ciscosb_sg350x-24p.snmprec" "$FIX/ciscosb_sg350-10.snmprec" \
	"$FIX/ios_2960x.snmprec" "$T/a/data/"
sed -e 's/^\(1\.3\.6\.1\.2\.1\.31\.1\.1\.1\.18\.[0-9]*\)|4|\(.*\)$/\1|4:writecache|value=\2/' \
	"$FIX/ciscosb_sg350x-24p.snmprec" >"$T/a/data/sg350xw.snmprec"
grep -q 'writecache' "$T/a/data/sg350xw.snmprec" || fail "no ifAlias rows retagged"
PORT=$(snmp_free_port)
snmp_start "$T/a" "$PORT" ciscosb_sg350-10

cat >"$T/credentials.yaml" <<END
sg350x: {community: ciscosb_sg350x-24p}
sg350: {community: ciscosb_sg350-10}
c2960: {community: ios_2960x}
writable: {community: sg350xw}
wrong: {community: not-a-community}
END
chmod 600 "$T/credentials.yaml"
sw() {
	echo "  - {name: $1, model: generic-switch, address: 127.0.0.1," \
	    "port: $PORT, snmp: {version: 2c, credential: $2, timeout: 1," \
	    "retries: 0}}"
}
cat >"$T/lab.yaml" <<END
hosts:
  # a NIC the SG350X's MAC table has alone on gi1/0/22
  - {name: pc22, model: generic-server, nics: [{name: eth0, mac: "00:0C:15:03:B0:B7"}]}
  # an access point on the 2960's Gi1/0/5, announced over CDP: still a host
  - {name: ap5, model: generic-server, nics: [{name: eth0, mac: "64:f6:9d:b1:db:0c"}]}
  # a MAC behind the 2960's port-channel: an uplink, never a host link
  - {name: behind, model: generic-server, nics: [{name: eth0, mac: "04:62:73:20:de:14"}]}
switches:
$(sw sg350x sg350x)
$(sw sg350 sg350)
$(sw c2960 c2960)
$(sw sgw writable)
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

# discovery against each capture, checked against what LibreNMS decoded
run d1 switch discover sg350x sg350 c2960 --json
[ "$(rc d1)" = 0 ] || { cat "$T/d1.err" >&2; fail "discover rc $(rc d1)"; }
[ "$(json d1.out "len(S['sg350x']['ports'])")" = 233 ] || fail "sg350x ports"
[ "$(json d1.out "[p['name'] for p in S['sg350x']['ports'] if p['ifindex'] == 22][0]")" = gi1/0/22 ] ||
	fail "sg350x ifName"
[ "$(json d1.out "len(S['sg350x']['fdb'])")" = 282 ] || fail "sg350x FDB"
[ "$(json d1.out "len(S['sg350x']['vlans'])")" = 12 ] || fail "sg350x VLANs"
json d1.out "[v['name'] for v in S['sg350x']['vlans']]" | grep -q "'Management'" ||
	fail "sg350x VLAN names"
[ "$(json d1.out "sorted(n['protocol'] for n in S['sg350x']['neighbors'])")" = \
	"['cdp', 'cdp', 'cdp', 'lldp', 'lldp', 'lldp', 'lldp', 'lldp']" ] ||
	fail "sg350x neighbours"
json d1.out "[n['platform'] for n in S['sg350x']['neighbors']]" | grep -q "SG300-10PP" ||
	fail "CDP platform"
# SG350-10: aliases, and ifSpeed 1000 on gigabit ports flagged, not fixed
[ "$(json d1.out "[p['alias'] for p in S['sg350']['ports'] if p['ifindex'] == 1][0]")" = "Device A" ] ||
	fail "sg350 alias"
[ "$(json d1.out "[p['speed_suspect'] for p in S['sg350']['ports'] if p['ifindex'] == 1][0]")" = True ] ||
	fail "ifSpeed 1000 not flagged"
[ "$(json d1.out "len(S['sg350']['fdb'])")" = 0 ] || fail "sg350 has no bridge tables"
json d1.out "[f['kind'] for f in S['sg350']['findings']]" | grep -q suspect-speed ||
	fail "no suspect-speed finding"
# 2960: bridge port != ifIndex, mapped through dot1dBasePortIfIndex
[ "$(json d1.out "[e['port'] for e in S['c2960']['fdb'] if e['mac'] == '64:f6:9d:b1:db:0c'][0]")" = 10105 ] ||
	fail "2960 bridge port not mapped to ifIndex"
ok

# links: NIC to port; a port-channel never gives a host link
[ "$(json d1.out "[(l['host'], l['port']) for l in S['sg350x']['links']]")" = "[('pc22', 'gi1/0/22')]" ] ||
	fail "pc22 link"
[ "$(json d1.out "[(l['host'], l['port']) for l in S['c2960']['links']]")" = "[('ap5', 'Gi1/0/5')]" ] ||
	fail "2960 links"
json d1.out "S['sg350x']['findings']" | grep -q "unknown-mac" || fail "unknown MAC finding"
run ports switch ports sg350x
has ports.out "gi1/0/22 .*pc22 eth0"
run portsj switch ports c2960 --json
[ "$(json portsj.out "[p['host'] for p in d if p['name'] == 'Gi1/0/5'][0]")" = ap5 ] ||
	fail "ports --json host"
run show show pc22
has show.out "eth0 .*00:0c:15:03:b0:b7 *on sg350x gi1/0/22"
ok

# the switch's facts (ENTITY-MIB, sysDescr): the captures' own rows, in
# discover's JSON and stored for lab show
E="S['sg350x']['facts']['entities']"
[ "$(json d1.out "S['sg350x']['facts']['version']")" = 2.5.9.13 ] || fail "sg350x version"
[ "$(json d1.out "[(e['class'], e['serial'], e['hardware_rev'], e['firmware_rev'], e['software_rev']) for e in $E if e['index'] == 67109120]")" = \
	"[('chassis', 'DNI232304PG', 'V04', '3.5.7.13', '2.5.9.13')]" ] || fail "sg350x chassis facts"
[ "$(json d1.out "S['c2960']['facts']['version']")" = "15.0(2a)EX5" ] || fail "2960 version from sysDescr"
[ "$(json d1.out "[e['serial'] for e in S['c2960']['facts']['entities'] if e['class'] == 'chassis']")" = \
	"['FCW1929B68S', 'FCW1931A06Z', 'FCW1929B6BP']" ] || fail "2960 stack serials"
[ "$(json d1.out "S['sg350']['facts']")" = None ] || fail "sg350-10 has no ENTITY-MIB"
[ "$(json d1.out "[S[x]['facts_note'] for x in S]")" = "[None, None, None]" ] || fail "facts not stored"
run showsw show sg350x --json
[ "$(rc showsw)" = 0 ] || fail "show sg350x rc $(rc showsw)"
[ "$(json showsw.out "[(e['serial'], e['software_rev']) for e in d['facts']['entities'] if e['class'] == 'chassis']")" = \
	"[('DNI232304PG', '2.5.9.13')]" ] || fail "show --json facts"
[ "$(json showsw.out "d['facts']['version']")" = 2.5.9.13 ] || fail "show --json version"
run showc show c2960
has showc.out "chassis  2001 2 (WS-C2960X-24PS-L), serial FCW1931A06Z, hardware V02, firmware 15.0(2a)EX5, software 15.0(2a)EX5"
has showc.out "version  15.0(2a)EX5"
ok

# a known issue (known_issues: of an imported file) of the SG350X's
# version is a finding at discover and in lab show; another version is not
ki() {
	cat "$T/lab.yaml"
	printf 'known_issues:\n  - match: {component: switch, product: "SG350X-*", %s: "%s"}\n' "$1" "$2"
	printf '    severity: warning\n    message: "test issue, %s %s"\n    source: "switch.sh"\n' "$1" "$2"
}
ki below 2.5.9.14 >"$T/ki.yaml"
"$LAB" import "$T/ki.yaml" >/dev/null 2>&1 || fail "import known issues"
run ki1 switch discover sg350x --json
[ "$(rc ki1)" = 0 ] || fail "discover with known issues rc $(rc ki1)"
[ "$(json ki1.out "[(f['severity'], f['kind']) for f in d[0]['findings'] if f['kind'] == 'known-issue']")" = \
	"[('warning', 'known-issue')]" ] || fail "no known-issue finding at discover"
run ki1t switch discover sg350x
has ki1t.out "warning  sg350x SG350X-24P Stack Unit 1: .*test issue, below 2.5.9.14"
run ki1s show sg350x --json
[ "$(json ki1s.out "[f['kind'] for f in d['findings']]")" = "['known-issue']" ] || fail "show: no known-issue finding"
ki equal 2.5.9.12 >"$T/ki.yaml"
"$LAB" import --prune --yes "$T/ki.yaml" >/dev/null 2>"$T/ki2.err" || { cat "$T/ki2.err" >&2; fail "import known issues 2"; }
run ki2 switch discover sg350x --json
[ "$(json ki2.out "[f['kind'] for f in d[0]['findings'] if f['kind'] == 'known-issue']")" = "[]" ] ||
	fail "a known issue of another version matched"
run ki2s show sg350x --json
[ "$(json ki2s.out "d['findings']")" = "[]" ] || fail "show: the old finding stayed"
"$LAB" import --prune --yes "$T/lab.yaml" >/dev/null 2>&1 || fail "import without known issues"
ok

# a NIC that moves is a finding: pc22's MAC now on the 2960's Gi1/0/3
sed 's/00:0C:15:03:B0:B7/64:f6:9d:b1:e4:4c/' "$T/lab.yaml" >"$T/moved.yaml"
"$LAB" import "$T/moved.yaml" >/dev/null 2>&1 || fail "import moved"
run d2 switch discover c2960 --json
json d2.out "d[0]['findings']" | grep -q "nic-moved" || fail "no nic-moved finding"
json d2.out "[f['message'] for f in d[0]['findings'] if f['kind'] == 'nic-moved'][0]" |
	grep -q "moved from sg350x gi1/0/22 to c2960 Gi1/0/3" || fail "moved message"
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import back"
ok

# sync: writes "host nic" descriptions by SNMP SET where they differ
run d3 switch discover sgw
[ "$(rc d3)" = 0 ] || fail "discover sgw"
alias22() {
	snmpget -v2c -c sg350xw -On "127.0.0.1:$PORT" 1.3.6.1.2.1.31.1.1.1.18.22
}
alias22 >"$T/alias-before" || fail "snmpget ifAlias.22"
grep -q '"pc22 eth0"' "$T/alias-before" && fail "ifAlias.22 set before sync"
run sy0 switch sync sgw --dry-run
[ "$(rc sy0)" = 0 ] || fail "sync --dry-run rc $(rc sy0)"
has sy0.out "gi1/0/22: '' -> 'pc22 eth0' (dry run)"
alias22 | cmp -s - "$T/alias-before" || fail "sync --dry-run wrote to the switch"
# the safety rule: without --yes and without a terminal, the plan and a
# refusal naming --yes (exit 2), and the switch's cache unchanged
run syno switch sync sgw
[ "$(rc syno)" = 2 ] || fail "sync without --yes rc $(rc syno)"
has syno.out "gi1/0/22: '' -> 'pc22 eth0'$"
has syno.err "lab: switch sync: this writes to the switch; run again with --yes (or --dry-run to see the plan)"
alias22 | cmp -s - "$T/alias-before" || fail "sync without --yes wrote to the switch"
run sy1 switch sync sgw --yes
[ "$(rc sy1)" = 0 ] || { cat "$T/sy1.err" >&2; fail "sync rc $(rc sy1)"; }
snmpget -v2c -c sg350xw -On "127.0.0.1:$PORT" 1.3.6.1.2.1.31.1.1.1.18.22 |
	grep -q '"pc22 eth0"' || fail "the SET did not reach the agent"
run d4 switch discover sgw --json
[ "$(json d4.out "[p['alias'] for p in d[0]['ports'] if p['ifindex'] == 22][0]")" = "pc22 eth0" ] ||
	fail "alias not read back"
run sy2 switch sync sgw
[ "$(rc sy2)" = 0 ] || fail "sync with nothing to write rc $(rc sy2)"
has sy2.out "already matches"
run d5 switch discover sg350x
run synop switch sync sg350x --yes
[ "$(rc synop)" = 1 ] || fail "a SET on a read-only agent rc $(rc synop)"
has synop.err "sg350x gi1/0/22: switch 127.0.0.1:$PORT: set: "
ok

# a switch that does not answer: an error, nothing stored, the last kept
"$LAB" switch ports sg350x --json >"$T/before.json"
sed 's/credential: sg350x,/credential: wrong,/' "$T/lab.yaml" >"$T/wrong.yaml"
"$LAB" import "$T/wrong.yaml" >/dev/null 2>&1 || fail "import wrong"
run dead switch discover sg350x
[ "$(rc dead)" = 1 ] || fail "wrong community rc $(rc dead)"
has dead.err "sg350x: switch 127.0.0.1:$PORT: .*no answer"
"$LAB" switch ports sg350x --json >"$T/after.json"
cmp -s "$T/before.json" "$T/after.json" || fail "a failed discovery changed the stored ports"
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import again"
ok

# a walk that stops half way stores nothing from that walk: an agent whose
# every integer answer is slow, stopped in the middle of the walk
mkdir -p "$T/slow/data"
sed -e 's/^\([0-9.]*\)|2|\(.*\)$/\1|2:delay|value=\2,wait=20/' \
	"$FIX/ciscosb_sg350-10.snmprec" >"$T/slow/data/slow.snmprec"
SPORT=$(snmp_free_port)
[ "$SPORT" != "$PORT" ] || SPORT=$((PORT + 1))
snmp_start "$T/slow" "$SPORT" slow
printf 'slow: {community: slow}\n' >>"$T/credentials.yaml"
cat >"$T/slow.yaml" <<END
switches:
  - {name: slowsw, model: generic-switch, address: 127.0.0.1, port: $SPORT, snmp: {version: 2c, credential: slow, timeout: 2, retries: 0}}
END
"$LAB" import "$T/slow.yaml" >/dev/null 2>&1 || fail "import slow"
"$LAB" switch discover slowsw >"$T/half.out" 2>"$T/half.err" &
pid=$!
sleep 1
snmp_stop "$T/slow"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 1 ] || fail "a walk cut half way rc $rc"
run halfports switch ports slowsw
has halfports.err "never discovered"
[ "$(rc halfports)" = 1 ] || fail "ports of a switch never discovered rc $(rc halfports)"
ok

# SNMPv3 authPriv (SHA/AES), and a wrong key
mkdir -p "$T/v3/data"
cp "$FIX/ciscosb_sg350-10.snmprec" "$T/v3/data/"
VPORT=$(snmp_free_port)
[ "$VPORT" != "$PORT" ] || VPORT=$((PORT + 2))
SNMP_READY_ARGS="-v3 -u lab -l authPriv -a SHA -A authkey123 -x AES -X privkey123 -n ciscosb_sg350-10" \
	snmp_start "$T/v3" "$VPORT" - --v3-user=lab --v3-auth-key=authkey123 \
	--v3-auth-proto=SHA --v3-priv-key=privkey123 --v3-priv-proto=AES
cat >>"$T/credentials.yaml" <<END
v3: {username: lab, auth_protocol: sha, auth_password: authkey123, priv_protocol: aes, priv_password: privkey123}
v3bad: {username: lab, auth_protocol: sha, auth_password: wrongkey99, priv_protocol: aes, priv_password: privkey123}
END
cat >"$T/v3.yaml" <<END
switches:
  - {name: v3sw, model: generic-switch, address: 127.0.0.1, port: $VPORT, snmp: {version: 3, credential: v3, context: ciscosb_sg350-10, timeout: 1, retries: 0}}
  - {name: v3bad, model: generic-switch, address: 127.0.0.1, port: $VPORT, snmp: {version: 3, credential: v3bad, context: ciscosb_sg350-10, timeout: 1, retries: 0}}
END
"$LAB" import "$T/v3.yaml" >/dev/null 2>&1 || fail "import v3"
run v3 switch discover v3sw --json
[ "$(rc v3)" = 0 ] || { cat "$T/v3.err" >&2; fail "v3 rc $(rc v3)"; }
[ "$(json v3.out "len(d[0]['ports'])")" = 23 ] || fail "v3 ports"
run v3bad switch discover v3bad
[ "$(rc v3bad)" = 1 ] || fail "wrong v3 key rc $(rc v3bad)"
has v3bad.err "v3bad: switch 127.0.0.1:$VPORT"
ok

# no community or key in any output, the database or the audit log
"$LAB" log --json >"$T/log.out" 2>&1
testdb_dump "$LAB_DB" "$T/lab.db" || fail "pg_dump"
for f in "$T"/*.out "$T"/*.err "$T/lab.db"; do
	for secret in authkey123 privkey123 not-a-community; do
		if grep -a -q -- "$secret" "$f"; then
			fail "'$secret' is in $f"
		fi
	done
done
ok

echo "switch.sh: $n groups of checks passed"
