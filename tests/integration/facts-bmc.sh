#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# facts-bmc: the BMC part of lab facts (issue 20) against real ipmi_sim
# BMCs on 127.0.120.x: Get Device ID (firmware "MAJOR.MM", IPMI version,
# manufacturer, product), FRU 0's product name and serial, and the
# known-issue match: BMC 1 runs RAC firmware 1.20 (below the 1.30 of a
# known issue), BMC 2 runs 1.30 (no finding), BMC 3 the simulator's
# default (9.08, MontaVista, no FRU data: no FRU is no error).
# Usage: facts-bmc.sh DEVID_PROBE LAB SOURCE_ROOT
# Exit 0 all passed, 1 a check failed, 77 ipmi_sim missing (skip).

PROBE=$1
LAB=$2
SRC=$3
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
bmc_require

T=$(mktemp -d) || exit 1
cleanup()
{
	bmc_stop "$T"
	rm -rf "$T"
}
harness_trap cleanup

BMC_NET=127.0.120
W=opensesspriv		# ipmi_sim needs it with FreeIPMI (README.md)
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

# probe K [KNOWN MODEL BMC]: devid-probe against BMC K as admin.
probe()
{
	_k=$1
	shift
	LAB_TEST_PASSWORD=password "$PROBE" "$(bmc_addr "$_k")" 623 admin \
	    "$W" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# has DESC LINE: the probe's output holds that exact line.
has()
{
	if [ "$rc" -ne 0 ]; then
		not_ok "$1 (exit $rc)"
	elif grep -qxF "$2" "$T/out"; then
		ok "$1"
	else
		not_ok "$1 (no line '$2')"
	fi
}

# lacks DESC TEXT: no line of the output holds TEXT.
lacks()
{
	if [ "$rc" -ne 0 ]; then
		not_ok "$1 (exit $rc)"
	elif grep -qF "$2" "$T/out"; then
		not_ok "$1 ('$2' is there)"
	else
		ok "$1"
	fi
}

# A FRU of device 0 with a product area (IPMI FRU spec 1.0): the
# manufacturer, name, model, version, serial, asset tag, file id.
python3 - "$T/fru.bin" <<'PY' || exit 1
import sys


def field(s):
    b = s.encode()
    return bytes([0xC0 | len(b)]) + b


def area(body):
    body = bytes([1, 0]) + body + b"\xc1"      # version, length, ..., end
    n = (len(body) + 1 + 7) // 8 * 8
    body = body + bytes(n - len(body) - 1)
    body = body[:1] + bytes([n // 8]) + body[2:]
    return body + bytes([(-sum(body)) & 0xFF])


prod = area(bytes([0]) + b"".join(field(s) for s in (
    "HP", "ProLiant MicroServer", "658553-421", "N40L", "CN1234ABCD",
    "", "")))
head = bytes([1, 0, 0, 0, 1, 0, 0])
head += bytes([(-sum(head)) & 0xFF])
open(sys.argv[1], "wb").write(head + prod)
PY

export BMC_FW_1="1 0x20" BMC_MFR_1="0x0b 0x1234" BMC_FRU_1="$T/fru.bin"
export BMC_FW_2="1 0x30" BMC_MFR_2="0x0b 0x1234"
if ! bmc_start "$T" 3; then
	echo "not ok - bmc_start"
	exit 1
fi

cat >"$T/known.yaml" <<'YAML'
known_issues:
  - match: {model: hp-microserver-*, bmc: rac, component: bmc,
            below: "1.30"}
    severity: warning
    message: the RAC stops answering on the network; update to 1.3
    source: test
YAML

# 1: firmware 1.20, HP, a FRU; the known issue matches
probe 1 "$T/known.yaml" hp-microserver-n40l rac
has "bmc 1: firmware 1.20" "firmware 1.20"
has "bmc 1: ipmi version" "ipmi_version 2.0"
has "bmc 1: manufacturer id" "manufacturer_id 11"
has "bmc 1: manufacturer name" "manufacturer Hewlett-Packard"
has "bmc 1: product id" "product_id 4660"
has "bmc 1: device id" "device_id 0"
has "bmc 1: FRU product name" "fru_product ProLiant MicroServer"
has "bmc 1: FRU serial" "fru_serial CN1234ABCD"
has "bmc 1: the known issue" "finding warning known-issue: bmc firmware \
1.20 is below 1.30: the RAC stops answering on the network; update to 1.3 \
(source: test)"

# the same BMC, another BMC type or model: no finding
probe 1 "$T/known.yaml" hp-microserver-n40l ilo2
lacks "bmc 1 as an iLO 2: no finding" "finding"
probe 1 "$T/known.yaml" hp-dl320-g5p rac
lacks "bmc 1 in a DL320: no finding" "finding"

# 2: firmware 1.30: no finding
probe 2 "$T/known.yaml" hp-microserver-n40l rac
has "bmc 2: firmware 1.30" "firmware 1.30"
lacks "bmc 2: no finding" "finding"
has "bmc 2: no FRU data" "fru_product (none)"

# the shipped list says the same of the RAC
probe 1 "$SRC/inventory/known-issues.yaml" hp-microserver-n54l rac
has "shipped list: bmc 1 matches" "finding warning known-issue: bmc \
firmware 1.20 is below 1.30: the Remote Access Card stops answering on the \
network after a while (a known fault of firmware before 1.3): update the RAC \
firmware to 1.3 or later (source: \
seeds/000_8a965bc04a84f4db.txt (HP MicroServer Remote Access Card review, \
update 12-FEB-2013))"
probe 2 "$SRC/inventory/known-issues.yaml" hp-microserver-n54l rac
lacks "shipped list: bmc 2 does not" "finding"
# the shipped iLO 2 advisories: 1.20 is below 2.27, 9.08 neither below
# it nor 2.29
probe 1 "$SRC/inventory/known-issues.yaml" hp-dl320-g5p ilo2
has "shipped list: an iLO 2 at 1.20 matches" "finding critical known-issue: \
bmc firmware 1.20 is below 2.27: iLO 2 firmware before 2.27 can be exploited \
remotely to gain privileges, run code, bypass access restrictions or stop \
the iLO (CVE-2014-7876, CVE-2015-2106): update the iLO 2 firmware, and keep \
it on a management network of its own (source: \
https://h20564.www2.hp.com/portal/site/hpsc/public/kb/docDisplay?docId=emr_na-c04486432 \
(HPSBHF03151, CVE-2014-7876); \
https://h20564.www2.hp.com/portal/site/hpsc/public/kb/docDisplay?docId=emr_na-c04582368 \
(HPSBHF03276, CVE-2015-2106))"
probe 3 "$SRC/inventory/known-issues.yaml" hp-dl320-g5p ilo2
lacks "shipped list: an iLO 2 at 9.08 does not" "finding"

# 3: the simulator's defaults
probe 3
has "bmc 3: firmware 9.08" "firmware 9.08"
has "bmc 3: manufacturer id 4753" "manufacturer_id 4753"
has "bmc 3: manufacturer name" "manufacturer MontaVista Software, Inc."
has "bmc 3: product id 0xf02" "product_id 3842"

# a bad known-issues file: exit 2, file:line:col
printf 'known_issues:\n  - match: {component: bmc, below: "1.30"}\n' \
    >"$T/bad.yaml"
probe 1 "$T/bad.yaml" hp-microserver-n40l rac
if [ "$rc" -eq 2 ] && grep -qF "bad.yaml:2:5: a known issue needs" \
    "$T/err"; then
	ok "a bad known-issues file: $(cat "$T/err")"
else
	not_ok "a bad known-issues file (exit $rc)"
fi

# End to end: lab facts of two MicroServers with RACs and no ssh: (the
# SSH part fails, the BMC part is read). The known issue of the RAC is
# imported with the inventory (it replaces the shipped one of the same
# match): old (1.20) has it as a finding, new (1.30) has none.
printf 'sim: {username: admin, password: password}\n' >"$T/creds.yaml"
chmod 600 "$T/creds.yaml"
cat >"$T/lab.yaml" <<YAML
hosts:
  - name: old
    model: hp-microserver-n40l
    bmc: {type: rac, address: $(bmc_addr 1), credential: sim,
          workarounds: [$W]}
  - name: new
    model: hp-microserver-n40l
    bmc: {type: rac, address: $(bmc_addr 2), credential: sim,
          workarounds: [$W]}
YAML
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/creds.yaml"
"$LAB" import "$T/lab.yaml" "$T/known.yaml" >"$T/out" 2>"$T/err"
rc=$?
has "import: the known issue" "+ known-issue bmc below 1.30 \
model=hp-microserver-* bmc=rac"
"$LAB" facts old new --json --no-record >"$T/out" 2>"$T/err"
rc=$?
# exit 1: no ssh: on either host; the BMC part is what this test reads
if [ "$rc" -gt 1 ]; then
	not_ok "lab facts old new (exit $rc)"
elif python3 - "$T/out" >"$T/py" 2>&1 <<'PY'
import json
import sys

doc = json.load(open(sys.argv[1]))
hosts = doc if isinstance(doc, list) else doc.get("hosts", doc)
by = {h["host"]: h for h in hosts}
bad = []
for name, fw in (("old", "1.20"), ("new", "1.30")):
    b = by[name]["bmc"]
    if not b.get("ok") or b.get("firmware") != fw:
        bad.append("%s: bmc %r, want firmware %s" % (name, b, fw))
    if b.get("manufacturer") != "Hewlett-Packard":
        bad.append("%s: manufacturer %r" % (name, b.get("manufacturer")))
ki = [f for f in by["old"]["findings"] if f["kind"] == "known-issue"]
if len(ki) != 1 or "the RAC stops answering on the network; update to " \
        "1.3 (source: test)" not in ki[0]["message"] or \
        ki[0]["severity"] != "warning":
    bad.append("old: known-issue findings %r" % ki)
ki = [f for f in by["new"]["findings"] if f["kind"] == "known-issue"]
if ki:
    bad.append("new: known-issue findings %r" % ki)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
then
	ok "lab facts --json: old 1.20 with the known issue, new 1.30 without"
else
	sed 's/^/#   /' "$T/py"
	not_ok "lab facts --json"
fi

if [ "$failed" -ne 0 ]; then
	echo "# $failed check(s) failed"
	exit 1
fi
echo "# all checks passed"
exit 0
