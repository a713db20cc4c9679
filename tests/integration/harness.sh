# SPDX-License-Identifier: GPL-3.0-or-later
# harness.sh: the exit path every test that starts a process shares: a
# cleanup that cannot stop half way, then a leak check. Source it from a
# POSIX sh test before bmc.sh, sshd.sh, snmp.sh or vm.sh, then:
#
#	. "$SRC/tests/integration/harness.sh"
#	T=$(mktemp -d) || exit 1
#	harness_trap 'stop_sshd; bmc_stop "$T"; rm -rf "$T"'
#	start_sshd 127.0.20.1 2222 "$T/h1" || exit 1	# recorded by sshd.sh
#	sleep 100 & harness_track sleep $!		# one of the test's own
#
# harness_trap CLEANUP
#	Sets the EXIT trap: it runs CLEANUP (shell commands, eval'd) with
#	set +eu, so that a peer already gone, a kill that fails or a file
#	not there cannot end the cleanup before the next server is stopped;
#	then harness_leaks; then exits with the test's own status, or 1 if
#	a process was left behind (a skip, 77, becomes 1 too). HUP, INT and
#	TERM exit 129, 130 and 143 through it; during the cleanup they are
#	ignored. Call it again to change CLEANUP.
# harness_track NAME PID [group]
#	Records a process the test started (NAME "-": its command name).
#	"group": PID leads a process group (setsid), and every process left
#	in that group counts as a leak too. bmc.sh, sshd.sh, snmp.sh and
#	vm.sh record what they start.
# harness_pidfile NAME FILE [group|first]
#	Records a file of PIDs, read at exit before CLEANUP runs (a server
#	that failed to start, or one started by another process, as qemu by
#	a BMC's power on), each PID then as harness_track NAME PID [group].
#	"first": only the file's first line is a PID (PostgreSQL's
#	postmaster.pid, whose other lines hold numbers that are not).
# harness_leaks
#	For every recorded process still alive (a zombie is not) prints
#	"leak: NAME (pid N) still running after cleanup" to stderr, then
#	SIGKILLs them all, waits up to 5 s for them to go, and returns 1;
#	0 when none is left. The EXIT trap calls it after CLEANUP.

# shellcheck disable=SC2034 # read by bmc.sh, sshd.sh, snmp.sh, vm.sh
HARNESS_LOADED=1
_HARNESS_PROCS=
_HARNESS_FILES=
_HARNESS_CLEANUP=

# Prints the start time (field 22 of /proc/PID/stat) of a live process;
# fails for a process that is gone or a zombie.
_harness_start()
{
	[ -r "/proc/$1/stat" ] || return 1
	_hst=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	# shellcheck disable=SC2086
	set -- $_hst
	case ${1:-} in
	''|Z|X) return 1 ;;
	esac
	# field 3 (the state) is $1 here: field 22 is $20
	[ -n "${20:-}" ] || return 1
	echo "${20}"
}

harness_track()
{
	case ${2:-} in
	''|*[!0-9]*) return 0 ;;
	esac
	_hname=$1
	if [ "$_hname" = - ]; then
		_hname=$(cat "/proc/$2/comm" 2>/dev/null) || _hname=process
	fi
	_hstart=$(_harness_start "$2") || return 0	# already gone
	case "
$_HARNESS_PROCS" in
	*"
$2 $_hstart "*) return 0 ;;
	esac
	_HARNESS_PROCS="$_HARNESS_PROCS$2 $_hstart ${3:-pid} $_hname
"
}

harness_pidfile()
{
	case "
$_HARNESS_FILES" in
	*"
${3:-pid} $1 $2
"*) return 0 ;;
	esac
	_HARNESS_FILES="$_HARNESS_FILES${3:-pid} $1 $2
"
}

# Records the PIDs of every file harness_pidfile named.
_harness_read_pidfiles()
{
	_hfiles=$_HARNESS_FILES
	while read -r _hkind _hname _hfile; do
		[ -n "$_hfile" ] && [ -r "$_hfile" ] || continue
		if [ "$_hkind" = first ]; then
			_hp=$(head -n 1 "$_hfile" 2>/dev/null) || _hp=
			harness_track "$_hname" "$_hp"
			continue
		fi
		for _hp in $(cat "$_hfile" 2>/dev/null); do
			harness_track "$_hname" "$_hp" "$_hkind"
		done
	done <<EOF
$_hfiles
EOF
}

# Prints "PID MESSAGE" for every recorded process still alive.
_harness_left()
{
	_hps=$(ps -e -o pid=,pgid=,stat= 2>/dev/null)
	_hprocs=$_HARNESS_PROCS
	while read -r _hp _hstart _hkind _hname; do
		[ -n "$_hp" ] || continue
		if [ "$(_harness_start "$_hp")" = "$_hstart" ]; then
			echo "$_hp $_hname (pid $_hp)"
		fi
		[ "$_hkind" = group ] || continue
		for _hm in $(printf '%s\n' "$_hps" | awk -v g="$_hp" \
		    '$2 == g && $1 != g && $3 !~ /^Z/ { print $1 }'); do
			echo "$_hm $(cat "/proc/$_hm/comm" 2>/dev/null ||
			    echo process) (pid $_hm, in the process group of" \
			    "$_hname $_hp)"
		done
	done <<EOF
$_hprocs
EOF
}

harness_leaks()
{
	# a process the cleanup signalled may take a moment to go
	_hend=$(($(date +%s) + 2))
	while _hleft=$(_harness_left) && [ -n "$_hleft" ] &&
	    [ "$(date +%s)" -lt "$_hend" ]; do
		sleep 0.1
	done
	[ -n "$_hleft" ] || return 0
	printf '%s\n' "$_hleft" | while read -r _hp _hmsg; do
		echo "leak: $_hmsg still running after cleanup" >&2
	done
	# shellcheck disable=SC2046
	kill -KILL $(printf '%s\n' "$_hleft" | cut -d' ' -f1) 2>/dev/null || :
	_hend=$(($(date +%s) + 5))
	while [ -n "$(_harness_left)" ] && [ "$(date +%s)" -lt "$_hend" ]; do
		sleep 0.05
	done
	return 1
}

_harness_exit()
{
	_hrc=$?
	set +eu
	trap '' HUP INT TERM
	_harness_read_pidfiles
	eval "$_HARNESS_CLEANUP"
	if ! harness_leaks; then
		echo "harness: the test left processes behind (above)" >&2
		[ "$_hrc" -ne 0 ] && [ "$_hrc" -ne 77 ] || _hrc=1
	fi
	exit "$_hrc"
}

harness_trap()
{
	_HARNESS_CLEANUP=$1
	trap _harness_exit EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
