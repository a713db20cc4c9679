/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SSH_PRIV_H
#define LAB_SSH_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <libssh2.h>
#include <libssh2_sftp.h>

#include "lab/ctx.h"
#include "lab/ssh.h"

/* The algorithm kinds lab sets: LIBSSH2_METHOD_KEX .. MAC_SC. */
#define LAB_SSH_KINDS	6
/* The name-lists of a KEXINIT packet (RFC 4253 7.1). */
#define LAB_SSH_KEXINIT_LISTS	10
/*
 * What a server may send before its version line (RFC 4253 4.2 allows
 * other lines first), at most.
 */
#define LAB_SSH_BANNER_MAX	((size_t)16 * 1024)

/* banner.c: where the reading of the server's first bytes stands */
enum lab_ssh_banner_state {
	LAB_SSH_BANNER_LINE,	/* at a line start: head holds "SSH-"'s start */
	LAB_SSH_BANNER_SKIP,	/* in a line before the version line */
	LAB_SSH_BANNER_GIVE,	/* handing "SSH-" on to libssh2 */
	LAB_SSH_BANNER_PASS,	/* past it: every byte goes to libssh2 */
};

struct lab_ssh_banner {
	enum lab_ssh_banner_state state;
	size_t		 bytes;		/* read before the version line */
	size_t		 nhead;		/* of "SSH-" matched at a line start */
	size_t		 given;		/* of those handed on */
	int		 too_long;	/* more than LAB_SSH_BANNER_MAX */
};

struct lab_ssh {
	LIBSSH2_SESSION	*session;
	LIBSSH2_SFTP	*sftp;		/* made by the first upload */
	const struct lab_ctx *ctx;	/* the clock and $HOME */
	int		 fd;
	int		 dead;		/* dropped or timed out */
	int64_t		 deadline;	/* every read fails past it (0: none) */
	int		 deadline_ms;	/* its length, for the messages */
	int		 recv_late;	/* a read failed for the deadline */
	struct lab_ssh_banner banner;	/* banner.c */
	int		 io_timeout_ms;	/* a stalled SFTP step's limit */
	int		 legacy;
	const char	*password;	/* in connect only (kbd-int.) */
	char		 address[256];
	int		 port;
	char		 peer[320];	/* "LABEL: ssh ADDRESS:PORT" */
	char		 prefs[LAB_SSH_KINDS][600]; /* what we offered */
	char		 known_types[128]; /* what known_hosts holds */
	char		 known_path[512];
};

/* socket.c: the TCP connect and the waits, on the ctx's clock */
int64_t	lab_ssh_now(const struct lab_ssh *);
int	lab_ssh_wait(struct lab_ssh *, int64_t deadline);
int	lab_ssh_tcp(const struct lab_ctx *, const char *address, int port,
	    int64_t deadline, int *ret_fd, int *ret_errno);

/* banner.c: every read libssh2 makes, bounded by the deadline and, before
   the server's version line, by LAB_SSH_BANNER_MAX */
void	lab_ssh_recv_setup(struct lab_ssh *);
void	lab_ssh_deadline(struct lab_ssh *, int64_t deadline, int ms);
int	lab_ssh_banner_fail(struct lab_ssh *, int late, int ms,
	    struct lab_err *);

/* session.c */
int	lab_ssh_conn_lost(int rc);
int	lab_ssh_fail(struct lab_ssh *, const char *what, struct lab_err *);
int	lab_ssh_fail_rc(struct lab_ssh *, int rc, const char *what,
	    struct lab_err *);
int	lab_ssh_timed_out(struct lab_ssh *, const char *what, int ms,
	    struct lab_err *);

/* kex.c: the algorithms lab offers, and why a handshake failed */
int	lab_ssh_algs(LIBSSH2_SESSION *, int kind, int legacy, char *buf,
	    size_t size);
int	lab_ssh_alg_is_legacy(int kind, const char *name);
int	lab_ssh_kexinit_parse(const unsigned char *payload, size_t len,
	    char *lists[LAB_SSH_KEXINIT_LISTS]);
void	lab_ssh_kexinit_free(char *lists[LAB_SSH_KEXINIT_LISTS]);
int	lab_ssh_kexinit_read(const struct lab_ctx *, int fd, int64_t deadline,
	    char *lists[LAB_SSH_KEXINIT_LISTS]);
int	lab_ssh_kex_explain(struct lab_ssh *, int64_t deadline,
	    const char *why, struct lab_err *);
int	lab_ssh_list_common(const char *a, const char *b);

/* hostkey.c: known_hosts */
struct lab_ssh_known;
int	lab_ssh_known_load(struct lab_ssh *, const char *path,
	    struct lab_ssh_known **ret, struct lab_err *);
int	lab_ssh_known_prefs(struct lab_ssh *, struct lab_ssh_known *,
	    struct lab_err *);
int	lab_ssh_known_check(struct lab_ssh *, struct lab_ssh_known *,
	    int accept_new, struct lab_ssh_hostkey *, struct lab_err *);
void	lab_ssh_known_free(struct lab_ssh_known *);
int	lab_ssh_fingerprint(const unsigned char *blob, size_t len, char *buf,
	    size_t size);
int	lab_ssh_key_is_rsa(const char *path);
int	lab_ssh_blob_type(const unsigned char *blob, size_t len, char *buf,
	    size_t size);

#endif
