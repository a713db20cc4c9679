/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_IPMI_PRIV_H
#define LAB_IPMI_PRIV_H

/*
 * Shared by lib/ipmi.c (sessions, power, boot) and lib/ipmi-sensors.c
 * (SDR, sensors, SEL), and for the workaround bits by lib/console.c
 * (serial-over-LAN through libipmiconsole, itself built on FreeIPMI).
 * Only these files include FreeIPMI.
 */

#include <stdint.h>

#include <freeipmi/freeipmi.h>

#include "lab/ipmi.h"
#include "inventory/words.h"

/* One SDR record as read from the BMC. */
struct lab_sdr_rec {
	unsigned	 len;
	uint8_t		 data[IPMI_SDR_MAX_RECORD_LENGTH];
};

struct lab_ipmi {
	ipmi_ctx_t		 ctx;
	char			 peer[300];	/* "ADDRESS:PORT" */
	int			 cipher_suite;
	unsigned		 workarounds;	/* LAB_IPMI_WA_* */
	int			 dead;		/* timed out */
	struct lab_sdr_rec	*sdr;		/* read once a session */
	size_t			 nsdr;
	int			 sdr_loaded;
};

/*
 * Sets err from the context's last error: "BMC PEER: WHAT: text", where
 * WHAT names the command (NULL while opening the session) and rs, if not
 * NULL, holds the response with its completion code. Returns -1.
 */
int	lab_ipmi_fail(struct lab_ipmi *, const char *what, fiid_obj_t rs,
	    uint8_t netfn, struct lab_err *);
/*
 * Checks one ipmi_cmd_*() result: rv < 0 or a completion code other than
 * 0x00 fails as lab_ipmi_fail() does. Returns 0 or -1.
 */
int	lab_ipmi_check(struct lab_ipmi *, int rv, const char *what,
	    fiid_obj_t rs, uint8_t netfn, struct lab_err *);
#define LAB_IPMI_PORT	623	/* RMCP+, when the inventory gives none */
/*
 * Whether t can be asked at all (an address, a port, an IPMI 2.0 cipher
 * suite other than 0, a known privilege, a user name and password
 * FreeIPMI takes); -1 with err naming peer when not.
 */
int	lab_ipmi_target_check(const struct lab_ipmi_target *, const char *peer,
	    struct lab_err *);
/* FreeIPMI's crypto set up, once a process: 0, or -1 when it cannot be. */
int	lab_ipmi_crypt_ready(void);
/* The completion code in rs, or -1 when there is none. */
int	lab_ipmi_cc(fiid_obj_t rs);
/* Frees the SDR records read by this session. */
void	lab_ipmi_sdr_release(struct lab_ipmi *);

#endif
