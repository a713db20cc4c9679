/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts-priv.h"

/*
 * The sections of templates/facts.sh that are "KEY VALUE" lines: a NIC
 * (/sys/class/net/NAME), DMI, NetworkManager; and ip -j addr.
 */

/* Calls fn for each "KEY VALUE" line of body (VALUE may be empty). */
static int
each_line(const char *body, int (*fn)(void *, const char *, const char *),
    void *arg)
{
	const char	*p, *nl;

	for (p = body; p != NULL && *p != '\0'; p = nl != NULL ? nl + 1 : NULL) {
		char	 line[1024], *sp;
		size_t	 len;

		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (len == 0 || len >= sizeof(line))
			continue;
		memcpy(line, p, len);
		line[len] = '\0';
		if ((sp = strchr(line, ' ')) != NULL)
			*sp++ = '\0';
		else
			sp = line + len;
		if (fn(arg, line, sp) == -1)
			return -1;
	}
	return 0;
}

static long
number(const char *s)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0)
		return -1;
	return v;
}

/* "02:FC:00:00:00:01" as lower case; NULL when blank. */
static char *
mac_lower(const char *s)
{
	char	*m = lab_facts_tidy(s), *p;

	for (p = m; p != NULL && *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	return m;
}

struct nic_read {
	struct lab_fact_nic	*n;
	int			 device;
	long			 type;
	int			 oom;
};

static int
set(char **dst, const char *v, struct nic_read *r)
{
	char	*s = lab_facts_tidy(v);

	if (s == NULL && *v != '\0') {
		while (isspace((unsigned char)*v))
			v++;
		if (*v != '\0') {
			r->oom = 1;
			return -1;
		}
	}
	free(*dst);
	*dst = s;
	return 0;
}

static int
nic_line(void *arg, const char *key, const char *v)
{
	struct nic_read		*r = arg;
	struct lab_fact_nic	*n = r->n;

	if (strcmp(key, "mac") == 0 || strcmp(key, "perm_mac") == 0) {
		/* a bond's slave shows the bond's address; perm_mac is its
		   own, and comes after */
		char *m = mac_lower(v);

		if (m == NULL)
			return 0;
		free(n->mac);
		n->mac = m;
	} else if (strcmp(key, "driver") == 0)
		return set(&n->driver, v, r);
	else if (strcmp(key, "product") == 0)
		return set(&n->product, v, r);
	else if (strcmp(key, "master") == 0)
		return set(&n->master, v, r);
	else if (strcmp(key, "kind") == 0)
		return set(&n->kind, v, r);
	else if (strcmp(key, "device") == 0)
		r->device = 1;
	else if (strcmp(key, "type") == 0)
		r->type = number(v);
	else if (strcmp(key, "speed") == 0) {
		long s = number(v);

		/* no link: -1, or 4294967295 from old kernels */
		n->speed_mbps = s > 0 && s < 10000000 ? s : -1;
	} else if (strcmp(key, "duplex") == 0) {
		if (strcmp(v, "full") == 0 || strcmp(v, "half") == 0)
			return set(&n->duplex, v, r);
	} else if (strcmp(key, "carrier") == 0) {
		long c = number(v);

		n->carrier = c == 0 || c == 1 ? (int)c : -1;
	}
	return 0;
}

int
lab_facts_parse_nic(struct lab_host_facts *f, const char *name,
    const char *body, struct lab_err *err)
{
	struct lab_fact_nic	*n;
	struct nic_read		 r;
	const char		*kind = NULL;

	if ((n = lab_push(&f->nics, &f->nnics, sizeof(*n))) == NULL)
		return lab_err_oom(err);
	memset(n, 0, sizeof(*n));
	n->speed_mbps = -1;
	n->carrier = -1;
	if ((n->name = strdup(name)) == NULL) {
		f->nnics--;
		return lab_err_oom(err);
	}
	memset(&r, 0, sizeof(r));
	r.n = n;
	r.type = -1;
	if (each_line(body, nic_line, &r) == -1 || r.oom)
		return lab_err_oom(err);
	if (n->kind == NULL) {
		if (r.type == 772)
			kind = "loopback";
		else if (!r.device)
			kind = "virtual";
		if (kind != NULL && (n->kind = strdup(kind)) == NULL)
			return lab_err_oom(err);
	}
	return 0;
}

static int
dmi_line(void *arg, const char *key, const char *v)
{
	struct lab_fact_dmi	*d = arg;
	char			**dst = NULL;

	if (strcmp(key, "sys_vendor") == 0)
		dst = &d->sys_vendor;
	else if (strcmp(key, "product_name") == 0)
		dst = &d->product_name;
	else if (strcmp(key, "product_serial") == 0)
		dst = &d->product_serial;
	else if (strcmp(key, "bios_vendor") == 0)
		dst = &d->bios_vendor;
	else if (strcmp(key, "bios_version") == 0)
		dst = &d->bios_version;
	else if (strcmp(key, "bios_date") == 0)
		dst = &d->bios_date;
	if (dst == NULL)
		return 0;
	free(*dst);
	*dst = NULL;
	return lab_facts_fill(dst, v);
}

int
lab_facts_parse_dmi(struct lab_host_facts *f, const char *body,
    struct lab_err *err)
{
	if (each_line(body, dmi_line, &f->dmi) == -1)
		return lab_err_oom(err);
	return 0;
}

/* "eth0:connected", "lo:unmanaged", "eth1:connected (externally)";
   nmcli -t writes a ':' of a value as "\:". */
static int
nm_line(void *arg, const char *key, const char *v)
{
	struct lab_fact_nm	*nm = arg;
	const char		*colon = NULL, *p;
	char			 dev[256];
	size_t			 k = 0;

	if (strcmp(key, "running") == 0) {
		long r = number(v);

		nm->running = r == 0 || r == 1 ? (int)r : -1;
		return 0;
	}
	if (strcmp(key, "device") != 0)
		return 0;
	for (p = v; *p != '\0'; p++) {
		if (*p == '\\' && p[1] != '\0') {
			p++;
			continue;
		}
		if (*p == ':')
			colon = p;
	}
	if (colon == NULL || strncmp(colon + 1, "unmanaged", 9) == 0)
		return 0;
	for (p = v; p < colon && k + 1 < sizeof(dev); p++) {
		if (*p == '\\' && p + 1 < colon)
			p++;
		dev[k++] = *p;
	}
	dev[k] = '\0';
	if (k == 0 || lab_strv_find(&nm->managed, dev) >= 0)
		return 0;
	return lab_strv_add(&nm->managed, dev);
}

int
lab_facts_parse_nm(struct lab_host_facts *f, const char *body,
    struct lab_err *err)
{
	if (each_line(body, nm_line, &f->nm) == -1)
		return lab_err_oom(err);
	return 0;
}

static int
one_addr(struct lab_host_facts *f, const char *ifname, struct json_object *a,
    struct lab_err *err)
{
	struct lab_fact_addr	*ad;
	const char		*family = lab_facts_jstr(a, "family");
	const char		*local = lab_facts_jstr(a, "local");
	int64_t			 plen = lab_facts_jint(a, "prefixlen");

	if (family == NULL || local == NULL)
		return 0;
	if ((ad = lab_push(&f->addrs, &f->naddrs, sizeof(*ad))) == NULL)
		return lab_err_oom(err);
	memset(ad, 0, sizeof(*ad));
	ad->prefixlen = plen >= 0 && plen <= 128 ? (int)plen : -1;
	if ((ad->ifname = lab_facts_tidy(ifname)) == NULL ||
	    (ad->family = lab_facts_tidy(family)) == NULL ||
	    (ad->address = lab_facts_tidy(local)) == NULL)
		return lab_err_oom(err);
	return 0;
}

int
lab_facts_parse_ip_addr(struct lab_host_facts *f, const char *json,
    struct lab_err *err)
{
	struct json_object	*o;
	size_t			 i, k, n;
	int			 rc = 0;

	if ((o = lab_facts_json_parse(f, json, "ip -j addr", err)) == NULL)
		return -1;
	if (!json_object_is_type(o, json_type_array)) {
		json_object_put(o);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: ip -j addr "
		    "printed no list of interfaces", f->host != NULL ?
		    f->host : "-");
	}
	n = json_object_array_length(o);
	for (i = 0; i < n && rc == 0; i++) {
		struct json_object	*ifc = json_object_array_get_idx(o, i);
		struct json_object	*ai;
		const char		*ifname = lab_facts_jstr(ifc, "ifname");

		if (ifname == NULL || !json_object_object_get_ex(ifc,
		    "addr_info", &ai) || !json_object_is_type(ai,
		    json_type_array))
			continue;
		for (k = 0; k < json_object_array_length(ai) && rc == 0; k++)
			rc = one_addr(f, ifname,
			    json_object_array_get_idx(ai, k), err);
	}
	json_object_put(o);
	return rc;
}
