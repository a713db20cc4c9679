#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab facts (issue 20) of this machine, behind a private sshd on
# 127.0.122.1:2222 (and one on 127.0.122.2:2222 whose commands run with a
# PATH that has no smartctl). Checks:
#  1. --json agrees with what the test reads itself: every whole disk of
#     lsblk -J -O -b (not loop, ram, zram, nbd) with its size and serial,
#     no other disk; every NIC of /sys/class/net with its MAC; every
#     address of ip -j addr; the kernel of uname -r;
#  2. the text table names the disks and NICs;
#  3. --yaml is inventory YAML that lab import takes into a fresh
#     database, with the NICs' MACs;
#  4. a host with no ssh: block fails alone: exit 1 naming it, the other
#     host read;
#  5. a target without smartctl gives the note naming smartmontools, and
#     is read all the same (exit 0);
#  6. the BMC part against ipmi_sim on 127.0.123.1 (RAC firmware 1.20,
#     HP's IANA number): bmc.ok, its firmware and manufacturer, and the
#     shipped known issue of the RAC's firmware before 1.30 as a finding;
#     a BMC whose credential is missing is bmc.error, the host still ok;
#  7. the facts recorded: the keys of the first run of 1 in the database
#     (a NIC's MAC, the BMC's firmware); --no-record stores nothing;
#  8. the documents' shape (json-shapes.py): the keys of issue 20 and
#     lab-facts(1) with their types, of a host read, one with its BMC and
#     one not read.
# Usage: facts.sh LAB SRCDIR
set -u
LAB=$1
SRC=$2
NAME=facts
ADDR=127.0.122.1
ADDR2=127.0.122.2
PORT=2222
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
. "$SRC/tests/integration/bmc.sh"
BMC_NET=127.0.123
sshd_require
bmc_require
for c in python3 lsblk ip; do
	command -v $c >/dev/null 2>&1 && continue
	echo "$NAME: no $c (python3, util-linux, iproute2)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
done
T=$(mktemp -d /tmp/lab-facts.XXXXXX) || exit 1
. "$SRC/tests/integration/check.sh"
# shellcheck disable=SC2016 # the cleanup is eval'd at exit
harness_trap 'stop_sshd; bmc_stop "$T/bmc"; [ -n "${KEEP:-}" ] || rm -rf "$T"'

# the second server's commands see every tool of /usr/sbin but smartctl
mkdir -p "$T/sbin" || fail "mkdir"
for f in /usr/sbin/* /sbin/*; do
	b=${f##*/}
	[ "$b" = smartctl ] || [ -e "$T/sbin/$b" ] || ln -s "$f" "$T/sbin/$b"
done
start_sshd "$ADDR" "$PORT" "$T/h" || fail "start_sshd"
SSHD_USER_KEY=$(cat "$T/h/user_key") \
SSHD_CONFIG_EXTRA="SetEnv PATH=/usr/local/bin:/usr/bin:/bin:$T/sbin" \
    start_sshd "$ADDR2" "$PORT" "$T/h2" || fail "start_sshd 2"
sshd_ssh "$T/h2" 'command -v smartctl' >/dev/null 2>&1 &&
    fail "the second server still finds smartctl"

cat >"$T/lab.yaml" <<EOF
hosts:
  - name: self
    model: generic-server
    ssh: {address: $ADDR, port: $PORT, user: root,
          identity: $(cat "$T/h/user_key"), known_hosts: $T/h/known_hosts}
  - name: nosmart
    model: generic-server
    ssh: {address: $ADDR2, port: $PORT, user: root,
          identity: $(cat "$T/h/user_key"), known_hosts: $T/h2/known_hosts}
  - name: nossh
    model: generic-server
  - name: rac
    model: hp-microserver-n40l
    ssh: {address: $ADDR, port: $PORT, user: root,
          identity: $(cat "$T/h/user_key"), known_hosts: $T/h/known_hosts}
    bmc: {type: rac, address: $(bmc_addr 1), credential: sim,
          workarounds: [opensesspriv]}
  - name: nocred
    model: generic-server
    ssh: {address: $ADDR, port: $PORT, user: root,
          identity: $(cat "$T/h/user_key"), known_hosts: $T/h/known_hosts}
    bmc: {type: ipmi, address: $(bmc_addr 1), credential: nosuch}
EOF
printf 'sim: {username: admin, password: password}\n' >"$T/credentials.yaml"
chmod 600 "$T/credentials.yaml"
export LAB_CREDENTIALS="$T/credentials.yaml"
export BMC_FW_1="1 0x20" BMC_MFR_1="0x0b 0x1234"
bmc_start "$T/bmc" 1 || fail "bmc_start"
export LAB_DB="$T/lab.db"
run init init
run import import "$T/lab.yaml"
[ "$(rc import)" = 0 ] || { cat "$T/import.err" >&2; fail "import"; }

# 1. the JSON against lsblk, /sys/class/net, ip and uname read here
run json facts self --json
[ "$(rc json)" = 0 ] || { cat "$T/json.err" >&2; fail "facts self: exit $(rc json)"; }
lsblk -J -O -b >"$T/lsblk.json" || fail "lsblk"
ip -j addr >"$T/ip.json" || fail "ip"
uname -r >"$T/uname"
python3 "$SRC/tests/integration/facts-check.py" "$T" ||
    fail "the JSON differs from what the host says"
ok

# 2. the text
run text facts self --no-record
[ "$(rc text)" = 0 ] || { cat "$T/text.err" >&2; fail "text: exit $(rc text)"; }
has text.out "^== self =="
has text.out "^DISK "
has text.out "^NIC "
has text.out "^kernel: $(uname -r)"
for f in /sys/class/net/*; do
	[ -e "$f/address" ] || continue
	has text.out "^${f##*/} .*$(cat "$f/address")"
done
ok

# 3. --yaml into a fresh database
run yaml facts self --yaml --no-record
[ "$(rc yaml)" = 0 ] || { cat "$T/yaml.err" >&2; fail "yaml: exit $(rc yaml)"; }
has yaml.out "^hosts:"
has yaml.out '^  - name: "self"'
LAB_DB="$T/fresh.db" "$LAB" init >/dev/null 2>&1 || fail "init fresh"
LAB_DB="$T/fresh.db" "$LAB" import "$T/yaml.out" >"$T/fimport.out" \
    2>"$T/fimport.err" || { cat "$T/fimport.err" "$T/yaml.out" >&2;
	fail "lab import of the --yaml output"; }
LAB_DB="$T/fresh.db" "$LAB" ls nics --json >"$T/fnics.out" ||
    fail "ls nics of the fresh database"
python3 "$SRC/tests/integration/facts-check.py" "$T" yaml ||
    fail "the NICs imported differ from the facts"
ok

# 4. a host without ssh: fails alone
run nossh facts self nossh --no-record
[ "$(rc nossh)" = 1 ] || fail "a host without ssh: exit $(rc nossh), not 1"
has nossh.err "nossh: no ssh: block in the inventory"
has nossh.out "^== self =="
ok

# 5. no smartctl on the target: a note, not a failure
run nosmart facts nosmart --json --no-record
[ "$(rc nosmart)" = 0 ] || { cat "$T/nosmart.err" >&2; fail "nosmart: exit $(rc nosmart)"; }
has nosmart.out "smartctl not found on the target (no disk firmware): apt-get install smartmontools"
has nosmart.out '"ok": true'
ok

# 6. the BMC: Get Device ID, the shipped known issue; a missing credential
run bmc facts rac nocred --json --no-record
[ "$(rc bmc)" = 0 ] || { cat "$T/bmc.err" >&2; fail "bmc: exit $(rc bmc)"; }
python3 "$SRC/tests/integration/facts-check.py" "$T" bmc ||
    fail "the BMC part"
run bmctext facts rac --no-record
has bmctext.out "^BMC: firmware 1.20, IPMI 2.0, Hewlett-Packard"
has bmctext.out "^warning known-issue rac BMC: "
ok

# 7. recorded: "self" was stored by the run of 1, rac now
command -v sqlite3 >/dev/null 2>&1 ||
    { echo "$NAME: no sqlite3 (package sqlite3)" >&2; exit 1; }
run rec facts rac
[ "$(rc rec)" = 0 ] || { cat "$T/rec.err" >&2; fail "rec: exit $(rc rec)"; }
q() { sqlite3 "$T/lab.db" "$1"; }
[ "$(q "SELECT count(*) FROM facts WHERE subject = 'self'")" -gt 0 ] ||
    fail "no fact of self stored"
[ "$(q "SELECT count(*) FROM facts WHERE subject = 'nosmart'")" = 0 ] ||
    fail "--no-record stored facts"
[ "$(q "SELECT value FROM facts WHERE subject = 'rac' AND
    key = 'bmc.firmware' AND closed_at IS NULL")" = 1.20 ] ||
    fail "the BMC's firmware is not stored"
for f in /sys/class/net/*; do
	[ -e "$f/device" ] || continue
	[ "$(q "SELECT value FROM facts WHERE subject = 'self' AND
	    key = 'nic.${f##*/}.mac' AND closed_at IS NULL")" = \
	    "$(cat "$f/address")" ] || fail "nic.${f##*/}.mac not stored"
done
ok

# 8. the shape of the documents, as json-shapes.py checks every command's
python3 "$SRC/tests/integration/json-shapes.py" "$LAB" \
    "facts=facts self rac nossh --json --no-record" >"$T/shapes.out" 2>&1 ||
    { cat "$T/shapes.out" >&2; fail "json-shapes.py of lab facts"; }
has shapes.out "^json-shapes: 1 documents, 0 broken rules"
ok

echo "$NAME: $n groups of checks passed"
