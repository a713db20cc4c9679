#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""facts.sh's comparisons. Usage: facts-check.py DIR [yaml | bmc]

Without yaml: DIR/json.out (lab facts self --json) against what the test
read itself: DIR/lsblk.json (lsblk -J -O -b), /sys/class/net, DIR/ip.json
(ip -j addr), DIR/uname (uname -r). With yaml: the NICs of a fresh
database that imported the --yaml output (DIR/fnics.out, lab ls nics
--json) hold every physical NIC of the facts. With bmc: DIR/bmc.out
(lab facts rac nocred --json) has rac's BMC read (ipmi_sim, firmware
1.20) with the known issue of the RAC's firmware, nocred's BMC not.
"""
import json
import os
import sys

KEYS = ("host", "ok", "error", "disks", "nics", "addresses", "dmi", "bmc",
        "network_manager", "findings")
DISK_KEYS = ("name", "path", "serial", "model", "firmware", "size_bytes",
             "rotational", "transport")
NIC_KEYS = ("name", "mac", "driver", "speed_mbps", "duplex", "carrier")
PSEUDO = ("loop", "ram", "zram", "nbd")


def check_disks(t, h, bad):
    disks = {d["name"]: d for d in h["disks"]}
    want = set()
    with open(os.path.join(t, "lsblk.json")) as f:
        devs = json.load(f)["blockdevices"]
    for d in devs:
        name = d.get("kname") or d["name"]
        if d["type"] != "disk" or name.startswith(PSEUDO):
            continue
        want.add(name)
        got = disks.get(name)
        if got is None:
            bad.append("disk %s missing" % name)
            continue
        if int(d["size"]) != got["size_bytes"]:
            bad.append("disk %s: size %s, lsblk %s" %
                       (name, got["size_bytes"], d["size"]))
        serial = (d.get("serial") or "").strip() or None
        if serial != got["serial"]:
            bad.append("disk %s: serial %s, lsblk %s" %
                       (name, got["serial"], serial))
        bad.extend("disk %s: no key %s" % (name, k)
                   for k in DISK_KEYS if k not in got)
    bad.extend("disk %s is no whole disk of lsblk" % n
               for n in disks if n not in want)
    if not want:
        bad.append("no whole disk on this machine to compare")
    return len(disks)


def sys_mac(p):
    own = os.path.join(p, "bonding_slave/perm_hwaddr")
    with open(own if os.path.exists(own) else
              os.path.join(p, "address")) as f:
        return f.read().strip().lower()


def check_nics(h, bad):
    nics = {n["name"]: n for n in h["nics"]}
    seen = 0
    for name in sorted(os.listdir("/sys/class/net")):
        p = os.path.join("/sys/class/net", name)
        if not os.path.exists(os.path.join(p, "address")):
            continue
        seen += 1
        got = nics.get(name)
        drv = os.path.join(p, "device/driver")
        if got is None:
            bad.append("nic %s missing" % name)
        elif got["mac"] != sys_mac(p):
            bad.append("nic %s: mac %s, /sys %s" %
                       (name, got["mac"], sys_mac(p)))
        elif os.path.islink(drv) and \
                got["driver"] != os.path.basename(os.readlink(drv)):
            bad.append("nic %s: driver %s" % (name, got["driver"]))
        elif got is not None:
            bad.extend("nic %s: no key %s" % (name, k)
                       for k in NIC_KEYS if k not in got)
    if len(nics) != seen:
        bad.append("%d NICs, /sys/class/net has %d" % (len(nics), seen))
    return len(nics)


def check_addrs(t, h, bad):
    got = {(a["ifname"], a["family"], a["address"], a["prefixlen"])
           for a in h["addresses"]}
    want = set()
    with open(os.path.join(t, "ip.json")) as f:
        for i in json.load(f):
            for a in i.get("addr_info", []):
                if "local" in a:
                    want.add((i["ifname"], a["family"], a["local"],
                              a["prefixlen"]))
    bad.extend("address %s missing" % (k,) for k in sorted(want - got))
    bad.extend("address %s is not ip's" % (k,) for k in sorted(got - want))
    if not want:
        bad.append("no address on this machine to compare")
    return len(got)


def facts(t):
    with open(os.path.join(t, "json.out")) as f:
        out = json.load(f)
    if not isinstance(out, list) or len(out) != 1:
        sys.exit("not a list of one host: %r" % out)
    return out[0]


def check_bmc(t):
    with open(os.path.join(t, "bmc.out")) as f:
        hosts = {h["host"]: h for h in json.load(f)}
    rac, nocred = hosts["rac"], hosts["nocred"]
    b = rac["bmc"]
    bad = []
    if rac["ok"] is not True:
        bad.append("rac: %s" % rac["error"])
    if b["ok"] is not True or b["error"] is not None:
        bad.append("rac: bmc %r" % b)
    if b["firmware"] != "1.20" or b["manufacturer_id"] != 11 or \
            b["manufacturer"] != "Hewlett-Packard":
        bad.append("rac: bmc %r" % b)
    ki = [f for f in rac["findings"] if f["kind"] == "known-issue"]
    if len(ki) != 1 or "1.30" not in ki[0]["message"] or \
            ki[0]["subject"] != "rac BMC":
        bad.append("rac: known issues %r" % rac["findings"])
    n = nocred["bmc"]
    if nocred["ok"] is not True or n["ok"] is not False or n["error"] != \
            "credential 'nosuch' is not in the credentials file":
        bad.append("nocred: %r" % nocred)
    if [f for f in nocred["findings"] if f["kind"] == "known-issue"]:
        bad.append("nocred: a known issue %r" % nocred["findings"])
    if bad:
        sys.exit("\n".join(bad))
    print("bmc: firmware %s, %s" % (b["firmware"], ki[0]["message"]))


def main():
    t = sys.argv[1]
    if sys.argv[2:] == ["bmc"]:
        check_bmc(t)
        return
    h = facts(t)
    bad = []
    if len(sys.argv) > 2:
        with open(os.path.join(t, "fnics.out")) as f:
            got = json.load(f)
        rows = got if isinstance(got, list) else got.get("nics", [])
        macs = {n.get("mac") for n in rows}
        phys = {n["mac"] for n in h["nics"] if n["kind"] is None}
        if not phys or not phys <= macs:
            sys.exit("imported %s, facts %s" % (sorted(macs), sorted(phys)))
        print("yaml: %d NICs imported" % len(phys))
        return
    bad.extend("no key %s" % k for k in KEYS if k not in h)
    if h["host"] != "self" or h["ok"] is not True or h["error"] is not None:
        bad.append("host %s ok %s error %s" % (h["host"], h["ok"],
                                               h["error"]))
    with open(os.path.join(t, "uname")) as f:
        if h.get("kernel") != f.read().strip():
            bad.append("kernel %s" % h.get("kernel"))
    nd = check_disks(t, h, bad)
    nn = check_nics(h, bad)
    na = check_addrs(t, h, bad)
    if bad:
        sys.exit("\n".join(bad))
    print("disks %d, nics %d, addresses %d: as the host says" % (nd, nn, na))


if __name__ == "__main__":
    main()
