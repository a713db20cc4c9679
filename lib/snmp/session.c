/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SNMP sessions on net-snmp's single-session API: GET, GETBULK walks of
 * several columns packed into each request, and SET of one string (typed
 * SETs of many varbinds: set.c). With set.c, the only files that include
 * net-snmp's headers; decoders see lab_varbinds.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "lab/reason.h"
#include "lab/snmp.h"
#include "session-priv.h"


/* a string is copied up to the most any decoder keeps */
_Static_assert(LAB_SNMP_MAX_VALUE >= LAB_MIB_MAX_STR, "LAB_MIB_MAX_STR");
_Static_assert(LAB_SNMP_MAX_VALUE >= LAB_MIB_MAX_PORTLIST,
    "LAB_MIB_MAX_PORTLIST");

static pthread_once_t	once = PTHREAD_ONCE_INIT;

static void
init_once(void)
{
	/*
	 * a library: no log output (a null handler; with none at all
	 * net-snmp falls back to stderr), no config or persistent files
	 */
	snmp_disable_log();
	netsnmp_register_loghandler(NETSNMP_LOGHANDLER_NONE, LOG_DEBUG);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
	    NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
	    NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
	    NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
	netsnmp_ds_set_int(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_MIB_WARNINGS,
	    0);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_MIB_ERRORS,
	    0);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
	    NETSNMP_DS_LIB_DONT_LOAD_HOST_FILES, 1);
	/* lab names no MIB objects: load no MIB files at all */
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_MIBDIRS,
	    "/nonexistent");
	init_snmp("lab");
}

/* The session's last error, as net-snmp words it. */
static int
sess_fail(struct lab_snmp *s, const char *what, struct lab_err *err)
{
	char	*msg = NULL;
	int	 liberr = 0, syserr = 0;

	snmp_sess_error(s->sp, &liberr, &syserr, &msg);
	if (liberr == SNMPERR_TIMEOUT)
		lab_err_why(err, LAB_REASON_TIMEOUT, LAB_EXIT_PARTIAL,
		    "switch %s: %s: no answer (timeout; wrong community, "
		    "address or port?)", s->peer, what);
	else
		lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: %s: %s", s->peer,
		    what, msg != NULL ? msg : "SNMP error");
	free(msg);
	return -1;
}

static int
set_key(const char *proto, const char *pass, int priv, netsnmp_session *ss,
    struct lab_err *err)
{
	const oid	*p;
	size_t		 plen, klen;
	u_char		*key;

	if (proto == NULL || pass == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "SNMPv3 %s needs a "
		    "protocol and a password", priv ? "privacy" : "auth");
	if (strlen(pass) < 8)
		return lab_err_set(err, LAB_EXIT_INPUT, "SNMPv3 %s password "
		    "is shorter than 8 characters", priv ? "privacy" : "auth");
	if (!priv) {
		if (strcasecmp(proto, "sha") == 0 ||
		    strcasecmp(proto, "sha1") == 0) {
			p = usmHMACSHA1AuthProtocol;
			plen = OID_LENGTH(usmHMACSHA1AuthProtocol);
		} else if (strcasecmp(proto, "md5") == 0) {
			p = usmHMACMD5AuthProtocol;
			plen = OID_LENGTH(usmHMACMD5AuthProtocol);
		} else if (strcasecmp(proto, "sha256") == 0) {
			p = usmHMAC192SHA256AuthProtocol;
			plen = OID_LENGTH(usmHMAC192SHA256AuthProtocol);
		} else
			return lab_err_set(err, LAB_EXIT_INPUT, "unknown SNMPv3 "
			    "auth_protocol '%s' (sha, sha256 or md5)", proto);
		ss->securityAuthProto = snmp_duplicate_objid(p, plen);
		ss->securityAuthProtoLen = plen;
		key = ss->securityAuthKey;
		klen = USM_AUTH_KU_LEN;
		if (generate_Ku(p, (u_int)plen, (const u_char *)pass,
		    strlen(pass), key, &klen) != SNMPERR_SUCCESS)
			return lab_err_set(err, LAB_EXIT_INPUT, "cannot derive "
			    "the SNMPv3 auth key");
		ss->securityAuthKeyLen = klen;
		return 0;
	}
	if (strcasecmp(proto, "aes") == 0 || strcasecmp(proto, "aes128") == 0) {
		ss->securityPrivProto = snmp_duplicate_objid(usmAESPrivProtocol,
		    OID_LENGTH(usmAESPrivProtocol));
		ss->securityPrivProtoLen = OID_LENGTH(usmAESPrivProtocol);
	} else if (strcasecmp(proto, "des") == 0) {
		ss->securityPrivProto = snmp_duplicate_objid(usmDESPrivProtocol,
		    OID_LENGTH(usmDESPrivProtocol));
		ss->securityPrivProtoLen = OID_LENGTH(usmDESPrivProtocol);
	} else
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown SNMPv3 "
		    "priv_protocol '%s' (aes or des)", proto);
	/* the privacy key is derived with the auth protocol's hash */
	klen = USM_PRIV_KU_LEN;
	if (generate_Ku(ss->securityAuthProto, (u_int)ss->securityAuthProtoLen,
	    (const u_char *)pass, strlen(pass), ss->securityPrivKey,
	    &klen) != SNMPERR_SUCCESS)
		return lab_err_set(err, LAB_EXIT_INPUT, "cannot derive the "
		    "SNMPv3 privacy key");
	ss->securityPrivKeyLen = klen;
	return 0;
}

/*
 * Sets err when a session could not be opened for want of a local
 * resource: net-snmp logs and returns NULL when its socket() fails
 * (EMFILE at the fd limit, ENFILE, ENOMEM, ENOBUFS), so errno e is read,
 * else a socket is tried again. The switch was never asked.
 */
static void
local_failure(const char *peer, int e, struct lab_err *err)
{
	const char	*why = lab_errno_local(e);
	int		 fd;

	if (why == NULL) {
		if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0) {
			close(fd);
			return;
		}
		if ((why = lab_errno_local(errno)) == NULL)
			return;
	}
	lab_err_local(err, "cannot open a socket for switch %s: %s", peer,
	    why);
}

/* Opens a session (no packet is sent yet). */
int
lab_snmp_open(const struct lab_snmp_target *t, struct lab_snmp **ret,
    struct lab_err *err)
{
	netsnmp_session	 ss;
	struct lab_snmp	*s;
	char		 peer[160];
	int		 rc = -1;

	pthread_once(&once, init_once);
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return lab_err_oom(err);
	/* net-snmp reads "udp:::1:161" as a host name: IPv6 is udp6:[addr] */
	if (strchr(t->address, ':') != NULL) {
		snprintf(s->peer, sizeof(s->peer), "[%s]:%d", t->address,
		    t->port);
		snprintf(peer, sizeof(peer), "udp6:[%s]:%d", t->address,
		    t->port);
	} else {
		snprintf(s->peer, sizeof(s->peer), "%s:%d", t->address,
		    t->port);
		snprintf(peer, sizeof(peer), "udp:%s:%d", t->address, t->port);
	}
	snmp_sess_init(&ss);
	ss.peername = peer;
	ss.timeout = (long)(t->timeout_ms > 0 ? t->timeout_ms : 1000) * 1000L;
	ss.retries = t->retries >= 0 ? t->retries : 2;
	s->timeout_us = ss.timeout;
	s->retries = ss.retries;
	if (t->monotonic_ms != NULL && t->deadline_ms > 0) {
		s->monotonic_ms = t->monotonic_ms;
		s->deadline_ms = t->deadline_ms;
	}
	if (strcmp(t->version, "3") == 0) {
		ss.version = SNMP_VERSION_3;
		if (t->username == NULL) {
			lab_err_set(err, LAB_EXIT_INPUT, "SNMPv3 needs a "
			    "username in the credential");
			goto out;
		}
		ss.securityName = (char *)t->username;
		ss.securityNameLen = strlen(t->username);
		ss.securityLevel = SNMP_SEC_LEVEL_NOAUTH;
		if (t->auth_password != NULL) {
			ss.securityLevel = SNMP_SEC_LEVEL_AUTHNOPRIV;
			if (set_key(t->auth_protocol, t->auth_password, 0, &ss,
			    err) == -1)
				goto out;
			if (t->priv_password != NULL) {
				ss.securityLevel = SNMP_SEC_LEVEL_AUTHPRIV;
				if (set_key(t->priv_protocol, t->priv_password,
				    1, &ss, err) == -1)
					goto out;
			}
		}
		if (t->context != NULL) {
			ss.contextName = (char *)t->context;
			ss.contextNameLen = strlen(t->context);
		}
	} else {
		ss.version = strcmp(t->version, "1") == 0 ? SNMP_VERSION_1 :
		    SNMP_VERSION_2c;
		s->v1 = ss.version == SNMP_VERSION_1;
		if (t->community == NULL) {
			lab_err_set(err, LAB_EXIT_INPUT, "SNMP v%s needs a "
			    "community in the credential", t->version);
			goto out;
		}
		ss.community = (u_char *)t->community;
		ss.community_len = strlen(t->community);
	}
	if ((s->sp = snmp_sess_open(&ss)) == NULL) {
		local_failure(s->peer, errno, err);
		lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: cannot open an "
		    "SNMP session", s->peer);
		goto out;
	}
	rc = 0;
out:
	/* snmp_sess_open copied what it keeps; wipe our copies of keys */
	free(ss.securityAuthProto);
	free(ss.securityPrivProto);
	explicit_bzero(ss.securityAuthKey, sizeof(ss.securityAuthKey));
	explicit_bzero(ss.securityPrivKey, sizeof(ss.securityPrivKey));
	if (rc == 0)
		*ret = s;
	else
		free(s);
	return rc;
}

/* Closes a session; NULL is a no-op. */
void
lab_snmp_free(struct lab_snmp *s)
{
	if (s == NULL)
		return;
	if (s->sp != NULL)
		snmp_sess_close(s->sp);
	free(s);
}

/* Requests and varbinds so far. */
void
lab_snmp_get_stats(const struct lab_snmp *s, struct lab_snmp_stats *ret)
{
	*ret = s->stats;
}

/* 1 when the last call failed because the deadline passed. */
int
lab_snmp_past_deadline(const struct lab_snmp *s)
{
	return s->past_deadline;
}

/* The agent's address as messages give it. */
const char *
lab_snmp_peer(const struct lab_snmp *s)
{
	return s->peer;
}

/*
 * Appends a copy of net-snmp's varbind to the list, of a string only what
 * a decoder may keep; *bytes grows by what the copy holds.
 */
static int
add_vb(struct lab_varbind_list *l, const netsnmp_variable_list *v,
    size_t *bytes)
{
	struct lab_varbind	*vb;
	size_t			 cap, len;

	if (l->n == l->cap) {
		cap = l->cap ? l->cap * 2 : 256;
		if ((vb = realloc(l->v, cap * sizeof(*vb))) == NULL)
			return -1;
		l->v = vb;
		l->cap = cap;
	}
	vb = &l->v[l->n];
	memset(vb, 0, sizeof(*vb));
	if ((vb->oid = malloc(v->name_length * sizeof(*vb->oid) + 1)) == NULL)
		return -1;
	memcpy(vb->oid, v->name, v->name_length * sizeof(*vb->oid));
	vb->oid_len = v->name_length;
	switch (v->type) {
	case ASN_INTEGER:
		vb->type = LAB_SNMP_INTEGER;
		vb->i = *v->val.integer;
		break;
	case ASN_COUNTER:
		vb->type = LAB_SNMP_COUNTER32;
		vb->u = (uint32_t)*v->val.integer;
		break;
	case ASN_GAUGE:
		vb->type = LAB_SNMP_GAUGE32;
		vb->u = (uint32_t)*v->val.integer;
		break;
	case ASN_TIMETICKS:
		vb->type = LAB_SNMP_TIMETICKS;
		vb->u = (uint32_t)*v->val.integer;
		break;
	case ASN_COUNTER64:
		vb->type = LAB_SNMP_COUNTER64;
		vb->u = ((uint64_t)v->val.counter64->high << 32) |
		    v->val.counter64->low;
		break;
	case ASN_OCTET_STR:
		vb->type = LAB_SNMP_OCTETS;
		len = v->val_len < LAB_SNMP_MAX_VALUE ? v->val_len :
		    LAB_SNMP_MAX_VALUE;
		if ((vb->str = malloc(len + 1)) == NULL) {
			free(vb->oid);
			return -1;
		}
		memcpy(vb->str, v->val.string, len);
		vb->str_len = len;
		*bytes += len + 1;
		break;
	case ASN_OBJECT_ID:
		vb->type = LAB_SNMP_OID;
		vb->oidv_len = v->val_len / sizeof(oid);
		if ((vb->oidv = malloc(v->val_len + 1)) == NULL) {
			free(vb->oid);
			return -1;
		}
		memcpy(vb->oidv, v->val.objid, vb->oidv_len * sizeof(oid));
		*bytes += v->val_len + 1;
		break;
	case ASN_IPADDRESS:
		vb->type = LAB_SNMP_IPADDRESS;
		if (v->val_len == 4)
			memcpy(vb->ip, v->val.string, 4);
		break;
	case SNMP_NOSUCHOBJECT:
		vb->type = LAB_SNMP_NO_SUCH_OBJECT;
		break;
	case SNMP_NOSUCHINSTANCE:
		vb->type = LAB_SNMP_NO_SUCH_INSTANCE;
		break;
	case SNMP_ENDOFMIBVIEW:
		vb->type = LAB_SNMP_END_OF_MIB;
		break;
	default:
		vb->type = LAB_SNMP_NULL;
	}
	*bytes += sizeof(*vb) + v->name_length * sizeof(*vb->oid) + 1;
	l->n++;
	return 0;
}

/* Fails as past the deadline. */
static int
deadline_fail(struct lab_snmp *s, const char *what, struct lab_err *err)
{
	s->past_deadline = 1;
	return lab_err_why(err, LAB_REASON_TIMEOUT, LAB_EXIT_PARTIAL,
	    "switch %s: %s: past the "
	    "deadline", s->peer, what);
}

/*
 * With a deadline, no request starts after it and none waits past it:
 * each try of this one gets at most its share of the time left.
 */
static int
fit_deadline(struct lab_snmp *s, const char *what, struct lab_err *err)
{
	netsnmp_session	*ss;
	int64_t		 left;
	long		 per;

	if (s->deadline_ms == 0)
		return 0;
	if ((left = s->deadline_ms - s->monotonic_ms()) <= 0)
		return deadline_fail(s, what, err);
	per = s->timeout_us;
	if (left * 1000 / (s->retries + 1) < per)
		per = (long)(left * 1000 / (s->retries + 1));
	if (per < 1000)
		per = 1000;
	if ((ss = snmp_sess_session(s->sp)) != NULL)
		ss->timeout = per;
	return 0;
}

/*
 * Sends pdu; *ret is net-snmp's answer, to free, whatever its error
 * status (lib/snmp/set.c maps errorIndex itself).
 */
int
lab_snmp_exchange_raw(struct lab_snmp *s, netsnmp_pdu *pdu, const char *what,
    netsnmp_pdu **ret, struct lab_err *err)
{
	netsnmp_pdu	*resp = NULL;
	int		 st;

	s->past_deadline = 0;
	if (fit_deadline(s, what, err) == -1) {
		snmp_free_pdu(pdu);
		return -1;
	}
	s->stats.requests++;
	if ((st = snmp_sess_synch_response(s->sp, pdu, &resp)) != STAT_SUCCESS) {
		snmp_free_pdu(resp);
		if (s->deadline_ms != 0 &&
		    s->monotonic_ms() >= s->deadline_ms)
			return deadline_fail(s, what, err);
		if (st == STAT_TIMEOUT)
			return lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: "
			    "%s: no answer (timeout; wrong community or key, "
			    "address or port?)", s->peer, what);
		return sess_fail(s, what, err);
	}
	*ret = resp;
	return 0;
}

/* Sends pdu and checks the answer; *ret is net-snmp's, to free. */
static int
exchange(struct lab_snmp *s, netsnmp_pdu *pdu, const char *what,
    netsnmp_pdu **ret, struct lab_err *err)
{
	netsnmp_pdu	*resp = NULL;

	if (lab_snmp_exchange_raw(s, pdu, what, &resp, err) == -1)
		return -1;
	if (resp->errstat != SNMP_ERR_NOERROR) {
		lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: %s: %s", s->peer,
		    what, snmp_errstring((int)resp->errstat));
		snmp_free_pdu(resp);
		return -1;
	}
	*ret = resp;
	return 0;
}

/* GETs the given OIDs (scalars) into out. */
int
lab_snmp_get(struct lab_snmp *s, const struct lab_oid *oids, size_t n,
    struct lab_varbind_list *out, struct lab_err *err)
{
	netsnmp_pdu		*pdu, *resp;
	netsnmp_variable_list	*v;
	size_t			 i, bytes = 0;

	if ((pdu = snmp_pdu_create(SNMP_MSG_GET)) == NULL)
		return lab_err_oom(err);
	for (i = 0; i < n; i++)
		snmp_add_null_var(pdu, oids[i].v, oids[i].len);
	if (exchange(s, pdu, "get", &resp, err) == -1)
		return -1;
	for (v = resp->variables; v != NULL; v = v->next_variable) {
		s->stats.varbinds++;
		if (add_vb(out, v, &bytes) == -1) {
			snmp_free_pdu(resp);
			return lab_err_oom(err);
		}
	}
	snmp_free_pdu(resp);
	return 0;
}

static int
under(const oid *name, size_t len, const struct lab_oid *col)
{
	return len > col->len &&
	    memcmp(name, col->v, col->len * sizeof(oid)) == 0;
}

/* "1.3.6.1..." of an OID, cut to fit. */
static void
oid_text(char *buf, size_t size, const oid *v, size_t n)
{
	size_t	i, off = 0;
	int	w;

	buf[0] = '\0';
	for (i = 0; i < n && off < size; i++) {
		w = snprintf(buf + off, size - off, "%s%" PRIuMAX, i ? "." : "",
		    (uintmax_t)v[i]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* An answer not after the column's last OID: the agent loops. */
static int
not_increasing(struct lab_snmp *s, const struct lab_oid *prev,
    const netsnmp_variable_list *v, struct lab_err *err)
{
	char	a[160], b[160];

	oid_text(a, sizeof(a), prev->v, prev->len);
	oid_text(b, sizeof(b), v->name, v->name_length);
	return lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: walk: OID not "
	    "increasing: %s >= %s (the agent loops): gave up", s->peer, a, b);
}

/*
 * Walks columns together: every request carries each unfinished column's
 * last OID, so one GETBULK brings rows of several columns (at most
 * max_varbinds varbinds, the agent's limit). A column ends when an answer
 * leaves its subtree or reports endOfMibView; one that fails to move
 * forward, or outgrows the bounds of lab/snmp.h, fails the walk.
 */
int
lab_snmp_walk(struct lab_snmp *s, const struct lab_oid *cols, size_t ncols,
    int max_varbinds, struct lab_varbind_list *out, struct lab_err *err)
{
	struct lab_oid		*cur;
	netsnmp_pdu		*pdu, *resp;
	netsnmp_variable_list	*v;
	size_t			 i, k, nactive, *act, *rows, bytes = 0;
	char			*done, out_col[160];
	int			 rc = -1;

	cur = calloc(ncols + 1, sizeof(*cur));
	done = calloc(ncols + 1, 1);
	act = calloc(ncols + 1, sizeof(*act));
	rows = calloc(ncols + 1, sizeof(*rows));
	if (cur == NULL || done == NULL || act == NULL || rows == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < ncols; i++)
		cur[i] = cols[i];
	for (;;) {
		nactive = 0;
		for (i = 0; i < ncols; i++)
			if (!done[i])
				act[nactive++] = i;
		if (nactive == 0)
			break;
		pdu = snmp_pdu_create(s->v1 ? SNMP_MSG_GETNEXT :
		    SNMP_MSG_GETBULK);
		if (pdu == NULL) {
			lab_err_oom(err);
			goto out;
		}
		if (!s->v1) {
			pdu->non_repeaters = 0;
			pdu->max_repetitions = max_varbinds / (long)nactive > 0 ?
			    max_varbinds / (long)nactive : 1;
		}
		for (k = 0; k < nactive; k++)
			snmp_add_null_var(pdu, cur[act[k]].v, cur[act[k]].len);
		if (exchange(s, pdu, "walk", &resp, err) == -1)
			goto out;
		/* answers come row by row: one varbind per asked column */
		for (v = resp->variables, k = 0; v != NULL;
		    v = v->next_variable, k = (k + 1) % nactive) {
			i = act[k];
			s->stats.varbinds++;
			if (done[i])
				continue;
			if (v->type == SNMP_ENDOFMIBVIEW ||
			    v->type == SNMP_NOSUCHOBJECT ||
			    v->type == SNMP_NOSUCHINSTANCE ||
			    !under(v->name, v->name_length, &cols[i]) ||
			    v->name_length > LAB_MIB_MAX_OID) {
				done[i] = 1;
				continue;
			}
			/* as snmpwalk: a repeat or a step back is an error */
			if (snmp_oid_compare(v->name, v->name_length,
			    cur[i].v, cur[i].len) <= 0) {
				not_increasing(s, &cur[i], v, err);
				snmp_free_pdu(resp);
				goto out;
			}
			if (++rows[i] > LAB_MIB_MAX_ROWS) {
				oid_text(out_col, sizeof(out_col), cols[i].v,
				    cols[i].len);
				lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: "
				    "walk: more than %d rows in column %s: "
				    "gave up", s->peer, LAB_MIB_MAX_ROWS,
				    out_col);
				snmp_free_pdu(resp);
				goto out;
			}
			if (add_vb(out, v, &bytes) == -1) {
				snmp_free_pdu(resp);
				lab_err_oom(err);
				goto out;
			}
			if (bytes > LAB_SNMP_MAX_WALK_BYTES) {
				lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: "
				    "walk: more than %zu MiB of answers after "
				    "%zu rows: gave up", s->peer,
				    LAB_SNMP_MAX_WALK_BYTES >> 20, out->n);
				snmp_free_pdu(resp);
				goto out;
			}
			memcpy(cur[i].v, v->name, v->name_length * sizeof(oid));
			cur[i].len = v->name_length;
		}
		/* an empty answer would loop for ever */
		if (resp->variables == NULL)
			for (k = 0; k < nactive; k++)
				done[act[k]] = 1;
		snmp_free_pdu(resp);
	}
	rc = 0;
out:
	free(cur);
	free(done);
	free(act);
	free(rows);
	return rc;
}

/* SETs one OCTET STRING (an ifAlias). */
int
lab_snmp_set_octets(struct lab_snmp *s, const struct lab_oid *o,
    const char *value, size_t len, struct lab_err *err)
{
	netsnmp_pdu		*pdu, *resp;
	netsnmp_variable_list	*v;

	if ((pdu = snmp_pdu_create(SNMP_MSG_SET)) == NULL)
		return lab_err_oom(err);
	snmp_pdu_add_variable(pdu, o->v, o->len, ASN_OCTET_STR,
	    (const u_char *)value, len);
	if (exchange(s, pdu, "set", &resp, err) == -1)
		return -1;
	/*
	 * Some agents refuse with an exception in the varbind and no error
	 * status: only the value echoed back counts as written.
	 */
	v = resp->variables;
	if (v == NULL || v->type != ASN_OCTET_STR || v->val_len != len ||
	    (len > 0 && memcmp(v->val.string, value, len) != 0)) {
		lab_err_set(err, LAB_EXIT_PARTIAL, "switch %s: set: the agent "
		    "did not take the value (%s)", s->peer, v == NULL ?
		    "empty answer" : v->type == SNMP_NOSUCHOBJECT ?
		    "noSuchObject" : v->type == SNMP_NOSUCHINSTANCE ?
		    "noSuchInstance" : "another value came back");
		snmp_free_pdu(resp);
		return -1;
	}
	snmp_free_pdu(resp);
	return 0;
}

/* Frees a list's varbinds and array. */
void
lab_varbind_list_release(struct lab_varbind_list *l)
{
	lab_varbinds_free(l->v, l->n);
	memset(l, 0, sizeof(*l));
}
