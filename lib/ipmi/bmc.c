/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <time.h>

#include "lab/bmc.h"

/* The real BMC operations: lib/ipmi.c behind the ops table. */

static int
ipmi_open(const struct lab_ipmi_target *t, void **ret, struct lab_err *err)
{
	struct lab_ipmi	*s;

	if (lab_ipmi_open(t, &s, err) == -1)
		return -1;
	*ret = s;
	return 0;
}

static void
ipmi_close(void *s)
{
	lab_ipmi_free(s);
}

static int
ipmi_power_get(void *s, enum lab_power *ret, struct lab_err *err)
{
	return lab_ipmi_power_get(s, ret, err);
}

static int
ipmi_power_set(void *s, enum lab_power_action a, struct lab_err *err)
{
	return lab_ipmi_power_set(s, a, err);
}

static int
ipmi_boot_get(void *s, enum lab_boot_dev *dev, int *persistent, int *efi,
    struct lab_err *err)
{
	return lab_ipmi_boot_get(s, dev, persistent, efi, err);
}

static int
ipmi_boot_set(void *s, enum lab_boot_dev dev, int persistent, int efi,
    struct lab_err *err)
{
	return lab_ipmi_boot_set(s, dev, persistent, efi, err);
}

static int
ipmi_sensors(void *s, struct lab_sensor **ret, size_t *n, struct lab_err *err)
{
	return lab_ipmi_sensors(s, ret, n, err);
}

static int
ipmi_sel(void *s, struct lab_sel_entry **ret, size_t *n, struct lab_err *err)
{
	return lab_ipmi_sel(s, ret, n, err);
}

static void
sleep_ms(int ms)
{
	struct timespec	ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

const struct lab_bmc_ops lab_bmc_ipmi_ops = {
	.open = ipmi_open,
	.close = ipmi_close,
	.power_get = ipmi_power_get,
	.power_set = ipmi_power_set,
	.boot_get = ipmi_boot_get,
	.boot_set = ipmi_boot_set,
	.sensors = ipmi_sensors,
	.sel = ipmi_sel,
	.status_many = lab_ipmi_status_many,
	.sleep_ms = sleep_ms,
};
