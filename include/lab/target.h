/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_TARGET_H
#define LAB_TARGET_H

#include <stddef.h>

#include "lab/err.h"
#include "lab/inventory.h"
#include "lab/str.h"

/*
 * Targets name hosts for every command that acts on several:
 *
 *	microserver1		one host
 *	microserver[1-3]	a range; ml11[0,5] a list; [01-10] keeps width
 *	n[1-10/2]		a step: n1 n3 n5 n7 n9; n[01-10/3] keeps width
 *	@nas			every host in a group
 *	@chassis[1-3]		the groups @chassis1 @chassis2 @chassis3
 *	!name, !@group		take these out again: an exclusion wins over
 *				every inclusion on the line, in any order
 *	a,b,@c			several in one word (commas outside brackets)
 *	a!b a&b a^b		inside one word, ClusterShell's difference,
 *				intersection and symmetric difference, with
 *				',' as union, left to right
 *
 * A '!' at the start of a word or right after a ',' is an exclusion, up
 * to the next ','; elsewhere it is a difference. Unknown names are an
 * error naming the nearest known ones: a typo never silently drops a
 * host from a power-off.
 */

#define LAB_RANGE_MAX	100000	/* names one pattern may expand to */

/* Expands one pattern with [..] ranges into names, in order. */
int	lab_range_expand(const char *pattern, struct lab_strv *ret,
	    struct lab_err *err);

/*
 * Resolves target words against an inventory sorted by name (as
 * lab_db_inventory_load gives it). all selects every host before the
 * exclusions. ret receives host names in inventory order, each once.
 * Errors are LAB_EXIT_INPUT.
 */
int	lab_target_resolve(const struct lab_inventory *inv, char *const *words,
	    size_t nwords, int all, struct lab_strv *ret, struct lab_err *err);

/*
 * The hosts of words named one by one, by their exact name (not through
 * a group, a range or a set operation), sorted; see
 * lib/inventory/named.c. Only an allocation can fail.
 */
int	lab_target_named(const struct lab_inventory *inv, char *const *words,
	    size_t nwords, struct lab_strv *ret, struct lab_err *err);
/* Whether name is among those (a binary search). */
int	lab_target_is_named(const struct lab_strv *named, const char *name);

#endif
