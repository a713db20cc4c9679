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

struct lab_ssh {
	LIBSSH2_SESSION	*session;
	LIBSSH2_SFTP	*sftp;		/* made by the first upload */
	const struct lab_ctx *ctx;	/* the clock and $HOME */
	int		 fd;
	int		 dead;		/* dropped or timed out */
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
