#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ssh: lib/ssh/ against real OpenSSH servers on 127.0.20.x (sshd.sh),
# through the ssh-probe driver. Usage: ssh.sh PROBE SOURCE_ROOT
# Exit 0 all passed, 1 a check failed, 77 sshd missing (skip).

PROBE=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
sshd_require
# Under AddressSanitizer: full stacks through libcrypto (it has no frame
# pointers), so that lsan.supp can name the libssh2 1.10 leak it hides.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
LSAN_OPTIONS="$LSAN_OPTIONS:suppressions=$SRC/tests/integration/lsan.supp"
export ASAN_OPTIONS LSAN_OPTIONS

T=$(mktemp -d /tmp/lab-ssh.XXXXXX) || exit 1
agent_pid=
hole_pid=
cleanup()
{
	[ -z "$agent_pid" ] || kill "$agent_pid" 2>/dev/null || :
	[ -z "$hole_pid" ] || kill "$hole_pid" 2>/dev/null || :
	# commands the tests left running (their sshd was killed)
	for f in "$T/sleep.pid" "$T/orphan.pid"; do
		[ ! -s "$f" ] || kill "$(cat "$f")" 2>/dev/null || :
	done
	stop_sshd
	rm -rf "$T"
}
harness_trap cleanup

PORT=2222
A1=127.0.20.1		# ed25519 + ecdsa host keys, root by key
A3=127.0.20.3		# an HP iLO 2 imitation: only legacy algorithms
A4=127.0.20.4		# key exchange diffie-hellman-group14-sha1 only
A5=127.0.20.5		# root by password
A6=127.0.20.6		# root by keyboard-interactive (PAM)
HOLE=127.0.20.9		# accepts TCP connections, never speaks SSH
PASSWORD=pw-$$-secret
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

# probe [OPTIONS] ADDRESS VERB [ARGS]: port $PORT (or $PROBE_PORT); sets
# rc, output in
# $T/out and $T/err, the command's in $T/cmd.out and $T/cmd.err.
probe()
{
	_opts=
	while :; do
		case $1 in
		-[lkiutTIj]) _opts="$_opts $1 $2"; shift 2 ;;
		-[AL]) _opts="$_opts $1"; shift ;;
		*) break ;;
		esac
	done
	_a=$1
	shift
	rm -f "$T/cmd.out" "$T/cmd.err"
	# shellcheck disable=SC2086
	"$PROBE" $_opts -O "$T/cmd.out" -E "$T/cmd.err" "$_a" \
	    "${PROBE_PORT:-$PORT}" "$@" \
	    >"$T/out" 2>"$T/err"
	rc=$?
}

# h1 [OPTIONS] VERB [ARGS]: to h1 with its key and known_hosts.
h1()
{
	_h1o=
	while :; do
		case $1 in
		-[lkiutTIj]) _h1o="$_h1o $1 $2"; shift 2 ;;
		-[AL]) _h1o="$_h1o $1"; shift ;;
		*) break ;;
		esac
	done
	# shellcheck disable=SC2086
	probe -l h1 -i "$T/h1/id_ed25519" -k "$T/h1/known_hosts" $_h1o \
	    "$A1" "$@"
}

# expect_ok DESC [STDOUT-LINE]: rc 0 and, if given, that exact line.
expect_ok()
{
	if [ "$rc" -ne 0 ]; then
		not_ok "$1 (exit $rc)"
	elif [ $# -ge 2 ] && ! grep -qxF -- "$2" "$T/out"; then
		not_ok "$1 (no line '$2')"
	else
		ok "$1"
	fi
}

# expect_err DESC CODE TEXT...: exit CODE and each TEXT in the message.
expect_err()
{
	_desc=$1
	_code=$2
	shift 2
	if [ "$rc" -ne "$_code" ]; then
		not_ok "$_desc (exit $rc, want $_code)"
		return
	fi
	for _t; do
		if ! grep -qF -- "$_t" "$T/err"; then
			not_ok "$_desc (no '$_t' in the message)"
			return
		fi
	done
	ok "$_desc: $(sed 's/^ssh-probe: //' "$T/err")"
}

# check DESC COMMAND...: the command must succeed.
check()
{
	_desc=$1
	shift
	if "$@"; then
		ok "$_desc"
	else
		not_ok "$_desc"
	fi
}

# fp PUBFILE: the SHA256 fingerprint OpenSSH prints for a public key.
fp()
{
	ssh-keygen -lf "$1" | awk '{ print $2 }'
}

# wait_file FILE: polls (10 s at most) until FILE is not empty.
wait_file()
{
	_end=$(($(date +%s) + 10))
	while [ ! -s "$1" ]; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.02
	done
}

# ---- servers -----------------------------------------------------------
start_sshd "$A1" "$PORT" "$T/h1" ed25519 ecdsa || exit 1
SSHD_CONFIG_EXTRA='KexAlgorithms diffie-hellman-group1-sha1
HostKeyAlgorithms ssh-dss
Ciphers aes128-cbc,3des-cbc
MACs hmac-sha1' start_sshd "$A3" "$PORT" "$T/h3" dsa || exit 1
SSHD_CONFIG_EXTRA='KexAlgorithms diffie-hellman-group14-sha1' \
    start_sshd "$A4" "$PORT" "$T/h4" ed25519 || exit 1
SSHD_ROOT_PASSWORD=$PASSWORD start_sshd "$A5" "$PORT" "$T/h5" ed25519 ||
    exit 1
SSHD_ROOT_PASSWORD=$PASSWORD SSHD_PASSWORD_AUTH=keyboard-interactive \
    start_sshd "$A6" "$PORT" "$T/h6" ed25519 || exit 1
FP1=$(fp "$T/h1/ssh_host_ed25519_key.pub")
FP1EC=$(fp "$T/h1/ssh_host_ecdsa_key.pub")

# ---- exec ----------------------------------------------------------------
h1 exec 'echo to-stdout; echo to-stderr >&2'
expect_ok "exec: exit status 0" "exit: 0"
check "exec: stdout captured alone" \
    [ "$(cat "$T/cmd.out")" = to-stdout ]
check "exec: stderr captured alone" \
    [ "$(cat "$T/cmd.err")" = to-stderr ]
expect_ok "exec: host key checked (ed25519 first)" \
    "hostkey: ssh-ed25519 $FP1 known"

h1 exec 'echo partial; exit 7'
expect_ok "exec: exit status 7 is a result, not an error" "exit: 7"

h1 exec 'kill -TERM $$'
expect_ok "exec: a command killed by a signal" "signal: TERM"

printf 'one\ntwo\nthree\n' >"$T/in"
h1 -I "$T/in" exec 'tr a-z A-Z'
expect_ok "exec: stdin fed and closed" "exit: 0"
check "exec: stdin came back through the command" \
    [ "$(cat "$T/cmd.out")" = "$(printf 'ONE\nTWO\nTHREE')" ]

head -c 3000000 /dev/urandom >"$T/big"
h1 -I "$T/big" exec 'sha256sum >&2; head -c 1048000 /dev/zero'
expect_ok "exec: 3 MB in, 1 MB out" "exit: 0"
check "exec: the 3 MB arrived intact" \
    [ "$(head -c 64 "$T/cmd.err")" = \
    "$(sha256sum <"$T/big" | head -c 64)" ]
check "exec: the 1 MB came back whole" \
    [ "$(wc -c <"$T/cmd.out")" -eq 1048000 ]
# more than LAB_SSH_OUTPUT_CAP (1 MiB): the last 1 MiB, and the size
h1 exec 'head -c 4000000 /dev/zero; echo end'
expect_ok "exec: 4 MB out" "out: 4000004 bytes, the last 1048576 kept"
check "exec: 1 MiB of the 4 MB kept" [ "$(wc -c <"$T/cmd.out")" -eq 1048576 ]
check "exec: the last 1 MiB" [ "$(tail -c 4 "$T/cmd.out")" = end ]

h1 -j 8 exec 'echo parallel'
if [ "$rc" -eq 0 ] && [ "$(grep -c ': exit: 0$' "$T/out")" -eq 8 ]; then
	ok "exec: 8 connections at once through lab_fanout"
else
	not_ok "exec: 8 connections at once through lab_fanout"
fi

# ---- upload --------------------------------------------------------------
mkdir -p "$T/files"
printf 'first\n' >"$T/up1"
h1 -I "$T/up1" upload "$T/files/cfg" 0640
expect_ok "upload: new file" "uploaded: 6 bytes"
check "upload: content on disk" [ "$(cat "$T/files/cfg")" = first ]
check "upload: mode 0640 on disk" \
    [ "$(stat -c %a "$T/files/cfg")" = 640 ]
ino=$(stat -c %i "$T/files/cfg")
head -c 4096 /dev/urandom >"$T/up2"
h1 -I "$T/up2" upload "$T/files/cfg" 0664
expect_ok "upload: replaces a file" "uploaded: 4096 bytes"
check "upload: replaced content on disk" cmp -s "$T/up2" "$T/files/cfg"
check "upload: mode 0664 set past sshd's umask 022" \
    [ "$(stat -c %a "$T/files/cfg")" = 664 ]
check "upload: replaced by rename (a new inode), not rewritten in place" \
    [ "$(stat -c %i "$T/files/cfg")" != "$ino" ]
check "upload: no temporary file left" [ ! -e "$T/files/cfg.lab-tmp" ]
h1 -I "$T/up1" upload "$T/files/missing/cfg" 0644
expect_err "upload: into a missing folder" 1 "$T/files/missing/cfg.lab-tmp" \
    "no such file"
check "upload: nothing written after the failure" [ ! -e "$T/files/missing" ]

# ---- host keys -------------------------------------------------------------
: >"$T/kh-empty"
h1 -k "$T/kh-empty" connect
expect_err "host key: unknown key refused" 3 "unknown host key ssh-ed25519" \
    "$FP1" "--accept-new" "ssh-keyscan -p $PORT -t ed25519 $A1"
check "host key: refused key not written" [ ! -s "$T/kh-empty" ]

rm -f "$T/kh-new"
h1 -A -k "$T/kh-new" connect
expect_ok "host key: --accept-new adds an unknown key" \
    "hostkey: ssh-ed25519 $FP1 added"
check "host key: the added line" grep -qx \
    "\[$A1\]:$PORT $(cut -d' ' -f1,2 "$T/h1/ssh_host_ed25519_key.pub")" \
    "$T/kh-new"
h1 -k "$T/kh-new" connect
expect_ok "host key: the added key is known the next time" \
    "hostkey: ssh-ed25519 $FP1 known"

ssh-keygen -q -t ed25519 -N '' -C other -f "$T/other" </dev/null
printf '# a comment\n[%s]:%s %s\n' "$A1" "$PORT" \
    "$(cut -d' ' -f1,2 "$T/other.pub")" >"$T/kh-changed"
cp "$T/kh-changed" "$T/kh-changed.orig"
h1 -A -k "$T/kh-changed" connect
expect_err "host key: a changed key is refused, even with --accept-new" 3 \
    "CHANGED" "$T/kh-changed:2" "$(fp "$T/other.pub")" "$FP1"
check "host key: the file is left as it was" \
    cmp -s "$T/kh-changed" "$T/kh-changed.orig"

sshd_known_line "$T/h1" ed25519 >"$T/kh-ed25519"
h1 -k "$T/kh-ed25519" connect
expect_ok "host key: ed25519-only known_hosts, server with ecdsa too" \
    "hostkey: ssh-ed25519 $FP1 known"
sshd_known_line "$T/h1" ecdsa >"$T/kh-ecdsa"
h1 -k "$T/kh-ecdsa" connect
expect_ok "host key: ecdsa-only known_hosts gets the ecdsa key" \
    "hostkey: ecdsa-sha2-nistp256 $FP1EC known"

ssh-keyscan -H -p "$PORT" -t ed25519 "$A1" >"$T/kh-hashed" 2>/dev/null
if grep -q '^|1|' "$T/kh-hashed"; then
	h1 -k "$T/kh-hashed" connect
	expect_ok "host key: hashed entry (ssh-keyscan -H)" \
	    "hostkey: ssh-ed25519 $FP1 known"
else
	not_ok "host key: ssh-keyscan -H wrote no hashed line"
fi

printf '%s %s\n' "$A1" "$(cut -d' ' -f1,2 \
    "$T/h1/ssh_host_ed25519_key.pub")" >"$T/kh-noport"
h1 -k "$T/kh-noport" connect
expect_err "host key: an entry without the port is not this port's" 3 \
    "unknown host key" "[$A1]:$PORT is not in"

{
	echo 'garbage line'
	echo "[$A1]:$PORT sk-ssh-ed25519@openssh.com AAAAnotakey"
	echo "@cert-authority *.example ssh-ed25519 AAAAnotakey"
	cat "$T/kh-ed25519"
} >"$T/kh-noisy"
h1 -k "$T/kh-noisy" connect
expect_ok "host key: lines libssh2 cannot parse are skipped" \
    "hostkey: ssh-ed25519 $FP1 known"

{
	printf '@revoked '
	cat "$T/kh-ed25519"
	cat "$T/kh-ed25519"
} >"$T/kh-revoked"
h1 -k "$T/kh-revoked" connect
expect_err "host key: a @revoked key is refused" 3 "@revoked" "$FP1"

# ---- failures ----------------------------------------------------------------
h1 -T 3000 exec "echo \$\$ >$T/sleep.pid; exec sleep 60"
expect_err "timeout: a command past its timeout" 1 \
    "h1: ssh $A1:$PORT: timed out after 3000 ms running a command"
wait_file "$T/sleep.pid" && kill "$(cat "$T/sleep.pid")" 2>/dev/null

(
	h1 exec "echo \$\$ >$T/orphan.pid; echo \$PPID >$T/kill.pid;
	    echo started; exec sleep 60"
	exit "$rc"
) &
probe_pid=$!
if wait_file "$T/kill.pid"; then
	# the connection's sshd process, the command's parent
	kill -KILL "$(cat "$T/kill.pid")"
	wait "$probe_pid"
	rc=$?
	expect_err "sshd killed mid-command: an error naming the host" 1 \
	    "h1: ssh $A1:$PORT: connection lost while running a command"
	check "sshd killed mid-command: no exit status reported" \
	    sh -c "! grep -q '^exit:' '$T/out'"
else
	wait "$probe_pid"
	not_ok "sshd killed mid-command: the command never started"
fi
h1 exec true
expect_ok "sshd killed mid-command: the server takes new connections" \
    "exit: 0"

PROBE_PORT=2299 probe -l h1 -i "$T/h1/id_ed25519" -k "$T/h1/known_hosts" \
    "$A1" connect
expect_err "closed port: names the address and port" 1 \
    "h1: ssh $A1:2299: cannot connect: Connection refused"

python3 -c '
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(8)
print("ready", flush=True)
time.sleep(120)' "$HOLE" "$PORT" >"$T/hole.out" 2>&1 &
hole_pid=$!
harness_track hole "$hole_pid"
if wait_file "$T/hole.out"; then
	probe -l hole -t 1000 -i "$T/h1/id_ed25519" -k "$T/h1/known_hosts" \
	    "$HOLE" connect
	expect_err "connect timeout: a server that never speaks SSH" 1 \
	    "hole: ssh $HOLE:$PORT: timed out after 1000 ms in the SSH handshake"
else
	not_ok "connect timeout: the silent listener did not start"
fi

# ---- legacy algorithms ---------------------------------------------------------
probe -l ilo -i "$T/h3/id_ed25519" -k "$T/h3/known_hosts" "$A3" connect
expect_err "legacy: a known ssh-dss key needs legacy_crypto" 3 \
    "holds only ssh-dss keys" "legacy_crypto"
probe -l ilo -A -i "$T/h3/id_ed25519" -k "$T/kh-ilo" "$A3" connect
expect_err "legacy: iLO-like server refused, the algorithm named" 1 \
    "no common key exchange algorithm" "diffie-hellman-group1-sha1" \
    "set ssh: {legacy_crypto: true} for this host"
check "legacy: nothing added to known_hosts" [ ! -s "$T/kh-ilo" ]
probe -l ilo -L -i "$T/h3/id_ed25519" -k "$T/h3/known_hosts" "$A3" \
    exec 'echo legacy'
expect_ok "legacy: group1-sha1, ssh-dss, aes128-cbc, hmac-sha1 with -L" \
    "exit: 0"

probe -l g14 -i "$T/h4/id_ed25519" -k "$T/h4/known_hosts" "$A4" connect
expect_err "legacy: group14-sha1-only server refused, the algorithm named" 1 \
    "g14: ssh $A4:$PORT: no common key exchange algorithm" \
    "diffie-hellman-group14-sha1" "legacy_crypto: true"
probe -l g14 -L -i "$T/h4/id_ed25519" -k "$T/h4/known_hosts" "$A4" connect
expect_ok "legacy: group14-sha1 with legacy_crypto"

# ---- authentication ------------------------------------------------------------
LAB_TEST_PASSWORD=$PASSWORD probe -l pw -k "$T/h5/known_hosts" "$A5" \
    exec 'echo by-password'
expect_ok "auth: password" "exit: 0"
LAB_TEST_PASSWORD=wrong-$PASSWORD probe -l pw -k "$T/h5/known_hosts" "$A5" \
    connect
expect_err "auth: a wrong password" 1 "authentication as 'root' failed" \
    "password was refused"
check "auth: the password is in no message" \
    sh -c "! grep -qF -- '$PASSWORD' '$T/err' '$T/out'"
LAB_TEST_PASSWORD=$PASSWORD probe -l kbd -k "$T/h6/known_hosts" "$A6" \
    exec 'echo by-kbd'
expect_ok "auth: keyboard-interactive" "exit: 0"
LAB_TEST_PASSWORD=wrong probe -l kbd -k "$T/h6/known_hosts" "$A6" connect
expect_err "auth: keyboard-interactive, wrong password" 1 \
    "(the server takes publickey,keyboard-interactive)" "refused"

ssh-keygen -q -t rsa -b 2048 -N '' -C rsa -f "$T/rsa" </dev/null
cat "$T/rsa.pub" >>"$T/h1/authorized_keys"
h1 -i "$T/rsa" connect
expect_err "auth: an RSA key refused, with the libssh2 1.10 reason" 1 \
    "the RSA key $T/rsa was refused" "use an ed25519 or ecdsa key"

ssh-keygen -q -t ecdsa -N 'phrase' -C enc -f "$T/enc" </dev/null
cat "$T/enc.pub" >>"$T/h1/authorized_keys"
LAB_TEST_PASSPHRASE=phrase h1 -i "$T/enc" connect
expect_ok "auth: an encrypted ecdsa key with its passphrase"
LAB_TEST_PASSPHRASE=nope h1 -i "$T/enc" connect
expect_err "auth: a wrong passphrase" 3 "cannot use the key file $T/enc" \
    "wrong passphrase"
h1 -i "$T/nokey" connect
expect_err "auth: a missing key file" 3 "cannot read the key file $T/nokey"

SSH_AUTH_SOCK= probe -l h1 -k "$T/h1/known_hosts" "$A1" connect
expect_err "auth: no key file and no agent" 3 "no ssh-agent"
eval "$(ssh-agent -s -a "$T/agent.sock")" >/dev/null
agent_pid=$SSH_AGENT_PID
harness_track ssh-agent "$agent_pid"
ssh-add -q "$T/h1/id_ed25519" 2>/dev/null
probe -l h1 -k "$T/h1/known_hosts" "$A1" exec 'echo by-agent'
expect_ok "auth: ssh-agent" "exit: 0"

if [ "$failed" -gt 0 ]; then
	echo "# $failed failed"
	exit 1
fi
echo "# all passed"
exit 0
