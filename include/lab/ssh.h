/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_SSH_H
#define LAB_SSH_H

#include <stddef.h>
#include <stdint.h>

#include "lab/ctx.h"
#include "lab/err.h"

/*
 * SSH to a host (libssh2): run commands, write files. One struct lab_ssh
 * is one connection; it may be used by one thread at a time, and many
 * connections may live in many threads at once (lib/fanout.c).
 *
 * Errors name the host: "LABEL: ssh ADDRESS:PORT: what failed". The
 * codes (struct lab_err):
 *	LAB_EXIT_INPUT	bad options (no address, a port out of range)
 *	LAB_EXIT_ENV	what the user must fix here: an unknown, changed
 *			or revoked host key, an unreadable known_hosts or key
 *			file, a key file that cannot be decrypted, no
 *			ssh-agent to ask, out of memory
 *	LAB_EXIT_PARTIAL	the host failed: cannot connect, timeout, no
 *			common algorithm, authentication refused, the
 *			connection dropped, a remote file not written
 *
 * Host keys are checked against an OpenSSH known_hosts file as OpenSSH
 * does: plain and hashed (|1|...) names, "[host]:port" for a port other
 * than 22, @revoked lines (@cert-authority lines are skipped); the host key
 * types asked for are the ones the file holds for that host, so a file
 * with only an ed25519 line works against a server that also has ecdsa.
 * An unknown key is refused unless accept_new (then one plain line
 * "NAME TYPE KEY" is appended, under an exclusive lock); a changed key is
 * always refused, and the message shows both SHA256 fingerprints and the
 * file:line of the known one.
 *
 * Authentication, in this order: the identity file when set, else
 * ssh-agent ($SSH_AUTH_SOCK) when no password is set; then the password
 * when set ("password", else "keyboard-interactive" answering it to every
 * hidden prompt). libssh2 1.10 signs RSA user keys with ssh-rsa (SHA-1)
 * only, which OpenSSH 8.8 and later refuse: use ed25519 or ecdsa keys.
 *
 * Algorithms: modern ones only (curve25519/ecdh/group14-16-18-sha256-512
 * key exchange, ed25519/ecdsa host keys, aes-ctr, hmac-sha2); with
 * legacy_crypto also diffie-hellman-group1-sha1, group14-sha1,
 * group-exchange-sha1, ssh-rsa and ssh-dss host keys, aes-cbc and 3des-cbc,
 * hmac-sha1 (what an HP iLO 2 needs), offered after the modern ones. When
 * the handshake finds no common algorithm, the error names the kind and
 * what the server offers (read from a second, bare connection).
 *
 * Secrets: the password and passphrase are used during lab_ssh_connect()
 * and never copied into the connection; every buffer libssh2 frees
 * (packets carrying them included) is wiped first. Nothing is printed.
 */

struct lab_ssh_opts {
	const char	*label;		/* host name, for error messages */
	const char	*address;	/* IPv4/IPv6 literal or name */
	int		 port;		/* 0: 22 */
	const char	*user;		/* NULL: "root" */
	const char	*identity;	/* private key; NULL: ssh-agent */
	const char	*passphrase;	/* for identity, or NULL */
	const char	*password;	/* password or keyboard-interactive
					   auth if set (iLO 2), else NULL */
	const char	*known_hosts;	/* NULL: ~/.ssh/known_hosts (from
					   ctx->home, else the password
					   file) */
	int		 legacy_crypto;	/* allow the legacy algorithms */
	int		 accept_new;	/* unknown host key: add it to
					   known_hosts instead of refusing */
	int		 connect_timeout_ms; /* 0: 10000 (TCP connect +
					   handshake + authentication) */
	const struct lab_ctx *ctx;	/* the clock for every deadline and
					   the home folder; NULL:
					   lab_ctx_default(). Must outlive
					   the connection */
};

struct lab_ssh;

/* What the host-key check did, for the caller to report or audit. */
struct lab_ssh_hostkey {
	char	type[32];	/* "ssh-ed25519", "ecdsa-sha2-nistp256" */
	char	fingerprint[64];	/* "SHA256:...", as OpenSSH */
	int	added;			/* accept_new appended it */
};

#define LAB_SSH_PORT			22
#define LAB_SSH_CONNECT_TIMEOUT_MS	10000

/*
 * Connects, checks the host key and authenticates. On success *ret is a
 * connection the caller frees with lab_ssh_close(), and key (when not
 * NULL) says which host key was seen; on failure *ret is untouched and
 * key is filled as far as the check got (type[0] == '\0' before it).
 * Returns 0 or -1.
 */
int	lab_ssh_connect(const struct lab_ssh_opts *, struct lab_ssh **ret,
	    struct lab_ssh_hostkey *key, struct lab_err *);

struct lab_ssh_cfg;

/*
 * o (zeroed first) for the inventory host label's ssh: block c, with
 * its key files as the caller resolved them (lab_path_home); the caller
 * sets ctx, accept_new and the rest.
 */
void	lab_ssh_opts_set(struct lab_ssh_opts *o, const char *label,
	    const struct lab_ssh_cfg *c, const char *identity,
	    const char *known_hosts);

/*
 * What is kept of each stream of a command's output: its last bytes
 * (struct lab_tail), whatever the peer sends.
 */
#define LAB_SSH_OUTPUT_CAP		((size_t)1024 * 1024)

struct lab_ssh_result {
	int	 exit_status;	/* -1 if killed by a signal or the
				   channel died */
	char	*signal;	/* the signal ("TERM", "KILL"), or NULL */
	char	*out;		/* stdout, NUL-terminated (not in outlen):
				   its last LAB_SSH_OUTPUT_CAP bytes at
				   most */
	size_t	 outlen;
	uint64_t outbytes;	/* stdout's whole size (> outlen: cut) */
	char	*err;		/* stderr, the same */
	size_t	 errlen;
	uint64_t errbytes;
};

/*
 * Runs cmd through the remote user's shell (no pty), feeding input (may be
 * NULL) on its stdin, then closing stdin. timeout_ms 0: no limit (then
 * an endless output runs forever, in bounded memory). Reading stops at
 * the deadline, however fast the output comes; of each stream only the
 * last LAB_SSH_OUTPUT_CAP bytes are kept, and its size (outbytes,
 * errbytes): lab_tail_text() makes the text with a note of the cut.
 * Returns 0 when the command ran to an exit status or a signal (whatever
 * it is: check result->exit_status); -1 with err set when the connection
 * dropped, timed out or failed: then result->exit_status is -1 and the
 * output read so far is still in the result. After a timeout or a
 * dropped connection the connection is unusable: every later call fails
 * (the remote command may still run: libssh2 1.10 cannot signal it).
 * The result is always initialised: free it with lab_ssh_result_free().
 */
int	lab_ssh_exec(struct lab_ssh *, const char *cmd, const void *input,
	    size_t inlen, int timeout_ms, struct lab_ssh_result *,
	    struct lab_err *);

/*
 * Writes data to path on the host with mode (e.g. 0644, applied past the
 * remote umask), atomically: over SFTP to "PATH.lab-tmp", fsync, then
 * "mv -f" through the shell (OpenSSH's SFTP rename will not replace a
 * file). On failure the temporary file is removed when possible and path
 * is untouched. Returns 0 or -1.
 */
int	lab_ssh_upload(struct lab_ssh *, const char *path, const void *data,
	    size_t len, int mode, struct lab_err *);

/* Frees what a result holds and clears it; NULL ok. */
void	lab_ssh_result_free(struct lab_ssh_result *);

/* Disconnects and frees; NULL ok. */
void	lab_ssh_close(struct lab_ssh *);

#endif
