/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>

#include "lab/switch.h"

/*
 * The workflow of lab switch discover and of a report's collect: discover
 * the switches, map each answer to inventory NICs against the links seen
 * before, and store it.
 */
int
lab_switch_collect(const struct lab_ctx *ctx, struct lab_db *db,
    const struct lab_inventory *inv, const struct lab_strv *names,
    const struct lab_creds *creds, const struct lab_switch_req *req,
    int64_t now, struct lab_switch_collected *ret, struct lab_err *err)
{
	struct lab_links_seen	 seen = { NULL, 0 };
	struct lab_known_issues	 kis;
	struct lab_switch_view	*v;
	size_t			 i;

	ret->views = NULL;
	ret->links = NULL;
	ret->findings = NULL;
	ret->n = 0;
	/* what the facts are matched against: req's, else the effective */
	lab_known_issues_init(&kis);
	if (lab_db_links_seen(db, NULL, &seen, err) == -1)
		return -1;
	if ((req->known == NULL &&
	    lab_known_issues_effective(db, &kis, err) == -1) ||
	    lab_switch_discover(ctx, inv, names, creds, req, &v, err) == -1) {
		lab_known_issues_release(&kis);
		lab_links_seen_release(&seen);
		return -1;
	}
	ret->views = v;
	ret->n = names->n;
	if ((ret->links = calloc(names->n + 1, sizeof(*ret->links))) == NULL ||
	    (ret->findings = calloc(names->n + 1,
	    sizeof(*ret->findings))) == NULL) {
		lab_switch_collected_release(ret);
		lab_known_issues_release(&kis);
		lab_links_seen_release(&seen);
		return lab_err_oom(err);
	}
	for (i = 0; i < names->n; i++)
		/* nothing of a failed walk is kept: the last one stays */
		if (v[i].ok && (lab_switch_analyse(inv, &v[i], &seen,
		    &ret->links[i], &ret->findings[i], &v[i].err) == -1 ||
		    lab_db_switch_store(db, &v[i], &ret->links[i],
		    &ret->findings[i], now, &v[i].err) == -1))
			v[i].ok = 0;
		else if (v[i].ok)
			/* its facts: a failure is a note, not a failed switch */
			lab_switch_facts_record(db, lab_inventory_switch(inv,
			    v[i].name), req->known != NULL ? req->known : &kis,
			    &v[i], now);
	lab_known_issues_release(&kis);
	lab_links_seen_release(&seen);
	return 0;
}

/* Frees what lab_switch_collect filled. */
void
lab_switch_collected_release(struct lab_switch_collected *c)
{
	size_t	i;

	for (i = 0; i < c->n; i++) {
		if (c->links != NULL)
			lab_links_release(&c->links[i]);
		if (c->findings != NULL)
			lab_findings_release(&c->findings[i]);
	}
	free(c->links);
	free(c->findings);
	lab_switch_views_free(c->views, c->n);
	c->views = NULL;
	c->links = NULL;
	c->findings = NULL;
	c->n = 0;
}
