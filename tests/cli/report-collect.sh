#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab report --collect against BMCs and a switch on 127.0.0.1 ports nobody
# listens on: each becomes a finding, not a failure; a missing credentials
# file skips collecting with a finding; and no secret of the credentials
# file appears in any format's output or in the database:
# sh report-collect.sh LAB
set -eu
LAB=$1
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
fail=0
# secrets no message would contain by chance
R=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
PW="Pw-$R-q7" COMM="Cm-$R-z3"
# a UDP port that was free a moment ago: nothing answers on it
PORT=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET,
socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$T/lab.yaml" <<END
hosts:
  - name: ms1
    model: hp-microserver-n40l
    bmc: {type: rac, address: 127.0.0.1, port: $PORT, credential: bmc}
    nics: [{name: eth0, mac: "02:00:00:00:00:01"}]
  - {name: plain, model: hp-ml115-g5}
switches:
  - {name: sw1, model: cisco-sg200-26, address: 127.0.0.1, port: $PORT,
     snmp: {version: 2c, credential: sw}}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1

# no credentials file: collect skips, with a finding, and exits 0
rc=0
"$LAB" report --collect --timeout 1 >"$T/nocred.txt" 2>"$T/nocred.err" || rc=$?
[ $rc = 0 ] || { echo "report-collect: no credentials: exit $rc" >&2; fail=1; }
grep -q 'warning  collect: power status and switch discovery skipped: no credentials file' \
    "$T/nocred.txt" || { echo "report-collect: no skip finding" >&2; cat "$T/nocred.txt" >&2; fail=1; }

cat >"$T/credentials.yaml" <<END
bmc: {username: admin, password: "$PW"}
sw: {community: "$COMM"}
END
chmod 600 "$T/credentials.yaml"
start=$(date +%s)
rc=0
"$LAB" report --collect --timeout 1 --format json >"$T/out.json" 2>"$T/err" || rc=$?
[ $rc = 0 ] || { echo "report-collect: exit $rc: $(cat "$T/err")" >&2; fail=1; }
[ $(($(date +%s) - start)) -le 30 ] || { echo "report-collect: not bounded" >&2; fail=1; }
python3 - "$T/out.json" <<'END' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
f = {(x["severity"], x["subject"]) for x in d["findings"]}
msgs = " ".join(x["message"] for x in d["findings"])
ok = ("critical", "ms1") in f and ("warning", "sw1") in f and \
    "no battery" in msgs and d["hosts"][0]["power_checked"] is not None
if not ok:
    sys.exit("report-collect: findings %s" % d["findings"])
END
"$LAB" report --collect --timeout 1 >"$T/out.text" 2>>"$T/err"
for f in markdown html json; do
	"$LAB" report --format $f --since 24h >"$T/out.$f" 2>>"$T/err" || true
done
sqlite3 "$LAB_DB" .dump >"$T/dump.sql" 2>/dev/null || cp "$LAB_DB" "$T/dump.sql"
for s in "$PW" "$COMM"; do
	if grep -l -- "$s" "$T"/out.* "$T/err" "$T/dump.sql" "$LAB_DB"; then
		echo "report-collect: a secret leaked" >&2
		fail=1
	fi
done
[ $fail = 0 ] && echo "report-collect: ok"
exit $fail
