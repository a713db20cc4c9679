#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs one command on a qemu human monitor (HMP) unix socket.

Usage: hmp.py SOCKET TIMEOUT COMMAND
Prints what the monitor answered; exits 1 when it could not connect or
the answer did not come within TIMEOUT seconds, and 0 otherwise (HMP has
no exit status: the caller reads the answer).
"""
import socket
import sys
import time

PROMPT = b"(qemu) "


def read_until_prompt(s, deadline):
    buf = b""
    while not buf.endswith(PROMPT):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no monitor prompt")
        s.settimeout(left)
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
    return buf


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: hmp.py SOCKET TIMEOUT COMMAND")
    path, timeout, cmd = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    deadline = time.monotonic() + timeout
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        read_until_prompt(s, deadline)
        s.sendall(cmd.encode() + b"\n")
        out = read_until_prompt(s, deadline)
    except (OSError, TimeoutError) as e:
        sys.exit("hmp.py: %s: %s: %s" % (path, cmd, e))
    finally:
        s.close()
    text = out.decode(errors="replace").replace("\r", "")
    if text.endswith(PROMPT.decode()):
        text = text[:-len(PROMPT)]
    # the monitor echoes the command line (with terminal escapes) first
    lines = text.split("\n")[1:]
    sys.stdout.write("\n".join(lines))


if __name__ == "__main__":
    main()
