/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab.h"

/* Prints the list of commands and the exit codes. */
void
cmd_help_all(FILE *f)
{
	const struct lab_cmd	*c;
	size_t			 i, w = 0;

	fprintf(f, "usage: lab [--db PATH] [--credentials PATH] COMMAND "
	    "[VERB] [ARGS...] [--json]\n\n"
	    "lab runs a small server lab: its inventory in SQLite, declared "
	    "in YAML,\nand its BMCs over IPMI.\n\ncommands:\n");
	/* the summaries start in one column, two spaces after the longest */
	for (i = 0; (c = lab_commands[i]) != NULL; i++)
		if (strlen(c->name) > w)
			w = strlen(c->name);
	for (i = 0; (c = lab_commands[i]) != NULL; i++)
		fprintf(f, "  %-*s  %s\n", (int)w, c->name, c->summary);
	fprintf(f, "\ntargets: microserver1, microserver[1-3], ml11[0,5], "
	    "@group, --all; !name and !@group exclude\n"
	    "\nexit codes:\n"
	    "  0  all ok\n"
	    "  1  some targets failed (each failure printed per host)\n"
	    "  2  usage or input error (bad arguments, bad inventory YAML)\n"
	    "  3  environment error (database, credentials, missing file, "
	    "out of file\n"
	    "     descriptors or memory: never counted against a host)\n"
	    "\n'lab help COMMAND' shows a command's verbs and options.\n");
}

static int
help_run(struct lab_call *call, struct lab_err *err)
{
	const struct lab_cmd	*c = NULL;
	const struct lab_verb	*v;
	size_t			 i;

	if (call->argc == 0) {
		cmd_help_all(stdout);
		return LAB_EXIT_OK;
	}
	for (i = 0; lab_commands[i] != NULL; i++)
		if (strcmp(lab_commands[i]->name, call->argv[0]) == 0)
			c = lab_commands[i];
	if (c == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "no command '%s' (see "
		    "'lab help')", call->argv[0]);
	if (call->argc == 1 && c->verbs[0].name != NULL) {
		cmd_usage(stdout, c, NULL);
		return LAB_EXIT_OK;
	}
	for (v = c->verbs; v->run != NULL; v++)
		if (v->name == NULL || (call->argc > 1 &&
		    strcmp(v->name, call->argv[1]) == 0))
			break;
	if (v->run == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "'%s' has no verb "
		    "'%s' (see 'lab help %s')", c->name, call->argv[1],
		    c->name);
	cmd_usage(stdout, c, v);
	return LAB_EXIT_OK;
}

static const struct lab_verb help_verbs[] = {
	{ .name = NULL, .args = "[COMMAND [VERB]]", .min = 0, .max = 2,
	  .run = help_run,
	  .summary = "show the commands, or one command's verbs and options" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_help = {
	.name = "help",
	.summary = "show the commands, or one command's verbs and options",
	.verbs = help_verbs,
};
