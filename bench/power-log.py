#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/power-log.py LOG [RTO_MS] [SLOWEST]: what one tool's run looked
like on the wire, from the relay's -t log cut to that run (bench/relay.c
describes the lines). Load does not change these counts, only the times.

Per host (a relay front): its sessions (client sockets), its requests,
its retransmissions (a request sent again on a socket whose last request
got no answer), the datagrams the relay dropped, and when its last
datagram passed. Prints how many hosts needed 0, 1, 2+ retransmissions
against how many lost 0, 1, 2+ datagrams, the last datagram's time, and
the SLOWEST hosts' datagrams one by one.
"""
import sys
from collections import defaultdict


def main():
    path = sys.argv[1]
    rto = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    slowest = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    pkts = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) != 7:
                continue
            pkts.append((int(p[0]), p[1], int(p[2]), int(p[3]), int(p[4]),
                         p[5], int(p[6])))
    if not pkts:
        print("    wire: no datagrams")
        return
    t0 = pkts[0][0]
    hosts = defaultdict(lambda: {"socks": [], "rq": 0, "rtx": 0, "lost": 0,
                                 "last": 0, "pkts": [], "tail": 0})
    # per socket: did its last request get an answer?
    answered = {}
    for ms, d, front, port, length, kind, lost in pkts:
        h = hosts[front]
        sock = (front, port)
        if sock not in answered:
            h["socks"].append(port)
            answered[sock] = True
        h["pkts"].append((ms - t0, d, port, length, kind, lost))
        h["last"] = ms - t0
        h["lost"] += lost
        if d == "q":
            h["rq"] += 1
            if not answered[sock]:
                h["rtx"] += 1
            answered[sock] = False
        elif not lost:
            answered[sock] = True
    for (front, port), ok in answered.items():
        # a request nobody answered at the end (a dead BMC's, or a lost
        # Close Session reply the tool waited for)
        if not ok:
            hosts[front]["tail"] += 1

    def hist(key):
        c = [0, 0, 0]
        for h in hosts.values():
            c[min(h[key], 2)] += 1
        return "%d/%d/%d" % tuple(c)

    qs = sum(1 for p in pkts if p[1] == "q")
    lq = sum(p[6] for p in pkts if p[1] == "q")
    lr = sum(p[6] for p in pkts if p[1] == "r")
    multi = sum(1 for h in hosts.values() if len(h["socks"]) > 1)
    ends = sorted(h["last"] for h in hosts.values())
    print("    wire: %d hosts, %d requests, %d replies; dropped %d requests, "
          "%d replies" % (len(hosts), qs, len(pkts) - qs, lq, lr))
    print("    hosts by datagrams lost     0/1/2+: %s" % hist("lost"))
    print("    hosts by retransmissions    0/1/2+: %s  (%d in all; %d hosts "
          "opened a second session; %d requests left unanswered)" % (
              hist("rtx"), sum(h["rtx"] for h in hosts.values()), multi,
              sum(h["tail"] for h in hosts.values())))
    print("    last datagram: median host %.3f s, last host %.3f s "
          "(rto %d ms)" % (ends[len(ends) // 2] / 1000, ends[-1] / 1000, rto))
    worst = sorted(hosts.items(), key=lambda kv: -kv[1]["last"])[:slowest]
    for front, h in worst:
        print("    slow host %d: %d lost, %d retransmissions, %d sessions, "
              "last at %.3f s:" % (front, h["lost"], h["rtx"],
                                   len(h["socks"]), h["last"] / 1000))
        line = []
        for ms, d, port, length, kind, lost in h["pkts"]:
            line.append("%d%s%s/%s%s" % (ms, d, h["socks"].index(port) + 1,
                                         kind, "X" if lost else ""))
        print("      " + " ".join(line))


main()
