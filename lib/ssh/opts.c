/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "lab/inventory.h"
#include "lab/ssh.h"

void
lab_ssh_opts_set(struct lab_ssh_opts *o, const char *label,
    const struct lab_ssh_cfg *c, const char *identity,
    const char *known_hosts)
{
	memset(o, 0, sizeof(*o));
	o->label = label;
	o->address = c->address;
	o->port = c->port;
	o->user = c->user;
	o->identity = identity;
	o->known_hosts = known_hosts;
	o->legacy_crypto = c->legacy_crypto;
}
