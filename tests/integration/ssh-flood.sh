#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# SSH peers that flood, on 127.0.62.0/24: a server sending lines without
# end before any version line (.1), one dripping a byte every 100 ms
# (.2), one with other lines before its version line (.3, RFC 4253 4.2,
# relayed to the sshd on .10), a command printing without end (.10), an
# iLO 2 command line answering without end (.20, lab media status) and a
# provisioning step printing 96 MiB (.30). Each run of lab or the probe
# has a wall deadline, a bound on its peak memory (VmHWM sampled from
# /proc; with prlimit --as too unless built with AddressSanitizer), must
# fail naming the host and the cause, and records nothing as a success.
# sh ssh-flood.sh LAB PROBE SRCDIR
set -eu
LAB=$1
PROBE=$2
SRC=$3
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/sshd.sh"
sshd_require
for p in python3 sqlite3 prlimit; do
	command -v $p >/dev/null 2>&1 && continue
	echo "ssh-flood.sh: no $p (packages python3, sqlite3, util-linux)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
done
PY=$(command -v python3)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
LSAN_OPTIONS="$LSAN_OPTIONS:suppressions=$SRC/tests/integration/lsan.supp"
export ASAN_OPTIONS LSAN_OPTIONS

T=$(mktemp -d /tmp/lab-ssh-flood.XXXXXX)
bg=
cleanup() {
	[ -z "$bg" ] || kill -KILL "$bg" 2>/dev/null || :
	for f in "$T"/peer-*.pid; do
		[ ! -s "$f" ] || kill "$(cat "$f")" 2>/dev/null || :
	done
	stop_sshd
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup
mkdir -p "$T/home/.ssh" "$T/ilo"
export HOME="$T/home" LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml"
export XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
NAME=ssh-flood.sh
. "$SRC/tests/integration/check.sh"

CAP=1048576		# LAB_SSH_OUTPUT_CAP
WALL=60			# s: a hang, not a timing (every deadline is <= 10 s)
HWM_KB=65536		# peak resident memory allowed, KiB
AS=1073741824		# prlimit --as, bytes (not under ASan)
asan=0
if ldd "$LAB" 2>/dev/null | grep -q libasan; then
	# AddressSanitizer reserves terabytes of address space, adds shadow
	# memory and keeps freed blocks (256 MiB by default) in quarantine:
	# no --as, a smaller quarantine, and room for its overhead
	asan=1
	ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=16"
	HWM_KB=${ASAN_HWM_KB:-196608}
fi

# bounded NAME CMD...: runs CMD (stdout/stderr in $T/NAME.out/.err, exit
# in rc) with its address space capped (not under ASan), fails when it is
# still running after WALL s or its peak resident memory passed HWM_KB.
bounded() {
	_bn=$1
	shift
	if [ "$asan" = 1 ]; then
		"$@" >"$T/$_bn.out" 2>"$T/$_bn.err" &
	else
		prlimit --as=$AS "$@" >"$T/$_bn.out" 2>"$T/$_bn.err" &
	fi
	bg=$!
	_t0=$(date +%s%N)
	_end=$(($(date +%s) + WALL))
	hwm=0
	while _sshd_alive "$bg"; do
		_h=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB$/\1/p' \
		    "/proc/$bg/status" 2>/dev/null) || _h=
		[ -z "$_h" ] || [ "$_h" -le "$hwm" ] || hwm=$_h
		if [ "$(date +%s)" -ge "$_end" ]; then
			kill -KILL "$bg" 2>/dev/null || :
			fail "$_bn: still running after $WALL s: it hangs"
		fi
		[ "$hwm" -le "$HWM_KB" ] || {
			kill -KILL "$bg" 2>/dev/null || :
			fail "$_bn: peak memory $hwm KiB, more than $HWM_KB KiB"
		}
		sleep 0.05
	done
	rc=0
	wait "$bg" || rc=$?
	bg=
	echo "$_bn: exit $rc after $((($(date +%s%N) - _t0) / 1000000)) ms," \
	    "peak memory $hwm KiB" >>"$T/bounds"
}

# peer MODE LAST-OCTET [UPSTREAM:PORT]: ssh-flood.py on 127.0.62.N:2222
peer() {
	"$PY" "$SRC/tests/integration/ssh-flood.py" "$1" "127.0.62.$2" 2222 \
	    "$T/peer-$2.pid" ${3:+"$3"} 2>"$T/peer-$2.log" &
	harness_track ssh-flood $!
	_end=$(($(date +%s) + 10))
	until [ -s "$T/peer-$2.pid" ]; do
		_sshd_alive $! || { cat "$T/peer-$2.log" >&2
			fail "ssh-flood.py $1 did not start"; }
		[ "$(date +%s)" -lt "$_end" ] ||
			fail "ssh-flood.py $1 not listening after 10 s"
		sleep 0.02
	done
}

SSHD_USER_KEY="$T/id_ed25519" start_sshd 127.0.62.10 2222 "$T/h10" ||
	fail "the sshd on 127.0.62.10 did not start"
peer lines 1
peer drip 2
peer pre 3 127.0.62.10:2222
: >"$T/kh-empty"
sed 's/^\[127\.0\.62\.10\]/[127.0.62.3]/' "$T/h10/known_hosts" >"$T/kh3"

# 1. Lines without end before any version line: refused after 16 KiB.
bounded lines "$PROBE" -t 10000 -k "$T/kh-empty" 127.0.62.1 2222 connect
[ "$rc" = 1 ] || { cat "$T/lines.err" >&2; fail "lines: exit $rc, not 1"; }
has lines.err "ssh 127.0.62.1:2222: SSH banner too long (more than 16384 bytes before the version line)"
ok

# 2. A byte every 100 ms, never a line: refused at the deadline (3 s).
bounded drip "$PROBE" -t 3000 -k "$T/kh-empty" 127.0.62.2 2222 connect
[ "$rc" = 1 ] || { cat "$T/drip.err" >&2; fail "drip: exit $rc, not 1"; }
has drip.err "ssh 127.0.62.2:2222: no SSH version line within 3 s"
ok

# 3. Other lines before the version line are allowed (RFC 4253 4.2):
# libssh2 still gets the version line and the session works.
bounded pre "$PROBE" -t 10000 -k "$T/kh3" -i "$T/id_ed25519" -O "$T/pre.cmd" \
    127.0.62.3 2222 exec 'echo through'
[ "$rc" = 0 ] || { cat "$T/pre.err" >&2; fail "pre: exit $rc, not 0"; }
[ "$(cat "$T/pre.cmd")" = through ] || fail "pre: the command's output"
ok

# 4. A command printing without end: fails at its deadline (5 s) naming
# the host, having kept its last 1 MiB at most.
bounded yes "$PROBE" -t 10000 -T 5000 -k "$T/h10/known_hosts" \
    -i "$T/id_ed25519" -O "$T/yes.cmd" 127.0.62.10 2222 exec 'yes flood'
[ "$rc" = 1 ] || { cat "$T/yes.err" >&2; fail "yes: exit $rc, not 1"; }
has yes.err "ssh 127.0.62.10:2222: timed out after 5000 ms .*running a command"
[ "$(wc -c <"$T/yes.cmd")" -le $CAP ] ||
	fail "yes: $(wc -c <"$T/yes.cmd") bytes kept, more than $CAP"
# whole "flood" lines but for a cut first and last one
if [ "$(grep -cvx flood "$T/yes.cmd")" -gt 2 ] ||
    [ "$(grep -cx flood "$T/yes.cmd")" -lt 100000 ]; then
	fail "yes: the kept output: $(head -c 100 "$T/yes.cmd")"
fi
ok

# 5. lab media status against an iLO answering without end.
PW="Fl-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')-q7"
SSHD_ROOT_PASSWORD=$PW \
    SSHD_CONFIG_EXTRA="ForceCommand $PY $SRC/tests/integration/ilo-clp.py $T/ilo" \
    start_sshd 127.0.62.20 22 "$T/h20" ed25519 ||
	fail "the iLO's sshd on 127.0.62.20:22 did not start"
cp "$T/h20/known_hosts" "$HOME/.ssh/known_hosts"
touch "$T/ilo/flood"
cat >"$T/credentials.yaml" <<EOF
ilo: {username: root, password: "$PW"}
EOF
chmod 600 "$T/credentials.yaml"

# the provisioning target: the fake tools first on PATH; mdadm --create
# prints 96 MiB of lines, then fails
mkdir -p "$T/bin" "$T/dev"
cat >"$T/fake" <<EOF
#!/bin/sh
t=\${0##*/}
echo "\$t \$*" >>"$T/calls"
case \$t in
vgs) exit 5 ;;
mdadm)
	case \$1 in
	--detail) exit 1 ;;
	--create) yes 'flood line from the fake mdadm' | head -c 100663296
		echo 'the last words of mdadm' >&2
		exit 3 ;;
	esac ;;
esac
exit 0
EOF
chmod 755 "$T/fake"
for t in mdadm pvcreate vgcreate lvcreate vgs pvs wipefs lsblk zpool \
    update-initramfs; do
	ln -s "$T/fake" "$T/bin/$t"
done
cat >"$T/target.sh" <<EOF
#!/bin/sh
case \${SSH_ORIGINAL_COMMAND:-} in
""|*"mkdir -p /etc/mdadm"*) exit 99 ;;
esac
PATH=$T/bin:\$PATH
export PATH
exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
EOF
chmod 755 "$T/target.sh"
mknod "$T/dev/d1" b 7 250
mknod "$T/dev/d2" b 7 251
SSHD_USER_KEY="$T/id_ed25519" SSHD_BIND="$T/dev:/dev/shm" \
    SSHD_CONFIG_EXTRA="ForceCommand $T/target.sh" \
    start_sshd 127.0.62.30 2222 "$T/h30" ||
	fail "the sshd on 127.0.62.30 did not start"

cat >"$T/lab.yaml" <<EOF
hosts:
  - name: flood-ilo
    model: hp-dl320-g5p
    bmc: {type: ilo2, address: 127.0.62.20, credential: ilo}
  - name: flood-target
    model: generic-server
    ssh: {address: 127.0.62.30, port: 2222, user: root,
          identity: $T/id_ed25519, known_hosts: $T/h30/known_hosts}
    disks:
      - {slot: 1, kind: sata, size: 1TB, device: /dev/shm/d1}
      - {slot: 2, kind: sata, size: 1TB, device: /dev/shm/d2}
EOF
run import import "$T/lab.yaml"
[ "$(rc import)" = 0 ] || { cat "$T/import.err" >&2; fail "import"; }

bounded media "$LAB" media status flood-ilo --timeout 5
[ "$rc" = 1 ] || { cat "$T/media.err" >&2; fail "media: exit $rc, not 1"; }
has media.err "flood-ilo.*ssh 127.0.62.20:22: timed out after 5000 ms .*running a command"
has media.out "^flood-ilo  *-  *-  *-  *timeout$"
[ "$(cat "$T/ilo/log")" = "vm cdrom get" ] || fail "media: $(cat "$T/ilo/log")"
ok

# 6. A provisioning step printing 96 MiB: the step fails with its exit
# status, and what is stored and printed is the last 1 MiB at most, after
# the note of the cut; output_bytes has the whole size.
bounded prov "$LAB" provision flood-target --layout md-raid1 --pool labfld \
    --yes --json
[ "$rc" = 1 ] || { cat "$T/prov.err" >&2; fail "prov: exit $rc, not 1"; }
grep -q "applied" "$T/prov.err" "$T/prov.out" && fail "prov: reported success"
"$LAB" history flood-target --json >"$T/hist.json" || fail "history --json"
python3 - "$T/prov.out" "$T/hist.json" $CAP <<'EOF' || fail "prov: the output kept"
import json, re, sys
cap = int(sys.argv[3])
run = json.load(open(sys.argv[1]))["run"]
assert run["status"] == "failed", run["status"]
step = run["steps"][run["failed_step"]]
assert step["exit_status"] == 3, step["exit_status"]
total = 100663296 + len("the last words of mdadm\n")
assert step["output_bytes"] == total, step["output_bytes"]
stored = json.load(open(sys.argv[2]))[0]
assert stored["status"] == "failed", stored["status"]
for out in (step["output"], stored["steps"][run["failed_step"]]["output"]):
    m = re.match(r"\[output cut: (\d+) bytes, the last (\d+) kept\]\n", out)
    assert m, out[:200]
    assert int(m.group(1)) == total, m.group(0)
    body = out[m.end():]
    assert len(body.encode()) == int(m.group(2)) <= cap, m.group(0)
    assert body.startswith("flood line from the fake mdadm\n"), body[:80]
    assert "the last words of mdadm" in body[-200:], body[-200:]
    assert len(out.encode()) <= cap + 100, len(out)
EOF
[ "$(sqlite3 "$LAB_DB" "SELECT count(*) FROM provision_runs
    WHERE status = 'done'")" = 0 ] || fail "prov: a run stored as done"
[ "$(sqlite3 "$LAB_DB" "SELECT max(length(CAST(output AS BLOB)))
    FROM provision_steps")" -le $((CAP + 400)) ] ||
	fail "prov: a stored step output longer than the cap"
ok

cat "$T/bounds"
echo "$NAME: $n groups of checks passed"
