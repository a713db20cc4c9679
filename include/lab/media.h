/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_MEDIA_H
#define LAB_MEDIA_H

#include <stddef.h>
#include <stdint.h>

#include "lab/cred.h"
#include "lab/ctx.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/str.h"

/*
 * Virtual media: an ISO image, by URL, in a host's virtual CD-ROM drive.
 *
 * Only the iLO 2 has it scriptable: its SSH command line speaks the SMASH
 * CLP (HP's "vm cdrom get | insert URL | eject | set connect | disconnect
 * | boot_once | boot_always | boot_never"). lab connects to the BMC's
 * address, port 22, as the BMC's credential (user name and password), with
 * known_hosts and legacy_crypto from the host's ssh: block when there is
 * one (an iLO 2 needs legacy_crypto: true; without it the handshake fails
 * and the error says so). Every command's reply is read: "status=0" goes
 * on, anything else stops the run and the error quotes what the iLO
 * answered (status, status_tag, error_tag and its message).
 *
 * The MicroServer's Remote Access Card and plain IPMI BMCs have virtual
 * media only in their Java applets: their hosts get a result saying so
 * (and naming "lab boot HOST pxe" or "cdrom" with a physical or USB disc),
 * without contacting anything.
 *
 * Insert: "vm cdrom get" first (the Virtual Media applet holding the drive
 * stops everything; the same image already in is kept; another one is
 * ejected first), then "vm cdrom insert URL", "vm cdrom set connect" and,
 * with boot_once, "vm cdrom set boot_once", in that order (the iLO refuses
 * the others before an image is in), each skipped when "get" showed it
 * done; then "get" again to check. Eject: "get", then "vm cdrom eject"
 * when an image is in, then "get". Status: "get".
 */

enum lab_media_verb {
	LAB_MEDIA_STATUS,
	LAB_MEDIA_INSERT,
	LAB_MEDIA_EJECT,
};

/* The virtual CD-ROM as "vm cdrom get" shows it. */
struct lab_media_state {
	int	 known;		/* read from the iLO */
	char	*image;		/* "Image URL", or NULL: none */
	int	 connected;	/* "Image Inserted = Connected" */
	char	*boot;		/* "Boot Option": NO_BOOT, BOOT_ONCE,
				   BOOT_ALWAYS (as the iLO spells it) */
	int	 applet;	/* "VM Applet = Connected": the Java applet
				   holds the drive */
	int	 write_protect;	/* "Write Protect = Yes" */
};

/* One CLP reply, parsed. */
struct lab_clp_reply {
	int	 status;	/* status=N; -1 when the reply had none */
	char	*status_tag;	/* "COMMAND COMPLETED", or NULL */
	char	*error_tag;	/* "COMMAND ERROR-UNSPECIFIED" or NULL */
	char	*message;	/* the text lines after the header, joined
				   by "; " ("No image present in the Virtual
				   Media drive."), or NULL */
	struct lab_strv	 lines;	/* non-empty lines, CR stripped */
};

/*
 * Parses what the iLO printed for one command. Tolerates CR LF, the
 * echoed command, the date line and the "</>hpiLO->" prompt. Returns -1
 * only when out of memory. Release with lab_clp_reply_release().
 */
int	lab_clp_parse(const char *text, size_t len, struct lab_clp_reply *,
	    struct lab_err *);
void	lab_clp_reply_release(struct lab_clp_reply *);
/* Fills st from the "Key = Value" lines of a "vm cdrom get" reply. */
int	lab_media_state_parse(const struct lab_clp_reply *,
	    struct lab_media_state *st, struct lab_err *);
void	lab_media_state_release(struct lab_media_state *);

/* Where and how to reach one iLO's command line. Strings are borrowed. */
struct lab_clp_target {
	const char	*label;		/* the host's name */
	const char	*address;
	int		 port;		/* 22 */
	const char	*user;
	const char	*password;
	const char	*known_hosts;	/* NULL: ~/.ssh/known_hosts */
	int		 legacy_crypto;
	int		 accept_new;
	int		 timeout_ms;
	const struct lab_ctx *ctx;	/* the clock and home; NULL: the
					   default (lab_ctx_default) */
};

/*
 * The CLP transport, behind a table so the sequencing can be unit-tested
 * against an in-process fake. lab_clp_ssh_ops is the real one (one SSH
 * connection per host, one exec per command).
 */
struct lab_clp_ops {
	int	(*open)(const struct lab_clp_target *, void **ret,
		    struct lab_err *);
	/* Runs one command; *out (caller-owned) is what it printed. */
	int	(*run)(void *, const char *cmd, char **out, size_t *outlen,
		    struct lab_err *);
	void	(*close)(void *);
};

extern const struct lab_clp_ops lab_clp_ssh_ops;

struct lab_media_req {
	enum lab_media_verb	 verb;
	const char		*url;	/* insert: http:// or https:// */
	int			 boot_once; /* insert: boot from it once */
	int			 accept_new; /* trust an unknown host key */
	int			 timeout_ms; /* per host; 0: 30 s */
	int			 dry_run; /* contact nothing, say what */
	size_t			 fanout; /* 0: LAB_FANOUT_DEFAULT */
	const char		*home;	/* for "~/" in known_hosts */
	const struct lab_clp_ops *ops;	/* NULL: lab_clp_ssh_ops */
};

/* One host's outcome. Strings are owned by the result. */
struct lab_media_result {
	char			*host;
	char			*bmc;	/* "ADDRESS:22", or NULL */
	int			 ok;
	int			 unsupported; /* RAC, IPMI, none: not sent */
	int			 acted;	/* a change was sent */
	struct lab_media_state	 state;	/* the last one read */
	struct lab_strv		 sent;	/* CLP commands in order */
	char			*note;	/* "inserted", "ejected" */
	int64_t			 elapsed_ms;
	struct lab_err		 err;		/* why not ok */
	const char		*reason;	/* not ok: a word of
						   lab/reason.h; else NULL */
};

/*
 * Checks an image URL: http:// or https://, a host, printable ASCII
 * without spaces or quotes, at most 1024 characters. LAB_EXIT_INPUT.
 */
int	lab_media_url_check(const char *url, struct lab_err *);

/*
 * Runs req over the named hosts of inv (as lab_target_resolve gives them),
 * several at once. creds may be NULL for a dry run or when no host has an
 * iLO 2. *ret (n results, in the order of hosts) is caller-owned
 * (lab_media_results_free). Returns -1 only when the run could not start;
 * per-host failures are in the results.
 */
int	lab_media_run(const struct lab_ctx *, const struct lab_inventory *,
	    const struct lab_strv *hosts, const struct lab_creds *,
	    const struct lab_media_req *, struct lab_media_result **ret,
	    struct lab_err *);
void	lab_media_results_free(struct lab_media_result *, size_t n);

/* "once", "always", "never" for the iLO's Boot Option, else NULL. */
const char *lab_media_boot_name(const char *ilo_boot);

#endif
