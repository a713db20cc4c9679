/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/json.h"
#include "lab/render.h"
#include "lab.h"

static int
export_run(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	const char	*fmt = cmd_opt(call, "format");
	struct lab_buf	 b;
	struct lab_json	 j;
	char		*yaml = NULL;
	int		 rc;

	if (fmt == NULL)
		fmt = call->json ? "json" : "yaml";
	if (strcmp(fmt, "yaml") != 0 && strcmp(fmt, "json") != 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "unknown format '%s' "
		    "(yaml or json)", fmt), LAB_EXIT_INPUT;
	if (cmd_inventory(call, &inv, err) == -1)
		return err->code;
	lab_buf_init(&b);
	if (strcmp(fmt, "json") == 0) {
		lab_json_init(&j, &b);
		lab_render_inventory_json(&j, inv);
		lab_json_end(&j);
	} else {
		if (lab_inventory_to_yaml(inv, &yaml, err) == -1)
			return err->code;
		lab_buf_adds(&b, "# exported by lab " LAB_VERSION
		    "; import it with 'lab import FILE'\n");
		lab_buf_adds(&b, yaml);
		free(yaml);
	}
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc == -1 ? LAB_EXIT_ENV : LAB_EXIT_OK;
}

static const struct lab_opt export_opts[] = {
	{ "format", "yaml|json", "output format (default yaml)" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb export_verbs[] = {
	{ .name = NULL, .args = "", .min = 0, .max = 0, .flags = LAB_VERB_JSON,
	  .run = export_run, .opts = export_opts,
	  .summary = "print the inventory as YAML that 'lab import' reads "
		"back, or JSON" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_export = {
	.name = "export",
	.summary = "print the inventory as YAML or JSON",
	.verbs = export_verbs,
};
