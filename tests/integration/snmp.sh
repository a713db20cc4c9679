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
# The agent listens on SNMP_ADDR (default 127.0.0.1): a test with its own
# loopback range sets it.

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
	while ss -Hulnp 2>/dev/null | awk '{ print $4 }' |
	    grep -q "^${SNMP_ADDR:-127.0.0.1}:$_sp\$\|^0\.0\.0\.0:$_sp\$\|^\*:$_sp\$"; do
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
	if ss -Hulnp 2>/dev/null | awk '{ print $4 }' |
	    grep -q ":$_sport\$"; then
		echo "snmp.sh: port $_sport is in use" >&2
		return 1
	fi
	_suser=
	[ "$(id -u)" -ne 0 ] ||
	    _suser="--process-user=nobody --process-group=nogroup"
	# shellcheck disable=SC2086
	HOME=${HOME:-/tmp} snmpsimd --data-dir="$_sd/data" \
	    --cache-dir="$_sd/cache" \
	    --agent-udpv4-endpoint="${SNMP_ADDR:-127.0.0.1}:$_sport" \
	    --logging-method=null $_suser "$@" \
	    </dev/null >"$_sd/snmpsimd.log" 2>&1 &
	echo $! >"$_sd/snmpsimd.pid"
	_send=$(($(date +%s) + SNMP_READY_TIMEOUT))
	while :; do
		# shellcheck disable=SC2086
		if snmpget ${SNMP_READY_ARGS:--v2c -c "$_scomm"} -t 0.3 -r 0 \
		    "${SNMP_ADDR:-127.0.0.1}:$_sport" 1.3.6.1.2.1.1.2.0 \
		    >/dev/null 2>&1; then
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

# Stops the snmpsimd of DIR and waits for it.
snmp_stop()
{
	[ -f "$1/snmpsimd.pid" ] || return 0
	_spid=$(cat "$1/snmpsimd.pid")
	kill -TERM "$_spid" 2>/dev/null
	_send=$(($(date +%s) + 5))
	while kill -0 "$_spid" 2>/dev/null; do
		if [ "$(date +%s)" -ge "$_send" ]; then
			kill -KILL "$_spid" 2>/dev/null
			break
		fi
		sleep 0.05
	done
	rm -f "$1/snmpsimd.pid"
}
