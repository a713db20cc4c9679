#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cppcheck over lib/ and cmd/ from the build's compile_commands.json, with
# the suppressions of cppcheck.supp: sh cppcheck.sh SRCDIR BUILDDIR
# Checks: error (always on), warning, portability, performance. Any
# finding fails the test (suite 'lint').
set -eu
SRC=$1
BUILD=$2
if ! command -v cppcheck >/dev/null 2>&1; then
	echo "cppcheck: missing (package cppcheck)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
T=$(mktemp -d /tmp/lab-cppcheck.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
cd "$SRC"
rc=0
cppcheck --project="$BUILD/compile_commands.json" \
	--file-filter='*lib/*' --file-filter='*cmd/*' \
	--enable=warning,portability,performance --inline-suppr \
	--suppressions-list="$SRC/tests/lint/cppcheck.supp" \
	--error-exitcode=1 --quiet -j 2 \
	--template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
	2>"$T/out" || rc=$?
if [ -s "$T/out" ] || [ "$rc" -ne 0 ]; then
	cat "$T/out" >&2
	echo "cppcheck: findings above (fix them, or see tests/lint/README.md)" >&2
	exit 1
fi
echo "cppcheck: lib/ and cmd/ clean"
