#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package of the committed tree with scripts/package.sh
# (dpkg-buildpackage, then lintian without errors), unpacks it into a temp
# folder and checks that its lab --version and man lab work:
#   sh deb.sh SRCDIR
set -eu
SRC=$1
missing=
for p in dpkg-buildpackage lintian dh fakeroot man; do
	command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ] && [ "$(id -u)" -ne 0 ]; then
	echo "deb: missing:$missing (sh scripts/deps.sh package, as root)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
T=$(mktemp -d /tmp/lab-deb-test.XXXXXX)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
deb=$(sh "$SRC/scripts/package.sh" "$T/out" | tail -n 1)
[ -f "$deb" ] || { echo "deb: no package built" >&2; exit 1; }
dpkg-deb -x "$deb" "$T/root"
v=$("$T/root/usr/bin/lab" --version)
[ "$v" = "lab $(sed -n "s/^ *version: '\([^']*\)'.*/\1/p" "$SRC/meson.build" | head -n 1)" ] ||
	{ echo "deb: installed lab --version says '$v'" >&2; exit 1; }
# the full lab, which the light one runs for most commands (cmd/full.c)
full=$(find "$T/root/usr/lib" "$T/root/usr/libexec" -name lab-full -type f \
    2>/dev/null | head -n 1)
[ -n "$full" ] && [ -x "$full" ] ||
	{ echo "deb: no lab-full in the package" >&2; exit 1; }
"$full" help power | grep -q status ||
	{ echo "deb: the packaged lab-full does not run" >&2; exit 1; }
page=$(ls "$T/root/usr/share/man/man1/lab.1"* 2>/dev/null | head -n 1)
[ -n "$page" ] || { echo "deb: no lab(1) in the package" >&2; exit 1; }
MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q "lab" ||
	{ echo "deb: man lab shows nothing" >&2; exit 1; }
for f in usr/share/bash-completion/completions/lab usr/share/lab/inventory/lab.yaml; do
	[ -e "$T/root/$f" ] || { echo "deb: $f missing from the package" >&2; exit 1; }
done
echo "deb: $(basename "$deb") builds, passes lintian, runs: $v"
