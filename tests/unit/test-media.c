/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Virtual media without a network: CLP replies parsed as the iLO prints
 * them, and lab_media_run()'s order of commands against an in-process
 * fake iLO (the same rules as tests/integration/ilo-clp.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/media.h"
#include "lab/str.h"

#include "tests.h"

/* ---- parsing --------------------------------------------------------- */

static void
test_parse(void)
{
	static const char ok_get[] =
	    "vm cdrom get\r\r\n"
	    "status=0\r\n"
	    "status_tag=COMMAND COMPLETED\r\n"
	    "Tue Sep 17 22:50:20 2019\r\n"
	    "\r\n"
	    "VM Applet = Disconnected\r\n"
	    "Boot Option = BOOT_ONCE\r\n"
	    "Write Protect = Yes\r\n"
	    "Image Inserted = Connected\r\n"
	    "Image URL = http://192.0.2.9/d.iso\r\n"
	    "\r\n"
	    "</>hpiLO-> ";
	static const char refused[] =
	    "status=2\r\n"
	    "status_tag=COMMAND PROCESSING FAILED\r\n"
	    "error_tag=COMMAND ERROR-UNSPECIFIED\r\n"
	    "Tue Sep 17 23:21:06 2019\r\n"
	    "\r\n"
	    "No image present in the Virtual Media drive.\r\n";
	static const char empty_get[] =
	    "status=0\nstatus_tag=COMMAND COMPLETED\nMon Nov  2 01:02:03 2026\n"
	    "\nVM Applet = Connected\nBoot Option = NO_BOOT\n"
	    "Write Protect = Yes\nImage Inserted = Disconnected\n"
	    "Image URL = \n";
	struct lab_clp_reply	rep;
	struct lab_media_state	st;
	struct lab_err		err;

	lab_err_init(&err);
	CHECK(lab_clp_parse(ok_get, sizeof(ok_get) - 1, &rep, &err) == 0);
	CHECK(rep.status == 0);
	CHECK_STR(rep.status_tag, "COMMAND COMPLETED");
	CHECK(rep.error_tag == NULL);
	CHECK(rep.message == NULL);
	CHECK(lab_media_state_parse(&rep, &st, &err) == 0);
	CHECK(st.known && st.connected && !st.applet && st.write_protect);
	CHECK_STR(st.image, "http://192.0.2.9/d.iso");
	CHECK_STR(st.boot, "BOOT_ONCE");
	CHECK_STR(lab_media_boot_name(st.boot), "once");
	lab_media_state_release(&st);
	lab_clp_reply_release(&rep);

	CHECK(lab_clp_parse(refused, sizeof(refused) - 1, &rep, &err) == 0);
	CHECK(rep.status == 2);
	CHECK_STR(rep.status_tag, "COMMAND PROCESSING FAILED");
	CHECK_STR(rep.error_tag, "COMMAND ERROR-UNSPECIFIED");
	CHECK_STR(rep.message, "No image present in the Virtual Media drive.");
	lab_clp_reply_release(&rep);

	CHECK(lab_clp_parse(empty_get, sizeof(empty_get) - 1, &rep, &err) ==
	    0);
	CHECK(lab_media_state_parse(&rep, &st, &err) == 0);
	CHECK(st.known && !st.connected && st.applet && st.image == NULL);
	CHECK_STR(lab_media_boot_name(st.boot), "never");
	lab_media_state_release(&st);
	lab_clp_reply_release(&rep);

	CHECK(lab_clp_parse("garbage\n", 8, &rep, &err) == 0);
	CHECK(rep.status == -1);
	CHECK(lab_media_state_parse(&rep, &st, &err) == -1);
	CHECK_HAS(err.msg, "no Virtual Media state");
	lab_clp_reply_release(&rep);
	CHECK(lab_clp_parse(NULL, 0, &rep, &err) == 0);
	CHECK(rep.status == -1 && rep.lines.n == 0);
	lab_clp_reply_release(&rep);
}

static void
test_url(void)
{
	struct lab_err	err;

	lab_err_init(&err);
	CHECK(lab_media_url_check("http://192.0.2.9/d.iso", &err) == 0);
	CHECK(lab_media_url_check("https://h/a%20b.iso?x=1&y=2", &err) == 0);
	CHECK(lab_media_url_check("ftp://h/d.iso", &err) == -1);
	CHECK(err.code == LAB_EXIT_INPUT);
	lab_err_init(&err);
	CHECK(lab_media_url_check("http:///d.iso", &err) == -1);
	CHECK(lab_media_url_check("http://h/a b.iso", &err) == -1);
	CHECK(lab_media_url_check("http://h/a'b.iso", &err) == -1);
	CHECK(lab_media_url_check(NULL, &err) == -1);
}

/* ---- a fake iLO ------------------------------------------------------ */

static struct {
	char		 url[256];
	int		 connected;
	const char	*boot;
	int		 applet;
	int		 drop;	/* insert answers 0, keeps nothing */
	int		 opened;
	struct lab_buf	 log;		/* commands, one a line */
} ilo;

static void
ilo_reset(void)
{
	lab_buf_release(&ilo.log);
	memset(&ilo, 0, sizeof(ilo));
	ilo.boot = "NO_BOOT";
}

static char *
ok_reply(const char *body)
{
	return lab_asprintf("status=0\r\nstatus_tag=COMMAND COMPLETED\r\n"
	    "Mon Nov 30 12:00:00 2026\r\n\r\n%s\r\n", body);
}

static char *
no_image(void)
{
	return lab_strdup("status=2\r\nstatus_tag=COMMAND PROCESSING FAILED"
	    "\r\nerror_tag=COMMAND ERROR-UNSPECIFIED\r\nMon Nov 30 12:00:00 "
	    "2026\r\n\r\nNo image present in the Virtual Media drive.\r\n");
}

static int
fake_open(const struct lab_clp_target *t, void **ret, struct lab_err *err)
{
	(void)err;
	CHECK_STR(t->user, "Administrator");
	CHECK_STR(t->password, "pw");
	CHECK(t->port == 22);
	ilo.opened++;
	*ret = &ilo;
	return 0;
}

static int
fake_run(void *arg, const char *cmd, char **out, size_t *len,
    struct lab_err *err)
{
	char	body[512];

	(void)arg;
	(void)err;
	lab_buf_addf(&ilo.log, "%s\n", cmd);
	if (strcmp(cmd, "vm cdrom get") == 0) {
		snprintf(body, sizeof(body), "VM Applet = %s\r\nBoot Option = "
		    "%s\r\nWrite Protect = Yes\r\nImage Inserted = %s\r\n"
		    "Image URL = %s", ilo.applet ? "Connected" : "Disconnected",
		    ilo.boot, ilo.connected ? "Connected" : "Disconnected",
		    ilo.url);
		*out = ok_reply(body);
	} else if (strncmp(cmd, "vm cdrom insert ", 16) == 0) {
		if (!ilo.drop)
			snprintf(ilo.url, sizeof(ilo.url), "%s", cmd + 16);
		*out = ok_reply("");
	} else if (ilo.url[0] == '\0') {
		*out = no_image();
	} else if (strcmp(cmd, "vm cdrom eject") == 0) {
		ilo.url[0] = '\0';
		ilo.connected = 0;
		ilo.boot = "NO_BOOT";
		*out = ok_reply("");
	} else if (strcmp(cmd, "vm cdrom set connect") == 0) {
		ilo.connected = 1;
		ilo.boot = "BOOT_ALWAYS";
		*out = ok_reply("");
	} else if (strcmp(cmd, "vm cdrom set boot_once") == 0) {
		ilo.boot = "BOOT_ONCE";
		*out = ok_reply("");
	} else
		*out = lab_strdup("status=2\r\n");
	*len = strlen(*out);
	return 0;
}

static void
fake_close(void *arg)
{
	(void)arg;
}

static const struct lab_clp_ops fake_ops = { fake_open, fake_run,
	fake_close };

static int64_t
zero(void)
{
	return 0;
}

static const char inventory[] =
	"hosts:\n"
	"  - {name: neo, model: hp-dl320-g5p, bmc: {type: ilo2, address: "
	"192.0.2.30, credential: ilo}}\n"
	"  - {name: ms1, model: hp-microserver-n40l, bmc: {type: rac, "
	"address: 192.0.2.21, credential: ilo}}\n"
	"  - {name: ml115, model: hp-ml115-g5}\n";

static const char creds_yaml[] =
	"ilo: {username: Administrator, password: pw}\n";

static struct lab_inventory	*inv;
static struct lab_creds		*creds;

/* Runs verb on one host; returns the result (free with results_free). */
static struct lab_media_result *
media(const char *host, enum lab_media_verb verb, const char *url,
    int boot_once, int dry_run)
{
	struct lab_media_result	*res = NULL;
	struct lab_media_req	 req;
	struct lab_strv		 hosts;
	struct lab_ctx		 ctx;
	struct lab_err		 err;

	memset(&ctx, 0, sizeof(ctx));
	ctx.monotonic_ms = zero;
	memset(&req, 0, sizeof(req));
	req.verb = verb;
	req.url = url;
	req.boot_once = boot_once;
	req.dry_run = dry_run;
	req.fanout = 1;
	req.ops = &fake_ops;
	lab_strv_init(&hosts);
	lab_strv_add(&hosts, host);
	lab_err_init(&err);
	lab_buf_release(&ilo.log);
	CHECK(lab_media_run(&ctx, inv, &hosts, creds, &req, &res, &err) == 0);
	lab_strv_release(&hosts);
	return res;
}

#define U1	"http://192.0.2.9/one.iso"
#define U2	"http://192.0.2.9/two.iso"

static void
test_sequences(void)
{
	struct lab_media_result	*r;
	struct lab_err		 err;

	lab_err_init(&err);
	inv = lab_inventory_new();
	CHECK(lab_inventory_load_buf(inv, "lab.yaml", inventory,
	    strlen(inventory), &err) == 0);
	CHECK(lab_creds_load_buf("c.yaml", creds_yaml, strlen(creds_yaml),
	    &creds, &err) == 0);
	ilo_reset();

	/* insert --boot-once: HP's order, then read back */
	r = media("neo", LAB_MEDIA_INSERT, U1, 1, 0);
	CHECK(r->ok && r->acted && !r->unsupported);
	CHECK_STR(ilo.log.s, "vm cdrom get\nvm cdrom insert " U1 "\n"
	    "vm cdrom set connect\nvm cdrom set boot_once\nvm cdrom get\n");
	CHECK_STR(r->state.image, U1);
	CHECK_STR(r->note, "inserted");
	CHECK_STR(r->bmc, "192.0.2.30:22");
	CHECK(r->sent.n == 5);
	lab_media_results_free(r, 1);

	/* again: nothing to do */
	r = media("neo", LAB_MEDIA_INSERT, U1, 1, 0);
	CHECK(r->ok && !r->acted);
	CHECK_STR(ilo.log.s, "vm cdrom get\n");
	CHECK_STR(r->note, "already inserted");
	lab_media_results_free(r, 1);

	/* another image: the first ejected first */
	r = media("neo", LAB_MEDIA_INSERT, U2, 0, 0);
	CHECK(r->ok);
	CHECK_STR(ilo.log.s, "vm cdrom get\nvm cdrom eject\nvm cdrom insert "
	    U2 "\nvm cdrom set connect\nvm cdrom get\n");
	CHECK_STR(r->note, "inserted (ejected " U1 ")");
	CHECK_STR(lab_media_boot_name(r->state.boot), "always");
	lab_media_results_free(r, 1);

	/* status reads only */
	r = media("neo", LAB_MEDIA_STATUS, NULL, 0, 0);
	CHECK(r->ok && !r->acted);
	CHECK_STR(ilo.log.s, "vm cdrom get\n");
	lab_media_results_free(r, 1);

	/* eject, then eject of nothing */
	r = media("neo", LAB_MEDIA_EJECT, NULL, 0, 0);
	CHECK(r->ok && r->acted && r->state.image == NULL);
	CHECK_STR(ilo.log.s, "vm cdrom get\nvm cdrom eject\nvm cdrom get\n");
	lab_media_results_free(r, 1);
	r = media("neo", LAB_MEDIA_EJECT, NULL, 0, 0);
	CHECK(r->ok && !r->acted);
	CHECK_STR(r->note, "nothing inserted");
	lab_media_results_free(r, 1);

	/* the iLO refusing a step: its words, and what was done before */
	ilo.drop = 1;
	r = media("neo", LAB_MEDIA_INSERT, U1, 1, 0);
	ilo.drop = 0;
	CHECK(!r->ok);
	CHECK_STR(r->err.msg, "after vm cdrom insert " U1 ": iLO "
	    "192.0.2.30:22 answered 'vm cdrom set connect' with status=2 "
	    "COMMAND PROCESSING FAILED (COMMAND ERROR-UNSPECIFIED): No image "
	    "present in the Virtual Media drive.");
	CHECK(strstr(ilo.log.s, "boot_once") == NULL);
	lab_media_results_free(r, 1);

	/* the applet holding the drive: only "get" */
	ilo.applet = 1;
	r = media("neo", LAB_MEDIA_INSERT, U1, 0, 0);
	ilo.applet = 0;
	CHECK(!r->ok);
	CHECK_HAS(r->err.msg, "applet holds the CD-ROM");
	CHECK_STR(ilo.log.s, "vm cdrom get\n");
	lab_media_results_free(r, 1);

	/* RAC and no BMC: nothing opened; status fine, insert refused */
	ilo.opened = 0;
	r = media("ms1", LAB_MEDIA_INSERT, U1, 1, 0);
	CHECK(!r->ok && r->unsupported);
	CHECK_STR(r->err.msg, "the Remote Access Card has no scriptable "
	    "virtual media (only its Java applet): use 'lab boot ms1 pxe', "
	    "or 'lab boot ms1 cdrom' with a physical or USB disc");
	lab_media_results_free(r, 1);
	r = media("ms1", LAB_MEDIA_STATUS, NULL, 0, 0);
	CHECK(r->ok && r->unsupported);
	lab_media_results_free(r, 1);
	r = media("ml115", LAB_MEDIA_EJECT, NULL, 0, 0);
	CHECK(!r->ok && r->unsupported);
	CHECK_HAS(r->err.msg, "no BMC recorded");
	lab_media_results_free(r, 1);
	/* a dry run contacts nothing */
	r = media("neo", LAB_MEDIA_INSERT, U1, 1, 1);
	CHECK(r->ok && !r->acted);
	CHECK_HAS(r->note, "would send: vm cdrom get");
	lab_media_results_free(r, 1);
	CHECK(ilo.opened == 0);

	ilo_reset();
	lab_creds_free(creds);
	lab_inventory_free(inv);
}

int
main(void)
{
	test_parse();
	test_url();
	test_sequences();
	TESTS_DONE();
}
