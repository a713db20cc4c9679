# SPDX-License-Identifier: GPL-3.0-or-later
#
# labrig: an snmpsimd variation module (snmpsim 0.4.5) that serves a
# subtree from an SQLite table and takes SETs on it like a Cisco SB
# switch would, for tests/integration/vlan-rig.sh.
#
# A record "PREFIX|:labrig|MODE" serves every row under PREFIX; MODE rw
# takes SETs, MODE ro refuses them with noAccess (the read-only
# community over the same data). Options (snmpsimd
# --variation-module-options=labrig:db:PATH): the database vlan-rig.py
# made. Rows: oid (each arc padded to 10 characters, so that text order
# is OID order), tag (2, 66, 4x), value (hex for 4x), ro (1: notWritable).
#
# Semantics beyond a plain store:
# - a SET of an existing row must keep its type (wrongType) and an
#   OID with ro=1 answers notWritable;
# - dot1qVlanStaticRowStatus (.17.7.1.4.3.1.5.V): createAndGo(4) makes
#   the row (empty name, zero lists of the table's length, active), an
#   existing row is inconsistentValue; destroy(6) deletes its columns
#   (VLAN 1: wrongValue); other columns of a VLAN that does not exist:
#   noCreation (createAndGo must come first in the PDU);
# - rlCopyTable (.9.6.1.101.87.2.1.C.N): SETs create the row; at the end
#   of the PDU a row with rlCopyRowStatus createAndGo becomes active
#   with rlCopyOperationState copyFinished(5) when it copies local
#   running-config(2) to local startup-config(3), else copyFailed(3);
# - elsewhere a SET of an OID that is not there answers noCreation.
# One PDU is one transaction: an error rolls its earlier varbinds back.
#
import sqlite3

from pysnmp.smi import error as smierr
from snmpsim.grammar.snmprec import SnmprecGrammar
from snmpsim.mltsplit import split
from snmpsim import error

STATIC = '1.3.6.1.2.1.17.7.1.4.3.1'
COPY = '1.3.6.1.4.1.9.6.1.101.87.2.1'

state = {'conn': None, 'pending': set(), 'tx': False}


def pad(oid):
    return '.'.join(['%10s' % x for x in str(oid).split('.')])


def unpad(text):
    return '.'.join([x.strip() for x in text.split('.')])


def init(**context):
    options = {}
    if context['options']:
        options.update(dict([split(x, ':') for x in
                             split(context['options'], ',')]))
    if 'db' not in options:
        raise error.SnmpsimError('labrig: db:PATH not given')
    conn = sqlite3.connect(options['db'], isolation_level=None)
    state['conn'] = conn


def meta(conn, key, default):
    row = conn.execute('select value from meta where key=?',
                       (key,)).fetchone()
    return row[0] if row else default


def get(conn, oid):
    return conn.execute('select tag, value, ro from rows where oid=?',
                        (pad(oid),)).fetchone()


def put(conn, oid, tag, value):
    conn.execute('insert or replace into rows(oid, tag, value, ro) '
                 'values (?, ?, ?, coalesce((select ro from rows '
                 'where oid=?), 0))', (pad(oid), tag, value, pad(oid)))


def finish():
    conn = state['conn']
    for index in sorted(state['pending']):
        row = get(conn, '%s.17.%s' % (COPY, index))
        if not row or row[0] != '2' or row[1] != '4':
            continue

        def col(c):
            r = get(conn, '%s.%d.%s' % (COPY, c, index))
            return r[1] if r else None
        ok = (col(3) == '1' and col(7) == '2' and col(8) == '1' and
              col(12) == '3')
        put(conn, '%s.17.%s' % (COPY, index), '2', '1')
        put(conn, '%s.14.%s' % (COPY, index), '2', ok and '5' or '3')
        n = int(meta(conn, 'copies', '0')) + 1
        conn.execute("insert or replace into meta values ('copies', ?)",
                     (str(n),))
    state['pending'] = set()
    if state['tx']:
        conn.execute('commit')
        state['tx'] = False


def fail(kind, oid, context):
    conn = state['conn']
    if state['tx']:
        conn.execute('rollback')
        state['tx'] = False
    state['pending'] = set()
    raise kind(name=oid,
               idx=max(0, context['varsTotal'] - context['varsRemaining'] - 1))


def text_of(value):
    tag = SnmprecGrammar().getTagByType(value)
    if tag == '4':
        return '4x', value.asOctets().hex()
    return tag, str(int(value))


def do_set(prefix, mode, context):
    conn = state['conn']
    oid = context['origOid']
    soid = str(oid)
    if context['varsRemaining'] == context['varsTotal'] - 1:
        if state['tx']:
            finish()
        conn.execute('begin')
        state['tx'] = True
    if mode != 'rw':
        fail(smierr.NoAccessError, oid, context)
    tag, value = text_of(context['origValue'])
    row = get(conn, soid)
    if row and row[2]:
        fail(smierr.NotWritableError, oid, context)
    if row and row[0] != tag:
        fail(smierr.WrongTypeError, oid, context)
    if soid.startswith(STATIC + '.'):
        col, vid = soid[len(STATIC) + 1:].split('.', 1)
        rs = '%s.5.%s' % (STATIC, vid)
        if col == '5' and value == '4':
            if get(conn, rs):
                fail(smierr.InconsistentValueError, oid, context)
            n = int(meta(conn, 'list_len', '0'))
            put(conn, '%s.1.%s' % (STATIC, vid), '4x', '')
            for c in (2, 3, 4):
                put(conn, '%s.%d.%s' % (STATIC, c, vid), '4x', '00' * n)
            put(conn, rs, '2', '1')
        elif col == '5' and value == '6':
            if vid == '1':
                fail(smierr.WrongValueError, oid, context)
            for c in (1, 2, 3, 4, 5):
                conn.execute('delete from rows where oid=?',
                             (pad('%s.%d.%s' % (STATIC, c, vid)),))
        elif not get(conn, rs):
            fail(smierr.NoCreationError, oid, context)
        elif col == '5' and value != '1':
            fail(smierr.WrongValueError, oid, context)
        else:
            put(conn, soid, tag, value)
    elif soid.startswith(COPY + '.'):
        put(conn, soid, tag, value)
        state['pending'].add(soid[len(COPY) + 1:].split('.', 1)[1])
    elif not row:
        fail(smierr.NoCreationError, oid, context)
    else:
        put(conn, soid, tag, value)
    if context['varsRemaining'] == 0:
        finish()
    return oid, tag, value


def variate(oid, tag, value, **context):
    conn = state['conn']
    if conn is None:
        raise error.SnmpsimError('labrig: not initialised')
    mode = value
    if context['setFlag']:
        return do_set(str(oid), mode, context)
    if state['tx'] and context['varsRemaining'] == context['varsTotal'] - 1:
        finish()
    orig = context['origOid']
    if context['nextFlag']:
        row = conn.execute('select oid from rows where oid>? and oid like ? '
                           'order by oid limit 1',
                           (pad(orig), pad(oid) + '.%')).fetchone()
        if not row:
            return orig, tag, context['errorStatus']
        orig = orig.clone(unpad(row[0]))
    row = get(conn, str(orig))
    if not row:
        return orig, tag, context['errorStatus']
    return orig, row[0], row[1]


def shutdown(**context):
    conn = state['conn']
    if conn:
        if state['tx']:
            finish()
        conn.close()
        state['conn'] = None
