/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "lab/facts.h"
#include "lab/inventory.h"
#include "lab/parse.h"
#include "lab/str.h"

struct em {
	yaml_emitter_t	 e;
	struct lab_buf	 out;
	int		 failed;
};

static int
write_out(void *data, unsigned char *buf, size_t len)
{
	lab_buf_add(data, (const char *)buf, len);
	return 1;
}

static void
emit(struct em *em, yaml_event_t *ev)
{
	if (em->failed) {
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&em->e, ev))
		em->failed = 1;
}

/* A value that a plain scalar would read back as null. */
static int
needs_quotes(const char *s)
{
	return *s == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	    strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

static void
str(struct em *em, const char *s)
{
	yaml_event_t	ev;

	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
	    (int)strlen(s), 1, 1, needs_quotes(s) ?
	    YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
	emit(em, &ev);
}

static void
num(struct em *em, long v)
{
	char	buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	str(em, buf);
}

static void
map_begin(struct em *em, int flow)
{
	yaml_event_t	ev;

	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	emit(em, &ev);
}

static void
map_end(struct em *em)
{
	yaml_event_t	ev;

	yaml_mapping_end_event_initialize(&ev);
	emit(em, &ev);
}

static void
seq_begin(struct em *em, int flow)
{
	yaml_event_t	ev;

	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	emit(em, &ev);
}

static void
seq_end(struct em *em)
{
	yaml_event_t	ev;

	yaml_sequence_end_event_initialize(&ev);
	emit(em, &ev);
}

static void
kv(struct em *em, const char *k, const char *v)
{
	if (v == NULL)
		return;
	str(em, k);
	str(em, v);
}

static void
kn(struct em *em, const char *k, long v)
{
	str(em, k);
	num(em, v);
}

/* A VLAN wish's keys, in the mapping of a NIC or a ports: entry. */
static void
emit_want(struct em *em, const struct lab_vlan_want *w)
{
	size_t	i;

	if (!w->set)
		return;
	if (w->ntrunk == 0)
		kn(em, "vlan", (long)w->access);
	else {
		str(em, "vlans");
		seq_begin(em, 1);
		for (i = 0; i < w->ntrunk; i++)
			num(em, (long)w->trunk[i]);
		seq_end(em);
		if (w->native != 0)
			kn(em, "native", (long)w->native);
	}
	if (w->tagged)
		kv(em, "tagged", "true");
}

/* A switch's vlans, ports, management_vlan and uplinks. */
static void
emit_switch_vlans(struct em *em, const struct lab_switch *s)
{
	size_t	i;

	if (s->nvlans > 0) {
		str(em, "vlans");
		seq_begin(em, 0);
		for (i = 0; i < s->nvlans; i++) {
			map_begin(em, 1);
			kn(em, "id", (long)s->vlans[i].id);
			kv(em, "name", s->vlans[i].name);
			map_end(em);
		}
		seq_end(em);
	}
	if (s->nports > 0) {
		str(em, "ports");
		seq_begin(em, 0);
		for (i = 0; i < s->nports; i++) {
			map_begin(em, 1);
			kv(em, "port", s->ports[i].port);
			emit_want(em, &s->ports[i].vlan);
			kv(em, "description", s->ports[i].description);
			map_end(em);
		}
		seq_end(em);
	}
	if (s->management_vlan != 0)
		kn(em, "management_vlan", (long)s->management_vlan);
	if (s->uplinks.n > 0) {
		str(em, "uplinks");
		seq_begin(em, 1);
		for (i = 0; i < s->uplinks.n; i++)
			str(em, s->uplinks.v[i]);
		seq_end(em);
	}
}

static void
words(struct em *em, const char *k, const struct lab_strv *sv)
{
	size_t	i;

	if (sv->n == 0)
		return;
	str(em, k);
	seq_begin(em, 1);
	for (i = 0; i < sv->n; i++)
		str(em, sv->v[i]);
	seq_end(em);
}

/* shares: and mounts: (issue 21) */
static void
emit_shares(struct em *em, const struct lab_host *h)
{
	const struct lab_share	*s;
	const char		*eq;
	char			 size[32], k[32];
	size_t			 i, j;

	if (h->nshares > 0) {
		str(em, "shares");
		seq_begin(em, 0);
		for (i = 0; i < h->nshares; i++) {
			s = &h->shares[i];
			map_begin(em, 0);
			kv(em, "name", s->name);
			kv(em, "protocol", s->protocol);
			kv(em, "pool", s->pool);
			kv(em, "vg", s->vg);
			kv(em, "path", s->path);
			if (s->size_bytes > 0) {
				lab_format_size(s->size_bytes, size,
				    sizeof(size));
				kv(em, "size", size);
			}
			kv(em, "iqn", s->iqn);
			if (s->sparse)
				kv(em, "sparse", "true");
			words(em, "clients", &s->clients);
			words(em, "options", &s->options);
			words(em, "initiators", &s->initiators);
			if (s->properties.n > 0) {
				str(em, "properties");
				map_begin(em, 1);
				for (j = 0; j < s->properties.n; j++) {
					eq = strchr(s->properties.v[j], '=');
					if (eq == NULL ||
					    (size_t)(eq - s->properties.v[j]) >=
					    sizeof(k))
						continue;
					memcpy(k, s->properties.v[j],
					    (size_t)(eq - s->properties.v[j]));
					k[eq - s->properties.v[j]] = '\0';
					kv(em, k, eq + 1);
				}
				map_end(em);
			}
			map_end(em);
		}
		seq_end(em);
	}
	if (h->nmounts > 0) {
		str(em, "mounts");
		seq_begin(em, 0);
		for (i = 0; i < h->nmounts; i++) {
			map_begin(em, 1);
			kv(em, "share", h->mounts[i].share);
			kv(em, "path", h->mounts[i].path);
			words(em, "options", &h->mounts[i].options);
			map_end(em);
		}
		seq_end(em);
	}
}

static void
emit_host(struct em *em, const struct lab_host *h)
{
	char	size[32];
	size_t	i;

	map_begin(em, 0);
	kv(em, "name", h->name);
	kv(em, "model", h->model);
	kv(em, "role", h->role);
	if (h->groups.n > 0) {
		str(em, "groups");
		seq_begin(em, 1);
		for (i = 0; i < h->groups.n; i++)
			str(em, h->groups.v[i]);
		seq_end(em);
	}
	if (h->bmc != NULL) {
		str(em, "bmc");
		map_begin(em, 0);
		kv(em, "type", h->bmc->type);
		kv(em, "address", h->bmc->address);
		kn(em, "port", h->bmc->port);
		kv(em, "credential", h->bmc->credential);
		kn(em, "cipher_suite", h->bmc->cipher_suite);
		if (h->bmc->workarounds.n > 0) {
			str(em, "workarounds");
			seq_begin(em, 1);
			for (i = 0; i < h->bmc->workarounds.n; i++)
				str(em, h->bmc->workarounds.v[i]);
			seq_end(em);
		}
		kv(em, "privilege", h->bmc->privilege);
		if (h->bmc->timeout_ms > 0)
			kn(em, "timeout", h->bmc->timeout_ms / 1000);
		if (h->bmc->retransmit_ms > 0)
			kn(em, "retransmit", h->bmc->retransmit_ms);
		map_end(em);
	}
	if (h->ssh != NULL) {
		str(em, "ssh");
		map_begin(em, 0);
		kv(em, "address", h->ssh->address);
		kn(em, "port", h->ssh->port);
		kv(em, "user", h->ssh->user);
		kv(em, "identity", h->ssh->identity);
		kv(em, "known_hosts", h->ssh->known_hosts);
		if (h->ssh->legacy_crypto)
			kv(em, "legacy_crypto", "true");
		map_end(em);
	}
	if (h->network != NULL) {
		str(em, "network");
		map_begin(em, 0);
		kv(em, "address", h->network->address);
		kv(em, "gateway", h->network->gateway);
		if (h->network->dns.n > 0) {
			str(em, "dns");
			seq_begin(em, 1);
			for (i = 0; i < h->network->dns.n; i++)
				str(em, h->network->dns.v[i]);
			seq_end(em);
		}
		map_end(em);
	}
	if (h->nnics > 0) {
		str(em, "nics");
		seq_begin(em, 0);
		for (i = 0; i < h->nnics; i++) {
			map_begin(em, 1);
			kv(em, "name", h->nics[i].name);
			kv(em, "mac", h->nics[i].mac);
			emit_want(em, &h->nics[i].vlan);
			map_end(em);
		}
		seq_end(em);
	}
	if (h->ndisks > 0) {
		str(em, "disks");
		seq_begin(em, 0);
		for (i = 0; i < h->ndisks; i++) {
			lab_format_size(h->disks[i].size_bytes, size,
			    sizeof(size));
			map_begin(em, 1);
			kv(em, "slot", h->disks[i].slot);
			kv(em, "kind", h->disks[i].kind);
			kv(em, "size", size);
			kv(em, "controller", h->disks[i].controller);
			kv(em, "device", h->disks[i].device);
			if (h->disks[i].boot)
				kv(em, "boot", "true");
			map_end(em);
		}
		seq_end(em);
	}
	kv(em, "iscsi_initiator", h->initiator);
	emit_shares(em, h);
	map_end(em);
}

static void
emit_switch(struct em *em, const struct lab_switch *s)
{
	map_begin(em, 0);
	kv(em, "name", s->name);
	kv(em, "model", s->model);
	kv(em, "address", s->address);
	kn(em, "port", s->port);
	if (s->snmp.version != NULL) {
		str(em, "snmp");
		map_begin(em, 1);
		kv(em, "version", s->snmp.version);
		kv(em, "credential", s->snmp.credential);
		kv(em, "context", s->snmp.context);
		if (s->snmp.timeout_ms > 0)
			kn(em, "timeout", s->snmp.timeout_ms / 1000);
		if (s->snmp.retries >= 0)
			kn(em, "retries", s->snmp.retries);
		map_end(em);
	}
	emit_switch_vlans(em, s);
	map_end(em);
}

/* The known_issues: of the inventory (include/lab/facts.h). */
static void
emit_known(struct em *em, const struct lab_known_issues *k)
{
	const struct lab_known_issue	*ki;
	size_t				 i;

	if (k == NULL || k->n == 0)
		return;
	str(em, "known_issues");
	seq_begin(em, 0);
	for (i = 0; i < k->n; i++) {
		ki = &k->v[i];
		map_begin(em, 0);
		str(em, "match");
		map_begin(em, 1);
		kv(em, "model", ki->model);
		kv(em, "bmc", ki->bmc);
		kv(em, "component", ki->component);
		kv(em, "product", ki->product);
		kv(em, "below", ki->below);
		kv(em, "equal", ki->equal);
		kv(em, "matching", ki->matching);
		map_end(em);
		kv(em, "severity", ki->severity);
		kv(em, "message", ki->message);
		kv(em, "source", ki->source);
		map_end(em);
	}
	seq_end(em);
}

/* Writes the inventory as YAML that loads back to the same inventory. */
int
lab_inventory_to_yaml(const struct lab_inventory *inv, char **ret,
    struct lab_err *err)
{
	struct em	em;
	yaml_event_t	ev;
	size_t		i;
	char		*s;

	memset(&em, 0, sizeof(em));
	if (!yaml_emitter_initialize(&em.e))
		return lab_err_oom(err);
	yaml_emitter_set_output(&em.e, write_out, &em.out);
	yaml_emitter_set_unicode(&em.e, 1);
	yaml_emitter_set_width(&em.e, 1000);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(&em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	emit(&em, &ev);
	map_begin(&em, 0);
	if (inv->ngroups > 0) {
		str(&em, "groups");
		seq_begin(&em, 0);
		for (i = 0; i < inv->ngroups; i++) {
			map_begin(&em, 1);
			kv(&em, "name", inv->groups[i].name);
			kv(&em, "description", inv->groups[i].description);
			map_end(&em);
		}
		seq_end(&em);
	}
	str(&em, "hosts");
	seq_begin(&em, inv->nhosts == 0);
	for (i = 0; i < inv->nhosts; i++)
		emit_host(&em, &inv->hosts[i]);
	seq_end(&em);
	str(&em, "switches");
	seq_begin(&em, inv->nswitches == 0);
	for (i = 0; i < inv->nswitches; i++)
		emit_switch(&em, &inv->switches[i]);
	seq_end(&em);
	emit_known(&em, inv->known);
	map_end(&em);
	yaml_document_end_event_initialize(&ev, 1);
	emit(&em, &ev);
	yaml_stream_end_event_initialize(&ev);
	emit(&em, &ev);
	yaml_emitter_delete(&em.e);
	if (em.failed) {
		lab_buf_release(&em.out);
		return lab_err_set(err, LAB_EXIT_ENV, "cannot write YAML");
	}
	if ((s = lab_buf_steal(&em.out)) == NULL)
		return lab_err_oom(err);
	*ret = s;
	return 0;
}
