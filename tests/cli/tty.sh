#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Tables on a terminal (script(1) gives one): cut to $COLUMNS with "…",
# coloured unless NO_COLOR is set; a pipe gets neither.
# sh tty.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
command -v script >/dev/null 2>&1 || { echo "no script(1)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/cred.yaml" HOME="$T"
export XDG_CONFIG_HOME="$T/config" TERM=xterm
unset NO_COLOR || true
"$LAB" import "$SRC/inventory" >/dev/null 2>&1
# the dry runs below check the credential names, as the run does
cp "$SRC/tests/cli/data/credentials.yaml" "$T/cred.yaml"
chmod 600 "$T/cred.yaml"
fail=0
tty() {	# runs lab on a terminal; output without the CRs
	script -qec "$* 2>/dev/null" /dev/null | tr -d '\r'
}
ESC=$(printf '\033')

COLUMNS=50 tty "$LAB" ls hosts > "$T/narrow"
if sed 's/…/./g' "$T/narrow" | awk '{ if (length($0) > 50) bad = 1 } END { exit !bad }'; then
	echo "ls hosts: a line is wider than COLUMNS=50:"; cat "$T/narrow"
	fail=1
fi
grep -q '…' "$T/narrow" || { echo "ls hosts: no cut column"; fail=1; }
"$LAB" ls hosts | grep -q '…' && { echo "pipe: cut column"; fail=1; }

COLUMNS=200 tty "$LAB" power on @nas --dry-run > "$T/color"
grep -q "$ESC\\[" "$T/color" || { echo "power: no colour on a tty"; fail=1; }
NO_COLOR=1 COLUMNS=200 tty "$LAB" power on @nas --dry-run > "$T/plain"
grep -q "$ESC" "$T/plain" && { echo "power: colour with NO_COLOR"; fail=1; }
"$LAB" power on @nas --dry-run | grep -q "$ESC" &&
    { echo "power: colour in a pipe"; fail=1; }
COLUMNS=200 tty "$LAB" power on @nas --dry-run --csv | grep -q "$ESC" &&
    { echo "power: colour in CSV"; fail=1; }
[ $fail = 0 ] && echo "ok: tty sizing and colour"
exit $fail
