/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Secrets are wiped before their memory is freed: this test is linked
 * with -Wl,--wrap=free, so every free() in lab's own code (lib/ and this
 * file; not inside libyaml) passes through __wrap_free, which looks for
 * the secret marker in the block about to be freed.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/cred.h"
#include "lab/err.h"
#include "lab/str.h"

#include "tests.h"

#define MARK	"Wipe-Me-7q"

void	__real_free(void *);
void	__wrap_free(void *);

static size_t	freed_with_secret;

void
__wrap_free(void *p)
{
	size_t	n;

	if (p != NULL) {
		n = malloc_usable_size(p);
		if (memmem(p, n, MARK, sizeof(MARK) - 1) != NULL)
			freed_with_secret++;
	}
	__real_free(p);
}

static const char creds[] =
	"rac: {username: admin, password: \"" MARK "-rac\"}\n"
	"sw: {community: \"" MARK "-community\"}\n"
	"v3: {username: lab, auth_protocol: sha, auth_password: \"" MARK
	"-auth\", priv_protocol: aes, priv_password: \"" MARK "-priv\"}\n";

/* A value in the wrong place: the error path wipes it too. */
static const char bad[] =
	"rac: \"" MARK "-not-a-mapping\"\n";

static void
test_buf(void)
{
	struct lab_creds	*cs = NULL;
	struct lab_err		 err;

	lab_err_init(&err);
	freed_with_secret = 0;
	CHECK(lab_creds_load_buf("c.yaml", creds, sizeof(creds) - 1, &cs,
	    &err) == 0);
	CHECK(cs != NULL && cs->n == 3);
	CHECK(freed_with_secret == 0);
	lab_creds_free(cs);
	CHECK(freed_with_secret == 0);

	lab_err_init(&err);
	cs = NULL;
	CHECK(lab_creds_load_buf("c.yaml", bad, sizeof(bad) - 1, &cs,
	    &err) == -1);
	CHECK(strstr(err.msg, MARK) == NULL);
	CHECK(freed_with_secret == 0);
}

static void
test_file(void)
{
	struct lab_creds	*cs = NULL;
	struct lab_err		 err;
	char			 path[] = "/tmp/lab-test-wipe.XXXXXX";
	int			 fd;

	if ((fd = mkstemp(path)) == -1) {
		CHECK(fd != -1);
		return;
	}
	CHECK(write(fd, creds, sizeof(creds) - 1) ==
	    (ssize_t)(sizeof(creds) - 1));
	close(fd);
	lab_err_init(&err);
	freed_with_secret = 0;
	CHECK(lab_creds_load(path, &cs, &err) == 0);
	lab_creds_free(cs);
	CHECK(freed_with_secret == 0);
	unlink(path);
}

/* The check itself: a block with the mark is seen. */
static void
test_detects(void)
{
	char	*p;

	freed_with_secret = 0;
	/* lab_strdup, as the compiler may drop a strdup() that is only freed */
	if ((p = lab_strdup("x " MARK " y")) != NULL)
		free(p);
	CHECK(freed_with_secret == 1);
}

int
main(void)
{
	test_detects();
	test_buf();
	test_file();
	TESTS_DONE();
}
