#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A TCP server that never gets to its SSH version line, for tests.

Usage: ssh-flood.py MODE ADDRESS PORT READYFILE [UPSTREAM:PORT]

MODE:
  lines   sends lines of text ("flood NNN ...") as fast as the client
          reads them, forever, and never "SSH-2.0-..."
  drip    sends one byte ("x") every 100 ms, forever, no line end
  pre     sends a few lines of text, then relays the connection to the
          SSH server on UPSTREAM:PORT, both ways: a server that
          says other things before its version line, as RFC 4253 4.2
          allows

It accepts any number of connections, one thread each, writes READYFILE
(its PID) once it listens, and runs until killed. Standard library only.
"""
import os
import socket
import sys
import threading
import time


def lines(c):
    n = 0
    while True:
        chunk = b"".join(b"flood %09d the quick brown fox jumps over the "
                         b"lazy dog\r\n" % (n + i) for i in range(256))
        n += 256
        c.sendall(chunk)


def drip(c):
    while True:
        c.sendall(b"x")
        time.sleep(0.1)


def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    finally:
        for x in (a, b):
            try:
                x.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def pre(c, upstream):
    c.sendall(b"Welcome to the test's server\r\nhere SSH- is not at the "
              b"start\r\nSSx\r\n\r\n")
    u = socket.create_connection(upstream)
    threading.Thread(target=pipe, args=(u, c), daemon=True).start()
    pipe(c, u)
    u.close()


def serve(mode, c, upstream):
    try:
        if mode == "pre":
            pre(c, upstream)
        else:
            {"lines": lines, "drip": drip}[mode](c)
    except OSError:
        pass
    finally:
        c.close()


def main():
    mode, address, port, ready = sys.argv[1:5]
    upstream = None
    if len(sys.argv) > 5:
        host, _, uport = sys.argv[5].rpartition(":")
        upstream = (host, int(uport))
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((address, int(port)))
    s.listen(16)
    with open(ready + ".tmp", "w") as f:
        f.write("%d\n" % os.getpid())
    os.replace(ready + ".tmp", ready)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(mode, c, upstream), daemon=True).start()


if __name__ == "__main__":
    main()
