/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_PEER_MAC_H
#define LAB_PEER_MAC_H

#include <stdint.h>

/*
 * The source MAC our frames to an IPv4 address carry on that address's
 * own link (lib/core/peer-mac.c): when the address is on-link, the MAC
 * of the interface the route leaves by; else the MAC of the next-hop
 * gateway (the neighbour table). What a switch learns for lab's frames
 * to its management address, and so the port they come in by.
 */
struct lab_peer_mac {
	char		 mac[18];	/* "aa:bb:cc:dd:ee:ff", "" unknown */
	char		 ifname[16];	/* the route's interface, or "" */
	int		 via_gateway;
	const char	*why;		/* unknown: why (static), else NULL */
};

/*
 * Fills ret from /proc/net/route, /proc/net/arp and getifaddrs.
 * Never fails: an unknown MAC (not a numeric IPv4 address, a loopback
 * or local address, no route, no complete neighbour entry for the
 * gateway, an all-zero MAC) has mac "" and why. IPv4 only, and the main
 * routing table only (/proc/net/route: policy rules and VRFs are not
 * followed).
 */
void	lab_peer_mac(const char *addr, struct lab_peer_mac *ret);

/*
 * The pure parts, for tests. lab_route_pick: the route to addr (network
 * order, as inet_pton gives it) in the text of /proc/net/route, the
 * longest prefix, then the lowest metric: 0 and ifname (16 bytes), *gw
 * (0: on-link); -1 none. lab_arp_pick: the complete entry for ip on
 * ifname in the text of /proc/net/arp: 0 and mac (18 bytes); -1 none.
 */
int	lab_route_pick(const char *route, uint32_t addr, char *ifname,
	    uint32_t *gw);
int	lab_arp_pick(const char *arp, const char *ip, const char *ifname,
	    char *mac);

#endif
