# SPDX-License-Identifier: GPL-3.0-or-later
# snmp.sh: real SNMP agents (snmpsimd serving captures of real switches)
# for integration tests. Source it from a POSIX sh test:
#
#	. "$srcdir/tests/integration/snmp.sh"
#	snmp_require
#	mkdir -p "$T/agent/data" && cp capture.snmprec "$T/agent/data/"
#	PORT=$(snmp_free_port)
#	trap 'snmp_stop "$T/agent"' EXIT
#	snmp_start "$T/agent" "$PORT" capture [extra snmpsimd options]
#
# The community (v2c) and context (v3) of a capture is its file's base
# name. As root snmpsimd runs as nobody, so DIR is made readable to it.
# SNMP_ADDR (default 127.0.0.1) is the loopback address to serve on, so
# that tests on different addresses may run at once (an IPv6 one, ::1, only
# in a network namespace the test made); SNMP_LOG=1 makes
# snmpsimd log every request and response to DIR/requests.log.

SNMP_READY_TIMEOUT=${SNMP_READY_TIMEOUT:-20}

# Exits 77 (skip) when snmpsimd or snmpget is missing, or 1 with a message
# when LAB_TEST_REQUIRE_SIM=1 (CI) says they must be there.
snmp_require()
{
	_smiss=
	command -v snmpsimd >/dev/null 2>&1 || _smiss="snmpsimd"
	command -v snmpget >/dev/null 2>&1 || _smiss="$_smiss snmpget"
	command -v ss >/dev/null 2>&1 || _smiss="$_smiss ss"
	[ -z "$_smiss" ] && return 0
	if [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
		echo "snmp.sh: missing:$_smiss (packages snmpsim, snmp," \
		    "iproute2); LAB_TEST_REQUIRE_SIM=1 makes this a" \
		    "failure" >&2
		exit 1
	fi
	echo "snmp.sh: missing:$_smiss: skipping" >&2
	exit 77
}

# Prints a UDP port on SNMP_ADDR nobody listens on.
snmp_free_port()
{
	_sp=$((20000 + $$ % 20000))
	_sa=$(echo "${SNMP_ADDR:-127.0.0.1}" | sed 's/\./\\./g')
	while ss -Hulnp 2>/dev/null | awk '{ print $4 }' |
	    grep -q "^$_sa:$_sp\$\|^0\.0\.0\.0:$_sp\$\|^\*:$_sp\$"; do
		_sp=$((_sp + 1))
	done
	echo "$_sp"
}

# Starts snmpsimd on SNMP_ADDR:PORT serving DIR/data and waits until it
# answers a GET of sysObjectID with COMMUNITY (v2c; with v3 users given
# in the extra options, readiness is checked with the first of them as
# SNMP_READY_ARGS says, e.g. "-v3 -u lab -l noAuthNoPriv -n CONTEXT").
snmp_start()
{
	_sd=$1
	_sport=$2
	_scomm=$3
	shift 3
	mkdir -p "$_sd/cache"
	chown -R nobody:nogroup "$_sd/data" "$_sd/cache" 2>/dev/null
	chmod -R a+rX "$_sd"
	chmod a+rwx "$_sd/cache"
	_saddr=${SNMP_ADDR:-127.0.0.1}
	if ss -Hulnp 2>/dev/null | awk '{ print $4 }' |
	    grep -q "^$_saddr:$_sport\$\|^0\.0\.0\.0:$_sport\$\|^\*:$_sport\$"; then
		echo "snmp.sh: port $_sport is in use" >&2
		return 1
	fi
	_suser=
	[ "$(id -u)" -ne 0 ] ||
	    _suser="--process-user=nobody --process-group=nogroup"
	_slog=--logging-method=null
	if [ "${SNMP_LOG:-0}" = 1 ]; then
		: >"$_sd/requests.log"
		chmod a+rw "$_sd/requests.log"
		_slog=--logging-method=file:$_sd/requests.log
	fi
	# an IPv6 SNMP_ADDR (::1 in a network namespace of the test's own)
	case $_saddr in
	*:*)	_sep="--agent-udpv6-endpoint=[$_saddr]:$_sport"
		_speer="udp6:[$_saddr]:$_sport" ;;
	*)	_sep="--agent-udpv4-endpoint=$_saddr:$_sport"
		_speer="$_saddr:$_sport" ;;
	esac
	# shellcheck disable=SC2086
	HOME=${HOME:-/tmp} snmpsimd --data-dir="$_sd/data" \
	    --cache-dir="$_sd/cache" "$_sep" \
	    "$_slog" $_suser "$@" \
	    </dev/null >"$_sd/snmpsimd.log" 2>&1 &
	echo $! >"$_sd/snmpsimd.pid"
	# the leak check of harness.sh, when the test sourced it
	[ -z "${HARNESS_LOADED:-}" ] || harness_track snmpsimd "$!"
	_send=$(($(date +%s) + SNMP_READY_TIMEOUT))
	while :; do
		# shellcheck disable=SC2086
		if snmpget ${SNMP_READY_ARGS:--v2c -c "$_scomm"} -t 0.3 -r 0 \
		    "$_speer" 1.3.6.1.2.1.1.2.0 >/dev/null 2>&1; then
			return 0
		fi
		if ! kill -0 "$(cat "$_sd/snmpsimd.pid")" 2>/dev/null; then
			echo "snmp.sh: snmpsimd exited:" >&2
			cat "$_sd/snmpsimd.log" >&2
			return 1
		fi
		if [ "$(date +%s)" -ge "$_send" ]; then
			echo "snmp.sh: snmpsimd not ready after" \
			    "${SNMP_READY_TIMEOUT}s" >&2
			return 1
		fi
		sleep 0.1
	done
}

# Stops the snmpsimd of DIR and waits for it. Never fails (one already
# gone is fine), also under set -e.
snmp_stop()
{
	[ -f "$1/snmpsimd.pid" ] || return 0
	_spid=$(cat "$1/snmpsimd.pid" 2>/dev/null) || _spid=
	case $_spid in
	''|*[!0-9]*) rm -f "$1/snmpsimd.pid" || :; return 0 ;;
	esac
	kill -TERM "$_spid" 2>/dev/null || :
	_send=$(($(date +%s) + 5))
	while kill -0 "$_spid" 2>/dev/null; do
		if [ "$(date +%s)" -ge "$_send" ]; then
			kill -KILL "$_spid" 2>/dev/null || :
			break
		fi
		sleep 0.05
	done
	rm -f "$1/snmpsimd.pid" || :
	return 0
}
