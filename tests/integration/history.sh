#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# History you can see (issue 17), against real ipmi_sim BMCs on
# 127.0.82.0/24: power events read back in order, sensor readings
# recorded and read back (a failed host stores nothing), the HTML
# report's sparklines, prev/next links between report pages in one
# folder, report --collect recording sensors, and SEL entries kept once
# each: sh history.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
bmc_require

T=$(mktemp -d /tmp/lab-history.XXXXXX)
harness_trap 'bmc_stop "$T"; rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
BMC_PASSWORD="Hy-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-q7"
export BMC_PASSWORD
NAME=history.sh
. "$SRC/tests/integration/check.sh"
py() { python3 - "$@"; }

BMC_NET=127.0.82
bmc_start "$T" 1
cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "$BMC_PASSWORD"}
END
chmod 600 "$T/credentials.yaml"
cat >"$T/lab.yaml" <<END
hosts:
  - {name: h1, model: generic-server, bmc: {type: ipmi, address: 127.0.82.1,
     credential: admin, workarounds: [opensesspriv]}}
  - {name: dead, model: generic-server, bmc: {type: ipmi,
     address: 127.0.82.99, credential: admin}}
  - {name: quiet, model: generic-server}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

# (1) power on, then off: history --power lists both, newest first, with
# the state each left and the command that recorded it
run on power on h1
run off power off h1
[ "$(rc on)$(rc off)" = 00 ] || fail "power on/off: $(rc on) $(rc off)"
run hp history h1 --power
[ "$(rc hp)" = 0 ] || fail "history --power: exit $(rc hp): $(cat "$T/hp.err")"
has hp.out '^TIME *ACTION *STATE *RESULT *SOURCE'
[ "$(sed -n 2p "$T/hp.out" | awk '{print $2, $3, $4, $5, $6}')" = \
    "off off ok power off" ] || fail "newest event: $(sed -n 2p "$T/hp.out")"
[ "$(sed -n 3p "$T/hp.out" | awk '{print $2, $3, $4, $5, $6}')" = \
    "on on ok power on" ] || fail "older event: $(sed -n 3p "$T/hp.out")"
[ "$(wc -l <"$T/hp.out")" = 3 ] || fail "history --power: not 2 events"
run hpj history h1 --power --json
py "$T/hpj.out" <<'END' || fail "history --power --json"
import json, re, sys
v = json.load(open(sys.argv[1]))
assert [(e["action"], e["state"], e["ok"], e["error"], e["source"])
        for e in v] == [("off", "off", True, None, "power off"),
                        ("on", "on", True, None, "power on")], v
for e in v:
    assert e["host"] == "h1" and set(e) >= {"host", "time", "action",
        "state", "ok", "error"}, e
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", e["time"]), e
END
# --since a window after both events: none; a bad --since is exit 2
run hps history h1 --power --since 2099-01-01
[ "$(rc hps)" = 0 ] || fail "--since 2099: exit $(rc hps)"
[ "$(wc -l <"$T/hps.out")" -le 1 ] || fail "--since 2099: $(cat "$T/hps.out")"
run hpbad history h1 --power --since soon
[ "$(rc hpbad)" = 2 ] || fail "--since soon: exit $(rc hpbad)"
has hpbad.err "not 'soon'"
run nohost history nosuch --power
[ "$(rc nohost)" = 2 ] || fail "history nosuch --power: exit $(rc nohost)"
ok

# (2) sensors --record twice (45, then 55 degrees); the dead BMC fails
# and stores nothing, not a zero
bmc_sensor_set "$T" 1 temp 45
sleep 1.2	# ipmi_sim polls the sensor file once a second
run s1 sensors h1 dead --record --json --timeout 2
bmc_sensor_set "$T" 1 temp 55
sleep 1.2
run s2 sensors h1 dead --record --json --timeout 2
[ "$(rc s1)$(rc s2)" = 11 ] || fail "sensors --record: exit $(rc s1) $(rc s2)"
run hs history h1 --sensors --json
[ "$(rc hs)" = 0 ] || fail "history --sensors: exit $(rc hs): $(cat "$T/hs.err")"
py "$T/s1.out" "$T/s2.out" "$T/hs.out" <<'END' || fail "history --sensors --json"
import json, sys
s1, s2, hs = (json.load(open(f)) for f in sys.argv[1:])
h1 = [{x["host"]: x for x in run}["h1"] for run in (s1, s2)]
r1 = {s["name"]: s for s in h1[0]["sensors"]}
r2 = {s["name"]: s for s in h1[1]["sensors"]}
assert h1[1]["ok"] and r2, s2
got = {h["sensor"]: h for h in hs}
assert set(got) == set(r2), (set(got), set(r2))
for name, s in r2.items():
    h = got[name]
    assert h["count"] == 2, h
    assert h["value"] == s["value"], (h, s)	# what lab sensors printed
    assert h["type"] == s["type"] and h["unit"] == s["unit"], (h, s)
    vals = [v for v in (r1[name]["value"], s["value"]) if v is not None]
    assert h["min"] == (min(vals) if vals else None), (h, vals)
    assert h["max"] == (max(vals) if vals else None), (h, vals)
t = got["MB Temp"]
assert (t["min"], t["max"], t["value"]) == (45.0, 55.0, 55.0), t
END
run hd history dead --sensors --json
[ "$(rc hd)" = 0 ] || fail "history dead --sensors: exit $(rc hd)"
[ "$(tr -d ' \n' <"$T/hd.out")" = "[]" ] ||
	fail "the dead BMC stored readings: $(cat "$T/hd.out")"
run ht history h1 --sensor 'MB Temp'
has ht.out '^TIME *VALUE *STATE *RUN'
[ "$(sed -n '2p;3p' "$T/ht.out" | awk '{print $2}' | tr '\n' ' ')" = \
    "55.00 45.00 " ] || fail "--sensor series: $(cat "$T/ht.out")"
run htab history h1 --sensors
has htab.out '^MB Temp *55.00 degrees C *45.00 *55.00 *2 '
ok

# (3) the HTML report of that database: a power sparkline per host with
# events (2 states of h1: a step of 3 points; dead: 2 unknowns), and the
# temperature's line of 2 points
mkdir "$T/pages"
run html report --format html --out "$T/pages/report-20261201.html"
[ "$(rc html)" = 0 ] || fail "report html: exit $(rc html): $(cat "$T/html.err")"
py "$T/pages/report-20261201.html" <<'END' || fail "sparklines"
import re, sys
page = open(sys.argv[1]).read()
cards = dict(re.findall(r'<div class="card" id="host-\d+"><h3>([^<]*)</h3>'
                        r'(.*?)(?=<div class="card"|</section>)', page, re.S))
def sparks(name, kind):
    return re.findall(r'<svg class="spark ' + kind + r'"[^>]*data-points='
                      r'"(\d+)"[^>]*><title>[^<]*</title>\n<polyline '
                      r'[^>]* points="([^"]*)"/>\n</svg>', cards[name])
def pairs(p): return len(p.split())
(n, p), = sparks("h1", "step")
assert (n, pairs(p)) == ("2", 3), (n, p)
(n, p), = sparks("dead", "step")
assert (n, pairs(p)) == ("2", 3), (n, p)
assert sparks("quiet", "step") == [] and sparks("quiet", "line") == []
lines = sparks("h1", "line")
assert len(lines) >= 1, cards["h1"]
assert all((n, pairs(p)) == ("2", 2) for n, p in lines), lines
assert "<script" not in page
END
run rj report --format json
py "$T/rj.out" <<'END' || fail "report JSON series"
import json, sys
h = {x["name"]: x for x in json.load(open(sys.argv[1]))["hosts"]}
assert [p["state"] for p in h["h1"]["power_history"]] == ["on", "off"], h["h1"]
t = {s["sensor"]: s for s in h["h1"]["temperatures"]}
assert [p["value"] for p in t["MB Temp"]["points"]] == [45.0, 55.0], t
assert h["quiet"]["power_history"] == [] and h["quiet"]["temperatures"] == []
END
ok

# (4) three pages in one folder link prev/next; a file that is not lab's
# (even named between them) is neither linked nor touched
printf '<html><body>not lab%s</body></html>\n' \
    '<!--lab-next--><!--/lab-next-->' >"$T/pages/report-20261202a.html"
sum=$(sha256sum <"$T/pages/report-20261202a.html")
run p2 report --format html --out "$T/pages/report-20261202.html"
run p3 report --format html --out "$T/pages/report-20261203.html"
[ "$(rc p2)$(rc p3)" = 00 ] || fail "pages: exit $(rc p2) $(rc p3)"
links() { grep -o '<a rel="[a-z]*" href="[^"]*"' "$T/pages/$1" |
	sed 's/<a rel="\(.*\)" href="\(.*\)"/\1 \2/' | tr '\n' ' '; }
[ "$(links report-20261201.html)" = "next ./report-20261202.html " ] ||
	fail "first page: $(links report-20261201.html)"
[ "$(links report-20261202.html)" = \
    "prev ./report-20261201.html next ./report-20261203.html " ] ||
	fail "middle page: $(links report-20261202.html)"
[ "$(links report-20261203.html)" = "prev ./report-20261202.html " ] ||
	fail "last page: $(links report-20261203.html)"
[ "$(sha256sum <"$T/pages/report-20261202a.html")" = "$sum" ] ||
	fail "a page that is not lab's was modified"
ok

# (5) report --collect records the sensors too, under its own name
run col report --collect --timeout 2 --format json
[ "$(rc col)" = 0 ] || fail "report --collect: exit $(rc col): $(cat "$T/col.err")"
run hs2 history h1 --sensors --json
py "$T/hs2.out" <<'END' || fail "--collect did not record the sensors"
import json, sys
t = {h["sensor"]: h for h in json.load(open(sys.argv[1]))}["MB Temp"]
assert t["count"] == 3 and t["value"] == 55.0, t
END
run hp2 history h1 --power --json
has hp2.out '"source": "report --collect"'
ok

# (6) sel --record twice: each entry kept once, as lab sel printed it
bmc_sensor_set "$T" 1 temp 95	# past the critical threshold: an event
sleep 2.2
run sel1 sel h1 dead --record --json --timeout 2
run sel2 sel h1 --record --json
[ "$(rc sel1)$(rc sel2)" = 10 ] || fail "sel --record: exit $(rc sel1) $(rc sel2)"
run hsel history h1 --sel --json
[ "$(rc hsel)" = 0 ] || fail "history --sel: exit $(rc hsel): $(cat "$T/hsel.err")"
py "$T/sel2.out" "$T/hsel.out" <<'END' || fail "history --sel --json"
import json, sys
sel, kept = (json.load(open(f)) for f in sys.argv[1:])
e = {x["host"]: x for x in sel}["h1"]["entries"]
assert e, "the BMC logged no event: nothing to keep"
key = lambda x: (x["id"], x["time"], x["sensor"], x["event"])
assert sorted(map(key, kept)) == sorted(map(key, e)), (kept, e)
END
run hseld history dead --sel --json
[ "$(tr -d ' \n' <"$T/hseld.out")" = "[]" ] || fail "dead BMC kept SEL entries"
ok

echo "$NAME: $n groups passed"
