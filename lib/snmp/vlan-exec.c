/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SET values in phases, packed, read back, put back on failure. */
#include <stdlib.h>
#include <string.h>

#include "lab/vlan.h"
#include "vlan-oids.h"

/*
 * A SET's varbinds stay under this (the message around them, community
 * and request id, is under 100 octets more): one Ethernet frame.
 */
#define MAX_PDU_BYTES	1300

static const unsigned long oid_row[] = { LAB_OID_DOT1Q_STATIC_ROWSTATUS };
static const unsigned long oid_static[] = { 1, 3, 6, 1, 2, 1, 17, 7, 1, 4, 3 };

static int
under(const struct lab_oid *o, const unsigned long *pfx, size_t n)
{
	return o->len > n && memcmp(o->v, pfx, n * sizeof(pfx[0])) == 0;
}

static int
is_row(const struct lab_vlan_write *x)
{
	return x->to.type == LAB_SNMP_INTEGER && under(&x->to.oid, oid_row,
	    sizeof(oid_row) / sizeof(oid_row[0]));
}

/* What a value reads as once set: a new row reads active, a gone one
 * absent. */
static int
read_ok(const struct lab_vlan_write *x, const struct lab_snmp_value *got)
{
	if (is_row(x) && x->to.i == LAB_ROW_DESTROY)
		return got->absent;
	if (is_row(x) && x->to.i == LAB_ROW_CREATE_AND_GO)
		return !got->absent && got->type == LAB_SNMP_INTEGER &&
		    got->i == LAB_ROW_ACTIVE;
	return lab_snmp_value_eq(&x->to, got);
}

/* The octets of a BER length field for len octets of content. */
static size_t
ber_len(size_t len)
{
	return len < 128 ? 1 : len < 256 ? 2 : 3;
}

/* The octets one varbind takes in a PDU, as BER encodes it. */
static size_t
value_bytes(const struct lab_snmp_value *v)
{
	size_t		oid = 1, val, i;
	unsigned long	x;

	for (i = 2; i < v->oid.len; i++)
		for (oid++, x = v->oid.v[i]; x >= 128; x >>= 7)
			oid++;
	val = v->type == LAB_SNMP_OCTETS ? v->len : 5;
	oid += 1 + ber_len(oid);
	val += 1 + ber_len(val);
	return 1 + ber_len(oid + val) + oid + val;
}

/* How many of v[i..n) of one phase go in the next PDU. */
static size_t
chunk(const struct lab_vlan_writes *w, size_t i, size_t end, size_t max)
{
	size_t	k, bytes = 0;

	for (k = i; k < end && k - i < max; k++) {
		bytes += value_bytes(&w->v[k].to);
		if (k > i && bytes > MAX_PDU_BYTES)
			break;
	}
	return k - i;
}

/*
 * GETs the current values of w->v[i..i+n) into vals, in as few PDUs as
 * the agent takes (lab_snmp_get_values; max_varbinds bounds SETs only).
 */
static int
read_values(struct lab_snmp *s, const struct lab_vlan_writes *w, size_t i,
    size_t n, struct lab_snmp_value *vals, struct lab_err *err)
{
	size_t	k;

	for (k = 0; k < n; k++) {
		memset(&vals[k], 0, sizeof(vals[k]));
		vals[k].oid = w->v[i + k].to.oid;
	}
	return lab_snmp_get_values(s, vals, n, err);
}

static void
mark_failed(struct lab_vlan_write *x, const struct lab_err *e)
{
	x->state = LAB_WRITE_FAILED;
	x->err = *e;
}

/* Puts back every done value, newest first. */
static void
restore(struct lab_snmp *s, struct lab_vlan_writes *w)
{
	size_t			 i, j, failed;
	struct lab_snmp_value	 v;
	struct lab_err		 e;

	for (i = w->n; i-- > 0;) {
		struct lab_vlan_write *x = &w->v[i];

		if (x->state != LAB_WRITE_DONE)
			continue;
		lab_err_init(&e);
		if (is_row(x) && x->to.i == LAB_ROW_DESTROY) {
			x->state = LAB_WRITE_LEFT;
			lab_err_set(&x->err, LAB_EXIT_PARTIAL, "%s: the VLAN "
			    "was deleted and cannot come back", x->what);
			continue;
		}
		if (x->before.absent && !is_row(x))
			continue;	/* goes with its row, below */
		v = x->before;
		if (is_row(x)) {
			memset(&v, 0, sizeof(v));
			v.oid = x->to.oid;
			v.type = LAB_SNMP_INTEGER;
			v.i = LAB_ROW_DESTROY;
		}
		if (lab_snmp_set(s, &v, 1, &failed, &e) == -1) {
			x->state = LAB_WRITE_LEFT;
			lab_err_prefix(&e, "%s: putting back", x->what);
			x->err = e;
		} else
			x->state = LAB_WRITE_RESTORED;
	}
	/* values of a created row: back when the row is gone */
	for (i = 0; i < w->n; i++) {
		struct lab_vlan_write *x = &w->v[i];
		enum lab_write_state st = LAB_WRITE_LEFT;
		unsigned long id;

		if (x->state != LAB_WRITE_DONE || !x->before.absent)
			continue;
		id = x->to.oid.v[x->to.oid.len - 1];
		if (under(&x->to.oid, oid_static, sizeof(oid_static) /
		    sizeof(oid_static[0])))
			for (j = 0; j < w->n; j++)
				if (is_row(&w->v[j]) && w->v[j].to.oid.v[
				    w->v[j].to.oid.len - 1] == id &&
				    w->v[j].state == LAB_WRITE_RESTORED)
					st = LAB_WRITE_RESTORED;
		x->state = st;
		if (st == LAB_WRITE_LEFT)
			lab_err_set(&x->err, LAB_EXIT_PARTIAL,
			    "%s: absent before, left set", x->what);
	}
}

/* Sends one phase w->v[i..end) and reads it back. */
static int
phase(struct lab_snmp *s, struct lab_vlan_writes *w, size_t i, size_t end,
    size_t *max, struct lab_snmp_value *tmp, struct lab_err *err)
{
	size_t	k, m, failed, j;
	struct lab_err e;

	for (k = i; k < end; k += m) {
		struct lab_snmp_value vals[64];

		m = chunk(w, k, end, *max);
		for (j = 0; j < m; j++)
			vals[j] = w->v[k + j].to;
		lab_err_init(&e);
		if (lab_snmp_set(s, vals, m, &failed, &e) == -1 &&
		    lab_snmp_set_too_big(s) && m > 1) {
			/* nothing was taken: fewer a PDU, from here on */
			*max = m / 2;
			m = 0;
			continue;
		}
		if (e.code != LAB_EXIT_OK) {
			j = failed < m ? failed : 0;
			mark_failed(&w->v[k + j], &e);
			lab_err_prefix(&e, "%s", w->v[k + j].what);
			w->v[k + j].err = e;
			*err = e;
			return -1;
		}
		for (j = 0; j < m; j++)
			w->v[k + j].state = LAB_WRITE_DONE;
	}
	if (read_values(s, w, i, end - i, tmp, err) == -1) {
		lab_err_prefix(err, "%s: reading back", w->v[i].what);
		return -1;
	}
	for (k = i; k < end; k++) {
		if (read_ok(&w->v[k], &tmp[k - i]))
			continue;
		lab_err_init(&e);
		lab_err_set(&e, LAB_EXIT_PARTIAL, "%s: switch %s: read back "
		    "differs from what was set", w->v[k].what, lab_snmp_peer(s));
		/* it was changed: put it back with the done ones */
		w->v[k].state = LAB_WRITE_DONE;
		*err = e;
		return (int)(k - i) + 1;
	}
	return 0;
}

int
lab_vlan_exec(struct lab_snmp *s, struct lab_vlan_writes *w, int max_varbinds,
    struct lab_err *err)
{
	struct lab_snmp_value	*tmp;
	size_t			 max, i, end, k;
	int			 r;

	max = max_varbinds > 0 ? (size_t)max_varbinds : 64;
	if (max > 64)
		max = 64;
	if (w->n == 0)
		return 0;
	if ((tmp = calloc(w->n, sizeof(*tmp))) == NULL)
		return lab_err_oom(err);
	if (!w->before_known && read_values(s, w, 0, w->n, tmp, err) == -1) {
		free(tmp);
		lab_err_prefix(err, "reading the values before");
		return -1;
	}
	for (i = 0; i < w->n; i++) {
		if (!w->before_known)
			w->v[i].before = tmp[i];
		w->v[i].state = LAB_WRITE_PENDING;
		lab_err_init(&w->v[i].err);
	}
	for (i = 0; i < w->n; i = end) {
		for (end = i; end < w->n && w->v[end].phase == w->v[i].phase;)
			end++;
		r = phase(s, w, i, end, &max, tmp, err);
		if (r == 0)
			continue;
		if (r > 0) {
			k = i + (size_t)r - 1;
			restore(s, w);
			/* the one read back wrong says so, whatever came back */
			w->v[k].state = LAB_WRITE_FAILED;
			w->v[k].err = *err;
		} else
			restore(s, w);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
