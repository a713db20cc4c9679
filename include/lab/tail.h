/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_TAIL_H
#define LAB_TAIL_H

#include <stddef.h>
#include <stdint.h>

/*
 * The last cap bytes of a stream of any length, in at most cap bytes of
 * memory (grown as needed, then a ring), and how many bytes the stream
 * had: what is kept of a command's output whatever a peer sends.
 */
struct lab_tail {
	char		*p;
	size_t		 size;	/* allocated, at most cap */
	size_t		 cap;
	size_t		 len;	/* held, at most cap */
	size_t		 head;	/* the oldest byte, once the ring is full */
	uint64_t	 total;	/* bytes added, kept or not */
	int		 oom;
};

/* Zeroes a tail that keeps at most cap (> 0) bytes. */
void	lab_tail_init(struct lab_tail *, size_t cap);
/* Adds n bytes; -1 when out of memory (then oom stays set). */
int	lab_tail_add(struct lab_tail *, const void *, size_t n);
/*
 * The bytes held, in order, NUL-terminated (not counted in *len), and
 * gives up ownership; the tail is empty after (total kept). NULL when
 * out of memory.
 */
char	*lab_tail_steal(struct lab_tail *, size_t *len);
/*
 * The text kept of a stream of total bytes whose last len are in p: p
 * itself when nothing was cut; else, from the first line start in p
 * (where there is one), after the note "[output cut: TOTAL bytes, the
 * last KEPT kept]\n". A new NUL-terminated string; NULL when out of
 * memory.
 */
char	*lab_tail_text(const char *p, size_t len, uint64_t total);
/* Frees what the tail holds and zeroes it. */
void	lab_tail_release(struct lab_tail *);

#endif
