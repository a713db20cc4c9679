/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_IPMI_H
#define LAB_IPMI_H

#include <stddef.h>

#include "lab/err.h"

/*
 * Out-of-band IPMI 2.0 (RMCP+) to one BMC through libfreeipmi. IPMI 1.5
 * is never used; the cipher suite comes from the inventory and is never
 * negotiated; suite 0 is refused. One struct lab_ipmi is one session and
 * is used by one thread at a time; any number of sessions may run at once
 * in different threads (no global set-up to call first).
 *
 * Errors map to exit codes as follows (the message always starts with
 * "BMC ADDRESS:PORT: " and then says which):
 *	session timeout, BMC busy, connection refused	LAB_EXIT_PARTIAL
 *	authentication failed (user or password)	LAB_EXIT_PARTIAL
 *	insufficient privilege				LAB_EXIT_PARTIAL
 *	cipher suite not supported by the BMC		LAB_EXIT_PARTIAL
 *	a completion code other than 0x00		LAB_EXIT_PARTIAL
 *	cipher suite 0, bad workaround name		LAB_EXIT_INPUT
 *	no such cipher suite, bad port or privilege,	LAB_EXIT_INPUT
 *	user name > 16 or password > 20 characters
 *	out of memory					LAB_EXIT_ENV
 * (LAB_EXIT_PARTIAL: the run goes on with the other hosts.)
 */

enum lab_power {
	LAB_POWER_UNKNOWN = -1,
	LAB_POWER_OFF = 0,
	LAB_POWER_ON = 1,
};

enum lab_power_action {
	LAB_POWER_ACT_ON,
	LAB_POWER_ACT_OFF,	/* hard off */
	LAB_POWER_ACT_CYCLE,
	LAB_POWER_ACT_RESET,
	LAB_POWER_ACT_SOFT,	/* ACPI soft shutdown */
};

enum lab_boot_dev {
	LAB_BOOT_NONE,		/* no override */
	LAB_BOOT_PXE,
	LAB_BOOT_CDROM,
	LAB_BOOT_DISK,
	LAB_BOOT_BIOS,
};

enum lab_ipmi_priv {
	LAB_IPMI_PRIV_USER = 2,
	LAB_IPMI_PRIV_OPERATOR = 3,
	LAB_IPMI_PRIV_ADMIN = 4,
};

/* (lib/inventory/words.c) */
/* LAB_IPMI_PRIV_* for "user", "operator" or "admin"; -1 for another word. */
int	lab_ipmi_priv_parse(const char *);
/* The words lab_ipmi_priv_parse() takes, NULL-terminated. */
extern const char *const lab_ipmi_priv_words[];

/* Where and how to reach one BMC. Strings are borrowed. */
struct lab_ipmi_target {
	const char	*address;
	int		 port;		/* 623 */
	const char	*username;
	const char	*password;	/* never copied anywhere but the session */
	int		 cipher_suite;	/* 1..17; 0 refused */
	unsigned	 workarounds;	/* lab_ipmi_workaround_parse() bits */
	int		 privilege;	/* enum lab_ipmi_priv; 0: operator */
	int		 timeout_ms;	/* session timeout; 0: 5000 */
	int		 retransmit_ms;	/* 0: 250 */
};

struct lab_ipmi;

/* Opens a session. *ret is caller-owned (lab_ipmi_free). */
int	lab_ipmi_open(const struct lab_ipmi_target *, struct lab_ipmi **ret,
	    struct lab_err *err);
/* Closes the session; NULL is a no-op. */
void	lab_ipmi_free(struct lab_ipmi *);

/*
 * The power status of many BMCs at once, from the calling thread: one
 * RMCP+ session each, all driven by one poll() loop (lib/ipmi/many.c).
 * An item whose t is NULL, or whose state is not LEFT, is not asked; at
 * most max_parallel (0: all) are under way at once, begun in order, each
 * with its own deadline (t->timeout_ms from its first datagram, by
 * clock_ms: lab_ctx's monotonic clock).
 * Each item ends OK (power read), FAILED (err: the BMC did not answer,
 * or stopped answering, before t->timeout_ms) or LEFT: anything else
 * (a refusal, a workaround the loop does not do, an IPv6 address) is
 * left for lab_ipmi_open() to do and name. each(arg, i), if not NULL,
 * hears of every item that ends OK or FAILED as it does.
 * Returns -1 only when the loop could not start (nothing was sent).
 */
enum lab_ipmi_many_state {
	LAB_IPMI_MANY_LEFT,
	LAB_IPMI_MANY_OK,
	LAB_IPMI_MANY_FAILED,
};
struct lab_ipmi_many {
	const struct lab_ipmi_target	*t;
	const char			*peer;	/* "ADDRESS:PORT", for errors */
	enum lab_ipmi_many_state	 state;
	int				 reachable;
	enum lab_power			 power;
	int64_t				 elapsed_ms;
	struct lab_err			 err;
};
int	lab_ipmi_status_many(struct lab_ipmi_many *, size_t n,
	    size_t max_parallel, int64_t (*clock_ms)(void),
	    void (*each)(void *arg, size_t i), void *arg, struct lab_err *err);

/* Reads the chassis power state. */
int	lab_ipmi_power_get(struct lab_ipmi *, enum lab_power *ret,
	    struct lab_err *err);
/* Sends a chassis control command; checks the completion code. */
int	lab_ipmi_power_set(struct lab_ipmi *, enum lab_power_action,
	    struct lab_err *err);

/*
 * Reads the boot device override (persistent and EFI flags too). The
 * device is reported whatever the "valid" bit says, as ipmitool does.
 * Some BMCs keep only the device (ipmi_sim): persistent and EFI then read
 * back 0 even after lab_ipmi_boot_set() asked for them.
 */
int	lab_ipmi_boot_get(struct lab_ipmi *, enum lab_boot_dev *dev,
	    int *persistent, int *efi, struct lab_err *err);
/* Sets the boot device for the next boot (or every boot). */
int	lab_ipmi_boot_set(struct lab_ipmi *, enum lab_boot_dev dev,
	    int persistent, int efi, struct lab_err *err);

/* One sensor reading from the SDR. */
struct lab_sensor {
	char	*name;		/* "MB Temp" */
	char	*type;		/* "temperature", "fan", "voltage", ... */
	int	 has_value;
	double	 value;
	char	*unit;		/* "degrees C", "RPM", "V", or NULL */
	char	*state;		/* "nominal", "warning", "critical", "unknown" */
};
/*
 * state: threshold sensors are "warning" past a non-critical threshold and
 * "critical" past a critical or non-recoverable one; discrete sensors use
 * FreeIPMI's built-in interpretation; "unknown" when unreadable.
 */

/* Reads every sensor. *ret is caller-owned (lab_sensors_free). */
int	lab_ipmi_sensors(struct lab_ipmi *, struct lab_sensor **ret,
	    size_t *n, struct lab_err *err);
void	lab_sensors_free(struct lab_sensor *, size_t n);

/* One System Event Log entry. */
struct lab_sel_entry {
	unsigned	 id;
	long long	 time;		/* seconds since the epoch, or 0 */
	char		*sensor;	/* or NULL */
	char		*event;		/* human text */
};

/* Reads the SEL. *ret is caller-owned (lab_sel_free). */
int	lab_ipmi_sel(struct lab_ipmi *, struct lab_sel_entry **ret, size_t *n,
	    struct lab_err *err);
void	lab_sel_free(struct lab_sel_entry *, size_t n);

/*
 * Parses one FreeIPMI workaround word as the tools spell it
 * ("opensesspriv", "authcap", "intel20", "supermicro20", "sun20",
 * "nochecksumcheck", "integritycheckvalue", ...) into *bits (OR-ed in).
 * Case does not matter. Also known: the IPMI 1.5 words (idzero,
 * unexpectedauth, forcepermsg, endianseq, noauthcodecheck, ignoreauthcode:
 * no effect on IPMI 2.0), the ipmi-sensors and ipmi-sel words
 * (discretereading, ignorescanningdisabled, assumebmcowner,
 * assumesystemevent, assumemaxsdrrecordcount), the ipmiconsole words
 * for serial-over-LAN (solpayloadsize, solport, solstatus,
 * solchannelsupport, serialalertsdeferred, solpacketseq: used by lab
 * console only) and "none".
 * Returns -1 for an unknown word.
 */
int	lab_ipmi_workaround_parse(const char *word, unsigned *bits);

/* "on", "off" or "unknown". */
const char	*lab_power_name(enum lab_power);
/* "none", "pxe", "cdrom", "disk", "bios". */
const char	*lab_boot_name(enum lab_boot_dev);

#endif
