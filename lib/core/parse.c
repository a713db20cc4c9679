/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lab/parse.h"

#define WHY(s)	do { if (why != NULL) *why = (s); } while (0)

static const struct unit {
	const char	*name;
	uint64_t	 mult;
} units[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1000ULL }, { "kb", 1000ULL }, { "kib", 1ULL << 10 },
	{ "m", 1000000ULL }, { "mb", 1000000ULL }, { "mib", 1ULL << 20 },
	{ "g", 1000000000ULL }, { "gb", 1000000000ULL }, { "gib", 1ULL << 30 },
	{ "t", 1000000000000ULL }, { "tb", 1000000000000ULL },
	{ "tib", 1ULL << 40 },
	{ "p", 1000000000000000ULL }, { "pb", 1000000000000000ULL },
	{ "pib", 1ULL << 50 },
};

/* Parses a size with decimal or binary units into bytes. */
int
lab_parse_size(const char *s, uint64_t *ret, const char **why)
{
	const char	*p = s, *u;
	uint64_t	 whole = 0, frac = 0, fracdiv = 1, mult = 0, v;
	size_t		 i, ndig = 0;
	char		 unit[8];

	while (isdigit((unsigned char)*p)) {
		if (whole > (UINT64_MAX - 9) / 10) {
			WHY("size is too large");
			return -1;
		}
		whole = whole * 10 + (uint64_t)(*p++ - '0');
		ndig++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			if (fracdiv >= 1000000000000000000ULL) {
				WHY("too many decimal places");
				return -1;
			}
			frac = frac * 10 + (uint64_t)(*p++ - '0');
			fracdiv *= 10;
			ndig++;
		}
		if (fracdiv == 1) {
			WHY("a digit must follow the decimal point");
			return -1;
		}
	}
	if (ndig == 0) {
		WHY("a size starts with a number, as in 500GB or 1.5TiB");
		return -1;
	}
	while (*p == ' ')
		p++;
	u = p;
	if (strlen(u) >= sizeof(unit)) {
		WHY("unknown unit (use B, KB, MB, GB, TB, PB or KiB ... PiB)");
		return -1;
	}
	for (i = 0; u[i] != '\0'; i++)
		unit[i] = (char)tolower((unsigned char)u[i]);
	unit[i] = '\0';
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(unit, units[i].name) == 0)
			mult = units[i].mult;
	if (mult == 0) {
		WHY("unknown unit (use B, KB, MB, GB, TB, PB or KiB ... PiB)");
		return -1;
	}
	if (whole > INT64_MAX / mult) {
		WHY("size is too large");
		return -1;
	}
	v = whole * mult;
	if (frac != 0) {
		/* frac/fracdiv * mult must be whole bytes; 128-bit avoids overflow */
		unsigned __int128 f = (unsigned __int128)frac * mult;

		if (f % fracdiv != 0) {
			WHY("size is not a whole number of bytes");
			return -1;
		}
		f /= fracdiv;
		if (f > (unsigned __int128)(INT64_MAX - v)) {
			WHY("size is too large");
			return -1;
		}
		v += (uint64_t)f;
	}
	*ret = v;
	return 0;
}

/* Writes the shortest exact size string. */
void
lab_format_size(uint64_t v, char *buf, size_t len)
{
	static const struct { const char *name; uint64_t mult; } fmt[] = {
		{ "PB", 1000000000000000ULL }, { "PiB", 1ULL << 50 },
		{ "TB", 1000000000000ULL }, { "TiB", 1ULL << 40 },
		{ "GB", 1000000000ULL }, { "GiB", 1ULL << 30 },
		{ "MB", 1000000ULL }, { "MiB", 1ULL << 20 },
		{ "KB", 1000ULL }, { "KiB", 1ULL << 10 },
	};
	size_t	i;

	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		if (v % fmt[i].mult == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", v / fmt[i].mult,
			    fmt[i].name);
			return;
		}
		/* one decimal place, as in 1.5TiB */
		if ((v * 10) / 10 == v && (v * 10) % fmt[i].mult == 0 &&
		    v >= fmt[i].mult) {
			snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "%s",
			    v / fmt[i].mult, (v * 10 / fmt[i].mult) % 10,
			    fmt[i].name);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
}

/* Human form rounded to 3 significant digits, decimal units. */
void
lab_format_size_human(uint64_t v, char *buf, size_t len)
{
	static const char *const u[] = { "B", "KB", "MB", "GB", "TB", "PB" };
	double	d = (double)v;
	size_t	i = 0;

	/* from 999.5 on, rounding would print "1000": use the next unit */
	while (d >= 999.5 && i < 5) {
		d /= 1000.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%" PRIu64 " B", v);
	else if (d >= 100.0)
		snprintf(buf, len, "%.0f %s", d, u[i]);
	else
		snprintf(buf, len, "%.3g %s", d, u[i]);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Normalises a MAC address to lower-case colon form. */
int
lab_parse_mac(const char *s, char *ret, const char **why)
{
	unsigned char	 b[6];
	size_t		 n = 0, len = strlen(s), i;
	int		 hi, lo;
	char		 sep = 0;

	if (len == 17 && (s[2] == ':' || s[2] == '-')) {
		sep = s[2];
		for (i = 0; i < 6; i++) {
			if (i < 5 && s[i * 3 + 2] != sep)
				goto bad;
			hi = hexval((unsigned char)s[i * 3]);
			lo = hexval((unsigned char)s[i * 3 + 1]);
			if (hi < 0 || lo < 0)
				goto bad;
			b[n++] = (unsigned char)(hi << 4 | lo);
		}
	} else if (len == 14 && s[4] == '.' && s[9] == '.') {
		for (i = 0; i < 14; i += 2) {
			if (i == 4 || i == 9)
				i++;
			hi = hexval((unsigned char)s[i]);
			lo = hexval((unsigned char)s[i + 1]);
			if (hi < 0 || lo < 0)
				goto bad;
			b[n++] = (unsigned char)(hi << 4 | lo);
		}
	} else if (len == 12) {
		for (i = 0; i < 12; i += 2) {
			hi = hexval((unsigned char)s[i]);
			lo = hexval((unsigned char)s[i + 1]);
			if (hi < 0 || lo < 0)
				goto bad;
			b[n++] = (unsigned char)(hi << 4 | lo);
		}
	} else
		goto bad;
	if (n != 6)
		goto bad;
	if (b[0] & 1) {
		WHY("a multicast or broadcast address is not a NIC's MAC");
		return -1;
	}
	if ((b[0] | b[1] | b[2] | b[3] | b[4] | b[5]) == 0) {
		WHY("00:00:00:00:00:00 is not a NIC's MAC");
		return -1;
	}
	/* by hand: an import of 10,000 hosts checks 20,000 of these */
	for (i = 0; i < 6; i++) {
		ret[i * 3] = "0123456789abcdef"[b[i] >> 4];
		ret[i * 3 + 1] = "0123456789abcdef"[b[i] & 15];
		ret[i * 3 + 2] = i < 5 ? ':' : '\0';
	}
	return 0;
bad:
	WHY("not a MAC address (expected six hex bytes, as in 00:26:55:d1:0a:01)");
	return -1;
}

/* Checks an IP literal or a DNS host name. */
int
lab_check_ip(const char *s, const char **why)
{
	unsigned char	buf[16];

	if (inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1)
		return 0;
	WHY("not an IPv4 or IPv6 address");
	return -1;
}

int
lab_check_cidr(const char *s, const char **why)
{
	unsigned char	 buf[16];
	char		 ip[64];
	const char	*slash = strchr(s, '/');
	size_t		 n;
	long		 len;
	int		 v6;

	if (slash == NULL || (n = (size_t)(slash - s)) == 0 ||
	    n >= sizeof(ip)) {
		WHY("write the address with its prefix length, as "
		    "192.0.2.30/24");
		return -1;
	}
	memcpy(ip, s, n);
	ip[n] = '\0';
	v6 = strchr(ip, ':') != NULL;
	if (inet_pton(v6 ? AF_INET6 : AF_INET, ip, buf) != 1) {
		WHY("not an IPv4 or IPv6 address before the '/'");
		return -1;
	}
	if (lab_parse_int(slash + 1, 1, v6 ? 128 : 32, &len) == -1) {
		WHY(v6 ? "the prefix length must be 1 to 128" :
		    "the prefix length must be 1 to 32");
		return -1;
	}
	return 0;
}

int
lab_check_address(const char *s, const char **why)
{
	unsigned char	 buf[16];
	const char	*p, *label;
	size_t		 len = strlen(s), n;
	int		 numeric = 1;

	if (len == 0 || len > 253) {
		WHY("an address is an IPv4 or IPv6 address or a host name");
		return -1;
	}
	if (inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1)
		return 0;
	if (strchr(s, ':') != NULL) {
		WHY("not a valid IPv6 address");
		return -1;
	}
	for (p = s; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			numeric = 0;
	if (numeric) {
		WHY("not a valid IPv4 address (four numbers 0-255)");
		return -1;
	}
	label = s;
	for (p = s;; p++) {
		if (*p == '.' || *p == '\0') {
			n = (size_t)(p - label);
			if (n == 0 || n > 63 || label[0] == '-' ||
			    p[-1] == '-') {
				WHY("not a valid address or host name");
				return -1;
			}
			if (*p == '\0')
				break;
			label = p + 1;
			continue;
		}
		if (!isalnum((unsigned char)*p) && *p != '-') {
			WHY("not a valid address or host name");
			return -1;
		}
	}
	return 0;
}

/* Checks a plain name. */
int
lab_check_name(const char *s, const char **why)
{
	size_t	i, len = strlen(s);

	if (len == 0) {
		WHY("a name cannot be empty");
		return -1;
	}
	if (len > 63) {
		WHY("a name is at most 63 characters");
		return -1;
	}
	if (!isalnum((unsigned char)s[0])) {
		WHY("a name starts with a letter or a digit");
		return -1;
	}
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("._-", s[i]) == NULL) {
			WHY("a name holds only letters, digits, '.', '_' and '-'");
			return -1;
		}
	return 0;
}

/* Parses a decimal integer in [min, max]. */
int
lab_parse_int(const char *s, long min, long max, long *ret)
{
	char	*end;
	long	 v;

	if (*s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*ret = v;
	return 0;
}
