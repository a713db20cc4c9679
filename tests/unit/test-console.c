/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab_console_open()'s refusals before any packet: no BMC, no credential,
 * cipher suite 0, a user name or password too long; and the SOL
 * workaround words an inventory may now use.
 */
#include <stdio.h>
#include <string.h>

#include "lab/console.h"
#include "lab/cred.h"
#include "lab/inventory.h"
#include "lab/ipmi.h"

#include "tests.h"

static const char creds_yaml[] =
	"admin: {username: admin, password: \"pw\"}\n"
	"nopw: {username: admin}\n"
	"longuser: {username: abcdefghijklmnopq, password: pw}\n"
	"longpw: {username: admin, password: abcdefghijklmnopqrstu}\n";

static void
refused(const struct lab_host *h, const struct lab_creds *cs,
    enum lab_exit code, const char *msg)
{
	struct lab_console_req	 req;
	struct lab_console	*c = NULL;
	struct lab_err		 err;

	memset(&req, 0, sizeof(req));
	lab_err_init(&err);
	CHECK(lab_console_open(h, cs, &req, &c, &err) == -1);
	CHECK(c == NULL);
	CHECK(err.code == code);
	CHECK_HAS(err.msg, msg);
}

static void
test_refusals(void)
{
	struct lab_creds	*cs = NULL;
	struct lab_bmc		 b;
	struct lab_host		 h;
	struct lab_err		 err;

	lab_err_init(&err);
	CHECK(lab_creds_load_buf("c.yaml", creds_yaml, strlen(creds_yaml),
	    &cs, &err) == 0);
	memset(&h, 0, sizeof(h));
	h.name = (char *)"ml115";
	refused(&h, cs, LAB_EXIT_PARTIAL, "no BMC recorded");

	memset(&b, 0, sizeof(b));
	b.type = (char *)"ipmi";
	b.address = (char *)"192.0.2.9";
	b.port = 623;
	b.cipher_suite = 3;
	h.bmc = &b;
	b.credential = (char *)"missing";
	refused(&h, cs, LAB_EXIT_PARTIAL, "credential 'missing' is not in");
	refused(&h, NULL, LAB_EXIT_PARTIAL, "credential 'missing' is not in");
	b.credential = (char *)"nopw";
	refused(&h, cs, LAB_EXIT_PARTIAL, "has no username and password");
	b.credential = (char *)"longuser";
	refused(&h, cs, LAB_EXIT_INPUT, "BMC 192.0.2.9:623: user name longer");
	b.credential = (char *)"longpw";
	refused(&h, cs, LAB_EXIT_INPUT, "password longer than 20");
	b.credential = (char *)"admin";
	b.cipher_suite = 0;
	refused(&h, cs, LAB_EXIT_INPUT, "cipher suite 0 refused");
	lab_creds_free(cs);
}

static void
test_words(void)
{
	static const char *const words[] = { "solpayloadsize", "solport",
		"solstatus", "solchannelsupport", "serialalertsdeferred",
		"solpacketseq", "SolPayloadSize" };
	unsigned	bits = 0, before;
	size_t		i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		before = bits;
		CHECK(lab_ipmi_workaround_parse(words[i], &bits) == 0);
		if (i < 6)
			CHECK(bits != before);
	}
	CHECK(lab_ipmi_workaround_parse("solsomething", &bits) == -1);
}

int
main(void)
{
	test_refusals();
	test_words();
	TESTS_DONE();
}
