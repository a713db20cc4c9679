#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds one libFuzzer target with clang (address and undefined sanitizers)
# and runs it for a bounded time: sh run.sh SRCDIR TARGET SECONDS SOURCES...
# SOURCES are the lib files it links, relative to SRCDIR (globs allowed);
# LAB_FUZZ_SECONDS overrides SECONDS. Every input of corpus-TARGET/ runs
# first (regression inputs), then new ones for SECONDS, with TARGET.dict
# when there. A crash, leak, timeout (30 s on one input: a hang never
# ends, a slow input on a busy machine must not fail) or out-of-memory
# fails the test; the input is then left in the test's log, in base64, and
# once fixed it goes into corpus-TARGET/.
set -eu
SRC=$1
NAME=$2
SECS=${LAB_FUZZ_SECONDS:-$3}
shift 3
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1; then
	if [ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ]; then
		echo "fuzz: clang missing (packages clang, libclang-rt-14-dev)" >&2
		exit 1
	fi
	exit 77
fi
T=$(mktemp -d /tmp/lab-fuzz.XXXXXX)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
cd "$SRC"
# shellcheck disable=SC2068
"$CLANG" -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -Iinclude -Ilib \
	$@ "tests/fuzz/fuzz-$NAME.c" -o "$T/fuzz" -lyaml -ljson-c -lm
mkdir -p "$T/corpus"
if [ -d "tests/fuzz/corpus-$NAME" ]; then
	cp "tests/fuzz/corpus-$NAME"/* "$T/corpus/"
fi
set -- -max_total_time="$SECS" -timeout=30 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$T/"
[ -f "tests/fuzz/$NAME.dict" ] && set -- "$@" -dict="tests/fuzz/$NAME.dict"
"$T/fuzz" "$@" "$T/corpus" 2>"$T/log" || {
	tail -60 "$T/log" >&2
	for f in "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-*; do
		[ -f "$f" ] || continue
		echo "fuzz: input $(basename "$f") in base64:" >&2
		base64 "$f" >&2
	done
	exit 1
}
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^#[0-9]+.*DONE" \
	"$T/log"
