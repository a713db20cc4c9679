/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Host-range folding (lab_fold_hosts) and the failure summary. */
#include <stdio.h>
#include <string.h>

#include "lab/err.h"
#include "lab/fold.h"
#include "lab/reason.h"
#include "lab/str.h"
#include "lab/target.h"

#include "tests.h"

/* names (',' separated, none with a comma) fold to want. */
static void
fold_ok(const char *names, const char *want)
{
	struct lab_strv	 sv;
	char		*copy = strdup(names), *tok, *save = NULL, *got;

	lab_strv_init(&sv);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save))
		lab_strv_add(&sv, tok);
	got = lab_fold_hosts((const char *const *)sv.v, sv.n);
	CHECK_STR(got, want);
	free(got);
	free(copy);
	lab_strv_release(&sv);
}

static void
test_fold(void)
{
	/* the golden table */
	static const char *const cases[][2] = {
		{ "node1", "node1" },
		{ "node1,node2,node3", "node[1-3]" },
		{ "node3,node1,node2", "node[1-3]" },
		{ "node1,node2,node3,node5", "node[1-3,5]" },
		{ "node1,node3,node5", "node[1,3,5]" },
		{ "node03,node04,node05,node06,node07,node08,node09,node10,"
		  "node11", "node[03-11]" },
		{ "node9,node10,node11", "node[9-11]" },
		{ "node08,node9,node10", "node[08,9-10]" },
		{ "node001,node002,node010", "node[001-002,010]" },
		{ "nas,node1,node2,node3", "nas,node[1-3]" },
		{ "node2,nas,node1,b1", "b1,nas,node[1-2]" },
		{ "rack1-node3,rack1-node4,rack2-node3", "rack1-node[3-4],"
		  "rack2-node3" },
		{ "n1-bmc,n2-bmc,n3-bmc", "n[1-3]-bmc" },
		{ "n1-bmc,n2-bmc,n2", "n[1-2]-bmc,n2" },
		{ "node1,node1,node2", "node[1-2]" },
		{ "node10,node9", "node[9-10]" },
		{ "sw,gw", "gw,sw" },
		{ "node1,node01", "node[1,01]" },
		{ "", "" },
	};
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fold_ok(cases[i][0], cases[i][1]);
	CHECK(lab_natcmp("node9", "node10") < 0);
	CHECK(lab_natcmp("node10", "node9") > 0);
	CHECK(lab_natcmp("a", "a") == 0);
	CHECK(lab_natcmp("nas", "node1") < 0);
}

/* 1000 hosts with gaps: the folded text expands back to the same names. */
static void
test_fold_1000(void)
{
	struct lab_strv	 in, out;
	struct lab_err	 err;
	char		 name[32], *got;
	size_t		 i;

	lab_strv_init(&in);
	lab_strv_init(&out);
	lab_err_init(&err);
	for (i = 1; i <= 1000; i++)
		if (i % 100 != 0) {
			/* every hundredth missing: ten ranges */
			snprintf(name, sizeof(name), "node%04zu", i);
			lab_strv_add(&in, name);
		}
	/* given backwards: the order is folding's own */
	for (i = 0; i < in.n / 2; i++) {
		char	*t = in.v[i];

		in.v[i] = in.v[in.n - 1 - i];
		in.v[in.n - 1 - i] = t;
	}
	got = lab_fold_hosts((const char *const *)in.v, in.n);
	CHECK_STR(got, "node[0001-0099,0101-0199,0201-0299,0301-0399,"
	    "0401-0499,0501-0599,0601-0699,0701-0799,0801-0899,0901-0999]");
	CHECK(got != NULL && lab_range_expand(got, &out, &err) == 0);
	CHECK(out.n == in.n);
	for (i = 0; i < out.n && i < in.n; i++)
		CHECK_STR(out.v[i], in.v[in.n - 1 - i]);
	free(got);
	lab_strv_release(&in);
	lab_strv_release(&out);
}

static void
text_ok(const char *host, const char *addr, const char *msg,
    const char *want)
{
	struct lab_fail	 f = { host, addr, msg };
	char		*got = lab_fail_text(&f);

	CHECK_STR(got, want);
	free(got);
}

static void
test_text(void)
{
	text_ok("node3", "127.0.0.5:623", "BMC 127.0.0.5:623: session timeout",
	    "session timeout");
	text_ok("node3", "127.0.0.5:623", "BMC 127.0.0.5:623: power status: "
	    "session timeout", "power status: session timeout");
	text_ok("node3", "[::1]:623", "BMC [::1]:623: session timeout",
	    "session timeout");
	text_ok("node3", "127.0.0.5:623", "cannot open a socket for BMC "
	    "127.0.0.5:623: Too many open files", "cannot open a socket for "
	    "BMC: Too many open files");
	text_ok("node3", "10.0.0.3:22", "ssh 10.0.0.3: connection refused",
	    "connection refused");
	text_ok("node3", NULL, "node3: no BMC recorded", "no BMC recorded");
	/* a longer name holding the host's is no match */
	text_ok("node3", NULL, "node30 is its peer", "node30 is its peer");
	text_ok("node3", "127.0.0.5:623", "credential 'x' is not in the "
	    "credentials file", "credential 'x' is not in the credentials "
	    "file");
}

/* The summary's golden, from failures of our own making. */
static void
test_summary(void)
{
	struct lab_fail	 f[32];
	char		 host[16][32], addr[16][32], msg[16][80];
	struct lab_buf	 b;
	size_t		 i, n = 0;

	for (i = 3; i <= 12; i++, n++) {
		snprintf(host[n], sizeof(host[n]), "node%02zu", i);
		snprintf(addr[n], sizeof(addr[n]), "127.0.81.%zu:623", i);
		snprintf(msg[n], sizeof(msg[n]), "BMC %s: session timeout",
		    addr[n]);
		f[n] = (struct lab_fail){ host[n], addr[n], msg[n] };
	}
	f[n++] = (struct lab_fail){ "nas", "127.0.81.40:623",
	    "BMC 127.0.81.40:623: authentication failed (wrong user or "
	    "password): password invalid" };
	f[n++] = (struct lab_fail){ "node14", "127.0.81.14:623",
	    "BMC 127.0.81.14:623: session timeout" };
	f[n++] = (struct lab_fail){ "gw\x1b[2J", NULL,
	    "credential 'x' is not in the credentials file" };
	lab_buf_init(&b);
	lab_fail_summary(&b, "power status", f, n, 30);
	CHECK_STR(b.s,
	    "lab: power status: 11 of 30 failed: session timeout: "
	    "node[03-12,14]\n"
	    "lab: power status: 1 of 30 failed: authentication failed (wrong "
	    "user or password): password invalid: nas\n"
	    "lab: power status: 1 of 30 failed: credential 'x' is not in the "
	    "credentials file: gw\\x1b[2J\n");
	lab_buf_release(&b);
	/* one failure of the run: as one host's always read */
	lab_buf_init(&b);
	lab_fail_summary(&b, "power status", &f[0], 1, 30);
	CHECK_STR(b.s, "lab: power status: node03: BMC 127.0.81.3:623: "
	    "session timeout\n");
	lab_buf_release(&b);
	/* a local failure is its own line, first; one left reads as one */
	f[1].local = 1;
	lab_buf_init(&b);
	lab_fail_summary(&b, "power status", f, 2, 30);
	CHECK_STR(b.s, "lab: power status: node04: BMC 127.0.81.4:623: "
	    "session timeout\n"
	    "lab: power status: node03: BMC 127.0.81.3:623: "
	    "session timeout\n");
	lab_buf_release(&b);
	f[2].local = 1;
	lab_buf_init(&b);
	lab_fail_summary(&b, "power status", f, 4, 30);
	CHECK_STR(b.s, "lab: power status: node04: BMC 127.0.81.4:623: "
	    "session timeout\n"
	    "lab: power status: node05: BMC 127.0.81.5:623: "
	    "session timeout\n"
	    "lab: power status: 2 of 30 failed: session timeout: "
	    "node[03,06]\n");
	lab_buf_release(&b);
	lab_buf_init(&b);
	lab_fail_summary(&b, "power status", f, 0, 30);
	CHECK(b.len == 0);
	lab_buf_release(&b);
}

static void
test_reason(void)
{
	struct lab_err	err;

	lab_err_init(&err);
	CHECK(lab_err_reason(&err) == NULL);
	lab_err_set(&err, LAB_EXIT_PARTIAL, "something");
	CHECK_STR(lab_err_reason(&err), "failed");
	lab_err_init(&err);
	lab_err_why(&err, LAB_REASON_TIMEOUT, LAB_EXIT_PARTIAL, "BMC x: %s",
	    "session timeout");
	CHECK_STR(lab_err_reason(&err), "timeout");
	CHECK_STR(err.msg, "BMC x: session timeout");
	/* the first error wins, its reason with it */
	lab_err_why(&err, LAB_REASON_AUTH, LAB_EXIT_PARTIAL, "other");
	CHECK_STR(lab_err_reason(&err), "timeout");
	lab_err_init(&err);
	lab_err_oom(&err);
	CHECK_STR(lab_err_reason(&err), "local error");
	lab_err_init(&err);
	CHECK(err.reason == NULL);
}

int
main(void)
{
	test_fold();
	test_fold_1000();
	test_text();
	test_summary();
	test_reason();
	TESTS_DONE();
}
