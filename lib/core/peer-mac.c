/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The source MAC our frames to an address carry on its link. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <ctype.h>
#include <ifaddrs.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/peer-mac.h"

#define RTF_UP_		0x0001
#define RTF_GATEWAY_	0x0002
#define RTF_REJECT_	0x0200
#define ATF_COM_	0x02
#define TABLE_MAX	65536	/* of /proc/net/route, /proc/net/arp read */

static int
bits(uint32_t m)
{
	int	n = 0;

	for (; m != 0; m &= m - 1)
		n++;
	return n;
}

/*
 * Splits the line at l (up to a newline) into at most max fields on
 * blanks, in buf (len bytes); returns how many, -1 when it is too long.
 */
static int
fields(const char *l, char *buf, size_t len, char **f, int max)
{
	size_t	 n = strcspn(l, "\n");
	char	*p, *save = NULL;
	int	 k = 0;

	if (n >= len)
		return -1;
	memcpy(buf, l, n);
	buf[n] = '\0';
	for (p = strtok_r(buf, " \t", &save); p != NULL && k < max;
	    p = strtok_r(NULL, " \t", &save))
		f[k++] = p;
	return k;
}

/* A field of /proc/net/route or /proc/net/arp in base 16 or 10; -1 when
 * not one. */
static int
num(const char *s, int base, uint32_t *ret)
{
	char		*end;
	unsigned long	 v;

	if (base == 16 && strncmp(s, "0x", 2) == 0)
		s += 2;
	v = strtoul(s, &end, base);
	if (end == s || *end != '\0' || v > UINT32_MAX)
		return -1;
	*ret = (uint32_t)v;
	return 0;
}

static const char *
next_line(const char *l)
{
	const char	*nl = strchr(l, '\n');

	return nl != NULL ? nl + 1 : NULL;
}

int
lab_route_pick(const char *route, uint32_t addr, char *ifname, uint32_t *gw)
{
	const char	*l;
	int		 best = -1;
	uint32_t	 bestmetric = 0;

	for (l = route; l != NULL && *l != '\0'; l = next_line(l)) {
		char		 buf[256], *f[11];
		uint32_t	 dst, g, flags, metric, mask;
		int		 b;

		/* Iface Destination Gateway Flags RefCnt Use Metric Mask */
		if (fields(l, buf, sizeof(buf), f, 11) < 8 ||
		    strlen(f[0]) >= 16 || num(f[1], 16, &dst) == -1 ||
		    num(f[2], 16, &g) == -1 || num(f[3], 16, &flags) == -1 ||
		    num(f[6], 10, &metric) == -1 ||
		    num(f[7], 16, &mask) == -1)
			continue;	/* the header */
		if ((flags & RTF_UP_) == 0 || (flags & RTF_REJECT_) != 0 ||
		    (addr & mask) != dst)
			continue;
		b = bits(mask);
		if (b < best || (b == best && metric >= bestmetric))
			continue;
		best = b;
		bestmetric = metric;
		memcpy(ifname, f[0], strlen(f[0]) + 1);
		*gw = (flags & RTF_GATEWAY_) != 0 ? g : 0;
	}
	return best < 0 ? -1 : 0;
}

int
lab_arp_pick(const char *arp, const char *ip, const char *ifname, char *mac)
{
	const char	*l;

	for (l = arp; l != NULL && *l != '\0'; l = next_line(l)) {
		char		 buf[256], *f[6];
		uint32_t	 flags;

		/* IP address, HW type, Flags, HW address, Mask, Device */
		if (fields(l, buf, sizeof(buf), f, 6) != 6 ||
		    num(f[2], 16, &flags) == -1)
			continue;	/* the header */
		if (strcmp(f[0], ip) == 0 && strcmp(f[5], ifname) == 0 &&
		    (flags & ATF_COM_) != 0 && strlen(f[3]) == 17) {
			memcpy(mac, f[3], 18);
			return 0;
		}
	}
	return -1;
}

/* At most len - 1 bytes of a file, NUL-terminated; -1 unreadable. */
static int
slurp(const char *path, char *buf, size_t len)
{
	FILE	*f;
	char	*cut;
	size_t	 n;

	if ((f = fopen(path, "re")) == NULL)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	if (n == len - 1 && (cut = strrchr(buf, '\n')) != NULL)
		cut[1] = '\0';		/* not half a line */
	(void)fclose(f);
	return 0;
}

static int
local_address(uint32_t a)
{
	struct ifaddrs	*ifa, *i;
	int		 r = 0;

	if (getifaddrs(&ifa) == -1)
		return 0;
	for (i = ifa; i != NULL; i = i->ifa_next)
		if (i->ifa_addr != NULL && i->ifa_addr->sa_family == AF_INET &&
		    ((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr.
		    s_addr == a)
			r = 1;
	freeifaddrs(ifa);
	return r;
}

/*
 * The MAC of an interface, from getifaddrs (netlink: the namespace of
 * this process, which /sys/class/net need not be); -1 when it has none.
 */
static int
if_mac(const char *ifname, char *mac)
{
	struct ifaddrs	*ifa, *i;
	int		 r = -1;

	if (getifaddrs(&ifa) == -1)
		return -1;
	for (i = ifa; i != NULL && r == -1; i = i->ifa_next) {
		const struct sockaddr_ll *ll;

		if (i->ifa_addr == NULL || i->ifa_addr->sa_family !=
		    AF_PACKET || strcmp(i->ifa_name, ifname) != 0)
			continue;
		ll = (const struct sockaddr_ll *)(void *)i->ifa_addr;
		if (ll->sll_halen != 6)
			continue;
		(void)snprintf(mac, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
		    ll->sll_addr[0], ll->sll_addr[1], ll->sll_addr[2],
		    ll->sll_addr[3], ll->sll_addr[4], ll->sll_addr[5]);
		r = 0;
	}
	freeifaddrs(ifa);
	return r;
}

static void
lower(char *s)
{
	for (; *s != '\0'; s++)
		*s = (char)tolower((unsigned char)*s);
}

void
lab_peer_mac(const char *addr, struct lab_peer_mac *ret)
{
	struct in_addr	 in, g;
	char		 ip[INET_ADDRSTRLEN];
	uint32_t	 gw;

	memset(ret, 0, sizeof(*ret));
	if (addr == NULL || inet_pton(AF_INET, addr, &in) != 1) {
		ret->why = "not a numeric IPv4 address";
		return;
	}
	if ((ntohl(in.s_addr) >> 24) == 127 || local_address(in.s_addr)) {
		ret->why = "reached through the loopback interface";
		return;
	}
	{
		char	*route;

		if ((route = malloc(TABLE_MAX)) == NULL ||
		    slurp("/proc/net/route", route, TABLE_MAX) == -1 ||
		    lab_route_pick(route, in.s_addr, ret->ifname, &gw) == -1) {
			free(route);
			ret->why = "no IPv4 route to it";
			return;
		}
		free(route);
	}
	if (gw != 0) {
		char	*arp;

		ret->via_gateway = 1;
		g.s_addr = gw;
		if (inet_ntop(AF_INET, &g, ip, sizeof(ip)) == NULL ||
		    (arp = malloc(TABLE_MAX)) == NULL) {
			ret->why = "no neighbour entry for the gateway";
			return;
		}
		if (slurp("/proc/net/arp", arp, TABLE_MAX) == -1 ||
		    lab_arp_pick(arp, ip, ret->ifname, ret->mac) == -1) {
			free(arp);
			ret->mac[0] = '\0';
			ret->why = "no neighbour entry for the gateway";
			return;
		}
		free(arp);
	} else if (if_mac(ret->ifname, ret->mac) == -1) {
		ret->why = "the interface has no MAC";
		return;
	}
	lower(ret->mac);
	if (strcmp(ret->mac, "00:00:00:00:00:00") == 0) {
		ret->mac[0] = '\0';
		ret->why = "an all-zero MAC";
	}
}
