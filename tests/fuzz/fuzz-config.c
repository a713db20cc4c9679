/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the config loader (lab_config_load_buf): the
 * input is one config file, then, as a string, a value each setting
 * checks (as the environment's values are checked).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_config	*c = NULL;
	struct lab_err		 err;
	char			*s;
	int			 k;

	lab_err_init(&err);
	if (lab_config_load_buf("fuzz.yaml", (const char *)data, size, &c,
	    &err) == 0) {
		if (c == NULL || c->path == NULL)
			abort();
		/* what loaded passes the check the environment gets */
		for (k = 0; k < LAB_CONFIG_N; k++)
			if (c->value[k] != NULL && lab_config_check(
			    (enum lab_config_key)k, c->value[k], &err) == -1)
				abort();
		lab_config_free(c);
	} else if (err.code != LAB_EXIT_INPUT && err.code != LAB_EXIT_ENV)
		abort();

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	for (k = 0; k < LAB_CONFIG_N; k++) {
		lab_err_init(&err);
		(void)lab_config_check((enum lab_config_key)k, s, &err);
	}
	free(s);
	return 0;
}
