#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks how every bond plan in the goldens confirms a network change.

Usage: net-confirm.py PLAN_DIR
A connection lab opened before switch.sh cut the old config may still run
a command; it proves nothing of the new config and must never confirm.
So: the plan waits ("confirm.sh wait") over one new connection, then
confirms ("confirm.sh") over another, as its last step; and confirm.sh,
run in a temp staging folder (systemctl stubbed), never confirms while
waiting, refuses before the switch is done or after a failed one, and
after the rollback.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

failures = []


def fail(name, msg):
    failures.append("%s: %s" % (name, msg))


def steps_ok(name, plan):
    steps = plan["steps"]
    staging = plan["staging"]
    runs = [(i, s) for i, s in enumerate(steps) if "run" in s]
    wait = [i for i, s in runs if s["run"] == "sh %s/confirm.sh wait" % staging]
    conf = [i for i, s in runs if s["run"] == "sh %s/confirm.sh" % staging]
    apply_ = [i for i, s in runs if s["run"] == "sh %s/apply.sh" % staging]
    if len(wait) != 1 or len(conf) != 1 or len(apply_) != 1:
        fail(name, "not one apply.sh, one confirm.sh wait and one "
             "confirm.sh step")
        return
    a, w, c = apply_[0], wait[0], conf[0]
    if not a < w < c or c != len(steps) - 1:
        fail(name, "not apply.sh, confirm.sh wait, then confirm.sh last")
    if steps[a]["reconnect"]:
        fail(name, "apply.sh runs on a new connection")
    if not steps[w]["reconnect"] or not steps[c]["reconnect"]:
        fail(name, "the wait and the confirmation are not each on a new "
             "connection")
    if steps[w]["timeout_s"] < plan["rollback_s"]:
        fail(name, "the wait gives up before the rollback window ends")


def confirm_ok(name, plan):
    staging = plan["staging"]
    content = [s["content"] for s in plan["steps"]
               if s.get("write") == staging + "/confirm.sh"]
    if len(content) != 1:
        fail(name, "no confirm.sh written")
        return
    line = "S=%s\n" % staging
    if line not in content[0]:
        fail(name, "confirm.sh does not set S=" + staging)
        return
    with tempfile.TemporaryDirectory() as t:
        s = os.path.join(t, "net")
        bin_ = os.path.join(t, "bin")
        os.makedirs(bin_)
        with open(os.path.join(bin_, "systemctl"), "w") as f:
            f.write('#!/bin/sh\necho "$*" >>"%s/systemctl.log"\n' % t)
        os.chmod(os.path.join(bin_, "systemctl"), 0o755)
        script = os.path.join(t, "confirm.sh")
        with open(script, "w") as f:
            f.write(content[0].replace(line, "S=%s\n" % s, 1))
        env = dict(os.environ, PATH=bin_ + ":" + os.environ["PATH"])

        def case(what, files, args, rc, decided, pending):
            subprocess.run(["rm", "-rf", s], check=True)
            os.makedirs(s)
            with open(os.path.join(s, "pending"), "w") as f:
                f.write("0\n")
            for k, v in files.items():
                if v is None:
                    os.makedirs(os.path.join(s, k))
                else:
                    with open(os.path.join(s, k), "w") as f:
                        f.write(v)
            try:
                p = subprocess.run(["sh", script] + args, env=env,
                                   timeout=10, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
            except subprocess.TimeoutExpired:
                fail(name, "%s: still running after 10 s" % what)
                return
            got = (p.returncode, os.path.isdir(os.path.join(s, "decided")),
                   os.path.exists(os.path.join(s, "pending")))
            if got != (rc, decided, pending):
                fail(name, "%s: exit %d, decided %s, pending %s (want %d, "
                     "%s, %s): %s" % ((what,) + got + (rc, decided, pending,
                                      p.stdout.strip())))

        case("wait once switched", {"switched": "ok\n"}, ["wait"],
             0, False, True)
        case("wait after a failed switch", {"switched": "failed\n",
             "decided": None}, ["wait"], 1, True, True)
        case("wait after the rollback", {"decided": None}, ["wait"],
             1, True, True)
        case("confirm before the switch is done", {}, [], 1, False, True)
        case("confirm after a failed switch", {"switched": "failed\n"}, [],
             1, False, True)
        case("confirm once switched", {"switched": "ok\n"}, [],
             0, True, False)
        case("confirm after the rollback", {"switched": "ok\n",
             "decided": None}, [], 1, True, True)


def main():
    n = 0
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
        with open(path) as f:
            plan = json.load(f)
        if plan.get("kind") != "network":
            continue
        name = os.path.basename(path)
        steps_ok(name, plan)
        confirm_ok(name, plan)
        n += 1
    if n == 0:
        sys.exit("net-confirm: no network plans in " + sys.argv[1])
    if failures:
        sys.exit("\n".join(failures))
    print("net-confirm: %d network plans" % n)


if __name__ == "__main__":
    main()
