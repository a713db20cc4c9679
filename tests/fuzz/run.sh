#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds one libFuzzer target with clang (address and undefined sanitizers)
# and runs it for a bounded time: sh run.sh SRCDIR TARGET SECONDS
# A crash, leak or timeout fails the test; crashing inputs are kept in
# tests/fuzz/corpus-TARGET/ once fixed, as regression inputs.
set -eu
SRC=$1
NAME=$2
SECS=$3
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1; then
	if [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
		echo "fuzz: clang missing (packages clang, libclang-rt-14-dev)" >&2
		exit 1
	fi
	exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
case $NAME in
mib) files="$SRC/lib/mib/[a-z]*.c $SRC/lib/str.c $SRC/lib/err.c" ;;
template) files="$SRC/lib/template.c $SRC/lib/str.c $SRC/lib/err.c" ;;
*) echo "fuzz: unknown target $NAME" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
"$CLANG" -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -I"$SRC/include" -I"$SRC/lib" \
	$files "$SRC/tests/fuzz/fuzz-$NAME.c" -o "$T/fuzz"
mkdir -p "$T/corpus"
[ -d "$SRC/tests/fuzz/corpus-$NAME" ] &&
	cp "$SRC/tests/fuzz/corpus-$NAME"/* "$T/corpus/" 2>/dev/null || true
cd "$T"
"$T/fuzz" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 "$T/corpus" 2>"$T/log" || {
	tail -40 "$T/log" >&2
	exit 1
}
grep -E "stat::number_of_executed_units|Done" "$T/log" | tail -2
