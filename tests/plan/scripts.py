#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks every shell script and netplan file in the golden plans.

Usage: scripts.py PLAN_DIR
Each tests/plan/*.json holds a plan: every check and run step, and every
written file that is a shell script (a .sh path or a #! line), must pass
`sh -n` and `shellcheck -s sh`; every file written for /etc/netplan/ must
pass `netplan generate --root-dir` in a temp root, which must then hold
the systemd-networkd files netplan makes. Missing tools skip the test
(exit 77), or fail it when LAB_TEST_REQUIRE_SIM=1.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile


def need(tool, package):
    if shutil.which(tool) or os.path.exists(tool):
        return True
    msg = "scripts: %s missing (package %s)" % (tool, package)
    if os.environ.get("LAB_TEST_REQUIRE_SIM") == "1":
        sys.exit(msg)
    print(msg, file=sys.stderr)
    sys.exit(77)


def scripts(plan):
    for i, s in enumerate(plan["steps"], 1):
        if "check" in s:
            yield i, s["check"]
        elif "run" in s:
            yield i, s["run"]
        elif s["write"].endswith(".sh") or s["content"].startswith("#!"):
            yield i, s["content"]


def netplan(plan):
    for i, s in enumerate(plan["steps"], 1):
        if "write" in s and "/etc/netplan/" in s["write"]:
            yield i, s["write"], s["content"], s["mode"]


def main():
    folder = sys.argv[1]
    need("shellcheck", "shellcheck")
    netplan_bin = shutil.which("netplan") or "/usr/sbin/netplan"
    need(netplan_bin, "netplan.io")
    failed = 0
    nnetplan = 0
    tmp = tempfile.mkdtemp()
    try:
        # one file per distinct script, named after its first use
        files = {}
        where = {}
        for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
            case = os.path.basename(path)[:-5]
            with open(path, encoding="utf-8") as f:
                plan = json.load(f)
            for i, text in scripts(plan):
                if text not in files:
                    name = os.path.join(tmp, "%s-step%d.sh" % (case, i))
                    with open(name, "w", encoding="utf-8") as f:
                        f.write(text)
                    files[text] = name
                where.setdefault(files[text], []).append("%s step %d" %
                                                         (case, i))
            for i, target, content, mode in netplan(plan):
                nnetplan += 1
                root = os.path.join(tmp, "root-%s-%d" % (case, i))
                dest = root + target[target.index("/etc/netplan/"):]
                os.makedirs(os.path.dirname(dest))
                with open(dest, "w", encoding="utf-8") as f:
                    f.write(content)
                os.chmod(dest, int(mode, 8))
                r = subprocess.run([netplan_bin, "generate", "--root-dir",
                                    root], capture_output=True, text=True)
                made = glob.glob(os.path.join(root, "run/systemd/network/*"))
                if r.returncode != 0 or not made or r.stderr.strip():
                    failed += 1
                    print("%s step %d: netplan generate: exit %d, %d "
                          "files:\n%s%s" % (case, i, r.returncode,
                                            len(made), r.stdout, r.stderr))
        names = sorted(files.values())
        for name in names:
            r = subprocess.run(["sh", "-n", name], capture_output=True,
                               text=True)
            if r.returncode != 0:
                failed += 1
                print("%s: sh -n failed:\n%s" % (", ".join(where[name]),
                                                 r.stderr))
        if names:
            r = subprocess.run(["shellcheck", "-s", "sh", "-f", "gcc"] +
                               names, capture_output=True, text=True)
            if r.returncode != 0:
                failed += 1
                out = r.stdout
                for name in names:
                    out = out.replace(name, where[name][0])
                print("shellcheck failed:\n%s%s" % (out, r.stderr))
        nscripts = len(names)
    finally:
        shutil.rmtree(tmp)
    print("%d distinct scripts, %d netplan files checked, %d failures" %
          (nscripts, nnetplan, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
