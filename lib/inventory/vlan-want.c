/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A VLAN wish compared, joined and parsed (include/lab/inventory.h). */
#include <stdlib.h>
#include <string.h>

#include "lab/inventory.h"
#include "lab/str.h"

static int
streq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

int
lab_vlan_want_eq(const struct lab_vlan_want *a, const struct lab_vlan_want *b)
{
	size_t	i;

	if (a->set != b->set || a->access != b->access ||
	    a->ntrunk != b->ntrunk || a->native != b->native ||
	    a->tagged != b->tagged)
		return 0;
	for (i = 0; i < a->ntrunk; i++)
		if (a->trunk[i] != b->trunk[i])
			return 0;
	return 1;
}

int
lab_switch_vlans_eq(const struct lab_switch *a, const struct lab_switch *b)
{
	size_t	i;

	if (a->nvlans != b->nvlans || a->nports != b->nports ||
	    a->management_vlan != b->management_vlan ||
	    a->uplinks.n != b->uplinks.n)
		return 0;
	for (i = 0; i < a->nvlans; i++)
		if (a->vlans[i].id != b->vlans[i].id ||
		    !streq(a->vlans[i].name, b->vlans[i].name))
			return 0;
	for (i = 0; i < a->nports; i++)
		if (!streq(a->ports[i].port, b->ports[i].port) ||
		    !streq(a->ports[i].description, b->ports[i].description) ||
		    !lab_vlan_want_eq(&a->ports[i].vlan, &b->ports[i].vlan))
			return 0;
	for (i = 0; i < a->uplinks.n; i++)
		if (!streq(a->uplinks.v[i], b->uplinks.v[i]))
			return 0;
	return 1;
}

char *
lab_vlan_list_join(const struct lab_vlan_want *w, const char *sep)
{
	struct lab_buf	b;
	size_t		i;

	lab_buf_init(&b);
	lab_buf_adds(&b, "");
	for (i = 0; i < w->ntrunk; i++)
		lab_buf_addf(&b, "%s%lu", i ? sep : "", w->trunk[i]);
	return lab_buf_steal(&b);
}

/* The ids of s into w->trunk (room for n), skipping bad ones. */
static void
parse_into(const char *s, size_t n, struct lab_vlan_want *w)
{
	const char	*p;
	char		*end;
	unsigned long	 v;

	for (p = s; *p != '\0';) {
		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		v = strtoul(p, &end, 10);
		p = end;
		if (v >= 1 && v <= 4094 && w->ntrunk < n)
			w->trunk[w->ntrunk++] = v;
	}
}

/* The most ids s can hold. */
static size_t
count_ids(const char *s)
{
	size_t	n = 1;

	for (; *s != '\0'; s++)
		if (*s == ' ' || *s == ',')
			n++;
	return n;
}

int
lab_vlan_list_parse(struct lab_pool *pool, const char *s,
    struct lab_vlan_want *w)
{
	size_t	n;

	w->trunk = NULL;
	w->ntrunk = 0;
	if (s == NULL)
		return 0;
	n = count_ids(s);
	if ((w->trunk = lab_pool_alloc(pool, n * sizeof(*w->trunk))) == NULL)
		return -1;
	parse_into(s, n, w);
	return 0;
}

int
lab_vlan_list_parse_alloc(const char *s, struct lab_vlan_want *w)
{
	size_t	n;

	w->trunk = NULL;
	w->ntrunk = 0;
	if (s == NULL)
		return 0;
	n = count_ids(s);
	if ((w->trunk = calloc(n, sizeof(*w->trunk))) == NULL)
		return -1;
	parse_into(s, n, w);
	return 0;
}

char *
lab_vlan_want_text(const struct lab_vlan_want *w)
{
	struct lab_buf	 b;
	char		*list;

	lab_buf_init(&b);
	lab_buf_adds(&b, "");
	if (w->set && w->ntrunk == 0)
		lab_buf_addf(&b, "vlan %lu", w->access);
	else if (w->set) {
		if ((list = lab_vlan_list_join(w, ",")) == NULL) {
			lab_buf_release(&b);
			return NULL;
		}
		lab_buf_addf(&b, "vlans %s native %lu", list,
		    w->native ? w->native : 1);
		free(list);
	}
	if (w->set && w->tagged)
		lab_buf_adds(&b, " (tagged by the host)");
	return lab_buf_steal(&b);
}

void
lab_vlan_want_cell(const struct lab_vlan_want *w, struct lab_buf *b)
{
	size_t	i;

	if (!w->set)
		return;
	if (w->ntrunk == 0)
		lab_buf_addf(b, "%lu", w->access);
	else {
		for (i = 0; i < w->ntrunk; i++)
			lab_buf_addf(b, "%s%lu", i ? "," : "", w->trunk[i]);
		lab_buf_addf(b, " native %lu", w->native ? w->native : 1);
	}
	if (w->tagged)
		lab_buf_adds(b, " tagged");
}
