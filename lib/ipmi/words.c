/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <strings.h>

#include "lab/ipmi.h"
#include "ipmi-priv.h"

/*
 * Words and names of include/lab/ipmi.h that need no session. The
 * workaround bits are lab's own (ipmi-priv.h); lib/ipmi.c and
 * lib/ipmi-sensors.c map them to FreeIPMI's session, sensor and SEL flags.
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
