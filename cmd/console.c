/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lab/console.h"
#include "lab/file.h"
#include "lab/ipmi.h"
#include "lab/parse.h"
#include "lab/target.h"
#include "lab.h"

/*
 * lab console HOST: the host's serial console over IPMI serial-over-LAN.
 * Escapes, at the start of a line as in ssh and ipmitool: ~. leaves,
 * ~B sends a break, ~? lists them, ~~ sends one ~.
 */

#define ESC	'~'
#define BUFSZ	4096

/* The terminal as it was, restored in one place (and at exit). */
static struct termios		saved;
static int			raw_on;
static volatile sig_atomic_t	got_signal;

static void
restore(void)
{
	if (raw_on && tcsetattr(STDIN_FILENO, TCSADRAIN, &saved) == 0)
		raw_on = 0;
}

static void
on_signal(int sig)
{
	got_signal = sig;
}

/* Puts a terminal on stdin in raw mode; a pipe is left alone. */
static void
make_raw(void)
{
	static int	registered;
	struct termios	t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved) == -1)
		return;
	if (!registered && atexit(restore) == 0)
		registered = 1;
	t = saved;
	cfmakeraw(&t);
	if (tcsetattr(STDIN_FILENO, TCSADRAIN, &t) == 0)
		raw_on = 1;
}

struct session {
	struct lab_console	*con;
	const char		*host;
	int			 logfd;	/* --log, or -1 */
	int			 line_start; /* the next key starts one */
	int			 esc;	/* ~ typed at a line start */
	int			 in_open; /* stdin not at its end */
	int			 leave;	/* ~. typed */
};

/* A line on stderr; a raw terminal needs its carriage return. */
static void
say(const struct session *s, const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "lab: console: %s: ", s->host);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(raw_on ? "\r\n" : "\n", stderr);
}

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Console output to stdout, and to the log when asked. */
static int
output(struct session *s, const char *buf, size_t n, struct lab_err *err)
{
	if (write_all(STDOUT_FILENO, buf, n) == -1)
		return lab_err_set(err, LAB_EXIT_ENV, "%s: cannot write "
		    "output: %s", s->host, strerror(errno));
	if (s->logfd >= 0 && write_all(s->logfd, buf, n) == -1)
		return lab_err_set(err, LAB_EXIT_ENV, "%s: cannot write the "
		    "log: %s", s->host, strerror(errno));
	return 0;
}

/* Keys to the console, minus the escapes, which act here. */
static int
input(struct session *s, const char *buf, size_t n, struct lab_err *err)
{
	char	out[2 * BUFSZ];
	size_t	i, k = 0;
	int	rc = 0;

	for (i = 0; i < n && rc == 0 && !s->leave; i++) {
		char	c = buf[i];

		if (s->esc) {
			s->esc = 0;
			if (c == '.') {
				s->leave = 1;
				continue;
			}
			if (c == 'B' || c == '?') {
				if (k > 0 && lab_console_write(s->con, out, k,
				    err) == -1)
					rc = -1;
				k = 0;
				if (rc == 0 && c == 'B')
					rc = lab_console_break(s->con, err);
				else if (rc == 0)
					say(s, "escapes at the start of a "
					    "line: ~. leave, ~B send a break, "
					    "~? this help, ~~ send ~");
				continue;
			}
			out[k++] = ESC;
			if (c == ESC) {
				s->line_start = 0;
				continue;
			}
		} else if (s->line_start && c == ESC) {
			s->esc = 1;
			continue;
		}
		out[k++] = c;
		s->line_start = c == '\r' || c == '\n';
	}
	if (rc == 0 && k > 0)
		rc = lab_console_write(s->con, out, k, err);
	if (rc == -1)
		lab_err_prefix(err, "%s", s->host);
	return rc;
}

/* Moves bytes both ways until ~., a signal, or the session's end. */
static int
relay(struct session *s, const sigset_t *unblocked, struct lab_err *err)
{
	struct pollfd	pfd[2];
	char		buf[BUFSZ];
	ssize_t		n;

	while (!s->leave && got_signal == 0) {
		pfd[0].fd = lab_console_fd(s->con);
		pfd[0].events = POLLIN;
		/* keys wait until the console is there */
		pfd[1].fd = s->in_open && lab_console_ready(s->con) ?
		    STDIN_FILENO : -1;
		pfd[1].events = POLLIN;
		if (ppoll(pfd, 2, NULL, unblocked) == -1) {
			if (errno == EINTR)
				continue;
			return lab_err_set(err, LAB_EXIT_ENV, "%s: poll: %s",
			    s->host, strerror(errno));
		}
		if (pfd[0].revents != 0) {
			int	was_ready = lab_console_ready(s->con);

			if ((n = lab_console_read(s->con, buf, sizeof(buf),
			    err)) == -1) {
				lab_err_prefix(err, "%s", s->host);
				return -1;
			}
			if (!was_ready && lab_console_ready(s->con)) {
				/* raw first: the line says it is ready */
				make_raw();
				say(s, "connected to BMC %s (serial-over-LAN); "
				    "type ~. at the start of a line to leave, "
				    "~? for help", lab_console_peer(s->con));
			}
			if (n > 0 && output(s, buf, (size_t)n, err) == -1)
				return -1;
		}
		if (pfd[1].fd >= 0 && pfd[1].revents != 0) {
			n = read(STDIN_FILENO, buf, sizeof(buf));
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				return lab_err_set(err, LAB_EXIT_ENV, "%s: "
				    "reading the keyboard: %s", s->host,
				    strerror(errno));
			/* at the end of input, keep showing the console */
			if (n == 0)
				s->in_open = 0;
			if (n > 0 && input(s, buf, (size_t)n, err) == -1)
				return -1;
		}
	}
	return 0;
}

static int
parse(struct lab_call *call, struct lab_console_req *req, struct lab_err *err)
{
	const char	*s;
	long		 v;

	memset(req, 0, sizeof(*req));
	req->force = cmd_opt(call, "force") != NULL;
	if ((s = cmd_opt(call, "timeout")) != NULL) {
		if (lab_parse_int(s, 1, 3600, &v) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--timeout "
			    "takes seconds from 1 to 3600, not '%s'", s);
		req->timeout_ms = (int)v * 1000;
	}
	if ((s = cmd_opt(call, "privilege")) != NULL) {
		if ((req->privilege = lab_ipmi_priv_parse(s)) == -1)
			return lab_err_set(err, LAB_EXIT_INPUT, "--privilege "
			    "is user, operator or admin, not '%s'", s);
	}
	return 0;
}

static int
session(struct lab_call *call, struct session *s,
    const struct lab_host *h, const struct lab_console_req *req,
    struct lab_err *err)
{
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	struct sigaction	sa;
	sigset_t		block, unblocked;
	const char		*log = cmd_opt(call, "log");
	int			rc;

	if (h->bmc != NULL &&
	    lab_creds_load(call->cred_path, &creds, err) == -1)
		return -1;
	if (log != NULL && (s->logfd = lab_file_open_log(log, err)) == -1)
		return -1;
	/*
	 * The signals wait, blocked, for ppoll(); blocked before the
	 * engine's thread starts, so they never land in that thread.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &unblocked);
	sigdelset(&unblocked, SIGINT);
	sigdelset(&unblocked, SIGTERM);
	sigdelset(&unblocked, SIGHUP);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stdout is an error to report, not a death in raw mode */
	signal(SIGPIPE, SIG_IGN);
	if (lab_console_open(h, creds, req, &s->con, err) == -1) {
		lab_err_prefix(err, "%s", s->host);
		return -1;
	}
	rc = relay(s, &unblocked, err);
	restore();
	if (rc == 0 && got_signal != 0)
		snprintf(call->audit_msg, sizeof(call->audit_msg), "BMC %s: "
		    "closed on signal %d", lab_console_peer(s->con),
		    (int)got_signal);
	else if (rc == 0)
		snprintf(call->audit_msg, sizeof(call->audit_msg), "BMC %s: "
		    "closed with ~.", lab_console_peer(s->con));
	lab_console_close(s->con);
	s->con = NULL;
	if (rc == 0)
		say(s, "closed%s%s", got_signal ? " on " : "",
		    got_signal ? strsignal(got_signal) : "");
	return rc;
}

static int
console_run(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	struct lab_console_req	req;
	struct lab_strv		hosts = { 0 };
	struct session		s;
	const struct lab_host	*h;
	int			rc;

	if (parse(call, &req, err) == -1)
		return err->code;
	if (cmd_inventory(call, &inv, err) == -1 ||
	    lab_target_resolve(inv, call->argv, 1, 0, &hosts, err) == -1) {
		lab_strv_release(&hosts);
		return err->code;
	}
	if (hosts.n != 1) {
		lab_err_set(err, LAB_EXIT_INPUT, "one host at a time: '%s' "
		    "names %zu", call->argv[0], hosts.n);
		lab_strv_release(&hosts);
		return err->code;
	}
	h = lab_inventory_host(inv, hosts.v[0]);
	memset(&s, 0, sizeof(s));
	s.host = h->name;
	s.logfd = -1;
	s.line_start = 1;
	s.in_open = 1;
	if (h->bmc == NULL)
		rc = lab_err_set(err, LAB_EXIT_PARTIAL, "%s: no BMC recorded: "
		    "no serial console over the network", h->name);
	else
		rc = session(call, &s, h, &req, err);
	if (s.logfd >= 0)
		close(s.logfd);
	lab_strv_release(&hosts);
	return rc == -1 ? (int)err->code : LAB_EXIT_OK;
}

static const struct lab_opt console_opts[] = {
	{ "force", NULL, "take over a serial-over-LAN session already "
	  "active (a stale one, or another client's)" },
	{ "log", "FILE", "append what the console prints to FILE (a regular "
	  "file of yours, not a symlink)" },
	{ "privilege", "LEVEL", "user, operator or admin (default: the "
	  "inventory's, else operator)", lab_ipmi_priv_words, 0 },
	{ "timeout", "S", "seconds without an answer from the BMC before "
	  "the session is given up (default: the inventory's, else 60)" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb console_verbs[] = {
	{ .name = NULL, .args = "HOST", .min = 1, .max = 1,
	  .flags = LAB_VERB_MUTATES, .run = console_run, .opts = console_opts,
	  .summary = "the host's serial console over IPMI serial-over-LAN; "
		"~. at the start of a line leaves" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_console = {
	.name = "console",
	.summary = "the serial console of a host, over IPMI serial-over-LAN",
	.verbs = console_verbs,
};
