/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ipmiconsole.h>

#include "lab/console.h"
#include "lab/ipmi.h"
#include "ipmi-priv.h"

#define DEFAULT_PORT		623
#define DEFAULT_TIMEOUT_MS	60000
#define DEFAULT_KEEPALIVE_MS	20000
#define DEFAULT_RETRANSMIT_MS	500
#define KEEPALIVE_RETRANSMIT_MS	5000

/* One SOL session; libipmiconsole's context lives only here. */
struct lab_console {
	ipmiconsole_ctx_t	 ctx;
	int			 fd;
	int			 ready;	/* the marker byte was read */
	int			 ilo2;	/* the hint when SOL is absent */
	int			 engine; /* the engine thread is running */
	char			 peer[300];	/* "ADDRESS:PORT" */
};

#define WA(x)	IPMICONSOLE_WORKAROUND_##x

/* lab's workaround bits (ipmi-priv.h) as libipmiconsole's flags. */
static unsigned
console_flags(unsigned wa)
{
	static const struct {
		unsigned	lab;
		unsigned	flag;
	} map[] = {
		{ LAB_IPMI_WA_AUTHCAP, WA(AUTHENTICATION_CAPABILITIES) },
		{ LAB_IPMI_WA_INTEL20, WA(INTEL_2_0_SESSION) },
		{ LAB_IPMI_WA_SUPERMICRO20, WA(SUPERMICRO_2_0_SESSION) },
		/* The tools' "sun20" implies "opensesspriv". */
		{ LAB_IPMI_WA_SUN20, WA(SUN_2_0_SESSION) |
		    WA(OPEN_SESSION_PRIVILEGE) },
		{ LAB_IPMI_WA_OPENSESSPRIV, WA(OPEN_SESSION_PRIVILEGE) },
		{ LAB_IPMI_WA_INTEGRITYCHECKVALUE,
		    WA(NON_EMPTY_INTEGRITY_CHECK_VALUE) },
		{ LAB_IPMI_WA_NOCHECKSUMCHECK, WA(NO_CHECKSUM_CHECK) },
		{ LAB_IPMI_WA_SOLPAYLOADSIZE, WA(IGNORE_SOL_PAYLOAD_SIZE) },
		{ LAB_IPMI_WA_SOLPORT, WA(IGNORE_SOL_PORT) },
		{ LAB_IPMI_WA_SOLSTATUS, WA(SKIP_SOL_ACTIVATION_STATUS) },
		{ LAB_IPMI_WA_SOLCHANNELSUPPORT,
		    WA(SKIP_CHANNEL_PAYLOAD_SUPPORT) },
		{ LAB_IPMI_WA_SERIALALERTSDEFERRED,
		    WA(SERIAL_ALERTS_DEFERRED) },
		{ LAB_IPMI_WA_SOLPACKETSEQ, WA(INCREMENT_SOL_PACKET_SEQUENCE) },
	};
	unsigned	f = 0;
	size_t		i;

	for (i = 0; i < LAB_ARRAY_SIZE(map); i++)
		if (wa & map[i].lab)
			f |= map[i].flag;
	return f;
}

static int
priv_level(int lab_priv, const char *inventory)
{
	if (lab_priv == 0 && inventory != NULL)
		lab_priv = lab_ipmi_priv_parse(inventory);
	switch (lab_priv) {
	case LAB_IPMI_PRIV_USER:
		return IPMICONSOLE_PRIVILEGE_USER;
	case LAB_IPMI_PRIV_ADMIN:
		return IPMICONSOLE_PRIVILEGE_ADMIN;
	default:
		return IPMICONSOLE_PRIVILEGE_OPERATOR;
	}
}

/* Why the session failed or ended, from libipmiconsole's error number. */
static int
fail(struct lab_console *c, struct lab_err *err)
{
	const char	*p = c->peer;
	int		 e = ipmiconsole_ctx_errnum(c->ctx);

	switch (e) {
	case IPMICONSOLE_ERR_SOL_INUSE:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: a "
		    "serial-over-LAN session is already active (another "
		    "client, or a stale session): --force takes it over", p);
	case IPMICONSOLE_ERR_SOL_STOLEN:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: another "
		    "client took the serial-over-LAN session over", p);
	case IPMICONSOLE_ERR_SOL_UNAVAILABLE:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: this BMC "
		    "offers no serial-over-LAN (not supported or disabled)%s",
		    p, c->ilo2 ? "; iLO 2 has its virtual serial port over "
		    "SSH instead (ssh to the iLO, then 'vsp')" : "");
	case IPMICONSOLE_ERR_SOL_REQUIRES_ENCRYPTION:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: the BMC "
		    "requires encryption for serial-over-LAN: use a cipher "
		    "suite with AES (3, 8, 12 or 17)", p);
	case IPMICONSOLE_ERR_SOL_REQUIRES_NO_ENCRYPTION:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: the BMC "
		    "refuses encryption for serial-over-LAN: use a cipher "
		    "suite without it (1, 2, 6, 7, 11, 15 or 16)", p);
	case IPMICONSOLE_ERR_USERNAME_INVALID:
	case IPMICONSOLE_ERR_PASSWORD_INVALID:
	case IPMICONSOLE_ERR_K_G_INVALID:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: "
		    "authentication failed (wrong user or password): %s", p,
		    ipmiconsole_ctx_strerror(e));
	case IPMICONSOLE_ERR_PRIVILEGE_LEVEL_INSUFFICIENT:
	case IPMICONSOLE_ERR_PRIVILEGE_LEVEL_CANNOT_BE_OBTAINED:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: "
		    "insufficient privilege for this user (a higher "
		    "--privilege, or the BMC needs the 'opensesspriv' "
		    "workaround)", p);
	case IPMICONSOLE_ERR_CIPHER_SUITE_ID_UNAVAILABLE:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: cipher "
		    "suite not supported by the BMC", p);
	case IPMICONSOLE_ERR_IPMI_2_0_UNAVAILABLE:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: the BMC "
		    "does not speak IPMI 2.0 (no serial-over-LAN)", p);
	case IPMICONSOLE_ERR_CONNECTION_TIMEOUT:
	case IPMICONSOLE_ERR_SESSION_TIMEOUT:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: session "
		    "timeout", p);
	case IPMICONSOLE_ERR_BMC_BUSY:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: BMC busy",
		    p);
	case IPMICONSOLE_ERR_BMC_IMPLEMENTATION:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: %s (the "
		    "BMC may need a workaround: solpayloadsize, solport, "
		    "solstatus or solchannelsupport)", p,
		    ipmiconsole_ctx_errormsg(c->ctx));
	case IPMICONSOLE_ERR_BMC_ERROR:
		/* a completion code while setting SOL up (ipmi_sim: 0xc1) */
		if (!c->ready)
			return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: the "
			    "BMC refused to set serial-over-LAN up (%s): it "
			    "offers no serial-over-LAN, or has it disabled", p,
			    ipmiconsole_ctx_errormsg(c->ctx));
		break;
	case IPMICONSOLE_ERR_OUT_OF_MEMORY:
		return lab_err_oom(err);
	case IPMICONSOLE_ERR_TOO_MANY_OPEN_FILES:
	case IPMICONSOLE_ERR_SYSTEM_ERROR:
		return lab_err_set(err, LAB_EXIT_ENV, "BMC %s: %s", p,
		    ipmiconsole_ctx_errormsg(c->ctx));
	case IPMICONSOLE_ERR_SUCCESS:
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: the "
		    "serial-over-LAN session ended", p);
	}
	return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: %s", p,
	    ipmiconsole_ctx_errormsg(c->ctx));
}

/* Fills the three libipmiconsole configurations from the inventory. */
static int
configure(const struct lab_bmc *b, const struct lab_cred *cred,
    const struct lab_console_req *req, const char *peer,
    struct ipmiconsole_ipmi_config *ic,
    struct ipmiconsole_protocol_config *pc,
    struct ipmiconsole_engine_config *ec, struct lab_err *err)
{
	unsigned	wa = 0;
	size_t		k;
	int		timeout, retransmit, keepalive;

	if (b->cipher_suite == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "BMC %s: cipher suite "
		    "0 refused (no authentication, integrity or encryption)",
		    peer);
	if (!ipmiconsole_username_is_valid(cred->username))
		return lab_err_set(err, LAB_EXIT_INPUT, "BMC %s: user name "
		    "longer than 16 characters", peer);
	if (!ipmiconsole_password_is_valid(cred->password))
		return lab_err_set(err, LAB_EXIT_INPUT, "BMC %s: password "
		    "longer than 20 characters", peer);
	for (k = 0; k < b->workarounds.n; k++)
		lab_ipmi_workaround_parse(b->workarounds.v[k], &wa);

	memset(ic, 0, sizeof(*ic));
	/* libipmiconsole copies them; it takes them non-const */
	ic->username = cred->username;
	ic->password = cred->password;
	ic->privilege_level = priv_level(req->privilege, b->privilege);
	ic->cipher_suite_id = b->cipher_suite;
	ic->workaround_flags = console_flags(wa);

	timeout = req->timeout_ms > 0 ? req->timeout_ms :
	    b->timeout_ms > 0 ? b->timeout_ms : DEFAULT_TIMEOUT_MS;
	retransmit = b->retransmit_ms > 0 ? b->retransmit_ms :
	    DEFAULT_RETRANSMIT_MS;
	if (retransmit >= timeout)
		retransmit = timeout / 2;
	/* silence longer than the session timeout would end the session */
	keepalive = req->keepalive_ms > 0 ? req->keepalive_ms :
	    DEFAULT_KEEPALIVE_MS;
	if (keepalive > timeout / 3)
		keepalive = timeout / 3;
	if (retransmit <= 0 || keepalive <= 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "BMC %s: timeout of "
		    "%d ms too short", peer, timeout);
	memset(pc, 0, sizeof(*pc));
	pc->session_timeout_len = timeout;
	pc->retransmission_timeout_len = retransmit;
	pc->retransmission_backoff_count = 2;
	pc->keepalive_timeout_len = keepalive;
	pc->retransmission_keepalive_timeout_len =
	    keepalive < KEEPALIVE_RETRANSMIT_MS ? keepalive :
	    KEEPALIVE_RETRANSMIT_MS;
	pc->acceptable_packet_errors_count = 16;
	pc->maximum_retransmission_count = 16;

	memset(ec, 0, sizeof(*ec));
	/*
	 * IPMI keepalives only: a serial keepalive sends NUL bytes (which
	 * upset getty) or empty SOL packets (which some BMCs, ipmi_sim
	 * among them, never acknowledge).
	 */
	ec->engine_flags = IPMICONSOLE_ENGINE_OUTPUT_ON_SOL_ESTABLISHED;
	/* without force an active session is an error, not taken over */
	ec->behavior_flags = req->force ? 0 :
	    IPMICONSOLE_BEHAVIOR_ERROR_ON_SOL_INUSE;
	ec->debug_flags = 0;
	return 0;
}

/* Starts a SOL session with the host's BMC. */
int
lab_console_open(const struct lab_host *h, const struct lab_creds *creds,
    const struct lab_console_req *req, struct lab_console **ret,
    struct lab_err *err)
{
	struct ipmiconsole_ipmi_config		 ic;
	struct ipmiconsole_protocol_config	 pc;
	struct ipmiconsole_engine_config	 ec;
	const struct lab_bmc			*b = h->bmc;
	const struct lab_cred			*cred;
	struct lab_console			*c;
	int					 n, port;

	if (b == NULL)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "no BMC recorded: "
		    "no serial console over the network");
	cred = creds != NULL ? lab_creds_find(creds, b->credential) : NULL;
	if (cred == NULL || cred->username == NULL || cred->password == NULL)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "credential '%s' %s "
		    "in the credentials file", b->credential, cred == NULL ?
		    "is not" : "has no username and password");
	if (b->address == NULL || b->address[0] == '\0')
		return lab_err_set(err, LAB_EXIT_INPUT, "BMC address missing");
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return lab_err_oom(err);
	c->fd = -1;
	c->ilo2 = b->type != NULL && strcmp(b->type, "ilo2") == 0;
	port = b->port != 0 ? b->port : DEFAULT_PORT;
	/* An IPv6 address needs brackets before the port. */
	n = snprintf(c->peer, sizeof(c->peer), strchr(b->address, ':') != NULL ?
	    "[%s]:%d" : "%s:%d", b->address, port);
	if (n < 0 || (size_t)n >= sizeof(c->peer)) {
		free(c);
		return lab_err_set(err, LAB_EXIT_INPUT, "BMC address too long");
	}
	if (configure(b, cred, req, c->peer, &ic, &pc, &ec, err) == -1) {
		free(c);
		return -1;
	}
	if (ipmiconsole_engine_init(1, 0) < 0) {
		lab_err_set(err, LAB_EXIT_ENV, "BMC %s: cannot start the "
		    "serial-over-LAN engine: %s", c->peer, strerror(errno));
		free(c);
		return -1;
	}
	c->engine = 1;
	if ((c->ctx = ipmiconsole_ctx_create(c->peer, &ic, &pc, &ec)) ==
	    NULL) {
		n = errno;
		lab_err_set(err, n == ENOMEM ? LAB_EXIT_ENV : LAB_EXIT_INPUT,
		    "BMC %s: %s", c->peer, n == EINVAL ? "settings refused "
		    "by libipmiconsole (cipher suite, timeouts)" :
		    strerror(n));
		goto fail;
	}
	if (ipmiconsole_engine_submit(c->ctx, NULL, NULL) < 0) {
		fail(c, err);
		goto fail;
	}
	if ((c->fd = ipmiconsole_ctx_fd(c->ctx)) < 0) {
		fail(c, err);
		goto fail;
	}
	*ret = c;
	return 0;
fail:
	lab_console_close(c);
	return -1;
}

/* The descriptor to poll. */
int
lab_console_fd(const struct lab_console *c)
{
	return c->fd;
}

/* "ADDRESS:PORT" of the BMC. */
const char *
lab_console_peer(const struct lab_console *c)
{
	return c->peer;
}

/* Whether the session is established. */
int
lab_console_ready(const struct lab_console *c)
{
	return c->ready;
}

/* Reads console output. */
ssize_t
lab_console_read(struct lab_console *c, void *buf, size_t len,
    struct lab_err *err)
{
	char	*p = buf;
	ssize_t	 n;

	n = read(c->fd, buf, len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n < 0)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: reading the "
		    "console: %s", c->peer, strerror(errno));
	if (n == 0)
		return fail(c, err);
	if (!c->ready) {
		/* the engine's NUL that says "established" */
		c->ready = 1;
		if (p[0] == '\0') {
			memmove(p, p + 1, (size_t)n - 1);
			n--;
		}
	}
	return n;
}

/* Sends bytes to the console. */
int
lab_console_write(struct lab_console *c, const void *buf, size_t len,
    struct lab_err *err)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		/* a session that ended must not kill the caller by SIGPIPE */
		n = send(c->fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == ENOTSOCK)
			n = write(c->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)
			return fail(c, err);
		if (n < 0)
			return lab_err_set(err, LAB_EXIT_PARTIAL, "BMC %s: "
			    "writing to the console: %s", c->peer,
			    strerror(errno));
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Sends a serial break. */
int
lab_console_break(struct lab_console *c, struct lab_err *err)
{
	if (ipmiconsole_ctx_generate_break(c->ctx) < 0)
		return fail(c, err);
	return 0;
}

/* Deactivates and closes the session. */
void
lab_console_close(struct lab_console *c)
{
	if (c == NULL)
		return;
	/* closing the descriptor makes the engine deactivate SOL */
	if (c->fd >= 0)
		close(c->fd);
	if (c->ctx != NULL)
		ipmiconsole_ctx_destroy(c->ctx);
	/*
	 * Wait for the deactivation when the session was up, so the next
	 * client finds SOL free; a session still being set up is dropped.
	 */
	if (c->engine)
		ipmiconsole_engine_teardown(c->ready);
	free(c);
}
