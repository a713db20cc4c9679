/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The config files of a network plan (lib/plan/bond.c): the bond, its
 * bridge and the VLAN interfaces of tagged NICs, for ifupdown,
 * systemd-networkd or netplan, each staged under STAGING/new.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bond-priv.h"

struct lab_step *
lab_bond_write(struct bond *b, const char *path, int mode, const char *tmpl,
    const struct lab_tvars *t)
{
	struct lab_tvars	*f;
	struct lab_step		*s;
	char			*staged, comment[160];

	if ((f = lab_tvars_add(b->t, "files")) == NULL) {
		lab_err_oom(b->err);
		return NULL;
	}
	lab_tvars_set(f, "path", path);
	lab_tvars_setf(f, "mode", "%04o", mode);
	if ((staged = lab_asprintf("%s/new%s", STAGING, path)) == NULL) {
		lab_err_oom(b->err);
		return NULL;
	}
	snprintf(comment, sizeof(comment), "stage %s (switch.sh installs it)",
	    path);
	s = lab_plan_file(b->p, staged, mode, tmpl, t, comment, b->err);
	free(staged);
	return s;
}

/* The address settings of the interface that carries the host's IP. */
static int
addr_vars(struct bond *b, struct lab_tvars *t, int list_dns)
{
	const struct lab_netcfg	*net = b->h->network;
	struct lab_tvars	*d;
	struct lab_buf		 dns;
	size_t			 i;

	if (net == NULL || net->address == NULL) {
		lab_tvars_setb(t, "dhcp", 1);
		return 0;
	}
	lab_tvars_set(t, "address", net->address);
	if (net->gateway != NULL)
		lab_tvars_set(t, "gateway", net->gateway);
	lab_tvars_setb(t, "has_dns", net->dns.n > 0);
	lab_buf_init(&dns);
	for (i = 0; i < net->dns.n; i++) {
		if (list_dns) {
			if ((d = lab_tvars_add(t, "dns")) == NULL)
				return lab_err_oom(b->err);
			lab_tvars_set(d, "ip", net->dns.v[i]);
			lab_tvars_setb(d, "sp", i > 0);
		}
		lab_buf_addf(&dns, "%s%s", i ? " " : "", net->dns.v[i]);
	}
	if (!list_dns && dns.len > 0)
		lab_tvars_set(t, "dns", dns.s);
	lab_buf_release(&dns);
	return 0;
}

int
lab_bond_ifupdown(struct bond *b, const char *slaves)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = lab_tvars_new();
	struct lab_tvars	*bi, *bri;
	char			 path[128];
	size_t			 i;

	if (t == NULL)
		return lab_err_oom(b->err);
	if (b->req->vlans_only)
		goto vlans;
	lab_tvars_set(t, "bond_name", BOND);
	lab_tvars_set(t, "bond_mode", b->req->mode);
	lab_tvars_set(t, "slave_list", slaves);
	if (b->req->bridge != NULL)
		lab_tvars_set(t, "bridge", b->req->bridge);
	if ((bi = lab_tvars_add(t, "ifaces")) == NULL)
		return lab_err_oom(b->err);
	lab_tvars_set(bi, "name", BOND);
	lab_tvars_set(bi, "slaves", slaves);
	lab_tvars_set(bi, "mode", b->req->mode);
	bri = bi;
	if (b->req->bridge != NULL) {
		lab_tvars_set(bi, "method", "manual");
		if ((bri = lab_tvars_add(t, "ifaces")) == NULL)
			return lab_err_oom(b->err);
		lab_tvars_set(bri, "name", b->req->bridge);
		lab_tvars_set(bri, "ports", BOND);
	}
	lab_tvars_set(bri, "method", b->h->network && b->h->network->address ?
	    "static" : "dhcp");
	if (addr_vars(b, bri, 0) == -1)
		return -1;
	lab_tvars_setb(bri, "dhcp", 0);
vlans:
	for (i = 0; i < b->nvl; i++) {
		if ((bi = lab_tvars_add(t, "ifaces")) == NULL)
			return lab_err_oom(b->err);
		lab_tvars_set(bi, "name", b->vl[i].name);
		lab_tvars_set(bi, "method", "manual");
		lab_tvars_set(bi, "raw", b->vl[i].parent);
	}
	snprintf(path, sizeof(path), "/etc/network/interfaces.d/lab-%s",
	    b->req->vlans_only ? "vlans" : BOND);
	return lab_bond_write(b, path, 0644, "bond-ifupdown", t) ? 0 : -1;
}

static int
netdev(struct bond *b, const char *name, const char *kind, const char *mode)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = lab_tvars_new();
	char	path[128];

	if (t == NULL)
		return lab_err_oom(b->err);
	lab_tvars_set(t, "name", name);
	lab_tvars_set(t, "kind", kind);
	lab_tvars_set(t, "mac", b->nics[0]->mac);
	if (mode != NULL)
		lab_tvars_set(t, "mode", mode);
	lab_tvars_setb(t, "stp", strcmp(kind, "bridge") == 0);
	snprintf(path, sizeof(path), "/etc/systemd/network/10-lab-%s.netdev",
	    name);
	return lab_bond_write(b, path, 0644, "networkd-netdev", t) ? 0 : -1;
}

/* A VLAN interface's netdev and network (no address: a trunk). */
static int
vlan_files(struct bond *b, const struct lab_vlan_link *l)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = lab_tvars_new();
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *n = lab_tvars_new();
	char	path[128];

	if (t == NULL || n == NULL)
		return lab_err_oom(b->err);
	lab_tvars_set(t, "name", l->name);
	lab_tvars_set(t, "kind", "vlan");
	lab_tvars_setf(t, "vlan_id", "%lu", l->id);
	snprintf(path, sizeof(path), "/etc/systemd/network/10-lab-%s.netdev",
	    l->name);
	if (lab_bond_write(b, path, 0644, "networkd-netdev", t) == NULL)
		return -1;
	lab_tvars_set(n, "match", l->name);
	lab_tvars_setb(n, "bare", 1);
	snprintf(path, sizeof(path), "/etc/systemd/network/10-lab-%s.network",
	    l->name);
	return lab_bond_write(b, path, 0644, "networkd-network", n) ? 0 : -1;
}

static int
network(struct bond *b, const char *file, const char *match,
    const char *key, const char *val, int addr)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = lab_tvars_new();
	struct lab_tvars	*v;
	char			 path[128];
	size_t			 i;

	if (t == NULL)
		return lab_err_oom(b->err);
	lab_tvars_set(t, "match", match);
	if (key != NULL)
		lab_tvars_set(t, key, val);
	for (i = 0; strcmp(match, BOND) == 0 && i < b->nvl; i++)
		if ((v = lab_tvars_add(t, "vlans")) == NULL ||
		    lab_tvars_set(v, "name", b->vl[i].name) == -1)
			return lab_err_oom(b->err);
	if (addr && addr_vars(b, t, 1) == -1)
		return -1;
	snprintf(path, sizeof(path), "/etc/systemd/network/10-lab-%s.network",
	    file);
	return lab_bond_write(b, path, 0644, "networkd-network", t) ? 0 : -1;
}

int
lab_bond_networkd(struct bond *b, const char *slaves)
{
	const char	*br = b->req->bridge;
	char		 file[64];
	size_t		 i;

	snprintf(file, sizeof(file), "%s-slaves", BOND);
	if (netdev(b, BOND, "bond", b->req->mode) == -1 ||
	    (br != NULL && netdev(b, br, "bridge", NULL) == -1) ||
	    network(b, file, slaves, "bond", BOND, 0) == -1)
		return -1;
	for (i = 0; i < b->nvl; i++)
		if (vlan_files(b, &b->vl[i]) == -1)
			return -1;
	if (br == NULL)
		return network(b, BOND, BOND, NULL, NULL, 1);
	if (network(b, BOND, BOND, "bridge", br, 0) == -1)
		return -1;
	return network(b, br, br, NULL, NULL, 1);
}

int
lab_bond_netplan(struct bond *b)
{
	LAB_CLEANUP(lab_tvars_freep) struct lab_tvars *t = lab_tvars_new();
	struct lab_tvars	*n;
	char			 path[128];
	size_t			 i;

	if (t == NULL)
		return lab_err_oom(b->err);
	if (!b->req->vlans_only) {
		lab_tvars_set(t, "bond_name", BOND);
		lab_tvars_set(t, "mode", b->req->mode);
	}
	if (b->req->bridge != NULL)
		lab_tvars_set(t, "bridge", b->req->bridge);
	else if (!b->req->vlans_only)
		lab_tvars_setb(t, "on_bond", 1);
	for (i = 0; i < b->n; i++) {
		if ((n = lab_tvars_add(t, "nics")) == NULL)
			return lab_err_oom(b->err);
		lab_tvars_set(n, "name", b->nics[i]->name);
		lab_tvars_setb(n, "sp", i > 0);
	}
	lab_tvars_setb(t, "has_vlans", b->nvl > 0);
	for (i = 0; i < b->nvl; i++) {
		if ((n = lab_tvars_add(t, "vlans")) == NULL)
			return lab_err_oom(b->err);
		lab_tvars_set(n, "name", b->vl[i].name);
		lab_tvars_setf(n, "id", "%lu", b->vl[i].id);
		lab_tvars_set(n, "parent", b->vl[i].parent);
		/* a NIC outside the bond: netplan merges it, keeps its config */
		if (!b->vl[i].on_bond && (i == 0 || strcmp(b->vl[i - 1].parent,
		    b->vl[i].parent) != 0) && ((n = lab_tvars_add(t,
		    "vparents")) == NULL || lab_tvars_set(n, "name",
		    b->vl[i].parent) == -1))
			return lab_err_oom(b->err);
	}
	if (!b->req->vlans_only && addr_vars(b, t, 1) == -1)
		return -1;
	snprintf(path, sizeof(path), "/etc/netplan/90-lab-%s.yaml",
	    b->req->vlans_only ? "vlans" : BOND);
	return lab_bond_write(b, path, 0600, "bond-netplan.yaml", t) ? 0 : -1;
}
