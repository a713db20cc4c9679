/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_PARSE_H
#define LAB_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "lab/err.h"

/*
 * Small value parsers shared by the inventory loader and the commands.
 * Each returns 0 on success and -1 on bad input, with a plain reason in
 * why (a static string) when why is not NULL. Outputs are untouched on
 * failure.
 */

/*
 * A size such as "500GB", "1TB", "72G", "1.5TiB" or "4096" (bytes).
 * K/M/G/T/P with or without a trailing B are decimal (disk vendors' units),
 * KiB/MiB/GiB/TiB/PiB binary; case does not matter. The result must be a
 * whole number of bytes and fit in 63 bits.
 */
int	lab_parse_size(const char *, uint64_t *ret, const char **why);

/*
 * Writes bytes in the shortest exact form lab_parse_size reads back
 * ("1TB", "1.5TiB", "123"). buf should hold 32 bytes.
 */
void	lab_format_size(uint64_t, char *buf, size_t len);

/* Human form rounded to 3 significant digits ("1.5 TB"); for tables. */
void	lab_format_size_human(uint64_t, char *buf, size_t len);

/*
 * A MAC address in colon, hyphen, Cisco dotted ("0026.55d1.0a01") or bare
 * hex form, normalised to "00:26:55:d1:0a:01". ret holds 18 bytes.
 */
int	lab_parse_mac(const char *, char *ret, const char **why);

/* An IPv4 or IPv6 literal (no host names). */
int	lab_check_ip(const char *, const char **why);

/* An IPv4 or IPv6 address with a prefix length: "192.0.2.30/24". */
int	lab_check_cidr(const char *, const char **why);

/* An IPv4 or IPv6 literal, or a DNS host name (RFC 1123). */
int	lab_check_address(const char *, const char **why);

/*
 * A name for a host, switch, group, credential or NIC: 1 to 63 characters
 * of [A-Za-z0-9._-], starting with a letter or digit. Such names never
 * contain the target syntax characters ([ ] , @ !).
 */
int	lab_check_name(const char *, const char **why);

/* A decimal integer in [min, max] with nothing after it. */
int	lab_parse_int(const char *, long min, long max, long *ret);

/*
 * Reads a whole regular file of at most max bytes, NUL-terminated, into
 * *ret (caller-owned). Errors name path.
 */
int	lab_file_read(const char *path, size_t max, char **ret, size_t *retlen,
	    struct lab_err *err);

#endif
