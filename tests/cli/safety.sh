#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The one safety rule (SAFETY in lab(1)): exactly the verbs that can do
# what cannot be undone take --yes; a refused one changes nothing and is
# not in the audit log; what deletes nothing never asks.
# sh safety.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
T=$(mktemp -d /tmp/lab-safety.XXXXXX)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/cred.yaml" HOME="$T"
export XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
fail=0
bad() { echo "safety.sh: $*"; fail=1; }

# the verbs whose usage offers --yes, from the help of every verb
: >"$T/yes"
for c in $("$LAB" help | awk '/^commands:/ { on = 1; next }
    on && /^  [a-z]/ { print $1 } on && !/^  / { on = 0 }'); do
	verbs=$("$LAB" help "$c" | awk '/^verbs:/ { on = 1; next }
	    on && /^  [a-z]/ { print $1 }')
	if [ -z "$verbs" ]; then
		"$LAB" help "$c" | grep -q -- '\[--yes\]' && echo "$c" >>"$T/yes"
		continue
	fi
	for v in $verbs; do
		"$LAB" help "$c" "$v" | grep -q -- '\[--yes\]' &&
		    echo "$c $v" >>"$T/yes"
	done
done
printf '%s\n' "bench" "burnin" "import" "power cycle" "power off" "power reset" \
    "power soft" "provision" "switch apply" "switch sync" >"$T/want"
sort "$T/yes" | diff -u "$T/want" - || bad "the verbs with --yes differ"

# a refused --prune writes nothing and is not audited
"$LAB" import "$SRC/inventory" >/dev/null 2>&1 || bad "import"
"$LAB" ls hosts >"$T/before" 2>&1
rc=0
"$LAB" import --prune "$SRC/tests/cli/data/subset.yaml" </dev/null \
    >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 2 ] || bad "refused --prune exit $rc, want 2"
grep -q "run again with --yes" "$T/err" || bad "refusal does not name --yes"
grep -q "^- host neo$" "$T/out" || bad "refusal without the plan"
"$LAB" ls hosts >"$T/after" 2>&1
cmp -s "$T/before" "$T/after" || bad "a refused --prune removed hosts"
"$LAB" log --limit 0 >"$T/log" 2>&1
grep -q -- "--prune" "$T/log" && bad "a refused --prune is in the audit log"

# --prune that removes nothing does not ask
rc=0
"$LAB" import --prune "$SRC/inventory" </dev/null >"$T/out" 2>"$T/err" ||
    rc=$?
[ $rc = 0 ] || bad "--prune removing nothing exit $rc: $(cat "$T/err")"

# --yes goes on: the hosts are gone, and it is audited
rc=0
"$LAB" import --prune --yes "$SRC/tests/cli/data/subset.yaml" </dev/null \
    >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 0 ] || bad "--prune --yes exit $rc"
"$LAB" ls hosts >"$T/after" 2>&1
grep -q "^neo " "$T/after" && bad "--prune --yes kept neo"
"$LAB" log --limit 0 >"$T/log" 2>&1
grep -q -- "import --prune --yes" "$T/log" || bad "--prune --yes not audited"

[ $fail = 0 ] && echo "ok: one safety rule"
exit $fail
