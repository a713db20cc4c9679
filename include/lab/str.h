/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_STR_H
#define LAB_STR_H

#include <stddef.h>
#include <stdint.h>

#include "lab/macro.h"

/*
 * A growable string. On allocation failure the buffer remembers it
 * (oom = 1) and later appends do nothing, so callers check once at the end.
 * s is always NUL-terminated once anything was added; it may be NULL before.
 */
struct lab_buf {
	char	*s;
	size_t	 len;
	size_t	 cap;
	int	 oom;
};

/* Zeroes a stack buffer. */
void	lab_buf_init(struct lab_buf *);
/* Frees the buffer's memory and zeroes it. */
void	lab_buf_release(struct lab_buf *);
/* Appends n bytes. */
void	lab_buf_add(struct lab_buf *, const char *, size_t);
/* Appends a C string. */
void	lab_buf_adds(struct lab_buf *, const char *);
/* Appends one character. */
void	lab_buf_addc(struct lab_buf *, char);
/* Appends formatted text. */
void	lab_buf_addf(struct lab_buf *, const char *, ...) LAB_PRINTF(2, 3);
/* Returns the string (never NULL: "" when empty) and gives up ownership. */
char	*lab_buf_steal(struct lab_buf *);

/*
 * Memory handed out in pieces and freed at once: many small things of one
 * lifetime (the rows of 10,000 hosts) without a malloc each, and never
 * moved, so pointers into it stay good. On allocation failure it
 * remembers (oom = 1) and hands out NULL.
 */
struct lab_pool {
	struct lab_pool_chunk	*chunks;
	int			 oom;
};

/* Zeroes a pool. */
void	lab_pool_init(struct lab_pool *);
/* Frees everything handed out, and zeroes the pool. */
void	lab_pool_release(struct lab_pool *);
/* len bytes aligned for any pointer or integer, zeroed; NULL when oom. */
void	*lab_pool_alloc(struct lab_pool *, size_t len);
/* A NUL-terminated copy of the n bytes at s; NULL when out of memory. */
char	*lab_pool_strndup(struct lab_pool *, const char *s, size_t n);
/* A copy of s; NULL for NULL or when out of memory. */
char	*lab_pool_strdup(struct lab_pool *, const char *s);

/* A NULL-terminated vector of owned strings. */
struct lab_strv {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

/*
 * Makes room for one more element in *vp, which holds n: for arrays that
 * start NULL and only ever grow through here (they double at 4, 8, 16).
 * Returns 0, or -1 when out of memory (*vp is then unchanged).
 */
int	lab_grow(void *vp, size_t n, size_t sz);
/*
 * Appends one zeroed element to *vp, which holds *n, growing it as
 * lab_grow does: returns the element (*n counts it), or NULL when out of
 * memory (*vp and *n are then unchanged).
 */
void	*lab_push(void *vp, size_t *n, size_t sz);

/* Zeroes a vector. */
void	lab_strv_init(struct lab_strv *);
/* Frees every string and the vector. */
void	lab_strv_release(struct lab_strv *);
/* Appends a copy of s; returns -1 on allocation failure. */
int	lab_strv_add(struct lab_strv *, const char *);
/* Appends s itself (taking ownership); returns -1 (and frees s) on failure. */
int	lab_strv_take(struct lab_strv *, char *);
/* Returns the index of s, or -1. */
long	lab_strv_find(const struct lab_strv *, const char *);
/* Sorts the strings by strcmp(). */
void	lab_strv_sort(struct lab_strv *);
/* lab_strv_find() in a vector lab_strv_sort() sorted: a binary search. */
long	lab_strv_sorted_find(const struct lab_strv *, const char *);
/*
 * Makes sv an empty vector with room for n strings, in pool p: filled
 * with lab_strv_put, freed with the pool (never lab_strv_add or
 * lab_strv_release it). Returns -1 when out of memory.
 */
int	lab_strv_pool(struct lab_strv *sv, struct lab_pool *p, size_t n);
/* Appends s, which must outlive sv, to a vector from lab_strv_pool. */
void	lab_strv_put(struct lab_strv *sv, char *s);

/* strdup that accepts NULL (returning NULL). */
char	*lab_strdup(const char *);
/* Allocates a formatted string, or NULL. */
char	*lab_asprintf(const char *, ...) LAB_PRINTF(1, 2);
/* A copy of path with a leading "~/" put under home (when home is an
   absolute path); NULL for a NULL path or when out of memory. */
char	*lab_path_home(const char *path, const char *home);

/*
 * The candidate nearest to word by edit distance, if near enough to be a
 * plausible typo; else NULL. The pointer is one of cands.
 */
const char *lab_suggest(const char *word, const char *const *cands, size_t n);

/* Writes s as one POSIX shell word ('...' with '\'' when needed)
   (lib/core/sh-quote.c). */
void	lab_sh_quote(struct lab_buf *, const char *s);
/* 1 when s is a non-empty word sh reads as it is, unquoted. */
int	lab_sh_plain(const char *s);

#endif
