/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stored probes and the history of switch applies. */
#include <string.h>

#include "lab/vlan.h"

int
lab_db_vlan_probe_store(struct lab_db *db, const char *sw,
    const struct lab_vlan_probe *p, int64_t now, struct lab_err *err)
{
	(void)db; (void)sw; (void)p; (void)now;
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

int
lab_db_vlan_probe_get(struct lab_db *db, const char *sw,
    struct lab_vlan_probe *ret, struct lab_err *err)
{
	(void)db; (void)sw;
	memset(ret, 0, sizeof(*ret));
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

int
lab_db_switch_apply_record(struct lab_db *db, struct lab_switch_result *r,
    const char *user, int64_t now, struct lab_err *err)
{
	(void)db; (void)r; (void)user; (void)now;
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}

int
lab_db_switch_applies(struct lab_db *db, const char *sw, int64_t since,
    int problems_only, size_t limit, struct lab_switch_apply_rows *ret,
    struct lab_err *err)
{
	(void)db; (void)sw; (void)since; (void)problems_only; (void)limit;
	memset(ret, 0, sizeof(*ret));
	return lab_err_set(err, LAB_EXIT_ENV, "not built yet");
}
