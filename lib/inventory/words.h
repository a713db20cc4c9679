/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Private to liblab: the words below every layer (lib/inventory/words.c).
 */
#ifndef LAB_INVENTORY_WORDS_H
#define LAB_INVENTORY_WORDS_H

/*
 * lab_ipmi_workaround_parse() bits. Lab's own values, mapped to FreeIPMI's
 * flags when used, so session, sensor and SEL flags cannot collide.
 */
/* IPMI 2.0 session (ipmi_ctx_open_outofband_2_0) */
#define LAB_IPMI_WA_AUTHCAP		0x00000001u
#define LAB_IPMI_WA_INTEL20		0x00000002u
#define LAB_IPMI_WA_SUPERMICRO20	0x00000004u
#define LAB_IPMI_WA_SUN20		0x00000008u
#define LAB_IPMI_WA_OPENSESSPRIV	0x00000010u
#define LAB_IPMI_WA_INTEGRITYCHECKVALUE	0x00000020u
#define LAB_IPMI_WA_NOCHECKSUMCHECK	0x00000040u
/* IPMI 1.5 words: accepted, no effect on an IPMI 2.0 session */
#define LAB_IPMI_WA_IPMI15_ONLY		0x00000100u
/* sensor reading (ipmi_sensor_read_ctx_set_flags) */
#define LAB_IPMI_WA_DISCRETEREADING	0x00010000u
#define LAB_IPMI_WA_IGNORESCANNINGDISABLED 0x00020000u
#define LAB_IPMI_WA_ASSUMEBMCOWNER	0x00040000u
/* SEL (ipmi_sel_ctx_set_flags) */
#define LAB_IPMI_WA_ASSUMESYSTEMEVENT	0x00100000u
/* serial-over-LAN (libipmiconsole, lib/ipmi/sol.c): no effect elsewhere */
#define LAB_IPMI_WA_SOLPAYLOADSIZE	0x01000000u
#define LAB_IPMI_WA_SOLPORT		0x02000000u
#define LAB_IPMI_WA_SOLSTATUS		0x04000000u
#define LAB_IPMI_WA_SOLCHANNELSUPPORT	0x08000000u
#define LAB_IPMI_WA_SERIALALERTSDEFERRED 0x10000000u
#define LAB_IPMI_WA_SOLPACKETSEQ	0x20000000u

/*
 * The kinds of a facts finding (include/lab/facts.h, lib/facts/): the
 * words stored in fact_findings.finding and shown by lab facts, lab show
 * and the report's Drift section. lab_fact_finding_words lists them all.
 */
#define LAB_FINDING_DISK_MISSING	"disk-missing"
#define LAB_FINDING_DISK_EXTRA		"disk-extra"
#define LAB_FINDING_DISK_SWAPPED	"disk-swapped"
#define LAB_FINDING_DISK_SIZE		"disk-size"
#define LAB_FINDING_DISK_KIND		"disk-kind"
#define LAB_FINDING_NIC_MISSING		"nic-missing"
#define LAB_FINDING_NIC_MAC		"nic-mac"
#define LAB_FINDING_MODEL		"model"
#define LAB_FINDING_LINK_MISMATCH	"link-mismatch"
#define LAB_FINDING_LINK_SLOW		"link-slow"
#define LAB_FINDING_NETWORKMANAGER	"networkmanager"
#define LAB_FINDING_KNOWN_ISSUE		"known-issue"
#define LAB_FINDING_SMART_WARNING	"smart-warning"
#define LAB_FINDING_TOOL_MISSING	"tool-missing"

extern const char *const lab_fact_finding_words[];

#endif
