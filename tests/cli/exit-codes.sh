#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every command and verb of 'lab help', given a bad word, exits 2 (usage or
# input error) and never anything outside 0-3: an unknown verb, an unknown
# option, an unknown positional word (host, switch, group, command), 'lab
# help CMD VERB' of a verb that does not exist. The commands and verbs come
# from the help text, so a new verb is walked too.
# sh exit-codes.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/cred.yaml" HOME="$T"
export XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
unset LAB_CONFIG LAB_FANOUT LAB_TIMEOUT LAB_FORMAT || true
"$LAB" import "$SRC/inventory" >/dev/null 2>&1
fail=0 runs=0

# expect WANT ARGS...: runs lab ARGS, checks the exit code and that it said why
expect() {
	want=$1
	shift
	rc=0
	timeout 20 "$LAB" "$@" </dev/null >"$T/out" 2>"$T/err" || rc=$?
	runs=$((runs + 1))
	if [ "$rc" != "$want" ]; then
		echo "lab $*: exit $rc, want $want: $(head -n 1 "$T/err")"
		fail=1
	elif ! [ -s "$T/err" ]; then
		echo "lab $*: exit $rc and nothing on stderr"
		fail=1
	fi
}

cmds=$("$LAB" help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$cmds" ] || { echo "no commands in 'lab help'"; exit 1; }
expect 2 nosuch-command
expect 2 help nosuch-command
ncmds=0 nverbs=0
for c in $cmds; do
	ncmds=$((ncmds + 1))
	verbs=$("$LAB" help "$c" | sed -n '/^verbs:/,/^$/p' |
	    awk 'NR > 1 && NF > 1 { print $1 }')
	if [ -n "$verbs" ]; then
		expect 2 "$c" nosuch-verb
		expect 2 help "$c" nosuch-verb
	else
		verbs=-
	fi
	for v in $verbs; do
		nverbs=$((nverbs + 1))
		if [ "$v" = - ]; then
			set -- "$c"
		else
			set -- "$c" "$v"
		fi
		expect 2 "$@" --nosuch-option
		expect 2 "$@" --nosuch-option=1
		case "$c" in
		import)	# a path: a missing file is the environment's (3)
			expect 3 "$@" "$T/nosuch-file" ;;
		*)	expect 2 "$@" nosuch-word ;;
		esac
	done
done
# one of each way the handlers refuse a word, by name
expect 2 switch ports nosuch
expect 2 switch sync nosuch
expect 2 switch discover nosuch
expect 2 ls groups nosuch
expect 2 help power nosuch
[ "$ncmds" -ge 19 ] || { echo "only $ncmds commands in 'lab help'"; fail=1; }
[ "$nverbs" -ge 30 ] || { echo "only $nverbs verbs walked"; fail=1; }
[ $fail = 0 ] && echo "ok: $runs bad command lines over $ncmds commands and" \
    "$nverbs verbs, each exit 2 (3 for a missing file)"
exit $fail
