#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A fan-out on a terminal (issue 17): 2 live ipmi_sim BMCs and 6 dead ones
# (addresses where nothing listens) on 127.0.81.0/24, under script(1):
# the live rows are written as they finish, long before the dead ones'
# deadline; a progress line from the start; the failures folded into one
# line; at 70 columns no line is wider. Off a terminal: the rows in target
# order, as always. --csv: the reason and the ERROR column.
# sh stream.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/bmc.sh"
bmc_require
command -v script >/dev/null 2>&1 || {
	echo "stream.sh: script(1) missing (package util-linux)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
}

T=$(mktemp -d /tmp/lab-stream.XXXXXX)
harness_trap 'bmc_stop "$T"; rm -rf "$T"'
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" NO_COLOR=1
unset COLUMNS || :
NAME=stream.sh
. "$SRC/tests/integration/check.sh"

BMC_NET=127.0.81
bmc_start "$T" 2
cat >"$T/credentials.yaml" <<END
admin: {username: admin, password: password}
swro: {community: public}
END
chmod 600 "$T/credentials.yaml"
host() {
	echo "  - {name: compute-rack1-node$1, model: generic-server, bmc:" \
	    "{type: ipmi, address: 127.0.81.$2, credential: admin," \
	    "workarounds: [opensesspriv]}}"
}
{
	echo "hosts:"
	host 01 1
	host 02 2
	for k in 3 4 5 6 7 8; do host "0$k" "1$k"; done
	# iLO 2s whose SSH port refuses (nothing listens on 127.0.81.4x:22)
	for k in 1 2 3; do
		echo "  - {name: ilo$k, model: generic-server, bmc: {type: ilo2," \
		    "address: 127.0.81.4$k, credential: admin}}"
	done
	# switches that never answer SNMP (nothing on 127.0.81.3x:161)
	echo "switches:"
	for k in 1 2 3; do
		echo "  - {name: sw$k, model: generic-switch, address:" \
		    "127.0.81.3$k, snmp: {version: 2c, credential: swro," \
		    "timeout: 1, retries: 0}}"
	done
} >"$T/lab.yaml"
"$LAB" import "$T/lab.yaml" >/dev/null 2>&1 || fail "import"
ALL='compute-rack1-node[01-08]'
SUMMARY='lab: power status: 6 of 8 failed: session timeout: compute-rack1-node\[03-08\]'

# tty NAME COLS ARGS...: runs lab on a terminal COLS wide; the terminal's
# bytes in $T/NAME.ts (script's own first line cut), their times in
# $T/NAME.tim, the exit code in $T/NAME.rc
tty() {
	_name=$1
	_cols=$2
	shift 2
	_rc=0
	script -q -e -T "$T/$_name.tim" -c "stty cols $_cols rows 50; \
	    '$LAB' $*" "$T/$_name.raw" </dev/null >/dev/null || _rc=$?
	echo "$_rc" >"$T/$_name.rc"
	sed '1d;/^Script done on /d' "$T/$_name.raw" >"$T/$_name.ts"
}
# when NAME TEXT: the seconds after the start at which the terminal got
# the first byte of TEXT (a fixed string); fails when it never did
when() {
	_off=$(grep -a -b -o -F -- "$2" "$T/$1.ts" | head -n1 | cut -d: -f1)
	[ -n "$_off" ] || fail "$1: '$2' never written"
	awk -v off="$_off" '{ t += $1; b += $2; if (b > off) { print t; exit } }' \
	    "$T/$1.tim"
}
# the terminal's lines, each piece between carriage returns on its own,
# the progress line's erase sequence taken out
lines() {
	tr '\r' '\n' <"$T/$1.ts" | sed 's/\x1b\[K//g' | grep -av '^$' || :
}

# 1. a terminal 120 wide: live rows first, within half the 3 s deadline
tty t120 120 power status "'$ALL'" --timeout 3
[ "$(rc t120)" = 1 ] || fail "t120 rc $(rc t120)"
lines t120 >"$T/t120.lines"
has t120.lines '^HOST  *STATE  *RESULT'
has t120.lines '^compute-rack1-node01  *off  *ok$'
has t120.lines '^compute-rack1-node02  *off  *ok$'
has t120.lines '^compute-rack1-node05  *?  *timeout$'
for h in 01 02; do
	s=$(when t120 "compute-rack1-node$h  off")
	awk -v s="$s" 'BEGIN { exit !(s < 1.5) }' ||
	    fail "the live row of node$h came at $s s, after the dead ones"
	echo "stream.sh: the live row of node$h came at $s s"
done
# the dead rows came after both live ones
live=$(grep -n 'node0[12]  *off' "$T/t120.lines" | tail -n1 | cut -d: -f1)
dead=$(grep -n 'node0[3-8]  *?' "$T/t120.lines" | head -n1 | cut -d: -f1)
[ "$live" -lt "$dead" ] || fail "a dead row before a live one"
# a progress line before any host finished, and counting down after
has t120.lines '^power status: 0/8 done, 8 waiting, [0-9]* s left$'
has t120.lines '^power status: 2/8 done, 6 waiting, [0-9]* s left$'
p=$(when t120 "power status: 0/8 done")
r=$(when t120 "compute-rack1-node01  off")
awk -v p="$p" -v r="$r" 'BEGIN { exit !(p <= r) }' ||
    fail "the progress line ($p s) came after the first row ($r s)"
# the bound: 3 s at most, never more than the deadline
has t120.lines '^power status: 0/8 done, 8 waiting, 3 s left$'
# one summary line, hosts folded; no line a host
has t120.lines "^$SUMMARY\$"
[ "$(grep -c '^lab: ' "$T/t120.lines")" = 1 ] || fail "not one summary line"
# the progress line is gone at the end: the summary is the last line
tail -n1 "$T/t120.lines" | grep -q "^$SUMMARY\$" || fail "t120 ends in" \
    "'$(tail -n1 "$T/t120.lines")'"
ok

# 2. 70 columns: no row, header or progress line wider, every host name
# whole, cut with "…" (the summary is a message: a terminal wraps it)
tty t70 70 power on "'$ALL'" --dry-run
[ "$(rc t70)" = 0 ] || fail "t70 rc $(rc t70)"
lines t70 >"$T/t70.lines"
tty t70s 70 power status "'$ALL'" --timeout 3
lines t70s >>"$T/t70.lines"
awk '/^lab: / { next } { n = 0; s = $0; while (length(s) > 0) { c = substr(s, 1, 1)
	if (c < "\200" || c >= "\300") n++; s = substr(s, 2) }
	if (n > 70) { print "line " NR " is " n " wide: " $0; bad = 1 } }
	END { exit bad }' "$T/t70.lines" >&2 || fail "a line over 70 columns"
[ "$(grep -c '^compute-rack1-node0[1-8]  ' "$T/t70.lines")" = 16 ] ||
    fail "host names cut at 70 columns"
has t70.lines '^compute-rack1-node01  ?  *would send power on to BMC.*…$'
has t70.lines "^$SUMMARY\$"
ok

# 3. not a terminal: the rows at the end, in target order; the summary
run pipe power status "$ALL" --timeout 3
[ "$(rc pipe)" = 1 ] || fail "pipe rc $(rc pipe)"
[ "$(sed 1d "$T/pipe.out" | cut -d' ' -f1 | tr '\n' ' ')" = \
    "$(printf 'compute-rack1-node0%s ' 1 2 3 4 5 6 7 8)" ] ||
    fail "rows not in target order: $(cat "$T/pipe.out")"
has pipe.out '^compute-rack1-node04  *?  *timeout$'
[ "$(cat "$T/pipe.err")" = "$(echo "$SUMMARY" | tr -d '\\')" ] ||
    fail "stderr is not the summary: $(cat "$T/pipe.err")"
# --verbose: one line a host, as before
run verb power status "$ALL" --timeout 3 --verbose
[ "$(grep -c 'compute-rack1-node0[3-8]: BMC 127.0.81.1[3-8]:623: session timeout' \
    "$T/verb.err")" = 6 ] || fail "--verbose: $(cat "$T/verb.err")"
ok

# 4. --csv: the reason in RESULT, the message in ERROR; JSON's reason
run csv power status "$ALL" --timeout 3 --csv
has csv.out '^HOST,STATE,RESULT,ERROR$'
has csv.out '^compute-rack1-node01,off,ok,$'
has csv.out '^compute-rack1-node03,?,timeout,BMC 127.0.81.13:623: session timeout$'
run json power status "$ALL" --timeout 3 --json
[ "$(grep -c '"reason": "timeout"' "$T/json.out")" = 6 ] || fail "json reason"
[ "$(grep -c '"reason": null' "$T/json.out")" = 2 ] || fail "json null reason"
ok

# 5. the other fan-outs: media status, switch discover of several
run media media status ilo1 ilo2 ilo3 --csv
[ "$(rc media)" = 1 ] || fail "media rc $(rc media)"
has media.out '^HOST,IMAGE,CONNECTED,BOOT,RESULT,ERROR$'
has media.out '^ilo2,,,,refused,.*127.0.81.42.*refused'
[ "$(wc -l <"$T/media.err")" = 1 ] || fail "media: $(cat "$T/media.err")"
has media.err '^lab: media status: 3 of 3 failed: .*refused: ilo\[1-3\]$'
run sw switch discover sw1 sw2 sw3 --deadline 5
[ "$(rc sw)" = 1 ] || fail "switch discover rc $(rc sw)"
[ "$(wc -l <"$T/sw.err")" = 1 ] || fail "switch: $(cat "$T/sw.err")"
has sw.err '^lab: switch discover: 3 of 3 failed: .*no answer (timeout.*: sw\[1-3\]$'
ok

echo "stream.sh: $n groups of checks passed"
