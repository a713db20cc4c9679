/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The golden-test driver of the planners: loads an inventory, builds a
 * request from the command line, plans, and prints the plan as text or
 * (--json) JSON, or "error (exit N): message".
 *
 *	plan-golden [-C SRCDIR] [-i INVENTORY] [--json] HOST
 *	    --layout L | --layout-file FILE  [--disks S,S] [--cache S]
 *	    [--log S] [--pool NAME] [--force] [--lz4 1|0|-1]
 *	plan-golden ... HOST --bond MODE [--nics N,N] [--bridge NAME]
 *	    [--renderer R] [--seen NIC:SWITCH:PORT:LAG,...] [--rollback S]
 *	    [--vlan NIC=WISH]...
 *	plan-golden ... HOST --vlans-only [--renderer R] [--vlan NIC=WISH]...
 *	plan-golden ... HOST --shares|--mounts [--state FILE] [--prune]
 *
 * --vlan fills a NIC's VLAN wish as the inventory would: WISH is V
 * (vlan: V), V+V+... (vlans: [V, ...]), either with /N (native: N), and
 * tagged: true unless it ends in ",untagged".
 *
 * INVENTORY and FILE are relative to SRCDIR; the inventory defaults to
 * tests/plan/hosts.yaml. In --seen, "-" is NULL.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/inventory.h"
#include "lab/json.h"
#include "lab/plan.h"

static char *
slurp(const char *path)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	if ((buf = calloc(1, (size_t)n + 1)) != NULL &&
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Splits s at commas, in place. */
static size_t
split(char *s, char **v, size_t max, char sep)
{
	size_t	n = 0;
	char	*p;

	while (s != NULL && n < max) {
		v[n++] = s;
		if ((p = strchr(s, sep)) != NULL)
			*p++ = '\0';
		s = p;
	}
	return n;
}

/* A NIC's VLAN wish from --vlan NIC=WISH (see above). */
struct vopt {
	struct lab_nic		*nic;
	struct lab_vlan_want	 saved;
};

static int
vlan_opt(struct lab_host *h, char *arg, struct vopt *vo)
{
	struct lab_vlan_want	*w;
	char			*wish, *p, *ids[64];
	size_t			 i, n;

	if ((wish = strchr(arg, '=')) == NULL)
		return -1;
	*wish++ = '\0';
	for (i = 0; i < h->nnics; i++)
		if (strcmp(h->nics[i].name, arg) == 0)
			break;
	if (i == h->nnics)
		return -1;
	vo->nic = &h->nics[i];
	vo->saved = vo->nic->vlan;
	w = &vo->nic->vlan;
	memset(w, 0, sizeof(*w));
	w->set = 1;
	w->tagged = 1;
	w->loc = vo->nic->loc;
	if ((p = strstr(wish, ",untagged")) != NULL) {
		*p = '\0';
		w->tagged = 0;
	}
	if ((p = strchr(wish, '/')) != NULL) {
		*p++ = '\0';
		w->native = strtoul(p, NULL, 10);
		w->native_loc = vo->nic->loc;
	}
	if (strchr(wish, '+') == NULL) {
		w->access = strtoul(wish, NULL, 10);
		return 0;
	}
	n = split(wish, ids, 64, '+');
	if ((w->trunk = calloc(n, sizeof(*w->trunk))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		w->trunk[i] = strtoul(ids[i], NULL, 10);
	w->ntrunk = n;
	return 0;
}

static const char *
dash(char *s)
{
	return s != NULL && strcmp(s, "-") == 0 ? NULL : s;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "layout", required_argument, NULL, 'l' },
		{ "layout-file", required_argument, NULL, 'L' },
		{ "disks", required_argument, NULL, 'd' },
		{ "cache", required_argument, NULL, 'c' },
		{ "log", required_argument, NULL, 'g' },
		{ "pool", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ "lz4", required_argument, NULL, 'z' },
		{ "bond", required_argument, NULL, 'b' },
		{ "nics", required_argument, NULL, 'n' },
		{ "bridge", required_argument, NULL, 'B' },
		{ "renderer", required_argument, NULL, 'r' },
		{ "seen", required_argument, NULL, 's' },
		{ "rollback", required_argument, NULL, 'R' },
		{ "vlan", required_argument, NULL, 'V' },
		{ "vlans-only", no_argument, NULL, 'O' },
		{ "shares", no_argument, NULL, 'S' },
		{ "mounts", no_argument, NULL, 'M' },
		{ "state", required_argument, NULL, 'T' },
		{ "prune", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	struct lab_storage_req	 sreq = { 0 };
	struct lab_bond_req	 breq = { 0 };
	struct lab_shares_req	 shreq = { 0 };
	char			*state = NULL;
	int			 shares = 0, mounts = 0;
	struct lab_bond_nic	 seen[16];
	struct lab_inventory	*inv;
	struct lab_host		*h;
	struct lab_plan		*plan = NULL;
	struct lab_err		 err;
	struct lab_buf		 out;
	struct lab_json		 j;
	char			*disks[64], *nics[16], *seenv[16], *f[4];
	char			*inv_path, *file = NULL, *vlans[8];
	struct vopt		 vo[8];
	size_t			 nvlans = 0;
	const char		*src = ".";
	const char		*invname = "tests/plan/hosts.yaml";
	size_t			 i;
	int			 c, json = 0, rc;

	sreq.facts.zfs_lz4 = -1;
	while ((c = getopt_long(argc, argv, "C:i:", opts, NULL)) != -1) {
		switch (c) {
		case 'C': src = optarg; break;
		case 'i': invname = optarg; break;
		case 'j': json = 1; break;
		case 'l': sreq.layout = optarg; break;
		case 'L': file = optarg; break;
		case 'd':
			sreq.ndisks = split(optarg, disks, 64, ',');
			sreq.disks = (const char *const *)disks;
			break;
		case 'c': sreq.cache = optarg; break;
		case 'g': sreq.log = optarg; break;
		case 'p': sreq.pool = optarg; break;
		case 'f': sreq.force = 1; break;
		case 'z': sreq.facts.zfs_lz4 = atoi(optarg); break;
		case 'b': breq.mode = optarg; break;
		case 'n':
			breq.nnics = split(optarg, nics, 16, ',');
			breq.nics = (const char *const *)nics;
			break;
		case 'B': breq.bridge = optarg; break;
		case 'r': breq.renderer = optarg; break;
		case 's':
			breq.nseen = split(optarg, seenv, 16, ',');
			for (i = 0; i < breq.nseen; i++) {
				memset(f, 0, sizeof(f));
				split(seenv[i], f, 4, ':');
				seen[i].name = f[0];
				seen[i].switch_name = dash(f[1]);
				seen[i].port = dash(f[2]);
				seen[i].lag = dash(f[3]);
			}
			breq.seen = seen;
			break;
		case 'R': breq.rollback_s = atoi(optarg); break;
		case 'O': breq.vlans_only = 1; break;
		case 'S': shares = 1; break;
		case 'M': mounts = 1; break;
		case 'T': state = optarg; break;
		case 'P': shreq.prune = 1; break;
		case 'V':
			if (nvlans == LAB_ARRAY_SIZE(vlans))
				return 64;
			vlans[nvlans++] = optarg;
			break;
		default:
			return 64;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: plan-golden [options] HOST\n");
		return 64;
	}
	lab_err_init(&err);
	inv = lab_inventory_new();
	/* relative names: errors name tests/plan/hosts.yaml:LINE:COL */
	if (chdir(src) == -1) {
		fprintf(stderr, "cannot enter %s\n", src);
		return 70;
	}
	if ((inv_path = strdup(invname)) == NULL ||
	    lab_inventory_load(inv, &inv_path, 1, &err) == -1) {
		fprintf(stderr, "inventory: %s\n", err.msg);
		return 70;
	}
	if ((h = lab_inventory_host(inv, argv[optind])) == NULL) {
		fprintf(stderr, "no host %s\n", argv[optind]);
		return 70;
	}
	for (i = 0; i < nvlans; i++)
		if (vlan_opt(h, vlans[i], &vo[i]) == -1) {
			fprintf(stderr, "bad --vlan %s\n", vlans[i]);
			return 70;
		}
	if (file != NULL) {
		if ((sreq.layout_text = slurp(file)) == NULL) {
			fprintf(stderr, "cannot read %s\n", file);
			return 70;
		}
		sreq.layout_name = file;
	}
	if (state != NULL && (shreq.state = slurp(state)) == NULL) {
		fprintf(stderr, "cannot read %s\n", state);
		return 70;
	}
	shreq.inv = inv;
	if (shares)
		rc = lab_plan_shares(h, &shreq, &plan, &err);
	else if (mounts)
		rc = lab_plan_mounts(h, &shreq, &plan, &err);
	else if (breq.mode != NULL || breq.vlans_only)
		rc = lab_plan_bond(h, &breq, &plan, &err);
	else
		rc = lab_plan_storage(h, &sreq, &plan, &err);
	lab_buf_init(&out);
	if (rc == -1)
		lab_buf_addf(&out, "error (exit %d): %s\n", err.code, err.msg);
	else if (json) {
		lab_json_init(&j, &out);
		lab_plan_json(&j, plan);
		lab_json_end(&j);
	} else if (lab_plan_text(plan, &out, &err) == -1)
		lab_buf_addf(&out, "error (exit %d): %s\n", err.code, err.msg);
	fputs(out.s, stdout);
	lab_buf_release(&out);
	lab_plan_free(plan);
	for (i = nvlans; i-- > 0;) {
		free(vo[i].nic->vlan.trunk);
		vo[i].nic->vlan = vo[i].saved;
	}
	free((char *)sreq.layout_text);
	free((char *)shreq.state);
	free(inv_path);
	lab_inventory_free(inv);
	return 0;
}
