/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/cred.h"
#include "lab/file.h"
#include "lab/str.h"
#include "lab/text.h"
#include "schema.h"
#include "yaml-priv.h"

static const char *const cred_keys[] = { "username", "password", "community",
	"auth_protocol", "auth_password", "priv_protocol", "priv_password",
	"identity", NULL };

static void
wipe(char *s)
{
	if (s != NULL) {
		explicit_bzero(s, strlen(s));
		free(s);
	}
}

static void
cred_release(struct lab_cred *c)
{
	free(c->name);
	wipe(c->username);
	wipe(c->password);
	wipe(c->community);
	wipe(c->auth_protocol);
	wipe(c->auth_password);
	wipe(c->priv_protocol);
	wipe(c->priv_password);
	wipe(c->identity);
}

/* Wipes and frees. */
void
lab_creds_free(struct lab_creds *cs)
{
	size_t	i;

	if (cs == NULL)
		return;
	for (i = 0; i < cs->n; i++)
		cred_release(&cs->v[i]);
	free(cs->v);
	free(cs);
}

/* For LAB_CLEANUP. */
void
lab_creds_freep(struct lab_creds **p)
{
	lab_creds_free(*p);
}

/* The field of cred_keys[i]. */
static char **
slot(struct lab_cred *c, int i)
{
	char	**f[] = { &c->username, &c->password, &c->community,
		&c->auth_protocol, &c->auth_password, &c->priv_protocol,
		&c->priv_password, &c->identity };

	return f[i];
}

static int
fail(const char *file, const struct ynode *n, const char *msg,
    const char *arg, struct lab_err *err)
{
	return lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: %s%s%s", file,
	    n->line, n->col, msg, arg ? arg : "", arg ? "'" : "");
}

static int
load_entry(const char *file, const struct ynode *k, const struct ynode *v,
    struct lab_cred *c, struct lab_err *err)
{
	char	**f;
	size_t	  i;
	int	  key;

	if ((c->name = strdup(k->value)) == NULL)
		return lab_err_oom(err);
	if (v->kind != YNODE_MAP)
		return fail(file, v, "credential must be a mapping such as "
		    "{username: admin, password: ...}", NULL, err);
	for (i = 0; i + 1 < v->n; i += 2) {
		/* the key is not quoted: a missing space puts a secret in it */
		if ((key = lab_schema_key(file, v->items[i], cred_keys,
		    "credential", LAB_SCHEMA_QUIET, err)) == -1)
			return -1;
		f = slot(c, key);
		if (v->items[i + 1]->kind != YNODE_SCALAR)
			return fail(file, v->items[i + 1], "a credential's "
			    "values are strings", NULL, err);
		if ((*f = strdup(v->items[i + 1]->value)) == NULL)
			return lab_err_oom(err);
	}
	if (c->password == NULL && c->community == NULL &&
	    c->auth_password == NULL && c->identity == NULL &&
	    c->username == NULL)
		return fail(file, v, "credential has no secret: give password, "
		    "community, auth_password or identity", NULL, err);
	return 0;
}

/* Wipes every value of a tree. */
static void
tree_wipe(struct ynode *n)
{
	size_t	i;

	if (n == NULL)
		return;
	if (n->value != NULL)
		explicit_bzero(n->value, n->len);
	for (i = 0; i < n->n; i++)
		tree_wipe(n->items[i]);
}

/* Reads credentials from memory. */
int
lab_creds_load_buf(const char *name, const char *buf, size_t len,
    struct lab_creds **ret, struct lab_err *err)
{
	struct ynode		*root = NULL;
	struct lab_creds	*cs;
	size_t			 i;
	int			 rc = -1;

	if ((cs = calloc(1, sizeof(*cs))) == NULL)
		return lab_err_oom(err);
	if (lab_yaml_tree_load(name, buf, len, &root, err) == -1)
		goto out;
	if (root == NULL || lab_yaml_is_null(root)) {
		rc = 0;
		goto out;
	}
	if (root->kind != YNODE_MAP) {
		fail(name, root, "the credentials file maps names to "
		    "credentials", NULL, err);
		goto out;
	}
	if ((cs->v = calloc(root->n / 2 + 1, sizeof(*cs->v))) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i + 1 < root->n; i += 2)
		if (load_entry(name, root->items[i], root->items[i + 1],
		    &cs->v[cs->n++], err) == -1)
			goto out;
	rc = 0;
out:
	/* the tree holds secrets too, wherever the file put them */
	tree_wipe(root);
	lab_yaml_tree_free(root);
	if (rc == 0)
		*ret = cs;
	else
		lab_creds_free(cs);
	return rc;
}

/*
 * Reads the credentials file, refusing one others can read or that
 * belongs to someone else than us or root. From here on the process is
 * not dumpable: no core file holds a password (they are wiped with
 * explicit_bzero too; lab does not mlock them).
 */
int
lab_creds_load(const char *path, struct lab_creds **ret, struct lab_err *err)
{
	struct stat	 st;
	char		*buf, who[96];
	size_t		 off = 0;
	int		 fd, rc;

	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if ((fd = lab_file_open_read(path, LAB_EXIT_ENV, err)) == -2)
		return -1;
	if (fd == -1) {
		if (errno == ENOENT)
			return lab_err_set(err, LAB_EXIT_ENV, "no credentials "
			    "file at '%s' (create it with mode 0600, or set "
			    "--credentials or LAB_CREDENTIALS)", path);
		return lab_err_set(err, LAB_EXIT_ENV, "credentials file "
		    "'%s': %s", path, strerror(errno));
	}
	if (fstat(fd, &st) == -1) {
		rc = errno;
		close(fd);
		return lab_err_set(err, LAB_EXIT_ENV, "credentials file "
		    "'%s': %s", path, strerror(rc));
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		close(fd);
		lab_file_owner(st.st_uid, who, sizeof(who));
		return lab_err_set(err, LAB_EXIT_ENV, "credentials file '%s' "
		    "belongs to %s, not to you (uid %u) or root: use a file "
		    "of your own, or run 'chown %u %s' as root", path, who,
		    (unsigned)geteuid(), (unsigned)geteuid(), path);
	}
	if (st.st_mode & 077) {
		close(fd);
		return lab_err_set(err, LAB_EXIT_ENV, "credentials file '%s' "
		    "is open to group or others (mode %04o): run 'chmod 600 "
		    "%s'", path, (unsigned)(st.st_mode & 07777), path);
	}
	if (lab_yaml_file_read(fd, path, (size_t)1024 * 1024, &buf, &off, err) == -1)
		return -1;
	rc = lab_creds_load_buf(path, buf, off, ret, err);
	explicit_bzero(buf, off);
	free(buf);
	return rc;
}

/* The credential called name, or NULL. */
const struct lab_cred *
lab_creds_find(const struct lab_creds *cs, const char *name)
{
	size_t	i;

	for (i = 0; cs != NULL && i < cs->n; i++)
		if (strcmp(cs->v[i].name, name) == 0)
			return &cs->v[i];
	return NULL;
}

static int
secret_word(const char *s, size_t len)
{
	static const char *const words[] = { "pass", "secret", "community",
		"token", "key", NULL };
	char	low[64];
	size_t	i;

	if (len >= sizeof(low))
		len = sizeof(low) - 1;
	for (i = 0; i < len; i++)
		low[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	low[len] = '\0';
	for (i = 0; words[i] != NULL; i++)
		if (strstr(low, words[i]) != NULL)
			return 1;
	return 0;
}

/* Adds a word, the password of any URL in it hidden, quoted for sh. */
static void
add_word(struct lab_buf *b, const char *word)
{
	char		*w = lab_url_redact(word);
	const char	*p;
	int		 plain;

	if (w == NULL) {
		b->oom = 1;
		return;
	}
	plain = *w != '\0';

	if (b->len > 0)
		lab_buf_addc(b, ' ');
	for (p = w; *p != '\0'; p++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789-_./:@,=+[]%", *p) == NULL)
			plain = 0;
	if (plain) {
		lab_buf_adds(b, w);
		free(w);
		return;
	}
	lab_buf_addc(b, '\'');
	for (p = w; *p != '\0'; p++)
		if (*p == '\'')
			lab_buf_adds(b, "'\\''");
		else
			lab_buf_addc(b, *p);
	lab_buf_addc(b, '\'');
	free(w);
}

/* The command line with secret values replaced by "***". */
char *
lab_redact_argv(int argc, char *const *argv)
{
	struct lab_buf	 b;
	const char	*eq;
	char		*w;
	int		 i, hide_next = 0;

	lab_buf_init(&b);
	for (i = 0; i < argc; i++) {
		if (hide_next) {
			add_word(&b, "***");
			hide_next = 0;
			continue;
		}
		eq = strchr(argv[i], '=');
		if (eq != NULL && secret_word(argv[i], (size_t)(eq - argv[i]))) {
			w = lab_asprintf("%.*s=***", (int)(eq - argv[i]),
			    argv[i]);
			add_word(&b, w ? w : "***");
			free(w);
			continue;
		}
		if (argv[i][0] == '-' && eq == NULL &&
		    secret_word(argv[i], strlen(argv[i])))
			hide_next = 1;
		add_word(&b, argv[i]);
	}
	return lab_buf_steal(&b);
}
