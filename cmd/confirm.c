/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"

/*
 * The one safety rule (lab(1), SAFETY): what cannot be undone prints its
 * plan first, then goes on only with --yes, or with "y" typed on a
 * terminal. --dry-run stops after the plan. Without a terminal (a script,
 * cron, a pipe) and without --yes it refuses, exit 2, naming --yes.
 */
int
cmd_confirm(struct lab_call *call, const char *question, const char *what,
    struct lab_err *err)
{
	char	 line[64];
	FILE	*tty;
	size_t	 i;
	int	 yes;

	if (call->yes)
		return 1;
	if (call->dry_run)
		return 0;
	/* the plan is on stdout: it comes before the question or refusal */
	fflush(stdout);
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO) ||
	    (tty = fopen("/dev/tty", "r")) == NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "%s; run again with "
		    "--yes (or --dry-run to see the plan)", what);
	fprintf(stderr, "%s [y/N] ", question);
	fflush(stderr);
	yes = 0;
	if (fgets(line, sizeof(line), tty) != NULL) {
		for (i = 0; line[i] != '\0'; i++)
			line[i] = (char)tolower((unsigned char)line[i]);
		line[strcspn(line, "\r\n")] = '\0';
		yes = strcmp(line, "y") == 0 || strcmp(line, "yes") == 0;
	} else
		fputc('\n', stderr);	/* ^D: the next line starts clean */
	fclose(tty);
	if (yes)
		return 1;
	return lab_err_set(err, LAB_EXIT_INPUT, "not confirmed: nothing was "
	    "changed");
}
