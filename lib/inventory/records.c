/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/switch.h"

/*
 * Freeing the records that both the switch analysis (lib/links.c) and
 * the database (lib/db/switch.c) fill: links, findings, the links of an
 * earlier discovery.
 */

/* Frees links. */
void
lab_links_release(struct lab_links *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].host);
		free(l->v[i].nic);
		free(l->v[i].switch_name);
		free(l->v[i].port);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Frees findings. */
void
lab_findings_release(struct lab_findings *f)
{
	size_t	i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].subject);
		free(f->v[i].message);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* Frees the links of an earlier discovery. */
void
lab_links_seen_release(struct lab_links_seen *s)
{
	size_t	i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].host);
		free(s->v[i].nic);
		free(s->v[i].switch_name);
		free(s->v[i].port);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}
