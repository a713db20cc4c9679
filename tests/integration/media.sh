#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab media against imitations of the iLO 2's SSH command line (ilo-clp.py
# behind sshd ForceCommand, sshd.sh) on 127.0.26.0/24, port 22:
# sh media.sh LAB SRCDIR
#
# 127.0.26.1 is an iLO 2 as old as the real one (diffie-hellman-group1-sha1,
# ssh-dss, aes128-cbc, hmac-sha1 only); 127.0.26.2 speaks modern SSH.
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
sshd_require
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) ||
    { echo "media.sh: python3 missing" >&2; exit 1; }
CLP=$SRC/tests/integration/ilo-clp.py

T=$(mktemp -d /tmp/lab-media.XXXXXX)
harness_trap 'stop_sshd; rm -rf "$T"'
mkdir -p "$T/home/.ssh" "$T/s1" "$T/s2"
export HOME="$T/home" LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
# LAB_TEST_DB=postgres (on-pg.sh): a new PostgreSQL database instead
. "$SRC/tests/integration/pgsrv.sh"
LAB_DB=$(testdb "$T/lab.db")
PW="Lm-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-q7"

NAME=media.sh
. "$SRC/tests/integration/check.sh"
# the fixture's log of commands received, one per line
log() { cat "$T/s$1/log" 2>/dev/null || true; }
st() { cat "$T/s$1/$2" 2>/dev/null || true; }
clear_log() { : >"$T/s$1/log"; }

SSHD_ROOT_PASSWORD=$PW SSHD_CONFIG_EXTRA="KexAlgorithms diffie-hellman-group1-sha1
HostKeyAlgorithms ssh-dss
Ciphers aes128-cbc,3des-cbc
MACs hmac-sha1
ForceCommand $PY $CLP $T/s1" start_sshd 127.0.26.1 22 "$T/ilo1" dsa ||
    { echo "media.sh: the legacy iLO's sshd on 127.0.26.1:22 did not start" >&2
    exit 1; }
SSHD_ROOT_PASSWORD=$PW SSHD_CONFIG_EXTRA="ForceCommand $PY $CLP $T/s2" \
    start_sshd 127.0.26.2 22 "$T/ilo2" ed25519 ||
    { echo "media.sh: the iLO's sshd on 127.0.26.2:22 did not start" >&2
    exit 1; }
# dl2 has no ssh: block: its iLO's key is in the default known_hosts
cp "$T/ilo2/known_hosts" "$HOME/.ssh/known_hosts"

cat >"$T/credentials.yaml" <<END
ilo: {username: root, password: "$PW"}
rac: {username: admin, password: "$PW"}
END
chmod 600 "$T/credentials.yaml"
cat >"$T/lab.yaml" <<END
hosts:
  - name: neo
    model: hp-dl320-g5p
    bmc: {type: ilo2, address: 127.0.26.1, credential: ilo}
    ssh: {address: 192.0.2.30, known_hosts: $T/ilo1/known_hosts, legacy_crypto: true}
  - name: neo2
    model: hp-dl320-g5p
    bmc: {type: ilo2, address: 127.0.26.1, credential: ilo}
    ssh: {address: 192.0.2.31, known_hosts: $T/kh-neo2}
  - name: neo3
    model: hp-dl320-g5p
    bmc: {type: ilo2, address: 127.0.26.1, credential: ilo}
    ssh: {address: 192.0.2.32, known_hosts: $T/ilo1/known_hosts}
  - name: dl2
    model: hp-dl320-g5p
    bmc: {type: ilo2, address: 127.0.26.2, credential: ilo}
  - name: microserver1
    model: hp-microserver-n40l
    bmc: {type: rac, address: 192.0.2.21, credential: rac}
  - name: plain
    model: generic-server
    bmc: {type: ipmi, address: 192.0.2.22, credential: rac}
  - name: ml115
    model: hp-ml115-g5
END
"$LAB" import "$T/lab.yaml" >"$T/import.out" 2>&1 || {
	cat "$T/import.out" >&2
	fail "import"
}
U1=http://192.0.2.99/isos/debian-12.iso
U2=https://192.0.2.99/isos/debian-13.iso

# the fixture itself: the order is enforced, and power answers
sshd_ssh "$T/ilo2" 'vm cdrom set connect' >"$T/direct.out"
has direct.out "^status=2"
has direct.out "status_tag=COMMAND PROCESSING FAILED"
has direct.out "No image present in the Virtual Media drive."
sshd_ssh "$T/ilo2" 'power on' >/dev/null
sshd_ssh "$T/ilo2" 'power on' >"$T/direct.out"
has direct.out "Server power already on."
sshd_ssh "$T/ilo2" 'power' >"$T/direct.out"
has direct.out "server power is currently: On"
clear_log 2
ok

# status before: empty drive
run st0 media status neo dl2 --json
[ "$(rc st0)" = 0 ] || { cat "$T/st0.err" >&2; fail "status rc $(rc st0)"; }
has st0.out '"image": null'
has st0.out '"connected": false'
has st0.out '"boot": "never"'
has st0.out '"sent": \['
[ "$(log 1)" = "vm cdrom get" ] || fail "status sent more than get: $(log 1)"
ok

# insert --boot-once: get, insert, connect, boot_once, get, in that order
clear_log 1
run ins media insert neo "$U1" --boot-once
[ "$(rc ins)" = 0 ] || { cat "$T/ins.err" >&2; fail "insert rc $(rc ins)"; }
want="vm cdrom get
vm cdrom insert $U1
vm cdrom set connect
vm cdrom set boot_once
vm cdrom get"
[ "$(log 1)" = "$want" ] || fail "insert order: $(log 1)"
[ "$(st 1 url)" = "$U1" ] && [ "$(st 1 connected)" = 1 ] &&
    [ "$(st 1 boot)" = BOOT_ONCE ] || fail "fixture state after insert"
has ins.out "^neo  *$U1  *yes  *once  *inserted"
ok

# the same again changes nothing; status shows it
clear_log 1
run ins2 media insert neo "$U1" --boot-once --json
[ "$(rc ins2)" = 0 ] || fail "insert again rc $(rc ins2)"
[ "$(log 1)" = "vm cdrom get" ] || fail "insert again sent: $(log 1)"
has ins2.out '"note": "already inserted"'
has ins2.out '"changed": false'
run st1 media status neo --json
has st1.out "\"image\": \"$U1\""
has st1.out '"connected": true'
has st1.out '"boot": "once"'
has st1.out '"supported": true'
has st1.out '"bmc": "127.0.26.1:22"'
ok

# another image: the first is ejected first; without --boot-once the iLO
# boots from it always (connect means that)
clear_log 1
run ins3 media insert neo "$U2"
[ "$(rc ins3)" = 0 ] || { cat "$T/ins3.err" >&2; fail "replace rc"; }
want="vm cdrom get
vm cdrom eject
vm cdrom insert $U2
vm cdrom set connect
vm cdrom get"
[ "$(log 1)" = "$want" ] || fail "replace order: $(log 1)"
has ins3.out "inserted (ejected $U1)"
has ins3.out "always"
ok

# eject, and eject of an empty drive
clear_log 1
run ej media eject neo
[ "$(rc ej)" = 0 ] || fail "eject rc $(rc ej)"
[ "$(log 1)" = "vm cdrom get
vm cdrom eject
vm cdrom get" ] || fail "eject order: $(log 1)"
[ -z "$(st 1 url)" ] && [ "$(st 1 boot)" = NO_BOOT ] || fail "not ejected"
has ej.out "ejected"
clear_log 1
run ej2 media eject neo
[ "$(rc ej2)" = 0 ] || fail "eject of nothing rc $(rc ej2)"
has ej2.out "nothing inserted"
[ "$(log 1)" = "vm cdrom get" ] || fail "eject of nothing sent: $(log 1)"
ok

# the iLO refusing a step: what it answered, plainly, on one line
touch "$T/s1/drop"
clear_log 1
run wrong media insert neo "$U1" --boot-once
rm -f "$T/s1/drop"
[ "$(rc wrong)" = 1 ] || fail "refused insert rc $(rc wrong)"
has wrong.err "^lab: media insert: neo: after vm cdrom insert $U1: iLO 127.0.26.1:22 answered 'vm cdrom set connect' with status=2 COMMAND PROCESSING FAILED (COMMAND ERROR-UNSPECIFIED): No image present in the Virtual Media drive.$"
[ "$(wc -l <"$T/wrong.err")" = 1 ] || fail "refusal: more than one line"
[ ! -s "$T/wrong.out" ] || fail "refusal printed a table"
log 1 | grep -q boot_once && fail "boot_once sent after a refusal"
ok

# the Java applet holding the drive: nothing is sent but "get"
echo Connected >"$T/s2/applet"
clear_log 2
run applet media insert dl2 "$U1"
rm -f "$T/s2/applet"
[ "$(rc applet)" = 1 ] || fail "applet rc $(rc applet)"
has applet.err "Virtual Media applet holds the CD-ROM"
[ "$(log 2)" = "vm cdrom get" ] || fail "applet: sent $(log 2)"
ok

# RAC and plain IPMI: one line each, nothing contacted; status lists them
for h in microserver1 plain; do
	run "rac-$h" media insert "$h" "$U1" --boot-once
	[ "$(rc "rac-$h")" = 1 ] || fail "$h insert rc $(rc "rac-$h")"
	[ "$(wc -l <"$T/rac-$h.err")" = 1 ] || fail "$h: not one line"
	[ ! -s "$T/rac-$h.out" ] || fail "$h: printed a table"
	has "rac-$h.err" "no scriptable virtual media"
	has "rac-$h.err" "'lab boot $h pxe', or 'lab boot $h cdrom' with a physical or USB disc"
done
has rac-microserver1.err "^lab: media insert: microserver1: the Remote Access Card has no scriptable"
has rac-plain.err "^lab: media insert: plain: a plain IPMI BMC has no scriptable"
run rac-ej media eject microserver1
[ "$(rc rac-ej)" = 1 ] || fail "rac eject rc"
run rac-st media status microserver1 plain ml115 --json
[ "$(rc rac-st)" = 0 ] || fail "status of unsupported rc $(rc rac-st)"
[ "$(grep -c '"supported": false' "$T/rac-st.out")" = 3 ] ||
    fail "status: not 3 unsupported"
run rac-st2 media status microserver1 ml115
has rac-st2.out "microserver1 .*no scriptable virtual media"
has rac-st2.out "ml115 .*no BMC recorded"
ok

# legacy algorithms only for a host that opts in: neo2 and neo3 reach the
# same old iLO as neo without legacy_crypto and are refused: the handshake
# finds no common algorithm (and names it), and a known ssh-dss key is not
# trusted either
: >"$T/kh-neo2"
clear_log 1
run legacy media status neo2 --accept-new
[ "$(rc legacy)" = 1 ] || fail "no legacy opt-in rc $(rc legacy)"
has legacy.err "^lab: media status: neo2: .*no common key exchange algorithm"
has legacy.err "diffie-hellman-group1-sha1"
has legacy.err "legacy_crypto: true"
[ ! -s "$T/kh-neo2" ] || fail "a legacy host key was added"
run legacy3 media status neo3
[ "$(rc legacy3)" = 1 ] || fail "no legacy opt-in (dss key) rc $(rc legacy3)"
has legacy3.err "^lab: media status: neo3: .*ssh-dss.*legacy_crypto"
[ -z "$(log 1)" ] || fail "a command reached the iLO without legacy_crypto"
ok

# the default known_hosts, an unknown host key, --accept-new
run dl2 media status dl2
[ "$(rc dl2)" = 0 ] || { cat "$T/dl2.err" >&2; fail "default known_hosts"; }
: >"$HOME/.ssh/known_hosts"
run unk media status dl2
[ "$(rc unk)" = 1 ] || fail "unknown host key rc $(rc unk)"
has unk.err "dl2: .*127.0.26.2"
run acc media status dl2 --accept-new
[ "$(rc acc)" = 0 ] || { cat "$T/acc.err" >&2; fail "--accept-new"; }
grep -q "^127.0.26.2 " "$HOME/.ssh/known_hosts" ||
    fail "--accept-new did not add the key"
ok

# dry run: nothing contacted, nothing audited; bad URLs refused
clear_log 1
run dry media insert neo "$U1" --boot-once --dry-run
[ "$(rc dry)" = 0 ] || fail "dry run rc $(rc dry)"
has dry.out "would send: vm cdrom get"
[ -z "$(log 1)" ] || fail "dry run contacted the iLO"
run badurl media insert neo ftp://192.0.2.99/x.iso
[ "$(rc badurl)" = 2 ] || fail "ftp URL rc $(rc badurl)"
has badurl.err "must start with http:// or https://"
run badurl2 media insert neo "http://192.0.2.99/a b.iso"
[ "$(rc badurl2)" = 2 ] || fail "URL with a space rc $(rc badurl2)"
ok

# the audit log: inserts and ejects with their results, not status
run alog log --json
has alog.out "\"argv\": \"lab media insert --boot-once neo $U1\""
has alog.out '"argv": "lab media eject neo"'
has alog.out "\"message\": \"neo: after vm cdrom insert $U1: iLO 127.0.26.1:22 answered"
has alog.out '"message": "microserver1: the Remote Access Card has no scriptable'
grep -q '"command": "media status"' "$T/alog.out" && fail "status audited"
grep -q 'dry-run' "$T/alog.out" && fail "dry run audited"
ok

# the password is in no output, log or database
testdb_dump "$LAB_DB" "$T/lab.db" || fail "pg_dump"
if grep -rlF -- "$PW" "$T"/*.out "$T"/*.err "$T/lab.db" "$T/s1/log" \
    "$T/s2/log" 2>/dev/null; then
	fail "the password leaked"
fi
ok

echo "$NAME: $n groups of checks passed"
