/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The VLAN interfaces of a host's tagged NICs (tagged: true in the
 * inventory, rules in include/lab/vlan.h): the host tags every VLAN of
 * the NIC's wish but the native one, on a NIC.V interface, or on
 * BOND.V when the NIC is a bond member. bond.c renders them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/str.h"
#include "plan-priv.h"

#define MAXIFNAME	15	/* IFNAMSIZ - 1 */

static int
cmp_ul(const void *a, const void *b)
{
	unsigned long	x = *(const unsigned long *)a;
	unsigned long	y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static unsigned long
native_of(const struct lab_vlan_want *w)
{
	return w->native ? w->native : 1;
}

/*
 * The VLANs the host tags for w, sorted and unique, into ids (room for
 * w->ntrunk + 1); 0 when w has no tagged wish.
 */
static size_t
tagged_ids(const struct lab_vlan_want *w, unsigned long *ids)
{
	unsigned long	 nat = native_of(w);
	size_t		 i, n = 0;

	if (!w->set || !w->tagged)
		return 0;
	if (w->ntrunk == 0) {
		if (w->access != 0 && w->access != nat)
			ids[n++] = w->access;
		return n;
	}
	for (i = 0; i < w->ntrunk; i++)
		if (w->trunk[i] != nat)
			ids[n++] = w->trunk[i];
	qsort(ids, n, sizeof(*ids), cmp_ul);
	for (i = 1; n > 0 && i < n; i++)
		if (ids[i] == ids[i - 1]) {
			memmove(&ids[i], &ids[i + 1], (n - i - 1) *
			    sizeof(*ids));
			n--;
			i--;
		}
	return n;
}

/* w as the inventory says it ("vlans: [10, 20], native: 1, tagged"). */
static void
describe(const struct lab_vlan_want *w, unsigned long *ids,
    struct lab_buf *out)
{
	size_t	i, n;

	if (!w->set) {
		lab_buf_addf(out, "no VLAN");
		return;
	}
	if (w->ntrunk == 0) {
		lab_buf_addf(out, "vlan: %lu", w->access);
	} else {
		for (i = 0; i < w->ntrunk; i++)
			ids[i] = w->trunk[i];
		n = w->ntrunk;
		qsort(ids, n, sizeof(*ids), cmp_ul);
		lab_buf_addf(out, "vlans: [");
		for (i = 0; i < n; i++)
			if (i == 0 || ids[i] != ids[i - 1])
				lab_buf_addf(out, "%s%lu", i ? ", " : "",
				    ids[i]);
		lab_buf_addf(out, "], native: %lu", native_of(w));
	}
	lab_buf_addf(out, "%s", w->tagged ? ", tagged" : "");
}

static const struct lab_loc *
loc_of(const struct lab_nic *nic)
{
	return nic->vlan.set && nic->vlan.loc.file != NULL ? &nic->vlan.loc :
	    &nic->loc;
}

static int
check_ids(const struct lab_nic *nic, struct lab_err *err)
{
	const struct lab_vlan_want	*w = &nic->vlan;
	const struct lab_loc		*l = loc_of(nic);
	size_t				 i;

	if (!w->set)
		return 0;
	for (i = 0; i <= w->ntrunk; i++) {
		unsigned long id = i < w->ntrunk ? w->trunk[i] : w->ntrunk ?
		    native_of(w) : w->access;

		if (id < 1 || id > 4094)
			return lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: NIC "
			    "'%s': VLAN %lu is not in 1..4094", l->file,
			    l->line, l->col, nic->name, id);
	}
	return 0;
}

/* Two members of one bond must ask for the same VLANs. */
static int
same_wish(const struct lab_nic *a, const struct lab_nic *b,
    struct lab_err *err)
{
	const struct lab_loc	*l = loc_of(b);
	unsigned long		*ids;
	struct lab_buf		 da, db;
	size_t			 max;
	int			 rc = 0;

	max = (a->vlan.ntrunk > b->vlan.ntrunk ? a->vlan.ntrunk :
	    b->vlan.ntrunk) + 1;
	if ((ids = calloc(max, sizeof(*ids))) == NULL)
		return lab_err_oom(err);
	lab_buf_init(&da);
	lab_buf_init(&db);
	describe(&a->vlan, ids, &da);
	describe(&b->vlan, ids, &db);
	if (da.oom || db.oom)
		rc = lab_err_oom(err);
	else if (strcmp(da.s, db.s) != 0)
		rc = lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: NIC '%s' "
		    "wants %s, but '%s', in the same bond, wants %s: the NICs "
		    "of one bond carry the same VLANs", l->file, l->line,
		    l->col, b->name, db.s, a->name, da.s);
	lab_buf_release(&da);
	lab_buf_release(&db);
	free(ids);
	return rc;
}

static int
add_links(const struct lab_nic *nic, const char *parent, int on_bond,
    struct lab_vlan_link **v, size_t *n, struct lab_err *err)
{
	const struct lab_loc	*l = &nic->loc;
	struct lab_vlan_link	*nv;
	unsigned long		*ids;
	size_t			 i, k;
	int			 len;

	if (check_ids(nic, err) == -1)
		return -1;
	if ((ids = calloc(nic->vlan.ntrunk + 1, sizeof(*ids))) == NULL)
		return lab_err_oom(err);
	k = tagged_ids(&nic->vlan, ids);
	if (k > 0 && (nv = realloc(*v, (*n + k) * sizeof(**v))) == NULL) {
		free(ids);
		return lab_err_oom(err);
	} else if (k > 0)
		*v = nv;
	for (i = 0; i < k; i++) {
		struct lab_vlan_link *lk = &(*v)[*n];

		memset(lk, 0, sizeof(*lk));
		len = snprintf(lk->name, sizeof(lk->name), "%s.%lu", parent,
		    ids[i]);
		if (len < 0 || len > MAXIFNAME) {
			lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: NIC '%s': "
			    "the VLAN interface %s.%lu would have a name of %d "
			    "characters; Linux allows %d (IFNAMSIZ-1)", l->file,
			    l->line, l->col, nic->name, parent, ids[i], len,
			    MAXIFNAME);
			free(ids);
			return -1;
		}
		snprintf(lk->parent, sizeof(lk->parent), "%s", parent);
		lk->id = ids[i];
		lk->on_bond = on_bond;
		lk->nic = nic;
		(*n)++;
	}
	free(ids);
	return 0;
}

int
lab_vlan_links(const struct lab_host *h, const struct lab_nic *const *members,
    size_t n, const char *bond, struct lab_vlan_link **ret, size_t *nret,
    struct lab_err *err)
{
	struct lab_vlan_link	*v = NULL;
	size_t			 i, j, nv = 0;

	*ret = NULL;
	*nret = 0;
	for (i = 1; i < n; i++)
		if (same_wish(members[0], members[i], err) == -1)
			return -1;
	if (n > 0 && add_links(members[0], bond, 1, &v, &nv, err) == -1)
		goto fail;
	for (i = 0; i < h->nnics; i++) {
		for (j = 0; j < n; j++)
			if (members[j] == &h->nics[i])
				break;
		if (j == n && add_links(&h->nics[i], h->nics[i].name, 0, &v,
		    &nv, err) == -1)
			goto fail;
	}
	*ret = v;
	*nret = nv;
	return 0;
fail:
	free(v);
	return -1;
}
