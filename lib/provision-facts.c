/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab/provision.h"

/*
 * What a plan depends on that only the target knows, read over its SSH
 * connection before the plan is shown for --yes: today whether its ZFS
 * has lz4 (zpool upgrade -v lists the features it supports).
 */
int
lab_provision_facts(struct lab_ssh *s, const char *host,
    struct lab_target_facts *facts, struct lab_err *err)
{
	struct lab_ssh_result	r;
	size_t			n;

	memset(&r, 0, sizeof(r));
	if (lab_ssh_exec(s, "command -v zpool >/dev/null || exit 127; "
	    "zpool upgrade -v", NULL, 0, 120000, &r, err) == -1)
		return -1;
	if (r.exit_status == 127) {
		lab_ssh_result_free(&r);
		return lab_err_set(err, LAB_EXIT_PARTIAL, "%s has no zpool "
		    "command: install ZFS there first (zfsutils-linux)", host);
	}
	/*
	 * A zpool that fails (OpenZFS with its module not loaded) says
	 * nothing of lz4: not a ZFS without it.
	 */
	if (r.exit_status != 0) {
		n = r.err != NULL ? strcspn(r.err, "\n") : 0;
		lab_err_set(err, LAB_EXIT_PARTIAL, "%s: 'zpool upgrade -v' "
		    "failed (exit %d)%s%.*s", host, r.exit_status,
		    n ? ": " : "", (int)(n > 200 ? 200 : n),
		    r.err != NULL ? r.err : "");
		lab_ssh_result_free(&r);
		return -1;
	}
	facts->zfs_lz4 = r.out != NULL &&
	    memmem(r.out, r.outlen, "lz4_compress", 12) != NULL;
	lab_ssh_result_free(&r);
	return 0;
}
