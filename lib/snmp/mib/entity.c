/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ENTITY-MIB entPhysicalTable: what a switch says it is made of (the
 * chassis of each stack member, its modules, the stack), with serials and
 * hardware, firmware and software revisions; and the version in sysDescr.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lab/facts.h"
#include "lab/mib.h"

#include "mib-priv.h"

/* entPhysicalEntry: index entPhysicalIndex (1..2147483647). */
static const unsigned long ent_oid[] = { 1, 3, 6, 1, 2, 1, 47, 1, 1, 1, 1 };
static const unsigned long sysdescr_oid[] = { 1, 3, 6, 1, 2, 1, 1 };

#define ENT_DESCR	2
#define ENT_CLASS	5
#define ENT_NAME	7
#define ENT_HARDWARE	8
#define ENT_FIRMWARE	9
#define ENT_SOFTWARE	10
#define ENT_SERIAL	11
#define ENT_MODEL	13

/* PhysicalClass: only these matter for what a switch runs. */
static const char *
class_name(long long c)
{
	switch (c) {
	case 3:
		return "chassis";
	case 9:
		return "module";
	case 11:
		return "stack";
	default:
		return NULL;
	}
}

static int
entrow(const struct lab_varbind *vb, unsigned long *col, unsigned long *index)
{
	const unsigned long	*idx;
	size_t			 idx_len;

	if (!lab_mib_column(vb, ent_oid, MIB_LEN(ent_oid), col, &idx,
	    &idx_len) || idx_len != 1 || idx[0] == 0 || idx[0] > 2147483647UL)
		return 0;
	*index = idx[0];
	return 1;
}

/* The text slot of column col in e, or NULL for a column not kept. */
static char **
slot(struct lab_entity *e, unsigned long col)
{
	switch (col) {
	case ENT_DESCR:
		return &e->descr;
	case ENT_NAME:
		return &e->name;
	case ENT_HARDWARE:
		return &e->hardware_rev;
	case ENT_FIRMWARE:
		return &e->firmware_rev;
	case ENT_SOFTWARE:
		return &e->software_rev;
	case ENT_SERIAL:
		return &e->serial;
	case ENT_MODEL:
		return &e->model;
	default:
		return NULL;
	}
}

/* Sets *to a copy of vb's text, NULL when empty; -1 out of memory. */
static int
text(char **to, const struct lab_varbind *vb, struct lab_err *err)
{
	char	*s;

	if (vb->type != LAB_SNMP_OCTETS)
		return 0;
	if ((s = lab_mib_text(vb)) == NULL)
		return lab_err_oom(err);
	if (*s == '\0') {
		free(s);
		s = NULL;
	}
	/* a duplicate row: the last one wins */
	free(*to);
	*to = s;
	return 0;
}

/* 1 when the row names something: an empty stack slot names nothing. */
static int
named(const struct lab_entity *e)
{
	return e->descr != NULL || e->name != NULL || e->model != NULL ||
	    e->serial != NULL || e->hardware_rev != NULL ||
	    e->firmware_rev != NULL || e->software_rev != NULL;
}

static void
entity_free(struct lab_entity *e)
{
	free(e->class_name);
	free(e->descr);
	free(e->name);
	free(e->model);
	free(e->serial);
	free(e->hardware_rev);
	free(e->firmware_rev);
	free(e->software_rev);
	memset(e, 0, sizeof(*e));
}

/* The version: sysDescr's, else the first chassis's software revision. */
static int
version(struct lab_switch_facts *sf, const struct lab_varbind *vbs, size_t n,
    struct lab_err *err)
{
	const unsigned long	*idx;
	unsigned long		 col;
	size_t			 i, idx_len;
	char			*d, buf[128];
	int			 found = 0;

	for (i = 0; i < n; i++) {
		if (!lab_mib_column(&vbs[i], sysdescr_oid,
		    MIB_LEN(sysdescr_oid), &col, &idx, &idx_len) ||
		    col != 1 || idx_len != 1 || idx[0] != 0 ||
		    vbs[i].type != LAB_SNMP_OCTETS)
			continue;
		if ((d = lab_mib_text(&vbs[i])) == NULL)
			return lab_err_oom(err);
		found = lab_mib_sysdescr_version(d, buf, sizeof(buf));
		free(d);
	}
	if (found)
		return (sf->version = strdup(buf)) == NULL ? lab_err_oom(err) : 0;
	for (i = 0; i < sf->nents; i++)
		if (strcmp(sf->ents[i].class_name, "chassis") == 0 &&
		    sf->ents[i].software_rev != NULL)
			return (sf->version = strdup(sf->ents[i].software_rev)) ==
			    NULL ? lab_err_oom(err) : 0;
	return 0;
}

static int
ulong_cmp(const void *a, const void *b)
{
	unsigned long	x = *(const unsigned long *)a;
	unsigned long	y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/* The rows of entPhysicalClass that discovery reads further. */
size_t
lab_mib_entity_indexes(const struct lab_varbind *vbs, size_t n,
    unsigned long *out, size_t max)
{
	unsigned long	col, index;
	size_t		i, k = 0, j;
	long long	c;

	for (i = 0; i < n; i++) {
		if (!entrow(&vbs[i], &col, &index) || col != ENT_CLASS ||
		    lab_mib_int(&vbs[i], 1, 2147483647LL, &c) == -1 ||
		    class_name(c) == NULL)
			continue;
		for (j = 0; j < k && out[j] != index; j++)
			;
		if (j < k)
			continue;
		if (k < max)
			out[k++] = index;
		else {
			/* full: keep the lowest indexes */
			qsort(out, k, sizeof(*out), ulong_cmp);
			if (k > 0 && index < out[k - 1])
				out[k - 1] = index;
		}
	}
	qsort(out, k, sizeof(*out), ulong_cmp);
	return k;
}

/* Decodes the chassis, modules and stacks of entPhysicalTable. */
int
lab_mib_entity(const struct lab_varbind *vbs, size_t n,
    struct lab_switch_facts *out, struct lab_err *err)
{
	struct lab_switch_facts	 sf;
	struct mib_keys		 keys;
	struct lab_entity	*e;
	const char		*cn;
	unsigned long		 col, index;
	size_t			 i, k;
	long			 at;
	long long		 c;
	char			**to;

	memset(&sf, 0, sizeof(sf));
	memset(&keys, 0, sizeof(keys));
	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++)
		if (entrow(&vbs[i], &col, &index) && col == ENT_CLASS &&
		    lab_mib_int(&vbs[i], 1, 2147483647LL, &c) == 0 &&
		    class_name(c) != NULL &&
		    lab_mib_keys_add(&keys, &index, 1, err) == -1)
			goto fail;
	lab_mib_keys_sort(&keys);
	if (keys.n > 0 &&
	    (sf.ents = lab_mib_calloc(keys.n, sizeof(*sf.ents), err)) == NULL)
		goto fail;
	sf.nents = keys.n;
	for (i = 0; i < sf.nents; i++)
		sf.ents[i].index = (long)keys.v[i][0];
	for (i = 0; sf.ents != NULL && i < n; i++) {
		if (!entrow(&vbs[i], &col, &index) ||
		    (at = lab_mib_keys_find(&keys, &index, 1)) < 0)
			continue;
		e = &sf.ents[at];
		if (col == ENT_CLASS) {
			if (lab_mib_int(&vbs[i], 1, 2147483647LL, &c) == 0 &&
			    (cn = class_name(c)) != NULL) {
				free(e->class_name);
				if ((e->class_name = strdup(cn)) == NULL) {
					lab_err_oom(err);
					goto fail;
				}
			}
		} else if ((to = slot(e, col)) != NULL &&
		    text(to, &vbs[i], err) == -1)
			goto fail;
	}
	/* keep the rows that name something, in index order */
	for (i = k = 0; i < sf.nents; i++) {
		if (sf.ents[i].class_name == NULL || !named(&sf.ents[i])) {
			entity_free(&sf.ents[i]);
			continue;
		}
		if (k != i) {
			sf.ents[k] = sf.ents[i];
			memset(&sf.ents[i], 0, sizeof(sf.ents[i]));
		}
		k++;
	}
	sf.nents = k;
	if (version(&sf, vbs, n, err) == -1)
		goto fail;
	lab_mib_keys_release(&keys);
	*out = sf;
	return 0;
fail:
	lab_mib_keys_release(&keys);
	lab_switch_facts_release(&sf);
	return -1;
}

/* The token after "Version" in a sysDescr. */
int
lab_mib_sysdescr_version(const char *descr, char *buf, size_t len)
{
	const char	*p, *q;
	size_t		 n;

	if (len > 0)
		buf[0] = '\0';
	if (descr == NULL)
		return 0;
	for (p = descr; *p != '\0'; p++) {
		if (strncasecmp(p, "version", 7) != 0 ||
		    (p > descr && isalnum((unsigned char)p[-1])))
			continue;
		q = p + 7;
		if (*q == ':')
			q++;
		if (*q != ' ')
			continue;
		while (*q == ' ')
			q++;
		if (!isdigit((unsigned char)*q))
			continue;
		for (n = 0; q[n] != '\0' && q[n] != ',' &&
		    !isspace((unsigned char)q[n]); n++)
			;
		if (n + 1 > len)
			return 0;
		memcpy(buf, q, n);
		buf[n] = '\0';
		return 1;
	}
	return 0;
}
