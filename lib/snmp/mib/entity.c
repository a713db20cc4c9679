/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STUB: the ENTITY-MIB decoder (issue 20). */
#include "lab/mib.h"
int lab_mib_entity_stub_(void);
int
lab_mib_entity_stub_(void)
{
	return 0;
}
