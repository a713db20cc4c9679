#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A misbehaving SNMP v2c agent for tests/integration/snmp-bad.sh.

Usage: snmp-bad-agent.py ADDRESS PORT DIR

Serves GET, GETNEXT and GETBULK (any community) on ADDRESS:PORT (UDP; 0:
a free port) and reads the mode from DIR/mode at every request, so one
agent plays a good switch, then a bad one, at the same address. Once it
listens it writes DIR/agent.port, then DIR/agent.pid. Standard library only: a minimal BER encoder and decoder.

Modes:
  good      a 4-port switch: system group, ifTable, ifXTable, the bridge
            port map and a Q-BRIDGE MAC table of 3 entries
  endless   ifDescr never ends (ifDescr.N for every N)
  huge1k    ifAlias never ends, each value 1 KB
  huge60k   ifAlias never ends, each value 60 KB (one a datagram)
  slow      good, with a MAC table of 20000 entries, every answer 0.5 s late
  loop      the MAC table repeats its first row (next of row 1 is row 1)
  back      the MAC table steps back (next of row 2 is row 1)
"""
import bisect
import os
import socket
import sys
import time

# BER tags
INTEGER, OCTETS, NULL, OID = 0x02, 0x04, 0x05, 0x06
SEQUENCE = 0x30
COUNTER32, GAUGE32, TIMETICKS = 0x41, 0x42, 0x43
GET, GETNEXT, RESPONSE, GETBULK = 0xA0, 0xA1, 0xA2, 0xA5
NO_SUCH_OBJECT, END_OF_MIB = 0x80, 0x82

MAX_DATAGRAM = 64000    # what an answer may hold (UDP over IPv4: 65507)


def enc_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag, value):
    return bytes([tag]) + enc_len(len(value)) + value


def enc_int(tag, v):
    n = max(1, (v.bit_length() + 8) // 8)
    return tlv(tag, v.to_bytes(n, "big", signed=True))


def enc_uint(tag, v):
    n = max(1, (v.bit_length() + 8) // 8)
    return tlv(tag, v.to_bytes(n, "big", signed=False))


def enc_oid(o):
    out = bytearray([o[0] * 40 + o[1]])
    for x in o[2:]:
        part = [x & 0x7F]
        x >>= 7
        while x:
            part.append(0x80 | (x & 0x7F))
            x >>= 7
        out += bytes(reversed(part))
    return tlv(OID, bytes(out))


def dec_tlv(b, i):
    """(tag, value start, value end) of the TLV at b[i]."""
    tag = b[i]
    n = b[i + 1]
    i += 2
    if n & 0x80:
        k = n & 0x7F
        n = int.from_bytes(b[i:i + k], "big")
        i += k
    if i + n > len(b):
        raise ValueError("short")
    return tag, i, i + n


def dec_int(b, s, e):
    return int.from_bytes(b[s:e], "big", signed=True)


def dec_oid(b, s, e):
    o = [b[s] // 40, b[s] % 40]
    x = 0
    for c in b[s + 1:e]:
        x = (x << 7) | (c & 0x7F)
        if not c & 0x80:
            o.append(x)
            x = 0
    return tuple(o)


def octets(s):
    return tlv(OCTETS, s.encode() if isinstance(s, str) else s)


SYS = (1, 3, 6, 1, 2, 1, 1)
IFT = (1, 3, 6, 1, 2, 1, 2, 2, 1)
IFX = (1, 3, 6, 1, 2, 1, 31, 1, 1, 1)
BASEPORT = (1, 3, 6, 1, 2, 1, 17, 1, 4, 1, 2)
QFDB = (1, 3, 6, 1, 2, 1, 17, 7, 1, 2, 2, 1, 2)
IFDESCR = IFT + (2,)
IFALIAS = IFX + (18,)


def mac_index(k):
    return (1, 2, 0, 0, 0, k >> 8 & 0xFF, k & 0xFF)   # VLAN 1, 02:00:00:00:HH:LL


def mib(fdb_rows):
    """The good switch: a sorted list of (oid, encoded value)."""
    m = {
        SYS + (1, 0): octets("lab bad-agent test switch"),
        SYS + (2, 0): enc_oid((1, 3, 6, 1, 4, 1, 9, 6, 1, 83, 10, 1)),
        SYS + (3, 0): enc_uint(TIMETICKS, 12345),
        SYS + (5, 0): octets("bad-agent"),
    }
    for p in range(1, 5):
        m[IFT + (2, p)] = octets("gi1/0/%d" % p)
        m[IFT + (3, p)] = enc_int(INTEGER, 6)
        m[IFT + (5, p)] = enc_uint(GAUGE32, 1000000000)
        m[IFT + (7, p)] = enc_int(INTEGER, 1)
        m[IFT + (8, p)] = enc_int(INTEGER, 1)
        m[IFX + (1, p)] = octets("gi1/0/%d" % p)
        m[IFX + (15, p)] = enc_uint(GAUGE32, 1000)
        m[IFX + (18, p)] = octets("port %d" % p)
        m[BASEPORT + (p,)] = enc_int(INTEGER, p)
    for k in range(1, fdb_rows + 1):
        # rows 1 and 3 are the inventory's NICs (snmp-bad.sh), on ports 1, 3
        m[QFDB + mac_index(k)] = enc_int(INTEGER, 1 + (k - 1) % 4)
    return sorted(m.items())


GOOD = mib(3)
BIG = mib(20000)
HUGE = {"huge1k": b"a" * 1024, "huge60k": b"b" * 60000}
# the column that never ends, and its value for row N
ENDLESS = {
    "endless": (IFDESCR, lambda n: octets("gi1/0/%d" % n)),
    "huge1k": (IFALIAS, lambda n: octets(HUGE["huge1k"])),
    "huge60k": (IFALIAS, lambda n: octets(HUGE["huge60k"])),
}


class Table:
    """Sorted rows, and the first one after an OID."""

    def __init__(self, rows):
        self.rows = rows
        self.keys = [k for k, _ in rows]
        self.values = dict(rows)

    def after(self, o):
        i = bisect.bisect_right(self.keys, o)
        return self.rows[i] if i < len(self.rows) else None


TABLES = {"good": Table(GOOD), "slow": Table(BIG)}
for _mode, (_col, _) in ENDLESS.items():
    TABLES[_mode] = Table([r for r in GOOD if r[0][:len(_col)] != _col])


def next_of(mode, o):
    """The row after o in the mode's view of the switch, or None."""
    t = TABLES.get(mode, TABLES["good"])
    if mode == "loop" and o == QFDB + mac_index(1):
        return o, t.values[o]
    if mode == "back" and o == QFDB + mac_index(2):
        p = QFDB + mac_index(1)
        return p, t.values[p]
    r = t.after(o)
    if mode in ENDLESS:
        col, value = ENDLESS[mode]
        if o[:len(col)] == col and len(o) > len(col):
            return col + (o[len(col)] + 1,), value(o[len(col)] + 1)
        if o < col + (1,) and (r is None or r[0] > col):
            return col + (1,), value(1)
    return r


def varbind(o, value):
    return tlv(SEQUENCE, enc_oid(o) + value)


def answer(mode, req):
    """The encoded response to one request, or None to drop it."""
    _, s, e = dec_tlv(req, 0)
    tag, vs, ve = dec_tlv(req, s)
    version = dec_int(req, vs, ve)
    tag, cs, ce = dec_tlv(req, ve)
    community = req[cs:ce]
    pdu, ps, pe = dec_tlv(req, ce)
    _, a, b = dec_tlv(req, ps)
    reqid = dec_int(req, a, b)
    _, a, b2 = dec_tlv(req, b)
    nonrep = dec_int(req, a, b2)
    _, a, b3 = dec_tlv(req, b2)
    maxrep = dec_int(req, a, b3)
    _, ls, le = dec_tlv(req, b3)
    oids = []
    i = ls
    while i < le:
        _, vbs, vbe = dec_tlv(req, i)
        _, os_, oe = dec_tlv(req, vbs)
        oids.append(dec_oid(req, os_, oe))
        i = vbe
    out = []
    size = 0
    if pdu == GET:
        table = TABLES.get(mode, TABLES["good"]).values
        for o in oids:
            out.append(varbind(o, table.get(o, tlv(NO_SUCH_OBJECT, b""))))
    elif pdu == GETNEXT:
        for o in oids:
            r = next_of(mode, o)
            out.append(varbind(o, tlv(END_OF_MIB, b"")) if r is None
                       else varbind(*r))
    elif pdu == GETBULK:
        nonrep = max(0, min(nonrep, len(oids)))
        for o in oids[:nonrep]:
            r = next_of(mode, o)
            out.append(varbind(o, tlv(END_OF_MIB, b"")) if r is None
                       else varbind(*r))
        cur = list(oids[nonrep:])
        ended = [False] * len(cur)
        size = sum(len(x) for x in out)
        full = False
        for _ in range(max(0, maxrep)):
            for k, o in enumerate(cur):
                r = None if ended[k] else next_of(mode, o)
                if r is None:
                    ended[k] = True
                    vb = varbind(o, tlv(END_OF_MIB, b""))
                else:
                    cur[k] = r[0]
                    vb = varbind(*r)
                # as a real agent: fewer varbinds rather than tooBig
                if out and size + len(vb) > MAX_DATAGRAM:
                    full = True
                    break
                out.append(vb)
                size += len(vb)
            if full or all(ended):
                break
    else:
        return None
    body = (enc_int(INTEGER, reqid) + enc_int(INTEGER, 0) +
            enc_int(INTEGER, 0) + tlv(SEQUENCE, b"".join(out)))
    return tlv(SEQUENCE, enc_int(INTEGER, version) + octets(community) +
               tlv(RESPONSE, body))


def main():
    addr, port, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((addr, port))
    with open(os.path.join(folder, "agent.port"), "w") as f:
        f.write("%d\n" % sock.getsockname()[1])
    with open(os.path.join(folder, "agent.pid.tmp"), "w") as f:
        f.write("%d\n" % os.getpid())
    os.rename(os.path.join(folder, "agent.pid.tmp"),
              os.path.join(folder, "agent.pid"))
    while True:
        req, peer = sock.recvfrom(65535)
        try:
            with open(os.path.join(folder, "mode")) as f:
                mode = f.read().strip()
        except OSError:
            mode = "good"
        try:
            resp = answer(mode, req)
        except (ValueError, IndexError):
            continue
        if resp is None:
            continue
        if mode == "slow":
            time.sleep(0.5)
        sock.sendto(resp, peer)


if __name__ == "__main__":
    main()
