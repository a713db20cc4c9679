/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>
#include <strings.h>

#include "lab/ipmi.h"
#include "lab/bmc.h"
#include "lab/provision.h"
#include "lab/mib.h"
#include "lab/switch.h"
#include "words.h"

/*
 * The words the inventory reads and the database stores: workaround
 * flags, privilege levels, power states, boot devices, verbs, run states,
 * port states, finding kinds. Below every layer that uses them, so the
 * loaders, the database and the protocols spell them one way. The
 * workaround bits are lab's own (include/lab/ipmi.h); lib/ipmi/ maps
 * them to FreeIPMI's session, sensor, SEL and SOL flags.
 */
static const struct {
	const char	*word;
	unsigned	 bits;
} workarounds[] = {
	/* IPMI 2.0 session workarounds, as the FreeIPMI tools spell them. */
	{ "authcap",		LAB_IPMI_WA_AUTHCAP },
	{ "intel20",		LAB_IPMI_WA_INTEL20 },
	{ "supermicro20",	LAB_IPMI_WA_SUPERMICRO20 },
	{ "sun20",		LAB_IPMI_WA_SUN20 },
	{ "opensesspriv",	LAB_IPMI_WA_OPENSESSPRIV },
	{ "integritycheckvalue", LAB_IPMI_WA_INTEGRITYCHECKVALUE },
	{ "nochecksumcheck",	LAB_IPMI_WA_NOCHECKSUMCHECK },
	/* IPMI 1.5 only: lab never speaks 1.5, so they change nothing. */
	{ "idzero",		LAB_IPMI_WA_IPMI15_ONLY },
	{ "unexpectedauth",	LAB_IPMI_WA_IPMI15_ONLY },
	{ "forcepermsg",	LAB_IPMI_WA_IPMI15_ONLY },
	{ "endianseq",		LAB_IPMI_WA_IPMI15_ONLY },
	{ "noauthcodecheck",	LAB_IPMI_WA_IPMI15_ONLY },
	{ "ignoreauthcode",	LAB_IPMI_WA_IPMI15_ONLY },
	/* ipmi-sensors and ipmi-sel workarounds. */
	{ "discretereading",	LAB_IPMI_WA_DISCRETEREADING },
	{ "ignorescanningdisabled", LAB_IPMI_WA_IGNORESCANNINGDISABLED },
	{ "assumebmcowner",	LAB_IPMI_WA_ASSUMEBMCOWNER },
	{ "assumesystemevent",	LAB_IPMI_WA_ASSUMESYSTEMEVENT },
	/* ipmiconsole (serial-over-LAN) workarounds: lab console only. */
	{ "solpayloadsize",	LAB_IPMI_WA_SOLPAYLOADSIZE },
	{ "solport",		LAB_IPMI_WA_SOLPORT },
	{ "solstatus",		LAB_IPMI_WA_SOLSTATUS },
	{ "solchannelsupport",	LAB_IPMI_WA_SOLCHANNELSUPPORT },
	{ "serialalertsdeferred", LAB_IPMI_WA_SERIALALERTSDEFERRED },
	{ "solpacketseq",	LAB_IPMI_WA_SOLPACKETSEQ },
	/* Lab reads the SDR record by record, never by count. */
	{ "assumemaxsdrrecordcount", 0 },
	{ "none",		0 },
};

/* Parses one FreeIPMI workaround word into *bits. */
int
lab_ipmi_workaround_parse(const char *word, unsigned *bits)
{
	size_t	i;

	if (word == NULL)
		return -1;
	for (i = 0; i < LAB_ARRAY_SIZE(workarounds); i++)
		if (strcasecmp(word, workarounds[i].word) == 0) {
			*bits |= workarounds[i].bits;
			return 0;
		}
	return -1;
}

/* "on", "off" or "unknown". */
const char *
lab_power_name(enum lab_power p)
{
	switch (p) {
	case LAB_POWER_ON:
		return "on";
	case LAB_POWER_OFF:
		return "off";
	default:
		return "unknown";
	}
}

/* "none", "pxe", "cdrom", "disk", "bios". */
const char *
lab_boot_name(enum lab_boot_dev d)
{
	switch (d) {
	case LAB_BOOT_NONE:
		return "none";
	case LAB_BOOT_PXE:
		return "pxe";
	case LAB_BOOT_CDROM:
		return "cdrom";
	case LAB_BOOT_DISK:
		return "disk";
	case LAB_BOOT_BIOS:
		return "bios";
	}
	return "unknown";
}

static const char *const verb_names[] = { "status", "on", "off", "cycle",
	"reset", "soft", "boot", "boot", "sensors", "sel" };

/* The verb's name as stored and printed. */
const char *
lab_bmc_verb_name(enum lab_bmc_verb v)
{
	return (unsigned)v < LAB_ARRAY_SIZE(verb_names) ? verb_names[v] : "?";
}

static const char *const verb_sources[] = { "power status", "power on",
	"power off", "power cycle", "power reset", "power soft", "boot get",
	"boot set", "sensors", "sel" };

/* The command a verb's power events are recorded under. */
const char *
lab_bmc_verb_source(enum lab_bmc_verb v)
{
	return (unsigned)v < LAB_ARRAY_SIZE(verb_sources) ? verb_sources[v] :
	    "?";
}

const char *
lab_run_status_name(enum lab_run_status s)
{
	switch (s) {
	case LAB_RUN_RUNNING:
		return "running";
	case LAB_RUN_DONE:
		return "done";
	case LAB_RUN_FAILED:
		return "failed";
	case LAB_RUN_ROLLED_BACK:
		return "rolled-back";
	case LAB_RUN_ABANDONED:
		return "abandoned";
	}
	return "failed";
}

/* The IF-MIB word for an ifOperStatus/ifAdminStatus value. */
const char *
lab_snmp_status_name(int v)
{
	static const char *const words[] = {
		"", "up", "down", "testing", "unknown", "dormant",
		"notPresent", "lowerLayerDown",
	};

	if (v < 0 || (size_t)v >= LAB_ARRAY_SIZE(words))
		return "";
	return words[v];
}

/* "full", "half" or "unknown". */
const char *
lab_snmp_duplex_name(enum lab_duplex d)
{
	switch (d) {
	case LAB_DUPLEX_FULL:
		return "full";
	case LAB_DUPLEX_HALF:
		return "half";
	default:
		return "unknown";
	}
}

/* The static string for a finding kind read back from the database. */
const char *
lab_finding_kind_static(const char *kind)
{
	static const char *const kinds[] = { "suspect-speed", "slow-port",
		"half-duplex", "description", "unknown-mac", "nic-moved",
		"nic-not-seen", "model-mismatch", NULL };
	size_t	i;

	for (i = 0; kind != NULL && kinds[i] != NULL; i++)
		if (strcmp(kinds[i], kind) == 0)
			return kinds[i];
	return "other";
}

const char *const lab_ipmi_priv_words[] = { "user", "operator", "admin", NULL };

/* LAB_IPMI_PRIV_* for "user", "operator" or "admin"; -1 for another word. */
int
lab_ipmi_priv_parse(const char *word)
{
	static const int	 level[] = { LAB_IPMI_PRIV_USER,
		LAB_IPMI_PRIV_OPERATOR, LAB_IPMI_PRIV_ADMIN };
	size_t			 i;

	for (i = 0; word != NULL && lab_ipmi_priv_words[i] != NULL; i++)
		if (strcmp(word, lab_ipmi_priv_words[i]) == 0)
			return level[i];
	return -1;
}

const char *const lab_fact_finding_words[] = { LAB_FINDING_DISK_MISSING,
	LAB_FINDING_DISK_EXTRA, LAB_FINDING_DISK_SWAPPED, LAB_FINDING_DISK_SIZE,
	LAB_FINDING_DISK_KIND, LAB_FINDING_NIC_MISSING, LAB_FINDING_NIC_MAC,
	LAB_FINDING_MODEL, LAB_FINDING_LINK_MISMATCH, LAB_FINDING_LINK_SLOW,
	LAB_FINDING_NETWORKMANAGER, LAB_FINDING_KNOWN_ISSUE,
	LAB_FINDING_SMART_WARNING, LAB_FINDING_TOOL_MISSING, NULL };
