#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What `lab facts box --json` must say of the lab in a box (run.sh).

Usage: facts-check.py FILE MAC [--box]

FILE holds the JSON; MAC is the NICs' first five octets (52:54:00:22:00).
Always: one row, host "box", read (ok, no error), every finding with a
severity, kind, subject and message. With --box, the guest as vm.sh
builds it and box.yaml declares it: its ten disks by kernel name, by-id
path, serial, size and rotation (the ATA one's model, firmware and
transport from SMART and lsblk), eth0..eth2 with their MACs and the
virtio driver, eth0's address, DMI as qemu's q35 gives it, the BMC read.
Prints the findings, "KIND SUBJECT" a line, and when NetworkManager
runs, "nm-managed NAME" for each interface it manages, sorted: run.sh
compares them with the exact set it expects. Exits 1, saying why, on a mismatch.
"""
import json
import sys

GIB = 1 << 30
# kernel name (None: an sd disk, named by probe order), by-id, serial,
# size, rotational
DISKS = [("vda", "virtio-lab-root", "lab-root", 3 * GIB, True)] + [
    ("vd" + chr(ord("b") + i), "virtio-lab-d%d" % (i + 1),
     "lab-d%d" % (i + 1), 2 * GIB, True) for i in range(7)] + [
    (None, "scsi-0QEMU_QEMU_HARDDISK_lab-ssd", "lab-ssd", GIB, False),
    (None, "ata-QEMU_HARDDISK_LABIDE01", "LABIDE01", 2 * GIB, True)]

errors = []


def bad(what):
    errors.append(what)


def check_box(row, mac):
    disks = {d.get("path"): d for d in row.get("disks") or []}
    for name, byid, serial, size, rota in DISKS:
        d = disks.get("/dev/disk/by-id/" + byid)
        if d is None:
            bad("no disk at /dev/disk/by-id/%s (paths: %s)"
                % (byid, sorted(str(p) for p in disks)))
            continue
        want = {"serial": serial, "size_bytes": size, "rotational": rota}
        if name is not None:
            want["name"] = name
        for k, v in want.items():
            if d.get(k) != v:
                bad("disk %s: %s is %r, want %r" % (byid, k, d.get(k), v))
        if name is None and not str(d.get("name")).startswith("sd"):
            bad("disk %s: name %r, want sd*" % (byid, d.get("name")))
    ata = disks.get("/dev/disk/by-id/ata-QEMU_HARDDISK_LABIDE01") or {}
    for k, v in (("model", "QEMU HARDDISK"), ("firmware", "2.5+"),
                 ("transport", "sata")):
        if ata.get(k) != v:
            bad("ATA disk: %s is %r, want %r" % (k, ata.get(k), v))
    if len(disks) != len(DISKS):
        bad("%d disks, want %d: %s" % (len(disks), len(DISKS),
                                       sorted(str(p) for p in disks)))
    nics = {n.get("name"): n for n in row.get("nics") or []}
    for i in range(3):
        n = nics.get("eth%d" % i)
        if n is None:
            bad("no NIC eth%d (NICs: %s)" % (i, sorted(nics)))
            continue
        for k, v in (("mac", "%s:%02d" % (mac, i + 1)),
                     ("driver", "virtio_net"), ("kind", None)):
            if n.get(k) != v:
                bad("eth%d: %s is %r, want %r" % (i, k, n.get(k), v))
    if not any(a.get("ifname") == "eth0" and a.get("address") == "10.0.2.15"
               and a.get("prefixlen") == 24
               for a in row.get("addresses") or []):
        bad("no 10.0.2.15/24 on eth0 in addresses")
    dmi = row.get("dmi") or {}
    if dmi.get("sys_vendor") != "QEMU":
        bad("DMI sys_vendor %r, want QEMU" % dmi.get("sys_vendor"))
    if not str(dmi.get("product_name")).startswith("Standard PC (Q35 + ICH9"):
        bad("DMI product_name %r, want qemu's q35" % dmi.get("product_name"))
    for k in ("bios_vendor", "bios_version", "bios_date"):
        if not dmi.get(k):
            bad("DMI %s missing" % k)
    bmc = row.get("bmc") or {}
    if bmc.get("ok") is not True or not bmc.get("firmware"):
        bad("BMC not read: %r" % bmc)
    nm = row.get("network_manager") or {}
    if nm.get("running") is not False:
        bad("NetworkManager running is %r, want false (disabled at boot)"
            % nm.get("running"))


def main():
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    if not isinstance(doc, list) or len(doc) != 1:
        print("facts-check: want one row, got %r" % (doc,), file=sys.stderr)
        sys.exit(1)
    row = doc[0]
    if row.get("host") != "box" or row.get("ok") is not True or \
            row.get("error") is not None:
        bad("row: host %r, ok %r, error %r" % (row.get("host"),
                                               row.get("ok"),
                                               row.get("error")))
    if "--box" in sys.argv[3:]:
        check_box(row, sys.argv[2])
    out = []
    for f in row.get("findings") or []:
        if not all(isinstance(f.get(k), str) and f.get(k)
                   for k in ("severity", "kind", "subject", "message")):
            bad("finding without severity, kind, subject or message: %r"
                % (f,))
            continue
        out.append("%s %s" % (f["kind"], f["subject"]))
    nm = row.get("network_manager") or {}
    if nm.get("running"):
        out.extend("nm-managed " + n for n in nm.get("managed") or [])
    for e in errors:
        print("facts-check: " + e, file=sys.stderr)
    if errors:
        sys.exit(1)
    for line in sorted(out):
        print(line)


if __name__ == "__main__":
    main()
