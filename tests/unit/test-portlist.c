/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PortList bitmaps (lib/inventory/vlan.c): lab_portlist_has/set. */
#include <string.h>

#include "lab/vlan.h"

#include "tests.h"

int
main(void)
{
	unsigned char	list[4], guard[8];
	unsigned long	p;
	int		n;

	/* octet 0 bit 7 is bridge port 1, MSB first */
	memset(list, 0, sizeof(list));
	lab_portlist_set(list, sizeof(list), 1, 1);
	CHECK(list[0] == 0x80);
	lab_portlist_set(list, sizeof(list), 8, 1);
	CHECK(list[0] == 0x81);
	lab_portlist_set(list, sizeof(list), 9, 1);
	CHECK(list[1] == 0x80);
	lab_portlist_set(list, sizeof(list), 32, 1);
	CHECK(list[3] == 0x01);
	CHECK(lab_portlist_has(list, sizeof(list), 1));
	CHECK(lab_portlist_has(list, sizeof(list), 8));
	CHECK(lab_portlist_has(list, sizeof(list), 9));
	CHECK(lab_portlist_has(list, sizeof(list), 32));
	CHECK(!lab_portlist_has(list, sizeof(list), 2));
	CHECK(!lab_portlist_has(list, sizeof(list), 31));

	/* port 0 and ports past the list: not members, never written */
	memset(guard, 0x5a, sizeof(guard));
	memset(guard, 0, 4);
	lab_portlist_set(guard, 4, 0, 1);
	lab_portlist_set(guard, 4, 33, 1);
	lab_portlist_set(guard, 4, 1000, 1);
	CHECK(memcmp(guard, "\0\0\0\0\x5a\x5a\x5a\x5a", 8) == 0);
	CHECK(!lab_portlist_has(list, sizeof(list), 0));
	CHECK(!lab_portlist_has(list, sizeof(list), 33));
	CHECK(!lab_portlist_has(list, 0, 1));

	/* clearing leaves the neighbours */
	lab_portlist_set(list, sizeof(list), 8, 0);
	CHECK(list[0] == 0x80);
	lab_portlist_set(list, sizeof(list), 8, 0);
	CHECK(list[0] == 0x80);

	/* every port of a 126-octet list (the rig's), set then counted */
	{
		unsigned char	big[126];

		memset(big, 0, sizeof(big));
		for (p = 1; p <= 1008; p += 7)
			lab_portlist_set(big, sizeof(big), p, 1);
		for (n = 0, p = 1; p <= 1008; p++)
			n += lab_portlist_has(big, sizeof(big), p);
		CHECK(n == 144);
		CHECK(lab_portlist_has(big, sizeof(big), 1002));
		CHECK(big[125] == 0x40);	/* port 1002 alone: bit 6 */
	}
	return tests_failed ? 1 : 0;
}
