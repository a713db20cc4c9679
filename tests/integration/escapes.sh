#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Hostile bytes from peers reach no terminal, no spreadsheet formula and
# no invalid JSON (issue 16, items 9 and 10), on 127.0.65.0/24:
#  - an snmpsimd agent whose capture copy has terminal escapes, a CR and
#    bytes that are not UTF-8 in sysDescr and ifAlias, and ifAlias values
#    a spreadsheet takes for formulas;
#  - an iLO 2 (ilo-clp.py behind sshd) whose image URL holds ESC [2K, a
#    CR and a C1 control;
#  - evil-kex.py, an SSH server whose algorithm names hold the same;
#  - an ipmi_sim BMC whose first sensor's name is M ESC [2K CR 0xe9
#    (bmc.sh's BMC_SDR_NAME);
#  - host roles starting with = + - @ in --csv.
# Every lab run is bounded (timeout 30 s, 1 GiB of address space).
#	sh escapes.sh LAB SRCDIR FIXTURES
set -eu
LAB=$1
SRC=$2
FIX=$3
BMC_SRCDIR=$SRC/tests/integration
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
. "$SRC/tests/integration/snmp.sh"
. "$SRC/tests/integration/sshd.sh"
bmc_require
snmp_require
sshd_require
[ -f "$FIX/ciscosb_sg350-10.snmprec" ] || {
	echo "escapes.sh: no captures in $FIX" >&2
	exit 1
}
PY=$(command -v python3) || { echo "escapes.sh: python3 missing" >&2; exit 1; }

T=$(mktemp -d /tmp/lab-escapes.XXXXXX)
chmod 755 "$T"	# snmpsimd runs as nobody and reads its data below
EVIL_PID=
harness_trap 'stop_sshd; snmp_stop "$T/agent"; bmc_stop "$T/bmc"
	[ -z "$EVIL_PID" ] || kill "$EVIL_PID" 2>/dev/null
	[ -z "$EVIL_PID" ] || wait "$EVIL_PID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$T"'
mkdir -p "$T/home/.ssh" "$T/clp"
export HOME="$T/home" LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
NAME=escapes.sh
. "$SRC/tests/integration/check.sh"

# the bounds of every run: a wall deadline, and an address-space limit
# (not under ASan, which reserves terabytes of it up front)
LIMIT="prlimit --as=1073741824"
if nm "$LAB" 2>/dev/null | grep -q __asan_init; then
	LIMIT=
fi
# brun NAME WANT ARGS...: lab, bounded; WANT is the exit code wanted
brun() {
	_name=$1
	_want=$2
	shift 2
	_rc=0
	# shellcheck disable=SC2086
	timeout 30 $LIMIT "$LAB" "$@" >"$T/$_name.out" 2>"$T/$_name.err" ||
	    _rc=$?
	[ "$_rc" != 124 ] || fail "$_name: lab $* ran past 30 s"
	if [ "$_rc" != "$_want" ]; then
		cat "$T/$_name.err" >&2
		fail "$_name: lab $* exited $_rc, not $_want"
	fi
}
# clean NAME...: no control byte but newline (and a tab) in what lab
# printed, none of the raw bytes the peers sent, and valid UTF-8
clean() {
	for _f; do
		"$PY" - "$T/$_f" <<'END' || fail "$_f: a raw control or a byte that is not UTF-8 reached the output"
import sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in b if (c < 0x20 and c not in (0x0a, 0x09)) or c == 0x7f]
try:
    t = b.decode("utf-8")
except UnicodeDecodeError as e:
    print(sys.argv[1], e, file=sys.stderr)
    sys.exit(1)
c1 = [c for c in t if 0x80 <= ord(c) <= 0x9f]
if bad or c1:
    print(sys.argv[1], "controls:", bad[:8], c1[:8], file=sys.stderr)
    sys.exit(1)
END
	done
}
# jcheck NAME EXPR: the output is JSON (strict UTF-8) and EXPR (with d
# the document) is true
jcheck() {
	"$PY" -c "import json,sys
d = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8'))
sys.exit(0 if ($2) else 1)" "$T/$1" || {
		head -c 2000 "$T/$1" >&2
		fail "$1: not valid UTF-8 JSON, or not: $2"
	}
}

# The BMC on 127.0.65.1:623, its sensor "MB Temp" renamed
BMC_NET=127.0.65
BMC_SDR_NAME=$(printf 'M\033[2K\r\351')
export BMC_SDR_NAME
bmc_start "$T/bmc" 1 || fail "the BMC on 127.0.65.1 did not start"

# The agent on 127.0.65.100: the SG350-10's capture, its sysDescr and first
# ifAlias rows replaced (4x: hex of the bytes)
SNMP_ADDR=127.0.65.100
mkdir -p "$T/agent/data"
"$PY" - "$FIX/ciscosb_sg350-10.snmprec" "$T/agent/data/evil.snmprec" <<'END'
import sys
rows = {
    "1.3.6.1.2.1.1.1.0": b"SG350\x1b]0;pwned\x07 10-port \xc0\xaf",
    "1.3.6.1.2.1.31.1.1.1.18.1": b'=HYPERLINK("http://x","y")',
    "1.3.6.1.2.1.31.1.1.1.18.2": b"ok\x1b[2K\rFAKE\xe9\xff",
    "1.3.6.1.2.1.31.1.1.1.18.3": b"@SUM(1+1)",
    "1.3.6.1.2.1.31.1.1.1.18.4": b"-2+3",
    "1.3.6.1.2.1.31.1.1.1.18.5": b"-5",
}
out = []
for line in open(sys.argv[1]):
    oid = line.split("|", 1)[0]
    if oid in rows:
        line = "%s|4x|%s\n" % (oid, rows.pop(oid).hex())
    out.append(line)
if rows:
    sys.exit("rows not in the capture: %s" % list(rows))
open(sys.argv[2], "w").write("".join(out))
END
PORT=$(snmp_free_port)
snmp_start "$T/agent" "$PORT" evil

# the iLO on 127.0.65.50:22, its image URL (ESC [2K, a backspace, a C1
# control) already in
CLP=$SRC/tests/integration/ilo-clp.py
PW="Esc-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')"
# (no CR: the fixture reads the file with Python's universal newlines)
printf 'http://192.0.2.99/x\033[2K\010.iso\302\233\n' >"$T/clp/url"
echo 1 >"$T/clp/connected"
SSHD_ROOT_PASSWORD=$PW SSHD_CONFIG_EXTRA="ForceCommand $PY $CLP $T/clp" \
    start_sshd 127.0.65.50 22 "$T/ilo" ed25519 ||
    fail "the iLO's sshd on 127.0.65.50:22 did not start"
cp "$T/ilo/known_hosts" "$HOME/.ssh/known_hosts"

# the hostile SSH server on 127.0.65.51:22
"$PY" "$SRC/tests/integration/evil-kex.py" 127.0.65.51 22 "$T/evil.ready" \
    2>"$T/evil.log" &
EVIL_PID=$!
harness_track evil-kex "$EVIL_PID"
i=0
while [ ! -f "$T/evil.ready" ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "evil-kex.py did not start: $(cat "$T/evil.log")"
	sleep 0.1
done

cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: password}
sw: {community: evil}
ilo: {username: root, password: "$PW"}
END
chmod 600 "$T/credentials.yaml"
cat >"$T/lab.yaml" <<END
hosts:
  - {name: f1, model: generic-server, role: '=HYPERLINK("http://x","y")'}
  - {name: f2, model: generic-server, role: "+cmd|' /C calc'!A0"}
  - {name: f3, model: generic-server, role: "@SUM(1+1)"}
  - {name: f4, model: generic-server, role: "-2+3"}
  - {name: f5, model: generic-server, role: "-5"}
  - {name: f6, model: generic-server, role: "plain, with a comma"}
  - {name: ilo, model: hp-dl320-g5p, bmc: {type: ilo2, address: 127.0.65.50, credential: ilo}}
  - {name: evil, model: hp-dl320-g5p, bmc: {type: ilo2, address: 127.0.65.51, credential: ilo}}
  - {name: b1, model: generic-server, bmc: {type: ipmi, address: 127.0.65.1, credential: admin, workarounds: [opensesspriv], timeout: 5}}
switches:
  - {name: sw, model: generic-switch, address: $SNMP_ADDR, port: $PORT, snmp: {version: 2c, credential: sw, timeout: 2, retries: 1}}
END
brun import 0 import "$T/lab.yaml"
ok

# CSV: what a spreadsheet would run gets a quote in front; numbers and
# plain text do not; RFC 4180 quoting as before
brun hosts-csv 0 ls hosts --csv
has hosts-csv.out '^f1,generic-server,"'"'"'=HYPERLINK(""http://x"",""y"")",'
has hosts-csv.out "^f2,generic-server,'+cmd|' /C calc'!A0,"
has hosts-csv.out "^f3,generic-server,'@SUM(1+1),"
has hosts-csv.out "^f4,generic-server,'-2+3,"
has hosts-csv.out "^f5,generic-server,-5,"
has hosts-csv.out '^f6,generic-server,"plain, with a comma",'
ok

# the switch: discovery prints its sysDescr; ports show the ifAlias rows
brun discover 0 switch discover sw
brun discover-json 0 switch discover sw --json
brun ports 0 switch ports sw
brun ports-csv 0 switch ports sw --csv
brun ports-json 0 switch ports sw --json
brun report 0 report
brun report-md 0 report --format markdown
brun report-json 0 report --format json
clean discover.out ports.out ports-csv.out report.out report-md.out \
    discover.err ports.err
# (the MIB decoders make C0 controls spaces already; 8-bit bytes stay)
grep -qF 'SG350 ]0;pwned  10-port \xc0\xaf' "$T/discover.out" ||
	fail "discover: the sysDescr is not shown escaped: $(head -1 "$T/discover.out")"
grep -qF 'ok [2K FAKE\xe9\xff' "$T/ports.out" ||
	fail "ports: the ifAlias is not shown escaped"
grep -qF 'SG350 ]0;pwned  10-port \xc0\xaf' "$T/report.out" ||
	fail "report: the sysDescr is not shown escaped"
grep -qF 'SG350 \]0;pwned  10-port \\xc0\\xaf' "$T/report-md.out" ||
	fail "report (Markdown): the sysDescr is not shown escaped"
has ports-csv.out "^1,gi1,.*,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\$"
has ports-csv.out "^3,gi3,.*,'@SUM(1+1)\$"
has ports-csv.out "^4,gi4,.*,'-2+3\$"
has ports-csv.out "^5,gi5,.*,-5\$"
jcheck ports-json.out "[p['alias'] for p in d if p['ifindex'] == 2] == ['ok [2K FAKE\ufffd\ufffd']"
jcheck discover-json.out "d[0]['system']['descr'] == 'SG350 ]0;pwned  10-port \ufffd\ufffd'"
jcheck report-json.out "True"
ok

# the BMC's sensor name
brun sensors 0 sensors b1
brun sensors-csv 0 sensors b1 --csv
brun sensors-json 0 sensors b1 --json
clean sensors.out sensors-csv.out sensors.err
grep -qF 'M\x1b[2K\x0d\xe9' "$T/sensors.out" ||
	fail "sensors: the name is not shown escaped"
grep -qF 'Fan 1' "$T/sensors.out" || fail "sensors: no Fan 1"
jcheck sensors-json.out "'M\x1b[2K\r\ufffd' in [s['name'] for h in d for s in h['sensors']]"
ok

# the iLO's image URL
brun media 0 media status ilo
brun media-csv 0 media status ilo --csv
brun media-json 0 media status ilo --json
clean media.out media-csv.out media.err
grep -qF 'http://192.0.2.99/x\x1b[2K\x08.iso\xc2\x9b' "$T/media.out" ||
	fail "media status: the image URL is not shown escaped"
jcheck media-json.out "d[0]['image'] == 'http://192.0.2.99/x\x1b[2K\x08.iso\x9b'"
ok

# the SSH server's algorithm lists, in the one error line; nothing of it
# recorded as a success
brun kex 1 media status evil
brun kex-json 1 media status evil --json
brun kex-insert 1 media insert evil http://192.0.2.99/d.iso
clean kex.err kex.out kex-insert.err
has kex.err 'evil: .*no common key exchange algorithm: the server offers evil\\x1b\[2K\\x0dkex\\xe9\\xff\\x9b31m'
has kex-insert.err 'no common key exchange algorithm: the server offers evil\\x1b'
jcheck kex-json.out "d[0]['ok'] is False and 'evil\x1b[2K\rkex\ufffd\ufffd\ufffd31m' in d[0]['error']"
brun log 0 log --json
jcheck log.out "[a['result'] for a in d if 'media insert evil' in a['argv']] == [1]"
brun log-text 0 log
clean log-text.out
# the audit log holds the server's bytes: the reports show them escaped
brun report-audit 0 report
brun report-audit-md 0 report --format markdown
clean report-audit.out report-audit-md.out
grep -qF 'evil\x1b[2K\x0dkex\xe9\xff\x9b31m' "$T/report-audit.out" ||
	fail "report: the audit message is not shown escaped"
grep -qF 'evil\\x1b\[2K\\x0dkex\\xe9\\xff\\x9b31m' "$T/report-audit-md.out" ||
	fail "report (Markdown): the audit message is not shown escaped"
ok

echo "escapes.sh: $n groups of checks passed"
