/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The owner of a provisioning run (lab/owner.h): this process is alive; a
 * child that has exited and been reaped is gone; a live pid with another
 * start time (a reused pid) or another boot id is gone; an owner on
 * another machine is never taken for gone.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/owner.h"

#include "tests.h"

int
main(void)
{
	struct lab_owner	self, o;
	pid_t			pid;

	lab_owner_self(&self);
	CHECK(self.pid == (long long)getpid());
	CHECK(self.start > 0);
	CHECK(strlen(self.boot) == 36);
	CHECK(self.machine[0] != '\0');
	CHECK(lab_owner_gone(&self, &self) == 0);

	/* a reused pid: alive, started at another time */
	o = self;
	o.start = self.start + 1;
	CHECK(lab_owner_gone(&self, &o) == 1);

	/* the machine has booted since */
	o = self;
	snprintf(o.boot, sizeof(o.boot), "00000000-0000-0000-0000-000000000000");
	CHECK(lab_owner_gone(&self, &o) == 1);

	/* another machine: nothing here can tell */
	o = self;
	o.start = 1;
	snprintf(o.machine, sizeof(o.machine), "%s-elsewhere", self.machine);
	CHECK(lab_owner_gone(&self, &o) == 0);

	/* a process that has exited */
	if ((pid = fork()) == 0)
		_exit(0);
	CHECK(pid > 0);
	if (pid > 0) {
		CHECK(waitpid(pid, NULL, 0) == pid);
		o = self;
		o.pid = (long long)pid;
		CHECK(lab_owner_gone(&self, &o) == 1);
	}
	TESTS_DONE();
}
