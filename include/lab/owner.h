/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_OWNER_H
#define LAB_OWNER_H

/*
 * The process that owns something stored (a provisioning run): its pid,
 * what tells a reused pid apart (the process's start time, in clock ticks
 * since boot, and the boot id) and the machine it runs on.
 */
struct lab_owner {
	long long	pid;
	long long	start;		/* /proc/PID/stat field 22; 0: unknown */
	char		boot[40];	/* /proc/sys/kernel/random/boot_id */
	char		machine[256];	/* gethostname() */
};

/* This process. Fields that cannot be read are left 0 or "". */
void	lab_owner_self(struct lab_owner *);

/*
 * 1 when o is known to be gone: it ran on self's machine, and that
 * machine has booted since (another boot id), or no process o->pid runs,
 * or it started at another time (a reused pid). 0 when it may run, and
 * for an owner on another machine (nothing here can tell).
 */
int	lab_owner_gone(const struct lab_owner *self,
	    const struct lab_owner *o);

#endif
