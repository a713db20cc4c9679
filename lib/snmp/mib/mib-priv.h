/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_MIB_PRIV_H
#define LAB_MIB_PRIV_H

/* Helpers shared by the MIB decoders in lib/mib/. */
#include <stddef.h>

#include "lab/mib.h"

#define MIB_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* A row key: up to MIB_KEY_MAX index sub-identifiers. */
#define MIB_KEY_MAX	3

struct mib_keys {
	unsigned long	(*v)[MIB_KEY_MAX];
	size_t		  n;
	size_t		  cap;
};

/*
 * If vb's OID is prefix.COL.INDEX with at least one index sub-identifier,
 * returns 1 and sets *col, *idx and *idx_len; else 0.
 */
int	lab_mib_column(const struct lab_varbind *, const unsigned long *prefix,
	    size_t plen, unsigned long *col, const unsigned long **idx,
	    size_t *idx_len);

/* The integer value of an INTEGER or unsigned varbind, in range
 * [min, max]; returns 0 and sets *out, or -1. */
int	lab_mib_int(const struct lab_varbind *, long long min, long long max,
	    long long *out);

/* A copy of an OCTET STRING value as text: at most LAB_MIB_MAX_STR bytes,
 * control characters and NULs turned to spaces, leading and trailing
 * spaces dropped. NULL on allocation failure; "" for a non-string. */
char	*lab_mib_text(const struct lab_varbind *);

/* 1 if the value is OCTET STRING of printable ASCII (or empty). */
int	lab_mib_printable(const struct lab_varbind *);

/* "aa:bb:..." of a byte string, or NULL on allocation failure. */
char	*lab_mib_hex(const unsigned char *, size_t, char sep);

/* Adds a key (len sub-identifiers, the rest zero); -1 past the limit or
 * out of memory, with err set. */
int	lab_mib_keys_add(struct mib_keys *, const unsigned long *key, size_t len,
	    struct lab_err *);
/* Sorts and removes duplicates. */
void	lab_mib_keys_sort(struct mib_keys *);
/* The position of key (len sub-identifiers) in sorted keys, or -1. */
long	lab_mib_keys_find(const struct mib_keys *, const unsigned long *key,
	    size_t len);
void	lab_mib_keys_release(struct mib_keys *);

/* Adds v to a set (unsorted); -1 past LAB_MIB_MAX_ROWS or out of memory. */
int	lab_mib_ifset_add(struct lab_snmp_ifset *, unsigned long,
	    struct lab_err *);
/* Sorts and removes duplicates. */
void	lab_mib_ifset_sort(struct lab_snmp_ifset *);

/* Allocates n elements of size sz, zeroed, bounded by LAB_MIB_MAX_ROWS. */
void	*lab_mib_calloc(size_t n, size_t sz, struct lab_err *);

/* Moves add's neighbours to the end of out (add is left empty); -1 on
 * allocation failure or past LAB_MIB_MAX_ROWS, add released. */
int	lab_mib_neighbors_append(struct lab_snmp_neighbors *out,
	    struct lab_snmp_neighbors *add, struct lab_err *);
/* Gives every NULL string of a neighbour ""; -1 out of memory. */
int	lab_mib_neighbor_finish(struct lab_snmp_neighbor *);

#endif
