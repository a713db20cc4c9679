/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the credentials loader (lab_creds_load_buf) and
 * the audit log's argv redaction: the input is one credentials file,
 * then the same bytes split at newlines as a command line. Every loaded
 * credential has a name lab_creds_find() finds, and the word after
 * each --password is hidden in the redacted line.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/cred.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* How often s occurs in line. */
static size_t
count(const char *line, const char *s)
{
	size_t	n = 0;

	while ((line = strstr(line, s)) != NULL) {
		n++;
		line += strlen(s);
	}
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_creds	*cs = NULL;
	struct lab_err		 err;
	char			*buf, *argv[32], *p, *nl, *line;
	size_t			 i, hidden;
	int			 argc = 0;

	lab_err_init(&err);
	if (lab_creds_load_buf("fuzz.yaml", (const char *)data, size, &cs,
	    &err) == 0) {
		for (i = 0; i < cs->n; i++)
			if (lab_creds_find(cs, cs->v[i].name) == NULL)
				abort();
		(void)lab_creds_find(cs, "rac-default");
		lab_creds_free(cs);
	} else if (err.code == 0)
		abort();

	if ((buf = malloc(size + 1)) == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (p = buf; argc < 32; p = nl + 1) {
		argv[argc++] = p;
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl = '\0';
	}
	if ((line = lab_redact_argv(argc, argv)) == NULL)
		abort();
	/* the word after each --password is hidden */
	for (i = 0, hidden = 0; i + 1 < (size_t)argc; i++)
		if (strcmp(argv[i], "--password") == 0) {
			hidden++;
			i++;
		}
	if (count(line, "***") < hidden)
		abort();
	free(line);
	free(buf);
	return 0;
}
