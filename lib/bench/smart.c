/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/bench.h"
#include "bench/bench-priv.h"

/*
 * `smartctl -i -H -A -j` (smartmontools 7.3, json_format_version [1, 0]):
 *   health       smart_status.passed (absent: unknown)
 *   identity     model_name (SCSI: scsi_model_name, scsi_product),
 *                serial_number, firmware_version (SCSI: scsi_revision)
 *   ATA          ata_smart_attributes.table[]: id 5 reallocated, 197
 *                pending, 198 offline uncorrectable (raw.value)
 *   NVMe         nvme_smart_health_information_log.media_errors as the
 *                uncorrectable count
 *   SCSI         scsi_grown_defect_list as the reallocated count
 *   all          power_on_time.hours, temperature.current
 * A device smartctl cannot read (a loop device: "Unable to detect device
 * type", exit status bit 0 or 1) has no SMART: health unknown and
 * smartctl's message kept. Fixtures: tests/fixtures/smart/.
 */

/* Past these a count is a broken output (a raw value packing several
   fields), not a disk: then it is unknown. */
#define MAX_COUNT	1e9
#define MAX_HOURS	1e7

static int
dup_str(struct json_object *o, const char *key, char **ret)
{
	struct json_object	*m;
	const char		*s;

	if (*ret != NULL)
		return 0;
	m = lab_bench_json_at(o, key);
	if (m == NULL || !json_object_is_type(m, json_type_string))
		return 0;
	s = json_object_get_string(m);
	if (s == NULL || *s == '\0')
		return 0;
	if ((*ret = strndup(s, 256)) == NULL)
		return -1;
	return 0;
}

static int64_t
count(struct json_object *o, const char *path, double max)
{
	double	v;

	if (!lab_bench_json_num(o, path, &v) || v < 0 || v > max)
		return -1;
	return (int64_t)v;
}

static void
ata_attributes(struct json_object *o, struct lab_smart *s)
{
	struct json_object	*table, *a;
	double			 id, raw;
	size_t			 i, n;

	table = lab_bench_json_at(o, "ata_smart_attributes.table");
	if (table == NULL || !json_object_is_type(table, json_type_array))
		return;
	n = json_object_array_length(table);
	for (i = 0; i < n; i++) {
		a = json_object_array_get_idx(table, i);
		if (!lab_bench_json_num(a, "id", &id) ||
		    !lab_bench_json_num(a, "raw.value", &raw) || raw < 0 ||
		    raw > MAX_COUNT)
			continue;
		if (id == 5)
			s->reallocated = (int64_t)raw;
		else if (id == 197)
			s->pending = (int64_t)raw;
		else if (id == 198)
			s->offline_uncorrectable = (int64_t)raw;
	}
}

/* smartctl's first error message, when it could not read the device. */
static int
error_message(struct json_object *o, struct lab_smart *s)
{
	struct json_object	*msgs, *m;
	size_t			 i, n;
	const char		*sev;

	msgs = lab_bench_json_at(o, "smartctl.messages");
	if (msgs == NULL || !json_object_is_type(msgs, json_type_array))
		return 0;
	n = json_object_array_length(msgs);
	for (i = 0; i < n && s->message == NULL; i++) {
		m = json_object_array_get_idx(msgs, i);
		if ((sev = json_object_get_string(lab_bench_json_at(m,
		    "severity"))) == NULL || strcmp(sev, "error") != 0)
			continue;
		if (dup_str(m, "string", &s->message) == -1)
			return -1;
	}
	return 0;
}

int
lab_smart_parse(const char *text, size_t len, const char *where,
    struct lab_smart *s, struct lab_err *err)
{
	struct json_object	*o, *passed, *v;
	double			 exit_status = 0, version = 0;

	lab_smart_init(s);
	if (where == NULL)
		where = "-";
	if ((o = lab_bench_json_read(text, len, "smartctl", where,
	    err)) == NULL)
		return -1;
	v = lab_bench_json_at(o, "json_format_version");
	if (lab_bench_json_at(o, "smartctl") == NULL || v == NULL ||
	    !json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) < 1) {
		json_object_put(o);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: not smartctl's "
		    "JSON (no smartctl or json_format_version)", where);
	}
	version = json_object_get_double(json_object_array_get_idx(v, 0));
	if (version != 1) {
		json_object_put(o);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: smartctl JSON "
		    "format version %.0f, lab reads 1", where, version);
	}
	(void)lab_bench_json_num(o, "smartctl.exit_status", &exit_status);
	if (dup_str(o, "model_name", &s->model) == -1 ||
	    dup_str(o, "scsi_model_name", &s->model) == -1 ||
	    dup_str(o, "scsi_product", &s->model) == -1 ||
	    dup_str(o, "serial_number", &s->serial) == -1 ||
	    dup_str(o, "firmware_version", &s->firmware) == -1 ||
	    dup_str(o, "scsi_revision", &s->firmware) == -1 ||
	    error_message(o, s) == -1)
		goto oom;
	passed = lab_bench_json_at(o, "smart_status.passed");
	if (passed != NULL && json_object_is_type(passed, json_type_boolean))
		s->health = json_object_get_boolean(passed) ?
		    LAB_SMART_PASSED : LAB_SMART_FAILED;
	ata_attributes(o, s);
	if (s->offline_uncorrectable == -1)
		s->offline_uncorrectable = count(o,
		    "nvme_smart_health_information_log.media_errors",
		    MAX_COUNT);
	if (s->reallocated == -1)
		s->reallocated = count(o, "scsi_grown_defect_list", MAX_COUNT);
	s->power_on_hours = count(o, "power_on_time.hours", MAX_HOURS);
	s->temperature_c = count(o, "temperature.current", 200);
	/* bits 0 and 1: the command line or the device open failed (an exit
	 * status outside 0-255 is not smartctl's: cast only what fits) */
	if (exit_status >= 0 && exit_status <= 255 &&
	    ((int)exit_status & 3) != 0 && s->message == NULL &&
	    (s->message = strdup("smartctl could not read the device")) ==
	    NULL)
		goto oom;
	json_object_put(o);
	return 0;
oom:
	json_object_put(o);
	lab_smart_release(s);
	return lab_err_oom(err);
}
