#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test 'demo': scripts/demo.sh, the README's first command, against the lab
# of this build (LAB_DEMO_BUILD: no apt, no meson), in a network namespace
# of its own (unshare -n, as root): the demo binds 127.0.3.x, which no other
# test may then collide with. It must exit 0, every lab command it shows
# must succeed, and its report must show what the README promises: the
# report page written, and the changes since the baseline, microserver1
# powered on -> off and neo's BMC reachable -> unreachable; as root, its
# quick lab bench names the write-throttled disk slow and no other, and its
# lab facts finds the rig's three disks. Nothing
# it started may be left in the namespace, no loop device or cgroup.
# sh demo.sh SRCDIR BUILDDIR FIXTURES
set -eu
SRC=$1
BUILD=$2
FIX=$3
NAME=demo.sh
if [ -z "${LAB_DEMO_NETNS:-}" ]; then
	if ! unshare -n true 2>/dev/null; then
		echo "$NAME: cannot make a network namespace (unshare -n; root?)" >&2
		[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
		exit 77
	fi
	exec env LAB_DEMO_NETNS=1 unshare -n sh "$0" "$@"
fi
ip link set lo up
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
. "$SRC/tests/integration/snmp.sh"
. "$SRC/tests/integration/sshd.sh"
. "$SRC/tests/integration/disks.sh"
bmc_require
snmp_require
if [ ! -r "$FIX/ciscosb_sg350x-24p.snmprec" ]; then
	echo "$NAME: no SNMP capture $FIX/ciscosb_sg350x-24p.snmprec" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
T=$(mktemp -d /tmp/lab-demo-test.XXXXXX)
chmod 755 "$T"
NETNS=$(readlink /proc/$$/ns/net)

# Every process still in this network namespace but this shell, into
# $T/left: the demo runs alone in it, so anything else left is the demo's
# (or its peers'). ps's output goes to a file, so that neither ps nor a
# subshell of this one is still there when it is read.
in_netns()
{
	: >"$T/left"
	ps -e -o pid= >"$T/ps" 2>/dev/null || return 0
	while read -r _p; do
		[ "$_p" != $$ ] || continue
		[ "$(readlink "/proc/$_p/ns/net" 2>/dev/null)" = "$NETNS" ] ||
			continue
		echo "$_p" >>"$T/left"
	done <"$T/ps"
}
# The cleanup: the demo's process group, then whatever of its peers is
# still in the namespace, recorded so that the harness reports it as a leak
# (the demo's own trap must have stopped them) and kills it.
cleanup()
{
	[ -z "${DEMO_PID:-}" ] || kill -TERM -- "-$DEMO_PID" 2>/dev/null
	in_netns
	while read -r _p; do
		harness_track - "$_p"
	done <"$T/left"
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
harness_trap cleanup

# setsid: the demo leads a process group of its own, so the cleanup can
# stop it whole if this test is interrupted
start=$(date +%s)
rc=0
TMPDIR=$T LAB_DEMO_BUILD=$BUILD LAB_SHARED=$(dirname "$(dirname "$FIX")") \
    setsid sh "$SRC/scripts/demo.sh" >"$T/out" 2>&1 </dev/null &
DEMO_PID=$!
DEMO_LEADER=$DEMO_PID
harness_track demo "$DEMO_PID" group
wait "$DEMO_PID" || rc=$?
DEMO_PID=
echo "$NAME: the demo took $(( $(date +%s) - start )) s"
fail=0
bad()
{
	echo "$NAME: $*" >&2
	fail=1
}
[ "$rc" -eq 0 ] || bad "scripts/demo.sh exited $rc"

# Each "(exit N)" the demo prints follows a lab command that failed: none
# may ('lab power on @nas' too: nas, which has no BMC, is a skipped row).
awk '
	/^\$ lab / { cmd = substr($0, 3) }
	/^\(exit [0-9]+\)$/ {
		print "failed: " cmd " " $0; bad = 1
	}
	END { exit bad }' "$T/out" || bad "a lab command of the demo failed"

DEMO=$(sed -n 's/^lab demo: database in \(.*\)\/lab\.db$/\1/p' "$T/out")
[ -n "$DEMO" ] || bad "the demo did not say where its database is"
REPORT=$DEMO/report.html
[ -s "$REPORT" ] || bad "no report page $REPORT"
grep -q "^The report is $REPORT: open it in a browser" "$T/out" ||
	bad "the demo did not say where the report page is"
grep -q '<html' "$REPORT" 2>/dev/null || bad "$REPORT is not an HTML page"
# the changes since the baseline: in the page and in 'lab report --since 1'
for change in '<td>power</td><td>microserver1</td><td>on -&gt; off</td>' \
    '<td>bmc</td><td>neo</td><td>reachable -&gt; unreachable</td>'; do
	grep -q "$change" "$REPORT" 2>/dev/null ||
		bad "the report page lacks the change '$change'"
done
sed -n '/^\$ lab report --since 1$/,/^\$ lab report --runs$/p' "$T/out" \
	>"$T/since"
grep -Eq '^  power +microserver1: on -> off$' "$T/since" ||
	bad "'lab report --since 1' lacks microserver1's power on -> off"
grep -Eq '^  bmc +neo: reachable -> unreachable$' "$T/since" ||
	bad "'lab report --since 1' lacks neo's bmc reachable -> unreachable"
# what the README's tour says the demo shows
for cmd in 'power status --all' 'switch discover sg200' \
    'provision nas --layout raid10 --dry-run' \
    'provision neo --bond active-backup --bridge br0 --dry-run' \
    'report --runs'; do
	grep -qxF "\$ lab $cmd" "$T/out" || bad "the demo does not run 'lab $cmd'"
done
# the quick disk bench (as root, with the disk rig's tools): the throttled
# disk (slot 2) named slow-disk or slow-write-path, its peers' writes not;
# without the rig's tools the demo says it skipped it (LAB_TEST_REQUIRE_SIM=1:
# a failure)
sed -n '/^\$ lab bench rig --profile quick --yes$/,/^\$ lab \|^The report is /p' \
	"$T/out" >"$T/bench"
if ( sshd_require && disks_require ) >"$T/rig.why" 2>&1; then
	[ -s "$T/bench" ] || bad "the demo does not run 'lab bench rig'"
	grep -E 'slow-(disk|write-path)' "$T/bench" | grep -q '(slot 2)' ||
		bad "'lab bench rig' names no slow disk in slot 2"
	# the peers' writes (reads of loop devices are CPU-bound and vary 2x
	# on a loaded machine)
	grep -E 'slow-(disk|write-path)' "$T/bench" | grep '(slot [13])' |
	    grep -q ' writes ' &&
		bad "'lab bench rig' names an unthrottled disk's writes slow"
	# lab facts of the rig: its three loop devices are the disks rig.yaml
	# declares, none missing
	sed -n '/^\$ lab facts rig$/,/^\$ lab \|^The report is /p' \
		"$T/out" >"$T/facts"
	grep -q '^== rig ==$' "$T/facts" || bad "the demo does not run 'lab facts rig'"
	[ "$(grep -Ec '^loop[0-9]+ ' "$T/facts")" -ge 3 ] ||
		bad "'lab facts rig' lists fewer than the rig's three loop devices"
	grep -E '^[a-z]+ disk-(missing|size|kind) ' "$T/facts" &&
		bad "'lab facts rig' does not find the disks rig.yaml declares"
elif [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
	bad "no disk rig for the demo's bench: $(tail -1 "$T/rig.why")"
else
	grep -q '^--- the disk bench is skipped: ' "$T/out" ||
		bad "the demo neither benched the rig nor said why not"
fi
# the rig is gone: no loop device on the demo's files, no cgroup
losetup -nO NAME,BACK-FILE 2>/dev/null | grep -F "$T/" >"$T/loops" || :
[ ! -s "$T/loops" ] || bad "the demo left loop devices: $(cat "$T/loops")"
for cg in /sys/fs/cgroup/blkio/lab-rig-"$DEMO_LEADER"-rig \
    /sys/fs/cgroup/lab-rig-"$DEMO_LEADER"-rig; do
	[ ! -e "$cg" ] || bad "the demo left its cgroup $cg"
done
# its peers are gone once it has ended (its own trap stops them)
in_netns
left=$(tr '\n' ' ' <"$T/left")
[ -z "$left" ] || bad "the demo left processes behind: $left"
if [ "$fail" -ne 0 ]; then
	echo "--- the demo's output:" >&2
	cat "$T/out" >&2
	exit 1
fi
echo "$NAME: ok"
