/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab/cred.h"
#include "lab/dburi.h"
#include "lab/text.h"
#include "lab.h"

#ifdef LAB_LIGHT
/*
 * The light front's commands (cmd/full.c), those that talk to no BMC,
 * switch or host: the rest, and help, run in the full lab.
 */
const struct lab_cmd *const lab_commands[] = {
	&lab_cmd_config,
	&lab_cmd_export,
	&lab_cmd_history,
	&lab_cmd_import,
	&lab_cmd_init,
	&lab_cmd_log,
	&lab_cmd_ls,
	&lab_cmd_show,
	NULL,
};
#else
/* Every command, in alphabetical order: greppable, no magic. */
const struct lab_cmd *const lab_commands[] = {
	&lab_cmd_bench,
	&lab_cmd_boot,
	&lab_cmd_burnin,
	&lab_cmd_completion,
	&lab_cmd_config,
	&lab_cmd_console,
	&lab_cmd_db,
	&lab_cmd_export,
	&lab_cmd_facts,
	&lab_cmd_help,
	&lab_cmd_history,
	&lab_cmd_import,
	&lab_cmd_init,
	&lab_cmd_log,
	&lab_cmd_ls,
	&lab_cmd_media,
	&lab_cmd_power,
	&lab_cmd_provision,
	&lab_cmd_report,
	&lab_cmd_sel,
	&lab_cmd_sensors,
	&lab_cmd_show,
	&lab_cmd_switch,
	NULL,
};
#endif

/* Options every verb shares, defined once. */
enum { OPT_DB = 1000, OPT_CRED, OPT_JSON, OPT_CSV, OPT_DRYRUN, OPT_YES,
	OPT_ALL, OPT_HELP,
	OPT_VERB = 2000 };

static const struct lab_opt common_opts[] = {
	{ "db", "PATH", "the database, a file or postgresql://USER@HOST:PORT/DB "
	    "(default $LAB_DB, else $XDG_DATA_HOME/lab/lab.db)" },
	{ "credentials", "PATH", "the credentials file (default "
	    "$LAB_CREDENTIALS, else $XDG_CONFIG_HOME/lab/credentials.yaml)" },
	{ "json", NULL, "print JSON instead of a table" },
	{ "csv", NULL, "print CSV (RFC 4180) instead of a table" },
	{ "dry-run", NULL, "show what would be done, change nothing" },
	{ "yes", NULL, "do it without asking (see SAFETY in lab(1))" },
	{ "all", NULL, "every host" },
	{ "help", NULL, "show this help" },
	{ NULL, NULL, NULL },
};
/* The verb flag each shared option needs to be offered (0: always). */
static const int common_needs[] = { 0, 0, LAB_VERB_JSON, LAB_VERB_CSV,
	LAB_VERB_DRYRUN, LAB_VERB_CONFIRMS, LAB_VERB_TARGETS, 0, 0 };

/* Whether a verb with these flags offers option o. */
static int
offered(const struct lab_opt *o, int flags)
{
	size_t	i;

	for (i = 0; i < LAB_ARRAY_SIZE(common_needs); i++)
		if (o == &common_opts[i])
			return common_needs[i] == 0 ||
			    (flags & common_needs[i]) != 0;
	return 1;	/* a verb's own option */
}

static char db_default[4096], cred_default[4096];

/* The value of a verb option, NULL when not given. */
const char *
cmd_opt(const struct lab_call *call, const char *name)
{
	const struct lab_opt	*o = call->verb->opts;
	size_t			 i;

	for (i = 0; o != NULL && o[i].name != NULL; i++)
		if (strcmp(o[i].name, name) == 0)
			return call->opt[i];
	o = call->verb->shared_opts;
	for (i = 0; o != NULL && o[i].name != NULL; i++)
		if (strcmp(o[i].name, name) == 0)
			return call->opt[LAB_MAX_OPTS + i];
	/* not an option of this verb (a helper shared by verbs asks for
	   options only some of them have; tests/lint/opts.py catches typos) */
	return NULL;
}

/* The index of option name in call->opt, or -1. */
static int
opt_index(const struct lab_call *call, const char *name)
{
	const struct lab_opt	*o = call->verb->opts;
	size_t			 i;

	for (i = 0; o != NULL && o[i].name != NULL; i++)
		if (strcmp(o[i].name, name) == 0)
			return (int)i;
	o = call->verb->shared_opts;
	for (i = 0; o != NULL && o[i].name != NULL; i++)
		if (strcmp(o[i].name, name) == 0)
			return LAB_MAX_OPTS + (int)i;
	return -1;
}

/* How many values a repeatable option was given. */
size_t
cmd_opt_n(const struct lab_call *call, const char *name)
{
	int	k = opt_index(call, name);
	size_t	i, n = 0;

	for (i = 0; k >= 0 && i < call->nrep; i++)
		if (call->rep_opt[i] == k)
			n++;
	return n;
}

/* The j-th value of a repeatable option, NULL past the end. */
const char *
cmd_opt_i(const struct lab_call *call, const char *name, size_t j)
{
	int	k = opt_index(call, name);
	size_t	i;

	for (i = 0; k >= 0 && i < call->nrep; i++)
		if (call->rep_opt[i] == k && j-- == 0)
			return call->rep[i];
	return NULL;
}

/* Opens the database for the call. */
int
cmd_db(struct lab_call *call, int flags, struct lab_err *err)
{
	LAB_CLEANUP(lab_creds_freep) struct lab_creds *creds = NULL;
	const struct lab_cred	*pg;

	if (call->db != NULL)
		return 0;
	/* PostgreSQL: the credentials file's postgres: entry, when it has
	   one (0600 rules as for BMCs), else libpq's ~/.pgpass */
	if (!lab_db_uri_is_pg(call->db_path) ||
	    access(call->cred_path, F_OK) == -1)
		return lab_db_open(call->db_path, flags, &call->db, err);
	if (lab_creds_load(call->cred_path, &creds, err) == -1)
		return -1;
	pg = lab_creds_find(creds, "postgres");
	return lab_db_open_auth(call->db_path, flags,
	    pg != NULL ? pg->password : NULL, &call->db, err);
}

/* Opens the database and loads the inventory. */
int
cmd_inventory(struct lab_call *call, struct lab_inventory **ret,
    struct lab_err *err)
{
	if (cmd_db(call, 0, err) == -1)
		return -1;
	return lab_db_inventory_load(call->db, ret, err);
}

/* Writes a buffer to stdout. */
int
cmd_write(struct lab_buf *b, struct lab_err *err)
{
	if (b->oom)
		return lab_err_oom(err);
	if (b->len > 0 && fwrite(b->s, 1, b->len, stdout) != b->len)
		return lab_err_set(err, LAB_EXIT_ENV, "cannot write output: %s",
		    strerror(errno));
	return 0;
}

/* Writes lines of text to stdout, any control but newline and tab (and
   any byte that is not UTF-8) shown as "\xNN", never obeyed. */
int
cmd_write_text(struct lab_buf *b, struct lab_err *err)
{
	struct lab_buf	v;
	int		rc;

	if (b->oom)
		return lab_err_oom(err);
	lab_buf_init(&v);
	if (b->s != NULL)
		lab_buf_add_visible_lines(&v, b->s);
	rc = cmd_write(&v, err);
	lab_buf_release(&v);
	return rc;
}

/*
 * s made visible (lab_visible) for one printf: the last 16 results are
 * kept, so a printf can take several. NULL stays NULL.
 */
const char *
cmd_vis(const char *s)
{
	static char	*ring[16];
	static size_t	 next;
	char		*v;

	if (s == NULL || !lab_visible_needed(s))
		return s;
	if ((v = lab_visible(s)) == NULL)
		return "?";
	free(ring[next]);
	ring[next] = v;
	next = (next + 1) % LAB_ARRAY_SIZE(ring);
	return v;
}

/* Prints text to f as cmd_write_text does. */
void
cmd_puts_text(FILE *f, const char *s)
{
	struct lab_buf	v;

	lab_buf_init(&v);
	lab_buf_add_visible_lines(&v, s);
	if (!v.oom && v.s != NULL)
		fputs(v.s, f);
	lab_buf_release(&v);
}

/*
 * Prints one host's (or switch's) failure on stderr and counts it in
 * call->failed; the first is the audit log's "HOST: REASON".
 */
int
cmd_host_failed(struct lab_call *call, const char *host, const char *why)
{
	char	*h = lab_visible(host), *w = lab_visible(why);

	/* a peer's words: shown, never obeyed by the terminal */
	fprintf(stderr, "lab: %s: %s: %s\n", call->label, h ? h : "?",
	    w ? w : "?");
	free(h);
	free(w);
	if (call->failed++ == 0) {
		/* hidden before it is cut: a cut URL would hide nothing */
		w = lab_url_redact(why);
		snprintf(call->audit_msg, sizeof(call->audit_msg), "%s: %s",
		    host, w != NULL ? w : "?");
		lab_utf8_trim(call->audit_msg);
		free(w);
	}
	return LAB_EXIT_PARTIAL;
}

static void
opt_usage(FILE *f, const struct lab_opt *o, int flags)
{
	for (; o != NULL && o->name != NULL; o++) {
		if (!offered(o, flags))
			continue;
		if (o->arg != NULL)
			fprintf(f, "  --%s %-*s %s\n", o->name,
			    (int)(20 - strlen(o->name)), o->arg, o->help);
		else
			fprintf(f, "  --%-*s %s\n", 21, o->name, o->help);
	}
}

static void
verb_line(FILE *f, const struct lab_cmd *c, const struct lab_verb *v)
{
	const struct lab_opt	*o;

	fprintf(f, "lab %s%s%s%s%s", c->name, v->name ? " " : "",
	    v->name ? v->name : "", v->args && *v->args ? " " : "",
	    v->args ? v->args : "");
	for (o = v->opts; o != NULL && o->name != NULL; o++)
		fprintf(f, " [--%s%s%s]", o->name, o->arg ? " " : "",
		    o->arg ? o->arg : "");
	for (o = v->shared_opts; o != NULL && o->name != NULL; o++)
		fprintf(f, " [--%s%s%s]", o->name, o->arg ? " " : "",
		    o->arg ? o->arg : "");
	if (v->flags & LAB_VERB_DRYRUN)
		fprintf(f, " [--dry-run]");
	if (v->flags & LAB_VERB_CONFIRMS)
		fprintf(f, " [--yes]");
	if (v->flags & LAB_VERB_JSON)
		fprintf(f, " [--json]");
	if (v->flags & LAB_VERB_CSV)
		fprintf(f, " [--csv]");
	fputc('\n', f);
}

/* Prints the usage of a command (and verb). */
void
cmd_usage(FILE *f, const struct lab_cmd *c, const struct lab_verb *v)
{
	const struct lab_verb	*w;
	size_t			 n = 10;

	if (v != NULL) {
		fprintf(f, "usage: ");
		verb_line(f, c, v);
		fprintf(f, "\n%s\n\noptions:\n", v->summary);
		opt_usage(f, v->opts, v->flags);
		opt_usage(f, v->shared_opts, v->flags);
		opt_usage(f, common_opts, v->flags);
		return;
	}
	fprintf(f, "usage:\n");
	for (w = c->verbs; w->run != NULL; w++) {
		fprintf(f, "  ");
		verb_line(f, c, w);
	}
	fprintf(f, "\n%s\n", c->summary);
	if (c->verbs[0].name != NULL) {
		/* one column for the summaries, however long a verb */
		for (w = c->verbs; w->run != NULL; w++)
			if (strlen(w->name) > n)
				n = strlen(w->name);
		fprintf(f, "\nverbs:\n");
		for (w = c->verbs; w->run != NULL; w++)
			fprintf(f, "  %-*s %s\n", (int)n, w->name, w->summary);
	}
}

static const struct lab_cmd *
find_cmd(const char *name)
{
	size_t	i;

	for (i = 0; lab_commands[i] != NULL; i++)
		if (strcmp(lab_commands[i]->name, name) == 0)
			return lab_commands[i];
	return NULL;
}

static int
unknown(const char *what, const char *word, const char *const *cands,
    size_t n, const char *ctx)
{
	const char	*near = lab_suggest(word, cands, n);

	word = cmd_vis(word);	/* typed, or pasted from anywhere */

	if (near != NULL)
		fprintf(stderr, "lab: unknown %s '%s'%s%s%s, did you mean "
		    "'%s'?\n", what, word, ctx ? " for '" : "", ctx ? ctx : "",
		    ctx ? "'" : "", near);
	else
		fprintf(stderr, "lab: unknown %s '%s'%s%s%s (see 'lab help%s%s')"
		    "\n", what, word, ctx ? " for '" : "", ctx ? ctx : "",
		    ctx ? "'" : "", ctx ? " " : "", ctx ? ctx : "");
	return LAB_EXIT_INPUT;
}

#ifndef LAB_LIGHT
static int
unknown_cmd(const char *word)
{
	const char	*names[LAB_ARRAY_SIZE(lab_commands)];
	size_t		 n;

	for (n = 0; lab_commands[n] != NULL; n++)
		names[n] = lab_commands[n]->name;
	return unknown("command", word, names, n, NULL);
}
#endif

static int
unknown_verb(const struct lab_cmd *c, const char *word)
{
	const char	*names[64];
	size_t		 n;

	for (n = 0; n < 63 && c->verbs[n].run != NULL; n++)
		names[n] = c->verbs[n].name;
	return unknown("verb", word, names, n, c->name);
}

struct cmd_setting cmd_settings[LAB_CONFIG_N];
static struct lab_config *config;

/* A setting the user gave, else NULL. */
const char *
cmd_setting(enum lab_config_key k)
{
	return cmd_settings[k].value;
}

/* Sets a setting from the command line. */
static void
cmdline(struct lab_call *call, enum lab_config_key k, const char *v)
{
	cmd_settings[k].value = cmd_settings[k].shown = v;
	snprintf(cmd_settings[k].origin, sizeof(cmd_settings[k].origin),
	    "command line");
	if (k == LAB_CONFIG_DB)
		call->db_path = v;
	else if (k == LAB_CONFIG_CREDENTIALS)
		call->cred_path = v;
}

/* Reads the config file: $LAB_CONFIG, else the user's, else /etc's. */
static int
load_config(const char *home, struct lab_err *err)
{
	const char	*e;
	char		 path[4096];

	/* a config named on purpose must be there; the default ones may not */
	if ((e = getenv("LAB_CONFIG")) != NULL && *e != '\0') {
		if (lab_config_load(e, &config, err) == -1)
			return -1;
		if (config == NULL)
			return lab_err_set(err, LAB_EXIT_ENV, "LAB_CONFIG names "
			    "'%s': no such file", cmd_vis(e));
		return 0;
	}
	if ((e = getenv("XDG_CONFIG_HOME")) != NULL && *e == '/')
		snprintf(path, sizeof(path), "%s/lab/config.yaml", e);
	else
		snprintf(path, sizeof(path), "%s/.config/lab/config.yaml",
		    home);
	if (lab_config_load(path, &config, err) == -1)
		return -1;
	if (config == NULL)
		return lab_config_load("/etc/lab/config.yaml", &config, err);
	return 0;
}

/* Each setting from the environment, else the config file, else default. */
static int
defaults(struct lab_call *call, struct lab_err *err)
{
	static const char *const envs[] = { "LAB_DB", "LAB_CREDENTIALS",
		"LAB_FANOUT", "LAB_TIMEOUT", "LAB_FORMAT",
		"LAB_SWITCH_DEADLINE" };
	const char	*e, *home = getenv("HOME"), *builtin[LAB_CONFIG_N];
	size_t		 k;
	int		 rc;

	if (home == NULL)
		home = "";
	if ((e = getenv("XDG_DATA_HOME")) != NULL && *e == '/')
		snprintf(db_default, sizeof(db_default), "%s/lab/lab.db", e);
	else
		snprintf(db_default, sizeof(db_default),
		    "%s/.local/share/lab/lab.db", home);
	if ((e = getenv("XDG_CONFIG_HOME")) != NULL && *e == '/')
		snprintf(cred_default, sizeof(cred_default),
		    "%s/lab/credentials.yaml", e);
	else
		snprintf(cred_default, sizeof(cred_default),
		    "%s/.config/lab/credentials.yaml", home);
	builtin[LAB_CONFIG_DB] = db_default;
	builtin[LAB_CONFIG_CREDENTIALS] = cred_default;
	builtin[LAB_CONFIG_FANOUT] = "64";
	builtin[LAB_CONFIG_TIMEOUT] = "10";
	builtin[LAB_CONFIG_FORMAT] = "text";
	builtin[LAB_CONFIG_SWITCH_DEADLINE] = "120";
	call->now = (int64_t)time(NULL);
	rc = load_config(home, err);
	for (k = 0; k < LAB_CONFIG_N; k++) {
		struct cmd_setting	*s = &cmd_settings[k];

		if ((e = getenv(envs[k])) != NULL && *e != '\0') {
			if (rc == 0 && lab_config_check(k, e, err) == -1) {
				lab_err_prefix(err, "%s", envs[k]);
				rc = -1;
			}
			s->value = e;
			snprintf(s->origin, sizeof(s->origin), "environment %s",
			    envs[k]);
		} else if (config != NULL && config->value[k] != NULL) {
			s->value = config->value[k];
			snprintf(s->origin, sizeof(s->origin), "file %s:%d",
			    config->path, config->line[k]);
		} else
			snprintf(s->origin, sizeof(s->origin), "default");
		s->shown = s->value != NULL ? s->value : builtin[k];
	}
	call->db_path = cmd_settings[LAB_CONFIG_DB].shown;
	call->cred_path = cmd_settings[LAB_CONFIG_CREDENTIALS].shown;
	return rc;
}

/* The output format the settings ask for, unless an option chose one. */
static void
format(struct lab_call *call)
{
	const char	*f = cmd_setting(LAB_CONFIG_FORMAT);

	if (f == NULL || call->json || call->csv)
		return;
	if (strcmp(f, "json") == 0 && (call->verb->flags & LAB_VERB_JSON))
		call->json = 1;
	else if (strcmp(f, "csv") == 0 && (call->verb->flags & LAB_VERB_CSV))
		call->csv = 1;
}

/* Parses the options after the verb; positional words go to call. */
static int
parse_opts(struct lab_call *call, int argc, char **argv)
{
	const struct lab_verb	*v = call->verb;
	struct option		 lo[2 * LAB_MAX_OPTS + 8];
	const char		*names[2 * LAB_MAX_OPTS + 8], *near;
	size_t			 n = 0, i;
	int			 c;

	for (i = 0; common_opts[i].name != NULL; i++) {
		if (!offered(&common_opts[i], v->flags))
			continue;
		names[n] = common_opts[i].name;
		lo[n++] = (struct option){ common_opts[i].name,
		    common_opts[i].arg ? required_argument : no_argument,
		    NULL, OPT_DB + (int)i };
	}
	for (i = 0; v->opts != NULL && v->opts[i].name != NULL &&
	    i < LAB_MAX_OPTS; i++) {
		names[n] = v->opts[i].name;
		lo[n++] = (struct option){ v->opts[i].name,
		    v->opts[i].arg ? required_argument : no_argument, NULL,
		    OPT_VERB + (int)i };
	}
	for (i = 0; v->shared_opts != NULL && v->shared_opts[i].name != NULL &&
	    i < LAB_MAX_OPTS; i++) {
		names[n] = v->shared_opts[i].name;
		lo[n++] = (struct option){ v->shared_opts[i].name,
		    v->shared_opts[i].arg ? required_argument : no_argument, NULL,
		    OPT_VERB + LAB_MAX_OPTS + (int)i };
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (c == 'h' || c == OPT_HELP) {
			cmd_usage(stdout, call->cmd, call->verb);
			exit(LAB_EXIT_OK);
		}
		if (c >= OPT_VERB) {
			const struct lab_opt	*set = c - OPT_VERB < LAB_MAX_OPTS ?
			    v->opts : v->shared_opts;
			int			 k = (c - OPT_VERB) % LAB_MAX_OPTS;

			call->opt[c - OPT_VERB] = optarg ? optarg : "";
			if (set == NULL || !set[k].repeat)
				continue;
			if (call->nrep == LAB_MAX_REPEATS) {
				fprintf(stderr, "lab: %s: more than %d values of "
				    "repeated options\n", call->label,
				    LAB_MAX_REPEATS);
				return -1;
			}
			call->rep_opt[call->nrep] = c - OPT_VERB;
			call->rep[call->nrep++] = call->opt[c - OPT_VERB];
			continue;
		}
		switch (c) {
		case OPT_DB:
			cmdline(call, LAB_CONFIG_DB, optarg);
			break;
		case OPT_CRED:
			cmdline(call, LAB_CONFIG_CREDENTIALS, optarg);
			break;
		case OPT_JSON:
			call->json = 1;
			break;
		case OPT_CSV:
			call->csv = 1;
			break;
		case OPT_DRYRUN:
			call->dry_run = 1;
			break;
		case OPT_YES:
			call->yes = 1;
			break;
		case OPT_ALL:
			call->all = 1;
			break;
		default: {
			const char	*bad = argv[optind - 1];
			char		 word[64];

			/*
			 * getopt_long() says '?' for a known option without its
			 * value too (optopt is then that option's code): tell
			 * it from an unknown word by its name.
			 */
			snprintf(word, sizeof(word), "%s", bad[0] == '-' &&
			    bad[1] == '-' ? bad + 2 : bad);
			word[strcspn(word, "=")] = '\0';
			for (i = 0; i < n; i++)
				if (strcmp(names[i], word) == 0)
					break;
			if (i < n && bad[0] == '-' && bad[1] == '-') {
				if (lo[i].has_arg)
					fprintf(stderr, "lab: %s: option '--%s' "
					    "needs a value\n", call->label, word);
				else
					fprintf(stderr, "lab: %s: option '--%s' "
					    "takes no value\n", call->label, word);
				return -1;
			}
			near = lab_suggest(word, names, n);
			if (near != NULL)
				fprintf(stderr, "lab: %s: unknown option '%s', "
				    "did you mean '--%s'?\n", call->label,
				    cmd_vis(bad), near);
			else
				fprintf(stderr, "lab: %s: unknown option '%s'\n",
				    call->label, cmd_vis(bad));
			return -1;
		}
		}
	}
	if (call->json && call->csv) {
		fprintf(stderr, "lab: %s: --json and --csv exclude each other\n",
		    call->label);
		return -1;
	}
	if (call->yes && call->dry_run) {
		fprintf(stderr, "lab: %s: --yes applies the plan and --dry-run "
		    "only prints it: give one\n", call->label);
		return -1;
	}
	call->argc = argc - optind;
	call->argv = argv + optind;
	return 0;
}

static int
check_arity(struct lab_call *call)
{
	const struct lab_verb	*v = call->verb;

	if (call->argc < v->min && !(call->all && (v->flags & LAB_VERB_TARGETS)))
		fprintf(stderr, "lab: %s: missing %s\n", call->label, v->args);
	else if (v->max != LAB_ARGS_ANY && call->argc > v->max)
		fprintf(stderr, "lab: %s: too many arguments ('%s' is one too "
		    "many)\n", call->label, cmd_vis(call->argv[v->max]));
	else
		return 0;
	fprintf(stderr, "usage: ");
	verb_line(stderr, call->cmd, v);
	return -1;
}

/*
 * The exit code of a handler that returned rc: its error's code when it
 * failed (a handler may return -1 and leave the code in err), never
 * anything but 0 to 3; prints the error once.
 */
static int
exit_code(const struct lab_call *call, int rc, const struct lab_err *err)
{
	if (err->code != LAB_EXIT_OK) {
		/* the one place errors are printed: a peer's or the database's
		   bytes in them are shown, never obeyed by the terminal */
		char	*m = lab_visible(err->msg);

		fprintf(stderr, "lab: %s: %s\n", call->label, m ? m : err->msg);
		free(m);
		if (rc == LAB_EXIT_OK || rc < LAB_EXIT_OK || rc > LAB_EXIT_ENV)
			rc = (int)err->code;
	} else if (rc < LAB_EXIT_OK || rc > LAB_EXIT_ENV) {
		fprintf(stderr, "lab: %s: failed without saying why (exit "
		    "code %d)\n", call->label, rc);
		rc = LAB_EXIT_ENV;
	}
	return rc;
}

static void
audit(struct lab_call *call, int argc, char **argv, int rc,
    const struct lab_err *err)
{
	struct lab_audit	 a;
	struct lab_err		 e;
	struct passwd		*pw = getpwuid(getuid());
	const char		*said;
	char			*line, *msg;

	if (call->db == NULL || !(call->verb->flags & LAB_VERB_MUTATES) ||
	    call->dry_run || call->no_audit || rc == LAB_EXIT_INPUT)
		return;
	argv[0] = (char *)"lab";	/* the path of the binary says nothing */
	if ((line = lab_redact_argv(argc, argv)) == NULL)
		return;
	memset(&a, 0, sizeof(a));
	a.time = call->now;
	a.user = pw != NULL ? pw->pw_name : "?";
	a.command = call->label;
	a.argv = line;
	a.result = rc;
	/* a message may quote a URL: its password stays out of the log */
	said = err->code != LAB_EXIT_OK ? err->msg :
	    call->audit_msg[0] != '\0' ? call->audit_msg : NULL;
	msg = lab_url_redact(said);
	a.message = msg;
	lab_err_init(&e);
	/* not a second line when the command failed on this database too
	   (read-only, the server gone), or a target did (a switch's
	   discovery it could not store): its error says it */
	if (lab_db_audit_add(call->db, &a, &e) == -1 &&
	    (said == NULL || strstr(said, lab_db_path(call->db)) == NULL))
		fprintf(stderr, "lab: %s: %s\n", call->label, e.msg);
	free(msg);
	free(line);
}

int
main(int argc, char **argv)
{
	struct lab_call		 call;
	struct lab_err		 err;
	const struct lab_verb	*v;
	int			 i = 1, rc;

	memset(&call, 0, sizeof(call));
	lab_err_init(&err);
	defaults(&call, &err);
	/* options before the command: only the shared ones */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			printf("lab %s\n", LAB_VERSION);
			return LAB_EXIT_OK;
		}
#ifdef LAB_LIGHT
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return cmd_full_exec(argv);
#else
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cmd_help_all(stdout);
			return LAB_EXIT_OK;
		}
#endif
		if ((strcmp(argv[i], "--db") == 0 ||
		    strcmp(argv[i], "--credentials") == 0) && i + 1 < argc) {
			cmdline(&call, argv[i][2] == 'd' ? LAB_CONFIG_DB :
			    LAB_CONFIG_CREDENTIALS, argv[i + 1]);
			i++;
			continue;
		}
		if (strncmp(argv[i], "--db=", 5) == 0) {
			cmdline(&call, LAB_CONFIG_DB, argv[i] + 5);
			continue;
		}
		if (strncmp(argv[i], "--credentials=", 14) == 0) {
			cmdline(&call, LAB_CONFIG_CREDENTIALS, argv[i] + 14);
			continue;
		}
#ifdef LAB_LIGHT
		return cmd_full_exec(argv);
#endif
		fprintf(stderr, "lab: unknown option '%s' before the command\n"
		    "usage: lab [--db PATH] [--credentials PATH] COMMAND ...\n",
		    argv[i]);
		return LAB_EXIT_INPUT;
	}
	if (err.code != LAB_EXIT_OK) {
		char	*m = lab_visible(err.msg);

		fprintf(stderr, "lab: %s\n", m ? m : err.msg);
		free(m);
		lab_config_free(config);
		return (int)err.code;
	}
#ifdef LAB_LIGHT
	/* help, and every command but ls and show: the full lab */
	if (i == argc || (call.cmd = find_cmd(argv[i])) == NULL) {
		lab_config_free(config);
		return cmd_full_exec(argv);
	}
#else
	if (i == argc) {
		cmd_help_all(stderr);
		return LAB_EXIT_INPUT;
	}
	if ((call.cmd = find_cmd(argv[i])) == NULL)
		return unknown_cmd(argv[i]);
#endif
	i++;
	v = call.cmd->verbs;
	if (v[0].name != NULL) {
		if (i == argc || strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			cmd_usage(i == argc ? stderr : stdout, call.cmd, NULL);
			return i == argc ? LAB_EXIT_INPUT : LAB_EXIT_OK;
		}
		for (; v->run != NULL; v++)
			if (strcmp(v->name, argv[i]) == 0)
				break;
		if (v->run == NULL)
			return unknown_verb(call.cmd, argv[i]);
		i++;
	}
	call.verb = v;
	snprintf(call.label, sizeof(call.label), "%s%s%s", call.cmd->name,
	    v->name ? " " : "", v->name ? v->name : "");
	/* getopt wants argv[0] first; argv[i - 1] stands in for it */
	if (parse_opts(&call, argc - i + 1, argv + i - 1) == -1 ||
	    check_arity(&call) == -1)
		return LAB_EXIT_INPUT;
	format(&call);
	table_setup(call.csv);
	rc = exit_code(&call, v->run(&call, &err), &err);
	audit(&call, argc, argv, rc, &err);
	lab_db_free(call.db);
	lab_config_free(config);
	if (fflush(stdout) == EOF && rc == LAB_EXIT_OK) {
		fprintf(stderr, "lab: %s: cannot write output: %s\n",
		    call.label, strerror(errno));
		rc = LAB_EXIT_ENV;
	}
	return rc;
}
