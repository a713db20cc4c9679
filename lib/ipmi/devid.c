/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The BMC's identity (lab facts, issue 20): Get Device ID over an open
 * session, then the FRU inventory of device 0 when the BMC says it has
 * one. The firmware is "MAJOR.MM": the major revision, then the minor's
 * two BCD digits as IPMI gives them (the RAC's firmware 1.3 is 1.30).
 * The manufacturer's name is FreeIPMI's table of IANA enterprise numbers
 * (11 Hewlett-Packard, 4753 MontaVista Software, Inc.: ipmi_sim's).
 * A FRU that cannot be read is no error: fru_product stays NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/facts.h"
#include "lab/reason.h"
#include "ipmi-priv.h"

static char *
fmt(const char *f, unsigned a, unsigned b)
{
	char	buf[32];

	snprintf(buf, sizeof(buf), f, a, b);
	return strdup(buf);
}

static const char *
manufacturer(long id)
{
	if (id < 0 || id > IPMI_IANA_ENTERPRISE_ID_MAX)
		return NULL;
	return ipmi_iana_enterprise_numbers[id];
}

/* A FRU text field, trimmed; NULL when empty or undecodable. */
static char *
fru_text(ipmi_fru_ctx_t fru, const ipmi_fru_field_t *f, uint8_t lang)
{
	char		buf[IPMI_FRU_AREA_STRING_MAX + 1];
	unsigned	len = IPMI_FRU_AREA_STRING_MAX;
	char		*s, *e;

	if (f->type_length_field_length == 0)
		return NULL;
	memset(buf, 0, sizeof(buf));
	if (ipmi_fru_type_length_field_to_string(fru, f->type_length_field,
	    f->type_length_field_length, lang, buf, &len) < 0)
		return NULL;
	buf[len < IPMI_FRU_AREA_STRING_MAX ? len : IPMI_FRU_AREA_STRING_MAX] =
	    '\0';
	for (s = buf; *s == ' '; s++)
		;
	for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\0');)
		*--e = '\0';
	for (e = s; *e != '\0'; e++)
		if ((unsigned char)*e < 0x20 || (unsigned char)*e == 0x7f)
			*e = '?';
	return *s != '\0' ? strdup(s) : NULL;
}

/* Keeps s in *dst unless *dst is set; frees s otherwise. */
static void
keep(char **dst, char *s)
{
	if (*dst == NULL)
		*dst = s;
	else
		free(s);
}

/* FRU device 0: the product area's name and serial, else the board's. */
static void
read_fru(struct lab_ipmi *ip, struct lab_fact_bmc *b)
{
	ipmi_fru_ctx_t		 fru;
	ipmi_fru_field_t	 f[7];
	uint8_t			*area, lang = 0;
	uint32_t		 when;
	unsigned		 type, len;
	char			*bname = NULL, *bserial = NULL;

	if ((fru = ipmi_fru_ctx_create(ip->ctx)) == NULL)
		return;
	if ((area = malloc(IPMI_FRU_AREA_SIZE_MAX)) == NULL ||
	    ipmi_fru_open_device_id(fru, 0) < 0)
		goto out;
	do {
		len = 0;
		if (ipmi_fru_read_data_area(fru, &type, &len, area,
		    IPMI_FRU_AREA_SIZE_MAX) < 0)
			break;
		memset(f, 0, sizeof(f));
		if (type == IPMI_FRU_AREA_TYPE_PRODUCT_INFO_AREA &&
		    ipmi_fru_product_info_area(fru, area, len, &lang, &f[0],
		    &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], NULL, 0) == 0) {
			keep(&b->fru_product, fru_text(fru, &f[1], lang));
			keep(&b->fru_serial, fru_text(fru, &f[4], lang));
		} else if (type == IPMI_FRU_AREA_TYPE_BOARD_INFO_AREA &&
		    ipmi_fru_board_info_area(fru, area, len, &lang, &when,
		    &f[0], &f[1], &f[2], &f[3], &f[4], NULL, 0) == 0) {
			keep(&bname, fru_text(fru, &f[1], lang));
			keep(&bserial, fru_text(fru, &f[2], lang));
		}
	} while (ipmi_fru_next(fru) == 1);
	ipmi_fru_close_device_id(fru);
	keep(&b->fru_product, bname);
	keep(&b->fru_serial, bserial);
	bname = bserial = NULL;
out:
	free(bname);
	free(bserial);
	free(area);
	ipmi_fru_ctx_destroy(fru);
}

static int
get(fiid_obj_t rs, const char *field, uint64_t *v)
{
	return fiid_obj_get(rs, field, v) == 1 ? 0 : -1;
}

int
lab_ipmi_device_id(struct lab_ipmi *ip, struct lab_fact_bmc *ret,
    struct lab_err *err)
{
	struct lab_fact_bmc	 b;
	fiid_obj_t		 rs;
	uint64_t		 dev = 0, major = 0, minor = 0, vmaj = 0, vmin = 0;
	uint64_t		 mfr = 0, prod = 0, fru = 0;
	const char		*name;
	int			 rv;

	memset(&b, 0, sizeof(b));
	b.manufacturer_id = b.product_id = b.device_id = -1;
	if ((rs = fiid_obj_create(tmpl_cmd_get_device_id_rs)) == NULL)
		return lab_err_oom(err);
	rv = lab_ipmi_check(ip, ipmi_cmd_get_device_id(ip->ctx, rs),
	    "get device id", rs, IPMI_NET_FN_APP_RQ, err);
	if (rv == 0 && (get(rs, "device_id", &dev) == -1 ||
	    get(rs, "firmware_revision1.major_revision", &major) == -1 ||
	    get(rs, "firmware_revision2.minor_revision", &minor) == -1 ||
	    get(rs, "ipmi_version_major", &vmaj) == -1 ||
	    get(rs, "ipmi_version_minor", &vmin) == -1 ||
	    get(rs, "manufacturer_id.id", &mfr) == -1 ||
	    get(rs, "product_id", &prod) == -1))
		rv = lab_err_why(err, LAB_REASON_BAD_REPLY, LAB_EXIT_PARTIAL,
		    "BMC %s: get device id: short response", ip->peer);
	if (rv == 0 && get(rs, "additional_device_support.fru_inventory_device",
	    &fru) == -1)
		fru = 0;
	fiid_obj_destroy(rs);
	if (rv != 0)
		return -1;
	b.device_id = (long)dev;
	b.manufacturer_id = (long)mfr;
	b.product_id = (long)prod;
	/* the minor is BCD: 0x30 is "30" */
	b.firmware = fmt("%u.%02x", (unsigned)major, (unsigned)minor);
	b.ipmi_version = fmt("%u.%u", (unsigned)vmaj, (unsigned)vmin);
	name = manufacturer(b.manufacturer_id);
	if (b.firmware == NULL || b.ipmi_version == NULL ||
	    (name != NULL && (b.manufacturer = strdup(name)) == NULL)) {
		lab_fact_bmc_release(&b);
		return lab_err_oom(err);
	}
	if (fru)
		read_fru(ip, &b);
	b.ok = 1;
	*ret = b;
	return 0;
}
