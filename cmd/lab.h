/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_CMD_H
#define LAB_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "lab/config.h"
#include "lab/db.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/bmc.h"
#include "lab/str.h"

#define LAB_ARGS_ANY	(-1)
#define LAB_MAX_OPTS	16
#define LAB_MAX_REPEATS	32	/* values of repeatable options */

/* What a verb accepts and does; the dispatcher checks these first. */
enum lab_verb_flags {
	LAB_VERB_JSON = 1 << 0,		/* takes --json */
	LAB_VERB_DRYRUN = 1 << 1,	/* takes --dry-run */
	LAB_VERB_TARGETS = 1 << 2,	/* takes targets and --all */
	LAB_VERB_MUTATES = 1 << 3,	/* recorded in the audit log */
	LAB_VERB_CSV = 1 << 4,		/* a listing: takes --csv */
	LAB_VERB_CONFIRMS = 1 << 5,	/* may do what cannot be undone:
					   takes --yes, calls cmd_confirm() */
};

/* An option of one verb, beside its handler. */
struct lab_opt {
	const char	*name;		/* long name, without "--" */
	const char	*arg;		/* "FILE" when it takes a value, else NULL */
	const char	*help;
	/* for completion: the words the value may be (NULL-terminated), or
	   NULL; and whether it may be a file's path too */
	const char *const *values;
	int		 files;
	int		 repeat;	/* may be given more than once: every
					   value kept (cmd_opt_n, cmd_opt_i) */
};

struct lab_call;

struct lab_verb {
	const char		*name;	/* NULL: the command takes no verb */
	const char		*args;	/* "PATH...", for usage */
	int			 min;
	int			 max;	/* LAB_ARGS_ANY: no limit */
	int			 flags;
	int			(*run)(struct lab_call *, struct lab_err *);
	const struct lab_opt	*opts;	/* NULL-name terminated, or NULL */
	const char		*summary;
	const struct lab_opt	*shared_opts;	/* a set shared by verbs
					   (cmd_bmc_opts), or NULL */
};

struct lab_cmd {
	const char		*name;
	const char		*summary;
	const struct lab_verb	*verbs;	/* NULL-name terminated */
};

/* One parsed invocation, handed to a handler. */
struct lab_call {
	const struct lab_cmd	*cmd;
	const struct lab_verb	*verb;
	char			 label[64];	/* "import", "power on" */
	int			 argc;		/* positional words */
	char			**argv;
	const char		*opt[2 * LAB_MAX_OPTS];	/* opts, then shared_opts */
	/* the values of repeatable options, in the order given */
	const char		*rep[LAB_MAX_REPEATS];
	int			 rep_opt[LAB_MAX_REPEATS];	/* opt index */
	size_t			 nrep;
	const char		*db_path;
	const char		*cred_path;
	int			 json;
	int			 csv;
	int			 dry_run;
	int			 yes;		/* --yes: the plan is confirmed */
	int			 all;
	int64_t			 now;
	struct lab_db		*db;		/* opened by cmd_db(), audited */
	int			 no_audit;	/* a read after all (lab boot HOST) */
	char			 audit_msg[256];	/* per-host failures */
	size_t			 failed;	/* hosts cmd_host_failed() saw */
};

extern const struct lab_cmd lab_cmd_bench;
extern const struct lab_cmd lab_cmd_boot;
extern const struct lab_cmd lab_cmd_burnin;
extern const struct lab_cmd lab_cmd_completion;
extern const struct lab_cmd lab_cmd_config;
extern const struct lab_cmd lab_cmd_console;
extern const struct lab_cmd lab_cmd_db;
extern const struct lab_cmd lab_cmd_export;
extern const struct lab_cmd lab_cmd_facts;
extern const struct lab_cmd lab_cmd_help;
extern const struct lab_cmd lab_cmd_history;
extern const struct lab_cmd lab_cmd_import;
extern const struct lab_cmd lab_cmd_init;
extern const struct lab_cmd lab_cmd_log;
extern const struct lab_cmd lab_cmd_ls;
extern const struct lab_cmd lab_cmd_media;
extern const struct lab_cmd lab_cmd_power;
extern const struct lab_cmd lab_cmd_provision;
extern const struct lab_cmd lab_cmd_report;
extern const struct lab_cmd lab_cmd_sel;
extern const struct lab_cmd lab_cmd_sensors;
extern const struct lab_cmd lab_cmd_show;
extern const struct lab_cmd lab_cmd_switch;

/* The command table, NULL-terminated (cmd/lab.c). */
extern const struct lab_cmd *const lab_commands[];

/* An effective setting and where it came from (cmd/lab.c). */
struct cmd_setting {
	const char	*value;		/* NULL: the built-in default */
	const char	*shown;		/* value, or the default as text */
	char		 origin[4200];	/* "command line", "file PATH:LINE" */
};

/* The settings, indexed by enum lab_config_key. */
extern struct cmd_setting cmd_settings[LAB_CONFIG_N];

/* A setting the user gave (command line, environment, file), else NULL. */
const char	*cmd_setting(enum lab_config_key);

/* The value of a verb option, NULL when not given ("" for a flag). */
const char	*cmd_opt(const struct lab_call *, const char *name);
/* How many times a repeatable option was given, and its i-th value
   (NULL past the end); cmd_opt() gives the last. */
size_t		 cmd_opt_n(const struct lab_call *, const char *name);
const char	*cmd_opt_i(const struct lab_call *, const char *name,
		    size_t i);
/* Opens the database for the call (kept in call->db). */
int		 cmd_db(struct lab_call *, int flags, struct lab_err *);
/* Opens the database and loads the inventory. */
int		 cmd_inventory(struct lab_call *, struct lab_inventory **ret,
		    struct lab_err *);
/* Prints the usage of a command (and verb) to f. */
void		 cmd_usage(FILE *, const struct lab_cmd *,
		    const struct lab_verb *);
/* Prints the list of commands and the exit codes. */
void		 cmd_help_all(FILE *);
/* The light front runs the full lab in its place (cmd/full.c). */
int		 cmd_full_exec(char **argv);
/* Writes a buffer to stdout; returns -1 (with err) on a write error. */
int		 cmd_write(struct lab_buf *, struct lab_err *);
/* Writes lines of text (a plan, a report) to stdout, every control but
   newline and tab, and any byte that is not UTF-8, shown as "\xNN". */
int		 cmd_write_text(struct lab_buf *, struct lab_err *);
/* Prints text (a peer's output) to a stream the same way. */
void		 cmd_puts_text(FILE *, const char *);
/* A string from a peer or the database made visible for one printf
   ("\x1b" for ESC...); valid until 16 more calls. NULL stays NULL. */
const char	*cmd_vis(const char *);
/*
 * Prints "lab: LABEL: HOST: WHY" on stderr, counts it in call->failed and
 * keeps the first as the audit message; returns LAB_EXIT_PARTIAL.
 */
int		 cmd_host_failed(struct lab_call *, const char *host,
		    const char *why);

/*
 * The one safety rule (lab(1), SAFETY), called by a LAB_VERB_CONFIRMS verb
 * after it printed its plan and before it changes what cannot be undone.
 * Returns 1 to go on (--yes, or "y" typed on a terminal); 0 to stop with
 * exit 0 (--dry-run: the plan was all); -1 with err set (exit 2) when it
 * must not go on: no terminal to ask ("WHAT; run again with --yes ..."),
 * or the question "QUESTION [y/N]" answered otherwise.
 */
int		 cmd_confirm(struct lab_call *, const char *question,
		    const char *what, struct lab_err *);

/*
 * The deadline of one switch's discovery, in seconds: opt (--deadline),
 * else the setting switch_deadline, else 0 (lib/'s default).
 */
int		 cmd_switch_deadline(const char *opt, int *ret,
		    struct lab_err *);

/* A run of a BMC command over targets (cmd/bmc.c). */
struct cmd_bmc_run {
	struct lab_inventory	*inv;
	struct lab_strv		 hosts;
	struct lab_bmc_result	*res;
	size_t			 n;
	int			 streamed;	/* the rows are printed */
};

extern const struct lab_opt cmd_bmc_opts[];

/* Parses --timeout, --fanout, --privilege, --retransmit into req. */
int	cmd_bmc_opts_parse(struct lab_call *, struct lab_bmc_req *,
	    struct lab_err *);
/*
 * Parses the shared options, resolves targets, loads credentials, runs req
 * and records the outcome; -1 (run released) when it could not.
 */
int	cmd_bmc_run(struct lab_call *, struct lab_bmc_req *,
	    struct cmd_bmc_run *, struct lab_err *);
/* Prints each host's failure on stderr; returns the exit code. */
int	cmd_bmc_failures(struct lab_call *, const struct cmd_bmc_run *);
/* Prints the table or JSON, then the failures; frees all; the exit code. */
struct table;
int	cmd_bmc_finish(struct lab_call *, struct cmd_bmc_run *, struct table *,
	    struct lab_buf *, struct lab_err *);
void	cmd_bmc_release(struct cmd_bmc_run *);
/* The members every BMC fan-out JSON row shares: skipped, bmc_info. */
struct lab_json;
void	cmd_bmc_json_row(struct lab_json *, const struct lab_inventory *,
	    const struct lab_bmc_result *);

/* A text table sized to its contents. */
struct table {
	size_t		 ncols;
	struct lab_pool	 text;		/* the cells copied */
	const char	**cells;	/* row by row */
	size_t		 ncells, cap;
	unsigned	 paint;		/* columns of state words to colour */
	unsigned	 key;		/* columns never cut (column 0) */
	unsigned	 text_cols;	/* free-text columns, cut first */
};

/*
 * Chooses how tables reach stdout: CSV (RFC 4180 quoting, a header row),
 * or on a terminal sized to it (the widest free-text column cut first with
 * "…", then the others; a key column never) and
 * coloured unless NO_COLOR is set; a pipe gets the plain table.
 */
void	table_setup(int csv);
/* Colours the state words (on, off, up, down, failed ...) of a column. */
void	table_paint(struct table *, size_t col);
/*
 * A column that names the row (a host, a switch, the time of a log
 * line) is never cut on a narrow terminal; column 0 is one already.
 */
void	table_key(struct table *, size_t col);
/* A free-text column (message, description, role): the first cut. */
void	table_text(struct table *, size_t col);
/* Prints one state word, coloured as table_paint() would. */
void	table_word(FILE *, const char *);

void	table_init(struct table *, size_t ncols, ...);
/* Adds a row of ncols strings; NULL or "" prints as "-" (CSV: empty). */
void	table_row(struct table *, ...);
/* Gives row i's ncols cells (NULL prints as "-"), good until the next call. */
typedef void (*table_row_fn)(void *arg, size_t i, const char **cells);
void	table_print(struct table *, FILE *);
/*
 * Prints the header and then n rows that fn gives one at a time (twice:
 * for the widths, then to print), copying nothing: for 10,000 hosts.
 */
void	table_print_rows(struct table *, FILE *, size_t n, table_row_fn fn,
	    void *arg);
void	table_release(struct table *);
/* The terminal's width tables are fitted to; 0 when not a terminal, CSV. */
size_t	table_tty_width(void);
/*
 * Prints one row (or the header) of t's columns at widths w on a
 * terminal: cut with "…", padded, coloured as table_print() does.
 */
void	table_tty_row(const struct table *, FILE *, const char *const *cells,
	    const size_t *w, int header);

#endif
