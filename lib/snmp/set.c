/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Typed SETs of many varbinds a PDU, and GETs of the same values. */
#include <stdio.h>
#include <string.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "lab/snmp.h"
#include "session-priv.h"

/* SNMPv2 error-status names (RFC 3416), as messages give them. */
static const char *const errnames[] = {
	"noError", "tooBig", "noSuchName", "badValue", "readOnly", "genErr",
	"noAccess", "wrongType", "wrongLength", "wrongEncoding", "wrongValue",
	"noCreation", "inconsistentValue", "resourceUnavailable",
	"commitFailed", "undoFailed", "authorizationError", "notWritable",
	"inconsistentName",
};

static const char *
errname(long st)
{
	if (st >= 0 && (size_t)st < sizeof(errnames) / sizeof(errnames[0]))
		return errnames[st];
	return "unknown error";
}

static void
oid_str(char *buf, size_t size, const struct lab_oid *o)
{
	size_t	i, at = 0;
	int	n;

	buf[0] = '\0';
	for (i = 0; i < o->len && at < size; i++) {
		n = snprintf(buf + at, size - at, "%s%lu", i ? "." : "",
		    o->v[i]);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

static int
add_value(netsnmp_pdu *pdu, const struct lab_snmp_value *v,
    struct lab_err *err)
{
	long		 l;
	u_long		 u;

	switch (v->type) {
	case LAB_SNMP_INTEGER:
		l = (long)v->i;
		snmp_pdu_add_variable(pdu, v->oid.v, v->oid.len, ASN_INTEGER,
		    &l, sizeof(l));
		return 0;
	case LAB_SNMP_GAUGE32:
		u = (u_long)v->u;
		snmp_pdu_add_variable(pdu, v->oid.v, v->oid.len, ASN_GAUGE,
		    &u, sizeof(u));
		return 0;
	case LAB_SNMP_OCTETS:
		if (v->len > sizeof(v->str))
			break;
		snmp_pdu_add_variable(pdu, v->oid.v, v->oid.len,
		    ASN_OCTET_STR, v->str, v->len);
		return 0;
	default:
		break;
	}
	return lab_err_set(err, LAB_EXIT_INPUT, "set: a value of a type "
	    "lab does not set");
}

/* Copies one answered varbind into v (its OID kept). */
static void
take_value(struct lab_snmp_value *v, const netsnmp_variable_list *vb)
{
	v->absent = 0;
	v->i = 0;
	v->u = 0;
	v->len = 0;
	switch (vb->type) {
	case ASN_INTEGER:
		v->type = LAB_SNMP_INTEGER;
		v->i = *vb->val.integer;
		break;
	case ASN_GAUGE:
		v->type = LAB_SNMP_GAUGE32;
		v->u = (uint32_t)*vb->val.integer;
		break;
	case ASN_COUNTER:
		v->type = LAB_SNMP_COUNTER32;
		v->u = (uint32_t)*vb->val.integer;
		break;
	case ASN_TIMETICKS:
		v->type = LAB_SNMP_TIMETICKS;
		v->u = (uint32_t)*vb->val.integer;
		break;
	case ASN_OCTET_STR:
		v->type = LAB_SNMP_OCTETS;
		v->len = vb->val_len < sizeof(v->str) ? vb->val_len :
		    sizeof(v->str);
		if (v->len > 0)
			memcpy(v->str, vb->val.string, v->len);
		break;
	default:
		v->type = LAB_SNMP_NULL;
		v->absent = 1;
		break;
	}
}

int
lab_snmp_set(struct lab_snmp *s, const struct lab_snmp_value *v, size_t n,
    size_t *failed, struct lab_err *err)
{
	netsnmp_pdu		*pdu, *resp;
	netsnmp_variable_list	*vb;
	char			 oidbuf[256];
	size_t			 i;

	*failed = n;
	s->set_too_big = 0;
	if (n == 0)
		return 0;
	if ((pdu = snmp_pdu_create(SNMP_MSG_SET)) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < n; i++) {
		if (add_value(pdu, &v[i], err) == -1) {
			snmp_free_pdu(pdu);
			*failed = i;
			return -1;
		}
	}
	s->stats.sets++;
	s->stats.set_varbinds += n;
	if (lab_snmp_exchange_raw(s, pdu, "set", &resp, err) == -1)
		return -1;
	if (resp->errstat != SNMP_ERR_NOERROR) {
		s->set_too_big = resp->errstat == SNMP_ERR_TOOBIG;
		i = resp->errindex >= 1 && (size_t)resp->errindex <= n ?
		    (size_t)resp->errindex - 1 : n;
		*failed = i;
		if (i < n) {
			oid_str(oidbuf, sizeof(oidbuf), &v[i].oid);
			lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: SET %s: "
			    "%s", s->peer, oidbuf, errname(resp->errstat));
		} else
			lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: SET: %s",
			    s->peer, errname(resp->errstat));
		snmp_free_pdu(resp);
		return -1;
	}
	/*
	 * Some agents refuse with an exception in the varbind and no error
	 * status: a varbind that is not a value counts as refused.
	 */
	for (i = 0, vb = resp->variables; i < n; i++, vb = vb->next_variable) {
		if (vb != NULL && vb->type != SNMP_NOSUCHOBJECT &&
		    vb->type != SNMP_NOSUCHINSTANCE &&
		    vb->type != SNMP_ENDOFMIBVIEW)
			continue;
		*failed = i;
		oid_str(oidbuf, sizeof(oidbuf), &v[i].oid);
		lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: SET %s: %s",
		    s->peer, oidbuf, vb == NULL ? "no answer for it" :
		    vb->type == SNMP_NOSUCHOBJECT ? "noSuchObject" :
		    "noSuchInstance");
		snmp_free_pdu(resp);
		return -1;
	}
	snmp_free_pdu(resp);
	return 0;
}

int
lab_snmp_get_values(struct lab_snmp *s, struct lab_snmp_value *v, size_t n,
    struct lab_err *err)
{
	netsnmp_pdu		*pdu, *resp;
	netsnmp_variable_list	*vb;
	size_t			 i, at, chunk;

	/*
	 * The simulator answers at most 64 varbinds a PDU; an agent whose
	 * answer would not fit says tooBig: then halve, for the session.
	 */
	if (s->get_max == 0)
		s->get_max = 64;
	for (at = 0; at < n; at += chunk) {
		chunk = n - at < s->get_max ? n - at : s->get_max;
		if ((pdu = snmp_pdu_create(SNMP_MSG_GET)) == NULL)
			return lab_err_oom(err);
		for (i = 0; i < chunk; i++)
			snmp_add_null_var(pdu, v[at + i].oid.v,
			    v[at + i].oid.len);
		if (lab_snmp_exchange_raw(s, pdu, "get", &resp, err) == -1)
			return -1;
		if (resp->errstat == SNMP_ERR_TOOBIG && chunk > 1) {
			snmp_free_pdu(resp);
			s->get_max = chunk / 2;
			chunk = 0;
			continue;
		}
		if (resp->errstat != SNMP_ERR_NOERROR) {
			lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: get: %s",
			    s->peer, errname(resp->errstat));
			snmp_free_pdu(resp);
			return -1;
		}
		for (i = 0, vb = resp->variables; i < chunk && vb != NULL;
		    i++, vb = vb->next_variable) {
			s->stats.varbinds++;
			take_value(&v[at + i], vb);
		}
		snmp_free_pdu(resp);
		if (i < chunk)
			return lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: "
			    "get: fewer values came back than asked", s->peer);
	}
	return 0;
}

int
lab_snmp_value_eq(const struct lab_snmp_value *a, const struct lab_snmp_value *b)
{
	if (a->type != b->type || a->absent != b->absent)
		return 0;
	if (a->type == LAB_SNMP_OCTETS)
		return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
	if (a->type == LAB_SNMP_INTEGER)
		return a->i == b->i;
	return a->u == b->u;
}

int
lab_snmp_set_too_big(const struct lab_snmp *s)
{
	return s->set_too_big;
}
