/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stddef.h>

#include "lab/burnin.h"

/* The words of a burn-in's result: the JSON's, the database's. */
const char *
lab_burnin_result_name(enum lab_burnin_result r)
{
	static const char *const names[] = {
		[LAB_BURNIN_PLANNED] = "planned",
		[LAB_BURNIN_CLEAN] = "clean",
		[LAB_BURNIN_ERRORS] = "errors",
		[LAB_BURNIN_REFUSED] = "refused",
		[LAB_BURNIN_FAILED] = "failed",
	};

	if ((size_t)r >= sizeof(names) / sizeof(names[0]))
		return "failed";
	return names[r];
}
