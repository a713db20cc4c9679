#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs a command on a pseudo-terminal and drives it, for tests.

Usage: pty-run.py OUT STEP... -- COMMAND ARGS...

Everything the command prints on the terminal goes to OUT. The steps run
in order; the first that fails prints why on stderr and exits 1 (the
command is killed). Waits poll with a deadline (DEADLINE seconds, 30),
never a fixed sleep.

  expect=TEXT      wait until the output (after the last match) has TEXT
  send=TEXT        type TEXT (Python escapes: \\r, \\x03 ...)
  retry=TEXT=WANT  type TEXT until WANT shows (a dropped packet is
                   typed again, up to 5 times, 3 s apart)
  raw              the terminal must be in raw mode (no ICANON, ECHO, ISIG)
  restored         the terminal must be as it was before the command ran
  signal=NAME      send signal NAME (TERM, INT, HUP) to the command
  exit=N           wait for the command to end with exit code N
  pidfile=FILE     write the command's PID to FILE
  shell=CMD        run CMD with sh -c (it must succeed)
"""
import codecs
import os
import select
import signal
import subprocess
import sys
import termios
import time

DEADLINE = 30.0


class Run:
    def __init__(self, out, argv):
        self.out = open(out, "wb")
        self.buf = b""
        self.pos = 0
        self.status = None
        self.master, self.slave = os.openpty()
        self.initial = termios.tcgetattr(self.slave)
        self.pid = os.fork()
        if self.pid == 0:
            os.setsid()
            os.close(self.master)
            import fcntl
            fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(self.slave, fd)
            os.execvp(argv[0], argv)

    def pump(self, timeout):
        r, _, _ = select.select([self.master], [], [], timeout)
        if r:
            try:
                d = os.read(self.master, 4096)
            except OSError:
                d = b""
            self.buf += d
            self.out.write(d)
            self.out.flush()

    def reap(self):
        if self.status is None:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.status = st
        return self.status

    def wait_for(self, want, deadline):
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            i = self.buf.find(want, self.pos)
            if i >= 0:
                self.pos = i + len(want)
                return True
            self.pump(0.05)
            if self.reap() is not None:
                self.pump(0)
        return False


def fail(run, msg):
    sys.stderr.write("pty-run: %s\n--- output:\n%s\n" %
                     (msg, run.buf.decode(errors="replace")))
    if run.reap() is None:
        os.kill(run.pid, signal.SIGKILL)
        os.waitpid(run.pid, 0)
    sys.exit(1)


def text(s):
    return codecs.decode(s, "unicode_escape").encode("latin-1")


def step(run, s):
    name, _, arg = s.partition("=")
    if name == "expect":
        if not run.wait_for(text(arg), DEADLINE):
            fail(run, "no %r in the output" % arg)
    elif name == "send":
        os.write(run.master, text(arg))
    elif name == "retry":
        what, _, want = arg.partition("=")
        for _ in range(5):
            os.write(run.master, text(what))
            if run.wait_for(text(want), 3.0):
                return
        fail(run, "no %r after typing %r 5 times" % (want, what))
    elif name == "raw":
        lflag = termios.tcgetattr(run.slave)[3]
        if lflag & (termios.ICANON | termios.ECHO | termios.ISIG):
            fail(run, "terminal not in raw mode (lflag %#o)" % lflag)
    elif name == "restored":
        now = termios.tcgetattr(run.slave)
        if now != run.initial:
            fail(run, "terminal not restored: %r, was %r" %
                 (now, run.initial))
    elif name == "signal":
        os.kill(run.pid, getattr(signal, "SIG" + arg))
    elif name == "exit":
        end = time.monotonic() + DEADLINE
        while run.reap() is None and time.monotonic() < end:
            run.pump(0.05)
        run.pump(0)
        st = run.reap()
        if st is None:
            fail(run, "still running")
        code = os.waitstatus_to_exitcode(st)
        if code != int(arg):
            fail(run, "exit code %d, not %s" % (code, arg))
    elif name == "pidfile":
        with open(arg, "w") as f:
            f.write("%d\n" % run.pid)
    elif name == "shell":
        if subprocess.run(["sh", "-c", arg]).returncode != 0:
            fail(run, "%r failed" % arg)
    else:
        fail(run, "unknown step %r" % s)


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 3:
        sys.exit(__doc__)
    i = args.index("--")
    run = Run(args[0], args[i + 1:])
    for s in args[1:i]:
        step(run, s)
    # the steps must end the command; drain what is left into OUT
    end = time.monotonic() + DEADLINE
    while run.reap() is None and time.monotonic() < end:
        run.pump(0.05)
    run.pump(0)
    if run.reap() is None:
        fail(run, "still running after the last step")


if __name__ == "__main__":
    main()
