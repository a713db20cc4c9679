#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that what README.md shows is true of the built lab.

Usage: readme.py LAB SRCDIR [README]

From the README's fenced code blocks:

- every ```yaml block that holds an inventory (hosts, switches, groups) is
  imported alone, with --dry-run, into a fresh database: it must be valid.
  The first one is the ten-minute inventory: it is written to the file its
  first line names ('# lab.yaml') and imported for real, with the example
  inventory (inventory/), into the database the commands below run on.
- the ```yaml block whose first line names credentials.yaml is the
  credentials file of those commands (mode 0600); every credential the
  ten-minute inventory names must be in it, and lab must accept the file:
  a 'power status' of a BMC on 127.0.84.1 (nobody there) with it must fail
  on the BMC, not on the file.
- every line of a shell block that starts with 'lab ' or '$ lab ' is one
  example. Its command (and verb, for a command with verbs) must exist,
  with 'lab CMD [VERB] --help' exiting 0, and every --option it uses must
  be one 'lab help CMD [VERB]' offers. Then it runs, from a folder holding
  the ten-minute file and a link to inventory/, on a copy of that database
  (so examples never see each other), with stdin not a terminal:
    - reads and local writes run as written;
    - what would contact a peer (PEER below) runs with --dry-run, and
      --yes dropped (the two together are a usage error);
    - what cannot dry-run (HELP_ONLY below) is checked by --help only.
  It must exit with the code its comment documents ('# ... exit 2'),
  else 0. The line is cut at a pipe or redirection ('lab export > f').
  Where unshare(1) can make a network namespace (root), every lab runs in
  one with no interface up, so that not even a bug can reach a peer.

Exits 1, naming each README line that failed, when any did.
"""
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile

# (command, verb or None): what contacts a BMC, switch, iLO or host, and
# does nothing but print its plan with --dry-run
PEER = {
    ("power", None), ("boot", None), ("sensors", None), ("sel", None),
    ("media", "insert"), ("media", "eject"), ("switch", "sync"),
    ("provision", None), ("bench", None), ("burnin", None),
}
# what contacts a peer (a BMC, switch, host or database server) and has no
# --dry-run: checked with --help only.
# (report, --collect) is 'lab report' with --collect among its words.
HELP_ONLY = {
    ("console", None), ("switch", "discover"), ("media", "status"),
    ("switch", "plan"), ("switch", "apply"), ("switch", "probe"),
    ("report", "--collect"), ("facts", None), ("db", "copy"),
}
# global options every verb takes
GLOBAL = {"--db", "--credentials", "--help", "-h"}
CUT = {"|", "||", "&&", ";", ">", ">>", "<", "2>", "&"}
OPT = re.compile(r"--[a-z][a-z0-9-]*")
EXIT = re.compile(r"#.*\bexit (\d+)\b")
INVENTORY_KEYS = {"hosts", "switches", "groups"}


def blocks(text):
    """(language, first line number, lines) of each fenced block."""
    out, cur = [], None
    for n, line in enumerate(text.splitlines(), 1):
        if cur is None:
            m = re.match(r"^```(\S*)\s*$", line)
            if m:
                cur = (m.group(1), n + 1, [])
        elif line.startswith("```"):
            out.append(cur)
            cur = None
        else:
            cur[2].append(line)
    return out


def top_keys(lines):
    return {m.group(1) for m in
            (re.match(r"^([A-Za-z_][A-Za-z0-9_-]*):", l) for l in lines) if m}


def first_comment(lines):
    for l in lines:
        if l.strip():
            m = re.match(r"^#\s*(\S+)", l)
            return m.group(1) if m else None
    return None


def words(line):
    """The argv of an example, cut at the first pipe or redirection."""
    lex = shlex.shlex(line, posix=True, punctuation_chars="|&;<>")
    lex.whitespace_split = True
    lex.commenters = "#"
    argv = []
    for w in lex:
        if w in CUT or re.match(r"^\d?[<>]", w):
            break
        argv.append(w)
    return argv


class Check:
    def __init__(self, lab, src, readme):
        self.lab, self.src, self.readme = lab, src, readme
        self.bad = []
        self.checked = 0
        self.tmp = tempfile.mkdtemp(prefix="lab-readme.")
        self.work = os.path.join(self.tmp, "work")
        os.mkdir(self.work)
        os.symlink(os.path.join(src, "inventory"),
                   os.path.join(self.work, "inventory"))
        self.cfg = os.path.join(self.tmp, "config.yaml")
        open(self.cfg, "w").close()
        self.creds = os.path.join(self.tmp, "credentials.yaml")
        self.db = os.path.join(self.tmp, "lab.db")
        self.netns = []
        if shutil.which("unshare") and subprocess.run(
                ["unshare", "-n", "true"], capture_output=True).returncode == 0:
            self.netns = ["unshare", "-n"]
        self.help = {}

    def fail(self, where, msg):
        self.bad.append("%s:%d: %s" % (os.path.basename(self.readme),
                                       where, msg))

    def env(self, db):
        e = dict(os.environ)
        for k in list(e):
            if k.startswith("LAB_") or k in ("NO_COLOR", "COLUMNS"):
                del e[k]
        e.update({"LAB_DB": db, "LAB_CREDENTIALS": self.creds,
                  "LAB_CONFIG": self.cfg, "HOME": self.tmp,
                  "XDG_CONFIG_HOME": os.path.join(self.tmp, "config"),
                  "XDG_DATA_HOME": os.path.join(self.tmp, "data"),
                  "NO_COLOR": "1"})
        return e

    def run(self, argv, db=None, timeout=60):
        try:
            p = subprocess.run(self.netns + [self.lab] + argv,
                               cwd=self.work, env=self.env(db or self.db),
                               stdin=subprocess.DEVNULL, capture_output=True,
                               text=True, errors="replace", timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, "", "timed out after %d s" % timeout
        return p.returncode, p.stdout, p.stderr

    def help_of(self, *cmd):
        """(exit status, verbs, options) of 'lab help CMD [VERB]'."""
        if cmd not in self.help:
            rc, out, _ = self.run(["help", *cmd])
            verbs, opts, sec = [], set(GLOBAL), None
            for line in out.splitlines():
                if line.endswith(":") and not line.startswith(" "):
                    sec = line[:-1]
                    continue
                if line.startswith("usage:") or line.startswith("  lab "):
                    opts |= set(OPT.findall(line))
                if sec == "verbs" and line.startswith("  "):
                    verbs.append(line.split()[0])
                elif sec == "options":
                    m = re.match(r"  (--[a-z][a-z0-9-]*)", line)
                    if m:
                        opts.add(m.group(1))
            self.help[cmd] = (rc, verbs, opts)
        return self.help[cmd]

    def setup(self, text):
        bl = blocks(text)
        inv = [b for b in bl if b[0] == "yaml" and
               top_keys(b[2]) and top_keys(b[2]) <= INVENTORY_KEYS]
        creds = [b for b in bl if b[0] == "yaml" and
                 "credentials" in (first_comment(b[2]) or "")]
        for lang, n, lines in inv:
            name = os.path.join(self.tmp, "block-%d.yaml" % n)
            with open(name, "w") as f:
                f.write("\n".join(lines) + "\n")
            rc, _, err = self.run(["import", "--dry-run", name],
                                  db=os.path.join(self.tmp, "dry-%d.db" % n))
            if rc != 0:
                self.fail(n, "this inventory does not import (exit %d): %s"
                          % (rc, err.strip()))
        files = []
        if not inv:
            self.fail(1, "no ```yaml block with an inventory (the ten-minute "
                      "lab.yaml)")
        else:
            lang, n, lines = inv[0]
            fname = first_comment(lines)
            if not fname or "/" in fname or not fname.endswith(".yaml"):
                self.fail(n, "the ten-minute inventory does not start with "
                          "'# FILE.yaml', the file the README has one write")
                fname = "lab.yaml"
            with open(os.path.join(self.work, fname), "w") as f:
                f.write("\n".join(lines) + "\n")
            files.append(fname)
            self.names = set(re.findall(r"credential:\s*([A-Za-z0-9._-]+)",
                                        "\n".join(lines)))
        if not creds:
            self.fail(1, "no ```yaml block for the credentials file (its "
                      "first line '# .../credentials.yaml')")
            open(self.creds, "w").close()
        else:
            lang, n, lines = creds[0]
            have = top_keys(lines)
            # the tour runs on the example lab of inventory/: its
            # credential names too (test values), as a user would have them
            # (a dry run checks each BMC's name is in the file)
            extra = os.path.join(self.src, "tests", "cli", "data",
                                 "credentials.yaml")
            with open(extra) as f:
                ex = [l.rstrip("\n") for l in f if not l.startswith("#")]
            ex = [l for l in ex if l.split(":", 1)[0] not in have]
            with open(self.creds, "w") as f:
                f.write("\n".join(lines + ex) + "\n")
            os.chmod(self.creds, 0o600)
            for c in sorted(getattr(self, "names", set()) - have):
                self.fail(n, "the credentials file lacks '%s', which the "
                          "ten-minute inventory names" % c)
            self.check_creds(n, [l for l in lines if "password" in l])
        os.chmod(self.creds, 0o600)
        rc, _, err = self.run(["import", *files, "inventory/"])
        if rc != 0:
            self.fail(inv[0][1] if inv else 1,
                      "the ten-minute inventory and inventory/ do not import "
                      "together (exit %d): %s" % (rc, err.strip()))
        self.discovered()
        # one recorded report run, so that 'lab report --since' has one
        self.run(["report", "--record", "--out", os.devnull])

    def discovered(self):
        """A discovery of the example's switch sg200 as 'lab switch
        discover' stores it (one port, microserver1's eth0 on it), filled in
        with sqlite3 as bench/scale does: 'lab switch sync' refuses a switch
        never discovered, and this test contacts no switch."""
        c = sqlite3.connect(self.db)
        c.executescript("""BEGIN;
UPDATE switches SET sys_descr = 'SG200-26 26-Port Gigabit Smart Switch',
  sys_name = name, uptime = 1, discovered_at = 1796000000
  WHERE name = 'sg200';
INSERT INTO switch_ports (switch_id, ifindex, name, alias, oper_status,
  admin_status, speed_mbps, duplex, seen_at, type, speed_suspect)
  SELECT id, 1, 'gi1', '', 'up', 'up', 1000, 'full', 1796000000, 6, 0
  FROM switches WHERE name = 'sg200';
INSERT INTO nic_links (host_id, nic, mac, switch_id, port, ifindex, source,
  first_seen, last_seen)
  SELECT h.id, n.name, n.mac, s.id, 'gi1', 1, 'fdb', 1796000000, 1796000000
  FROM hosts h JOIN nics n ON n.host_id = h.id, switches s
  WHERE h.name = 'microserver1' AND n.name = 'eth0' AND s.name = 'sg200';
COMMIT;""")
        c.close()

    def check_creds(self, n, lines):
        """lab reads the credentials file: a BMC nobody answers for fails
        on the BMC, not on the file (a user and password: a BMC's)."""
        bmc = sorted(top_keys(lines))[:1]
        if not bmc:
            self.fail(n, "the credentials file has no BMC's password")
            return
        inv = os.path.join(self.tmp, "creds-probe.yaml")
        with open(inv, "w") as f:
            f.write("hosts:\n  - name: probe\n    model: generic-server\n"
                    "    bmc: {type: ipmi, address: 127.0.84.1, "
                    "credential: %s}\n" % bmc[0])
        db = os.path.join(self.tmp, "creds-probe.db")
        rc, _, err = self.run(["import", inv], db=db)
        if rc == 0:
            rc, _, err = self.run(["power", "status", "probe", "--timeout",
                                   "1", "--retransmit", "200"], db=db)
        if rc != 1 or "credential" in err or self.creds in err:
            self.fail(n, "lab does not take this credentials file (exit %d):"
                      " %s" % (rc, err.strip()))

    def example(self, n, line):
        argv = words(line)
        m = EXIT.search(line)
        line = re.sub(r"\s+#.*$", "", line)
        if not argv or argv[0] != "lab":
            self.fail(n, "cannot read the example '%s'" % line)
            return
        argv = argv[1:]
        self.checked += 1
        want = 0
        if m:
            want = int(m.group(1))
        if not argv or argv[0].startswith("-"):
            rc, _, err = self.run(argv)
            if rc != want:
                self.fail(n, "'%s' exits %d, not %d: %s" %
                          (line, rc, want, err.strip()))
            return
        cmd = argv[0]
        rc, verbs, opts = self.help_of(cmd)
        if rc != 0:
            self.fail(n, "'%s': no command '%s' (lab help %s exits %d)" %
                      (line, cmd, cmd, rc))
            return
        verb = None
        if verbs:
            if len(argv) < 2 or argv[1] not in verbs:
                self.fail(n, "'%s': '%s' is not a verb of lab %s (%s)" %
                          (line, argv[1] if len(argv) > 1 else "",
                           cmd, ", ".join(verbs)))
                return
            verb = argv[1]
            rc, _, opts = self.help_of(cmd, verb)
        head = [cmd] + ([verb] if verb else [])
        rc, _, err = self.run(head + ["--help"])
        if rc != 0:
            self.fail(n, "'lab %s --help' exits %d: %s" %
                      (" ".join(head), rc, err.strip()))
        for w in argv:
            o = w.split("=", 1)[0]
            if OPT.fullmatch(o) and o not in opts:
                self.fail(n, "'%s': lab %s does not take %s" %
                          (line, " ".join(head), o))
        if (cmd, verb) in HELP_ONLY or any(
                (cmd, w) in HELP_ONLY for w in argv):
            return
        if (cmd, verb) in PEER or (cmd, None) in PEER:
            argv = [w for w in argv if w != "--yes"]
            if "--dry-run" not in argv:
                argv.append("--dry-run")
        db = os.path.join(self.tmp, "run.db")
        for ext in ("", "-wal", "-shm"):
            if os.path.exists(db + ext):
                os.unlink(db + ext)
        shutil.copyfile(self.db, db)
        rc, out, err = self.run(argv, db=db)
        if rc != want:
            self.fail(n, "'lab %s' exits %d, not %d: %s" %
                      (" ".join(argv), rc, want,
                       (err.strip() or out.strip())[-600:]))

    def main(self):
        with open(self.readme) as f:
            text = f.read()
        # the database is made before the examples read it
        self.run(["init"])
        self.setup(text)
        for lang, n, lines in blocks(text):
            if lang not in ("", "sh", "shell", "console", "bash"):
                continue
            for i, line in enumerate(lines):
                s = line.strip()
                if s.startswith("$ "):
                    s = s[2:]
                if s.startswith("lab ") or s == "lab":
                    self.example(n + i, s)
        if self.checked == 0:
            self.fail(1, "no example command found")
        for b in self.bad:
            print("readme: " + b, file=sys.stderr)
        print("readme: %d examples checked, %d problems" %
              (self.checked, len(self.bad)))
        return 1 if self.bad else 0


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    lab, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    readme = sys.argv[3] if len(sys.argv) == 4 else \
        os.path.join(src, "README.md")
    check = Check(lab, src, readme)
    try:
        return check.main()
    finally:
        shutil.rmtree(check.tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
