/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_MODEL_H
#define LAB_MODEL_H

#include <stddef.h>

/* The kinds of machine the catalogue knows. */
enum lab_model_kind {
	LAB_MODEL_SERVER,
	LAB_MODEL_SWITCH,
};

/* BMC kinds, as a bit set of what a model can carry. */
enum lab_bmc_kind {
	LAB_BMC_RAC = 1 << 0,	/* HP MicroServer Remote Access Card */
	LAB_BMC_ILO2 = 1 << 1,	/* HP iLO 2 */
	LAB_BMC_IPMI = 1 << 2,	/* any other IPMI 2.0 LAN BMC */
};

/*
 * One model: the facts the tool needs about it. Entries are static and
 * live for the whole program.
 */
struct lab_model {
	const char		*id;		/* "hp-microserver-n40l" */
	const char		*name;		/* "HP ProLiant MicroServer N40L" */
	enum lab_model_kind	 kind;
	unsigned		 bmc_kinds;	/* what it can carry; 0 = none */
	int			 drive_bays;	/* numbered slots 1..N */
	const char *const	*extra_slots;	/* named slots ("odd", "esata") */
	const char *const	*ide_slots;	/* slots on an IDE-emulation port */
	int			 onboard_nics;
	int			 switch_ports;	/* ports on a switch, else 0 */
	const char		*note;		/* a fact worth knowing, or NULL */
};

/* The model with this id, or NULL. */
const struct lab_model	*lab_model_find(const char *id);
/* The whole catalogue; *n receives its length. */
const struct lab_model	*lab_model_all(size_t *n);
/* The BMC kind for "rac", "ilo2" or "ipmi"; 0 when unknown. */
unsigned		 lab_bmc_kind_parse(const char *);
/* The names of the BMC kinds in a set, as "rac, ilo2"; buf of 32 bytes. */
void			 lab_bmc_kinds_format(unsigned, char *buf, size_t len);

#endif
