/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/cred.h"
#include "lab/render.h"

/*
 * A BMC, the one shape every command writes (lab(1), JSON): null, or
 * {type, address, port, credential, cipher_suite, workarounds, privilege,
 * timeout, retransmit}; the credential is the name in the credentials
 * file, never what it holds.
 */
void
lab_render_bmc_json(struct lab_json *j, const struct lab_bmc *b)
{
	size_t	i;

	if (b == NULL) {
		lab_json_null(j);
		return;
	}
	lab_json_obj_begin(j);
	lab_json_kstr(j, "type", b->type);
	lab_json_kstr(j, "address", b->address);
	lab_json_kint(j, "port", b->port);
	lab_json_kstr(j, "credential", b->credential);
	lab_json_kint(j, "cipher_suite", b->cipher_suite);
	lab_json_key(j, "workarounds");
	lab_json_arr_begin(j);
	for (i = 0; i < b->workarounds.n; i++)
		lab_json_str(j, b->workarounds.v[i]);
	lab_json_arr_end(j);
	lab_json_kstr(j, "privilege", b->privilege);
	lab_json_key(j, "timeout");
	if (b->timeout_ms > 0)
		lab_json_int(j, b->timeout_ms / 1000);
	else
		lab_json_null(j);
	lab_json_key(j, "retransmit");
	if (b->retransmit_ms > 0)
		lab_json_int(j, b->retransmit_ms);
	else
		lab_json_null(j);
	lab_json_obj_end(j);
}

/*
 * key: a command line (as the audit log keeps it, redacted) as an array
 * of its words, the one shape of a command line; null when there is none.
 */
void
lab_json_kargs(struct lab_json *j, const char *key, const char *line)
{
	struct lab_strv	w;
	size_t		i;

	lab_json_key(j, key);
	if (line == NULL || lab_argv_split(line, &w) == -1) {
		lab_json_null(j);
		return;
	}
	lab_json_arr_begin(j);
	for (i = 0; i < w.n; i++)
		lab_json_str(j, w.v[i]);
	lab_json_arr_end(j);
	lab_strv_release(&w);
}
