/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the value parsers of include/lab/parse.h: the
 * input, as a string, goes through each. A size read back from its own
 * lab_format_size() must be the same number, a MAC normalises to itself,
 * and the first 8 bytes as a number must format and parse back too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
size_roundtrip(uint64_t v)
{
	uint64_t	 back;
	char		 buf[32];
	const char	*why = NULL;

	lab_format_size(v, buf, sizeof(buf));
	if (v > INT64_MAX)
		return;
	if (lab_parse_size(buf, &back, &why) == -1 || back != v)
		abort();
	lab_format_size_human(v, buf, sizeof(buf));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*why;
	char		*s, mac[18], mac2[18];
	uint64_t	 v;
	long		 l;
	size_t		 i;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	why = NULL;
	if (lab_parse_size(s, &v, &why) == 0) {
		if (v > INT64_MAX)
			abort();
		size_roundtrip(v);
	} else if (why == NULL)
		abort();
	why = NULL;
	if (lab_parse_mac(s, mac, &why) == 0) {
		if (strlen(mac) != 17 || lab_parse_mac(mac, mac2, NULL) == -1 ||
		    strcmp(mac, mac2) != 0)
			abort();
	} else if (why == NULL)
		abort();
	why = NULL;
	if (lab_check_address(s, &why) == -1 && why == NULL)
		abort();
	why = NULL;
	if (lab_check_name(s, &why) == 0) {
		if (strlen(s) > 63 || strpbrk(s, "[],@!") != NULL)
			abort();
	} else if (why == NULL)
		abort();
	if (lab_parse_int(s, -5, 5, &l) == 0 && (l < -5 || l > 5))
		abort();
	(void)lab_parse_int(s, 0, 65535, &l);

	if (size >= 8) {
		for (v = 0, i = 0; i < 8; i++)
			v = v << 8 | data[i];
		size_roundtrip(v);
		size_roundtrip(v >> 1);
	}
	free(s);
	return 0;
}
