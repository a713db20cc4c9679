/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The source MAC of our frames to a switch (lib/core/peer-mac.c): the
 * route of /proc/net/route (longest prefix, then lowest metric; down and
 * reject routes skipped; the gateway when RTF_GATEWAY), the complete
 * neighbour entry of /proc/net/arp on that interface, and what
 * lab_peer_mac says of addresses it cannot tell.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>

#include "lab/peer-mac.h"

#include "tests.h"

/* little-endian hex of the kernel's table, as on x86 and arm64 */
static const char route[] =
    "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask"
    "\t\tMTU\tWindow\tIRTT\n"
    "eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
    "eth0\t000200C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
    "mgmt0\t000200C0\t00000000\t0001\t0\t0\t50\t00FFFFFF\t0\t0\t0\n"
    "down0\t400200C0\t00000000\t0000\t0\t0\t0\tC0FFFFFF\t0\t0\t0\n"
    "rej0\t800200C0\t00000000\t0201\t0\t0\t0\tC0FFFFFF\t0\t0\t0\n"
    "vpn0\t0033000A\t0133000A\t0003\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";

static const char arp[] =
    "IP address       HW type     Flags       HW address            "
    "Mask     Device\n"
    "192.0.2.1        0x1         0x2         02:00:00:00:00:01     *"
    "        eth0\n"
    "10.0.51.1        0x1         0x0         00:00:00:00:00:00     *"
    "        vpn0\n"
    "10.0.51.1        0x1         0x2         02:00:00:00:51:01     *"
    "        eth1\n";

static int
pick(const char *a, char *ifname, uint32_t *gw)
{
	struct in_addr	in;

	CHECK(inet_pton(AF_INET, a, &in) == 1);
	return lab_route_pick(route, in.s_addr, ifname, gw);
}

static uint32_t
ip(const char *a)
{
	struct in_addr	in;

	CHECK(inet_pton(AF_INET, a, &in) == 1);
	return in.s_addr;
}

static void
test_route(void)
{
	char		ifname[16];
	uint32_t	gw;

	/* on-link: the /24 beats the default, metric 50 beats 100 */
	CHECK(pick("192.0.2.10", ifname, &gw) == 0);
	CHECK_STR(ifname, "mgmt0");
	CHECK(gw == 0);
	/* a down route and a reject route are no route: the /24 */
	CHECK(pick("192.0.2.70", ifname, &gw) == 0);
	CHECK_STR(ifname, "mgmt0");
	CHECK(pick("192.0.2.130", ifname, &gw) == 0);
	CHECK_STR(ifname, "mgmt0");
	/* elsewhere: the default route's gateway */
	CHECK(pick("198.51.100.7", ifname, &gw) == 0);
	CHECK_STR(ifname, "eth0");
	CHECK(gw == ip("192.0.2.1"));
	CHECK(pick("10.0.51.9", ifname, &gw) == 0);
	CHECK_STR(ifname, "vpn0");
	CHECK(gw == ip("10.0.51.1"));
	/* no default route: none */
	CHECK(lab_route_pick("eth0\t000200C0\t00000000\t0001\t0\t0\t100\t"
	    "00FFFFFF\t0\t0\t0\n", ip("198.51.100.7"), ifname, &gw) == -1);
	CHECK(lab_route_pick("", ip("192.0.2.10"), ifname, &gw) == -1);
}

static void
test_arp(void)
{
	char	mac[18];

	CHECK(lab_arp_pick(arp, "192.0.2.1", "eth0", mac) == 0);
	CHECK_STR(mac, "02:00:00:00:00:01");
	/* the entry on another interface is not it; an incomplete one
	 * neither */
	CHECK(lab_arp_pick(arp, "192.0.2.1", "mgmt0", mac) == -1);
	CHECK(lab_arp_pick(arp, "10.0.51.1", "vpn0", mac) == -1);
	CHECK(lab_arp_pick(arp, "10.0.51.1", "eth1", mac) == 0);
	CHECK_STR(mac, "02:00:00:00:51:01");
	CHECK(lab_arp_pick(arp, "192.0.2.2", "eth0", mac) == -1);
}

static void
test_unknown(void)
{
	struct lab_peer_mac	pm;

	lab_peer_mac("127.0.104.1", &pm);
	CHECK_STR(pm.mac, "");
	CHECK_STR(pm.why, "reached through the loopback interface");
	lab_peer_mac("sw1.example.org", &pm);
	CHECK_STR(pm.mac, "");
	CHECK_STR(pm.why, "not a numeric IPv4 address");
	lab_peer_mac("2001:db8::1", &pm);
	CHECK_STR(pm.why, "not a numeric IPv4 address");
	lab_peer_mac(NULL, &pm);
	CHECK_STR(pm.why, "not a numeric IPv4 address");
}

int
main(void)
{
	test_route();
	test_arp();
	test_unknown();
	TESTS_DONE();
}
