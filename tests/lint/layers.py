#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The rules of lib/ (lib/README.md), checked on this build's objects.

usage: layers.py SRCDIR BUILDDIR

- dependencies point down: core <- inventory <- {db, ipmi, snmp, ssh,
  plan, bench, facts} <- report <- lib/ top level <- cmd/; layers of one rank do not
  use each other; no file-level cycle anywhere in liblab (from nm);
- sqlite3.h, libpq-fe.h and the db-private header only inside lib/db/; a file of
  lib/ includes no private header of a layer above its own;
- every extern symbol of liblab starts with lab_ (nm -g);
- no getenv, time, clock_gettime or gettimeofday in lib/ outside
  lib/core/ (the clock and environment reach the rest through lab_ctx);
- cmd/ includes only include/lab/ headers and its own.

Prints one line per broken rule, naming the file (and symbol), and
exits 1 if any; else one line saying what was checked.
"""
import json
import os
import re
import subprocess
import sys

RANK = {"core": 0, "inventory": 1, "db": 2, "ipmi": 2, "snmp": 2,
        "ssh": 2, "plan": 2, "bench": 2, "facts": 2, "report": 3, "": 4}
# what the compiler adds for a sanitizer build (ODR indicators), not ours
COMPILER = ("__odr_asan", "__asan_", "__ubsan_", "__sanitizer_",
            "__sancov_")
CLOCK_ENV = {"getenv", "secure_getenv", "time", "clock_gettime",
             "gettimeofday"}


def layer(rel):
    """lib/db/store.c -> db; lib/bmc.c -> '' (the top level)."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 else ""


def nm(path, *flags):
    out = subprocess.run(["nm", *flags, path], capture_output=True,
                         text=True, check=True).stdout
    return [line.split() for line in out.splitlines()]


def objects(src, build):
    """{source path relative to SRCDIR: object path} for liblab."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        cmds = json.load(f)
    objs = {}
    for c in cmds:
        out = c["output"]
        if "liblab.a.p" not in out:
            continue
        path = os.path.normpath(os.path.join(c["directory"], c["file"]))
        rel = os.path.relpath(path, src)
        objs[rel] = os.path.normpath(os.path.join(c["directory"], out))
    return objs


def graph(objs):
    defs, uses = {}, {}
    for rel, o in objs.items():
        uses[rel] = set()
        for f in nm(o):
            if len(f) == 3 and f[1] in "TDBRCVW":
                defs[f[2]] = rel
            elif len(f) == 2 and f[0] == "U":
                uses[rel].add(f[1])
    edges = {}
    for rel, u in uses.items():
        edges[rel] = {}
        for s in sorted(u):
            d = defs.get(s)
            if d is not None and d != rel:
                edges[rel].setdefault(d, s)
    return edges, uses


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def includes(path):
    with open(path, errors="replace") as f:
        return INCLUDE.findall(f.read())


def sources(src, top):
    for d, _, fs in os.walk(os.path.join(src, top)):
        for f in sorted(fs):
            if f.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(d, f), src)


def main():
    src, build = sys.argv[1], sys.argv[2]
    bad = []
    objs = objects(src, build)
    if not objs:
        print("layers: no liblab objects in %s" % build, file=sys.stderr)
        return 1
    edges, uses = graph(objs)

    for a in sorted(edges):
        for b, sym in sorted(edges[a].items()):
            la, lb = layer(a), layer(b)
            if la == lb or RANK[lb] < RANK[la]:
                continue
            bad.append("%s uses %s of %s: lib/%s may not use lib/%s"
                       % (a, sym, b, la or "(top)", lb or "(top)"))
    for comp in cycles(edges):
        bad.append("cycle: " + " <-> ".join(comp))

    for rel, u in sorted(uses.items()):
        if layer(rel) == "core":
            continue
        for s in sorted(u & CLOCK_ENV):
            bad.append("%s calls %s(): the clock and environment come "
                       "through lab_ctx (lib/core/)" % (rel, s))

    lib = os.path.join(build, "lib", "liblab.a")
    for f in nm(lib, "-g", "--defined-only"):
        if len(f) == 3 and not f[2].startswith(("lab_",) + COMPILER):
            bad.append("liblab exports %s: extern names start with lab_"
                       % f[2])

    for rel in sources(src, "lib"):
        la = layer(rel)
        here = os.path.dirname(rel)
        for kind, name in includes(os.path.join(src, rel)):
            base = os.path.basename(name)
            if la != "db" and (name in ("sqlite3.h", "libpq-fe.h") or
                               base == "db-priv.h"):
                bad.append("%s includes %s: only lib/db/ may" % (rel, name))
            if kind != '"' or name.startswith("lab/"):
                continue
            path = os.path.normpath(os.path.join(here, name))
            if not os.path.exists(os.path.join(src, path)):
                path = os.path.normpath(os.path.join("lib", name))
            if not os.path.exists(os.path.join(src, path)):
                continue        # generated (schema.h, templates.h)
            lb = layer(path)
            if lb != la and RANK[lb] >= RANK[la]:
                bad.append("%s includes %s of lib/%s, not below lib/%s"
                           % (rel, name, lb or "(top)", la or "(top)"))

    public = set(os.listdir(os.path.join(src, "include", "lab")))
    for rel in sources(src, "cmd"):
        for kind, name in includes(os.path.join(src, rel)):
            if kind == "<":
                if name in ("sqlite3.h", "libpq-fe.h"):
                    bad.append("%s includes <%s>: only lib/db/ may"
                               % (rel, name))
                continue
            if name.startswith("lab/") and name[4:] in public:
                continue
            if os.path.exists(os.path.join(src, "cmd", name)) and \
                    "/" not in name:
                continue
            bad.append("%s includes \"%s\": cmd/ includes only "
                       "include/lab/ headers and its own" % (rel, name))

    for b in bad:
        print("layers: " + b)
    if bad:
        print("layers: %d broken rules (lib/README.md says why)" % len(bad))
        return 1
    print("layers: %d objects, %d file dependencies: every rule holds"
          % (len(objs), sum(len(e) for e in edges.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
