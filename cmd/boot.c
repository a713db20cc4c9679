/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "lab/json.h"
#include "lab.h"
#include "stream.h"

static const char *const devices[] = { "none", "pxe", "cdrom", "disk", "bios",
	NULL };

/* A host's row: HOST, BOOT, RESULT (the reason when it failed), ERROR. */
static void
row(const void *res, const char **cells)
{
	const struct lab_bmc_result	*r = res;

	cells[0] = r->host;
	cells[1] = r->ok && r->reachable ? lab_boot_name(r->boot) : NULL;
	cells[2] = r->ok ? (r->note ? r->note : r->acted ? "set" : "ok") :
	    r->reason;
	cells[3] = r->ok ? NULL : r->err.msg;
}

/* The table's header; --csv adds the full error, ERROR. */
static void
head(struct table *t, int csv)
{
	if (csv)
		table_init(t, 4, "HOST", "BOOT", "RESULT", "ERROR");
	else
		table_init(t, 3, "HOST", "BOOT", "RESULT");
	table_paint(t, 2);
	table_text(t, 2);
	table_text(t, 3);
}

/* BOOT is a device word: none, pxe, cdrom, disk, bios. */
static const size_t	widths[] = { 0, 5, 0, 0 };

static int
boot_run(struct lab_call *call, struct lab_err *err)
{
	struct lab_bmc_req	req;
	struct cmd_bmc_run	run;
	struct lab_buf		b;
	struct lab_json		j;
	struct table		t;
	const char		*cells[4];
	size_t			i, d;
	int			rc;

	memset(&req, 0, sizeof(req));
	req.verb = LAB_BMC_BOOT_GET;
	/* a device word last sets it; without one the device is read */
	for (d = 1; devices[d] != NULL && call->argc > 0; d++)
		if (strcmp(call->argv[call->argc - 1], devices[d]) == 0) {
			req.verb = LAB_BMC_BOOT_SET;
			req.boot = (enum lab_boot_dev)d;
			call->argc--;
			break;
		}
	call->no_audit = req.verb == LAB_BMC_BOOT_GET;
	req.persistent = cmd_opt(call, "persistent") != NULL;
	req.efi = cmd_opt(call, "efi") != NULL;
	if (req.verb == LAB_BMC_BOOT_GET && (req.persistent || req.efi))
		return lab_err_set(err, LAB_EXIT_INPUT, "--persistent and --efi "
		    "go with a device: pxe, cdrom, disk or bios"), LAB_EXIT_INPUT;
	if (call->argc == 0 && !call->all)
		return lab_err_set(err, LAB_EXIT_INPUT, "no target given: name "
		    "hosts, a range, @group or --all"), LAB_EXIT_INPUT;
	head(&t, call->csv);
	rc = cmd_bmc_run_rows(call, &req, &run, &t, widths, row, err);
	table_release(&t);
	if (rc == -1)
		return err->code;
	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_arr_begin(&j);
	head(&t, call->csv);
	for (i = 0; i < run.n; i++) {
		const struct lab_bmc_result	*r = &run.res[i];
		const char			*dev = r->ok && r->reachable ?
		    lab_boot_name(r->boot) : NULL;

		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "host", r->host);
		lab_json_kstr(&j, "device", dev);
		lab_json_key(&j, "persistent");
		lab_json_bool(&j, r->persistent);
		lab_json_key(&j, "efi");
		lab_json_bool(&j, r->efi);
		lab_json_key(&j, "ok");
		lab_json_bool(&j, r->ok);
		lab_json_kstr(&j, "error", r->ok ? NULL : r->err.msg);
		lab_json_kstr(&j, "reason", r->reason);
		lab_json_kstr(&j, "note", r->note);
		cmd_bmc_json_row(&j, run.inv, r);
		lab_json_obj_end(&j);
		row(r, cells);
		table_row(&t, cells[0], cells[1], cells[2], cells[3]);
	}
	lab_json_arr_end(&j);
	lab_json_end(&j);
	return cmd_bmc_finish(call, &run, &t, &b, err);
}

static const struct lab_opt boot_opts[] = {
	{ "persistent", NULL, "every boot, not only the next one" },
	{ "efi", NULL, "boot in EFI mode" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb boot_verbs[] = {
	{ .name = NULL, .args = "TARGET... [pxe|cdrom|disk|bios]", .min = 0,
	  .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_CSV | LAB_VERB_DRYRUN |
		LAB_VERB_TARGETS | LAB_VERB_MUTATES,
	  .run = boot_run, .opts = boot_opts, .shared_opts = cmd_bmc_opts,
	  .summary = "set the boot device (verified by reading it back), or "
		"read it" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_boot = {
	.name = "boot",
	.summary = "set or read the boot device over IPMI",
	.verbs = boot_verbs,
};
