/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/owner.h"

/* Field 22 of /proc/PID/stat (the start time), 0 when unreadable. */
static long long
start_time(long long pid)
{
	char	 path[64], buf[1024], *p, *end;
	FILE	*f;
	size_t	 n;
	int	 field;

	snprintf(path, sizeof(path), "/proc/%lld/stat", pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "PID (COMM) STATE PPID ...": COMM may hold spaces and ')' */
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	for (field = 2; field < 22 && p != NULL; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL)
		return 0;
	errno = 0;
	long long v = strtoll(p + 1, &end, 10);
	return errno == 0 && end != p + 1 ? v : 0;
}

void
lab_owner_self(struct lab_owner *o)
{
	FILE	*f;
	size_t	 n;

	memset(o, 0, sizeof(*o));
	o->pid = (long long)getpid();
	o->start = start_time(o->pid);
	if ((f = fopen("/proc/sys/kernel/random/boot_id", "re")) != NULL) {
		n = fread(o->boot, 1, sizeof(o->boot) - 1, f);
		fclose(f);
		o->boot[n] = '\0';
		o->boot[strcspn(o->boot, "\n")] = '\0';
	}
	if (gethostname(o->machine, sizeof(o->machine) - 1) == -1)
		o->machine[0] = '\0';
}

int
lab_owner_gone(const struct lab_owner *self, const struct lab_owner *o)
{
	if (o->machine[0] == '\0' || strcmp(o->machine, self->machine) != 0)
		return 0;
	if (o->boot[0] != '\0' && self->boot[0] != '\0' &&
	    strcmp(o->boot, self->boot) != 0)
		return 1;
	if (o->pid <= 0)
		return 0;
	if (kill((pid_t)o->pid, 0) == -1 && errno == ESRCH)
		return 1;
	/* alive, but another process under a reused pid? */
	return o->start != 0 && start_time(o->pid) != o->start;
}
