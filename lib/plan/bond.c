/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "bond-priv.h"

/*
 * NIC bonding, optionally bridged, for ifupdown, systemd-networkd or
 * netplan. The change is applied by scripts on the target: apply.sh
 * saves the config and arms a rollback timer, switch.sh installs and
 * brings up the new config apart from the SSH session, "confirm.sh wait",
 * over a new SSH connection, waits until it is up, and confirm.sh, over
 * another one opened after that, stops the rollback. The config files
 * are bond-files.c's, the VLAN interfaces of tagged NICs bond-vlan.c's.
 */

const char *const lab_bond_mode_words[] = { "active-backup", "802.3ad",
	"balance-alb", NULL };
const char *const lab_bond_renderer_words[] = { "ifupdown", "networkd",
	"netplan", NULL };

static int
word(const char *what, const char *s, const char *const *w, size_t n,
    struct lab_err *err)
{
	const char	*near;
	size_t		 i;

	for (i = 0; i < n; i++)
		if (strcmp(s, w[i]) == 0)
			return 0;
	if ((near = lab_suggest(s, w, n)) != NULL)
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown %s '%s'; did "
		    "you mean '%s'?", what, s, near);
	if (n == 3)
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown %s '%s' (%s, "
		    "%s or %s)", what, s, w[0], w[1], w[2]);
	return lab_err_set(err, LAB_EXIT_INPUT, "unknown %s '%s'", what, s);
}

static int
pick_nics(struct bond *b)
{
	const struct lab_host	*h = b->h;
	const char		*cands[32], *near;
	size_t			 i, j;

	if (b->req->nics == NULL) {
		for (i = 0; i < h->nnics && b->n < LAB_ARRAY_SIZE(b->nics);
		    i++)
			b->nics[b->n++] = &h->nics[i];
	}
	for (i = 0; b->req->nics != NULL && i < b->req->nnics; i++) {
		for (j = 0; j < h->nnics; j++)
			if (strcmp(h->nics[j].name, b->req->nics[i]) == 0)
				break;
		if (j == h->nnics) {
			for (j = 0; j < h->nnics && j < 32; j++)
				cands[j] = h->nics[j].name;
			near = lab_suggest(b->req->nics[i], cands, j);
			if (near != NULL)
				return lab_err_set(b->err, LAB_EXIT_INPUT,
				    "host '%s' has no NIC '%s'; did you mean "
				    "'%s'?", h->name, b->req->nics[i], near);
			return lab_err_set(b->err, LAB_EXIT_INPUT, "host '%s' "
			    "has no NIC '%s'", h->name, b->req->nics[i]);
		}
		for (size_t k = 0; k < b->n; k++)
			if (b->nics[k] == &h->nics[j])
				return lab_err_set(b->err, LAB_EXIT_INPUT,
				    "NIC '%s' is named twice",
				    b->req->nics[i]);
		if (b->n == LAB_ARRAY_SIZE(b->nics))
			return lab_err_set(b->err, LAB_EXIT_INPUT, "too many "
			    "NICs for one bond");
		b->nics[b->n++] = &h->nics[j];
	}
	if (b->n < 2)
		return lab_err_set(b->err, LAB_EXIT_INPUT, "a bond needs two "
		    "NICs or more; host '%s' %s %zu%s%s%s", h->name,
		    b->req->nics ? "was given" : "has", b->n,
		    b->n ? " (" : "", b->n ? b->nics[0]->name : "",
		    b->n ? ")" : "");
	return 0;
}

static const struct lab_bond_nic *
seen(const struct bond *b, const char *name)
{
	size_t	i;

	for (i = 0; i < b->req->nseen; i++)
		if (strcmp(b->req->seen[i].name, name) == 0)
			return &b->req->seen[i];
	return NULL;
}

static void
port_of(const struct lab_bond_nic *s, struct lab_buf *out)
{
	lab_buf_addf(out, "%s port %s (%s%s)", s->switch_name,
	    s->port ? s->port : "?", s->lag ? "LAG " : "no LAG",
	    s->lag ? s->lag : "");
}

/* 802.3ad needs the NICs' switch ports in one LAG. */
static int
check_lag(struct bond *b)
{
	const struct lab_bond_nic	*s, *first = NULL;
	struct lab_buf			 where, unknown;
	size_t				 i;
	int				 bad = 0, rc = 0;

	lab_buf_init(&where);
	lab_buf_init(&unknown);
	for (i = 0; i < b->n; i++) {
		s = seen(b, b->nics[i]->name);
		if (s == NULL || s->switch_name == NULL) {
			lab_buf_addf(&unknown, "%s%s", unknown.len ? ", " : "",
			    b->nics[i]->name);
			continue;
		}
		lab_buf_addf(&where, "%s%s on ", where.len ? ", " : "",
		    b->nics[i]->name);
		port_of(s, &where);
		if (s->lag != NULL && first == NULL)
			first = s;
		else if (s->lag == NULL ||
		    strcmp(first->switch_name, s->switch_name) != 0 ||
		    strcmp(first->lag, s->lag) != 0)
			bad = 1;
	}
	if (where.oom || unknown.oom)
		rc = lab_err_oom(b->err);
	else if (bad)
		rc = lab_err_set(b->err, LAB_EXIT_INPUT, "802.3ad needs the "
		    "switch ports of the bonded NICs in one LACP LAG: %s",
		    where.s);
	else if (unknown.len > 0)
		rc = lab_plan_warn(b->p, b->err, "switch discovery has not seen "
		    "%s: lab cannot check that the switch ports form a LAG, "
		    "which 802.3ad needs (run lab switch discover)",
		    unknown.s);
	lab_buf_release(&where);
	lab_buf_release(&unknown);
	return rc;
}

/* Other modes want plain ports: a LAG on the switch is worth a warning. */
static int
check_no_lag(struct bond *b)
{
	const struct lab_bond_nic	*s;
	size_t				 i;

	for (i = 0; i < b->n; i++) {
		s = seen(b, b->nics[i]->name);
		if (s != NULL && s->switch_name != NULL && s->lag != NULL &&
		    lab_plan_warn(b->p, b->err, "%s is on %s port %s, in LAG %s: "
		    "%s expects plain switch ports", b->nics[i]->name,
		    s->switch_name, s->port ? s->port : "?", s->lag,
		    b->req->mode) == -1)
			return -1;
	}
	return 0;
}

static int
script(struct bond *b, const char *name, const char *tmpl)
{
	char	path[128], comment[128];

	snprintf(path, sizeof(path), "%s/%s", STAGING, name);
	snprintf(comment, sizeof(comment), "the %s script", name);
	return lab_plan_file(b->p, path, 0700, tmpl, b->t, comment, b->err) ?
	    0 : -1;
}

/*
 * The VLAN interfaces in the scripts: brought up after the bond, taken
 * down first; the rollback deletes those that apply.sh did not see.
 */
static int
vlan_vars(struct bond *b, struct lab_buf *downs)
{
	struct lab_tvars	*v, *d, *u;
	size_t			 i;

	lab_tvars_setb(b->t, "has_vlans", b->nvl > 0);
	for (i = 0; i < b->nvl; i++) {
		const struct lab_vlan_link *l = &b->vl[i];

		if ((v = lab_tvars_add(b->t, "vlinks")) == NULL ||
		    (d = lab_tvars_add(b->t, "downs")) == NULL ||
		    (u = lab_tvars_add(b->t, "ups")) == NULL)
			return lab_err_oom(b->err);
		lab_tvars_set(v, "name", l->name);
		lab_tvars_setf(v, "id", "%lu", l->id);
		lab_tvars_set(v, "parent", l->parent);
		lab_tvars_set(d, "name", l->name);
		lab_tvars_set(u, "name", l->name);
		lab_buf_addf(downs, " %s", l->name);
		if (!l->on_bond && (i == 0 || strcmp(b->vl[i - 1].parent,
		    l->parent) != 0) && ((v = lab_tvars_add(b->t,
		    "vparents")) == NULL || lab_tvars_set(v, "name",
		    l->parent) == -1))
			return lab_err_oom(b->err);
	}
	return 0;
}

/* The variables every script shares. */
static int
script_vars(struct bond *b, struct lab_buf *slaves)
{
	static const char *const dirs[] = { "/etc/network/interfaces.d",
		"/etc/systemd/network", "/etc/netplan" };
	struct lab_tvars	*v, *d;
	struct lab_buf		 downs;
	const char		*ups[2] = { b->req->vlans_only ? NULL : BOND,
				    b->req->bridge };
	size_t			 i;
	int			 k;

	lab_tvars_set(b->t, "staging", STAGING);
	lab_tvars_setf(b->t, "rollback_s", "%d", b->p->rollback_s);
	lab_tvars_setb(b->t, b->renderer, 1);
	lab_tvars_set(b->t, "top", b->top);
	lab_tvars_setb(b->t, "bonding", !b->req->vlans_only);
	if (b->req->bridge != NULL)
		lab_tvars_set(b->t, "bridge", b->req->bridge);
	for (i = 0; lab_bond_renderer_words[i] != NULL; i++)
		if (strcmp(lab_bond_renderer_words[i], b->renderer) == 0 &&
		    ((d = lab_tvars_add(b->t, "dirs")) == NULL ||
		    lab_tvars_set(d, "dir", dirs[i]) == -1))
			return lab_err_oom(b->err);
	lab_buf_init(&downs);
	for (i = 0; i < b->n; i++) {
		if ((v = lab_tvars_add(b->t, "nics")) == NULL ||
		    (d = lab_tvars_add(b->t, "downs")) == NULL) {
			lab_buf_release(&downs);
			return lab_err_oom(b->err);
		}
		lab_tvars_set(v, "name", b->nics[i]->name);
		lab_tvars_set(v, "mac", b->nics[i]->mac);
		lab_tvars_set(d, "name", b->nics[i]->name);
		lab_buf_addf(slaves, "%s%s", i ? " " : "", b->nics[i]->name);
		lab_buf_addf(&downs, "%s%s", i ? " " : "", b->nics[i]->name);
	}
	for (k = 0; k < 2; k++) {
		if (ups[k] == NULL)
			continue;
		lab_buf_addf(&downs, " %s", ups[k]);
		if ((d = lab_tvars_add(b->t, "downs")) == NULL ||
		    (v = lab_tvars_add(b->t, "ups")) == NULL) {
			lab_buf_release(&downs);
			return lab_err_oom(b->err);
		}
		lab_tvars_set(d, "name", ups[k]);
		lab_tvars_set(v, "name", ups[k]);
	}
	if (vlan_vars(b, &downs) == -1) {
		lab_buf_release(&downs);
		return -1;
	}
	for (k = 1; k >= 0; k--)
		if (ups[k] != NULL && ((v = lab_tvars_add(b->t, "ups_rev")) ==
		    NULL || lab_tvars_set(v, "name", ups[k]) == -1)) {
			lab_buf_release(&downs);
			return lab_err_oom(b->err);
		}
	lab_tvars_set(b->t, "down_names", downs.s ? downs.s : "");
	lab_buf_release(&downs);
	if (slaves->oom)
		return lab_err_oom(b->err);
	return 0;
}

static int
steps(struct bond *b, const char *slaves)
{
	struct lab_step	*s;
	char		 comment[200];
	int		 rc;

	if (b->req->vlans_only)
		snprintf(comment, sizeof(comment), "%s is in use, no network "
		    "change is pending", b->renderer);
	else
		snprintf(comment, sizeof(comment), "the NICs are here with the "
		    "inventory's MACs, the kernel can bond%s, %s is in use",
		    b->req->bridge ? " and bridge" : "", b->renderer);
	if (lab_plan_script(b->p, LAB_STEP_CHECK, "net-check.sh", b->t, comment,
	    b->err) == NULL)
		return -1;
	if (b->nvl > 0 && lab_plan_script(b->p, LAB_STEP_CHECK,
	    "net-8021q.sh", b->t, "the kernel can tag VLANs (8021q, "
	    "/proc/net/vlan), and no other link has a VLAN interface's name",
	    b->err) == NULL)
		return -1;
	snprintf(comment, sizeof(comment), "make the staging folder %s "
	    "(nothing else changes until apply.sh)", STAGING);
	if (lab_plan_script(b->p, LAB_STEP_RUN, "net-stage.sh", b->t, comment,
	    b->err) == NULL)
		return -1;
	if (strcmp(b->renderer, "ifupdown") == 0)
		rc = lab_bond_ifupdown(b, slaves);
	else if (strcmp(b->renderer, "networkd") == 0)
		rc = lab_bond_networkd(b, slaves);
	else
		rc = lab_bond_netplan(b);
	if (rc == -1 || script(b, "apply.sh", "net-apply.sh") == -1 ||
	    script(b, "switch.sh", "net-switch.sh") == -1 ||
	    script(b, "rollback.sh", "net-rollback.sh") == -1 ||
	    script(b, "confirm.sh", "net-confirm.sh") == -1)
		return -1;
	snprintf(comment, sizeof(comment), "save the current config, arm "
	    "the rollback (%d s) and start switching to the new one",
	    b->p->rollback_s);
	if ((s = lab_plan_step(b->p, LAB_STEP_RUN, lab_asprintf("sh %s/apply.sh",
	    STAGING), NULL, comment, b->err)) == NULL)
		return -1;
	s->timeout_s = 30;
	/*
	 * Two new connections: the first may have been opened before the
	 * switch cut the old config, so it only waits for switch.sh; the
	 * second, opened after that answer, went over the new config, and
	 * only it confirms.
	 */
	if ((s = lab_plan_step(b->p, LAB_STEP_RUN, lab_asprintf("sh "
	    "%s/confirm.sh wait", STAGING), NULL, "wait until switch.sh "
	    "has the new config up (changes nothing)", b->err)) == NULL)
		return -1;
	s->reconnect = 1;
	s->timeout_s = b->p->rollback_s + 15;
	snprintf(comment, sizeof(comment), "confirm within %d s, over a "
	    "connection opened after the wait answered, which stops the "
	    "rollback", b->p->rollback_s);
	if ((s = lab_plan_step(b->p, LAB_STEP_RUN, lab_asprintf("sh "
	    "%s/confirm.sh", STAGING), NULL, comment, b->err)) == NULL)
		return -1;
	s->reconnect = 1;
	s->timeout_s = 30;
	return 0;
}

/* Plans a bond. */
int
lab_plan_bond(const struct lab_host *h, const struct lab_bond_req *req,
    struct lab_plan **ret, struct lab_err *err)
{
	struct bond	 b;
	struct lab_buf	 slaves;
	const char	*why;
	size_t		 i;
	int		 rc = -1;

	memset(&b, 0, sizeof(b));
	b.h = h;
	b.req = req;
	b.err = err;
	b.renderer = req->renderer ? req->renderer : "ifupdown";
	if (req->vlans_only && (req->mode != NULL || req->nics != NULL ||
	    req->bridge != NULL))
		return lab_err_set(err, LAB_EXIT_INPUT, "VLAN interfaces alone "
		    "are planned without a bond: no bond mode, NICs or bridge");
	if (req->mode == NULL && !req->vlans_only)
		return lab_err_set(err, LAB_EXIT_INPUT, "no bond mode given "
		    "(active-backup, 802.3ad or balance-alb)");
	if ((req->mode != NULL && word("bond mode", req->mode,
	    lab_bond_mode_words, 3, err) == -1) || word("renderer",
	    b.renderer, lab_bond_renderer_words, 3, err) == -1)
		return -1;
	if (req->bridge != NULL && (lab_check_name(req->bridge, &why) == -1 ||
	    strlen(req->bridge) > 15 || strcmp(req->bridge, BOND) == 0))
		return lab_err_set(err, LAB_EXIT_INPUT, "bad bridge name '%s': "
		    "%s", req->bridge, strlen(req->bridge) > 15 ? "at most 15 "
		    "characters" : strcmp(req->bridge, BOND) == 0 ? "that is "
		    "the bond" : why);
	if (req->rollback_s < 0 || req->rollback_s > 3600)
		return lab_err_set(err, LAB_EXIT_INPUT, "the rollback window "
		    "is 1 to 3600 seconds, not %d", req->rollback_s);
	if (!req->vlans_only && pick_nics(&b) == -1)
		return -1;
	for (i = 0; req->bridge != NULL && i < h->nnics; i++)
		if (strcmp(h->nics[i].name, req->bridge) == 0)
			return lab_err_set(err, LAB_EXIT_INPUT, "bad bridge "
			    "name '%s': host '%s' has a NIC of that name",
			    req->bridge, h->name);
	if (lab_vlan_links(h, b.nics, b.n, BOND, &b.vl, &b.nvl, err) == -1)
		return -1;
	if (req->vlans_only && b.nvl == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no NIC "
		    "with VLANs to tag (tagged: true and vlan: or vlans: in the "
		    "inventory)", h->name);
	for (i = 0; req->bridge != NULL && i < b.nvl; i++)
		if (strcmp(b.vl[i].name, req->bridge) == 0) {
			lab_err_set(err, LAB_EXIT_INPUT, "bad bridge name "
			    "'%s': that is a VLAN interface of NIC '%s'",
			    req->bridge, b.vl[i].nic->name);
			free(b.vl);
			return -1;
		}
	for (i = 0; i < b.nvl; i++)
		if (!b.vl[i].on_bond && strcmp(b.renderer, "networkd") == 0) {
			const struct lab_loc *l = &b.vl[i].nic->loc;

			lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: NIC '%s' "
			    "has tagged VLANs but is not in the bond: with "
			    "networkd lab renders VLAN interfaces on the bond "
			    "only (the NIC's .network is not lab's); use "
			    "ifupdown or netplan, or bond it", l->file,
			    l->line, l->col, b.vl[i].parent);
			free(b.vl);
			return -1;
		}
	lab_buf_init(&slaves);
	if ((b.p = lab_plan_new(h, "network", req->mode ? req->mode :
	    "vlans")) == NULL ||
	    (b.p->staging = strdup(STAGING)) == NULL ||
	    (b.t = lab_tvars_new()) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	b.p->rollback_s = req->rollback_s ? req->rollback_s : 60;
	b.top = req->bridge ? req->bridge : req->vlans_only ? b.vl[0].name :
	    BOND;
	if (req->mode != NULL && (strcmp(req->mode, "802.3ad") == 0 ?
	    check_lag(&b) : check_no_lag(&b)) == -1)
		goto out;
	if (!req->vlans_only && (h->network == NULL ||
	    h->network->address == NULL) &&
	    lab_plan_warn(b.p, err, "host '%s' has no network address in the "
	    "inventory: %s gets one over DHCP, which may differ from the "
	    "address lab reaches it at", h->name, b.top) == -1)
		goto out;
	if (script_vars(&b, &slaves) == -1 || steps(&b, slaves.s) == -1)
		goto out;
	rc = 0;
out:
	lab_buf_release(&slaves);
	lab_tvars_free(b.t);
	free(b.vl);
	if (rc == 0)
		*ret = b.p;
	else
		lab_plan_free(b.p);
	return rc;
}
