#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An HP iLO 2 command line (SMASH CLP) for tests, behind sshd ForceCommand.

Usage (sshd_config): ForceCommand /usr/bin/python3 ilo-clp.py STATEDIR

With a command (ssh ilo 'vm cdrom get', $SSH_ORIGINAL_COMMAND) it answers
that one, as an iLO does for an SSH exec request; without one it prints
the "</>hpiLO-> " prompt and answers line by line until "exit".

Replies are in the iLO's form, CR LF line ends:

    status=0
    status_tag=COMMAND COMPLETED
    Tue Sep 17 22:50:20 2019

    <output>

and for a refusal:

    status=2
    status_tag=COMMAND PROCESSING FAILED
    error_tag=COMMAND ERROR-UNSPECIFIED
    Tue Sep 17 22:55:28 2019

    No image present in the Virtual Media drive.

The status lines, "No image present in the Virtual Media drive.", "Server
power already on.", "Server power already off.", "Server power off.",
"Resetting server." and the "vm cdrom get" fields (VM Applet, Boot Option,
Write Protect, Image Inserted, Image URL) are as captured from real iLOs
(HP's CLP guides list the commands); the other refusal texts are this
fixture's own.

Commands: vm cdrom get | insert URL | eject | set connect | disconnect |
boot_once | boot_always | boot_never; power | power on | off | reset.
Order is enforced as the iLO does: "set ..." and "eject" without an image
in, and "insert" over one, are refused (status=2). Virtual media already
held by the Java applet (STATEDIR/applet = Connected) refuses every
change.

State, one file each in STATEDIR: url (empty: none), connected (0/1),
boot (NO_BOOT, BOOT_ONCE, BOOT_ALWAYS), applet (Disconnected, Connected),
power (On, Off); log gets every command line received, in order. Test
knob: while STATEDIR/drop exists, "insert" answers status=0 but the image
does not stay (as when something else ejects it at once). While
STATEDIR/flood exists, a command is answered with the status lines, then
lines of text without end (a hostile or broken iLO).
"""
import os
import sys
import time

D = sys.argv[1] if len(sys.argv) > 1 else "."


def get(name, default):
    try:
        with open(os.path.join(D, name)) as f:
            return f.read().strip()
    except FileNotFoundError:
        return default


def put(name, value):
    tmp = os.path.join(D, name + ".tmp")
    with open(tmp, "w") as f:
        f.write(value + "\n")
    os.replace(tmp, os.path.join(D, name))


def date():
    return time.strftime("%a %b %d %H:%M:%S %Y")


def ok(*body):
    lines = ["status=0", "status_tag=COMMAND COMPLETED", date(), ""]
    return lines + list(body) + [""]


def failed(msg, tag="COMMAND ERROR-UNSPECIFIED"):
    return ["status=2", "status_tag=COMMAND PROCESSING FAILED",
            "error_tag=" + tag, date(), "", msg, ""]


NO_IMAGE = "No image present in the Virtual Media drive."


def vm_cdrom(args):
    url = get("url", "")
    applet = get("applet", "Disconnected")
    if not args:
        return failed("Invalid command.", "COMMAND SYNTAX ERROR")
    verb, rest = args[0], args[1:]
    if verb == "get" and not rest:
        return ok("VM Applet = " + applet,
                  "Boot Option = " + get("boot", "NO_BOOT"),
                  "Write Protect = Yes",
                  "Image Inserted = " + ("Connected" if url and
                                         get("connected", "0") == "1"
                                         else "Disconnected"),
                  "Image URL = " + url)
    if applet == "Connected":
        return failed("Virtual Media is in use by the Virtual Media "
                      "applet.")
    if verb == "insert" and len(rest) == 1:
        if url:
            return failed("An image is already present in the Virtual "
                          "Media drive.")
        if not rest[0].startswith(("http://", "https://")):
            return failed("Invalid URL.", "COMMAND SYNTAX ERROR")
        if not os.path.exists(os.path.join(D, "drop")):
            put("url", rest[0])
            put("connected", "0")
        return ok()
    if verb == "eject" and not rest:
        if not url:
            return failed(NO_IMAGE)
        put("url", "")
        put("connected", "0")
        put("boot", "NO_BOOT")
        return ok()
    if verb == "set" and len(rest) == 1:
        what = rest[0]
        boots = {"boot_once": "BOOT_ONCE", "boot_always": "BOOT_ALWAYS",
                 "boot_never": "NO_BOOT"}
        if what not in boots and what not in ("connect", "disconnect"):
            return failed("Invalid option.", "COMMAND SYNTAX ERROR")
        if not url:
            return failed(NO_IMAGE)
        if what == "connect":
            # connecting is booting from it always, until told otherwise
            put("connected", "1")
            put("boot", "BOOT_ALWAYS")
        elif what == "disconnect":
            put("connected", "0")
            put("boot", "NO_BOOT")
        else:
            put("boot", boots[what])
        return ok()
    return failed("Invalid command.", "COMMAND SYNTAX ERROR")


def power(args):
    state = get("power", "Off")
    if not args:
        return ok("power: server power is currently: " + state)
    if args == ["on"]:
        if state == "On":
            return failed("Server power already on.")
        put("power", "On")
        return ok("Server powering on .......")
    if args == ["off"]:
        if state == "Off":
            return failed("Server power already off.")
        put("power", "Off")
        return ok("Server powering off .......")
    if args == ["reset"]:
        if state == "Off":
            return failed("Server power off.")
        return ok("Resetting server.")
    return failed("Invalid option.", "COMMAND SYNTAX ERROR")


def answer(line):
    with open(os.path.join(D, "log"), "a") as f:
        f.write(line + "\n")
    words = line.split()
    if words[:2] == ["vm", "cdrom"]:
        return vm_cdrom(words[2:])
    if words[:1] == ["power"]:
        return power(words[1:])
    return failed("Invalid command.", "COMMAND NOT RECOGNIZED")


def write(lines):
    sys.stdout.write("".join(l + "\r\n" for l in lines))
    sys.stdout.flush()


def flood():
    write(["", "status=0", "status_tag=COMMAND COMPLETED", date(), ""])
    chunk = "".join("flood %06d all work and no play\r\n" % i
                    for i in range(1000))
    try:
        while True:
            sys.stdout.write(chunk)
    except (BrokenPipeError, OSError):
        os._exit(0)


def main():
    cmd = os.environ.get("SSH_ORIGINAL_COMMAND", "").strip()
    if cmd and os.path.exists(os.path.join(D, "flood")):
        with open(os.path.join(D, "log"), "a") as f:
            f.write(cmd + "\n")
        flood()
    if cmd:
        write([""] + answer(cmd))
        return
    write(["", "lab's test imitation of an iLO 2 command line",
           "Server Power: " + get("power", "Off"), ""])
    while True:
        sys.stdout.write("</>hpiLO-> ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line or line.strip() == "exit":
            return
        if line.strip():
            write(answer(line.strip()))


if __name__ == "__main__":
    main()
