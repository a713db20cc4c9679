# SPDX-License-Identifier: GPL-3.0-or-later
# sshd.sh: real OpenSSH servers on loopback for integration tests and
# benchmarks, each a private sshd (not the system one) in its own folder.
# Source it from a POSIX sh script running as root:
#
#	. "$SRC/tests/integration/sshd.sh"
#	sshd_require
#	T=$(mktemp -d) || exit 1
#	trap 'stop_sshd; rm -rf "$T"' EXIT
#	start_sshd 127.0.20.1 2222 "$T/h1" || exit 1	# ed25519 + ecdsa keys
#	start_sshd 127.0.20.2 2222 "$T/h2" ed25519 || exit 1
#	sshd_ssh "$T/h1" 'id -u'			# OpenSSH's client, as root
#
# sshd_require
#	Exits 77 (skip) when sshd, ssh, ssh-keygen, ssh-keyscan, ss, setsid,
#	unshare or openssl is missing or the caller is not root; with
#	LAB_TEST_REQUIRE_SIM=1 (CI) it exits 1 instead, naming the packages.
#	start_sshd calls it.
# start_sshd ADDRESS PORT DIR [TYPE...]
#	Starts sshd -D on ADDRESS:PORT with host keys of the TYPEs (ed25519,
#	ecdsa, rsa, dsa; default ed25519 ecdsa), root login by public key,
#	and waits (polling ss, SSHD_READY_TIMEOUT s, default 10) until it
#	listens. Returns 1 with its log on stderr if it fails or the port is
#	taken. Writes into DIR (no spaces): sshd_config, sshd.log, sshd.pid
#	(the listener, which leads its own process group), ssh_host_TYPE_key
#	and .pub, authorized_keys (the user key's .pub), known_hosts (one
#	line per host key, "[ADDRESS]:PORT TYPE KEY", or "ADDRESS TYPE KEY"
#	on port 22, made from the .pub files so that it also holds the types
#	ssh-keyscan would not negotiate), and address, port and user_key (the
#	private key's path) for the helpers below.
#	Environment:
#	  SSHD_USER_KEY	the root login key (ed25519, no passphrase), made
#			if missing: share one between many servers; default
#			DIR/id_ed25519
#	  SSHD_CONFIG_EXTRA	lines appended to sshd_config, e.g.
#			"KexAlgorithms diffie-hellman-group1-sha1"
#	  SSHD_ROOT_PASSWORD	also allow root to log in with this password:
#			sshd then runs in a private mount namespace (unshare
#			-m) where /etc/shadow is a copy holding that password,
#			so the machine's real accounts are never touched
#	  SSHD_PASSWORD_AUTH	how it is asked for: "password" (the default)
#			or "keyboard-interactive" (then through PAM, pam_unix
#			on that copy, from a private /etc/pam.d/sshd)
#	  SSHD_BIND	"SRC:DST ..." folders or files bind-mounted inside
#			that private mount namespace (DST must exist), so
#			that servers on one machine each see their own
#			/etc/network, say, or their own copy of a folder
#	  SSHD_KEEP_BASHRC	1: keep this machine's ~root/.bashrc. By
#			default sshd runs in a private mount namespace where
#			it is Debian's stock one (/usr/share/base-files/
#			dot.bashrc), as on a fresh server: bash reads it for
#			every command sshd runs, and a development machine's
#			(pyenv init, say) can take seconds under load
#	  LAB_TARGET_LOCK	exported as DIR/provision.lock by the first
#			start_sshd when unset: where 'lab provision --yes'
#			takes its lock on the target
# stop_sshd [DIR...]
#	Stops the sshd of each DIR (default: every one this shell started):
#	SIGTERM to the listener's group and to every process under it (the
#	per-connection sshd processes and the commands they run), SIGKILL
#	after 5 s. Safe to call twice; never fails, and a server already
#	gone does not keep the next from being stopped.
# sshd_kill_sessions DIR
#	SIGKILLs every connection's sshd processes (then what they ran) but
#	not the listener: each client sees its connection drop, as when a
#	host crashes, and new connections still work.
# sshd_kill DIR
#	SIGKILLs the listener and every process under it at once (each
#	connection's sshd processes and the commands they run): the clients
#	see their connections drop and new connections are refused, as when
#	the host dies. Returns when they are all gone.
# sshd_ssh DIR COMMAND
#	Runs COMMAND as root on DIR's server through OpenSSH's ssh client
#	(-F /dev/null, the rig's key and known_hosts, strict host key
#	checking, batch mode); its exit status is the command's.
# sshd_known_line DIR TYPE
#	Prints DIR's known_hosts line for the host key TYPE.
#
# Timings (2 cores): start_sshd with two host keys 60-120 ms, most of it
# ssh-keygen; the first connection is accepted as soon as ss sees it.

SSHD_READY_TIMEOUT=${SSHD_READY_TIMEOUT:-10}
SSHD_BIN=${LAB_SSHD:-/usr/sbin/sshd}
_SSHD_DIRS=

sshd_require()
{
	_smiss=
	[ -x "$SSHD_BIN" ] || _smiss="$SSHD_BIN"
	for _sc in ssh ssh-keygen ssh-keyscan ss setsid unshare openssl; do
		command -v "$_sc" >/dev/null 2>&1 || _smiss="$_smiss $_sc"
	done
	[ "$(id -u)" -eq 0 ] || _smiss="$_smiss root"
	[ -z "$_smiss" ] && return 0
	if [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
		echo "sshd.sh: missing:$_smiss (packages openssh-server," \
		    "openssh-client, iproute2, util-linux, openssl; run as" \
		    "root); LAB_TEST_REQUIRE_SIM=1 makes this a failure" >&2
		exit 1
	fi
	echo "sshd.sh: missing:$_smiss: skipping" >&2
	exit 77
}

# Is process PID alive (a zombie is not)?
_sshd_alive()
{
	[ -r "/proc/$1/stat" ] || return 1
	case $(sed -n 's/^.*) \(.\).*$/\1/p' "/proc/$1/stat" 2>/dev/null) in
	''|Z|X) return 1 ;;
	esac
	return 0
}

# Prints the PIDs under PID (children, their children...), sshd ones first.
_sshd_descendants()
{
	ps -e -o pid=,ppid=,comm= | awk -v root="$1" '
	{ parent[$1] = $2; comm[$1] = $3 }
	END {
		mark[root] = 1
		do {
			changed = 0
			for (p in parent)
				if (!(p in mark) && (parent[p] in mark)) {
					mark[p] = 1
					changed = 1
				}
		} while (changed)
		for (p in mark)
			if (p != root && comm[p] == "sshd")
				print p
		for (p in mark)
			if (p != root && comm[p] != "sshd")
				print p
	}'
}

# The name known_hosts uses for ADDRESS:PORT.
_sshd_name()
{
	if [ "$2" = 22 ]; then
		echo "$1"
	else
		echo "[$1]:$2"
	fi
}

_sshd_listening()
{
	ss -Htln 2>/dev/null | awk '{ print $4 }' | grep -qxF "$1:$2"
}

_sshd_keygen()
{
	_sk_opts=
	case $1 in
	rsa) _sk_opts="-b 2048" ;;
	ed25519|ecdsa|dsa) ;;
	*) echo "sshd.sh: unknown host key type '$1'" >&2; return 1 ;;
	esac
	rm -f "$2" "$2.pub"
	# shellcheck disable=SC2086
	ssh-keygen -q -t "$1" $_sk_opts -N '' -C "lab-test-$1" -f "$2" \
	    </dev/null >/dev/null
}

# Writes DIR/shadow: the machine's, with root's password set.
_sshd_shadow()
{
	_shash=$(printf '%s' "$SSHD_ROOT_PASSWORD" |
	    openssl passwd -6 -stdin) || return 1
	awk -F: -v OFS=: -v h="$_shash" '$1 == "root" { $2 = h } { print }' \
	    /etc/shadow >"$1/shadow" || return 1
	chmod 600 "$1/shadow"
}

start_sshd()
{
	_sa=$1
	_sp=$2
	_sd=$3
	shift 3
	[ $# -gt 0 ] || set -- ed25519 ecdsa
	sshd_require
	case $_sd in
	/*) ;;
	*) _sd=$(pwd)/$_sd ;;
	esac
	mkdir -p "$_sd" /run/sshd || return 1
	if _sshd_listening "$_sa" "$_sp"; then
		echo "sshd.sh: $_sa:$_sp is in use" >&2
		return 1
	fi
	_sname=$(_sshd_name "$_sa" "$_sp")
	_skey=${SSHD_USER_KEY:-$_sd/id_ed25519}
	if [ ! -f "$_skey" ]; then
		ssh-keygen -q -t ed25519 -N '' -C lab-test-user -f "$_skey" \
		    </dev/null >/dev/null || return 1
	fi
	cp "$_skey.pub" "$_sd/authorized_keys" || return 1
	echo "$_sa" >"$_sd/address"
	echo "$_sp" >"$_sd/port"
	echo "$_skey" >"$_sd/user_key"
	: >"$_sd/known_hosts"
	_shostkeys=
	for _st; do
		_sshd_keygen "$_st" "$_sd/ssh_host_${_st}_key" || return 1
		_shostkeys="${_shostkeys}HostKey $_sd/ssh_host_${_st}_key
"
		echo "$_sname $(cut -d' ' -f1,2 "$_sd/ssh_host_${_st}_key.pub")" \
		    >>"$_sd/known_hosts"
	done
	_spass=no
	_skbd=no
	_spam=no
	_sroot=prohibit-password
	rm -f "$_sd/shadow" "$_sd/pam-sshd" "$_sd/binds"
	for _sb in ${SSHD_BIND:-}; do
		echo "${_sb%%:*} ${_sb#*:}" >>"$_sd/binds"
	done
	_src=$(getent passwd root | cut -d: -f6)/.bashrc
	if [ "${SSHD_KEEP_BASHRC:-0}" != 1 ] && [ -f "$_src" ] &&
	    [ -f /usr/share/base-files/dot.bashrc ]; then
		echo "/usr/share/base-files/dot.bashrc $_src" >>"$_sd/binds"
	fi
	if [ -n "${SSHD_ROOT_PASSWORD:-}" ]; then
		_sshd_shadow "$_sd" || return 1
		_sroot=yes
		case ${SSHD_PASSWORD_AUTH:-password} in
		password) _spass=yes ;;
		keyboard-interactive)
			_skbd=yes
			_spam=yes
			printf '%s\n' 'auth required pam_unix.so' \
			    'account required pam_permit.so' \
			    'session required pam_permit.so' \
			    'password required pam_deny.so' >"$_sd/pam-sshd"
			;;
		*)
			echo "sshd.sh: SSHD_PASSWORD_AUTH: password or" \
			    "keyboard-interactive" >&2
			return 1
			;;
		esac
	fi
	cat >"$_sd/sshd_config" <<EOF
ListenAddress $_sa:$_sp
${_shostkeys}PidFile none
AuthorizedKeysFile $_sd/authorized_keys
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication $_spass
KbdInteractiveAuthentication $_skbd
UsePAM $_spam
PermitRootLogin $_sroot
MaxStartups 200:30:400
MaxSessions 64
UseDNS no
Subsystem sftp internal-sftp
${SSHD_CONFIG_EXTRA:-}
EOF
	if ! "$SSHD_BIN" -t -f "$_sd/sshd_config" >"$_sd/sshd.log" 2>&1; then
		echo "sshd.sh: bad sshd_config for $_sa:$_sp:" >&2
		cat "$_sd/sshd.log" >&2
		return 1
	fi
	rm -f "$_sd/sshd.pid"
	# sh writes its own PID, then becomes sshd (through unshare, which
	# does not fork): the PID is the process group setsid made.
	if [ -f "$_sd/shadow" ] || [ -f "$_sd/binds" ]; then
		setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' sh \
		    "$_sd/sshd.pid" unshare -m --propagation private sh -c '
		    d=$1
		    shift
		    if [ -f "$d/shadow" ]; then
			mount --bind "$d/shadow" /etc/shadow || exit 1
		    fi
		    if [ -f "$d/pam-sshd" ]; then
			mount --bind "$d/pam-sshd" /etc/pam.d/sshd || exit 1
		    fi
		    if [ -f "$d/binds" ]; then
			while read -r src dst; do
			    mount --bind "$src" "$dst" || exit 1
			done <"$d/binds"
		    fi
		    exec "$@"' sh "$_sd" \
		    "$SSHD_BIN" -D -e -f "$_sd/sshd_config" \
		    </dev/null >"$_sd/sshd.log" 2>&1 &
	else
		setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' sh \
		    "$_sd/sshd.pid" "$SSHD_BIN" -D -e -f "$_sd/sshd_config" \
		    </dev/null >"$_sd/sshd.log" 2>&1 &
	fi
	_SSHD_DIRS="$_SSHD_DIRS $_sd"
	# the leak check of harness.sh, when the test sourced it
	[ -z "${HARNESS_LOADED:-}" ] ||
	    harness_pidfile sshd "$_sd/sshd.pid" group
	_send=$(($(date +%s) + SSHD_READY_TIMEOUT))
	while ! _sshd_listening "$_sa" "$_sp"; do
		_spid=$(cat "$_sd/sshd.pid" 2>/dev/null)
		if [ -n "$_spid" ] && ! _sshd_alive "$_spid"; then
			echo "sshd.sh: sshd on $_sa:$_sp exited:" >&2
			cat "$_sd/sshd.log" >&2
			return 1
		fi
		if [ "$(date +%s)" -ge "$_send" ]; then
			echo "sshd.sh: sshd not listening on $_sa:$_sp after" \
			    "${SSHD_READY_TIMEOUT}s" >&2
			cat "$_sd/sshd.log" >&2
			return 1
		fi
		sleep 0.01
	done
	[ -z "${HARNESS_LOADED:-}" ] ||
	    harness_track sshd "$(cat "$_sd/sshd.pid" 2>/dev/null)" group
	# lab provision's lock on the target: in the test's folder, not in
	# this machine's /var/lib/lab (the first server's, unless set)
	if [ -z "${LAB_TARGET_LOCK:-}" ]; then
		LAB_TARGET_LOCK=$_sd/provision.lock
		export LAB_TARGET_LOCK
	fi
}

stop_sshd()
{
	# shellcheck disable=SC2086
	[ $# -gt 0 ] || set -- $_SSHD_DIRS
	# Each server on its own: one that is already gone, or fails to
	# stop, must not keep the next from being stopped (this is an EXIT
	# trap's work, often under set -e).
	for _sd; do
		_sshd_stop_one "$_sd" || :
	done
	return 0
}

_sshd_stop_one()
{
	[ -f "$1/sshd.pid" ] || return 0
	_spid=$(cat "$1/sshd.pid" 2>/dev/null) || _spid=
	case $_spid in
	''|*[!0-9]*) rm -f "$1/sshd.pid" || :; return 0 ;;
	esac
	_sall="$_spid $(_sshd_descendants "$_spid" 2>/dev/null || :)"
	# The group first (the listener and the pre-auth children), then
	# each process: the group signal may already have ended them all,
	# so a kill that finds nobody is fine.
	kill -TERM "-$_spid" 2>/dev/null || :
	# shellcheck disable=SC2086
	kill -TERM $_sall 2>/dev/null || :
	_send=$(($(date +%s) + 5))
	for _sp in $_sall; do
		while _sshd_alive "$_sp"; do
			if [ "$(date +%s)" -ge "$_send" ]; then
				kill -KILL "$_sp" 2>/dev/null || :
				break
			fi
			sleep 0.02
		done
	done
	kill -KILL "-$_spid" 2>/dev/null || :
	rm -f "$1/sshd.pid" || :
	return 0
}

sshd_kill_sessions()
{
	_spid=$(cat "$1/sshd.pid") || return 1
	for _sp in $(_sshd_descendants "$_spid"); do
		kill -KILL "$_sp" 2>/dev/null || :
	done
	return 0
}

sshd_kill()
{
	_spid=$(cat "$1/sshd.pid") || return 1
	_sall="$_spid $(_sshd_descendants "$_spid")"
	# shellcheck disable=SC2086
	kill -KILL $_sall 2>/dev/null || :
	for _sp in $_sall; do
		while _sshd_alive "$_sp"; do
			sleep 0.01
		done
	done
	rm -f "$1/sshd.pid" || :
	return 0
}

sshd_ssh()
{
	_sd=$1
	shift
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes \
	    -o UserKnownHostsFile="$_sd/known_hosts" -o LogLevel=ERROR \
	    -i "$(cat "$_sd/user_key")" -p "$(cat "$_sd/port")" \
	    "root@$(cat "$_sd/address")" "$@"
}

sshd_known_line()
{
	awk -v t="$2" '$2 == t || ($2 ~ /^ecdsa-/ && t == "ecdsa") ||
	    ($2 == "ssh-" t) || ($2 == "ssh-dss" && t == "dsa")' \
	    "$1/known_hosts"
}
