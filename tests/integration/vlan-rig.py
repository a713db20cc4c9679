#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""vlan-rig.py: the data of the writable switch of tests/integration/vlan-rig.sh.

  vlan-rig.py build CAPTURE DATADIR DB RW RO
      DATADIR/RW.snmprec and DATADIR/RO.snmprec: CAPTURE with the
      subtrees below served by the labrig variation module from DB (RW
      takes SETs, RO refuses them; same data); then seeds DB.
  vlan-rig.py seed DB        the known state (below), created VLANs gone
  vlan-rig.py readonly DB OID    that one OID answers SETs notWritable
  vlan-rig.py get DB OID     prints TAG|VALUE of one row (hex for 4x)

Subtrees from DB: dot1qVlanStaticTable (the capture has the names only:
egress, forbidden, untagged and row status are ADDED), dot1qPortVlanTable
(dot1qPvid), ifAlias, and ADDED as the capture has none of them:
CISCOSB vlanPortModeState, vlanTrunkPortModeNativeVlanId,
vlanAccessPortModeVlanId (one row per bridge port), the (empty)
rlCopyTable, and the scalars vlanMibVersion and rlCopyMibVersion.
VLAN_RIG_FDB="VLAN/MAC/BRIDGEPORT ..." in the environment adds (or
replaces) dot1qTpFdbPort rows of the capture (static, in the data file).
PortLists are written clean, ceil(highest bridge port / 8) octets (the
capture's are mangled after 16 octets).

Seeded state: the capture's ifAlias values; every bridge port an untagged member of VLAN 1 with PVID 1,
Cisco SB mode access, access VLAN 1, native 1; but TRUNKS (gi1/0/23 and
gi1/0/24) are trunks: untagged in 1, tagged in 2 and 3; and ACCESS
(gi1/0/5) is an access port of VLAN 2 only (PVID 2). VLANs 2..12 have no
other member.
"""
import os
import sqlite3
import sys

STATIC = '1.3.6.1.2.1.17.7.1.4.3'
PVID = '1.3.6.1.2.1.17.7.1.4.5'
ALIAS = '1.3.6.1.2.1.31.1.1.1.18'
SB_MODE = '1.3.6.1.4.1.9.6.1.101.48.22'
SB_NATIVE = '1.3.6.1.4.1.9.6.1.101.48.61'
SB_ACCESS = '1.3.6.1.4.1.9.6.1.101.48.62'
COPY = '1.3.6.1.4.1.9.6.1.101.87.2'
PREFIXES = [STATIC, PVID, ALIAS, SB_MODE, SB_NATIVE, SB_ACCESS, COPY]
SCALARS = [('1.3.6.1.4.1.9.6.1.101.48.1.0', '2', '1'),
           ('1.3.6.1.4.1.9.6.1.101.87.1.0', '2', '1')]
FDB_PORT = '1.3.6.1.2.1.17.7.1.2.2.1.2'
BASE_PORT_IFINDEX = '1.3.6.1.2.1.17.1.4.1.2.'
TRUNKS = (23, 24)
TRUNK_VLANS = (2, 3)
ACCESS, ACCESS_VLAN = 5, 2
MODE_ACCESS, MODE_TRUNK = 11, 12


def pad(oid):
    return '.'.join(['%10s' % x for x in oid.split('.')])


def key(oid):
    return tuple(int(x) for x in oid.split('.'))


def under(oid, prefix):
    return oid.startswith(prefix + '.')


def connect(db):
    return sqlite3.connect(db, isolation_level=None)


def put(conn, oid, tag, value):
    conn.execute('insert or replace into rows(oid, tag, value, ro) '
                 'values (?, ?, ?, 0)', (pad(oid), tag, value))


def ports(conn):
    return [int(v) for (v,) in conn.execute(
        "select value from meta where key like 'port.%'")]


def portlist(n, members):
    b = bytearray(n)
    for p in members:
        b[(p - 1) // 8] |= 0x80 >> ((p - 1) % 8)
    return b.hex()


def fdb_extra():
    """VLAN_RIG_FDB="VLAN/MAC/BRIDGEPORT ...": more dot1qTpFdbPort rows."""
    out = []
    for item in os.environ.get('VLAN_RIG_FDB', '').split():
        vlan, mac, bport = item.split('/')
        octets = '.'.join(str(int(x, 16)) for x in mac.split(':'))
        out.append(('%s.%d.%s' % (FDB_PORT, int(vlan), octets), '2',
                    str(int(bport))))
    return out


def build(capture, datadir, db, rw, ro):
    lines = []
    rows = []
    bports = []
    with open(capture, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line:
                continue
            oid, tag, value = line.split('|', 2)
            if oid.startswith(BASE_PORT_IFINDEX):
                bports.append(int(oid[len(BASE_PORT_IFINDEX):]))
            if any(under(oid, p) for p in PREFIXES):
                if tag == '4':
                    tag, value = '4x', value.encode(
                        'utf-8', 'surrogateescape').hex()
                rows.append((oid, tag, value))
            else:
                lines.append((key(oid), line))
    for oid, tag, value in SCALARS:
        lines.append((key(oid), '%s|%s|%s' % (oid, tag, value)))
    for oid, tag, value in fdb_extra():
        lines = [x for x in lines if x[0] != key(oid)]
        lines.append((key(oid), '%s|%s|%s' % (oid, tag, value)))
    conn = connect(db)
    conn.execute('create table rows (oid text primary key, tag text, '
                 'value text, ro integer)')
    conn.execute('create table meta (key text primary key, value text)')
    conn.execute('begin')
    for oid, tag, value in rows:
        put(conn, oid, tag, value)
    n = (max(bports) + 7) // 8
    conn.execute("insert into meta values ('list_len', ?)", (str(n),))
    conn.execute("insert into meta values ('copies', '0')")
    for p in bports:
        conn.execute('insert into meta values (?, ?)', ('port.%d' % p, p))
    vids = [int(oid.split('.')[-1]) for oid, _, _ in rows
            if under(oid, STATIC + '.1.1')]
    for oid, _, value in rows:
        if under(oid, STATIC + '.1.1'):
            conn.execute('insert into meta values (?, ?)',
                         ('name.%s' % oid.split('.')[-1], value))
    for v in vids:
        conn.execute('insert into meta values (?, ?)', ('vlan.%d' % v, v))
    # the capture's ifAlias values, which seed puts back
    conn.execute('create table orig as select * from rows where oid like ?',
                 (pad(ALIAS) + '.%',))
    conn.execute('commit')
    seed(db, conn)
    for name, mode in ((rw, 'rw'), (ro, 'ro')):
        out = list(lines) + [(key(p), '%s|:labrig|%s' % (p, mode))
                             for p in PREFIXES]
        out.sort()
        with open('%s/%s.snmprec' % (datadir, name), 'w', encoding='utf-8',
                  errors='surrogateescape') as f:
            for _, line in out:
                f.write(line + '\n')


def seed(db, conn=None):
    conn = conn or connect(db)
    n = int(conn.execute("select value from meta where key='list_len'")
            .fetchone()[0])
    bp = ports(conn)
    vids = [int(v) for (v,) in conn.execute(
        "select value from meta where key like 'vlan.%'")]
    conn.execute('begin')
    conn.execute('update rows set ro=0')
    conn.execute('delete from rows where oid like ?', (pad(ALIAS) + '.%',))
    conn.execute('insert into rows select * from orig')
    conn.execute('delete from rows where oid like ?', (pad(COPY) + '.%',))
    conn.execute("update meta set value='0' where key='copies'")
    # VLANs created by tests go (their names with them)
    for (oid,) in conn.execute('select oid from rows where oid like ?',
                               (pad(STATIC) + '.%',)).fetchall():
        if int(oid.split('.')[-1]) not in vids:
            conn.execute('delete from rows where oid=?', (oid,))
    for v in vids:
        if v == 1:
            egress = [p for p in bp if p != ACCESS]
            untagged = egress
        elif v in TRUNK_VLANS:
            egress = list(TRUNKS) + ([ACCESS] if v == ACCESS_VLAN else [])
            untagged = [ACCESS] if v == ACCESS_VLAN else []
        else:
            egress = untagged = []
        name = conn.execute('select value from meta where key=?',
                            ('name.%d' % v,)).fetchone()[0]
        put(conn, '%s.1.1.%d' % (STATIC, v), '4x', name)
        put(conn, '%s.1.2.%d' % (STATIC, v), '4x', portlist(n, egress))
        put(conn, '%s.1.3.%d' % (STATIC, v), '4x', portlist(n, []))
        put(conn, '%s.1.4.%d' % (STATIC, v), '4x', portlist(n, untagged))
        put(conn, '%s.1.5.%d' % (STATIC, v), '2', '1')
    for p in bp:
        put(conn, '%s.1.1.%d' % (PVID, p), '66',
            str(ACCESS_VLAN if p == ACCESS else 1))
        put(conn, '%s.1.1.%d' % (SB_MODE, p), '2',
            str(MODE_TRUNK if p in TRUNKS else MODE_ACCESS))
        put(conn, '%s.1.1.%d' % (SB_NATIVE, p), '2', '1')
        put(conn, '%s.1.1.%d' % (SB_ACCESS, p), '2',
            str(ACCESS_VLAN if p == ACCESS else 1))
    conn.execute('commit')


def main(argv):
    if len(argv) == 7 and argv[1] == 'build':
        build(*argv[2:])
    elif len(argv) == 3 and argv[1] == 'seed':
        seed(argv[2])
    elif len(argv) == 4 and argv[1] == 'readonly':
        conn = connect(argv[2])
        if conn.execute('update rows set ro=1 where oid=?',
                        (pad(argv[3]),)).rowcount != 1:
            sys.exit('vlan-rig.py: no such OID: %s' % argv[3])
    elif len(argv) == 4 and argv[1] == 'get':
        row = connect(argv[2]).execute(
            'select tag, value from rows where oid=?',
            (pad(argv[3]),)).fetchone()
        if not row:
            sys.exit('vlan-rig.py: no such OID: %s' % argv[3])
        print('%s|%s' % row)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
