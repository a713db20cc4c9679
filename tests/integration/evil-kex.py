#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A hostile SSH server for tests: its KEXINIT's algorithm names carry
terminal escapes, a CR and bytes that are not UTF-8, so no key exchange
can agree; lab's error quotes what the server offers.

Usage: evil-kex.py ADDRESS PORT READYFILE

Each connection gets the banner and the KEXINIT, then is read until the
client closes it (at most 10 s). READYFILE is written once listening.
Standard library only.
"""
import os
import socket
import struct
import sys
import threading

EVIL = b"evil\x1b[2K\rkex\xe9\xff\x9b31m"


def name_list(names):
    return struct.pack(">I", len(names)) + names


def kexinit():
    payload = bytes([20]) + os.urandom(16)
    for _ in range(10):
        payload += name_list(EVIL)
    payload += b"\x00" + b"\x00\x00\x00\x00"
    pad = 8 - (4 + 1 + len(payload)) % 8
    if pad < 4:
        pad += 8
    return (struct.pack(">IB", 1 + len(payload) + pad, pad) + payload +
            b"\x00" * pad)


def serve(conn):
    try:
        conn.settimeout(10)
        conn.sendall(b"SSH-2.0-Evil_" + b"\x1b]0;x\x07" + b"\r\n")
        conn.sendall(kexinit())
        while conn.recv(65536):
            pass
    except OSError:
        pass
    finally:
        conn.close()


def main():
    addr, port, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(16)
    with open(ready, "w") as f:
        f.write("ready\n")
    while True:
        conn, _ = s.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
