/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_FOLD_H
#define LAB_FOLD_H

#include <stddef.h>

#include "lab/str.h"

/*
 * Host names folded into ranges, the inverse of target expansion, the way
 * pdsh's dshbak and ClusterShell fold them: the last run of digits of
 * names that share what comes before and after it becomes a range
 * ("node03".."node30" -> "node[03-30]"), zero padding kept (a range of
 * padded numbers keeps their width), gaps as commas ("node[1-3,5]"),
 * several prefixes or suffixes as several pieces ("nas,node[1-3]",
 * "rack1-node[3-4]"); a name without digits stays as it is. Pieces come
 * in natural order (node9 before node10), duplicates once. Returns a new
 * string ("" for none), NULL when out of memory.
 */
char	*lab_fold_hosts(const char *const *names, size_t n);

/* Compares two names naturally: runs of digits by their value. */
int	 lab_natcmp(const char *, const char *);

/* One failed target: its name, its peer's address (or NULL), the error. */
struct lab_fail {
	const char	*host;
	const char	*addr;
	const char	*msg;
	int		 local;		/* this machine's trouble (err.local) */
};

/*
 * msg with the target's own name and address taken out, so that equal
 * failures of different hosts read the same: "BMC 127.0.0.5:623: session
 * timeout" -> "session timeout"; "ssh to 10.0.0.1 failed" -> "ssh to
 * failed". A new string, NULL when out of memory.
 */
char	*lab_fail_text(const struct lab_fail *);

/*
 * The summary of a fan-out's failures, one line per distinct failure
 * (equal lab_fail_text), in the order of their first host:
 *	lab: LABEL: K of TOTAL failed: TEXT: HOSTS
 * with HOSTS folded (lab_fold_hosts). A single failure of the run reads as
 * one host's always did: "lab: LABEL: HOST: MSG", and so does each local
 * one (this machine out of file descriptors or memory: exit 3), first,
 * naming the peer it could not reach. The peers' words and
 * the names are made visible (lab_visible). Appended to b.
 */
void	 lab_fail_summary(struct lab_buf *b, const char *label,
	    const struct lab_fail *, size_t nfail, size_t total);

#endif
