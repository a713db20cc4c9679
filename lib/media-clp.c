/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The iLO's SMASH CLP: parsing its replies, and running commands over SSH
 * (one connection, one exec per command). See include/lab/media.h.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lab/media.h"
#include "lab/parse.h"
#include "lab/ssh.h"

/* "Tue Sep 17 22:50:20 2019": the date the iLO prints under the status. */
static int
is_date(const char *s)
{
	size_t	n = strlen(s);

	return n >= 20 && n <= 32 && isalpha((unsigned char)s[0]) &&
	    isalpha((unsigned char)s[1]) && isalpha((unsigned char)s[2]) &&
	    s[3] == ' ' && strchr(s, ':') != NULL &&
	    isdigit((unsigned char)s[n - 1]) &&
	    isdigit((unsigned char)s[n - 4]) && s[n - 5] == ' ';
}

static int
prefixed(const char *s, const char *p, const char **rest)
{
	size_t	n = strlen(p);

	if (strncmp(s, p, n) != 0)
		return 0;
	*rest = s + n;
	return 1;
}

/* Parses one reply. */
int
lab_clp_parse(const char *text, size_t len, struct lab_clp_reply *rep,
    struct lab_err *err)
{
	struct lab_buf	 msg;
	const char	*p = text, *end = text + len, *nl, *v;
	char		*line;
	size_t		 n;
	long		 l;
	int		 header = 0;

	memset(rep, 0, sizeof(*rep));
	rep->status = -1;
	lab_buf_init(&msg);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (nl != NULL ? nl : end) - p;
		while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' ' ||
		    p[n - 1] == '\t'))
			n--;
		line = NULL;
		if (n > 0 && (line = malloc(n + 1)) == NULL)
			goto oom;
		if (line != NULL) {
			memcpy(line, p, n);
			line[n] = '\0';
			while (line[0] == '\r')
				memmove(line, line + 1, strlen(line));
		}
		p = nl != NULL ? nl + 1 : end;
		if (line == NULL || line[0] == '\0' ||
		    strncmp(line, "</>", 3) == 0) {
			free(line);
			continue;
		}
		if (lab_strv_take(&rep->lines, line) == -1)
			goto oom;
		if (prefixed(line, "status=", &v)) {
			/* anything but a number is not status=0 either */
			rep->status = lab_parse_int(v, INT_MIN, INT_MAX, &l) == 0 ?
			    (int)l : -1;
			header = 1;
		} else if (prefixed(line, "status_tag=", &v)) {
			if ((rep->status_tag = lab_strdup(v)) == NULL)
				goto oom;
		} else if (prefixed(line, "error_tag=", &v)) {
			if ((rep->error_tag = lab_strdup(v)) == NULL)
				goto oom;
		} else if (header && !is_date(line) &&
		    strstr(line, " = ") == NULL) {
			/* the iLO's own words: what failed, or what it did */
			if (msg.len > 0)
				lab_buf_adds(&msg, "; ");
			lab_buf_adds(&msg, line);
		}
	}
	if (msg.oom)
		goto oom;
	if (msg.len > 0)
		rep->message = lab_buf_steal(&msg);
	return 0;
oom:
	lab_buf_release(&msg);
	lab_clp_reply_release(rep);
	return lab_err_oom(err);
}

/* Frees a reply. */
void
lab_clp_reply_release(struct lab_clp_reply *rep)
{
	free(rep->status_tag);
	free(rep->error_tag);
	free(rep->message);
	lab_strv_release(&rep->lines);
	memset(rep, 0, sizeof(*rep));
}

/* Fills st from the "Key = Value" lines of a "vm cdrom get" reply. */
int
lab_media_state_parse(const struct lab_clp_reply *rep,
    struct lab_media_state *st, struct lab_err *err)
{
	const char	*line, *eq;
	size_t		 i, k;
	int		 seen = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < rep->lines.n; i++) {
		line = rep->lines.v[i];
		if ((eq = strstr(line, " = ")) == NULL)
			continue;
		k = (size_t)(eq - line);
		eq += 3;
		if (k == 9 && strncmp(line, "VM Applet", k) == 0) {
			st->applet = strcmp(eq, "Connected") == 0;
		} else if (k == 11 && strncmp(line, "Boot Option", k) == 0) {
			free(st->boot);
			if ((st->boot = lab_strdup(eq)) == NULL)
				goto oom;
		} else if (k == 13 && strncmp(line, "Write Protect", k) == 0) {
			st->write_protect = strcmp(eq, "Yes") == 0;
		} else if (k == 14 && strncmp(line, "Image Inserted", k) == 0) {
			st->connected = strcmp(eq, "Connected") == 0;
		} else if (k == 9 && strncmp(line, "Image URL", k) == 0) {
			free(st->image);
			st->image = NULL;
			if (*eq != '\0' && (st->image = lab_strdup(eq)) == NULL)
				goto oom;
		} else
			continue;
		seen++;
	}
	/* "Image URL = " with nothing after loses its trailing space */
	for (i = 0; i < rep->lines.n; i++)
		if (strcmp(rep->lines.v[i], "Image URL =") == 0)
			seen++;
	if (seen == 0)
		return lab_err_set(err, LAB_EXIT_PARTIAL, "no Virtual Media "
		    "state in the iLO's answer to 'vm cdrom get'%s%s",
		    rep->lines.n > 0 ? ": " : "",
		    rep->lines.n > 0 ? rep->lines.v[0] : "");
	st->known = 1;
	return 0;
oom:
	lab_media_state_release(st);
	return lab_err_oom(err);
}

/* Frees a state. */
void
lab_media_state_release(struct lab_media_state *st)
{
	free(st->image);
	free(st->boot);
	memset(st, 0, sizeof(*st));
}

/* "once", "always", "never" for the iLO's Boot Option. */
const char *
lab_media_boot_name(const char *b)
{
	if (b == NULL)
		return NULL;
	if (strcmp(b, "BOOT_ONCE") == 0)
		return "once";
	if (strcmp(b, "BOOT_ALWAYS") == 0)
		return "always";
	if (strcmp(b, "NO_BOOT") == 0)
		return "never";
	return NULL;
}

/* The real transport: lib/ssh.c. */

struct clp_ssh {
	struct lab_ssh	*ssh;
	int		 timeout_ms;
};

static int
ssh_open(const struct lab_clp_target *t, void **ret, struct lab_err *err)
{
	struct lab_ssh_opts	 o;
	struct clp_ssh		*c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return lab_err_oom(err);
	memset(&o, 0, sizeof(o));
	/* the host's name comes first in every message already */
	o.label = "iLO";
	o.address = t->address;
	o.port = t->port;
	o.user = t->user;
	o.password = t->password;
	o.known_hosts = t->known_hosts;
	o.legacy_crypto = t->legacy_crypto;
	o.accept_new = t->accept_new;
	o.connect_timeout_ms = t->timeout_ms;
	o.ctx = t->ctx;
	if (lab_ssh_connect(&o, &c->ssh, NULL, err) == -1) {
		free(c);
		return -1;
	}
	c->timeout_ms = t->timeout_ms;
	*ret = c;
	return 0;
}

static int
ssh_run(void *arg, const char *cmd, char **out, size_t *outlen,
    struct lab_err *err)
{
	struct clp_ssh		*c = arg;
	struct lab_ssh_result	 res;
	int			 rc;

	rc = lab_ssh_exec(c->ssh, cmd, NULL, 0, c->timeout_ms, &res, err);
	if (rc == 0) {
		/* the iLO's answer is its text; its exit status says little */
		*out = res.out;
		*outlen = res.outlen;
		res.out = NULL;
	}
	lab_ssh_result_free(&res);
	return rc;
}

static void
ssh_close(void *arg)
{
	struct clp_ssh	*c = arg;

	if (c == NULL)
		return;
	lab_ssh_close(c->ssh);
	free(c);
}

const struct lab_clp_ops lab_clp_ssh_ops = {
	.open = ssh_open,
	.run = ssh_run,
	.close = ssh_close,
};
