# SPDX-License-Identifier: GPL-3.0-or-later
"""What `lab bench box ... --json` must say about the lab in a box.

    python3 bench-check.py FILE BPS THROTTLED PEERS ATA:SERIAL

FILE: lab's JSON (one host's object, or an array holding it); BPS: the
write throttle qemu puts on slot THROTTLED (bytes a second); PEERS: its
unthrottled peers' slots, comma-separated; ATA:SERIAL: the slot of the
ATA disk and the serial qemu gave it. Checks: the throttled disk's
seq-write within 20% of BPS and a slow-disk or slow-write-path finding on
it; no such finding on a peer, whose seq-write is above twice BPS; the
ATA disk's SMART health "passed" with its serial and model. Prints one
line of figures; on a failure, what is wrong and exits 1.
"""
import json
import sys


def fail(msg):
    print("bench-check.py: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    path, bps, throttled, peers, ata = sys.argv[1:6]
    bps = float(bps) / 1e6
    peers = peers.split(",")
    ata_slot, ata_serial = ata.split(":", 1)
    with open(path) as f:
        doc = json.load(f)
    if isinstance(doc, list):
        if len(doc) != 1:
            fail("%d hosts in the JSON, expected 1" % len(doc))
        doc = doc[0]
    if doc.get("host") != "box":
        fail("host %r, expected box" % doc.get("host"))
    disks = {str(d.get("slot")): d for d in doc.get("disks") or []}
    for s in [throttled, ata_slot] + peers:
        if s not in disks:
            fail("no disk of slot %s in the JSON (slots: %s)"
                 % (s, ", ".join(sorted(disks))))

    def mbs(slot, test):
        for t in disks[slot].get("tests") or []:
            if t.get("name") == test and t.get("mb_s") is not None:
                return float(t["mb_s"])
        fail("slot %s has no %s result" % (slot, test))

    def flagged(slot):
        return [f for f in doc.get("findings") or []
                if f.get("kind") in ("slow-disk", "slow-write-path")
                and "(slot %s)" % slot in (f.get("subject") or "")]

    w = mbs(throttled, "seq-write")
    if not 0.8 * bps <= w <= 1.2 * bps:
        fail("slot %s seq-write %.2f MB/s, not within 20%% of %.2f"
             % (throttled, w, bps))
    if not flagged(throttled):
        fail("slot %s (%.2f MB/s written) not flagged slow-disk or "
             "slow-write-path; findings: %s"
             % (throttled, w, json.dumps(doc.get("findings"))))
    pw = []
    for p in peers:
        pw.append(mbs(p, "seq-write"))
        if pw[-1] <= 2 * bps:
            fail("peer slot %s seq-write %.2f MB/s: not unthrottled"
                 % (p, pw[-1]))
        if flagged(p):
            fail("unthrottled slot %s flagged: %s"
                 % (p, json.dumps(flagged(p))))
    smart = disks[ata_slot].get("smart") or {}
    if smart.get("health") != "passed":
        fail("slot %s SMART health %r, expected passed: %s"
             % (ata_slot, smart.get("health"), json.dumps(smart)))
    if smart.get("serial") != ata_serial or \
            disks[ata_slot].get("serial") != ata_serial:
        fail("slot %s serial %r (SMART %r), expected %s"
             % (ata_slot, disks[ata_slot].get("serial"), smart.get("serial"),
                ata_serial))
    if smart.get("model") != "QEMU HARDDISK":
        fail("slot %s SMART model %r" % (ata_slot, smart.get("model")))
    print("slot %s seq-write %.1f MB/s (%s: %s), flagged %s; slot %s %s "
          "SMART %s, seq-write %.1f MB/s; run %s"
          % (throttled, w, "+".join(peers),
             ", ".join("%.0f" % x for x in pw),
             "+".join(f["kind"] for f in flagged(throttled)), ata_slot,
             ata_serial, smart["health"], mbs(ata_slot, "seq-write"),
             doc.get("run")))


main()
