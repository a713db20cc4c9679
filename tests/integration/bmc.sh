# SPDX-License-Identifier: GPL-3.0-or-later
# bmc.sh: real IPMI BMCs (OpenIPMI ipmi_sim) for integration tests.
# Source it from a POSIX sh test; see README.md beside it.
#
#	. "$srcdir/tests/integration/bmc.sh"
#	T=$(mktemp -d) || exit 1
#	trap 'bmc_stop "$T"; rm -rf "$T"' EXIT
#	bmc_start "$T" 3		# 127.0.1.1-3, port 623
#	bmc_power "$T" 2		# prints 0 or 1
#
# BMC K of a folder is DIR/bmcK: lan.conf, bmc.emu, state/, ipmi_sim.log and
# the files the chassis helper and the sensors use (power, boot, delay,
# helper.log, temp, fan). Users: 2 admin/password (admin; the password is
# $BMC_PASSWORD when set, so secret-leak tests can grep for it), 3 operator/oppass
# (operator), 4 userpw/userpass (user). DIR must not contain spaces.
#
# Serial-over-LAN: with BMC_SOL_PORT set, each BMC started gets a serial
# console: console-server.py listening on its own address, TCP port
# BMC_SOL_PORT, which ipmi_sim connects to (lan.conf: sol "tcp:..."), in
# DIR/bmcK/console (in: what reached it, conns: a line per connection).
# bmc_start then also waits until each simulator is connected to its
# console (ipmi_sim tries every 10 s: up to ~10 s).

BMC_READY_TIMEOUT=${BMC_READY_TIMEOUT:-10}	# seconds for all to bind
BMC_SOL_TIMEOUT=${BMC_SOL_TIMEOUT:-30}	# seconds for the consoles

# Exits 77 (skip) when ipmi_sim or its tools are missing, or 1 with a
# message when LAB_TEST_REQUIRE_SIM=1 (CI) says they must be there.
bmc_require()
{
	BMC_SIM=${LAB_IPMI_SIM:-$(command -v ipmi_sim 2>/dev/null)}
	BMC_SDRCOMP=$(command -v sdrcomp 2>/dev/null)
	_bmc_missing=
	[ -n "$BMC_SIM" ] && [ -x "$BMC_SIM" ] || _bmc_missing="ipmi_sim"
	[ -n "$BMC_SDRCOMP" ] || _bmc_missing="$_bmc_missing sdrcomp"
	command -v ss >/dev/null 2>&1 || _bmc_missing="$_bmc_missing ss"
	command -v setsid >/dev/null 2>&1 ||
	    _bmc_missing="$_bmc_missing setsid"
	if [ -n "${BMC_SOL_PORT:-}" ]; then
		command -v python3 >/dev/null 2>&1 ||
		    _bmc_missing="$_bmc_missing python3"
	fi
	[ -z "$_bmc_missing" ] && return 0
	if [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
		echo "bmc.sh: missing:$_bmc_missing (packages openipmi," \
		    "iproute2, util-linux); LAB_TEST_REQUIRE_SIM=1" \
		    "makes this a failure" >&2
		exit 1
	fi
	echo "bmc.sh: missing:$_bmc_missing: skipping" >&2
	exit 77
}

# The loopback address of BMC K: BMC_NET.K, BMC_NET 127.0.1 unless a test
# sets its own (so tests on different nets may run at once).
bmc_addr()
{
	echo "${BMC_NET:-127.0.1}.$1"
}

# The console-server.py beside this file.
_bmc_console_server()
{
	echo "${BMC_SRCDIR:-$(dirname "$0")}/console-server.py"
}

# Prints what reached the serial console of BMC K.
bmc_console_in()
{
	cat "$1/bmc$2/console/in" 2>/dev/null
}

# Prints the helper's power state of BMC K: 0 or 1.
bmc_power()
{
	cat "$1/bmc$2/power"
}

# Prints the helper's boot device of BMC K (none|pxe|default|cdrom|bios).
bmc_boot()
{
	cat "$1/bmc$2/boot"
}

# Sets the raw reading of BMC K's sensor NAME (temp, fan) to VALUE.
bmc_sensor_set()
{
	echo "$4" >"$1/bmc$2/$3.tmp" && mv "$1/bmc$2/$3.tmp" "$1/bmc$2/$3"
}

# Is process PID alive (a zombie is not)?
_bmc_alive()
{
	[ -r "/proc/$1/stat" ] || return 1
	case $(sed -n 's/^.*) \(.\).*$/\1/p' "/proc/$1/stat" 2>/dev/null) in
	''|Z|X) return 1 ;;
	esac
	return 0
}

# Prints the local UDP sockets as "ADDRESS:PORT pid=PID" lines.
_bmc_sockets()
{
	ss -Hulnp 2>/dev/null | awk '{
		pid = ""
		if (match($0, /pid=[0-9]+/))
			pid = substr($0, RSTART, RLENGTH)
		print $4, pid
	}'
}

_bmc_write_helper()
{
	cat >"$1/bmc-helper.sh" <<'EOF'
#!/bin/sh
# ipmi_sim chassis_control helper: bmc-helper.sh BMCDIR get KEY...
# or bmc-helper.sh BMCDIR set KEY VALUE. State lives in BMCDIR/power and
# BMCDIR/boot; BMCDIR/delay (seconds) adds BMC think time.
d=$1
shift
echo "$*" >>"$d/helper.log"
if [ -s "$d/delay" ]; then
	sleep "$(cat "$d/delay")"
fi
case $1 in
get)
	shift
	for k; do
		case $k in
		power) echo "power:$(cat "$d/power")" ;;
		boot) echo "boot:$(cat "$d/boot")" ;;
		esac
	done
	;;
set)
	case $2 in
	power)
		case $3 in
		0|1) echo "$3" >"$d/power" ;;
		*) exit 1 ;;
		esac
		;;
	boot)
		case $3 in
		none|pxe|default|cdrom|bios) echo "$3" >"$d/boot" ;;
		*) exit 1 ;;
		esac
		;;
	shutdown)
		# An obedient OS: ACPI soft-off ends with the power off.
		echo 0 >"$d/power"
		;;
	reset|identify)
		;;
	*)
		exit 1
		;;
	esac
	;;
*)
	exit 1
	;;
esac
exit 0
EOF
	chmod +x "$1/bmc-helper.sh"
}

# SDR records: MB Temp (sensor 1, degrees C, upper thresholds 70/80/90)
# and Fan 1 (sensor 2, RPM = 50 x raw, lower thresholds 500/1000).
_bmc_write_sdr()
{
	cat >"$1/bmc.sdrs" <<'EOF'
sdr type 1
	sensor_owner_id		0x20
	sensor_owner_lun	0
	channel_number		0
	sensor_number		1
	entity_id		7
	entity_instance		1
	init_scanning		true
	init_events		true
	init_thresholds		true
	init_hysteresis		true
	init_sensor_type	true
	default_event_gen_on	true
	default_sensor_scan_on	true
	sensor_auto_rearm	true
	sensor_hysteresis	settable
	sensor_threshold_access	settable
	sensor_event_msg_ctrl	per_state
	sensor_type		Temperature
	event_reading_type_code	1
	analog_data_format	unsigned
	rate_unit		none
	modifier_unit		none
	percentage		false
	base_unit		degrees_C
	modifier_unit_code	unspecified
	linearization		linear
	m			1
	tolerance		0
	b			0
	accuracy		0
	accuracy_exp		0
	sensor_direction	input
	r_exp			0
	b_exp			0
	sensor_maximum		255
	sensor_minimum		0
	unc_thresh		70
	uc_thresh		80
	unr_thresh		90
	unc_thrsh_readable	true
	uc_thrsh_readable	true
	unr_thrsh_readable	true
	unc_thrsh_settable	true
	uc_thrsh_settable	true
	unr_thrsh_settable	true
	return_unc		true
	return_uc		true
	return_unr		true
	assert_uncgh		true
	assert_ucgh		true
	assert_unrgh		true
	deassert_uncgh		true
	deassert_ucgh		true
	deassert_unrgh		true
	positive_hysteresis	1
	negative_hysteresis	1
	id_string		"MB Temp"
endsdr

sdr type 1
	sensor_owner_id		0x20
	sensor_owner_lun	0
	channel_number		0
	sensor_number		2
	entity_id		29
	entity_instance		1
	init_scanning		true
	init_events		true
	init_thresholds		true
	init_sensor_type	true
	default_event_gen_on	true
	default_sensor_scan_on	true
	sensor_auto_rearm	true
	sensor_hysteresis	settable
	sensor_threshold_access	settable
	sensor_event_msg_ctrl	per_state
	sensor_type		Fan
	event_reading_type_code	1
	analog_data_format	unsigned
	rate_unit		none
	modifier_unit		none
	percentage		false
	base_unit		RPM
	modifier_unit_code	unspecified
	linearization		linear
	m			50
	b			0
	r_exp			0
	b_exp			0
	sensor_direction	input
	sensor_maximum		255
	sensor_minimum		0
	lnc_thresh		20
	lc_thresh		10
	lnc_thrsh_readable	true
	lc_thrsh_readable	true
	return_lnc		true
	return_lc		true
	assert_lncgl		true
	assert_lcgl		true
	deassert_lncgl		true
	deassert_lcgl		true
	id_string		"Fan 1"
endsdr
EOF
	"$BMC_SDRCOMP" -o "$1/sdr.main" "$1/bmc.sdrs" >"$1/sdrcomp.log" 2>&1 || {
		echo "bmc.sh: sdrcomp failed:" >&2
		cat "$1/sdrcomp.log" >&2
		return 1
	}
	# BMC_SDR_NAME: 7 bytes (any but NUL) that replace "MB Temp" in the
	# compiled records, for tests of hostile sensor names
	[ -z "${BMC_SDR_NAME:-}" ] || python3 -c 'import os, sys
p, new = sys.argv[1], os.fsencode(sys.argv[2])
b = open(p, "rb").read()
if len(new) != 7 or b.count(b"MB Temp") != 1:
    sys.exit("bmc.sh: BMC_SDR_NAME must be 7 bytes")
open(p, "wb").write(b.replace(b"MB Temp", new))' "$1/sdr.main" "$BMC_SDR_NAME"
}

# The sol line when BMC_SOL_PORT is set.
_bmc_sol_line()
{
	[ -z "${BMC_SOL_PORT:-}" ] ||
	    echo "  sol \"tcp:$(bmc_addr "$1"):$BMC_SOL_PORT\" 115200"
}

# The chassis_control line, or none when BMC_NO_HELPER=1: then ipmi_sim
# answers chassis status itself (always off) without running a shell per
# request, as a benchmark of many BMCs on two cores needs.
# With BMC_STARTCMD set, the BMC powers a process instead (a VM): power on
# runs the command (no shell: words split at spaces; it must stay in the
# foreground), power off sends it SIGTERM (SIGKILL BMC_KILL_WAIT s later,
# default 5) and the power state is whether it runs; ipmi_sim wants a VM
# serial interface for that, on BMC_VM_ADDR (127.0.0.1):BMC_VM_PORT (9002).
# BMC_SOL ("tcp:ADDR:PORT") adds a SOL console served by that TCP server.
_bmc_chassis_line()
{
	if [ -n "${BMC_STARTCMD:-}" ]; then
		echo "  serial 15 ${BMC_VM_ADDR:-127.0.0.1} ${BMC_VM_PORT:-9002} codec VM"
		echo "  startcmd \"$BMC_STARTCMD\""
		echo "  startnow false"
		echo "  poweroff_wait ${BMC_POWEROFF_WAIT:-2}"
		echo "  kill_wait ${BMC_KILL_WAIT:-5}"
		[ -z "${BMC_SOL:-}" ] || echo "  sol \"$BMC_SOL\" 115200"
		return 0
	fi
	[ "${BMC_NO_HELPER:-0}" = 1 ] ||
	    echo "  chassis_control \"$1/bmc-helper.sh $2\""
}

_bmc_write_bmc()
{
	_b=$1/bmc$2
	rm -rf "$_b"
	mkdir -p "$_b/state/ipmi_sim/bmc$2" || return 1
	echo 0 >"$_b/power"
	echo none >"$_b/boot"
	: >"$_b/delay"
	: >"$_b/helper.log"
	echo 40 >"$_b/temp"
	echo 60 >"$_b/fan"
	cp "$1/sdr.main" "$_b/state/ipmi_sim/bmc$2/sdr.20.main" || return 1
	cat >"$_b/lan.conf" <<EOF
name "bmc$2"
set_working_mc 0x20
  startlan 1
    addr $(bmc_addr "$2") 623
    priv_limit admin
    allowed_auths_callback none md2 md5 straight
    allowed_auths_user md2 md5 straight
    allowed_auths_operator md2 md5 straight
    allowed_auths_admin md2 md5 straight
    guid a123456789abcdefa123456789ab$(printf '%04x' "$2")
  endlan
$(_bmc_chassis_line "$1" "$_b")
$(_bmc_sol_line "$2")
  user 2 true "admin" "${BMC_PASSWORD:-password}" admin 10 none md2 md5 straight
  user 3 true "operator" "oppass" operator 10 none md2 md5 straight
  user 4 true "userpw" "userpass" user 10 none md2 md5 straight
EOF
	# Get Device ID per BMC K (lab facts): BMC_FW_K "MAJOR MINOR" (the
	# minor as IPMI's BCD byte: "1 0x30" is firmware 1.30), BMC_MFR_K
	# "MANUFACTURER PRODUCT" (IANA number, product id), BMC_FRU_K a
	# file of FRU data for device 0. Unset: 9.08, 0x1291 (MontaVista),
	# 0xf02, no FRU data.
	eval "_bfw=\${BMC_FW_$2:-9 8}"
	eval "_bmfr=\${BMC_MFR_$2:-0x1291 0xf02}"
	eval "_bfru=\${BMC_FRU_$2:-}"
	# Thresholds and event enables live in the simulator, not the SDR.
	cat >"$_b/bmc.emu" <<EOF
mc_setbmc 0x20
mc_add 0x20 0 no-device-sdrs 0x23 $_bfw 0x9f $_bmfr persist_sdr
$([ -z "$_bfru" ] || echo "mc_add_fru_data 0x20 0 $(wc -c <"$_bfru") file 0 \"$_bfru\"")
sel_enable 0x20 1000 0x0a
sensor_add 0x20 0 1 0x01 0x01 poll 1000 file "$_b/temp"
sensor_set_threshold 0x20 0 1 settable 111000 90 80 70 0 0 0
sensor_set_event_support 0x20 0 1 enable scanning per-state 000101010000000 000101010000000 000101010000000 000101010000000
sensor_add 0x20 0 2 0x04 0x01 poll 1000 file "$_b/fan"
sensor_set_threshold 0x20 0 2 settable 000011 0 0 0 0 10 20
sensor_set_event_support 0x20 0 2 enable scanning per-state 000000000000101 000000000000101 000000000000101 000000000000101
mc_enable 0x20
EOF
}

# Starts N BMCs, 127.0.1.FIRST.. port 623, and waits until every one is
# bound. Returns 1 (with the simulator's log on stderr) if one fails.
bmc_start()
{
	_bd=$1
	_bn=$2
	_bk=${3:-1}
	bmc_require
	case $_bd in
	/*) ;;
	*) _bd=$(pwd)/$_bd ;;
	esac
	mkdir -p "$_bd" || return 1
	# the leak check of harness.sh, when the test sourced it
	[ -z "${HARNESS_LOADED:-}" ] || harness_pidfile - "$_bd/pids" group
	_bmc_write_helper "$_bd"
	_bmc_write_sdr "$_bd" || return 1
	_bsocks=$(_bmc_sockets)
	_bi=$_bk
	while [ "$_bi" -lt $((_bk + _bn)) ]; do
		if printf '%s\n' "$_bsocks" |
		    grep -q "^$(bmc_addr "$_bi"):623 "; then
			echo "bmc.sh: $(bmc_addr "$_bi"):623 is in use:" \
			    "$(printf '%s\n' "$_bsocks" |
			    grep "^$(bmc_addr "$_bi"):623 ")" >&2
			return 1
		fi
		_bmc_write_bmc "$_bd" "$_bi" || return 1
		if [ -n "${BMC_SOL_PORT:-}" ]; then
			_bmc_console_start "$_bd" "$_bi" || return 1
		fi
		# sh writes its own PID, then becomes ipmi_sim: the PID is the
		# process group setsid made, whether or not setsid forked.
		(cd "$_bd/bmc$_bi" && exec setsid sh -c \
		    'echo $$ >>"$1"; exec "$2" -n -c lan.conf -f bmc.emu -s state' \
		    sh "$_bd/pids" "$BMC_SIM" \
		    </dev/null >"$_bd/bmc$_bi/ipmi_sim.log" 2>&1 &)
		_bi=$((_bi + 1))
	done
	_bmc_wait_ready "$_bd" "$_bk" "$_bn" || return 1
	if [ -n "${HARNESS_LOADED:-}" ]; then
		for _bp in $(cat "$_bd/pids" 2>/dev/null); do
			harness_track - "$_bp" group
		done
	fi
	[ -z "${BMC_SOL_PORT:-}" ] || _bmc_wait_consoles "$_bd" "$_bk" "$_bn"
}

# Starts BMC K's console server and waits until it listens.
_bmc_console_start()
{
	_bc=$1/bmc$2/console
	mkdir -p "$_bc" || return 1
	: >"$_bc/in"
	(exec setsid sh -c 'echo $$ >>"$1"; exec python3 "$2" "$3" "$4" "$5"' \
	    sh "$1/pids" "$(_bmc_console_server)" "$(bmc_addr "$2")" \
	    "$BMC_SOL_PORT" "$_bc" </dev/null >"$_bc/server.log" 2>&1 &)
	_bend=$(($(date +%s) + BMC_READY_TIMEOUT))
	until [ -s "$_bc/listening" ]; do
		if [ "$(date +%s)" -ge "$_bend" ]; then
			echo "bmc.sh: console of BMC $2 not listening on" \
			    "$(bmc_addr "$2"):$BMC_SOL_PORT:" >&2
			cat "$_bc/server.log" >&2
			return 1
		fi
		sleep 0.02
	done
}

# Polls until BMCs FIRST..FIRST+N-1 of DIR are connected to their consoles.
_bmc_wait_consoles()
{
	_bend=$(($(date +%s) + BMC_SOL_TIMEOUT))
	_bi=$2
	while [ "$_bi" -lt $(($2 + $3)) ]; do
		until [ -s "$1/bmc$_bi/console/conns" ]; do
			if [ "$(date +%s)" -ge "$_bend" ]; then
				echo "bmc.sh: BMC $_bi not connected to its" \
				    "console after ${BMC_SOL_TIMEOUT}s" >&2
				cat "$1/bmc$_bi/ipmi_sim.log" \
				    "$1/bmc$_bi/console/server.log" >&2
				return 1
			fi
			sleep 0.05
		done
		_bi=$((_bi + 1))
	done
}

# Polls ss until BMCs FIRST..FIRST+N-1 of DIR are bound by their ipmi_sim.
_bmc_wait_ready()
{
	_bend=$(($(date +%s) + BMC_READY_TIMEOUT))
	while :; do
		_bsocks=$(_bmc_sockets)
		_bmiss=
		_bi=$2
		while [ "$_bi" -lt $(($2 + $3)) ]; do
			printf '%s\n' "$_bsocks" |
			    grep -q "^$(bmc_addr "$_bi"):623 pid=" ||
			    _bmiss="$_bmiss $_bi"
			_bi=$((_bi + 1))
		done
		[ -z "$_bmiss" ] && return 0
		# A simulator that died will never bind: say so now.
		_bpids=$(cat "$1/pids" 2>/dev/null)
		for _bp in $_bpids; do
			if ! _bmc_alive "$_bp"; then
				echo "bmc.sh: ipmi_sim $_bp exited;" \
				    "still missing:$_bmiss" >&2
				for _bi in $_bmiss; do
					cat "$1/bmc$_bi/ipmi_sim.log" >&2
				done
				return 1
			fi
		done
		if [ "$(date +%s)" -ge "$_bend" ]; then
			echo "bmc.sh: BMCs not bound after" \
			    "${BMC_READY_TIMEOUT}s:$_bmiss" >&2
			return 1
		fi
		sleep 0.02
	done
}

# Stops every process group recorded in DIR/pids and waits for them (one
# a test already stopped itself is skipped). Never fails, also under set -e.
bmc_stop()
{
	[ -f "$1/pids" ] || return 0
	_bpids=$(cat "$1/pids" 2>/dev/null) || _bpids=
	for _bp in $_bpids; do
		kill -TERM "-$_bp" 2>/dev/null || :
	done
	_bend=$(($(date +%s) + 5))
	for _bp in $_bpids; do
		while _bmc_alive "$_bp"; do
			if [ "$(date +%s)" -ge "$_bend" ]; then
				kill -KILL "-$_bp" 2>/dev/null || :
				break
			fi
			sleep 0.02
		done
	done
	rm -f "$1/pids" || :
	return 0
}
