#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The switch as the switch reports it: snmpsimd on 127.0.74.1 serving the
# SG350X-24P capture to a switch the YAML declares an SG200-26. The report's
# panel has one jack per ethernet port discovered (24 gigabit, 4 10G), the
# declared model is a model-mismatch finding, and 'switch ports' hides the
# notPresent rows unless --all. sh switch-panel.sh LAB SRCDIR FIXTURES
set -eu
LAB=$1
SRC=$2
FIX=$3
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/snmp.sh"
snmp_require
[ -f "$FIX/ciscosb_sg350x-24p.snmprec" ] || {
	echo "switch-panel.sh: no captures in $FIX" >&2
	exit 1
}
T=$(mktemp -d /tmp/lab-panel.XXXXXX)
chmod 755 "$T"	# snmpsimd runs as nobody and reads its data below
harness_trap 'snmp_stop "$T/a"; [ -n "${KEEP:-}" ] || rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
export SNMP_ADDR=127.0.74.1
NAME=switch-panel.sh
. "$SRC/tests/integration/check.sh"
json() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
S = {x['name']: x for x in d if isinstance(x, dict) and 'ports' in x} if isinstance(d, list) else {}
print($2)" "$T/$1"
}

# the SG350X capture, with gi1/0/22's PVID 5 (every PVID there is 1) and
# te1/0/3, te1/0/4 in Po1 (it has no LAG membership: IEEE8023-LAG-MIB
# dot3adAggPortAttachedAggID rows added where their OIDs sort); and an
# SG200-26 made of the SG350-10 capture (its sysDescr only changed): the
# model the YAML says, for the agreeing case
mkdir -p "$T/a/data"
sed -e 's/^\(1\.3\.6\.1\.2\.1\.17\.7\.1\.4\.5\.1\.1\.22\)|66|1$/\1|66|5/' \
	-e '/^1\.3\.6\.1\.2\.1\.1\.1\.0|/i\
1.2.840.10006.300.43.1.2.1.1.13.51|2|1000\
1.2.840.10006.300.43.1.2.1.1.13.52|2|1000' \
	"$FIX/ciscosb_sg350x-24p.snmprec" >"$T/a/data/ciscosb_sg350x-24p.snmprec"
[ "$(grep -c '^1\.2\.840\.10006\.' "$T/a/data/ciscosb_sg350x-24p.snmprec")" = 2 ] ||
	fail "LAG rows not added"
grep -q '^1\.3\.6\.1\.2\.1\.17\.7\.1\.4\.5\.1\.1\.22|66|5$' \
	"$T/a/data/ciscosb_sg350x-24p.snmprec" || fail "PVID not rewritten"
sed 's/^1\.3\.6\.1\.2\.1\.1\.1\.0|4|.*/1.3.6.1.2.1.1.1.0|4|SG200-26 26-Port Gigabit Smart Switch/' \
	"$FIX/ciscosb_sg350-10.snmprec" >"$T/a/data/sg200.snmprec"
grep -q '|SG200-26 26-Port' "$T/a/data/sg200.snmprec" || fail "sysDescr not rewritten"
PORT=$(snmp_free_port)
snmp_start "$T/a" "$PORT" ciscosb_sg350x-24p
cat >"$T/credentials.yaml" <<END
sg350x: {community: ciscosb_sg350x-24p}
sg200: {community: sg200}
END
chmod 600 "$T/credentials.yaml"
sw() {
	echo "  - {name: $1, model: $2, address: $SNMP_ADDR," \
	    "port: $PORT, snmp: {version: 2c, credential: $3, timeout: 1," \
	    "retries: 0}}"
}
cat >"$T/lab.yaml" <<END
hosts:
  - {name: microserver-with-a-long-name, model: generic-server, nics: [{name: eth0, mac: "00:0C:15:03:B0:B7"}]}
switches:
$(sw declared cisco-sg200-26 sg350x)
$(sw plain generic-switch sg350x)
$(sw real200 cisco-sg200-26 sg200)
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

# the model declared against the model reported
run d switch discover declared plain real200 --json
[ "$(rc d)" = 0 ] || { cat "$T/d.err" >&2; fail "discover rc $(rc d)"; }
[ "$(json d.out "[f['severity'] for f in S['declared']['findings'] if f['kind'] == 'model-mismatch']")" = "['warning']" ] ||
	fail "no model-mismatch warning for an SG350X-24P declared an SG200-26"
json d.out "[f['message'] for f in S['declared']['findings'] if f['kind'] == 'model-mismatch'][0]" >"$T/msg"
has msg "says model Cisco SG200-26 (cisco-sg200-26) but the switch reports 'SG350X-24P 24-Port Gigabit PoE Stackable Managed Switch', sysObjectID 1.3.6.1.4.1.9.6.1.94.24.5"
[ "$(json d.out "[f for f in S['plain']['findings'] if f['kind'] == 'model-mismatch']")" = "[]" ] ||
	fail "a model-mismatch for generic-switch"
[ "$(json d.out "[f for f in S['real200']['findings'] if f['kind'] == 'model-mismatch']")" = "[]" ] ||
	fail "a model-mismatch for an SG200-26 that says it is one"
run dt switch discover declared
has dt.out "^  warning  declared: the inventory .*says model Cisco SG200-26"
run pt switch ports declared
has pt.out "^warning  declared: the inventory .*says model Cisco SG200-26"
ok

# the report: the panel has one jack per ethernet port discovered
json d.out "len([p for p in S['declared']['ports'] if p['type'] in (6, 62, 69, 117) and p['oper_status'] != 'notPresent'])" >"$T/want"
[ "$(cat "$T/want")" = 28 ] || fail "the capture has $(cat "$T/want") ethernet ports present, not 28"
run rep report --format html
[ "$(rc rep)" = 0 ] || { cat "$T/rep.err" >&2; fail "report rc $(rc rep)"; }
awk -v d="$T" '
	/^<svg / && /aria-label="front panel of declared"/ { on = 1 }
	on { print > (d "/declared.svg") }
	on && /<\/svg>$/ { on = 0 }
' "$T/rep.out"
[ -s "$T/declared.svg" ] || fail "no panel of switch declared in the report"
python3 - "$T/declared.svg" "$(cat "$T/want")" <<'PY' || fail "the panel of declared"
import sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
svg = ET.parse(sys.argv[1]).getroot()
jacks = [g for g in svg.iter(ns + 'g')
         if any(r.get('rx') == '3' for r in g.findall(ns + 'rect'))]
titles = [g.find(ns + 'title').text.split(':')[0] for g in jacks]
want = int(sys.argv[2])
ok = True
if len(jacks) != want:
    print('%d jacks, %d ethernet ports discovered' % (len(jacks), want)); ok = False
te = [t for t in titles if t.startswith('te1/0/')]
if te != ['te1/0/1', 'te1/0/2', 'te1/0/3', 'te1/0/4']:
    print('10G uplinks drawn:', te); ok = False
# the 10G uplinks apart, right of every gigabit jack
x = {t: int(g.find(ns + 'rect').get('x')) for t, g in zip(titles, jacks)}
if min(x[t] for t in te) <= max(x[t] for t in titles if t.startswith('gi')):
    print('10G uplinks not apart on the right'); ok = False
# each jack: its PVID, and the LAG badge of a member
def jack(name):
    return jacks[titles.index(name)]
def texts(g):
    return [(t.get('class'), t.text) for t in g.findall(ns + 'text')]
if ('pl', 'v5') not in texts(jack('gi1/0/22')) or ('pl', 'v1') not in texts(jack('gi1/0/1')):
    print('PVIDs not on the jacks:', texts(jack('gi1/0/22')), texts(jack('gi1/0/1'))); ok = False
for t in titles:
    lag = ('lb', 'Po1') in texts(jack(t))
    if lag != (t in ('te1/0/3', 'te1/0/4')):
        print('LAG badge on %s: %s' % (t, lag)); ok = False
text = ''.join(svg.itertext())
if 'microserver-with-a-long-name eth0' not in text:
    print('host name not in full'); ok = False
if 'declared Cisco SG200-26' not in text:
    print('declared model not in the title'); ok = False
sys.exit(0 if ok else 1)
PY
has rep.out "says model Cisco SG200-26 (cisco-sg200-26) but the switch reports"
ok

# switch ports: notPresent rows hidden (189 of the 233), shown with --all
run p switch ports declared
[ "$(rc p)" = 0 ] || fail "ports rc $(rc p)"
if grep -q notPresent "$T/p.out"; then fail "notPresent rows shown by default"; fi
has p.out "^189 of 233 ports not present (hidden; --all shows them)$"
has p.out "gi1/0/22 .*microserver-with-a-long-name eth0"
has p.out "te1/0/1 "
run pa switch ports declared --all
[ "$(grep -c ' notPresent ' "$T/pa.out")" = 189 ] || fail "--all does not show the 189 notPresent rows"
if grep -q 'not present (hidden' "$T/pa.out"; then fail "--all still says rows are hidden"; fi
run pc switch ports declared --csv
[ "$(wc -l <"$T/pc.out")" = $((1 + 233 - 189)) ] || fail "csv rows: $(wc -l <"$T/pc.out")"
run pj switch ports declared --json
[ "$(json pj.out "len(d)")" = 233 ] || fail "--json lacks rows"
ok

echo "$NAME: $n groups of checks passed"
