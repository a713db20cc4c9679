#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab power/boot/sensors/sel against real ipmi_sim BMCs on 127.0.2.0/24
# (and 127.0.5.0/24 for the 50-BMC run): sh power.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
bmc_require

T=$(mktemp -d /tmp/lab-power.XXXXXX)
harness_trap 'bmc_stop "$T/many"; bmc_stop "$T"; rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
# a password no message would contain by chance: the leak checks grep it
BMC_PASSWORD="Lx-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-q7"
export BMC_PASSWORD

NAME=power.sh
. "$SRC/tests/integration/check.sh"
sets() { grep -c "^set $2" "$T/bmc$1/helper.log" || true; }

BMC_NET=127.0.2
bmc_start "$T" 3
cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "$BMC_PASSWORD"}
wrongpw: {username: admin, password: "not-it"}
wronguser: {username: nobody, password: "$BMC_PASSWORD"}
userlevel: {username: userpw, password: userpass}
END
chmod 600 "$T/credentials.yaml"
bmc() {
	echo "{type: ipmi, address: 127.0.2.$1, credential: $2," \
	    "workarounds: [opensesspriv]$3}"
}
cat >"$T/lab.yaml" <<END
hosts:
  - {name: b1, model: generic-server, groups: [good], bmc: $(bmc 1 admin "")}
  - {name: b2, model: generic-server, groups: [good], bmc: $(bmc 2 admin "")}
  - {name: b3, model: generic-server, groups: [good], bmc: $(bmc 3 admin "")}
  - {name: badpw, model: generic-server, bmc: $(bmc 1 wrongpw "")}
  - {name: baduser, model: generic-server, bmc: $(bmc 2 wronguser "")}
  - {name: lowpriv, model: generic-server, bmc: $(bmc 3 userlevel ", privilege: user")}
  - {name: suite17, model: generic-server, bmc: $(bmc 1 admin ", cipher_suite: 17")}
  - {name: dead, model: generic-server, bmc: $(bmc 99 admin "")}
  - {name: nobmc, model: hp-ml115-g5}
END
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"

# status: every good BMC answers "off"; JSON has host, state, ok, error
run st power status @good --json
[ "$(rc st)" = 0 ] || fail "status rc $(rc st)"
[ "$(grep -c '"state": "off"' "$T/st.out")" = 3 ] || fail "status not off"
has st.out '"ok": true'
has st.out '"error": null'
# one at a time: each BMC begins when the one before it is done
run st1 power status @good --fanout 1
[ "$(rc st1)" = 0 ] || fail "status --fanout 1 rc $(rc st1)"
[ "$(grep -c '^b[1-3] *off *ok' "$T/st1.out")" = 3 ] ||
    fail "status --fanout 1: $(cat "$T/st1.out" "$T/st1.err")"
ok

# on: the chassis really turns on, and a second on sends nothing
run on1 power on b1
[ "$(rc on1)" = 0 ] || fail "power on rc $(rc on1)"
has on1.out "b1 *on *powered on"
[ "$(bmc_power "$T" 1)" = 1 ] || fail "b1 not on"
run on2 power on b1
has on2.out "already on"
[ "$(sets 1 'power 1')" = 1 ] || fail "a second power on was sent"
ok

# off, cycle of an off host (= on), cycle of an on host, reset, soft
run off power off b1
[ "$(rc off)" = 0 ] && [ "$(bmc_power "$T" 1)" = 0 ] || fail "power off"
run cy1 power cycle b2 --wait
[ "$(rc cy1)" = 0 ] && [ "$(bmc_power "$T" 2)" = 1 ] || fail "cycle of off"
has cy1.out "was off: powered on"
run cy2 power cycle b2 --wait
[ "$(rc cy2)" = 0 ] && [ "$(bmc_power "$T" 2)" = 1 ] || fail "cycle of on"
run rs power reset b2
[ "$(rc rs)" = 0 ] || fail "reset rc $(rc rs)"
[ "$(sets 2 reset)" -ge 1 ] || fail "reset not sent"
run soft power soft b2 --wait
[ "$(rc soft)" = 0 ] && [ "$(bmc_power "$T" 2)" = 0 ] || fail "soft off"
run rsoff power reset b2
[ "$(rc rsoff)" = 1 ] || fail "reset of an off host rc $(rc rsoff)"
has rsoff.err "b2: host is off"
ok

# boot device: set, verified by reading back, and really stored
for dev in pxe cdrom bios disk; do
	run "boot-$dev" boot b3 "$dev"
	[ "$(rc "boot-$dev")" = 0 ] || fail "boot $dev rc $(rc "boot-$dev")"
	run "bootget-$dev" boot b3 --json
	has "bootget-$dev.out" "\"device\": \"$dev\""
done
[ "$(bmc_boot "$T" 3)" = default ] || fail "disk is not stored as default"
run bootpxe boot b3 pxe --persistent
[ "$(bmc_boot "$T" 3)" = pxe ] || fail "boot pxe not stored"
ok

# sensors and SEL
bmc_sensor_set "$T" 1 temp 85
sleep 1.2	# ipmi_sim polls the sensor file once a second
run sens sensors b1 --json
[ "$(rc sens)" = 0 ] || fail "sensors rc $(rc sens)"
has sens.out '"name": "MB Temp"'
has sens.out '"value": 85.00'
has sens.out '"state": "critical"'
run sel sel b1
[ "$(rc sel)" = 0 ] || fail "sel rc $(rc sel)"
ok

# each failure has its own message; the rest of the run goes on
run pw power status badpw b1
[ "$(rc pw)" = 1 ] || fail "wrong password rc $(rc pw)"
has pw.err "badpw: BMC 127.0.2.1:623: authentication failed"
has pw.out "b1 *off"
run user power status baduser
has user.err "baduser: BMC 127.0.2.2:623: authentication failed"
run priv power on lowpriv
[ "$(rc priv)" = 1 ] || fail "user-level power on rc $(rc priv)"
has priv.err "lowpriv: .*insufficient privilege"
[ "$(bmc_power "$T" 3)" = 0 ] || fail "user-level account powered b3 on"
run s17 power status suite17
has s17.err "suite17: .*cipher suite 17 not supported by the BMC"
ok

# a dead BMC costs one deadline and the others finish normally
run dead power status b1 b2 b3 dead --timeout 2 --json
[ "$(rc dead)" = 1 ] || fail "dead rc $(rc dead)"
has dead.err "dead: BMC 127.0.2.99:623: session timeout"
[ "$(grep -c '"ok": true' "$T/dead.out")" = 3 ] || fail "others not ok"
# the per-host elapsed time lab reports: a bound on correctness
ms=$(awk '/"host": "dead"/ { d = 1 }
	d && /elapsed_ms/ { gsub(/[^0-9]/, ""); print; exit }' "$T/dead.out")
[ "$ms" -ge 1900 ] && [ "$ms" -le 4000 ] ||
	fail "the dead BMC took $ms ms for a 2 s deadline"
ok

# no BMC: its own line; a status still exits 0, an action does not
run nb power status nobmc b1
[ "$(rc nb)" = 0 ] || fail "status with a BMC-less host rc $(rc nb)"
has nb.out "nobmc *- *no BMC recorded"
run nbon power on nobmc
[ "$(rc nbon)" = 1 ] || fail "power on of a BMC-less host rc $(rc nbon)"
has nbon.err "nobmc: no BMC recorded"
ok

# dry run: says what it would send, sends nothing
before=$(wc -l <"$T/bmc1/helper.log")
run dry power on b1 --dry-run
[ "$(rc dry)" = 0 ] || fail "dry run rc $(rc dry)"
has dry.out "would send power on to BMC 127.0.2.1:623"
[ "$(wc -l <"$T/bmc1/helper.log")" = "$before" ] || fail "dry run sent"
ok

# the safety rule (SAFETY in lab(1)): a named host or group never asks;
# off/cycle/reset/soft of --all print the plan and need --yes, or a "y"
# typed on a terminal; without one they refuse (exit 2) and send nothing
PTY="$SRC/tests/integration/pty-run.py"
lines() { cat "$T"/bmc[123]/helper.log | wc -l; }
run grp power on @good </dev/null
[ "$(rc grp)" = 0 ] || fail "power on @good rc $(rc grp): $(cat "$T/grp.err")"
[ "$(bmc_power "$T" 1)" = 1 ] && [ "$(bmc_power "$T" 3)" = 1 ] ||
	fail "power on @good did not power on"
python3 "$PTY" "$T/named.tty" exit=0 -- "$LAB" power off b3 ||
	fail "power off b3 on a terminal"
grep -q "y/N" "$T/named.tty" && fail "power off b3 asked"
[ "$(bmc_power "$T" 3)" = 0 ] || fail "power off b3 on a terminal: still on"
before=$(lines)
run alldry power off --all --dry-run
[ "$(rc alldry)" = 0 ] || fail "power off --all --dry-run rc $(rc alldry)"
has alldry.out "b1 .*would send power off to BMC 127.0.2.1:623"
run allno power off --all </dev/null
[ "$(rc allno)" = 2 ] || fail "power off --all without --yes rc $(rc allno)"
has allno.out "b1 .*would send power off to BMC 127.0.2.1:623"
has allno.err "lab: power off: this sends power off to every host (--all); run again with --yes"
python3 "$PTY" "$T/allno.tty" "expect=Apply power off to these 9 hosts? [y/N] " \
    "send=n\r" exit=2 -- "$LAB" power off --all ||
	fail "power off --all answered n on a terminal"
grep -q "not confirmed: nothing was changed" "$T/allno.tty" ||
	fail "an answer n says nothing"
[ "$(lines)" = "$before" ] || fail "power off --all without --yes sent"
[ "$(bmc_power "$T" 1)" = 1 ] || fail "power off --all without --yes: b1 off"
python3 "$PTY" "$T/allyes.tty" "expect=[y/N] " "send=y\r" exit=1 -- \
    "$LAB" power off --all --timeout 2 || fail "power off --all answered y"
[ "$(bmc_power "$T" 1)" = 0 ] || fail "power off --all answered y: b1 on"
grep -q "b1 .*powered off" "$T/allyes.tty" || fail "no outcome after y"
run grp2 power on @good
run allyes power off --all --yes --timeout 2 </dev/null
[ "$(rc allyes)" = 1 ] || fail "power off --all --yes rc $(rc allyes)"
has allyes.out "b1 .*powered off"
grep -q "would send" "$T/allyes.out" && fail "--yes printed the plan"
[ "$(bmc_power "$T" 1)" = 0 ] && [ "$(bmc_power "$T" 3)" = 0 ] ||
	fail "power off --all --yes left a host on"
ok

# what was seen is stored: show and the audit log
run show show b1
has show.out "power:    off (seen "
run showdead show dead
has showdead.out "BMC unreachable"
run log log --limit 0
has log.out "lab power on b1"
has log.out "lab power off b1"
ok

# credentials: missing or too open is an environment error
LAB_CREDENTIALS="$T/none.yaml" run nocred power status b1
[ "$(rc nocred)" = 3 ] || fail "missing credentials rc $(rc nocred)"
chmod 644 "$T/credentials.yaml"
run opencred power status b1
[ "$(rc opencred)" = 3 ] || fail "world-readable credentials rc $(rc opencred)"
has opencred.err "chmod 600"
chmod 600 "$T/credentials.yaml"
ok

# the password is never in argv, the database, the log or any output:
# watch /proc while a slow BMC keeps lab busy
echo 2 >"$T/bmc3/delay"
"$LAB" power status b3 --timeout 8 >"$T/slow.out" 2>"$T/slow.err" &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	for f in /proc/[0-9]*/cmdline; do
		{ tr '\0' ' ' <"$f"; } 2>/dev/null || true
		echo
	done
done >"$T/cmdlines.txt"
wait "$pid" || true
: >"$T/bmc3/delay"
grep -q "power status b3" "$T/cmdlines.txt" || fail "lab not seen in /proc"
"$LAB" log --json >"$T/logjson.out" 2>&1
testdb_dump "$LAB_DB" "$T/lab.db" || fail "pg_dump"
for f in "$T"/*.out "$T"/*.err "$T/cmdlines.txt" "$T/lab.db" "$T"/lab.db-*; do
	[ -e "$f" ] || continue
	if grep -a -q -- "$BMC_PASSWORD" "$f"; then
		fail "the password is in $f"
	fi
done
ok

# 50 BMCs in one run
BMC_NET=127.0.5
bmc_start "$T/many" 50
i=1
{
	echo "hosts:"
	while [ $i -le 50 ]; do
		echo "  - {name: m$i, model: generic-server, groups: [many]," \
		    "bmc: {type: ipmi, address: 127.0.5.$i, credential: admin," \
		    "workarounds: [opensesspriv]}}"
		i=$((i + 1))
	done
} >"$T/many.yaml"
"$LAB" import "$T/many.yaml" >/dev/null 2>&1 || fail "import many"
run many power on @many
[ "$(rc many)" = 0 ] || fail "50 BMCs rc $(rc many)"
[ "$(grep -c 'powered on' "$T/many.out")" = 50 ] || fail "not 50 powered on"
i=1
while [ $i -le 50 ]; do
	[ "$(bmc_power "$T/many" $i)" = 1 ] || fail "m$i not on"
	i=$((i + 1))
done
run manyst power status @many --json
[ "$(grep -c '"state": "on"' "$T/manyst.out")" = 50 ] || fail "50 status"
ok

echo "power.sh: $n groups of checks passed"
