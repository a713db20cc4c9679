/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_FACTS_H
#define LAB_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "lab/ctx.h"
#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/str.h"

struct lab_db;
struct lab_fact_kv;

/*
 * What a host or switch really is (issue 20): facts read from it, stored
 * with first- and last-seen times, compared with the inventory (drift)
 * and with the known issues of firmware (inventory/known-issues.yaml).
 *
 * Where each part lives:
 *   lib/facts/parse-*.c   the parsers of what a host prints (lsblk -J -O,
 *                         smartctl -i -j, /sys/class/net, ip -j addr,
 *                         DMI, NetworkManager): rank 2, no peer, no SQL
 *   lib/facts/drift.c     facts + inventory + discovered switch ports ->
 *                         findings (rank 2, pure)
 *   lib/facts/known.c     version compare and known-issue matching
 *   lib/inventory/known-issues.c  the known-issues YAML loader
 *   lib/ipmi/devid.c      Get Device ID and FRU over a session
 *   lib/snmp/mib/entity.c ENTITY-MIB decoder (switch facts at discover)
 *   lib/db/facts.c        storage (migration 016): facts with first and
 *                         last seen, findings of the last run
 *   lib/facts.c           the entry point: fan-out over hosts, SSH and
 *                         IPMI, drift, store
 *   cmd/facts.c           lab facts TARGET... [--json] [--yaml]
 *
 * Every string of a struct here is malloc'd and owned by the struct;
 * NULL when not known. Numbers are -1 when not known.
 */

/* A block device as the host sees it (lsblk -J -O, smartctl -i -j). */
struct lab_fact_disk {
	char		*name;		/* the kernel's name: "sda" */
	char		*path;		/* /dev/disk/by-id/... (the stable
					   one: ata-/scsi-/nvme-, not wwn-) */
	char		*serial;
	char		*model;
	char		*firmware;	/* smartctl's firmware_version */
	char		*transport;	/* sata | sas | nvme | usb | ... */
	int64_t		 size_bytes;
	int		 rotational;	/* 1, 0, -1 */
};

/* A network interface (/sys/class/net/NAME). */
struct lab_fact_nic {
	char		*name;		/* "eth0", "bond0" */
	char		*mac;		/* lower case, colons */
	char		*driver;	/* "tg3"; NULL for virtual ones */
	char		*kind;		/* NULL: physical; "bond", "bridge",
					   "vlan", "loopback", "virtual" */
	char		*master;	/* the bond or bridge it is in */
	char		*duplex;	/* "full" | "half" | NULL */
	long		 speed_mbps;	/* -1 when unknown or no link */
	int		 carrier;	/* 1, 0, -1 */
	char		*product;	/* PCI vendor/device text, or NULL */
};

/* One address (ip -j addr). */
struct lab_fact_addr {
	char		*ifname;
	char		*family;	/* "inet" | "inet6" */
	char		*address;	/* "192.0.2.10" */
	int		 prefixlen;
};

/* DMI (/sys/class/dmi/id). */
struct lab_fact_dmi {
	char		*sys_vendor;
	char		*product_name;
	char		*product_serial;
	char		*bios_vendor;
	char		*bios_version;
	char		*bios_date;
};

/* The BMC's Get Device ID (and FRU when it offers one). */
struct lab_fact_bmc {
	int		 ok;		/* 0: not asked, no BMC, or failed */
	char		*error;		/* why not, when asked and failed */
	char		*firmware;	/* "1.30": major.minor, minor as the
					   two BCD digits IPMI gives */
	char		*ipmi_version;	/* "2.0" */
	long		 manufacturer_id;	/* IANA number */
	char		*manufacturer;	/* "Hewlett-Packard" where known */
	long		 product_id;
	long		 device_id;
	char		*fru_product;	/* FRU board/product name, or NULL */
	char		*fru_serial;
};

/* NetworkManager on the host. */
struct lab_fact_nm {
	int		 running;	/* 1, 0, -1 (could not tell) */
	struct lab_strv	 managed;	/* interfaces it manages */
};

/*
 * One finding: drift from the inventory, a known issue, a missing tool.
 * severity: "critical" | "warning" | "info" (the report's words).
 * kind: a word of lib/inventory/words.c (LAB_FINDING_*): "disk-missing",
 * "disk-extra", "disk-swapped", "disk-size", "disk-kind", "nic-missing",
 * "nic-mac", "model", "link-mismatch", "link-slow",
 * "networkmanager", "known-issue", "smart-warning", "tool-missing".
 */
struct lab_fact_finding {
	char		*severity;
	char		*kind;
	char		*subject;	/* "microserver1 disk 2 (sdb)" */
	char		*message;	/* with the fix where there is one */
};

struct lab_fact_findings {
	struct lab_fact_finding	*v;
	size_t			 n;
};

/* Everything read of one host by lab facts. */
struct lab_host_facts {
	char			*host;
	int			 ok;		/* the SSH part ran */
	char			*error;		/* why not */
	int64_t			 seen_at;	/* unix seconds */
	char			*kernel;	/* uname -r */
	struct lab_fact_disk	*disks;
	size_t			 ndisks;
	struct lab_fact_nic	*nics;
	size_t			 nnics;
	struct lab_fact_addr	*addrs;
	size_t			 naddrs;
	struct lab_fact_dmi	 dmi;
	struct lab_fact_bmc	 bmc;
	struct lab_fact_nm	 nm;
	struct lab_strv		 notes;		/* "smartctl missing on the
						   target: apt-get install
						   smartmontools" */
	struct lab_fact_findings findings;	/* most severe first */
};

void	lab_host_facts_release(struct lab_host_facts *);
int	lab_fact_findings_add(struct lab_fact_findings *, const char *severity,
	    const char *kind, const char *subject, const char *fmt, ...)
	    LAB_PRINTF(5, 6);
/* Sorts most severe first, stable. */
void	lab_fact_findings_sort(struct lab_fact_findings *);
void	lab_fact_findings_release(struct lab_fact_findings *);

/*
 * The parsers (lib/facts/parse-*.c): each fills its part of f from what
 * the host printed, adds a note for a tool that is missing, and returns -1
 * with err (LAB_EXIT_PARTIAL, naming host) only when the text is not what
 * the tool prints.
 */
int	lab_facts_parse_lsblk(struct lab_host_facts *f, const char *json,
	    struct lab_err *err);
int	lab_facts_parse_smartctl(struct lab_host_facts *f, const char *disk,
	    const char *json, struct lab_err *err);
int	lab_facts_parse_ip_addr(struct lab_host_facts *f, const char *json,
	    struct lab_err *err);
/* The sections of templates/facts.sh: "== NAME ==" lines, then text. */
int	lab_facts_parse_script(struct lab_host_facts *f, const char *out,
	    struct lab_err *err);
/*
 * Drops the disks the parsers keep but lab facts shows only when h (may
 * be NULL) declares them as a disk's device (/dev/NAME or its by-id
 * path): loop, ram, zram and nbd devices.
 */
void	lab_facts_keep_disks(struct lab_host_facts *f,
	    const struct lab_host *h);

/*
 * A known issue (inventory/known-issues.yaml, lib/inventory/
 * known-issues.c), matched against a component's firmware:
 *
 *   known_issues:
 *     - match: {bmc: rac, component: bmc, below: "1.30"}
 *       severity: warning
 *       message: "..."
 *       source: "https://..."
 *
 * match keys: model (a host or switch model of the catalogue, or a glob),
 * bmc (rac | ilo2 | ipmi), component (bmc | bios | switch | disk |
 * kernel), product (a glob over the component's model text: a disk's
 * model, a switch's entPhysicalModelName) and exactly one of below,
 * equal, matching (a glob) for the component's firmware.
 */
struct lab_known_issue {
	char		*model;
	char		*bmc;
	char		*component;
	char		*product;
	char		*below;
	char		*equal;
	char		*matching;
	char		*severity;
	char		*message;
	char		*source;
	struct lab_loc	 loc;
};

struct lab_known_issues {
	struct lab_pool		 pool;	/* owns every string */
	struct lab_known_issue	*v;
	size_t			 n;
	struct lab_strv		 files;	/* owns loc.file */
};

void	lab_known_issues_init(struct lab_known_issues *);
void	lab_known_issues_release(struct lab_known_issues *);
/* Loads one YAML file; errors name file:line:col (exit 2). */
int	lab_known_issues_load(struct lab_known_issues *, const char *path,
	    struct lab_err *err);
int	lab_known_issues_load_buf(struct lab_known_issues *, const char *name,
	    const char *buf, size_t len, struct lab_err *err);
/* Appends a copy of ki (its strings and file name copied into k). */
int	lab_known_issues_append(struct lab_known_issues *,
	    const struct lab_known_issue *ki, struct lab_err *err);
/*
 * The shipped list, inventory/known-issues.yaml as embedded at build
 * time (lib/inventory/known-shipped.c), appended to k; its loc.file is
 * "known-issues.yaml (shipped)".
 */
int	lab_known_issues_shipped(struct lab_known_issues *,
	    struct lab_err *err);
/*
 * What lab facts matches against: the shipped list, then the known_issues:
 * of the inventory last imported (lib/db/known-issues.c), into out (which
 * the caller has initialised). -1 with err: exit 3 (the database).
 */
int	lab_known_issues_effective(struct lab_db *,
	    struct lab_known_issues *out, struct lab_err *err);
/* The imported ones only (lab export writes them back). */
int	lab_db_known_issues_load(struct lab_db *, struct lab_known_issues *out,
	    struct lab_err *err);

/*
 * Compares firmware versions: numbers compared as numbers, dots and
 * dashes as separators, "1.1.2.0" < "1.1.10". <0, 0, >0.
 */
int	lab_version_cmp(const char *a, const char *b);

/* What one component is, for matching. */
struct lab_component {
	const char	*model;		/* the host's or switch's model */
	const char	*bmc;		/* the host's BMC type, or NULL */
	const char	*component;	/* "bmc", "bios", "switch", "disk" */
	const char	*product;	/* the component's own model text */
	const char	*firmware;
};

/* 1 when ki matches c. */
int	lab_known_issue_match(const struct lab_known_issue *ki,
	    const struct lab_component *c);
/* Adds a "known-issue" finding for every issue of kis that c matches. */
int	lab_known_issues_check(const struct lab_known_issues *kis,
	    const struct lab_component *c, const char *subject,
	    struct lab_fact_findings *out, struct lab_err *err);

/*
 * Drift (lib/facts/drift.c): the findings of f against the host h as
 * declared, and the switch's view of each NIC's port (ports[i] for NIC
 * name nic[i]; NULL entries when not linked).
 */
struct lab_port_view {
	char		*nic;		/* the host's NIC name */
	char		*switch_name;
	char		*port;		/* "gi1/0/7" */
	long		 speed_mbps;	/* the switch's ifHighSpeed; -1 */
	char		*duplex;	/* "full" | "half" | NULL */
	long		 max_mbps;	/* what the port can do; -1 */
};

/* The ports the last discovery linked h's NICs to (lib/db/facts-ports.c). */
int	lab_db_port_views(struct lab_db *, const char *host,
	    struct lab_port_view **ret, size_t *n, struct lab_err *err);
void	lab_port_views_free(struct lab_port_view *, size_t n);

int	lab_facts_drift(const struct lab_host *h,
	    const struct lab_host_facts *f, const struct lab_port_view *ports,
	    size_t nports, struct lab_fact_findings *out, struct lab_err *err);
/*
 * The same, with the subject's previous facts (lab_db_facts_get before
 * the put): a disk whose serial changed since (swapped) is found only
 * here. lab_facts_drift is this with no previous facts.
 */
int	lab_facts_drift_prev(const struct lab_host *h,
	    const struct lab_host_facts *f, const struct lab_port_view *ports,
	    size_t nports, const struct lab_fact_kv *prev, size_t nprev,
	    struct lab_fact_findings *out, struct lab_err *err);

/*
 * The observed disks and NICs of f as inventory YAML (a host: block a
 * user can paste), caller-owned.
 */
int	lab_facts_to_yaml(const struct lab_host_facts *f,
	    const struct lab_host *h, char **ret, struct lab_err *err);

/* The --json object of one host's facts (the contract of issue 20). */
struct lab_json;
void	lab_facts_json(struct lab_json *, const struct lab_host_facts *);

/*
 * Storage (lib/db/facts.c, migration 016). A fact is one (kind, subject,
 * key, value): kind "host" or "switch", subject its name, key a path such
 * as "disk.sda.serial", "nic.eth0.mac", "bmc.firmware", "dmi.bios_version",
 * "entity.1001.software_rev". A value first seen is a new row with
 * first_seen = last_seen = now; the same value again moves last_seen; a
 * changed value closes the old row (it keeps its last_seen) and opens a
 * new one: so a change is a dated event. Keys not in the new set are
 * closed too (a disk removed).
 */
struct lab_fact_kv {
	char		*key;
	char		*value;
};

/* f flattened into sorted keys (lab_fact_kvs_free()). */
int	lab_host_facts_flatten(const struct lab_host_facts *f,
	    struct lab_fact_kv **ret, size_t *n, struct lab_err *err);
void	lab_fact_kvs_free(struct lab_fact_kv *, size_t n);

/*
 * Stores kv of one subject and replaces its findings, in one transaction.
 * A kv whose value is NULL counts as absent; a key twice is bad input.
 * findings NULL leaves the stored ones as they are.
 */
int	lab_db_facts_put(struct lab_db *, const char *kind, const char *subject,
	    const struct lab_fact_kv *kv, size_t n,
	    const struct lab_fact_findings *findings, int64_t now,
	    struct lab_err *err);

/* The current facts of one subject, sorted by key. */
int	lab_db_facts_get(struct lab_db *, const char *kind, const char *subject,
	    struct lab_fact_kv **ret, size_t *n, struct lab_err *err);

/* When the subject's current facts were last seen; 0 when it has none. */
int	lab_db_facts_seen(struct lab_db *, const char *kind,
	    const char *subject, int64_t *last, struct lab_err *err);

/* A change of one fact: from NULL is new, to NULL is gone. */
struct lab_fact_event {
	char		*kind;
	char		*subject;
	char		*key;
	char		*from;
	char		*to;
	int64_t		 at;
};

/* Changes after since (unix seconds), oldest first. */
int	lab_db_fact_events(struct lab_db *, int64_t since,
	    struct lab_fact_event **ret, size_t *n, struct lab_err *err);
void	lab_fact_events_free(struct lab_fact_event *, size_t n);

/* The findings stored by the last run of each subject (NULL: all). */
struct lab_stored_finding {
	char		*kind;		/* "host" | "switch" */
	char		*subject_name;	/* the host or switch */
	struct lab_fact_finding f;
	int64_t		 seen_at;
};
int	lab_db_fact_findings(struct lab_db *, const char *subject,
	    struct lab_stored_finding **ret, size_t *n, struct lab_err *err);
void	lab_stored_findings_free(struct lab_stored_finding *, size_t n);

/*
 * The BMC's identity over an open session (lib/ipmi/devid.c): Get Device
 * ID, then FRU 0 when the BMC offers it (a FRU failure is not an error).
 */
struct lab_ipmi;
int	lab_ipmi_device_id(struct lab_ipmi *, struct lab_fact_bmc *ret,
	    struct lab_err *err);
void	lab_fact_bmc_release(struct lab_fact_bmc *);

/*
 * The entry point of lab facts (lib/facts.c): for each of the hosts (in
 * a fan-out of at most fanout), SSH (when it has ssh:) and IPMI (when it
 * has bmc: and a credential), drift against the inventory and the last
 * discovery, known issues, and stores it unless dry. res[i] is hosts[i];
 * each result's ok/error says how it went. -1 only for this machine's
 * own problems (exit 3).
 */
struct lab_creds;
struct lab_facts_opts {
	const struct lab_ctx		*ctx;
	struct lab_db			*db;
	const struct lab_inventory	*inv;
	const struct lab_creds		*creds;
	const struct lab_known_issues	*known;
	size_t				 fanout;
	int				 timeout_ms;
	int				 accept_new_hostkey;
	int				 no_record;	/* --no-record:
						   nothing stored */
};
int	lab_facts_run(const struct lab_facts_opts *, const struct lab_host **hosts,
	    size_t n, struct lab_host_facts *res, struct lab_err *err);

/*
 * A switch's facts at lab switch discover (lib/snmp/mib/entity.c decodes
 * the ENTITY-MIB; lib/switch-facts.c stores and matches them).
 */
struct lab_entity {
	long		 index;
	char		*class_name;	/* "chassis", "module", "stack", ... */
	char		*descr;
	char		*name;
	char		*model;
	char		*serial;
	char		*hardware_rev;
	char		*firmware_rev;
	char		*software_rev;
};

struct lab_switch_facts {
	char			*switch_name;
	char			*version;	/* from sysDescr, or NULL */
	struct lab_entity	*ents;
	size_t			 nents;
	struct lab_fact_findings findings;
};
void	lab_switch_facts_release(struct lab_switch_facts *);

#endif
