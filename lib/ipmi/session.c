/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lab/ipmi.h"
#include "lab/reason.h"
#include "ipmi-priv.h"

#define DEFAULT_TIMEOUT_MS	5000
#define DEFAULT_RETRANSMIT_MS	250

/*
 * FreeIPMI wants ipmi_rmcpplus_init() (libgcrypt set-up) to run once
 * before threads use it; its own later calls are then harmless. This
 * once-flag is the only process-wide state here.
 */
static pthread_once_t	crypt_once = PTHREAD_ONCE_INIT;
static int		crypt_rc;

static void
crypt_init(void)
{
	crypt_rc = ipmi_rmcpplus_init();
}

int
lab_ipmi_crypt_ready(void)
{
	pthread_once(&crypt_once, crypt_init);
	return crypt_rc < 0 ? -1 : 0;
}

#define WA20(x)		IPMI_WORKAROUND_FLAGS_OUTOFBAND_2_0_##x
#define BOOTDEV(x)	IPMI_SYSTEM_BOOT_OPTION_BOOT_FLAG_BOOT_DEVICE_##x
#define BOOTFLAG(x)	IPMI_SYSTEM_BOOT_OPTION_BOOT_FLAG_##x
#define BOOTFLAGS(x)	IPMI_SYSTEM_BOOT_OPTION_BOOT_FLAGS_##x

static unsigned
session_flags(unsigned wa)
{
	unsigned	f = 0;

	if (wa & LAB_IPMI_WA_AUTHCAP)
		f |= WA20(AUTHENTICATION_CAPABILITIES);
	if (wa & LAB_IPMI_WA_INTEL20)
		f |= WA20(INTEL_2_0_SESSION);
	if (wa & LAB_IPMI_WA_SUPERMICRO20)
		f |= WA20(SUPERMICRO_2_0_SESSION);
	/* The tools' "sun20" implies "opensesspriv". */
	if (wa & LAB_IPMI_WA_SUN20)
		f |= WA20(SUN_2_0_SESSION) | WA20(OPEN_SESSION_PRIVILEGE);
	if (wa & LAB_IPMI_WA_OPENSESSPRIV)
		f |= WA20(OPEN_SESSION_PRIVILEGE);
	if (wa & LAB_IPMI_WA_INTEGRITYCHECKVALUE)
		f |= WA20(NON_EMPTY_INTEGRITY_CHECK_VALUE);
	if (wa & LAB_IPMI_WA_NOCHECKSUMCHECK)
		f |= WA20(NO_CHECKSUM_CHECK);
	return f;
}

/* The completion code in rs, or -1 when there is none. */
int
lab_ipmi_cc(fiid_obj_t rs)
{
	uint64_t	v;

	if (rs == NULL || fiid_obj_get(rs, "comp_code", &v) != 1)
		return -1;
	return (int)v;
}

static int
fail_cc(struct lab_ipmi *ip, const char *what, fiid_obj_t rs, uint8_t netfn,
    int cc, struct lab_err *err)
{
	char	text[128];

	if (ipmi_completion_code_strerror_cmd_r(rs, netfn, text,
	    sizeof(text)) < 0)
		snprintf(text, sizeof(text), "unknown completion code");
	return lab_err_why(err, LAB_REASON_REFUSED, LAB_EXIT_PARTIAL,
	    "BMC %s: %s: completion code 0x%02x (%s)", ip->peer,
	    what != NULL ? what : "open session", cc, text);
}

/* Sets err from the context's last error; returns -1. */
int
lab_ipmi_fail(struct lab_ipmi *ip, const char *what, fiid_obj_t rs,
    uint8_t netfn, struct lab_err *err)
{
	const char	*w = what != NULL ? what : "";
	const char	*sep = what != NULL ? ": " : "";
	int		 e, cc;

	e = ipmi_ctx_errnum(ip->ctx);
	switch (e) {
	case IPMI_ERR_SESSION_TIMEOUT:
	case IPMI_ERR_CONNECTION_TIMEOUT:
		ip->dead = 1;
		return lab_err_why(err, LAB_REASON_TIMEOUT, LAB_EXIT_PARTIAL,
		    "BMC %s: %s%ssession timeout", ip->peer, w, sep);
	case IPMI_ERR_USERNAME_INVALID:
	case IPMI_ERR_PASSWORD_INVALID:
	case IPMI_ERR_K_G_INVALID:
	case IPMI_ERR_PASSWORD_VERIFICATION_TIMEOUT:
		return lab_err_why(err, LAB_REASON_AUTH, LAB_EXIT_PARTIAL,
		    "BMC %s: %s%sauthentication failed (wrong user or "
		    "password): %s", ip->peer, w, sep,
		    ipmi_ctx_errormsg(ip->ctx));
	case IPMI_ERR_PRIVILEGE_LEVEL_INSUFFICIENT:
	case IPMI_ERR_PRIVILEGE_LEVEL_CANNOT_BE_OBTAINED:
		/* ipmi_sim, and some real BMCs, say this for a missing flag. */
		if (what == NULL && !(ip->workarounds &
		    (LAB_IPMI_WA_OPENSESSPRIV | LAB_IPMI_WA_SUN20)))
			return lab_err_why(err, LAB_REASON_PRIVILEGE,
			    LAB_EXIT_PARTIAL,
			    "BMC %s: insufficient privilege for this user "
			    "(or the BMC needs the 'opensesspriv' workaround)",
			    ip->peer);
		return lab_err_why(err, LAB_REASON_PRIVILEGE, LAB_EXIT_PARTIAL,
		    "BMC %s: %s%sinsufficient privilege for this user",
		    ip->peer, w, sep);
	case IPMI_ERR_CIPHER_SUITE_ID_UNAVAILABLE:
		return lab_err_why(err, LAB_REASON_REFUSED, LAB_EXIT_PARTIAL,
		    "BMC %s: cipher suite %d not supported by the BMC",
		    ip->peer, ip->cipher_suite);
	case IPMI_ERR_BMC_BUSY:
	case IPMI_ERR_DRIVER_BUSY:
		return lab_err_why(err, LAB_REASON_BUSY, LAB_EXIT_PARTIAL,
		    "BMC %s: %s%sBMC busy", ip->peer, w, sep);
	case IPMI_ERR_OUT_OF_MEMORY:
		return lab_err_oom(err);
	case IPMI_ERR_BAD_COMPLETION_CODE:
	case IPMI_ERR_COMMAND_INVALID_OR_UNSUPPORTED:
		if ((cc = lab_ipmi_cc(rs)) > 0)
			return fail_cc(ip, what, rs, netfn, cc, err);
		break;
	default:
		break;
	}
	return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: %s%s%s", ip->peer,
	    w, sep, ipmi_ctx_errormsg(ip->ctx));
}

/* Checks an ipmi_cmd_*() result and its completion code. */
int
lab_ipmi_check(struct lab_ipmi *ip, int rv, const char *what, fiid_obj_t rs,
    uint8_t netfn, struct lab_err *err)
{
	int	cc;

	if (rv < 0)
		return lab_ipmi_fail(ip, what, rs, netfn, err);
	/* FreeIPMI checks it too; an unchecked refusal must never pass. */
	if ((cc = lab_ipmi_cc(rs)) != 0) {
		if (cc < 0)
			return lab_err_why(err, LAB_REASON_BAD_REPLY,
			    LAB_EXIT_PARTIAL,
			    "BMC %s: %s: response without completion code",
			    ip->peer, what);
		return fail_cc(ip, what, rs, netfn, cc, err);
	}
	return 0;
}

#define RMCP_LEN		4	/* RMCP header */
#define RMCPPLUS_HDR_LEN	12	/* auth type .. payload length */
#define OPEN_SESSION_LEN	32	/* Open Session Request payload */
#define OPEN_SESSION_TAG	0x4c	/* our message tag: 'L' */
#define OPEN_SESSION_PKT	(RMCP_LEN + RMCPPLUS_HDR_LEN + OPEN_SESSION_LEN)

/*
 * Sends one bare RMCP+ Open Session Request (IPMI 2.0, 13.17) and returns
 * the RMCP+ status code of the answer, or -1 when none came.
 *
 * Why: a BMC refusing Open Session may answer with just the message tag
 * and the status (ipmi_sim 2.0.33 does, e.g. 0x04 for suites 15-17 and
 * 0x01 when out of sessions); FreeIPMI 1.6.10 cannot parse that and
 * reports "internal IPMI error", which would hide the reason. Open
 * Session carries no secret, so asking again costs one round trip.
 */
static int
open_session_status(const char *address, int port, int suite, int priv,
    unsigned timeout, unsigned retransmit)
{
	struct addrinfo	 hints, *ai = NULL;
	struct pollfd	 pfd;
	uint8_t		 pkt[OPEN_SESSION_PKT];
	uint8_t		 rs[256], auth, integ, conf, *p;
	unsigned	 waited;
	char		 serv[8];
	ssize_t		 n;
	int		 fd = -1, status = -1;

	if (ipmi_cipher_suite_id_to_algorithms((uint8_t)suite, &auth, &integ,
	    &conf) < 0)
		return -1;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(serv, sizeof(serv), "%d", port);
	if (getaddrinfo(address, serv, &hints, &ai) != 0)
		return -1;
	if ((fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0 ||
	    connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		goto out;

	memset(pkt, 0, sizeof(pkt));
	p = pkt;
	*p++ = 0x06;			/* RMCP version 1.0 */
	*p++ = 0x00;
	*p++ = 0xff;			/* no RMCP ack */
	*p++ = 0x07;			/* class IPMI */
	*p++ = 0x06;			/* auth type RMCP+ */
	*p++ = 0x10;			/* payload: Open Session Request */
	p += 8;				/* session id and sequence: 0 */
	*p++ = OPEN_SESSION_LEN;	/* payload length, little endian */
	*p++ = 0x00;
	p[0] = OPEN_SESSION_TAG;
	p[1] = (uint8_t)priv;		/* requested maximum privilege */
	memcpy(p + 4, "LAB1", 4);	/* remote console session id */
	p[8] = 0x00;			/* authentication payload */
	p[11] = 0x08;
	p[12] = auth;
	p[16] = 0x01;			/* integrity payload */
	p[19] = 0x08;
	p[20] = integ;
	p[24] = 0x02;			/* confidentiality payload */
	p[27] = 0x08;
	p[28] = conf;

	pfd.fd = fd;
	pfd.events = POLLIN;
	for (waited = 0; waited < timeout && status < 0;
	    waited += retransmit) {
		if (send(fd, pkt, sizeof(pkt), 0) < 0 ||
		    poll(&pfd, 1, (int)retransmit) < 0)
			break;
		if (!(pfd.revents & POLLIN))
			continue;
		/* ICMP "port unreachable" shows here as ECONNREFUSED. */
		if ((n = recv(fd, rs, sizeof(rs), 0)) < 0)
			break;
		if (n >= RMCP_LEN + RMCPPLUS_HDR_LEN + 2 && rs[3] == 0x07 &&
		    (rs[5] & 0x3f) == 0x11 &&
		    rs[RMCP_LEN + RMCPPLUS_HDR_LEN] == OPEN_SESSION_TAG)
			status = rs[RMCP_LEN + RMCPPLUS_HDR_LEN + 1];
	}
out:
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	return status;
}

/*
 * Whether a failed open was this machine's doing: per session FreeIPMI
 * opens a UDP socket and /dev/urandom, and when either fails (EMFILE at
 * the fd limit, ENFILE, ENOMEM, ENOBUFS) it says "internal error" and
 * loses errno. So both are opened again, together; when that fails for
 * want of a resource, err says so as an environment error (the BMC was
 * never asked) and 1 is returned.
 */
static int
local_failure(const struct lab_ipmi *ip, struct lab_err *err)
{
	const char	*what = "a socket", *why;
	int		 s, r = -1, e = 0;

	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		e = errno;
	else if ((r = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) < 0) {
		e = errno;
		what = "/dev/urandom";
	}
	if (r >= 0)
		close(r);
	if (s >= 0)
		close(s);
	if ((why = lab_errno_local(e)) == NULL)
		return 0;
	lab_err_local(err, "cannot open %s for BMC %s: %s", what, ip->peer,
	    why);
	return 1;
}

/* Why the BMC refused the session, from the RMCP+ status of Open Session. */
static int
open_refused(struct lab_ipmi *ip, int status, struct lab_err *err)
{
	char	text[128];

	switch (status) {
	case RMCPPLUS_STATUS_NO_ERRORS:
		/* Refused, then accepted: it was out of sessions a moment. */
		return lab_err_why(err, LAB_REASON_BUSY, LAB_EXIT_PARTIAL,
		    "BMC %s: BMC busy (open session refused, then accepted)",
		    ip->peer);
	case RMCPPLUS_STATUS_INSUFFICIENT_RESOURCES_TO_CREATE_A_SESSION:
	case 0x0b:	/* ..._TO_CREATE_A_SESSION_AT_THE_REQUESTED_TIME */
		return lab_err_why(err, LAB_REASON_BUSY, LAB_EXIT_PARTIAL,
		    "BMC %s: BMC busy (no free session)", ip->peer);
	case RMCPPLUS_STATUS_INVALID_AUTHENTICATION_ALGORITHM:
	case RMCPPLUS_STATUS_INVALID_INTEGRITY_ALGORITHM:
	case RMCPPLUS_STATUS_NO_MATCHING_AUTHENTICATION_PAYLOAD:
	case RMCPPLUS_STATUS_NO_MATCHING_INTEGRITY_PAYLOAD:
	case RMCPPLUS_STATUS_INVALID_CONFIDENTIALITY_ALGORITHM:
	case 0x11:	/* NO_CIPHER_SUITE_MATCH_WITH_PROPOSED_... */
		return lab_err_why(err, LAB_REASON_REFUSED, LAB_EXIT_PARTIAL,
		    "BMC %s: cipher suite %d not supported by the BMC",
		    ip->peer, ip->cipher_suite);
	case RMCPPLUS_STATUS_INVALID_ROLE:
	case RMCPPLUS_STATUS_UNAUTHORIZED_ROLE_OR_PRIVILEGE_LEVEL_REQUESTED:
		return lab_err_why(err, LAB_REASON_PRIVILEGE, LAB_EXIT_PARTIAL,
		    "BMC %s: insufficient privilege for this user", ip->peer);
	case RMCPPLUS_STATUS_UNAUTHORIZED_NAME:
		return lab_err_why(err, LAB_REASON_AUTH, LAB_EXIT_PARTIAL,
		    "BMC %s: authentication failed (wrong user or password): "
		    "username invalid", ip->peer);
	}
	if (ipmi_rmcpplus_status_strerror_r((uint8_t)status, text,
	    sizeof(text)) < 0)
		snprintf(text, sizeof(text), "unknown status");
	return lab_err_why(err, LAB_REASON_REFUSED, LAB_EXIT_PARTIAL,
	    "BMC %s: open session refused: RMCP+ status 0x%02x (%s)", ip->peer,
	    status, text);
}

/* Sets err from a failed ipmi_ctx_open_outofband_2_0(). */
static void
open_failed(struct lab_ipmi *ip, const struct lab_ipmi_target *t, int port,
    int priv, unsigned timeout, unsigned retransmit, struct lab_err *err)
{
	int	e = ipmi_ctx_errnum(ip->ctx), status;

	if ((e == IPMI_ERR_INTERNAL_ERROR || e == IPMI_ERR_SYSTEM_ERROR ||
	    e == IPMI_ERR_OUT_OF_MEMORY) && local_failure(ip, err))
		return;
	if ((e == IPMI_ERR_IPMI_ERROR || e == IPMI_ERR_INTERNAL_ERROR ||
	    e == IPMI_ERR_BAD_RMCPPLUS_STATUS_CODE) &&
	    (status = open_session_status(t->address, port, t->cipher_suite,
	    priv, timeout, retransmit)) >= 0) {
		open_refused(ip, status, err);
		return;
	}
	lab_ipmi_fail(ip, NULL, NULL, 0, err);
}

static int
valid_suite(int cs)
{
	return (cs >= 1 && cs <= 3) || (cs >= 6 && cs <= 8) ||
	    (cs >= 11 && cs <= 12) || (cs >= 15 && cs <= 17);
}

int
lab_ipmi_target_check(const struct lab_ipmi_target *t, const char *peer,
    struct lab_err *err)
{
	if (t->address == NULL || t->address[0] == '\0')
		return lab_err_set(err, LAB_EXIT_INPUT, "BMC address missing");
	if (t->port < 0 || t->port > 65535)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: port %d out of range", peer, t->port);
	if (t->cipher_suite == 0)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: cipher suite 0 refused (no authentication, "
		    "integrity or encryption)", peer);
	if (!valid_suite(t->cipher_suite))
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: cipher suite %d is not an IPMI 2.0 cipher suite "
		    "(1-3, 6-8, 11-12, 15-17)", peer, t->cipher_suite);
	if (t->privilege != 0 && t->privilege != LAB_IPMI_PRIV_USER &&
	    t->privilege != LAB_IPMI_PRIV_OPERATOR &&
	    t->privilege != LAB_IPMI_PRIV_ADMIN)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: privilege level %d unknown", peer, t->privilege);
	if (t->username != NULL &&
	    strlen(t->username) > IPMI_MAX_USER_NAME_LENGTH)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: user name longer than %d characters", peer,
		    IPMI_MAX_USER_NAME_LENGTH);
	if (t->password != NULL &&
	    strlen(t->password) > IPMI_2_0_MAX_PASSWORD_LENGTH)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: password longer than %d characters", peer,
		    IPMI_2_0_MAX_PASSWORD_LENGTH);
	if (t->timeout_ms < 0 || t->retransmit_ms < 0)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: negative timeout", peer);
	return 0;
}

/* Opens a session. */
int
lab_ipmi_open(const struct lab_ipmi_target *t, struct lab_ipmi **ret,
    struct lab_err *err)
{
	struct lab_ipmi	*ip;
	char		 host[sizeof(ip->peer)];
	unsigned	 timeout, retransmit;
	int		 port, priv, n;

	port = t->port != 0 ? t->port : LAB_IPMI_PORT;
	/* An IPv6 address needs brackets before the port, for FreeIPMI too. */
	n = snprintf(host, sizeof(host),
	    t->address != NULL && strchr(t->address, ':') != NULL ?
	    "[%s]:%d" : "%s:%d", t->address != NULL ? t->address : "", port);
	if (n < 0 || (size_t)n >= sizeof(host))
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC address too long");
	if (lab_ipmi_target_check(t, host, err) < 0)
		return -1;

	timeout = t->timeout_ms != 0 ? (unsigned)t->timeout_ms :
	    DEFAULT_TIMEOUT_MS;
	retransmit = t->retransmit_ms != 0 ? (unsigned)t->retransmit_ms :
	    DEFAULT_RETRANSMIT_MS;
	/* FreeIPMI refuses a retransmission timeout >= the session timeout. */
	if (retransmit >= timeout)
		retransmit = timeout / 2;
	if (retransmit == 0)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: timeout of %u ms too short", host, timeout);
	priv = t->privilege != 0 ? t->privilege : LAB_IPMI_PRIV_OPERATOR;

	if (lab_ipmi_crypt_ready() < 0)
		return lab_err_set(err, LAB_EXIT_ENV,
		    "BMC %s: cannot initialise libgcrypt for FreeIPMI", host);

	if ((ip = calloc(1, sizeof(*ip))) == NULL)
		return lab_err_oom(err);
	memcpy(ip->peer, host, sizeof(ip->peer));
	ip->cipher_suite = t->cipher_suite;
	ip->workarounds = t->workarounds;
	if ((ip->ctx = ipmi_ctx_create()) == NULL) {
		free(ip);
		return lab_err_oom(err);
	}
	if (ipmi_ctx_open_outofband_2_0(ip->ctx, host, t->username,
	    t->password, NULL, 0, (uint8_t)priv, (uint8_t)t->cipher_suite,
	    timeout, retransmit, session_flags(t->workarounds),
	    IPMI_FLAGS_DEFAULT) < 0) {
		open_failed(ip, t, port, priv, timeout, retransmit, err);
		ipmi_ctx_destroy(ip->ctx);
		free(ip);
		return -1;
	}
	*ret = ip;
	return 0;
}

/* Closes the session; NULL is a no-op. */
void
lab_ipmi_free(struct lab_ipmi *ip)
{
	if (ip == NULL)
		return;
	/* Close Session to a BMC that stopped answering would wait again. */
	if (!ip->dead)
		ipmi_ctx_close(ip->ctx);
	ipmi_ctx_destroy(ip->ctx);
	lab_ipmi_sdr_release(ip);
	free(ip);
}

/* Reads the chassis power state. */
int
lab_ipmi_power_get(struct lab_ipmi *ip, enum lab_power *ret,
    struct lab_err *err)
{
	fiid_obj_t	rs;
	uint64_t	on;
	int		rv;

	if ((rs = fiid_obj_create(tmpl_cmd_get_chassis_status_rs)) == NULL)
		return lab_err_oom(err);
	rv = lab_ipmi_check(ip, ipmi_cmd_get_chassis_status(ip->ctx, rs),
	    "get chassis status", rs, IPMI_NET_FN_CHASSIS_RQ, err);
	if (rv == 0) {
		if (fiid_obj_get(rs, "current_power_state.power_is_on",
		    &on) == 1)
			*ret = on ? LAB_POWER_ON : LAB_POWER_OFF;
		else
			rv = lab_err_why(err, LAB_REASON_BAD_REPLY,
			    LAB_EXIT_PARTIAL,
			    "BMC %s: get chassis status: short response",
			    ip->peer);
	}
	fiid_obj_destroy(rs);
	return rv;
}

static const struct {
	enum lab_power_action	 act;
	uint8_t			 code;
	const char		*what;
} power_actions[] = {
	{ LAB_POWER_ACT_ON, IPMI_CHASSIS_CONTROL_POWER_UP,
	    "chassis control (power on)" },
	{ LAB_POWER_ACT_OFF, IPMI_CHASSIS_CONTROL_POWER_DOWN,
	    "chassis control (power off)" },
	{ LAB_POWER_ACT_CYCLE, IPMI_CHASSIS_CONTROL_POWER_CYCLE,
	    "chassis control (power cycle)" },
	{ LAB_POWER_ACT_RESET, IPMI_CHASSIS_CONTROL_HARD_RESET,
	    "chassis control (hard reset)" },
	{ LAB_POWER_ACT_SOFT, IPMI_CHASSIS_CONTROL_INITIATE_SOFT_SHUTDOWN,
	    "chassis control (soft shutdown)" },
};

/* Sends a chassis control command; checks the completion code. */
int
lab_ipmi_power_set(struct lab_ipmi *ip, enum lab_power_action act,
    struct lab_err *err)
{
	fiid_obj_t	rs;
	size_t		i;
	int		rv;

	for (i = 0; i < LAB_ARRAY_SIZE(power_actions); i++)
		if (power_actions[i].act == act)
			break;
	if (i == LAB_ARRAY_SIZE(power_actions))
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: unknown power action %d", ip->peer, (int)act);
	if ((rs = fiid_obj_create(tmpl_cmd_chassis_control_rs)) == NULL)
		return lab_err_oom(err);
	rv = lab_ipmi_check(ip, ipmi_cmd_chassis_control(ip->ctx,
	    power_actions[i].code, rs), power_actions[i].what, rs,
	    IPMI_NET_FN_CHASSIS_RQ, err);
	fiid_obj_destroy(rs);
	return rv;
}

/* Boot device selector values (IPMI 2.0 table 28-14, data 2 [5:2]). */
static const struct {
	enum lab_boot_dev	dev;
	uint8_t			code;
} boot_devs[] = {
	{ LAB_BOOT_NONE, BOOTDEV(NO_OVERRIDE) },
	{ LAB_BOOT_PXE, BOOTDEV(FORCE_PXE) },
	{ LAB_BOOT_DISK, BOOTDEV(FORCE_HARD_DRIVE) },
	{ LAB_BOOT_CDROM, BOOTDEV(FORCE_CD_DVD) },
	{ LAB_BOOT_BIOS, BOOTDEV(FORCE_BIOS_SETUP) },
	/* Read back only: the nearest lab name. */
	{ LAB_BOOT_DISK, BOOTDEV(FORCE_HARD_DRIVE_SAFE_MODE) },
	{ LAB_BOOT_DISK, BOOTDEV(FORCE_REMOTELY_CONNECTED_HARD_DRIVE) },
	{ LAB_BOOT_CDROM, BOOTDEV(FORCE_REMOTELY_CONNECTED_CD_DVD) },
};
#define BOOT_SETTABLE	5	/* the first rows: one per lab name */

/*
 * Reads the boot device override. The device is reported whatever the
 * "boot flags valid" bit says, as ipmitool and ipmi-chassis do: ipmi_sim
 * stores only the device and always answers valid = 0, persistent = 0,
 * legacy, and real BMCs clear the bit after a boot but keep the device.
 */
int
lab_ipmi_boot_get(struct lab_ipmi *ip, enum lab_boot_dev *dev,
    int *persistent, int *efi, struct lab_err *err)
{
	fiid_obj_t	rs;
	uint64_t	code, pers, type;
	size_t		i;
	int		rv;

	rs = fiid_obj_create(tmpl_cmd_get_system_boot_options_boot_flags_rs);
	if (rs == NULL)
		return lab_err_oom(err);
	rv = lab_ipmi_check(ip, ipmi_cmd_get_system_boot_options_boot_flags(
	    ip->ctx, IPMI_SYSTEM_BOOT_OPTIONS_NO_SET_SELECTOR,
	    IPMI_SYSTEM_BOOT_OPTIONS_NO_BLOCK_SELECTOR, rs),
	    "get boot flags", rs, IPMI_NET_FN_CHASSIS_RQ, err);
	if (rv < 0)
		goto out;
	if (fiid_obj_get(rs, "boot_device", &code) != 1 ||
	    fiid_obj_get(rs, "boot_flags_persistent", &pers) != 1 ||
	    fiid_obj_get(rs, "bios_boot_type", &type) != 1) {
		rv = lab_err_why(err, LAB_REASON_BAD_REPLY, LAB_EXIT_PARTIAL,
		    "BMC %s: get boot flags: short response", ip->peer);
		goto out;
	}
	for (i = 0; i < LAB_ARRAY_SIZE(boot_devs); i++)
		if (boot_devs[i].code == code)
			break;
	if (i == LAB_ARRAY_SIZE(boot_devs)) {
		rv = lab_err_set(err, LAB_EXIT_PARTIAL,
		    "BMC %s: boot device override 0x%02x has no lab name",
		    ip->peer, (unsigned)code);
		goto out;
	}
	if (dev != NULL)
		*dev = boot_devs[i].dev;
	if (persistent != NULL)
		*persistent = pers != 0;
	if (efi != NULL)
		*efi = type == BOOTFLAG(BOOT_TYPE_EFI);
out:
	fiid_obj_destroy(rs);
	return rv;
}

/* Sets the boot device for the next boot (or every boot). */
int
lab_ipmi_boot_set(struct lab_ipmi *ip, enum lab_boot_dev dev, int persistent,
    int efi, struct lab_err *err)
{
	fiid_obj_t	rs;
	size_t		i;
	int		rv;

	for (i = 0; i < BOOT_SETTABLE; i++)
		if (boot_devs[i].dev == dev)
			break;
	if (i == BOOT_SETTABLE)
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "BMC %s: unknown boot device %d", ip->peer, (int)dev);
	if ((rs = fiid_obj_create(tmpl_cmd_set_system_boot_options_rs)) == NULL)
		return lab_err_oom(err);
	rv = ipmi_cmd_set_system_boot_options_boot_flags(ip->ctx,
	    IPMI_SYSTEM_BOOT_OPTIONS_PARAMETER_VALID_UNLOCKED,
	    efi ? BOOTFLAG(BOOT_TYPE_EFI) : BOOTFLAG(BOOT_TYPE_PC_COMPATIBLE),
	    persistent ? 1 : 0,
	    1,				/* boot flags valid */
	    0, 0,			/* lock reset button, blank screen */
	    boot_devs[i].code,
	    0, 0,			/* lock keyboard, clear CMOS */
	    BOOTFLAG(CONSOLE_REDIRECTION_DEFAULT),
	    0, 0, 0,			/* sleep button, password, traps */
	    BOOTFLAG(FIRMWARE_BIOS_VERBOSITY_DEFAULT),
	    0,				/* lock out power button */
	    BOOTFLAGS(SET_MUX_TO_RECOMENDED_AT_END_OF_POST),
	    0, 0,			/* shared mode, device instance */
	    rs);
	rv = lab_ipmi_check(ip, rv, "set boot flags", rs,
	    IPMI_NET_FN_CHASSIS_RQ, err);
	fiid_obj_destroy(rs);
	return rv;
}

/* Frees the SDR records read by this session. */
void
lab_ipmi_sdr_release(struct lab_ipmi *ip)
{
	free(ip->sdr);
	ip->sdr = NULL;
	ip->nsdr = 0;
	ip->sdr_loaded = 0;
}
