/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/switch.h"
#include "lab.h"
#include "switch.h"

/* A switch's version, chassis and stack, and known issues (issue 20). */
void
cmd_switch_facts_print(const struct lab_switch_facts *sf, const char *indent)
{
	const struct lab_entity	*e;
	size_t			 i;

	if (sf->version != NULL)
		printf("%sversion  %s\n", indent, cmd_vis(sf->version));
	for (i = 0; i < sf->nents; i++) {
		e = &sf->ents[i];
		/* modules say little: the chassis and stack carry the revisions */
		if (strcmp(e->class_name, "module") == 0 && e->serial == NULL &&
		    e->software_rev == NULL)
			continue;
		printf("%s%-8s %ld %s", indent, e->class_name, e->index,
		    cmd_vis(e->name != NULL ? e->name : e->descr != NULL ?
		    e->descr : "-"));
		if (e->model != NULL)
			printf(" (%s)", cmd_vis(e->model));
		if (e->serial != NULL)
			printf(", serial %s", cmd_vis(e->serial));
		if (e->hardware_rev != NULL)
			printf(", hardware %s", cmd_vis(e->hardware_rev));
		if (e->firmware_rev != NULL)
			printf(", firmware %s", cmd_vis(e->firmware_rev));
		if (e->software_rev != NULL)
			printf(", software %s", cmd_vis(e->software_rev));
		printf("\n");
	}
	for (i = 0; i < sf->findings.n; i++)
		printf("%s%-8s %s: %s\n", indent, sf->findings.v[i].severity,
		    cmd_vis(sf->findings.v[i].subject),
		    cmd_vis(sf->findings.v[i].message));
}
