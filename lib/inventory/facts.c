/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"

/*
 * The facts data model (include/lab/facts.h): the functions that free it
 * and the findings list, here below lib/db/, lib/facts/, lib/ipmi/ and
 * lib/snmp/ so that all of them share it.
 */

static int
severity_rank(const char *s)
{
	if (s == NULL)
		return 3;
	if (strcmp(s, "critical") == 0)
		return 0;
	if (strcmp(s, "warning") == 0)
		return 1;
	if (strcmp(s, "info") == 0)
		return 2;
	return 3;
}

int
lab_fact_findings_add(struct lab_fact_findings *fs, const char *severity,
    const char *kind, const char *subject, const char *fmt, ...)
{
	struct lab_fact_finding	*f;
	va_list			 ap;
	char			*msg = NULL;
	int			 r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	f = lab_push(&fs->v, &fs->n, sizeof(*f));
	if (f == NULL) {
		free(msg);
		return -1;
	}
	f->severity = strdup(severity);
	f->kind = strdup(kind);
	f->subject = strdup(subject != NULL ? subject : "");
	f->message = msg;
	if (f->severity == NULL || f->kind == NULL || f->subject == NULL)
		return -1;
	return 0;
}

void
lab_fact_findings_sort(struct lab_fact_findings *fs)
{
	size_t			i, j;
	struct lab_fact_finding	t;

	/* insertion sort: stable, and the lists are short */
	for (i = 1; i < fs->n; i++) {
		t = fs->v[i];
		for (j = i; j > 0 && severity_rank(fs->v[j - 1].severity) >
		    severity_rank(t.severity); j--)
			fs->v[j] = fs->v[j - 1];
		fs->v[j] = t;
	}
}

void
lab_fact_findings_release(struct lab_fact_findings *fs)
{
	size_t	i;

	for (i = 0; i < fs->n; i++) {
		free(fs->v[i].severity);
		free(fs->v[i].kind);
		free(fs->v[i].subject);
		free(fs->v[i].message);
	}
	free(fs->v);
	fs->v = NULL;
	fs->n = 0;
}

void
lab_fact_bmc_release(struct lab_fact_bmc *b)
{
	free(b->error);
	free(b->firmware);
	free(b->ipmi_version);
	free(b->manufacturer);
	free(b->fru_product);
	free(b->fru_serial);
	memset(b, 0, sizeof(*b));
}

void
lab_host_facts_release(struct lab_host_facts *f)
{
	size_t	i;

	if (f == NULL)
		return;
	free(f->host);
	free(f->error);
	free(f->kernel);
	for (i = 0; i < f->ndisks; i++) {
		free(f->disks[i].name);
		free(f->disks[i].path);
		free(f->disks[i].serial);
		free(f->disks[i].model);
		free(f->disks[i].firmware);
		free(f->disks[i].transport);
	}
	free(f->disks);
	for (i = 0; i < f->nnics; i++) {
		free(f->nics[i].name);
		free(f->nics[i].mac);
		free(f->nics[i].driver);
		free(f->nics[i].kind);
		free(f->nics[i].master);
		free(f->nics[i].duplex);
		free(f->nics[i].product);
	}
	free(f->nics);
	for (i = 0; i < f->naddrs; i++) {
		free(f->addrs[i].ifname);
		free(f->addrs[i].family);
		free(f->addrs[i].address);
	}
	free(f->addrs);
	free(f->dmi.sys_vendor);
	free(f->dmi.product_name);
	free(f->dmi.product_serial);
	free(f->dmi.bios_vendor);
	free(f->dmi.bios_version);
	free(f->dmi.bios_date);
	lab_fact_bmc_release(&f->bmc);
	lab_strv_release(&f->nm.managed);
	lab_strv_release(&f->notes);
	lab_fact_findings_release(&f->findings);
	memset(f, 0, sizeof(*f));
}

void
lab_fact_kvs_free(struct lab_fact_kv *kv, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void
lab_fact_events_free(struct lab_fact_event *ev, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(ev[i].kind);
		free(ev[i].subject);
		free(ev[i].key);
		free(ev[i].from);
		free(ev[i].to);
	}
	free(ev);
}

void
lab_stored_findings_free(struct lab_stored_finding *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].kind);
		free(v[i].subject_name);
		free(v[i].f.severity);
		free(v[i].f.kind);
		free(v[i].f.subject);
		free(v[i].f.message);
	}
	free(v);
}

void
lab_switch_facts_release(struct lab_switch_facts *sf)
{
	size_t	i;

	if (sf == NULL)
		return;
	free(sf->switch_name);
	free(sf->version);
	for (i = 0; i < sf->nents; i++) {
		free(sf->ents[i].class_name);
		free(sf->ents[i].descr);
		free(sf->ents[i].name);
		free(sf->ents[i].model);
		free(sf->ents[i].serial);
		free(sf->ents[i].hardware_rev);
		free(sf->ents[i].firmware_rev);
		free(sf->ents[i].software_rev);
	}
	free(sf->ents);
	lab_fact_findings_release(&sf->findings);
	memset(sf, 0, sizeof(*sf));
}

void
lab_port_views_free(struct lab_port_view *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].nic);
		free(v[i].switch_name);
		free(v[i].port);
		free(v[i].duplex);
	}
	free(v);
}
