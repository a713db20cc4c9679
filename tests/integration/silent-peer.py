#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A TCP peer that accepts and never says a word (an SSH server that
sends no banner), holding each connection until it is closed.

Usage: silent-peer.py ADDRESS PORT READY_FILE
READY_FILE is written once it listens. Standard library only.
"""
import selectors
import socket
import sys


def main():
    address, port, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((address, port))
    ls.listen(64)
    with open(ready, "w") as f:
        f.write("%d\n" % port)
    sel = selectors.DefaultSelector()
    sel.register(ls, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select():
            if key.fileobj is ls:
                conn, _ = ls.accept()
                sel.register(conn, selectors.EVENT_READ)
                continue
            try:
                data = key.fileobj.recv(4096)
            except OSError:
                data = b""
            if not data:
                sel.unregister(key.fileobj)
                key.fileobj.close()


if __name__ == "__main__":
    main()
