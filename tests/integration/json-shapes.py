#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""One JSON shape per concept, across every command (lab(1), JSON).

Usage: json-shapes.py LAB NAME=ARGS...

Runs "LAB ARGS" (ARGS split on spaces, with --json or --format json; the
environment says which database and credentials) for each NAME (its
first word before a '-' names the command: power-on is power), then
walks every document and
asserts the rules lab(1) writes down:

- a BMC is null or an object with exactly the keys of BMC_KEYS, with
  those types, wherever it appears: "bmc" (where a contract does not keep
  it a string) and "bmc_info"; but a known issue's match names a BMC type
  ("bmc": "rac") and lab facts's "bmc" is the BMC's identity ({ok, error,
  firmware, ...});
- a power observation ("power" in show, "power_info" in the report) is
  null or {state, bmc_reachable, checked_at, seen_at, error};
- every "*_at" value (and the old time keys of TIME_KEYS) is null or one
  format, ISO 8601 UTC to the second: 2026-12-02T01:27:54Z;
- "args" is an array of strings;
- numbers are JSON numbers: no key of NUMBER_KEYS holds a string, and no
  string anywhere is a bare integer under a key the doc calls a number;
- booleans are booleans: "ok", "skipped", "changed", ... are true/false;
- absent is null: no value is "-", nor "" (but a switch's own empty
  words, PEER_KEYS);
- a fan-out row (an object with "host" and "ok") has "skipped" (a bool),
  and a skipped row is ok;
- lab facts (NAME facts): each row has the keys lab-facts(1) and issue 20
  name (host, ok, error, disks, nics, addresses, dmi, bmc,
  network_manager, findings), each disk {name, path, serial, model,
  firmware, size_bytes, rotational, transport}, each NIC {name, mac,
  driver, speed_mbps, duplex, carrier}, each finding {severity, kind,
  subject, message}, with their types; a row not read says why.
Prints each broken rule with the command and the JSON path; exits 1 if any.
"""
import json
import re
import subprocess
import sys

BMC_KEYS = {
    "type": str, "address": str, "port": int, "credential": str,
    "cipher_suite": int, "workarounds": list, "privilege": (str, type(None)),
    "timeout": (int, type(None)), "retransmit": (int, type(None)),
}
POWER_KEYS = {"state", "bmc_reachable", "checked_at", "seen_at", "error"}
# keys named by an older contract as a string beside their object twin
LEGACY_STRING = {"bmc"}
# time keys an older contract named without "_at" (each has an _at twin)
TIME_KEYS = {"time", "previous_run", "last_seen", "generated_at"}
# ("port" is a number for a BMC or SSH, a name on a switch: check_bmc)
NUMBER_KEYS = {"cipher_suite", "size_bytes", "elapsed_ms", "id",
               "ifindex", "speed_mbps", "result", "value_number"}
BOOL_KEYS = {"ok", "skipped", "changed", "bmc_reachable", "boot_flag",
             "persistent", "efi", "supported", "dry_run", "legacy_crypto",
             "speed_suspect", "rotational", "carrier", "running"}
# a switch's own words, verbatim: its empty string is what it said
PEER_KEYS = {"alias", "descr", "address", "platform", "remote_device",
             "remote_port", "sysname", "name"}
TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

errors = []


def bad(cmd, path, what):
    errors.append("%s: %s: %s" % (cmd, path or "$", what))


def check_bmc(cmd, path, v):
    if v is None:
        return
    if not isinstance(v, dict):
        bad(cmd, path, "a BMC is null or an object, not %r" % (v,))
        return
    if set(v) != set(BMC_KEYS):
        bad(cmd, path, "BMC keys %s, want %s" % (sorted(v), sorted(BMC_KEYS)))
    for k, t in BMC_KEYS.items():
        if k in v and not isinstance(v[k], t):
            bad(cmd, path + "." + k, "%r is not %s" % (v[k], t))


def check_power(cmd, path, v):
    if v is None:
        return
    if not isinstance(v, dict) or set(v) != POWER_KEYS:
        bad(cmd, path, "power is null or {%s}, not %r" %
            (", ".join(sorted(POWER_KEYS)), v))


def walk(cmd, path, v, key=None, legacy_ok=False):
    if isinstance(v, dict):
        if "host" in v and "ok" in v:
            if not isinstance(v.get("skipped"), bool):
                bad(cmd, path, "a fan-out row without a boolean 'skipped'")
            elif v["skipped"] and v["ok"] is not True:
                bad(cmd, path, "a skipped row that is not ok")
        for k, x in v.items():
            p = path + "." + k
            if k == "bmc" and path.endswith(".match"):
                # a known issue's match: the BMC type it applies to
                if not isinstance(x, (str, type(None))):
                    bad(cmd, p, "a match's bmc is a type word, not %r" % (x,))
                continue
            if k == "bmc" and isinstance(x, dict) and "firmware" in x:
                # lab facts: what the BMC says it is (Get Device ID)
                if not isinstance(x.get("ok"), bool):
                    bad(cmd, p, "a BMC identity without a boolean 'ok'")
                walk(cmd, p, x, k, legacy_ok)
                continue
            if k == "bmc_info" or (k == "bmc" and not
                                   (legacy_ok and isinstance(x, str))):
                check_bmc(cmd, p, x)
                continue
            if k == "power_info" or (k == "power" and isinstance(x, dict)):
                check_power(cmd, p, x)
            walk(cmd, p, x, k, legacy_ok)
        return
    if isinstance(v, list):
        for i, x in enumerate(v):
            walk(cmd, "%s[%d]" % (path, i), x, key, legacy_ok)
        return
    if key is None:
        return
    if key.endswith("_at") or key in TIME_KEYS:
        if v is not None and not (isinstance(v, str) and TIME_RE.match(v)):
            bad(cmd, path, "a time is null or YYYY-MM-DDTHH:MM:SSZ, not %r"
                % (v,))
    if key in NUMBER_KEYS and isinstance(v, str):
        bad(cmd, path, "a number in a string: %r" % (v,))
    if key in BOOL_KEYS and not isinstance(v, (bool, type(None))):
        bad(cmd, path, "not a boolean: %r" % (v,))
    if isinstance(v, str) and (v == "-" or (v == "" and
                                            key not in PEER_KEYS)):
        bad(cmd, path, "absent is null, not %r" % (v,))


def check_args(cmd, doc):
    rows = doc if isinstance(doc, list) else doc.get("audit", [])
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or "argv" not in r:
            continue
        a = r.get("args")
        if not isinstance(a, list) or not all(isinstance(w, str) for w in a):
            bad(cmd, "[%d].args" % i, "argv's words as an array, not %r"
                % (a,))
        elif a[:1] != ["lab"]:
            bad(cmd, "[%d].args" % i, "does not start with 'lab': %r" % (a,))


def check_config(cmd, doc):
    for k in ("fanout", "timeout", "switch_deadline"):
        v = doc.get(k, {}).get("value")
        if not isinstance(v, int) or isinstance(v, bool):
            bad(cmd, k + ".value", "a number, not %r" % (v,))


# lab facts --json (lab-facts(1), issue 20): the keys each row, disk,
# NIC and finding must have, with their types (None: null allowed)
OPT_STR = (str, type(None))
OPT_INT = (int, type(None))
OPT_BOOL = (bool, type(None))
FACTS_KEYS = {
    "host": str, "ok": bool, "error": OPT_STR, "disks": list, "nics": list,
    "addresses": list, "dmi": (dict, type(None)), "bmc": (dict, type(None)),
    "network_manager": (dict, type(None)), "findings": list,
}
FACTS_DISK_KEYS = {
    "name": str, "path": OPT_STR, "serial": OPT_STR, "model": OPT_STR,
    "firmware": OPT_STR, "size_bytes": OPT_INT, "rotational": OPT_BOOL,
    "transport": OPT_STR,
}
FACTS_NIC_KEYS = {
    "name": str, "mac": OPT_STR, "driver": OPT_STR, "speed_mbps": OPT_INT,
    "duplex": OPT_STR, "carrier": OPT_BOOL,
}
FACTS_FINDING_KEYS = {"severity": str, "kind": str, "subject": str,
                      "message": str}
FACTS_NM_KEYS = {"running": OPT_BOOL, "managed": list}


def has_keys(cmd, path, v, keys):
    if not isinstance(v, dict):
        bad(cmd, path, "an object, not %r" % (v,))
        return
    for k, t in keys.items():
        if k not in v:
            bad(cmd, path, "no key %r" % k)
        elif isinstance(v[k], bool) and t in (int, OPT_INT):
            bad(cmd, path + "." + k, "a number, not %r" % (v[k],))
        elif not isinstance(v[k], t):
            bad(cmd, path + "." + k, "%r is not %s" % (v[k], t))


def check_facts(cmd, doc):
    if not isinstance(doc, list):
        bad(cmd, "", "an array of hosts, not %r" % (doc,))
        return
    for i, r in enumerate(doc):
        p = "[%d]" % i
        has_keys(cmd, p, r, FACTS_KEYS)
        if not isinstance(r, dict):
            continue
        if r.get("ok") is True and r.get("error") is not None:
            bad(cmd, p + ".error", "a host read has no error")
        if r.get("ok") is False and not r.get("error"):
            bad(cmd, p + ".error", "a host not read says why")
        for what, keys in (("disks", FACTS_DISK_KEYS),
                           ("nics", FACTS_NIC_KEYS),
                           ("findings", FACTS_FINDING_KEYS)):
            for k, x in enumerate(r.get(what) or []):
                has_keys(cmd, "%s.%s[%d]" % (p, what, k), x, keys)
        if isinstance(r.get("network_manager"), dict):
            has_keys(cmd, p + ".network_manager", r["network_manager"],
                     FACTS_NM_KEYS)


def main():
    lab = sys.argv[1]
    ran = 0
    for spec in sys.argv[2:]:
        name, _, args = spec.partition("=")
        argv = [lab] + args.split()
        p = subprocess.run(argv, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, check=False)
        cmd = "lab " + args
        if p.returncode not in (0, 1):
            bad(cmd, "", "exit %d: %s" % (p.returncode,
                                          p.stderr.decode(errors="replace")))
            continue
        try:
            doc = json.loads(p.stdout)
        except ValueError as e:
            bad(cmd, "", "not JSON: %s" % e)
            continue
        ran += 1
        # power and media rows and the report's hosts keep "bmc" the
        # string their contract names; everywhere else it is the object
        name = name.split("-")[0]
        legacy = name in ("power", "media", "report")
        walk(cmd, "", doc, None, legacy)
        if name in ("log", "report"):
            check_args(cmd, doc)
        if name == "config":
            check_config(cmd, doc)
        if name == "facts":
            check_facts(cmd, doc)
        if name in ("ls", "show") and isinstance(doc, (list, dict)):
            rows = doc if isinstance(doc, list) else [doc]
            for i, r in enumerate(rows):
                if "bmc" in r and not (r["bmc"] is None or
                                       isinstance(r["bmc"], dict)):
                    bad(cmd, "[%d].bmc" % i, "an object, not %r" % (r["bmc"],))
        if name in ("power", "report"):
            hosts = doc if isinstance(doc, list) else doc.get("hosts", [])
            for i, h in enumerate(hosts):
                if h.get("bmc") is not None and h.get("bmc_info") is None:
                    bad(cmd, "[%d]" % i, "a BMC string without bmc_info")
    for e in errors:
        print("json-shapes: " + e, file=sys.stderr)
    print("json-shapes: %d documents, %d broken rules" % (ran, len(errors)))
    sys.exit(1 if errors or ran == 0 else 0)


if __name__ == "__main__":
    main()
