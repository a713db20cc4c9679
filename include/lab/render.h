/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_RENDER_H
#define LAB_RENDER_H

#include <stddef.h>

#include "lab/db.h"
#include "lab/inventory.h"
#include "lab/json.h"

/*
 * JSON shapes of the inventory. These are contracts (documented in the
 * README): add members, never rename them.
 */

/*
 * One host: name, model, role, groups, bmc (null or type, address, port,
 * credential, cipher_suite), nics [name, mac], disks [slot, kind,
 * size_bytes, controller].
 */
void	lab_render_host_json(struct lab_json *, const struct lab_host *);
/*
 * A BMC: null, or {type, address, port, credential, cipher_suite,
 * workarounds, privilege, timeout, retransmit}: the one shape, under
 * "bmc" in ls/show/export and under "bmc_info" where an older contract
 * keeps "bmc" a string (power, media, the report).
 */
void	lab_render_bmc_json(struct lab_json *, const struct lab_bmc *);
/*
 * key: a command line as the audit log keeps it, as an array of its words
 * (null: none). Beside "argv", the old string, as "args".
 */
void	lab_json_kargs(struct lab_json *, const char *key, const char *line);
/* The same members without the braces, for callers that add more. */
void	lab_render_host_fields(struct lab_json *, const struct lab_host *);
/* One switch: name, model, address, port, snmp. */
void	lab_render_switch_json(struct lab_json *, const struct lab_switch *);
/* The same members without the braces, for callers that add more. */
void	lab_render_switch_fields(struct lab_json *, const struct lab_switch *);
/*
 * A VLAN wish as members of the object open in j: vlan, or vlans and
 * native, and tagged when true; nothing when unset.
 */
void	lab_render_vlan_want_fields(struct lab_json *,
	    const struct lab_vlan_want *);
/* A switch's vlans, ports, management_vlan and uplinks, as members. */
void	lab_render_switch_vlans_fields(struct lab_json *,
	    const struct lab_switch *);
/* The whole inventory: {groups, hosts, switches}. */
void	lab_render_inventory_json(struct lab_json *,
	    const struct lab_inventory *);
/* One audit entry: id, time (ISO 8601 UTC), user, command, argv, result,
 * message, and beside them args (argv's words) and logged_at (= time). */
void	lab_render_audit_json(struct lab_json *, const struct lab_audit *);
struct lab_switch_view;
struct lab_links;
struct lab_findings;
/*
 * One discovered switch: name, ok, error, system, ports, fdb, vlans, lags,
 * neighbors, links, findings (with known issues), facts, facts_note,
 * stats (lib/render-switch.c).
 */
void	lab_render_switch_view_json(struct lab_json *,
	    const struct lab_switch_view *, const struct lab_links *,
	    const struct lab_findings *);
/*
 * A switch's facts (issue 20): {version, entities: [{index, class, descr,
 * name, model, serial, hardware_rev, firmware_rev, software_rev}]}, or
 * null when it has none (lib/render-switch.c).
 */
struct lab_switch_facts;
struct lab_fact_findings;
void	lab_render_switch_facts_json(struct lab_json *,
	    const struct lab_switch_facts *);
/* Findings of facts as objects {severity, kind, subject, message} into
 * the array open in j. */
void	lab_render_fact_findings_items(struct lab_json *,
	    const struct lab_fact_findings *);
/* Formats a time as ISO 8601 UTC ("2026-11-30T18:53:45Z"); buf of 32. */
void	lab_format_time(int64_t, char *buf, size_t len);
/* key: the time as lab_format_time writes it, or null when t is 0. */
void	lab_json_ktime(struct lab_json *, const char *key, int64_t t);

#endif
