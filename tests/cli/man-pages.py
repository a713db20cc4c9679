#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the man pages against the command table of the built binary.

Usage: man-pages.py LAB DOC_DIR

Every command 'lab help' lists has doc/lab-COMMAND.1.scd, listed in
doc/meson.build and named in lab(1); every verb and every option that
'lab help COMMAND [VERB]' offers is on that page; every option the page
names is one the command offers; and there is no page for a command that
does not exist.
"""
import os
import re
import subprocess
import sys

OPT = re.compile(r"--[a-z][a-z0-9-]*")


def help_text(lab, *words):
    p = subprocess.run([lab, "help", *words], capture_output=True,
                       text=True, check=True)
    return p.stdout


def section(text, name):
    """The indented lines after 'name:'."""
    out, on = [], False
    for line in text.splitlines():
        if line == name + ":":
            on = True
        elif on and line.startswith("  "):
            out.append(line)
        elif on and line.strip():
            break
    return out


def offered(text):
    """Options in the usage lines and the options: section."""
    opts = set()
    for line in text.splitlines():
        if line.startswith("usage:") or line.startswith("  lab "):
            opts |= set(OPT.findall(line))
    for line in section(text, "options"):
        m = re.match(r"  (--[a-z][a-z0-9-]*)", line)
        if m:
            opts.add(m.group(1))
    return opts


def page_text(path):
    with open(path) as f:
        return f.read().replace("\\", "")


def main():
    lab, doc = sys.argv[1], sys.argv[2]
    bad = []
    with open(os.path.join(doc, "meson.build")) as f:
        meson = f.read()
    top = page_text(os.path.join(doc, "lab.1.scd"))
    cmds = [l.split()[0] for l in section(help_text(lab), "commands")]
    if not cmds:
        bad.append("'lab help' lists no commands")
    every = {"--version", "--help"}
    for cmd in cmds:
        page = os.path.join(doc, "lab-%s.1.scd" % cmd)
        if not os.path.exists(page):
            bad.append("command '%s' has no page doc/lab-%s.1.scd" %
                       (cmd, cmd))
            continue
        text = page_text(page)
        if "'lab-%s'" % cmd not in meson:
            bad.append("doc/meson.build does not build lab-%s" % cmd)
        if "*lab-%s*(1)" % cmd not in top:
            bad.append("lab(1) does not name lab-%s(1)" % cmd)
        usage = help_text(lab, cmd)
        verbs = [l.split()[0] for l in section(usage, "verbs")]
        opts = set()
        if verbs:
            for verb in verbs:
                opts |= offered(help_text(lab, cmd, verb))
                if "*%s*" % verb not in text:
                    bad.append("lab-%s(1) lacks the verb '%s'" % (cmd, verb))
        else:
            opts = offered(usage)
        every |= opts
        on_page = set(OPT.findall(text))
        for o in sorted(opts - on_page):
            bad.append("lab-%s(1) lacks the option '%s'" % (cmd, o))
        for o in sorted(on_page - opts):
            bad.append("lab-%s(1) names '%s', which 'lab %s' does not offer"
                       % (cmd, o, cmd))
    for o in sorted(set(OPT.findall(top)) - every):
        bad.append("lab(1) names '%s', which no command offers" % o)
    for f in sorted(os.listdir(doc)):
        m = re.match(r"lab-(.*)\.1\.scd$", f)
        if m and m.group(1) not in cmds:
            bad.append("doc/%s documents no command" % f)
    for b in bad:
        print("man-pages: " + b, file=sys.stderr)
    print("man-pages: %d commands checked, %d problems" % (len(cmds),
          len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
