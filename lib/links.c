/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/switch.h"

/* A port with more MACs than this is an uplink, not one host's NIC. */
#define UPLINK_MACS	3
/* The speed a host's port is expected to run at: every NIC here is gigabit. */
#define EXPECTED_MBPS	1000

struct nicref {
	const char	*mac;
	const char	*host;
	const char	*nic;
};

static int
cmp_nicref(const void *a, const void *b)
{
	return strcmp(((const struct nicref *)a)->mac,
	    ((const struct nicref *)b)->mac);
}

static int
add_finding(struct lab_findings *f, const char *severity, const char *kind,
    char *subject, char *message)
{
	struct lab_finding	*v;

	if (subject == NULL || message == NULL ||
	    (v = realloc(f->v, (f->n + 1) * sizeof(*v))) == NULL) {
		free(subject);
		free(message);
		return -1;
	}
	f->v = v;
	f->v[f->n++] = (struct lab_finding){ severity, kind, subject, message };
	return 0;
}

static int
add_link(struct lab_links *l, const struct nicref *r, const char *sw,
    const struct lab_snmp_port *p, unsigned long ifindex)
{
	struct lab_link	*v;

	if ((v = realloc(l->v, (l->n + 1) * sizeof(*v))) == NULL)
		return -1;
	l->v = v;
	v = &l->v[l->n];
	memset(v, 0, sizeof(*v));
	snprintf(v->mac, sizeof(v->mac), "%s", r->mac);
	v->host = strdup(r->host);
	v->nic = strdup(r->nic);
	v->switch_name = strdup(sw);
	v->port = p != NULL ? strdup(p->name) : lab_asprintf("%lu", ifindex);
	v->ifindex = ifindex;
	v->source = "fdb";
	l->n++;
	if (v->host == NULL || v->nic == NULL || v->switch_name == NULL ||
	    v->port == NULL)
		return -1;
	return 0;
}

/* A neighbour that looks like a switch (not an AP or a hypervisor). */
static int
switch_like(const struct lab_snmp_neighbor *n)
{
	static const char *const words[] = { "ws-c", "sg", "switch",
		"catalyst", "nexus", "procurve", "edgeswitch", NULL };
	const char	*fields[] = { n->platform, n->version, n->remote_device };
	char		 low[256];
	size_t		 i, k, f;

	for (f = 0; f < LAB_ARRAY_SIZE(fields); f++) {
		for (i = 0; fields[f] != NULL && fields[f][i] != '\0' &&
		    i + 1 < sizeof(low); i++)
			low[i] = (char)(fields[f][i] >= 'A' &&
			    fields[f][i] <= 'Z' ? fields[f][i] + 32 :
			    fields[f][i]);
		low[i] = '\0';
		for (k = 0; words[k] != NULL; k++)
			if (strstr(low, words[k]) != NULL)
				return 1;
	}
	return 0;
}

/*
 * Ports that are uplinks: many MACs, a switch as neighbour, or part of a
 * LAG. (A hypervisor or an access point announcing itself over CDP/LLDP
 * is a host, not an uplink.)
 */
static int
uplink(const struct lab_switch_view *v, unsigned long ifindex)
{
	size_t	i, k, macs = 0;

	for (i = 0; i < v->nbrs.n; i++)
		if (v->nbrs.v[i].port == ifindex && switch_like(&v->nbrs.v[i]))
			return 1;
	for (i = 0; i < v->lags.n; i++) {
		if (v->lags.v[i].ifindex == ifindex)
			return 1;
		for (k = 0; k < v->lags.v[i].members.n; k++)
			if (v->lags.v[i].members.v[k] == ifindex)
				return 1;
	}
	for (i = 0; i < v->fdb.n; i++)
		if (v->fdb.v[i].port == ifindex && ++macs > UPLINK_MACS)
			return 1;
	return 0;
}

static int
port_findings(const struct lab_switch_view *v, const struct lab_snmp_port *p,
    const char *who, struct lab_findings *f)
{
	const char	*a;

	if (p == NULL || p->oper_status != 1)
		return 0;
	/* a suspect ifSpeed is a finding of its own, host or not */
	if (!(p->flags & LAB_PORT_SPEED_SUSPECT) && p->speed_mbps > 0 &&
	    p->speed_mbps < EXPECTED_MBPS) {
		if (add_finding(f, "warning", "slow-port",
		    lab_asprintf("%s %s", v->name, p->name),
		    lab_asprintf("%s runs at %llu Mb/s, below the %d Mb/s "
		    "expected: check the cable and autonegotiation", who,
		    (unsigned long long)p->speed_mbps, EXPECTED_MBPS)) == -1)
			return -1;
	}
	if (p->duplex == LAB_DUPLEX_HALF &&
	    add_finding(f, "warning", "half-duplex",
	    lab_asprintf("%s %s", v->name, p->name),
	    lab_asprintf("%s is at half duplex: a duplex mismatch makes "
	    "installs crawl", who)) == -1)
		return -1;
	a = p->alias;
	if (a != NULL && *a != '\0' && strstr(a, who) == NULL) {
		char	host[128];

		/* the host's name alone in the description is agreement too */
		snprintf(host, sizeof(host), "%s", who);
		host[strcspn(host, " ")] = '\0';
		if (strstr(a, host) == NULL && add_finding(f, "info",
		    "description", lab_asprintf("%s %s", v->name, p->name),
		    lab_asprintf("port description '%s' but %s is plugged "
		    "in ('lab switch sync' writes it)", a, who)) == -1)
			return -1;
	}
	return 0;
}

/* Matches the inventory's NICs against one view's MAC table. */
int
lab_switch_analyse(const struct lab_inventory *inv,
    const struct lab_switch_view *v, const struct lab_links_seen *seen,
    struct lab_links *links, struct lab_findings *f, struct lab_err *err)
{
	struct nicref			*refs, key, *r;
	const struct lab_snmp_fdb_entry	*e;
	const struct lab_snmp_port	*p;
	char				*found, who[160], *subj, *msg;
	size_t				 n = 0, i, j, first = links->n;
	int				 rc = -1;

	for (i = 0; i < inv->nhosts; i++)
		n += inv->hosts[i].nnics;
	refs = calloc(n + 1, sizeof(*refs));
	found = calloc(n + 1, 1);
	if (refs == NULL || found == NULL)
		goto oom;
	n = 0;
	for (i = 0; i < inv->nhosts; i++)
		for (j = 0; j < inv->hosts[i].nnics; j++)
			refs[n++] = (struct nicref){ inv->hosts[i].nics[j].mac,
			    inv->hosts[i].name, inv->hosts[i].nics[j].name };
	qsort(refs, n, sizeof(*refs), cmp_nicref);
	/* the declared model against the one the switch names */
	switch (lab_switch_model_check(lab_inventory_switch(inv, v->name), v,
	    &subj, &msg)) {
	case -1:
		goto oom;
	case 1:
		if (add_finding(f, "warning", "model-mismatch", subj, msg) == -1)
			goto oom;
		break;
	default:
		break;
	}
	for (i = 0; i < v->fdb.n; i++) {
		e = &v->fdb.v[i];
		if (e->port == 0 || uplink(v, e->port))
			continue;
		key.mac = e->mac;
		r = bsearch(&key, refs, n, sizeof(*refs), cmp_nicref);
		p = lab_switch_port(v, e->port);
		if (r == NULL) {
			if (add_finding(f, "info", "unknown-mac",
			    lab_asprintf("%s %s", v->name, p ? p->name : "?"),
			    lab_asprintf("MAC %s is on port %s but no inventory "
			    "NIC has it", e->mac, p ? p->name : "?")) == -1)
				goto oom;
			continue;
		}
		/* the same MAC in several VLANs is one link */
		if (found[r - refs])
			continue;
		found[r - refs] = 1;
		if (add_link(links, r, v->name, p, e->port) == -1)
			goto oom;
		snprintf(who, sizeof(who), "%s %s", r->host, r->nic);
		if (port_findings(v, p, who, f) == -1)
			goto oom;
	}
	for (i = 0; i < v->ports.n; i++) {
		p = &v->ports.v[i];
		if (p->oper_status == 1 && (p->flags & LAB_PORT_SPEED_SUSPECT) &&
		    add_finding(f, "warning", "suspect-speed",
		    lab_asprintf("%s %s", v->name, p->name),
		    lab_asprintf("ifSpeed says %u bit/s and there is no "
		    "ifHighSpeed: taken literally the port barely works (Mb/s "
		    "sent as bit/s?); kept as the switch said it", p->if_speed))
		    == -1)
			goto oom;
	}
	/* moved since the last discovery */
	for (i = first; seen != NULL && i < links->n; i++)
		for (j = 0; j < seen->n; j++)
			if (strcmp(seen->v[j].host, links->v[i].host) == 0 &&
			    strcmp(seen->v[j].nic, links->v[i].nic) == 0 &&
			    (strcmp(seen->v[j].switch_name,
			    links->v[i].switch_name) != 0 ||
			    strcmp(seen->v[j].port, links->v[i].port) != 0) &&
			    add_finding(f, "warning", "nic-moved",
			    lab_asprintf("%s %s", links->v[i].host,
			    links->v[i].nic), lab_asprintf("moved from %s %s to "
			    "%s %s since the last discovery",
			    seen->v[j].switch_name, seen->v[j].port,
			    links->v[i].switch_name, links->v[i].port)) == -1)
				goto oom;
	/* with one switch in the lab, a NIC not on it is nowhere */
	for (i = 0; inv->nswitches == 1 && i < n; i++)
		if (!found[i] && add_finding(f, "info", "nic-not-seen",
		    lab_asprintf("%s %s", refs[i].host, refs[i].nic),
		    lab_asprintf("MAC %s was not in the MAC table of %s (host "
		    "off, or a NIC not plugged in?)", refs[i].mac,
		    v->name)) == -1)
			goto oom;
	rc = 0;
	goto out;
oom:
	lab_err_oom(err);
out:
	free(refs);
	free(found);
	return rc;
}
