/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A switch's facts at lab switch discover (issue 20): the chassis,
 * modules and stack of its ENTITY-MIB and the version in its sysDescr,
 * matched against the known issues and stored as facts of kind "switch".
 */
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/switch.h"

/* The text columns of an entity, as fact keys entity.INDEX.KEY. */
#define ENT_KEYS	8

static const char *const ent_keys[ENT_KEYS] = {
	"class", "descr", "firmware_rev", "hardware_rev", "model", "name",
	"serial", "software_rev",
};

static char **
ent_slot(struct lab_entity *e, size_t k)
{
	char	**v[ENT_KEYS] = { &e->class_name, &e->descr, &e->firmware_rev,
		    &e->hardware_rev, &e->model, &e->name, &e->serial,
		    &e->software_rev };

	return v[k];
}

static int
kv_add(struct lab_fact_kv **kv, size_t *n, char *key, const char *value)
{
	struct lab_fact_kv	*p;

	if (key == NULL)
		return -1;
	if ((p = lab_push(kv, n, sizeof(*p))) == NULL) {
		free(key);
		return -1;
	}
	p->key = key;
	if ((p->value = strdup(value)) == NULL)
		return -1;
	return 0;
}

/* Two texts equal, NULL equal only to NULL. */
static int
same(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

static int
kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct lab_fact_kv *)a)->key,
	    ((const struct lab_fact_kv *)b)->key);
}

/* sf as sorted facts: version, entity.INDEX.{class,serial,...}. */
int
lab_switch_facts_flatten(const struct lab_switch_facts *sf,
    struct lab_fact_kv **ret, size_t *n, struct lab_err *err)
{
	struct lab_fact_kv	*kv = NULL;
	struct lab_entity	*e;
	size_t			 nkv = 0, i, k;
	const char		*v;

	*ret = NULL;
	*n = 0;
	if (sf->version != NULL &&
	    kv_add(&kv, &nkv, strdup("version"), sf->version) == -1)
		goto oom;
	for (i = 0; i < sf->nents; i++) {
		e = &sf->ents[i];
		for (k = 0; k < ENT_KEYS; k++)
			if ((v = *ent_slot(e, k)) != NULL &&
			    kv_add(&kv, &nkv, lab_asprintf("entity.%ld.%s",
			    e->index, ent_keys[k]), v) == -1)
				goto oom;
	}
	if (nkv > 0)
		qsort(kv, nkv, sizeof(*kv), kv_cmp);
	*ret = kv;
	*n = nkv;
	return 0;
oom:
	lab_fact_kvs_free(kv, nkv);
	return lab_err_oom(err);
}

/* The entity of index in sf, added (sorted by index) when new. */
static struct lab_entity *
entity_of(struct lab_switch_facts *sf, long index)
{
	struct lab_entity	*e;
	size_t			 i;

	for (i = 0; i < sf->nents; i++)
		if (sf->ents[i].index == index)
			return &sf->ents[i];
	if ((e = lab_push(&sf->ents, &sf->nents, sizeof(*e))) == NULL)
		return NULL;
	memset(e, 0, sizeof(*e));
	e->index = index;
	return e;
}

static int
ent_cmp(const void *a, const void *b)
{
	long	x = ((const struct lab_entity *)a)->index;
	long	y = ((const struct lab_entity *)b)->index;

	return (x > y) - (x < y);
}

/* The facts stored by lab_switch_facts_flatten, back (unknown keys skipped). */
int
lab_switch_facts_unflatten(const struct lab_fact_kv *kv, size_t n,
    struct lab_switch_facts *sf, struct lab_err *err)
{
	struct lab_entity	*e;
	const char		*p;
	char			*end, **to;
	size_t			 i, k;
	long			 index;

	memset(sf, 0, sizeof(*sf));
	for (i = 0; i < n; i++) {
		to = NULL;
		if (strcmp(kv[i].key, "version") == 0)
			to = &sf->version;
		else if (strncmp(kv[i].key, "entity.", 7) == 0) {
			index = strtol(kv[i].key + 7, &end, 10);
			if (end == kv[i].key + 7 || *end != '.' || index <= 0)
				continue;
			p = end + 1;
			for (k = 0; k < ENT_KEYS; k++)
				if (strcmp(p, ent_keys[k]) == 0)
					break;
			if (k == ENT_KEYS)
				continue;
			if ((e = entity_of(sf, index)) == NULL)
				goto oom;
			to = ent_slot(e, k);
		}
		if (to == NULL)
			continue;
		free(*to);
		if ((*to = strdup(kv[i].value)) == NULL)
			goto oom;
	}
	if (sf->nents > 0)
		qsort(sf->ents, sf->nents, sizeof(*sf->ents), ent_cmp);
	return 0;
oom:
	lab_switch_facts_release(sf);
	return lab_err_oom(err);
}

/*
 * Known issues: each chassis's model and software revision (a stack
 * member's is its own), once for each distinct pair; a switch without
 * ENTITY-MIB is checked with the version of its sysDescr alone.
 */
int
lab_switch_facts_check(const struct lab_switch *sw,
    const struct lab_known_issues *kis, struct lab_switch_facts *sf,
    struct lab_err *err)
{
	struct lab_component	 c;
	const struct lab_entity	*e;
	size_t			 i, j, nchassis = 0;
	char			*subject;
	int			 rc, seen;

	if (kis == NULL || kis->n == 0)
		return 0;
	for (i = 0; i < sf->nents; i++) {
		e = &sf->ents[i];
		if (strcmp(e->class_name, "chassis") != 0)
			continue;
		nchassis++;
		for (seen = 0, j = 0; j < i && !seen; j++)
			seen = strcmp(sf->ents[j].class_name, "chassis") == 0 &&
			    same(sf->ents[j].model, e->model) &&
			    same(sf->ents[j].software_rev,
			    e->software_rev);
		if (seen)
			continue;
		memset(&c, 0, sizeof(c));
		c.model = sw->model;
		c.component = "switch";
		c.product = e->model;
		c.firmware = e->software_rev != NULL ? e->software_rev :
		    sf->version;
		if (c.firmware == NULL)
			continue;
		if ((subject = lab_asprintf("%s %s", sw->name, e->name != NULL ?
		    e->name : e->model != NULL ? e->model : "chassis")) == NULL)
			return lab_err_oom(err);
		rc = lab_known_issues_check(kis, &c, subject, &sf->findings,
		    err);
		free(subject);
		if (rc == -1)
			return -1;
	}
	if (nchassis == 0 && sf->version != NULL) {
		memset(&c, 0, sizeof(c));
		c.model = sw->model;
		c.component = "switch";
		c.firmware = sf->version;
		if (lab_known_issues_check(kis, &c, sw->name, &sf->findings,
		    err) == -1)
			return -1;
	}
	lab_fact_findings_sort(&sf->findings);
	return 0;
}

/*
 * The facts of a view that discovery got: matched against kis and
 * stored. A failure here is not the discovery's: it is v->facts_note.
 */
void
lab_switch_facts_record(struct lab_db *db, const struct lab_switch *sw,
    const struct lab_known_issues *kis, struct lab_switch_view *v,
    int64_t now)
{
	struct lab_fact_kv	*kv = NULL;
	struct lab_err		 err;
	size_t			 n = 0;
	char			*note;

	lab_err_init(&err);
	free(v->facts.switch_name);
	if ((v->facts.switch_name = strdup(v->name)) == NULL)
		return;	/* the note would not fit either */
	if ((sw != NULL && lab_switch_facts_check(sw, kis, &v->facts,
	    &err) == -1) ||
	    lab_switch_facts_flatten(&v->facts, &kv, &n, &err) == -1 ||
	    lab_db_facts_put(db, "switch", v->name, kv, n, &v->facts.findings,
	    now, &err) == -1) {
		note = lab_asprintf("%s%sfacts not stored: %s",
		    v->facts_note != NULL ? v->facts_note : "",
		    v->facts_note != NULL ? "; " : "", err.msg);
		free(v->facts_note);
		v->facts_note = note;
	}
	lab_fact_kvs_free(kv, n);
}

/* The facts and findings lab switch discover stored last (lab show). */
int
lab_switch_facts_load(struct lab_db *db, const char *name,
    struct lab_switch_facts *sf, struct lab_err *err)
{
	struct lab_stored_finding	*sv = NULL;
	struct lab_fact_kv		*kv = NULL;
	size_t				 n = 0, ns = 0, i;
	int				 rc;

	memset(sf, 0, sizeof(*sf));
	if (lab_db_facts_get(db, "switch", name, &kv, &n, err) == -1)
		return -1;
	rc = lab_switch_facts_unflatten(kv, n, sf, err);
	lab_fact_kvs_free(kv, n);
	if (rc == -1)
		return -1;
	if ((sf->switch_name = strdup(name)) == NULL ||
	    lab_db_fact_findings(db, name, &sv, &ns, err) == -1)
		goto fail;
	for (i = 0; i < ns; i++)
		if (strcmp(sv[i].kind, "switch") == 0 &&
		    lab_fact_findings_add(&sf->findings, sv[i].f.severity,
		    sv[i].f.kind, sv[i].f.subject, "%s", sv[i].f.message) == -1) {
			lab_err_oom(err);
			goto fail;
		}
	lab_stored_findings_free(sv, ns);
	return 0;
fail:
	if (err->msg[0] == '\0')
		lab_err_oom(err);
	lab_stored_findings_free(sv, ns);
	lab_switch_facts_release(sf);
	return -1;
}
