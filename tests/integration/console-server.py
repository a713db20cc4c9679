#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A serial console behind ipmi_sim's SOL, for tests (bmc.sh starts it).

Usage: console-server.py ADDRESS PORT DIR

Listens on ADDRESS:PORT (TCP) for ipmi_sim, which connects as the host's
serial port (lan.conf: sol "tcp:ADDRESS:PORT" 115200), one connection at
a time. It answers like a terminal on a getty: an empty line (a bare
carriage return) gets "login: ", any other line comes back in capitals
followed by CR LF. Line feeds are ignored.

DIR/listening is written once it listens; DIR/conns gets a line per
connection; DIR/in gets every byte received, as received.
"""
import os
import socket
import sys


def append(path, data):
    with open(path, "ab") as f:
        f.write(data)


def serve(conn, d):
    line = b""
    while True:
        data = conn.recv(4096)
        if not data:
            return
        append(os.path.join(d, "in"), data)
        for b in data:
            c = bytes([b])
            if c == b"\n":
                continue
            if c != b"\r":
                line += c
                continue
            conn.sendall(line.upper() + b"\r\n" if line else b"login: ")
            line = b""


def main():
    addr, port, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(4)
    append(os.path.join(d, "listening"), b"%d\n" % os.getpid())
    while True:
        conn, _ = s.accept()
        append(os.path.join(d, "conns"), b"connected\n")
        try:
            serve(conn, d)
        except OSError:
            pass
        conn.close()


if __name__ == "__main__":
    main()
