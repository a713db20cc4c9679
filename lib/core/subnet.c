/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <arpa/inet.h>
#include <string.h>

#include "lab/parse.h"
#include "lab/subnet.h"

int
lab_subnet_has(const char *cidr, const char *ip)
{
	unsigned char	 net[16], host[16];
	char		 addr[64];
	const char	*slash = strchr(cidr, '/');
	size_t		 n, i;
	long		 len;
	int		 af;

	if (slash == NULL || (n = (size_t)(slash - cidr)) == 0 ||
	    n >= sizeof(addr))
		return -1;
	memcpy(addr, cidr, n);
	addr[n] = '\0';
	af = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
	if (inet_pton(af, addr, net) != 1 ||
	    lab_parse_int(slash + 1, 1, af == AF_INET6 ? 128 : 32, &len) == -1)
		return -1;
	if (inet_pton(af, ip, host) != 1) {
		/* a valid address of the other family is in another network */
		return inet_pton(af == AF_INET ? AF_INET6 : AF_INET, ip,
		    host) == 1 ? 0 : -1;
	}
	for (i = 0; len >= 8; i++, len -= 8)
		if (net[i] != host[i])
			return 0;
	if (len > 0 && ((net[i] ^ host[i]) & (0xff00 >> len) & 0xff) != 0)
		return 0;
	return 1;
}
