#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Files lab writes and reads, given by careless hands (issue 16, items 1
# and 11): --out to a device node, a FIFO, a symlink, a file of mode
# 0640; --db on a device node; a FIFO as the credentials file, an
# inventory, the config file, a layout or console --log; a credentials
# file or a log of another user; and no readable /proc (no core dump) of
# a lab holding a password. The device nodes are made with mknod in the
# test's own folder, never /dev. Each FIFO case has a wall deadline
# (timeout 10) and an address-space bound (prlimit). Needs root (mknod,
# chown, setpriv, mount: a tmpfs of its own that allows device nodes). Its addresses: 127.0.61.x.
# sh files.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
missing=
[ "$(id -u)" = 0 ] || missing="root"
for p in python3 setpriv mknod prlimit timeout mount mountpoint; do
	command -v $p >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "files.sh: needs$missing (packages python3, util-linux," \
	    "coreutils)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi

. "$SRC/tests/integration/harness.sh"
T=$(mktemp -d /tmp/lab-files.XXXXXX)
peer=
held=
cleanup() {
	[ -z "$held" ] || kill -KILL "$held" 2>/dev/null
	[ -z "$peer" ] || kill -TERM "$peer" 2>/dev/null
	if mountpoint -q "$T"; then
		umount "$T" 2>/dev/null || umount -l "$T"
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
# a tmpfs of its own, mounted "dev": /tmp may be nodev, where a device
# node cannot be opened
mount -t tmpfs -o dev,size=16m,mode=755 lab-files "$T" ||
	{ echo "files.sh: cannot mount a tmpfs on $T" >&2; exit 1; }
NAME=files.sh
. "$SRC/tests/integration/check.sh"
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
unset LAB_CONFIG
# 1 GiB of address space; none under ASan, which maps terabytes of shadow
AS="--as=1073741824"
if nm "$LAB" 2>/dev/null | grep -q __asan_init ||
    nm -D "$LAB" 2>/dev/null | grep -q __asan_init; then
	AS=
fi
# bounded NAME ARGS...: run, within 10 s and the address-space bound
bounded() {
	_name=$1
	shift
	_rc=0
	# shellcheck disable=SC2086 # AS is one word or none
	timeout -s KILL 10 prlimit $AS -- "$LAB" "$@" >"$T/$_name.out" \
	    2>"$T/$_name.err" || _rc=$?
	echo "$_rc" >"$T/$_name.rc"
	[ "$_rc" != 137 ] || fail "$_name: still running after 10 s"
}
# says NAME RC WORDS: the exit code and the error
says() {
	[ "$(rc "$1")" = "$2" ] || { cat "$T/$1.err" >&2; \
	    fail "$1: exit $(rc "$1"), want $2"; }
	has "$1.err" "$3"
}

PASSWORD="Fx-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-q1"
cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "$PASSWORD"}
END
chmod 600 "$T/credentials.yaml"
cat >"$T/lab.yaml" <<END
hosts:
  - {name: b1, model: generic-server, bmc: {type: ipmi, address: 127.0.61.2, credential: admin}}
  - {name: d1, model: generic-server, disks: [{slot: "1", kind: sata, size: 4T}, {slot: "2", kind: sata, size: 4T}]}
END
run imp import "$T/lab.yaml"
[ "$(rc imp)" = 0 ] || { cat "$T/imp.err" >&2; fail "import"; }

# --- item 1: --out ----------------------------------------------------
mknod "$T/null" c 1 3
mknod "$T/full" c 1 7
mkfifo "$T/fifo"
chmod 0620 "$T/null"
run onull report --out "$T/null"
[ "$(rc onull)" = 0 ] || fail "--out null: exit $(rc onull)"
[ -c "$T/null" ] || fail "--out replaced the device node null: $(ls -l "$T/null")"
[ "$(stat -c %a "$T/null")" = 620 ] || fail "null's mode changed"
for f in "$T"/null.*; do
	[ ! -e "$f" ] || fail "a temp file left beside null: $f"
done
ok

run ofull report --out "$T/full"
says ofull 3 "cannot write '$T/full': No space left on device"
[ -c "$T/full" ] || fail "--out replaced the device node full"
ok

# a FIFO without a reader: an error, not a wait
bounded ofifo report --out "$T/fifo"
says ofifo 3 "'$T/fifo': a FIFO with no reader"
[ -p "$T/fifo" ] || fail "--out replaced the FIFO"
# with a reader, the report goes through it
cat "$T/fifo" >"$T/fifo.got" &
held=$!
harness_track cat "$held"
bounded ofifo2 report --out "$T/fifo"
[ "$(rc ofifo2)" = 0 ] || { cat "$T/ofifo2.err" >&2; fail "--out fifo with a reader"; }
wait "$held" || :
held=
[ -p "$T/fifo" ] || fail "--out replaced the FIFO that had a reader"
[ -s "$T/fifo.got" ] || fail "the FIFO's reader got nothing"
ok

# a regular file keeps its mode and its owner; a symlink is followed and
# stays a link
echo old >"$T/rep.txt"
chmod 0640 "$T/rep.txt"
chown 65534:65534 "$T/rep.txt"
ln -s rep.txt "$T/rep.lnk"
run oreg report --out "$T/rep.lnk"
[ "$(rc oreg)" = 0 ] || { cat "$T/oreg.err" >&2; fail "--out regular"; }
[ -L "$T/rep.lnk" ] || fail "--out replaced the symlink"
[ "$(stat -c '%a %u %g' "$T/rep.txt")" = "640 65534 65534" ] ||
	fail "--out changed the file's mode or owner: $(ls -l "$T/rep.txt")"
grep -q old "$T/rep.txt" && fail "--out did not write through the symlink"
# a new file is 0644
run onew report --out "$T/new.txt"
[ "$(rc onew)" = 0 ] || fail "--out new: exit $(rc onew)"
[ "$(stat -c %a "$T/new.txt")" = 644 ] || fail "a new --out file is not 0644"
# a dangling symlink is refused (a rename would replace the link)
ln -s nowhere "$T/dangling"
run odang report --out "$T/dangling"
says odang 3 "a symlink to a missing file"
[ -L "$T/dangling" ] || fail "--out replaced the dangling symlink"
ok

# --- item 1: --db on a device node: no journal beside it --------------
mkdir "$T/dbdev"
mknod "$T/dbdev/null" c 1 3
run dbdev --db "$T/dbdev/null" report
says dbdev 3 "database '$T/dbdev/null': not a regular file (a character device)"
[ "$(ls "$T/dbdev")" = null ] || fail "files beside the --db device: $(ls "$T/dbdev")"
[ -c "$T/dbdev/null" ] || fail "--db replaced the device"
ok

# --- item 11: FIFOs read as files -------------------------------------
mkfifo "$T/rfifo"	# its own: a --out above may have replaced fifo
bounded fcred --credentials "$T/rfifo" power status b1
says fcred 3 "$T/rfifo: not a regular file (a FIFO)"
bounded finv import "$T/rfifo"
says finv 2 "$T/rfifo: not a regular file (a FIFO)"
mkdir "$T/invdir"
mkfifo "$T/invdir/a.yaml"
bounded finvd import "$T/invdir"
says finvd 2 "$T/invdir/a.yaml: not a regular file (a FIFO)"
LAB_CONFIG="$T/rfifo" bounded fconf ls hosts
says fconf 3 "$T/rfifo: not a regular file (a FIFO)"
mkfifo "$T/layout.yaml"
bounded flay provision d1 --layout "$T/layout.yaml"
says flay 2 "$T/layout.yaml: not a regular file (a FIFO)"
# a character device is not read either
mknod "$T/rnull" c 1 3
bounded ccred --credentials "$T/rnull" power status b1
says ccred 3 "$T/rnull: not a regular file (a character device)"
ok

# console --log: a FIFO, a symlink, another user's file
bounded flog console b1 --log "$T/rfifo"
says flog 3 "cannot open the log '$T/rfifo': not a regular file (a FIFO)"
echo theirs >"$T/their.log"
chown 65534:65534 "$T/their.log"
chmod 0666 "$T/their.log"
ln -s their.log "$T/log.lnk"
bounded llog console b1 --log "$T/log.lnk"
says llog 3 "cannot open the log '$T/log.lnk': a symlink"
bounded olog console b1 --log "$T/their.log"
says olog 3 "cannot open the log '$T/their.log': it belongs to uid 65534"
[ "$(cat "$T/their.log")" = theirs ] || fail "the other user's log was written"
ok

# --- item 11: the credentials file's owner ----------------------------
cp "$T/credentials.yaml" "$T/their-cred.yaml"
chown 65534:65534 "$T/their-cred.yaml"
chmod 600 "$T/their-cred.yaml"
bounded ocred --credentials "$T/their-cred.yaml" power status b1
says ocred 3 "credentials file '$T/their-cred.yaml' belongs to uid 65534"
grep -q "$PASSWORD" "$T/ocred.out" "$T/ocred.err" && fail "password shown"
ok

# --- item 11: no core dump while the password is in memory ------------
# A silent BMC (it reads, never answers) keeps lab waiting with the
# password loaded: a non-dumpable process has its /proc files owned by
# root (proc(5)), a dumpable one by its user.
mkdir "$T/nb"
cp "$T/credentials.yaml" "$T/nb/credentials.yaml"
cp "$T/lab.db" "$T/nb/lab.db"
chown -R 65534:65534 "$T/nb"
python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.61.2", 623))
open(sys.argv[1], "w").close()
while True:
    s.recvfrom(4096)
    open(sys.argv[2], "w").close()
' "$T/peer.up" "$T/peer.got" &
peer=$!
harness_track silent-bmc "$peer"
i=0
while [ ! -e "$T/peer.up" ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "the silent BMC did not start"
	sleep 0.1
done
# setpriv itself in the background, not a function: $! is its PID
setpriv --reuid=65534 --regid=65534 --clear-groups sleep 30 &
held=$!
harness_track sleep "$held"
i=0
until [ "$(cat "/proc/$held/comm" 2>/dev/null)" = sleep ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "setpriv did not run sleep"
	sleep 0.1
done
[ "$(stat -c %u "/proc/$held/status")" = 65534 ] ||
	fail "the check cannot tell: a dumpable process of nobody's is not nobody's in /proc"
kill "$held"
wait "$held" 2>/dev/null || :
setpriv --reuid=65534 --regid=65534 --clear-groups "$LAB" --db "$T/nb/lab.db" \
    --credentials "$T/nb/credentials.yaml" power status b1 --timeout 20 >"$T/nd.out" 2>"$T/nd.err" &
held=$!
harness_track lab "$held"
i=0
while [ ! -e "$T/peer.got" ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || { cat "$T/nd.err" >&2; fail "lab sent nothing to the silent BMC"; }
	sleep 0.1
done
owner=$(stat -c %u "/proc/$held/status")
kill "$held"
wait "$held" 2>/dev/null || :
held=
[ "$owner" = 0 ] || fail "lab holding a password is dumpable (its /proc is uid $owner's)"
ok

echo "files.sh: $n groups of checks passed"
