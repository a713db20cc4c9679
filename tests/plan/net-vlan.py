#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the VLAN interfaces of every network plan in the goldens.

Usage: net-vlan.py PLAN_DIR
For each plan whose files declare VLAN interfaces (ifupdown
vlan-raw-device, a networkd Kind=vlan netdev, a netplan vlans: block):
a check step tests 8021q and every VLAN name; apply.sh records the links
there before it arms the rollback; switch.sh (ifupdown) brings the VLANs
up after the bond; and the rollback's link deletions, run for real in
sh over a fake /sys/class/net and a stub ip, delete exactly the VLAN
links apply.sh did not see, and no NIC.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

failures = []


def fail(name, msg):
    failures.append("%s: %s" % (name, msg))


def vlan_names(plan):
    names = []
    for s in plan["steps"]:
        if "write" not in s:
            continue
        c = s["content"]
        names += re.findall(r"^iface (\S+) inet manual\n\tvlan-raw-device",
                            c, re.M)
        if "Kind=vlan" in c:
            names += re.findall(r"^Name=(\S+)$", c, re.M)
        m = re.search(r"^  vlans:\n((?:    .*\n?)*)", c, re.M)
        if m:
            names += re.findall(r'^    "?([^":\s]+)"?:$', m.group(1), re.M)
    return sorted(set(names))


def script(plan, name):
    for s in plan["steps"]:
        if s.get("write", "").endswith("/" + name):
            return s["content"]
    return None


def rollback_deletes(name, rollback, vlans, nics):
    """Runs the deletions of rollback.sh: VLAN 0 existed before apply."""
    lines = rollback.split("\n")
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].startswith("if [ -e /sys/class/net/") and \
                i + 2 < len(lines) and "ip link delete" in lines[i + 1]:
            blocks.append("\n".join(lines[i:i + 3]))
            i += 3
        else:
            i += 1
    with tempfile.TemporaryDirectory() as t:
        os.mkdir(os.path.join(t, "net"))
        for n in vlans + nics + ["bond0"]:
            open(os.path.join(t, "net", n), "w").close()
        with open(os.path.join(t, "links"), "w") as f:
            f.write("\n".join(nics + [vlans[0], "lo"]) + "\n")
        sh = 'S=%s\nip() { echo "$3" >>"$S/deleted"; }\n' % t
        sh += "\n".join(blocks).replace("/sys/class/net/", t + "/net/")
        sh = sh.replace('"$S/saved/links"', '"$S/links"')
        r = subprocess.run(["sh", "-eu", "-c", sh], capture_output=True,
                           text=True)
        if r.returncode != 0:
            fail(name, "rollback deletions: sh failed: " + r.stderr)
            return
        p = os.path.join(t, "deleted")
        got = open(p).read().split() if os.path.exists(p) else []
    want = set(vlans[1:])
    if not want <= set(got):
        fail(name, "rollback does not delete %s" % sorted(want - set(got)))
    bad = set(got) & (set(nics) | {vlans[0]})
    if bad:
        fail(name, "rollback deletes %s, which it did not make" % sorted(bad))


def check(name, plan):
    vlans = vlan_names(plan)
    if not vlans:
        return 0
    checks = "\n".join(s["check"] for s in plan["steps"] if "check" in s)
    if "8021q" not in checks or "/proc/net/vlan" not in checks:
        fail(name, "no check step tests 8021q")
    for v in vlans:
        if "/sys/class/net/%s " % v not in checks:
            fail(name, "no check step looks at %s" % v)
    apply_ = script(plan, "apply.sh") or ""
    arm = apply_.find("lab-net-rollback")
    save = apply_.find('ls /sys/class/net >"$S/saved/links"')
    if save < 0 or arm < 0 or save > arm:
        fail(name, "apply.sh does not record the links before arming the "
             "rollback")
    switch = script(plan, "switch.sh") or ""
    ups = re.findall(r"^ifup (\S+) \|\|", switch, re.M)
    if ups and "bond0" in ups:
        for v in vlans:
            if v not in ups or ups.index(v) < ups.index("bond0"):
                fail(name, "switch.sh does not bring %s up after bond0" % v)
    nics = sorted(set(re.findall(r"^check_nic (\S+) ", checks, re.M)) |
                  {v.split(".")[0] for v in vlans} - {"bond0"})
    rollback_deletes(name, script(plan, "rollback.sh") or "", vlans, nics)
    return 1


def main():
    n = 0
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
        name = os.path.basename(path)[:-5]
        with open(path) as f:
            plan = json.load(f)
        if plan.get("kind") == "network":
            n += check(name, plan)
    for f in failures:
        print(f, file=sys.stderr)
    print("net-vlan: %d plans with VLAN interfaces, %d failures" %
          (n, len(failures)))
    if n == 0:
        sys.exit("net-vlan: no plan with VLAN interfaces in the goldens")
    sys.exit(1 if failures else 0)


main()
