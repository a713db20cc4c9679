#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every option a handler asks for exists: cmd_opt(call, "NAME") in a
cmd/ file names an option of a lab_opt table that the file defines or
that its verbs use (a shared set such as cmd_bmc_opts of cmd/bmc.c), or,
for a part of a command (cmd/bench-disks.c including "bench.h"), that the
command's own file (cmd/bench.c) uses, so a typo fails here instead of
reading as "not given" at run time.

usage: opts.py SRCDIR
"""
import glob
import os
import re
import sys

TABLE = re.compile(r"struct lab_opt\s+(\w+)\[\]\s*=\s*\{(.*?)\n\};", re.S)
ENTRY = re.compile(r'\{\s*"([a-z0-9-]+)"')
ASK = re.compile(r'cmd_opt\(\s*\w+\s*,\s*"([^"]*)"\s*\)')
USES = re.compile(r"\.(?:opts|shared_opts)\s*=\s*(\w+)")


def main():
    src = sys.argv[1]
    tables, texts = {}, {}
    for p in sorted(glob.glob(os.path.join(src, "cmd", "*.c"))):
        with open(p) as f:
            texts[p] = f.read()
        for name, body in TABLE.findall(texts[p]):
            tables[name] = set(ENTRY.findall(body))
    bad, asked = [], 0
    for p, s in texts.items():
        known = set()
        used = set(USES.findall(s)) | {n for n, _ in TABLE.findall(s)}
        # cmd/NAME-PART.c including "NAME.h": the verbs of cmd/NAME.c
        base = os.path.basename(p)
        if "-" in base:
            name = base.split("-", 1)[0]
            whole = os.path.join(os.path.dirname(p), name + ".c")
            if ('#include "%s.h"' % name) in s and whole in texts:
                used |= set(USES.findall(texts[whole]))
        for t in used:
            known |= tables.get(t, set())
        for m in ASK.finditer(s):
            asked += 1
            if m.group(1) not in known:
                line = s.count("\n", 0, m.start()) + 1
                bad.append("%s:%d: cmd_opt() asks for --%s, which no verb "
                           "of this file declares" % (os.path.relpath(p, src),
                                                     line, m.group(1)))
    for b in bad:
        print("opts: " + b)
    if not tables or asked == 0:
        print("opts: found no option tables or cmd_opt() calls in cmd/")
        return 1
    if bad:
        return 1
    print("opts: %d cmd_opt() calls, each names a declared option" % asked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
