/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CONSOLE_H
#define LAB_CONSOLE_H

#include <stddef.h>
#include <sys/types.h>

#include "lab/cred.h"
#include "lab/err.h"
#include "lab/inventory.h"

/*
 * Serial-over-LAN (IPMI 2.0 SOL) to one host's BMC, through
 * libipmiconsole. The BMC settings are the inventory's, as for power:
 * address, port, cipher suite, privilege, timeouts and the FreeIPMI
 * workaround words, of which these map to libipmiconsole's flags:
 *
 *	authcap intel20 supermicro20 sun20 opensesspriv
 *	integritycheckvalue nochecksumcheck	as for power
 *	solpayloadsize	IPMICONSOLE_WORKAROUND_IGNORE_SOL_PAYLOAD_SIZE
 *	solport			..._IGNORE_SOL_PORT
 *	solstatus		..._SKIP_SOL_ACTIVATION_STATUS
 *	solchannelsupport	..._SKIP_CHANNEL_PAYLOAD_SUPPORT
 *	serialalertsdeferred	..._SERIAL_ALERTS_DEFERRED
 *	solpacketseq		..._INCREMENT_SOL_PACKET_SEQUENCE
 *
 * (OpenIPMI's ipmi_sim needs opensesspriv, solpayloadsize and
 * solchannelsupport: without the last two libipmiconsole crashes it.)
 * The username and password come from the BMC's credential.
 *
 * One console per process at a time: libipmiconsole's engine is
 * process-wide. lab_console_open() starts its thread, which inherits the
 * caller's signal mask: block the signals the caller handles first.
 *
 * Errors (the message starts "BMC ADDRESS:PORT: " once a BMC is known):
 *	LAB_EXIT_PARTIAL: no BMC recorded, no credential, SOL in use
 *	  (without force), SOL not available, authentication, privilege,
 *	  timeout
 *	LAB_EXIT_INPUT: cipher suite 0, user name or password too long
 *	LAB_EXIT_ENV: out of memory, no engine thread
 */

struct lab_console_req {
	int	force;		/* deactivate an active session first */
	int	privilege;	/* enum lab_ipmi_priv; 0: the
				   inventory's, else operator */
	int	timeout_ms;	/* silence that ends the session; 0:
				   the inventory's, else 60 s */
	int	keepalive_ms;	/* an IPMI keepalive after this much
				   silence; 0: 20 s, or timeout / 3 */
};

struct lab_console;

/*
 * Starts a SOL session with the BMC of host h and returns at once; the
 * session is being set up. Watch lab_console_fd() for reading, and
 * call lab_console_read(): lab_console_ready() says when the console is
 * there. *ret is caller-owned (lab_console_close).
 */
int	lab_console_open(const struct lab_host *h, const struct lab_creds *,
	    const struct lab_console_req *, struct lab_console **ret,
	    struct lab_err *err);

/* The descriptor to poll for reading: console output or the end. */
int	lab_console_fd(const struct lab_console *);

/* "ADDRESS:PORT" of the BMC; borrowed for the console's life. */
const char *lab_console_peer(const struct lab_console *);

/* Whether the SOL session is established (console bytes can flow). */
int	lab_console_ready(const struct lab_console *);

/*
 * Reads what the console sent: up to len bytes into buf. Returns the
 * count, 0 when nothing is there for the caller yet (the session just
 * became ready), or -1 when the session failed or ended, with err
 * saying why (SOL in use, taken over, timeout ...).
 */
ssize_t	lab_console_read(struct lab_console *, void *buf, size_t len,
	    struct lab_err *err);

/* Sends bytes to the console (all of them, or -1 with err). */
int	lab_console_write(struct lab_console *, const void *buf, size_t len,
	    struct lab_err *err);

/* Sends a serial break. */
int	lab_console_break(struct lab_console *, struct lab_err *err);

/*
 * Deactivates the SOL session and closes it (waits for the BMC's answer
 * when the session was established); NULL is a no-op.
 */
void	lab_console_close(struct lab_console *);

#endif
