#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# clang-tidy over lib/ and cmd/ with the checks of .clang-tidy, using the
# build's compile_commands.json: sh clang-tidy.sh SRCDIR BUILDDIR
# Any finding fails the test (suite 'lint').
set -eu
SRC=$1
BUILD=$2
TIDY=${CLANG_TIDY:-clang-tidy}
if ! command -v "$TIDY" >/dev/null 2>&1; then
	echo "clang-tidy: missing (package clang-tidy)" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
T=$(mktemp -d /tmp/lab-tidy.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
# the lib/ and cmd/ files the build compiles, as absolute paths
python3 - "$BUILD/compile_commands.json" "$SRC" >"$T/files" <<'PY'
import json, os, sys
src = os.path.realpath(sys.argv[2])
seen = set()
for e in json.load(open(sys.argv[1])):
    f = os.path.realpath(os.path.join(e["directory"], e["file"]))
    rel = os.path.relpath(f, src)
    if rel.split(os.sep)[0] in ("lib", "cmd") and f not in seen:
        seen.add(f)
        print(f)
PY
[ -s "$T/files" ] || { echo "clang-tidy: no lib/ or cmd/ files in" \
	"$BUILD/compile_commands.json" >&2; exit 1; }
# two at a time (CI has two cores); -quiet leaves only findings. The
# build is gcc's: clang does not know some of its warning options, which
# -Werror would turn into errors.
rc=0
xargs -P 2 -n 4 "$TIDY" -p "$BUILD" --quiet \
	--extra-arg=-Wno-unknown-warning-option <"$T/files" >"$T/out" \
	2>"$T/err" || rc=$?
if grep -q ': \(warning\|error\):' "$T/out" || [ "$rc" -ne 0 ]; then
	cat "$T/out" >&2
	grep -v 'warnings\? generated\|Suppressed\|Use -header-filter\|NOLINT' \
		"$T/err" >&2 || true
	echo "clang-tidy: findings above (fix them, or see tests/lint/README.md)" >&2
	exit 1
fi
echo "clang-tidy: $(wc -l <"$T/files") files clean"
