/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The config file: values and lines, unknown keys, bad values. */
#include <stdio.h>
#include <string.h>

#include "lab/config.h"
#include "lab/err.h"

#include "tests.h"

static int
load(const char *text, struct lab_config **ret, struct lab_err *err)
{
	lab_err_init(err);
	*ret = NULL;
	return lab_config_load_buf("c.yaml", text, strlen(text), ret, err);
}

int
main(void)
{
	struct lab_config	*c;
	struct lab_err		 err;

	CHECK(load("db: /srv/lab.db\n# x\nfanout: 8\nformat: csv\n", &c,
	    &err) == 0);
	CHECK(c != NULL);
	if (c != NULL) {
		CHECK_STR(c->value[LAB_CONFIG_DB], "/srv/lab.db");
		CHECK_STR(c->value[LAB_CONFIG_FANOUT], "8");
		CHECK(c->line[LAB_CONFIG_FANOUT] == 3);
		CHECK(c->value[LAB_CONFIG_TIMEOUT] == NULL);
		CHECK_STR(c->path, "c.yaml");
	}
	lab_config_free(c);

	CHECK(load("", &c, &err) == 0 && c != NULL);
	lab_config_free(c);

	CHECK(load("timeuot: 3\n", &c, &err) == -1 && c == NULL);
	CHECK(err.code == LAB_EXIT_INPUT);
	CHECK_HAS(err.msg, "c.yaml:1:1: unknown key 'timeuot'");
	CHECK_HAS(err.msg, "did you mean 'timeout'?");

	CHECK(load("fanout: 0\n", &c, &err) == -1);
	CHECK_HAS(err.msg, "c.yaml:1:9: fanout takes");
	CHECK(load("format: xml\n", &c, &err) == -1);
	CHECK(load("switch_deadline: 300\n", &c, &err) == 0 && c != NULL);
	if (c != NULL)
		CHECK_STR(c->value[LAB_CONFIG_SWITCH_DEADLINE], "300");
	lab_config_free(c);
	CHECK(load("switch_deadline: 0\n", &c, &err) == -1);
	CHECK_HAS(err.msg, "c.yaml:1:18: switch_deadline takes seconds");
	CHECK(load("db: [a, b]\n", &c, &err) == -1);
	CHECK(load("- db\n", &c, &err) == -1);

	CHECK(lab_config_load("/nonexistent/lab/config.yaml", &c, &err) == 0);
	CHECK(c == NULL);
	TESTS_DONE();
}
