#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds lab twice (warnings as errors; then with
# AddressSanitizer and UndefinedBehaviorSanitizer) and runs every test in
# the sanitizer build, then the CLI cases under valgrind in the plain one
# (valgrind cannot run ASan binaries; not when tests are named as
# arguments). Ends with one line "N passed, N failed" from both of meson's
# test logs and exits non-zero if any test failed or was skipped.
# The suite 'vm' ("lab in a box", tests/vm: a Debian VM under qemu; its
# image is built on the first run, about 10 minutes, and cached in
# /var/cache/lab-vm) is part of it and runs last, beside the valgrind and
# pg suites of the plain build only.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh test

meson setup build-werror -Dwerror=true --wipe >/dev/null 2>&1 ||
	meson setup build-werror -Dwerror=true >/dev/null
ninja -C build-werror

meson setup build-asan -Dwerror=true -Db_sanitize=address,undefined \
	-Db_lundef=false --wipe >/dev/null 2>&1 ||
	meson setup build-asan -Dwerror=true -Db_sanitize=address,undefined \
	-Db_lundef=false >/dev/null
ninja -C build-asan

# A missing simulator fails the run instead of skipping the test.
LAB_TEST_REQUIRE_SIM=1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LAB_TEST_REQUIRE_SIM UBSAN_OPTIONS ASAN_OPTIONS
rc=0
logs=build-asan/meson-logs/testlog.json
if [ $# -gt 0 ]; then
	meson test -C build-asan --print-errorlogs "$@" || rc=$?
else
	# everything but the VM, two at a time; then the VM (qemu TCG: one
	# core) with, on the other core, one at a time, the plain build's
	# valgrind suite and the PostgreSQL variants (suite pg: each in a
	# network namespace of its own, so they cannot meet the VM's peers).
	# Before, the second core sat idle through the VM's ~10 minutes.
	meson test -C build-asan --print-errorlogs --no-suite vm || rc=$?
	vmlog=build-asan/meson-logs/vm-console.txt
	meson test -C build-asan --no-rebuild --print-errorlogs --suite vm \
	    --logbase testlog-vm >"$vmlog" 2>&1 &
	vm=$!
	trap 'kill "$vm" 2>/dev/null || :' INT TERM
	meson test -C build-werror --print-errorlogs --suite valgrind \
	    --suite pg --num-processes 1 || rc=$?
	wait "$vm" || rc=$?
	trap - INT TERM
	cat "$vmlog"
	logs="$logs build-asan/meson-logs/testlog-vm.json"
	logs="$logs build-werror/meson-logs/testlog.json"
fi

st=0
# shellcheck disable=SC2086
python3 - $logs <<'PY' || st=$?
import json, sys
passed = failed = skipped = 0
# one JSON object a line; a test's output may hold a bare carriage return
# (a serial console's), so split on newlines only
for log in sys.argv[1:]:
    with open(log, newline="\n", errors="replace") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                r = json.loads(line, strict=False)["result"]
            except ValueError:
                r = "UNREADABLE"
            if r in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif r == "SKIP":
                skipped += 1
            else:
                failed += 1
line = "%d passed, %d failed" % (passed, failed)
if skipped:
    line += ", %d skipped" % skipped
print(line)
sys.exit(1 if failed or skipped or passed == 0 else 0)
PY
[ "$rc" -eq 0 ] || exit 1
exit $st
