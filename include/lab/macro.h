/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_MACRO_H
#define LAB_MACRO_H

#include <stdlib.h>

/*
 * Scope-bound cleanup for locals, as systemd's _cleanup_:
 *	LAB_CLEANUP(lab_freep) char *s = NULL;
 * The function receives a pointer to the variable.
 */
#define LAB_CLEANUP(fn)	__attribute__((cleanup(fn)))

#define LAB_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define LAB_PRINTF(f, a)	__attribute__((format(printf, f, a)))

/* Frees *(void **)p; for LAB_CLEANUP on plain heap memory. */
static inline void
lab_freep(void *p)
{
	free(*(void **)p);
}

/* Returns *pp and sets it to NULL: hands ownership on. */
static inline void *
lab_steal_ptr(void *pp)
{
	void	**p = pp;
	void	 *r = *p;

	*p = NULL;
	return r;
}
#define lab_steal(pp)	lab_steal_ptr(pp)

#endif
