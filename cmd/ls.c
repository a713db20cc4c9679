/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/json.h"
#include "lab/parse.h"
#include "lab/render.h"
#include "lab/target.h"
#include "lab.h"

/*
 * The hosts to list: those the targets name, or all. sel[i] is set for
 * each selected host of inv.
 */
static int
select_hosts(struct lab_call *call, const struct lab_inventory *inv,
    char **ret, struct lab_err *err)
{
	struct lab_strv	 names;
	char		*sel;
	size_t		 i, k = 0;

	if ((sel = calloc(inv->nhosts + 1, 1)) == NULL)
		return lab_err_oom(err);
	if (call->argc == 0) {
		memset(sel, 1, inv->nhosts);
		*ret = sel;
		return 0;
	}
	if (lab_target_resolve(inv, call->argv, (size_t)call->argc, call->all,
	    &names, err) == -1) {
		free(sel);
		return -1;
	}
	/* both lists are in inventory order */
	for (i = 0; i < inv->nhosts && k < names.n; i++)
		if (strcmp(inv->hosts[i].name, names.v[k]) == 0) {
			sel[i] = 1;
			k++;
		}
	lab_strv_release(&names);
	*ret = sel;
	return 0;
}

/* Appends a then b at len, cut to fit with room for a NUL; new len. */
static size_t
append(char *buf, size_t size, size_t len, const char *a, const char *b)
{
	size_t	n;

	for (; *a != '\0' && len + 1 < size; a++)
		buf[len++] = *a;
	n = strlen(b);
	if (n > size - 1 - len)
		n = size - 1 - len;
	memcpy(buf + len, b, n);
	return len + n;
}

/* A count in decimal. */
static void
utoa(size_t v, char *buf, size_t size)
{
	char	tmp[24];
	size_t	n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && n < sizeof(tmp));
	for (v = 0; v < n && v + 1 < size; v++)
		buf[v] = tmp[n - 1 - v];
	buf[v] = '\0';
}

static int
finish_json(struct lab_buf *b, struct lab_err *err)
{
	int	rc = cmd_write(b, err);

	lab_buf_release(b);
	return rc == -1 ? LAB_EXIT_ENV : LAB_EXIT_OK;
}

/* The JSON of ls hosts: whole hosts. */
static int
ls_hosts_json(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_freep) char *sel = NULL;
	struct lab_buf		 b;
	struct lab_json		 j;
	size_t			 i;

	if (cmd_inventory(call, &inv, err) == -1 ||
	    select_hosts(call, inv, &sel, err) == -1)
		return err->code;
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	for (i = 0; i < inv->nhosts; i++)
		if (sel[i])
			lab_render_host_json(&j, &inv->hosts[i]);
	lab_json_arr_end(&j);
	lab_json_end(&j);
	return finish_json(&b, err);
}

/* The rows of `lab ls hosts` as the table asks for them. */
struct host_cells {
	const struct lab_host_rows	*rows;
	const size_t			*pick;	/* the rows shown, or NULL: all */
	char				 bmc[300], nics[24], disks[24];
};

static void
host_cells(void *arg, size_t i, const char **cells)
{
	struct host_cells		*hc = arg;
	const struct lab_host_row	*h;

	h = &hc->rows->v[hc->pick != NULL ? hc->pick[i] : i];
	/* no snprintf per cell: this runs for every host of the lab */
	if (h->bmc_type != NULL)
		hc->bmc[append(hc->bmc, sizeof(hc->bmc), append(hc->bmc,
		    sizeof(hc->bmc), 0, h->bmc_type, " "), h->bmc_address,
		    "")] = '\0';
	else
		memcpy(hc->bmc, "none", 5);
	utoa(h->nnics, hc->nics, sizeof(hc->nics));
	utoa(h->ndisks, hc->disks, sizeof(hc->disks));
	cells[0] = h->name;
	cells[1] = h->model;
	cells[2] = h->role;
	cells[3] = h->groups;
	cells[4] = hc->bmc;
	cells[5] = hc->nics;
	cells[6] = hc->disks;
}

/*
 * The table: rows read for it (no inventory), and with targets, the
 * hosts and groups to resolve them. Both are sorted by name. The table
 * asks for each row as it prints: 10,000 rows are not copied into it.
 */
static int
ls_hosts(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_freep) char *sel = NULL;
	LAB_CLEANUP(lab_freep) size_t *pick = NULL;
	struct lab_host_rows	 rows;
	struct host_cells	 hc;
	struct table		 t;
	size_t			 i, k = 0, n;

	if (call->json)
		return ls_hosts_json(call, err);
	memset(&rows, 0, sizeof(rows));
	if (cmd_db(call, 0, err) == -1 || ((call->argc > 0 || call->all) &&
	    (lab_db_inventory_load_parts(call->db, LAB_LOAD_HOSTS |
	    LAB_LOAD_MEMBERSHIPS, NULL, &inv, err) == -1 ||
	    select_hosts(call, inv, &sel, err) == -1)) ||
	    lab_db_host_rows(call->db, &rows, err) == -1)
		return err->code;
	n = rows.n;
	if (inv != NULL) {
		if ((pick = calloc(rows.n + 1, sizeof(*pick))) == NULL) {
			lab_host_rows_release(&rows);
			return lab_err_oom(err), LAB_EXIT_ENV;
		}
		/* both in name order: walk the selection along */
		for (i = 0, n = 0; i < rows.n; i++) {
			while (k < inv->nhosts &&
			    strcmp(inv->hosts[k].name, rows.v[i].name) < 0)
				k++;
			if (k < inv->nhosts &&
			    strcmp(inv->hosts[k].name, rows.v[i].name) == 0 &&
			    sel[k])
				pick[n++] = i;
		}
	}
	memset(&hc, 0, sizeof(hc));
	hc.rows = &rows;
	hc.pick = pick;
	table_init(&t, 7, "NAME", "MODEL", "ROLE", "GROUPS", "BMC", "NICS",
	    "DISKS");
	table_text(&t, 2);
	table_print_rows(&t, stdout, n, host_cells, &hc);
	table_release(&t);
	lab_host_rows_release(&rows);
	return LAB_EXIT_OK;
}

static int
ls_disks(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_freep) char *sel = NULL;
	const struct lab_host	*h;
	const struct lab_disk	*d;
	struct lab_buf		 b;
	struct lab_json		 j;
	struct table		 t;
	char			 size[32];
	size_t			 i, k;

	if (cmd_inventory(call, &inv, err) == -1 ||
	    select_hosts(call, inv, &sel, err) == -1)
		return err->code;
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	table_init(&t, 5, "HOST", "SLOT", "KIND", "SIZE", "CONTROLLER");
	for (i = 0; i < inv->nhosts; i++) {
		h = &inv->hosts[i];
		for (k = 0; sel[i] && k < h->ndisks; k++) {
			d = &h->disks[k];
			lab_json_obj_begin(&j);
			lab_json_kstr(&j, "host", h->name);
			lab_json_kstr(&j, "slot", d->slot);
			lab_json_kstr(&j, "kind", d->kind);
			lab_json_kint(&j, "size_bytes", (int64_t)d->size_bytes);
			lab_json_kstr(&j, "controller", d->controller);
			lab_json_obj_end(&j);
			lab_format_size_human(d->size_bytes, size, sizeof(size));
			table_row(&t, h->name, d->slot, d->kind, size,
			    d->controller);
		}
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (!call->json)
		table_print(&t, stdout);
	table_release(&t);
	if (call->json)
		return finish_json(&b, err);
	lab_buf_release(&b);
	return LAB_EXIT_OK;
}

/*
 * clang 14's analyzer does not see LAB_CLEANUP (the cleanup attribute)
 * free sel, and calls it a leak.
 * NOLINTBEGIN(clang-analyzer-unix.Malloc)
 */
static int
ls_nics(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	LAB_CLEANUP(lab_freep) char *sel = NULL;
	const struct lab_host	*h;
	struct lab_buf		 b, vlan;
	struct lab_json		 j;
	struct table		 t;
	size_t			 i, k;

	if (cmd_inventory(call, &inv, err) == -1 ||
	    select_hosts(call, inv, &sel, err) == -1)
		return err->code;
	lab_buf_init(&b);
	lab_buf_init(&vlan);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	table_init(&t, 4, "HOST", "NIC", "MAC", "VLAN");
	for (i = 0; i < inv->nhosts; i++) {
		h = &inv->hosts[i];
		for (k = 0; sel[i] && k < h->nnics; k++) {
			lab_json_obj_begin(&j);
			lab_json_kstr(&j, "host", h->name);
			lab_json_kstr(&j, "name", h->nics[k].name);
			lab_json_kstr(&j, "mac", h->nics[k].mac);
			lab_render_vlan_want_fields(&j, &h->nics[k].vlan);
			lab_json_obj_end(&j);
			vlan.len = 0;
			lab_buf_adds(&vlan, "");
			lab_vlan_want_cell(&h->nics[k].vlan, &vlan);
			table_row(&t, h->name, h->nics[k].name, h->nics[k].mac,
			    vlan.oom ? "?" : vlan.s);
		}
	}
	lab_buf_release(&vlan);
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (!call->json)
		table_print(&t, stdout);
	table_release(&t);
	if (call->json)
		return finish_json(&b, err);
	lab_buf_release(&b);
	return LAB_EXIT_OK;
}
/* NOLINTEND(clang-analyzer-unix.Malloc) */

static int
ls_switches(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	const struct lab_switch	*s;
	struct lab_buf		 b;
	struct lab_json		 j;
	struct table		 t;
	char			 port[16], snmp[96];
	size_t			 i;
	int			 a;

	/* switches only: no hosts read */
	if (cmd_db(call, 0, err) == -1 || lab_db_inventory_load_parts(call->db,
	    0, NULL, &inv, err) == -1)
		return err->code;
	for (a = 0; a < call->argc; a++)
		if (lab_inventory_switch(inv, call->argv[a]) == NULL)
			return lab_err_set(err, LAB_EXIT_INPUT, "unknown switch "
			    "'%s' (see 'lab ls switches')", call->argv[a]);
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	table_init(&t, 5, "NAME", "MODEL", "ADDRESS", "PORT", "SNMP");
	for (i = 0; i < inv->nswitches; i++) {
		s = &inv->switches[i];
		for (a = 0; a < call->argc; a++)
			if (strcmp(call->argv[a], s->name) == 0)
				break;
		if (call->argc > 0 && a == call->argc)
			continue;
		lab_render_switch_json(&j, s);
		snprintf(port, sizeof(port), "%d", s->port);
		if (s->snmp.version != NULL)
			snprintf(snmp, sizeof(snmp), "v%s %s", s->snmp.version,
			    s->snmp.credential);
		else
			snprintf(snmp, sizeof(snmp), "none");
		table_row(&t, s->name, s->model, s->address, port, snmp);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (!call->json)
		table_print(&t, stdout);
	table_release(&t);
	if (call->json)
		return finish_json(&b, err);
	lab_buf_release(&b);
	return LAB_EXIT_OK;
}

#define NONE	((size_t)-1)

static int
cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

/*
 * The members of each group of names (sorted), as linked lists in host
 * order: first[g] is the first entry of group g, next[e] the entry after
 * e, last[e] (the host) its index in inv. One pass over the hosts: no
 * scan of every host for each group.
 */
static int
members_by_group(const struct lab_inventory *inv, const struct lab_strv *names,
    size_t **firstp, size_t **nextp, size_t **hostp)
{
	size_t	*first, *next, *host, *tail, total = 0, e = 0, i, k;
	char	**g;

	for (i = 0; i < inv->nhosts; i++)
		total += inv->hosts[i].groups.n;
	first = calloc(names->n + 1, sizeof(*first));
	tail = calloc(names->n + 1, sizeof(*tail));
	next = calloc(total + 1, sizeof(*next));
	host = calloc(total + 1, sizeof(*host));
	if (first == NULL || tail == NULL || next == NULL || host == NULL) {
		free(first);
		free(tail);
		free(next);
		free(host);
		return -1;
	}
	for (k = 0; k < names->n; k++)
		first[k] = tail[k] = NONE;
	for (i = 0; i < inv->nhosts; i++)
		for (k = 0; k < inv->hosts[i].groups.n; k++) {
			g = bsearch(inv->hosts[i].groups.v[k], names->v,
			    names->n, sizeof(*names->v), cmp_name);
			if (g == NULL)
				continue;
			host[e] = i;
			next[e] = NONE;
			if (first[g - names->v] == NONE)
				first[g - names->v] = e;
			else
				next[tail[g - names->v]] = e;
			tail[g - names->v] = e++;
		}
	free(tail);
	*firstp = first;
	*nextp = next;
	*hostp = host;
	return 0;
}

static int
ls_groups(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	struct lab_strv		 names;
	const struct lab_group	*g;
	struct lab_buf		 b, members;
	struct lab_json		 j;
	struct table		 t;
	size_t			*first, *next, *last;
	size_t			 i, k, n;
	int			 a;
	char			 count[16];

	if (cmd_db(call, 0, err) == -1 || lab_db_inventory_load_parts(call->db,
	    LAB_LOAD_HOSTS | LAB_LOAD_MEMBERSHIPS, NULL, &inv, err) == -1 ||
	    lab_inventory_group_names(inv, &names, err) == -1)
		return err->code;
	for (a = 0; a < call->argc; a++)
		if (lab_strv_find(&names, call->argv[a] +
		    (call->argv[a][0] == '@')) < 0) {
			lab_strv_release(&names);
			return lab_err_set(err, LAB_EXIT_INPUT, "unknown group "
			    "'%s' (see 'lab ls groups')", call->argv[a]);
		}
	if (members_by_group(inv, &names, &first, &next, &last) == -1) {
		lab_strv_release(&names);
		return lab_err_oom(err), LAB_EXIT_ENV;
	}
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	table_init(&t, 4, "GROUP", "HOSTS", "MEMBERS", "DESCRIPTION");
	table_text(&t, 3);
	for (i = 0; i < names.n; i++) {
		for (a = 0; a < call->argc; a++)
			if (strcmp(call->argv[a], names.v[i]) == 0 ||
			    (call->argv[a][0] == '@' &&
			    strcmp(call->argv[a] + 1, names.v[i]) == 0))
				break;
		if (call->argc > 0 && a == call->argc)
			continue;
		g = NULL;
		for (k = 0; k < inv->ngroups; k++)
			if (strcmp(inv->groups[k].name, names.v[i]) == 0)
				g = &inv->groups[k];
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "name", names.v[i]);
		lab_json_kstr(&j, "description", g ? g->description : NULL);
		lab_json_key(&j, "hosts");
		lab_json_arr_begin(&j);
		lab_buf_init(&members);
		/* the group's members, a list built in one pass over hosts */
		for (k = first[i], n = 0; k != NONE; k = next[k]) {
			const char	*h = inv->hosts[last[k]].name;

			lab_json_str(&j, h);
			if (n++ > 0)
				lab_buf_addc(&members, ',');
			lab_buf_adds(&members, h);
		}
		lab_json_arr_end(&j);
		lab_json_obj_end(&j);
		snprintf(count, sizeof(count), "%zu", n);
		table_row(&t, names.v[i], count, members.s,
		    g ? g->description : NULL);
		lab_buf_release(&members);
	}
	lab_strv_release(&names);
	free(first);
	free(next);
	free(last);
	lab_json_arr_end(&j);
	lab_json_end(&j);
	if (!call->json)
		table_print(&t, stdout);
	table_release(&t);
	if (call->json)
		return finish_json(&b, err);
	lab_buf_release(&b);
	return LAB_EXIT_OK;
}

static const struct lab_verb ls_verbs[] = {
	{ .name = "hosts", .args = "[TARGET...]", .min = 0, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_TARGETS,
	  .run = ls_hosts,
	  .summary = "list hosts: model, role, groups, BMC, NIC and disk "
		"counts" },
	{ .name = "disks", .args = "[TARGET...]", .min = 0, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_TARGETS,
	  .run = ls_disks,
	  .summary = "list disks: slot, kind, size and controller" },
	{ .name = "nics", .args = "[TARGET...]", .min = 0, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_TARGETS,
	  .run = ls_nics,
	  .summary = "list NICs, their MACs and the VLANs they declare" },
	{ .name = "switches", .args = "[SWITCH...]", .min = 0,
	  .max = LAB_ARGS_ANY, .flags = LAB_VERB_JSON | LAB_VERB_CSV,
	  .run = ls_switches,
	  .summary = "list switches and their SNMP settings" },
	{ .name = "groups", .args = "[GROUP...]", .min = 0, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV, .run = ls_groups,
	  .summary = "list groups and their hosts" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_ls = {
	.name = "ls",
	.summary = "list hosts, disks, NICs, switches or groups",
	.verbs = ls_verbs,
};
