/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "lab/plan.h"
#include "lab/provision.h"

/*
 * What a shares or mounts plan starts from (issue 21): the output of the
 * read-only lab_shares_state_cmd (lib/plan/shares.c) on the host.
 */
int
lab_provision_shares_state(struct lab_ssh *s, const char *host, char **ret,
    struct lab_err *err)
{
	struct lab_ssh_result	r;
	size_t			n;

	*ret = NULL;
	memset(&r, 0, sizeof(r));
	if (lab_ssh_exec(s, lab_shares_state_cmd, NULL, 0, 120000, &r,
	    err) == -1)
		return -1;
	if (r.exit_status != 0) {
		n = r.err != NULL ? strcspn(r.err, "\n") : 0;
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: reading what it "
		    "shares failed (exit %d)%s%.*s", host, r.exit_status,
		    n ? ": " : "", (int)(n > 200 ? 200 : n),
		    r.err != NULL ? r.err : "");
		lab_ssh_result_free(&r);
		return -1;
	}
	*ret = strndup(r.out != NULL ? r.out : "", r.out != NULL ?
	    r.outlen : 0);
	lab_ssh_result_free(&r);
	return *ret != NULL ? 0 : lab_err_oom(err);
}
