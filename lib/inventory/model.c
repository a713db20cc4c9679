/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/model.h"

static const char *const microserver_slots[] = { "odd", "esata", NULL };
static const char *const microserver_ide[] = { "odd", "esata", NULL };
static const char *const none[] = { NULL };

#define MICROSERVER(suffix, cpu)					\
	{ "hp-microserver-" suffix, "HP ProLiant MicroServer " cpu,	\
	  LAB_MODEL_SERVER, LAB_BMC_RAC, 4, microserver_slots,	\
	  microserver_ide, 1, 0,					\
	  "the Remote Access Card has no battery: without mains the BMC "\
	  "is unreachable too; RAC firmware before 1.3 stops answering "\
	  "after a while" }

static const struct lab_model models[] = {
	MICROSERVER("n36l", "N36L"),
	MICROSERVER("n40l", "N40L"),
	MICROSERVER("n54l", "N54L"),
	{ "hp-ml110-g5", "HP ProLiant ML110 G5", LAB_MODEL_SERVER,
	  LAB_BMC_IPMI, 4, none, none, 1, 0,
	  "no BMC built in; Lights-Out 100c is an option kit" },
	{ "hp-ml115-g5", "HP ProLiant ML115 G5", LAB_MODEL_SERVER,
	  0, 4, none, none, 1, 0, "no BMC: power it by hand" },
	{ "hp-dl320-g5p", "HP ProLiant DL320 G5p", LAB_MODEL_SERVER,
	  LAB_BMC_ILO2 | LAB_BMC_IPMI, 4, none, none, 2, 0,
	  "iLO 2 is an option kit; its SSH needs legacy algorithms" },
	{ "cisco-sg200-26", "Cisco SG200-26", LAB_MODEL_SWITCH,
	  0, 0, none, none, 0, 26,
	  "web UI only: SNMP is the scripting interface; firmware before "
	  "1.1.2.0 had a latency fault between ports under load" },
	{ "generic-server", "any other server", LAB_MODEL_SERVER,
	  LAB_BMC_RAC | LAB_BMC_ILO2 | LAB_BMC_IPMI, 0, none, none, 0, 0,
	  NULL },
	{ "generic-switch", "any other SNMP switch", LAB_MODEL_SWITCH,
	  0, 0, none, none, 0, 0, NULL },
};

/* The model with this id, or NULL. */
const struct lab_model *
lab_model_find(const char *id)
{
	size_t	i;

	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strcmp(models[i].id, id) == 0)
			return &models[i];
	return NULL;
}

/* The whole catalogue. */
const struct lab_model *
lab_model_all(size_t *n)
{
	*n = sizeof(models) / sizeof(models[0]);
	return models;
}

/* The BMC kind bit for a type name; 0 when unknown. */
unsigned
lab_bmc_kind_parse(const char *s)
{
	if (strcmp(s, "rac") == 0)
		return LAB_BMC_RAC;
	if (strcmp(s, "ilo2") == 0)
		return LAB_BMC_ILO2;
	if (strcmp(s, "ipmi") == 0)
		return LAB_BMC_IPMI;
	return 0;
}

/* Names the kinds in a set. */
void
lab_bmc_kinds_format(unsigned k, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s",
	    k & LAB_BMC_RAC ? "rac" : "",
	    (k & LAB_BMC_RAC) && (k & (LAB_BMC_ILO2 | LAB_BMC_IPMI)) ? ", " : "",
	    k & LAB_BMC_ILO2 ? "ilo2" : "",
	    (k & LAB_BMC_ILO2) && (k & LAB_BMC_IPMI) ? ", " : "",
	    k & LAB_BMC_IPMI ? "ipmi" : "");
	if (k == 0)
		snprintf(buf, len, "none");
}
