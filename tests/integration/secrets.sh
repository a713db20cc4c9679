#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# No secret of the credentials file ever leaves it: every command that
# reads credentials (against ipmi_sim BMCs with serial consoles, an
# snmpsimd agent, an iLO 2 command line (ilo-clp.py behind sshd) and a
# provisioning target's sshd, all on 127.0.23.0/24), and every command
# that prints what is stored, runs under strace with known unique secrets
# in the credentials file; then no secret may be in any exec'd argv or any
# write(2) lab made (files, pipes, the database pages, the terminal), its
# stdout or stderr, the database and its -wal, the audit log, the reports
# (every format), the console's log or the JSON. Then the same lab on a
# throwaway PostgreSQL server (127.0.0.1:55441, issue 22) whose password
# lab reads from the credentials file's postgres: entry: that password is
# in no exec'd argv or environment (strace -v), no write, no output, no
# report, not in the audit log, the database (pg_dump) or the server's
# log of every statement; nor is a wrong one.
#	sh secrets.sh LAB SRCDIR FIXTURES
# A new command is one line in the list below.
set -eu
LAB=$1
SRC=$2
FIX=$3
BMC_SRCDIR=$SRC/tests/integration
BMC_SOL_PORT=7001	# each BMC's serial console (console-server.py)
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
. "$SRC/tests/integration/snmp.sh"
. "$SRC/tests/integration/sshd.sh"
. "$SRC/tests/integration/pgsrv.sh"
bmc_require
snmp_require
sshd_require
if ! command -v strace >/dev/null 2>&1; then
	echo "secrets.sh: strace missing (package strace)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
[ -f "$FIX/ciscosb_sg350-10.snmprec" ] || {
	echo "secrets.sh: no captures in $FIX" >&2
	exit 1
}

T=$(mktemp -d /tmp/lab-secrets.XXXXXX)
chmod 755 "$T"	# snmpsimd runs as nobody and reads its data below
harness_trap 'stop_sshd; snmp_stop "$T/agent"; bmc_stop "$T/bmc"
	pgsrv_stop "$T/pgsrv"; [ -n "${KEEP:-}" ] || rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
export XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
# LeakSanitizer cannot run under ptrace (an ASan build of lab)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
NAME=secrets.sh
. "$SRC/tests/integration/check.sh"
mkdir -p "$T/out" "$T/trace" "$T/reports"

# Secrets no output would hold by chance, one per kind of secret: the
# BMC password (IPMI and its serial-over-LAN console), a wrong BMC
# password (the failure paths), the SNMPv2c community, the SNMPv3 keys,
# the iLO 2's SSH password (lab media), the provisioning target's root
# password (lab provision logs in by key: it must never send it), and a
# credential no host uses.
R=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
S_PW=BmcPw$R
S_BAD=BadPw$R
S_COMM=Comm$R
S_AUTH=AuthKey$R
S_PRIV=PrivKey$R
S_UNUSED=Unused$R
S_UCOMM=UnusedComm$R
S_ILO=IloPw$R
S_HOST=HostPw$R
# and one not from the credentials file: the password of a media image's
# URL, typed on the command line (only the iLO may see it)
S_URL=UrlPw$R
SECRETS="$S_PW $S_BAD $S_COMM $S_AUTH $S_PRIV $S_UNUSED $S_UCOMM $S_ILO $S_HOST"

# two BMCs on 127.0.23.1-2 whose admin password is S_PW, each with a
# serial console on port 7001 of its address (ipmi_sim connects to it
# within ~10 s)
BMC_NET=127.0.23
BMC_PASSWORD=$S_PW
bmc_start "$T/bmc" 2
# one agent on 127.0.23.100: v2c with community S_COMM (the capture's
# file name is its community), v3 authPriv (SHA/AES) in context ctx3
SNMP_ADDR=127.0.23.100
mkdir -p "$T/agent/data"
cp "$FIX/ciscosb_sg350-10.snmprec" "$T/agent/data/$S_COMM.snmprec"
cp "$FIX/ciscosb_sg350-10.snmprec" "$T/agent/data/ctx3.snmprec"
PORT=$(snmp_free_port)
snmp_start "$T/agent" "$PORT" "$S_COMM" --v3-user=lab \
	--v3-auth-key="$S_AUTH" --v3-auth-proto=SHA \
	--v3-priv-key="$S_PRIV" --v3-priv-proto=AES

# an iLO 2 on 127.0.23.50:22 whose root password is S_ILO: ilo-clp.py
# behind sshd; lab media checks its key in ~/.ssh/known_hosts
mkdir -p "$T/clp" "$T/.ssh"
PY=$(command -v python3) || fail "python3 missing"
SSHD_ROOT_PASSWORD=$S_ILO \
    SSHD_CONFIG_EXTRA="ForceCommand $PY $SRC/tests/integration/ilo-clp.py $T/clp" \
    start_sshd 127.0.23.50 22 "$T/ilo" ed25519 ||
    fail "the iLO's sshd on 127.0.23.50:22 did not start"
cp "$T/ilo/known_hosts" "$T/.ssh/known_hosts"
# a provisioning target on 127.0.23.60:2222: root logs in by key (lab)
# or with the password S_HOST (never lab); its commands run with only
# /usr/bin:/bin on PATH, so that the md plan's first check finds no mdadm
# and the run stops there, having changed nothing
cat >"$T/target.sh" <<END
#!/bin/sh
[ -n "\${SSH_ORIGINAL_COMMAND:-}" ] || exit 1
PATH=/usr/bin:/bin
export PATH
exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
END
chmod 755 "$T/target.sh"
SSHD_ROOT_PASSWORD=$S_HOST SSHD_CONFIG_EXTRA="ForceCommand $T/target.sh" \
    start_sshd 127.0.23.60 2222 "$T/target" ed25519 ||
    fail "the target's sshd on 127.0.23.60:2222 did not start"

cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: "$S_PW"}
wrongpw: {username: admin, password: "$S_BAD"}
sw2c: {community: "$S_COMM"}
sw3: {username: lab, auth_protocol: sha, auth_password: "$S_AUTH", priv_protocol: aes, priv_password: "$S_PRIV"}
unused: {username: nobody, password: "$S_UNUSED", community: "$S_UCOMM"}
ilo: {username: root, password: "$S_ILO"}
target: {username: root, password: "$S_HOST"}
END
chmod 600 "$T/credentials.yaml"
bmc() {
	echo "{type: ipmi, address: 127.0.23.$1, credential: $2," \
	    "workarounds: [opensesspriv], timeout: 5}"
}
# ipmi_sim needs these three for libipmiconsole (shared/RIG.md)
sol() {
	echo "{type: ipmi, address: 127.0.23.$1, credential: $2," \
	    "workarounds: [opensesspriv, solpayloadsize, solchannelsupport]}"
}
cat >"$T/lab.yaml" <<END
groups:
  - {name: bmcs, description: "the simulated BMCs"}
hosts:
  - {name: b1, model: generic-server, groups: [bmcs], bmc: $(bmc 1 admin), nics: [{name: eth0, mac: "00:0C:15:03:B0:B7"}]}
  - {name: b2, model: generic-server, groups: [bmcs], bmc: $(bmc 2 admin)}
  - {name: badpw, model: generic-server, bmc: $(bmc 1 wrongpw)}
  - {name: con, model: generic-server, bmc: $(sol 1 admin)}
  - {name: conbad, model: generic-server, bmc: $(sol 2 wrongpw)}
  - {name: ilo, model: hp-dl320-g5p, bmc: {type: ilo2, address: 127.0.23.50, credential: ilo}}
  - {name: ilobad, model: hp-dl320-g5p, bmc: {type: ilo2, address: 127.0.23.50, credential: wrongpw}}
  - name: prov
    model: generic-server
    ssh: {address: 127.0.23.60, port: 2222, identity: $T/target/id_ed25519, known_hosts: $T/target/known_hosts}
    disks:
      - {slot: 1, kind: sata, size: 1TB, device: /dev/disk/by-id/ata-LAB-SECRETS-1}
      - {slot: 2, kind: sata, size: 1TB, device: /dev/disk/by-id/ata-LAB-SECRETS-2}
switches:
  - {name: sw2c, model: generic-switch, address: $SNMP_ADDR, port: $PORT, snmp: {version: 2c, credential: sw2c, timeout: 2, retries: 1}}
  - {name: sw3, model: generic-switch, address: $SNMP_ADDR, port: $PORT, snmp: {version: 3, credential: sw3, context: ctx3, timeout: 2, retries: 1}}
END

# Runs lab under strace: every exec (argv) and every write lab or a
# child makes goes to trace/NAME, stdout and stderr to out/NAME.*.
lab_traced() {
	_n=$1
	_want=$2
	shift 2
	_rc=0
	strace -f -qq -s 65536 -o "$T/trace/$_n" \
	    -e trace=execve,execveat,write,writev,pwrite64,pwritev,pwritev2 \
	    "$LAB" "$@" </dev/null >"$T/out/$_n.out" 2>"$T/out/$_n.err" ||
	    _rc=$?
	if [ "$_want" != any ] && [ "$_rc" != "$_want" ]; then
		cat "$T/out/$_n.err" >&2
		fail "$_n: lab $* exited $_rc, not $_want"
	fi
	runs=$((runs + 1))
}

# NAME, the exit code wanted, and the lab command line ($T and $PORT
# expand). One command per line: add new commands here.
runs=0
while read -r name want args; do
	case $name in '#'*|'') continue ;; esac
	eval "set -- $args"
	lab_traced "$name" "$want" "$@"
done <<'END'
import            0  import "$T/lab.yaml"
power-status      0  power status @bmcs
power-status-json 0  power status @bmcs --json
power-status-csv  0  power status @bmcs --csv
power-on          0  power on b1
power-off-json    0  power off b1 --json
power-cycle       0  power cycle b2 --wait
power-badpw       1  power status badpw b1 --json
power-dry         0  power on b2 --dry-run
boot-set          0  boot b2 pxe
boot-get-json     0  boot b2 --json
boot-get-csv      0  boot b1 b2 --csv
sensors           0  sensors b1
sensors-json      0  sensors @bmcs --json
sensors-csv       0  sensors b1 --csv
sel               0  sel b1
sel-json          0  sel b1 --json
discover          0  switch discover
discover-json     0  switch discover sw2c sw3 --json
ports             0  switch ports sw2c
ports-json        0  switch ports sw3 --json
sync-dry          0  switch sync sw2c --dry-run
media-status      0  media status ilo
media-insert      0  media insert ilo http://192.0.2.99/d.iso --boot-once
media-status-json 0  media status ilo --json
media-eject-json  0  media eject ilo --json
media-badpw       1  media insert ilobad http://192.0.2.99/d.iso
media-dry         0  media insert ilo http://192.0.2.99/d.iso --dry-run
media-url         0  media insert ilo "http://lab:$S_URL@192.0.2.99/u.iso"
media-url-again   0  media insert ilo "http://lab:$S_URL@192.0.2.99/u.iso" --json
media-url-status  0  media status ilo
media-url-json    0  media status ilo --json
media-url-csv     0  media status ilo --csv
media-url-dry     0  media insert ilo "http://lab:$S_URL@192.0.2.99/v.iso" --dry-run --json
media-url-other   0  media insert ilo "http://lab:$S_URL@192.0.2.99/v.iso"
media-url-bad     2  media insert ilo "ftp://lab:$S_URL@192.0.2.99/u.iso"
media-url-eject   0  media eject ilo
console-badpw     1  console conbad
provision-plan    0  provision prov --layout md-raid1 --pool labsec --dry-run
provision-json    0  provision prov --layout md-raid1 --pool labsec --dry-run --json
provision-apply   1  provision prov --layout md-raid1 --pool labsec --yes
provision-apply-j 1  provision prov --layout md-raid1 --pool labsec --yes --json
history           0  history
history-host      0  history prov
history-json      0  history --json
history-csv       0  history --csv
history-run       0  history prov --run 1
history-run-json  0  history prov --run 2 --json
report-collect    0  report --collect --timeout 5
report-markdown   0  report --format markdown --out "$T/reports/report.md"
report-html       0  report --collect --format html --out "$T/reports/report.html"
report-json       0  report --format json --out "$T/reports/report.json"
report-text-out   0  report --out "$T/reports/report.txt"
report-since      0  report --since 24h --json
export-yaml       0  export
export-json       0  export --format json
show-host         0  show b1
show-host-json    0  show b1 --json
show-switch       0  show sw2c
show-switch-json  0  show sw3 --json
log               0  log --limit 0
log-json          0  log --json --limit 0
log-csv           0  log --csv --limit 0
ls-hosts          0  ls hosts --json
ls-switches       0  ls switches
ls-switches-json  0  ls switches --json
ls-nics-csv       0  ls nics --csv
config            0  config
config-json       0  config --json
END

# lab console on a terminal (pty-run.py) under strace: typed text reaches
# BMC 1's serial console and its answer comes back; --log keeps it
python3 "$SRC/tests/integration/pty-run.py" "$T/out/console.tty" \
    expect="connected to BMC 127.0.23.1:623" raw retry='\r=login: ' \
    send='no secrets here\r' expect='NO SECRETS HERE' send='~.' exit=0 \
    restored -- strace -f -qq -s 65536 -o "$T/trace/console" \
    -e trace=execve,execveat,write,writev,pwrite64,pwritev,pwritev2 \
    "$LAB" console con --log "$T/out/console.log" ||
    fail "console: the session through pty-run.py"
runs=$((runs + 1))
grep -q "no secrets here" "$T/bmc/bmc1/console/in" ||
	fail "console: the text did not reach the console"
has out/console.log "NO SECRETS HERE"

# the commands really reached the peers, and the trace saw lab's writes
has out/power-status-json.out '"ok": true'
has out/sensors-json.out '"name": "MB Temp"'
has out/power-badpw.err "badpw: BMC 127.0.23.1:623: authentication failed"
has out/discover-json.out '"ports"'
[ "$(grep -c '"ports"' "$T/out/discover-json.out")" -ge 2 ] ||
	fail "discover: not both switches"
has trace/import '^[0-9]* *execve('
has trace/report-json 'write('
has trace/power-status 'write(1, '
has trace/console 'write(1, '
has out/console-badpw.err "conbad: BMC 127.0.23.2:623: .*authentication failed"
has out/media-status-json.out '"image": "http://192.0.2.99/d.iso"'
has out/media-badpw.err "ilobad: .*127.0.23.50:22: .*password was refused"
grep -q "vm cdrom insert http://192.0.2.99/d.iso" "$T/clp/log" ||
	fail "media: the insert did not reach the iLO"
# the URL with a password: the iLO got it whole; lab showed and recorded
# it with the password hidden (the search below finds it nowhere else)
grep -q "vm cdrom insert http://lab:$S_URL@192.0.2.99/u.iso" "$T/clp/log" ||
	fail "media: the URL with a password did not reach the iLO whole"
has out/media-url-status.out 'http://lab:\*\*\*@192.0.2.99/u.iso'
has out/media-url-json.out '"image": "http://lab:\*\*\*@192.0.2.99/u.iso"'
has out/media-url-again.out '"note": "already inserted"'
has out/media-url-dry.out 'vm cdrom insert http://lab:\*\*\*@192.0.2.99/v.iso'
has out/media-url-other.out 'inserted (ejected http://lab:\*\*\*@192.0.2.99/u.iso)'
has out/media-url-bad.err "not 'ftp://lab:\*\*\*@192.0.2.99/u.iso'"
has out/log.out "media insert ilo 'http://lab:\*\*\*@192.0.2.99/u.iso'"
has out/provision-apply.err "^lab: provision: prov: run 1 failed: step 1 of 5 failed"
has out/provision-apply.err "mdadm is not installed"
has out/provision-apply-j.out '"status": "failed"'
has out/history-run-json.out '"failed_step": 0'
has out/history-csv.out "prov,storage,md-raid1"
has reports/report.json 'md-raid1'
ok

# none_in FILE WHAT SECRET...: fails, showing where, if FILE holds one
none_in() {
	_f=$1
	_what=$2
	shift 2
	for _s in "$@"; do
		if grep -a -q -- "$_s" "$_f"; then
			grep -a -n -- "$_s" "$_f" | head -5 >&2
			fail "$_what is in $_f"
		fi
	done
}

# --- the same lab on PostgreSQL: its password only in the credentials
# file's postgres: entry (libpq's pgpass file hidden)
pgsrv_start "$T/pgsrv" 55441 || fail "a PostgreSQL cluster on 127.0.0.1:55441"
S_PG=$(cut -d: -f5 "$T/pgsrv/pgpass")
S_PGBAD=PgBad$R
[ -n "$S_PG" ] || fail "no PostgreSQL password"
pgsrv_psql 'CREATE DATABASE sec' 'CREATE DATABASE sec2' \
    "ALTER SYSTEM SET log_statement = 'all'" 'SELECT pg_reload_conf()' ||
	fail "psql"
PGPASSFILE=$T/no-pgpass
export PGPASSFILE
cp "$T/credentials.yaml" "$T/cred-sq.yaml"
printf 'postgres: {password: "%s"}\n' "$S_PG" >>"$T/credentials.yaml"
U=postgresql://lab@127.0.0.1:55441/sec
U2=postgresql://lab@127.0.0.1:55441/sec2
# strace -v: each exec's environment too; sendto: what reached the server
mkdir "$T/pgtrace"
pg_traced() {
	_n=$1
	_want=$2
	shift 2
	_rc=0
	strace -f -qq -v -s 65536 -o "$T/pgtrace/$_n" -e trace=execve,execveat,write,writev,pwrite64,pwritev,pwritev2,sendto,sendmsg \
	    "$LAB" --db "$U" "$@" </dev/null >"$T/out/$_n.out" \
	    2>"$T/out/$_n.err" || _rc=$?
	if [ "$_rc" != "$_want" ]; then
		cat "$T/out/$_n.err" >&2
		fail "$_n: lab --db $U $* exited $_rc, not $_want"
	fi
	runs=$((runs + 1))
}
while read -r name want args; do
	case $name in '#'*|'') continue ;; esac
	eval "set -- $args"
	pg_traced "$name" "$want" "$@"
done <<'END'
pg-init           0  init --json
pg-import         0  import "$T/lab.yaml"
pg-power          0  power status @bmcs --json
pg-discover       0  switch discover sw2c --json
pg-report         0  report --collect --timeout 5 --format json
pg-report-html    0  report --format html --out "$T/reports/pg.html"
pg-report-md      0  report --format markdown
pg-log            0  log --json --limit 0
pg-config         0  config
pg-config-json    0  config --json
pg-export         0  export
pg-history        0  history --json
pg-copy-out       0  db copy --to "$U2" --json
pg-copy-in        0  db copy --from "$U2" --replace --json
pg-sqlite-copy    0  db copy --to "$T/copy.db"
END
has out/pg-power.out '"ok": true'
has out/pg-config.out 'postgresql: host 127.0.0.1, port 55441, database sec'
has pgtrace/pg-import 'sendto('
# a wrong password: refused, and shown nowhere either
cp "$T/cred-sq.yaml" "$T/credentials.yaml"
printf 'postgres: {password: "%s"}\n' "$S_PGBAD" >>"$T/credentials.yaml"
pg_traced pg-badpw 3 ls hosts
has out/pg-badpw.err "password authentication failed"
cp "$T/cred-sq.yaml" "$T/credentials.yaml"
unset PGPASSFILE
"$PGBIN/../bin/pg_dump" -h 127.0.0.1 -p 55441 -U lab \
    -f "$T/out/pg-dump.sql" sec 2>/dev/null ||
	PGPASSFILE=$T/pgsrv/pgpass "$PGBIN/../bin/pg_dump" -h 127.0.0.1 \
	    -p 55441 -U lab -f "$T/out/pg-dump.sql" sec || fail "pg_dump"
has out/pg-dump.sql 'b1'
grep -q "statement: " "$T/pgsrv/sock/pg.log" || fail "no statement log"
for f in "$T"/out/pg-* "$T"/pgtrace/* "$T/reports/pg.html" \
    "$T/pgsrv/sock/pg.log" "$T/copy.db"; do
	# a trace's sendmsg holds the community lab sends the agent: there
	# only the PostgreSQL passwords are looked for
	all="$S_PG $S_PGBAD $SECRETS"
	case $f in "$T"/pgtrace/*) all="$S_PG $S_PGBAD" ;; esac
	# shellcheck disable=SC2086
	none_in "$f" "a secret (the PostgreSQL password?)" $all
done
ok

# the files: the database (0600, and its -wal when there), the reports
[ "$(stat -c %a "$T/lab.db")" = 600 ] ||
	fail "lab.db has mode $(stat -c %a "$T/lab.db"), not 600"
for f in "$T/lab.db-wal" "$T/lab.db-shm"; do
	[ ! -e "$f" ] || [ "$(stat -c %a "$f")" = 600 ] ||
		fail "$f has mode $(stat -c %a "$f"), not 600"
done
for f in report.md report.html report.json report.txt; do
	[ -s "$T/reports/$f" ] || fail "no $f"
done
ok

# no secret anywhere lab wrote; the credentials file still holds them
# all (the grep works)
for s in $SECRETS; do
	grep -q -- "$s" "$T/credentials.yaml" || fail "grep does not work"
done
files=0
for f in "$T"/out/* "$T"/trace/* "$T"/reports/* "$T"/lab.db* "$T/clp/log" \
    "$T/.ssh/known_hosts"; do
	[ -f "$f" ] || continue
	files=$((files + 1))
	# the iLO's own log of the commands it got holds the URL: it must;
	# a trace's first line is the test's exec of lab, with the URL typed,
	# and the light lab's exec of lab-full in the same process (cmd/full.c)
	# passes the same arguments on: nothing more is shown
	all=$SECRETS
	[ "$f" = "$T/clp/log" ] || all="$SECRETS $S_URL"
	case $f in "$T"/trace/*)
		first=$(head -n 1 "$f" | sed 's/ .*//')
		if tail -n +2 "$f" | grep -v "^$first *execve(\"[^\"]*/lab-full\", " |
		    grep -a -q -- "$S_URL"; then
			tail -n +2 "$f" | grep -a -n -- "$S_URL" | head -5 >&2
			fail "the URL's password is in $f"
		fi
		head -n 1 "$f" | grep -q 'execve(' ||
			fail "$f does not start with the exec of lab"
		all=$SECRETS ;;
	esac
	# shellcheck disable=SC2086
	none_in "$f" "a secret of the credentials file" $all
done
ok

echo "secrets.sh: $n groups of checks passed; $runs lab runs traced," \
	"$files files searched for $(echo "$SECRETS $S_URL" | wc -w) secrets"
