#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fails when a test file exists that meson does not register.

Usage: check-tests.py TESTS_DIR UNIT_NAMES CLI_CASES PLAN_CASES
The names are the comma-separated lists from tests/unit/meson.build,
tests/cli/meson.build and tests/plan/meson.build.
"""
import os
import sys


def names(arg):
    return set(filter(None, arg.split(",")))


def main():
    tests, units, cases = sys.argv[1], names(sys.argv[2]), names(sys.argv[3])
    plans = names(sys.argv[4])
    missing = []
    for f in sorted(os.listdir(os.path.join(tests, "unit"))):
        if f.startswith("test-") and f.endswith(".c") and f[5:-2] not in units:
            missing.append("tests/unit/" + f)
    for f in sorted(os.listdir(os.path.join(tests, "cli"))):
        if f.endswith(".args") and f[:-5] not in cases:
            missing.append("tests/cli/" + f)
    for case in sorted(cases):
        for ext in (".out", ".err", ".rc"):
            if not os.path.exists(os.path.join(tests, "cli", case + ext)):
                missing.append("tests/cli/" + case + ext + " (file missing)")
    for f in sorted(os.listdir(os.path.join(tests, "plan"))):
        if f.endswith(".args") and f[:-5] not in plans:
            missing.append("tests/plan/" + f)
    for case in sorted(plans):
        if not os.path.exists(os.path.join(tests, "plan", case + ".out")):
            missing.append("tests/plan/" + case + ".out (file missing)")
    # integration scripts are registered by name in their meson.build;
    # bmc.sh, snmp.sh, sshd.sh, check.sh and pgsrv.sh are libraries they
    # source, not tests
    integ = os.path.join(tests, "integration")
    with open(os.path.join(integ, "meson.build")) as f:
        mb = f.read()
    for f in sorted(os.listdir(integ)):
        if f.endswith(".sh") and \
                f not in ("bmc.sh", "snmp.sh", "sshd.sh", "check.sh",
                          "pgsrv.sh") and \
                "'%s'" % f not in mb:
            missing.append("tests/integration/" + f)
    # the VM tier: run.sh is the test; the rest are what it uses
    vm = os.path.join(tests, "vm")
    with open(os.path.join(vm, "meson.build")) as f:
        mb = f.read()
    for f in sorted(os.listdir(vm)):
        if f.endswith(".sh") and \
                f not in ("vm.sh", "checks.sh", "image.sh") and \
                "'%s'" % f not in mb:
            missing.append("tests/vm/" + f)
    if missing:
        sys.exit("tests not registered (or incomplete): " + ", ".join(missing))


if __name__ == "__main__":
    main()
