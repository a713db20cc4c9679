/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "lab/ipmi.h"
#include "lab/reason.h"
#include "ipmi-priv.h"

/*
 * The power status of many BMCs from one thread: each host's RMCP+
 * session (IPMI 2.0, 13.14-13.31) is a small state machine over
 * FreeIPMI's packet functions, and one poll() loop drives them all, so a
 * run costs no thread, no context switch and no packet object per host
 * (lab_ipmi_open() in threads costs all three: bench/README.md).
 *
 * Steps: Open Session, RAKP 1 and 3, Set Session Privilege Level, Get
 * Chassis Status, then Close Session, sent once without waiting: the
 * host's answer is known by then. Each datagram is sent again every
 * retransmission interval until its answer comes or the host's deadline
 * passes. A lost RAKP 4 is the one loss a resend cannot mend (the BMC
 * answers a second RAKP 3 inside the session it already opened), so the
 * resent RAKP 3 goes with the Set Session Privilege Level request, which
 * such a session answers; a third silence starts the handshake again.
 *
 * Only the happy path is done here. Any refusal (an RMCP+ status, a
 * completion code, a key that does not check) hands the host back
 * (LAB_IPMI_MANY_LEFT) for lab_ipmi_open() to do again and name exactly;
 * a host that never answers, or stops answering, times out here as it
 * would there.
 */

#define NSOCK_MAX	16	/* sockets: hosts share them */
#define PKT_MAX		512
#define RAKP3_TRIES	3	/* RAKP 3 silences before starting again */
#define IDX_BITS	20	/* of the remote console session id */
#define GEN_MASK	0x7ffu

enum step {
	WAIT, OPEN, RAKP1, RAKP3, PRIV, STATUS, DONE
};

struct peer {
	struct lab_ipmi_many	*m;
	struct sockaddr_in	 to;
	int			 fd;
	enum step		 step;
	unsigned		 gen;		/* handshake number */
	uint32_t		 rcsid, msid;
	uint8_t			 auth, integ, conf, priv, open_priv;
	uint8_t			 rc_rand[IPMI_REMOTE_CONSOLE_RANDOM_NUMBER_LENGTH];
	uint8_t			 ms_rand[IPMI_MANAGED_SYSTEM_RANDOM_NUMBER_LENGTH];
	uint8_t			 guid[IPMI_MANAGED_SYSTEM_GUID_LENGTH];
	uint8_t			 sik_buf[64], k1_buf[64], k2_buf[64];
	void			*sik, *k1, *k2;
	unsigned		 sik_len, k1_len, k2_len;
	uint32_t		 seq;		/* outbound session sequence */
	uint8_t			 rq_seq;
	int			 tries;		/* sends of this step */
	int64_t			 next;		/* when to send again */
	int64_t			 began, deadline;
};

/* The packet objects, made once a run and cleared between uses. */
struct objs {
	fiid_obj_t	rmcp, hdr, payload, lan_rq, lan_rs, lan_trlr, trlr;
	fiid_obj_t	open_rq, open_rs, rakp1, rakp2, rakp3, rakp4;
	fiid_obj_t	priv_rq, priv_rs, status_rq, status_rs, close_rq;
};

struct loop {
	struct peer	*p;
	size_t		 n, left;		/* hosts; not yet done */
	size_t		 max, active, waiting;	/* fan-out; begun; next */
	uint32_t	 salt;
	struct objs	 o;
	int64_t		(*clock_ms)(void);
	void		(*each)(void *, size_t);
	void		*arg;
};

static uint32_t
get32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24;
}

static const char *
pw(const struct peer *p)
{
	return p->m->t->password != NULL ? p->m->t->password : "";
}

static const char *
user(const struct peer *p)
{
	return p->m->t->username != NULL ? p->m->t->username : "";
}

static void
objs_free(struct objs *o)
{
	fiid_obj_t	*v = (fiid_obj_t *)o;
	size_t		 i;

	for (i = 0; i < sizeof(*o) / sizeof(*v); i++)
		fiid_obj_destroy(v[i]);
}

static int
objs_make(struct objs *o)
{
	fiid_obj_t	*v = (fiid_obj_t *)o;
	size_t		 i;

	memset(o, 0, sizeof(*o));
	o->rmcp = fiid_obj_create(tmpl_rmcp_hdr);
	o->hdr = fiid_obj_create(tmpl_rmcpplus_session_hdr);
	o->payload = fiid_obj_create(tmpl_rmcpplus_payload);
	o->lan_rq = fiid_obj_create(tmpl_lan_msg_hdr_rq);
	o->lan_rs = fiid_obj_create(tmpl_lan_msg_hdr_rs);
	o->lan_trlr = fiid_obj_create(tmpl_lan_msg_trlr);
	o->trlr = fiid_obj_create(tmpl_rmcpplus_session_trlr);
	o->open_rq = fiid_obj_create(tmpl_rmcpplus_open_session_request);
	o->open_rs = fiid_obj_create(tmpl_rmcpplus_open_session_response);
	o->rakp1 = fiid_obj_create(tmpl_rmcpplus_rakp_message_1);
	o->rakp2 = fiid_obj_create(tmpl_rmcpplus_rakp_message_2);
	o->rakp3 = fiid_obj_create(tmpl_rmcpplus_rakp_message_3);
	o->rakp4 = fiid_obj_create(tmpl_rmcpplus_rakp_message_4);
	o->priv_rq = fiid_obj_create(tmpl_cmd_set_session_privilege_level_rq);
	o->priv_rs = fiid_obj_create(tmpl_cmd_set_session_privilege_level_rs);
	o->status_rq = fiid_obj_create(tmpl_cmd_get_chassis_status_rq);
	o->status_rs = fiid_obj_create(tmpl_cmd_get_chassis_status_rs);
	o->close_rq = fiid_obj_create(tmpl_cmd_close_session_rq);
	for (i = 0; i < sizeof(*o) / sizeof(*v); i++)
		if (v[i] == NULL) {
			objs_free(o);
			return -1;
		}
	return 0;
}

/* Assembles obj (with lan_rq for an IPMI payload) as p's next datagram. */
static int
assemble(struct loop *l, struct peer *p, uint8_t type, fiid_obj_t obj,
    uint8_t *pkt)
{
	struct objs	*o = &l->o;
	int		 in = type == IPMI_PAYLOAD_TYPE_IPMI;

	if (fill_rmcp_hdr_ipmi(o->rmcp) < 0 ||
	    fill_rmcpplus_session_hdr(type,
	    in && p->integ != IPMI_INTEGRITY_ALGORITHM_NONE,
	    in && p->conf != IPMI_CONFIDENTIALITY_ALGORITHM_NONE, 0, 0,
	    in ? p->msid : 0, in ? ++p->seq : 0, o->hdr) < 0 ||
	    fill_rmcpplus_session_trlr(o->trlr) < 0)
		return -1;
	if (in && fill_lan_msg_hdr(IPMI_SLAVE_ADDRESS_BMC,
	    obj == o->status_rq ? IPMI_NET_FN_CHASSIS_RQ : IPMI_NET_FN_APP_RQ,
	    IPMI_BMC_IPMB_LUN_BMC,
	    p->rq_seq++ % (IPMI_LAN_REQUESTER_SEQUENCE_NUMBER_MAX + 1),
	    o->lan_rq) < 0)
		return -1;
	/* before the session, no algorithm applies (nor may its key be
	   missing) */
	return assemble_ipmi_rmcpplus_pkt(in ? p->auth : 0, in ? p->integ : 0,
	    in ? p->conf : 0, in ? p->k1 : NULL, in ? p->k1_len : 0,
	    in ? p->k2 : NULL, in ? p->k2_len : 0, pw(p),
	    (unsigned)strlen(pw(p)), o->rmcp,
	    o->hdr, o->lan_rq, obj, o->trlr, pkt, PKT_MAX, 0);
}

static void
send_pkt(struct peer *p, const uint8_t *pkt, int len)
{
	if (len > 0)
		(void)sendto(p->fd, pkt, (size_t)len, MSG_DONTWAIT,
		    (const struct sockaddr *)&p->to, sizeof(p->to));
}

/* Builds and sends what p's step asks for; -1 when it cannot be built. */
static int
send_step(struct loop *l, struct peer *p, int64_t now)
{
	struct objs	*o = &l->o;
	uint8_t		 pkt[PKT_MAX], code[64];
	int		 len = -1, clen;

	switch (p->step) {
	case OPEN:
		if (fill_rmcpplus_open_session(0, p->open_priv, p->rcsid,
		    p->auth, p->integ, p->conf, o->open_rq) == 0)
			len = assemble(l, p,
			    IPMI_PAYLOAD_TYPE_RMCPPLUS_OPEN_SESSION_REQUEST,
			    o->open_rq, pkt);
		break;
	case RAKP1:
		if (fill_rmcpplus_rakp_message_1(0, p->msid, p->rc_rand,
		    sizeof(p->rc_rand), p->priv, IPMI_NAME_ONLY_LOOKUP,
		    user(p), (unsigned)strlen(user(p)), o->rakp1) == 0)
			len = assemble(l, p, IPMI_PAYLOAD_TYPE_RAKP_MESSAGE_1,
			    o->rakp1, pkt);
		break;
	case RAKP3:
		if ((clen = ipmi_calculate_rakp_3_key_exchange_authentication_code(
		    p->auth, pw(p), (unsigned)strlen(pw(p)), p->ms_rand,
		    sizeof(p->ms_rand), p->rcsid, IPMI_NAME_ONLY_LOOKUP, p->priv,
		    user(p), (unsigned)strlen(user(p)), code,
		    sizeof(code))) >= 0 &&
		    fill_rmcpplus_rakp_message_3(0, RMCPPLUS_STATUS_NO_ERRORS,
		    p->msid, code, (unsigned)clen, o->rakp3) == 0)
			len = assemble(l, p, IPMI_PAYLOAD_TYPE_RAKP_MESSAGE_3,
			    o->rakp3, pkt);
		if (len < 0 || p->tries == 0)
			break;
		/* a RAKP 4 may be what was lost: ask the session too */
		send_pkt(p, pkt, len);
		len = -1;
		/* FALLTHROUGH */
	case PRIV:
		if (fill_cmd_set_session_privilege_level(p->priv,
		    o->priv_rq) == 0)
			len = assemble(l, p, IPMI_PAYLOAD_TYPE_IPMI, o->priv_rq,
			    pkt);
		break;
	case STATUS:
		if (fill_cmd_get_chassis_status(o->status_rq) == 0)
			len = assemble(l, p, IPMI_PAYLOAD_TYPE_IPMI,
			    o->status_rq, pkt);
		break;
	case WAIT:
	case DONE:
		break;
	}
	if (len < 0)
		return -1;
	send_pkt(p, pkt, len);
	p->tries++;
	p->next = now + p->m->t->retransmit_ms;
	return 0;
}

/* Close Session, sent once: its answer changes nothing. */
static void
send_close(struct loop *l, struct peer *p)
{
	uint8_t	pkt[PKT_MAX];

	if (fill_cmd_close_session(p->msid, NULL, l->o.close_rq) == 0)
		send_pkt(p, pkt, assemble(l, p, IPMI_PAYLOAD_TYPE_IPMI,
		    l->o.close_rq, pkt));
}

/*
 * p is finished: answered or failed (each hears of it), or handed back
 * to the caller (LEFT, untold).
 */
static void
finish(struct loop *l, struct peer *p, enum lab_ipmi_many_state state,
    int64_t now)
{
	if (p->step == DONE)
		return;
	p->m->state = state;
	p->m->elapsed_ms = now - p->began;
	if (p->step != WAIT)
		l->active--;
	p->step = DONE;
	l->left--;
	if (state != LAB_IPMI_MANY_LEFT && l->each != NULL)
		l->each(l->arg, (size_t)(p - l->p));
}

static void
hand_back(struct loop *l, struct peer *p, int64_t now)
{
	/* a session that is up is closed before the threads open another */
	if (p->step == PRIV || p->step == STATUS)
		send_close(l, p);
	p->m->reachable = 0;
	finish(l, p, LAB_IPMI_MANY_LEFT, now);
}

static void
to_step(struct loop *l, struct peer *p, enum step s, int64_t now)
{
	p->step = s;
	p->tries = 0;
	if (send_step(l, p, now) < 0)
		hand_back(l, p, now);
}

/* A new handshake: a new session id, so late answers to the old are
   told apart. */
static void
start(struct loop *l, struct peer *p, int64_t now)
{
	size_t	i = (size_t)(p - l->p);

	p->gen = (p->gen + 1) & GEN_MASK;
	p->rcsid = l->salt ^ ((uint32_t)p->gen << IDX_BITS | (uint32_t)(i + 1));
	p->seq = 0;
	if (getrandom(p->rc_rand, sizeof(p->rc_rand), 0) !=
	    (ssize_t)sizeof(p->rc_rand)) {
		hand_back(l, p, now);
		return;
	}
	to_step(l, p, OPEN, now);
}

/* The host whose session id (ours) is sid, or NULL. */
static struct peer *
find(struct loop *l, uint32_t sid)
{
	uint32_t	x = sid ^ l->salt;
	size_t		i = (x & ((1u << IDX_BITS) - 1)) - 1;

	if (i >= l->n || l->p[i].rcsid != sid)
		return NULL;
	return &l->p[i];
}

static int
unassemble(struct loop *l, struct peer *p, const uint8_t *pkt, size_t len,
    fiid_obj_t cmd)
{
	struct objs	*o = &l->o;

	int		 in = p->step >= RAKP3 && cmd != o->rakp4;

	fiid_obj_clear(cmd);
	return unassemble_ipmi_rmcpplus_pkt(in ? p->auth : 0,
	    in ? p->integ : 0, in ? p->conf : 0, in ? p->k1 : NULL,
	    in ? p->k1_len : 0, in ? p->k2 : NULL, in ? p->k2_len : 0, pkt,
	    (unsigned)len, o->rmcp,
	    o->hdr, o->payload, o->lan_rs, cmd, o->lan_trlr, o->trlr, 0);
}

static int
status_ok(fiid_obj_t obj)
{
	uint64_t	v;

	return fiid_obj_get(obj, "rmcpplus_status_code", &v) == 1 &&
	    v == RMCPPLUS_STATUS_NO_ERRORS;
}

static int
cc_ok(fiid_obj_t obj, uint8_t cmd)
{
	uint64_t	c, v;

	return fiid_obj_get(obj, "cmd", &c) == 1 && c == cmd &&
	    fiid_obj_get(obj, "comp_code", &v) == 1 && v == 0;
}

/* A session setup answer for p. */
static void
on_setup(struct loop *l, struct peer *p, uint8_t type, const uint8_t *pkt,
    size_t len, int64_t now)
{
	struct objs	*o = &l->o;
	uint64_t	 v;

	if (type == IPMI_PAYLOAD_TYPE_RMCPPLUS_OPEN_SESSION_RESPONSE &&
	    p->step == OPEN) {
		if (unassemble(l, p, pkt, len, o->open_rs) < 0 ||
		    !status_ok(o->open_rs) ||
		    fiid_obj_get(o->open_rs, "managed_system_session_id",
		    &v) != 1) {
			hand_back(l, p, now);
			return;
		}
		p->msid = (uint32_t)v;
		p->m->reachable = 1;
		to_step(l, p, RAKP1, now);
	} else if (type == IPMI_PAYLOAD_TYPE_RAKP_MESSAGE_2 &&
	    p->step == RAKP1) {
		if (unassemble(l, p, pkt, len, o->rakp2) < 0 ||
		    !status_ok(o->rakp2) ||
		    fiid_obj_get_data(o->rakp2, "managed_system_random_number",
		    p->ms_rand, sizeof(p->ms_rand)) != sizeof(p->ms_rand) ||
		    fiid_obj_get_data(o->rakp2, "managed_system_guid",
		    p->guid, sizeof(p->guid)) != sizeof(p->guid) ||
		    ipmi_rmcpplus_check_rakp_2_key_exchange_authentication_code(
		    p->auth, pw(p), (unsigned)strlen(pw(p)), p->rcsid, p->msid,
		    p->rc_rand, sizeof(p->rc_rand), p->ms_rand,
		    sizeof(p->ms_rand), p->guid, sizeof(p->guid),
		    IPMI_NAME_ONLY_LOOKUP, p->priv, user(p),
		    (unsigned)strlen(user(p)), o->rakp2) != 1) {
			hand_back(l, p, now);
			return;
		}
		p->sik = p->sik_buf;
		p->k1 = p->k1_buf;
		p->k2 = p->k2_buf;
		p->sik_len = p->k1_len = p->k2_len = sizeof(p->sik_buf);
		if (ipmi_calculate_rmcpplus_session_keys(p->auth, p->integ,
		    p->conf, pw(p), (unsigned)strlen(pw(p)), NULL, 0,
		    p->rc_rand, sizeof(p->rc_rand), p->ms_rand,
		    sizeof(p->ms_rand), IPMI_NAME_ONLY_LOOKUP, p->priv, user(p),
		    (unsigned)strlen(user(p)), &p->sik, &p->sik_len, &p->k1,
		    &p->k1_len, &p->k2, &p->k2_len) < 0) {
			hand_back(l, p, now);
			return;
		}
		to_step(l, p, RAKP3, now);
	} else if (type == IPMI_PAYLOAD_TYPE_RAKP_MESSAGE_4 &&
	    p->step == RAKP3) {
		if (unassemble(l, p, pkt, len, o->rakp4) < 0 ||
		    !status_ok(o->rakp4) ||
		    ipmi_rmcpplus_check_rakp_4_integrity_check_value(p->auth,
		    p->sik, p->sik_len, p->rc_rand, sizeof(p->rc_rand),
		    p->msid, p->guid, sizeof(p->guid), o->rakp4) != 1) {
			hand_back(l, p, now);
			return;
		}
		to_step(l, p, PRIV, now);
	}
}

/* An answer inside p's session. */
static void
on_session(struct loop *l, struct peer *p, const uint8_t *pkt, size_t len,
    int64_t now)
{
	struct objs	*o = &l->o;
	fiid_obj_t	 rs;
	uint64_t	 on;

	if (p->step != RAKP3 && p->step != PRIV && p->step != STATUS)
		return;
	rs = p->step == STATUS ? o->status_rs : o->priv_rs;
	if (unassemble(l, p, pkt, len, rs) < 0 ||
	    (p->integ != IPMI_INTEGRITY_ALGORITHM_NONE &&
	    ipmi_rmcpplus_check_packet_session_authentication_code(p->integ,
	    pkt, (unsigned)len, p->k1, p->k1_len, pw(p),
	    (unsigned)strlen(pw(p)), o->trlr) != 1))
		return;		/* not for this step, or forged: ignore */
	if (p->step != STATUS) {
		if (!cc_ok(rs, IPMI_CMD_SET_SESSION_PRIVILEGE_LEVEL)) {
			hand_back(l, p, now);
			return;
		}
		to_step(l, p, STATUS, now);
		return;
	}
	if (!cc_ok(rs, IPMI_CMD_GET_CHASSIS_STATUS) ||
	    fiid_obj_get(rs, "current_power_state.power_is_on", &on) != 1) {
		hand_back(l, p, now);
		return;
	}
	p->m->power = on ? LAB_POWER_ON : LAB_POWER_OFF;
	send_close(l, p);
	finish(l, p, LAB_IPMI_MANY_OK, now);
}

/*
 * The host at from still opening its session: a BMC refusing Open
 * Session may answer with only the tag and the status, without our
 * session id (ipmi_sim does for suites 15-17).
 */
static struct peer *
find_opening(struct loop *l, const struct sockaddr_in *from)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (l->p[i].step == OPEN &&
		    l->p[i].to.sin_addr.s_addr == from->sin_addr.s_addr &&
		    l->p[i].to.sin_port == from->sin_port)
			return &l->p[i];
	return NULL;
}

static void
on_packet(struct loop *l, const uint8_t *pkt, size_t len,
    const struct sockaddr_in *from, int64_t now)
{
	struct peer	*p;
	uint8_t		 type;

	/* RMCP, class IPMI, RMCP+ auth type; the payload at 16 */
	if (len < 18 || pkt[0] != 0x06 || pkt[3] != 0x07 || pkt[4] != 0x06)
		return;
	type = pkt[5] & 0x3f;
	if (type == IPMI_PAYLOAD_TYPE_IPMI) {
		if (len >= 24 && (p = find(l, get32(pkt + 6))) != NULL)
			on_session(l, p, pkt, len, now);
		return;
	}
	/* setup answers carry our session id after the tag and status */
	if (len >= 24)
		p = find(l, get32(pkt + 20));
	else if (type == IPMI_PAYLOAD_TYPE_RMCPPLUS_OPEN_SESSION_RESPONSE &&
	    pkt[17] != RMCPPLUS_STATUS_NO_ERRORS)
		p = find_opening(l, from);
	else
		p = NULL;
	if (p == NULL)
		return;
	if (len < 24) {
		/* refused: lab_ipmi_open() asks again and names why */
		hand_back(l, p, now);
		return;
	}
	on_setup(l, p, type, pkt, len, now);
}

/* Resends what is due, times out what is over; returns the next wake. */
static int64_t
tick(struct loop *l, int64_t now)
{
	int64_t	wake = now + 1000;
	size_t	i;

	for (i = 0; i < l->n; i++) {
		struct peer	*p = &l->p[i];

		if (p->step == DONE || p->step == WAIT)
			continue;
		if (now >= p->deadline) {
			/* as lab_ipmi_open()'s, whatever step it was at: a
			   retry there would have opened a new session, and
			   the BMC is unreachable now */
			p->m->reachable = 0;
			lab_err_why(&p->m->err, LAB_REASON_TIMEOUT,
			    LAB_EXIT_PARTIAL, "BMC %s: session timeout",
			    p->m->peer);
			finish(l, p, LAB_IPMI_MANY_FAILED, now);
			continue;
		}
		if (now >= p->next) {
			if (p->step == RAKP3 && p->tries >= RAKP3_TRIES)
				start(l, p, now);
			else if (send_step(l, p, now) < 0)
				hand_back(l, p, now);
			if (p->step == DONE)
				continue;
		}
		if (p->next < wake)
			wake = p->next;
		if (p->deadline < wake)
			wake = p->deadline;
	}
	return wake;
}

/*
 * Whether t can be asked here: a target lab_ipmi_open() would take, at an
 * IPv4 address, with no session workaround but opensesspriv.
 */
static int
fits(const struct lab_ipmi_target *t, struct sockaddr_in *to)
{
	const unsigned	other = LAB_IPMI_WA_AUTHCAP | LAB_IPMI_WA_INTEL20 |
			    LAB_IPMI_WA_SUPERMICRO20 | LAB_IPMI_WA_SUN20 |
			    LAB_IPMI_WA_INTEGRITYCHECKVALUE |
			    LAB_IPMI_WA_NOCHECKSUMCHECK;

	struct lab_err	err;

	lab_err_init(&err);
	memset(to, 0, sizeof(*to));
	to->sin_family = AF_INET;
	to->sin_port = htons((uint16_t)(t->port != 0 ? t->port :
	    LAB_IPMI_PORT));
	/* what lab_ipmi_open() refuses, it names: the threads do it */
	return lab_ipmi_target_check(t, "", &err) == 0 &&
	    (t->workarounds & other) == 0 &&
	    inet_pton(AF_INET, t->address, &to->sin_addr) == 1 &&
	    t->retransmit_ms > 0 && t->timeout_ms > 0;
}

static void
setup(struct loop *l, struct lab_ipmi_many *v, size_t n, int *fds,
    size_t nfds)
{
	size_t	i, k = 0;

	for (i = 0; i < n; i++) {
		struct peer			*p = &l->p[i];
		const struct lab_ipmi_target	*t = v[i].t;

		p->m = &v[i];
		p->step = DONE;
		if (t == NULL || v[i].state != LAB_IPMI_MANY_LEFT ||
		    !fits(t, &p->to) ||
		    ipmi_cipher_suite_id_to_algorithms((uint8_t)t->cipher_suite,
		    &p->auth, &p->integ, &p->conf) < 0)
			continue;
		p->priv = (uint8_t)(t->privilege != 0 ? t->privilege :
		    LAB_IPMI_PRIV_OPERATOR);
		/* without the workaround FreeIPMI asks for the highest level
		   in Open Session (some BMCs refuse that): do as it does */
		p->open_priv = t->workarounds & LAB_IPMI_WA_OPENSESSPRIV ?
		    p->priv : IPMI_PRIVILEGE_LEVEL_HIGHEST_LEVEL;
		p->fd = fds[k++ % (nfds != 0 ? nfds : 1)];
		p->step = WAIT;
		l->left++;
	}
}

/* Begins the waiting hosts, in order, while the fan-out allows. */
static void
launch(struct loop *l, int64_t now)
{
	while (l->active < l->max && l->waiting < l->n) {
		struct peer	*p = &l->p[l->waiting++];

		if (p->step != WAIT)
			continue;
		p->step = OPEN;
		l->active++;
		p->began = now;
		p->deadline = now + p->m->t->timeout_ms;
		start(l, p, now);
	}
}

int
lab_ipmi_status_many(struct lab_ipmi_many *v, size_t n, size_t max_parallel,
    int64_t (*clock_ms)(void), void (*each)(void *, size_t), void *arg,
    struct lab_err *err)
{
	struct loop	 l;
	struct pollfd	 pfd[NSOCK_MAX];
	int		 fds[NSOCK_MAX];
	size_t		 nfds, i;
	uint8_t		 buf[PKT_MAX];
	int64_t		 now, wake;
	int		 rc = -1;

	if (n == 0)
		return 0;
	if (n >= (1u << IDX_BITS) - 1)
		return 0;		/* all handed back */
	if (lab_ipmi_crypt_ready() < 0)
		return lab_err_set(err, LAB_EXIT_ENV,
		    "cannot initialise libgcrypt for FreeIPMI");
	memset(&l, 0, sizeof(l));
	l.n = n;
	l.max = max_parallel != 0 ? max_parallel : n;
	l.clock_ms = clock_ms;
	l.each = each;
	l.arg = arg;
	nfds = n / 64 + 1 < NSOCK_MAX ? n / 64 + 1 : NSOCK_MAX;
	for (i = 0; i < NSOCK_MAX; i++)
		fds[i] = -1;
	if (getrandom(&l.salt, sizeof(l.salt), 0) != sizeof(l.salt))
		return lab_err_set(err, LAB_EXIT_ENV, "cannot read random "
		    "numbers: %s", strerror(errno));
	l.salt |= 0x80000000u;		/* never a session id of 0 */
	if ((l.p = calloc(n, sizeof(*l.p))) == NULL)
		return lab_err_oom(err);
	if (objs_make(&l.o) < 0) {
		free(l.p);
		return lab_err_oom(err);
	}
	for (i = 0; i < nfds; i++) {
		int	sz = 1 << 20;

		if ((fds[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, 0)) < 0) {
			lab_err_local(err, "cannot open a socket for the "
			    "BMCs: %s", strerror(errno));
			goto out;
		}
		(void)setsockopt(fds[i], SOL_SOCKET, SO_RCVBUF, &sz,
		    sizeof(sz));
		pfd[i].fd = fds[i];
		pfd[i].events = POLLIN;
	}
	setup(&l, v, n, fds, nfds);
	while (l.left > 0) {
		now = l.clock_ms();
		launch(&l, now);
		wake = tick(&l, now);
		if (l.left == 0)
			break;
		if (poll(pfd, nfds, (int)(wake > now ? wake - now : 0)) < 0 &&
		    errno != EINTR) {
			lab_err_local(err, "poll: %s", strerror(errno));
			goto out;
		}
		now = l.clock_ms();
		for (i = 0; i < nfds; i++) {
			struct sockaddr_in	from;
			socklen_t		flen = sizeof(from);
			ssize_t			len;

			if (!(pfd[i].revents & POLLIN))
				continue;
			while ((len = recvfrom(fds[i], buf, sizeof(buf), 0,
			    (struct sockaddr *)&from, &flen)) > 0) {
				on_packet(&l, buf, (size_t)len, &from, now);
				flen = sizeof(from);
			}
		}
	}
	rc = 0;
out:
	for (i = 0; i < nfds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	objs_free(&l.o);
	explicit_bzero(l.p, n * sizeof(*l.p));
	free(l.p);
	return rc;
}
